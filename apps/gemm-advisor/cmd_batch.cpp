// `gemm-advisor batch FILE|-`: ranks every shape of a list, streaming, in input order, on J threads.
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/parallel_pipeline.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>

#include "cli.hpp"
#include "gemm_advisor/candidates.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/ranker.hpp"
#include "gemm_advisor/report.hpp"
#include "gemm_advisor/shape_list.hpp"
#include "gemm_advisor/triton_target.hpp"

namespace cli {

namespace {

struct BatchOptions {
  CommonOptions common;
  std::string input;
  std::string format = "jsonl";
  std::string input_format = "auto";
  std::string emit;
  unsigned jobs = 0;
  bool keep_going = false;
};

// One shape travelling through the pipeline: read in order, ranked in parallel, written in order.
struct Item {
  gemm_advisor::ShapeEntry entry;
  std::string text;  // formatted output for this shape
};

// Per-thread buffers, so ranking a shape allocates nothing after warm-up.
struct Scratch {
  std::vector<gemm_advisor::TileConfig> candidates;
  std::vector<gemm_advisor::RankedConfig> ranked;
};

// Draws a progress line on stderr (only when it is a terminal), at most 10 times a second.
class Progress {
 public:
  Progress(bool enabled, std::istream* in, double total_bytes)
      : enabled_(enabled), in_(in), total_bytes_(total_bytes), start_(std::chrono::steady_clock::now()) {}
  void update(std::size_t done) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
    std::string bar;
    if (total_bytes_ > 0 && in_) {
      const double pos = static_cast<double>(in_->tellg());
      const double frac = pos > 0 ? std::min(1.0, pos / total_bytes_) : 0.0;
      const int filled = static_cast<int>(frac * 30);
      const double eta = frac > 0 ? elapsed * (1 - frac) / frac : 0;
      bar = fmt::format("[{}{}] {:3.0f}% ETA {:.0f}s ", std::string(filled, '#'), std::string(30 - filled, ' '),
                        frac * 100, eta);
    }
    std::cerr << fmt::format("\r{}{} shapes, {:.0f} shapes/s ", bar, done, rate) << std::flush;
    drawn_ = true;
  }
  void finish() {
    if (drawn_) std::cerr << "\r\033[K" << std::flush;
  }

 private:
  bool enabled_;
  std::istream* in_;
  double total_bytes_;
  std::chrono::steady_clock::time_point start_, last_{};
  bool drawn_ = false;
};

nlohmann::json triton_emit_json(const gemm_advisor::ShapeEntry& e, const std::vector<gemm_advisor::RankedConfig>& ranked,
                                std::size_t top) {
  nlohmann::json configs = nlohmann::json::array();
  for (const auto& r : ranked) {
    if (!r.estimate.feasible || (top && configs.size() >= top)) break;
    configs.push_back({{"BLOCK_M", r.config.block_m},
                       {"BLOCK_N", r.config.block_n},
                       {"BLOCK_K", r.config.block_k},
                       {"GROUP_M", r.config.group_m},
                       {"SPLIT_K", r.config.split_k},
                       {"num_warps", r.config.num_warps},
                       {"num_stages", r.config.num_stages}});
  }
  nlohmann::json j = {{"m", e.problem.m},
                      {"n", e.problem.n},
                      {"k", e.problem.k},
                      {"batch", e.problem.batch},
                      {"dtype", gemm_advisor::dtype_name(e.problem.dtype)},
                      {"layout", e.problem.layout.name()},
                      {"configs", configs}};
  if (!e.name.empty()) j["name"] = e.name;
  return j;
}

int run_batch(const BatchOptions& o) {
  using namespace gemm_advisor;
  GemmProblem defaults;
  defaults.dtype = parse_dtype(o.common.dtype);
  defaults.layout = parse_layout(o.common.layout);
  const Hardware hw = load_checked_hardware(o.common);
  std::vector<TileConfig> fixed;
  if (!o.common.candidates.empty()) fixed = read_candidates_file(o.common.candidates);

  std::unique_ptr<std::ifstream> file;
  std::istream* in = &std::cin;
  std::string source = "<stdin>";
  double total_bytes = 0;
  if (o.input != "-") {
    check_readable_file(o.input);
    file = std::make_unique<std::ifstream>(o.input, std::ios::binary);
    if (!*file) throw InputError(o.input + ": cannot open");
    file->seekg(0, std::ios::end);
    total_bytes = static_cast<double>(file->tellg());
    file->seekg(0, std::ios::beg);
    in = file.get();
    source = o.input;
  }
  auto reader = open_shape_reader(*in, source, parse_shape_format(o.input_format), defaults);

  const unsigned jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, jobs);
  const bool emit_triton = o.emit == "triton";
  const std::string fmt_name = emit_triton ? "triton" : o.format;
  const std::size_t top = o.common.top;

  std::size_t done = 0, bad = 0;
  std::atomic<bool> stop{false};
  Progress progress(!g_quiet && ::isatty(2), file ? in : nullptr, total_bytes);
  const auto start = std::chrono::steady_clock::now();
  if (fmt_name == "csv") write_ranking_csv_header(std::cout);
  if (emit_triton) std::cout << "[";
  bool first_json = true;

  tbb::enumerable_thread_specific<Scratch> scratch;
  tbb::parallel_pipeline(
      jobs * 4,
      tbb::make_filter<void, std::shared_ptr<Item>>(
          tbb::filter_mode::serial_in_order,
          [&](tbb::flow_control& fc) -> std::shared_ptr<Item> {
            auto item = std::make_shared<Item>();
            if (stop.load() || !reader->next(item->entry)) {
              fc.stop();
              return nullptr;
            }
            return item;
          }) &
          tbb::make_filter<std::shared_ptr<Item>, std::shared_ptr<Item>>(
              tbb::filter_mode::parallel,
              [&](std::shared_ptr<Item> item) {
                ShapeEntry& e = item->entry;
                if (!e.error.empty()) return item;
                try {
                  validate_problem(e.problem);
                  require_dtype(hw, e.problem.dtype);
                } catch (const InputError& err) {
                  e.error = located(source, e.line, err.what());
                  return item;
                }
                Scratch& s = scratch.local();
                if (fixed.empty()) triton_candidates(e.problem, hw, s.candidates);
                rank_configs(e.problem, hw, fixed.empty() ? s.candidates : fixed, s.ranked);
                std::ostringstream out;
                if (emit_triton) {
                  out << triton_emit_json(e, s.ranked, top).dump();
                } else if (fmt_name == "jsonl") {
                  out << ranking_json(e.problem, hw, o.common.target, s.ranked, top, e.name).dump() << "\n";
                } else if (fmt_name == "csv") {
                  write_ranking_csv_rows(out, e.problem, hw, s.ranked, top, e.name);
                } else {
                  write_ranking_table(out, e.problem, hw, s.ranked, top, e.name);
                  out << "\n";
                }
                item->text = out.str();
                return item;
              }) &
          tbb::make_filter<std::shared_ptr<Item>, void>(
              tbb::filter_mode::serial_in_order, [&](std::shared_ptr<Item> item) {
                if (stop.load()) return;
                if (!item->entry.error.empty()) {
                  ++bad;
                  progress.finish();
                  std::cerr << "gemm-advisor: error: " << item->entry.error << "\n";
                  if (!o.keep_going) stop = true;
                  return;
                }
                if (emit_triton) {
                  std::cout << (first_json ? "\n  " : ",\n  ");
                  first_json = false;
                }
                std::cout << item->text;
                ++done;
                progress.update(done);
              }));
  if (emit_triton) std::cout << (first_json ? "]\n" : "\n]\n");
  std::cout.flush();
  progress.finish();
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!g_quiet) {
    std::cerr << fmt::format("gemm-advisor: batch: {} shapes ranked, {} bad{} in {:.3f} s ({:.0f} shapes/s, {} threads)\n",
                             done, bad, stop.load() ? " (stopped at the first bad line; --keep-going goes on)" : "",
                             elapsed, elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0, jobs);
  }
  return bad ? kExitBadInput : kExitOk;
}

}  // namespace

Registered register_batch(CLI::App& app) {
  auto o = std::make_shared<BatchOptions>();
  o->common.top = 1;
  CLI::App* cmd = app.add_subcommand("batch", "Rank every shape of a list (CSV, YAML, JSON or MxNxK lines), streaming");
  cmd->add_option("input", o->input, "Shape list file, or - for stdin")->required();
  add_common_options(cmd, o->common, true);
  cmd->add_option("--format", o->format, "jsonl (one object per shape), csv or table")
      ->capture_default_str()
      ->check(CLI::IsMember({"jsonl", "csv", "table"}));
  cmd->add_option("--input-format", o->input_format, "auto, csv, yaml, json or text")->capture_default_str();
  cmd->add_option("--emit", o->emit, "Write configs for a kernel library instead: triton")
      ->check(CLI::IsMember({"triton"}));
  cmd->add_option("-j,--jobs", o->jobs, "Threads (default: all cores); output is identical for any value");
  cmd->add_flag("--keep-going", o->keep_going, "Report each bad line and go on (exit 1 at the end if any)");
  return {cmd, [o]() { return run_batch(*o); }};
}

}  // namespace cli
