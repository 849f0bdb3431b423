// `gemm-advisor batch FILE|-`: ranks every shape of a list, streaming, in input order, on J threads.
//
// A TBB pipeline of three stages: read (serial, in order) -> rank and format (parallel) -> write
// (serial, in order). At most 4 * J shapes are in flight, so memory does not grow with the list
// (CSV and text lists stream; YAML and JSON lists are parsed whole by yaml-cpp first).
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/parallel_pipeline.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>
#include <vector>

#include "cli.hpp"
#include "gemm_advisor/advise.hpp"
#include "gemm_advisor/csv_reader.hpp"
#include "gemm_advisor/emit.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/frontend.hpp"
#include "gemm_advisor/report.hpp"
#include "gemm_advisor/shape_list.hpp"
#include "gemm_advisor/targets/vllm_fp8_block.hpp"
#include "gemm_advisor/targets/vllm_fused_moe.hpp"

namespace cli {

// --m-values' keyword 'input', in any case and with spaces around it, as the option's numbers and
// fixed-list values are read (' input ' and INPUT were "not a whole number": a fresh user's find).
bool is_input_keyword(const std::string& text) {
  std::string word;
  for (const char ch : text)
    if (ch != ' ' && ch != '\t') word += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return word == "input";
}

std::vector<std::int64_t> parse_m_value_list(const std::string& text) {
  if (text.empty()) return gemm_advisor::vllm_default_m_values();
  std::vector<std::int64_t> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    std::string_view field = std::string_view(text).substr(start, comma - start);
    // Spaces around a value are allowed ("1, 16, 128", as --params and --names read theirs).
    while (!field.empty() && (field.front() == ' ' || field.front() == '\t')) field.remove_prefix(1);
    while (!field.empty() && (field.back() == ' ' || field.back() == '\t')) field.remove_suffix(1);
    std::int64_t m = 0;
    const auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), m);
    const bool whole = !field.empty() && ptr == field.data() + field.size() &&
                       (ec == std::errc() || ec == std::errc::result_out_of_range);
    if (!whole || ec != std::errc() || m < 1 || m > gemm_advisor::kMaxDim)
      throw gemm_advisor::InputError(
          "--m-values: '" + gemm_advisor::printable(std::string(field)) + "' " +
          (whole && (ec != std::errc() || m > gemm_advisor::kMaxDim)
               ? "is above the largest M, " + std::to_string(gemm_advisor::kMaxDim)
               : std::string("is not a whole number of at least 1")) +
          " (give e.g. 1,16,128 or 'input')");
    out.push_back(m);
    start = comma + 1;
  }
  std::sort(out.begin(), out.end());
  // A value twice is a typo for another (--params and --names refuse theirs too).
  if (const auto twice = std::adjacent_find(out.begin(), out.end()); twice != out.end())
    throw gemm_advisor::InputError("--m-values: " + std::to_string(*twice) + " is given twice");
  return out;
}

namespace {

/// Shapes in flight per thread: enough to keep every thread busy while the writer waits for the
/// next shape in order, few enough that memory stays flat.
constexpr std::size_t kTokensPerThread = 4;

enum class Output { jsonl, csv, table, triton, vllm };

struct BatchOptions {
  CommonOptions common;
  std::string input;
  std::string format = "jsonl";
  std::string input_format = "auto";
  std::string emit;
  std::string out_dir;
  std::string m_values;          // --m-values: empty = vLLM's list, "input", or "1,16,128"
  std::string vllm_device_name;  // --vllm-device-name: overrides the profile's known vLLM name
  std::string names;             // --names: renames of the target's parameters for --emit triton
  unsigned jobs = 0;
  bool keep_going = false;
  bool overwrite = false;  // --overwrite: replace config files gemm-advisor did not write
  // Which options the command line gave (CLI11 counts), for the checks that depend on them.
  const CLI::Option* target_option = nullptr;
};

// One shape travelling through the pipeline: read in order, ranked in parallel, written in order.
struct Item {
  gemm_advisor::ShapeEntry entry;
  bool fatal = false;      // the reader cannot go on after this entry's error (bad CSV quoting, ...)
  bool duplicate = false;  // --emit vllm: this (N, K) [, M] was ranked already
  std::string text;        // formatted output of this shape
  std::vector<std::pair<std::int64_t, gemm_advisor::TileConfig>> vllm_best;  // (M, best config)
  std::string infeasible_given;  // --candidates: the first given config that cannot run here, "CONFIG: reason"
};

// Per-thread buffers, so ranking a shape allocates nothing after warm-up.
struct Scratch {
  std::vector<gemm_advisor::TileConfig> candidates;
  std::vector<gemm_advisor::RankedConfig> ranked;
};

// While a progress line is on the terminal, SIGPIPE (stdout's reader gone: `| head -1`) first erases
// it, then ends the process as SIGPIPE does (exit 141): the line was left behind, with what the
// reader printed glued to it (a fresh user's find, 2026-12-04). Only async-signal-safe calls.
volatile std::sig_atomic_t g_progress_on_screen = 0;
extern "C" void erase_progress_then_die(int signal_number) {
  if (g_progress_on_screen) {
    static const char kErase[] = "\r\033[K";
    const ssize_t written = ::write(STDERR_FILENO, kErase, sizeof kErase - 1);
    (void)written;
  }
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

// Draws a progress line on stderr at most kRedrawsPerSecond times a second: a bar with percent and
// ETA when the input is a file read as it goes (its byte position tells how far), else the count.
// Always with the rate. The reading stage publishes the byte position; the writing stage draws.
class Progress {
 public:
  static constexpr int kRedrawsPerSecond = 10;
  static constexpr int kBarWidth = 30;
  /// How often (in shapes) the reading stage samples the input's byte position.
  static constexpr std::size_t kPositionSampleShapes = 64;

  Progress(bool enabled, double total_bytes)
      : enabled_(enabled), total_bytes_(total_bytes), start_(std::chrono::steady_clock::now()) {}
  bool enabled() const { return enabled_; }
  /// Called by the reading stage (the only one that touches the stream).
  void set_position(double bytes) { position_bytes_.store(bytes, std::memory_order_relaxed); }
  /// Called by the writing stage after each shape.
  void update(std::size_t done) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(1000 / kRedrawsPerSecond)) return;
    last_ = now;
    const double elapsed_s = std::chrono::duration<double>(now - start_).count();
    const double rate = elapsed_s > 0 ? static_cast<double>(done) / elapsed_s : 0;
    std::string bar;
    if (total_bytes_ > 0) {
      const double pos = position_bytes_.load(std::memory_order_relaxed);
      const double frac = std::clamp(pos / total_bytes_, 0.0, 1.0);
      const int filled = static_cast<int>(frac * kBarWidth);
      const double eta_s = frac > 0 ? elapsed_s * (1 - frac) / frac : 0;
      bar = fmt::format("[{}{}] {:3.0f}% ETA {:.0f}s ", std::string(filled, '#'), std::string(kBarWidth - filled, ' '),
                        frac * 100, eta_s);
    }
    if (!drawn_ && std::signal(SIGPIPE, erase_progress_then_die) == SIG_IGN)
      std::signal(SIGPIPE, SIG_IGN);  // ignored by the parent: left so (finish_stdout then says 141)
    std::cerr << fmt::format("\r{}{} shapes, {:.0f} shapes/s ", bar, done, rate) << std::flush;
    drawn_ = true;
    g_progress_on_screen = 1;
  }
  /// Erases the line (before an error message, and at the end).
  void clear() {
    g_progress_on_screen = 0;
    if (drawn_) std::cerr << "\r\033[K" << std::flush;
    drawn_ = false;
  }

 private:
  bool enabled_;
  double total_bytes_;
  std::atomic<double> position_bytes_{0};
  std::chrono::steady_clock::time_point start_, last_{};
  bool drawn_ = false;
};

// The shape list, read straight from its file descriptor (standard input, or the file named).
// The standard streams would take a failed read for the end of the input (std::cin), or fail at
// measuring a pipe's size (std::ifstream, for `batch <(generator)`), so an unreadable input would
// pass for an empty one. This buffer throws InputError with the reason instead; the readers'
// istream calls (peek, read) rethrow it when the stream has badbit in its exception mask.
class InputBuffer : public std::streambuf {
 public:
  /// Reads `fd`, and closes it at the end when `owned`. `source` names the input in messages.
  InputBuffer(int fd, bool owned, std::string source)
      : fd_(fd), owned_(owned), source_(std::move(source)), buffer_(std::size_t{1} << 16) {}
  ~InputBuffer() override {
    if (owned_) ::close(fd_);
  }
  InputBuffer(const InputBuffer&) = delete;
  InputBuffer& operator=(const InputBuffer&) = delete;

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    ssize_t got = 0;
    do {
      got = ::read(fd_, buffer_.data(), buffer_.size());
    } while (got < 0 && errno == EINTR);
    if (got < 0) {
      const int error = errno;
      // The same words as for a directory given by name (check_readable_file).
      throw gemm_advisor::InputError(error == EISDIR ? source_ + ": is a directory, expected a file"
                                                     : source_ + ": cannot read: " + std::strerror(error));
    }
    if (got == 0) return traits_type::eof();
    consumed_ += got;
    setg(buffer_.data(), buffer_.data(), buffer_.data() + got);
    return traits_type::to_int_type(*gptr());
  }
  // Only tellg() (the progress bar): the bytes taken so far.
  pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode) override {
    if (off != 0 || dir != std::ios_base::cur) return pos_type(off_type(-1));
    return pos_type(consumed_ - (egptr() - gptr()));
  }

 private:
  int fd_;
  bool owned_;
  std::string source_;
  std::vector<char> buffer_;
  off_type consumed_ = 0;
};

// --m-values: "" -> vLLM's list; "input" -> each line's own M; else a comma-separated list.
bool parse_m_values(const std::string& text, std::vector<std::int64_t>& out) {
  if (is_input_keyword(text)) return true;
  try {
    out = parse_m_value_list(text);
  } catch (const gemm_advisor::InputError& e) {
    throw UsageError(e.what());
  }
  return false;
}

int run_batch(const BatchOptions& o) {
  using namespace gemm_advisor;
  if (o.common.target == vllm_fused_moe_target().name()) {
    if (!o.names.empty()) throw UsageError("--names goes with --emit triton, not with --target vllm-fused-moe");
    // A model list is CSV, YAML or JSON, told from its extension or content; --input-format text was
    // taken unsaid (a fresh CI user's find, 2026-12-05).
    if (o.input_format == "text" || o.input_format == "txt")
      throw UsageError("--input-format text: a fused-MoE model list is CSV, YAML or JSON (a text list holds "
                       "MxNxK shapes)");
    MoeBatchOptions m;
    m.common = &o.common;
    m.input = o.input;
    m.format = o.format;
    m.emit = o.emit;
    m.out_dir = o.out_dir;
    m.m_values = o.m_values;
    m.vllm_device_name = o.vllm_device_name;
    m.keep_going = o.keep_going;
    m.overwrite = o.overwrite;
    return run_moe_batch(m);
  }
  if (moe_options_given(o.common.moe))
    throw UsageError("--from-hf, --tp and --routing describe MoE layers: they go with --target vllm-fused-moe");
  if (o.input.empty()) throw UsageError("give the shape list: a FILE, or - for stdin");
  const Output output = o.emit == "triton" ? Output::triton
                        : o.emit == "vllm" ? Output::vllm
                        : o.format == "csv" ? Output::csv
                        : o.format == "table" ? Output::table
                                              : Output::jsonl;
  const bool vllm = output == Output::vllm;

  // Option checks first: a usage error leaves no trace on stdout or disk.
  // --emit vllm writes the tuned-config files of vLLM's block FP8 GEMM: it ranks that kernel.
  CommonOptions common = o.common;
  if (vllm) {
    if (o.target_option->count() && common.target != vllm_fp8_block_target().name())
      throw UsageError("--emit vllm ranks vLLM's block FP8 kernel (target vllm-fp8-block): --target " + common.target +
                       " cannot apply");
    common.target = std::string(vllm_fp8_block_target().name());
  }
  const Target& target = find_target(common.target);
  // An autotune list wants different tiles, not one tile at several stage counts: --emit triton lists
  // distinct tiles first unless told otherwise, as the Python module's triton.configs does (8 configs
  // held 2-3 distinct tiles: a fresh CI user's find, 2026-12-05).
  if (output == Output::triton && common.distinct_option && common.distinct_option->count() == 0) common.distinct = true;
  GemmProblem defaults = problem_defaults(common);
  std::vector<std::int64_t> m_grid;
  bool m_from_input = false;
  if (vllm) {
    if (o.out_dir.empty()) throw UsageError("--emit vllm needs --out DIR (the directory for the config files)");
    if (o.out_dir == "-") throw UsageError("--emit vllm writes files into --out DIR: - (stdout) cannot hold them");
    if (!common.candidates.empty()) throw UsageError("--emit vllm ranks vLLM's own kernel space: drop --candidates");
    if (ranking_options_given(common))
      throw UsageError("--top and --distinct choose what is printed: --emit vllm writes each M's top config");
    if (defaults.dtype != Dtype::fp8)
      throw UsageError("--emit vllm writes fp8_w8a8 configs: --dtype " + common.dtype + " cannot apply");
    if (defaults.layout.name() != "NT")
      throw UsageError("--emit vllm: vLLM's kernel computes x W^T (layout NT): --layout " + common.layout +
                       " cannot apply");
    m_from_input = parse_m_values(o.m_values, m_grid);
  } else if (!o.m_values.empty() || !o.vllm_device_name.empty() || o.overwrite) {
    // --m-values also takes a fused-MoE model list's M values: a forgotten --target said so (the
    // hint named --emit vllm alone: a fresh user's find, 2026-12-05).
    throw UsageError(std::string("--m-values, --vllm-device-name and --overwrite go with --emit vllm") +
                     (o.m_values.empty() ? "" : " (or --m-values with --target vllm-fused-moe and a model list)"));
  }
  if (!o.names.empty() && output != Output::triton)
    throw UsageError("--names renames the parameters --emit triton writes: it goes with --emit triton");
  ParameterNames names;
  try {
    if (!o.names.empty()) names = parse_parameter_names(o.names, target);
  } catch (const InputError& e) {
    throw UsageError(e.what());
  }

  const bool fields_left_out =
      std::any_of(names.begin(), names.end(), [](const auto& renamed) { return renamed.second.empty(); });
  Profile profile = load_profile_logged(common.hw, common.overrides, target.name());
  // A kernel without SPLIT_K (--names SPLIT_K=) takes the unsplit configs only, as Python's
  // names={"split_k": None} gives.
  for (const TargetParameter& p : target.info().parameters) {
    const auto it = names.find(p.name);
    if (p.field == "split_k" && it != names.end() && it->second.empty()) profile.triton.max_split_k = 1;
  }
  const Hardware& hw = profile.hw;
  if (vllm) warn_partition_files(hw, common.overrides);
  // A --dtype or --layout the GPU or the kernel cannot take is the command line's error, said once,
  // not once per line of the list.
  const bool dtype_set = dtype_given(common);
  const bool layout_set = layout_given(common);
  if (const std::string w = dtype_format_warning(common.dtype, hw); dtype_set && !w.empty()) spdlog::warn("{}", w);
  // Bad input (exit 1), as rank's and explain's (it was a usage error here, exit 2: a fresh user's find,
  // 2026-12-06).
  if (dtype_set) require_matrix_dtype(hw, defaults.dtype, common.dtype);
  if (dtype_set || layout_set) {
    GemmProblem probe = defaults;
    probe.m = probe.n = probe.k = 128;
    probe.batch = 1;
    if (const std::string why = target.problem_error(probe, profile); !why.empty())
      throw UsageError(std::string(dtype_set ? "--dtype " + common.dtype : "") + (dtype_set && layout_set ? ", " : "") +
                       (layout_set ? "--layout " + common.layout : "") + ": " + why);
  }
  std::string device_name;
  if (vllm) {
    require_vllm_block_fp8(hw);
    std::string mapped;  // a --hw FILE named like a shipped profile: its name taken for the device's
    device_name = o.vllm_device_name.empty() ? vllm_device_name(hw, &mapped) : o.vllm_device_name;  // checked at parse time
    if (!mapped.empty()) spdlog::warn("{}", mapped);
    if (const std::string other =
            vllm_device_vendor_warning(hw, device_name, /*rocm_keys=*/false, /*given=*/!o.vllm_device_name.empty());
        !other.empty())
      spdlog::warn("{}", other);
    // A market name given for the GPU, which an older vLLM would look the files up under (a fresh MoE
    // user's find, 2026-12-05).
    if (o.vllm_device_name.empty()) warn_vllm_market_name(hw, common, device_name);
  }
  // The shape list claims stdin before --candidates reads: with both '-', the candidates read the
  // shapes and failed as a malformed candidates file (a fresh CI user's find, 2026-12-04).
  const bool file = o.input != "-";
  if (!file) claim_stdin("the shape list");
  const std::vector<TileConfig> fixed = read_given_candidates(common.candidates);

  // The summary's time includes reading the list: a YAML or JSON list is parsed whole when opened
  // (200k shapes: 3.4 s of a 4.2 s run were left out of "in 0.8 s": a fresh user's find).
  const auto start = std::chrono::steady_clock::now();
  const std::string source = file ? o.input : "<stdin>";
  double total_bytes = 0;  // a regular file's size, for the progress bar; 0: unknown
  std::unique_ptr<InputBuffer> buffer;
  if (file) {
    check_readable_file(o.input);
    const int fd = ::open(o.input.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw InputError(o.input + ": cannot open: " + std::strerror(errno));
    buffer = std::make_unique<InputBuffer>(fd, true, source);
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) total_bytes = static_cast<double>(st.st_size);
  } else {
    buffer = std::make_unique<InputBuffer>(STDIN_FILENO, false, source);
  }
  std::istream input(buffer.get());
  input.exceptions(std::ios::badbit);  // a read error is the buffer's InputError, not an end
  std::istream* in = &input;
  // A gzipped list (a name ending in .gz, or data that starts with gzip's first magic byte, which no
  // text list does: `zcat` not needed on stdin) is read decompressed, streamed; the progress bar
  // counts the compressed bytes, as the file's size does.
  std::unique_ptr<std::istream> gunzipped;
  if (is_gzip_path(o.input) || input.peek() == 0x1f) {
    gunzipped = gzip_stream(buffer.get(), source);
    in = gunzipped.get();
  }
  auto reader = open_shape_reader(*in, source, parse_shape_format(o.input_format), defaults);
  for (const std::string& w : reader->warnings()) spdlog::warn("{}", w);
  if (vllm) {
    check_directory_creatable(o.out_dir);  // created when the files are written: a failed run leaves none
    check_generator_sidecar(o.out_dir);  // before any file: a sidecar that cannot be replaced stops the run
  }
  // --out FILE (not --emit vllm): the results go to FILE, in place only when the run ends well.
  ResultsFile results(vllm ? std::string() : o.out_dir, o.input, common);
  // YAML and JSON lists are parsed whole when opened: their byte position says nothing then.
  const bool position_tells = file && in->peek() != std::char_traits<char>::eof();
  in->clear();

  const unsigned jobs = o.jobs ? o.jobs : usable_cpus();
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, jobs);
  const std::size_t top = common.top;

  std::size_t done = 0, bad = 0, duplicates = 0;
  ListDtypeEncodings list_encodings;
  // A list line whose own dtype differs from a given --dtype: said once, at the first (a list's dtype
  // column wins, --dtype fills only lines without one; --emit triton wrote bf16 configs under
  // --dtype fp8 unsaid: a fresh CI user's find, 2026-12-07).
  bool said_own_dtype = false;
  std::size_t infeasible_shapes = 0;  // shapes for which some --candidates config cannot run
  std::string first_infeasible;
  BeyondMemory beyond_memory;  // shapes whose operands exceed the GPU's memory (writing stage)
  OutsideFittedShapes outside_fit{profile, target, {}};  // ... outside a calibrated overlay's shapes
  // Results from a live producer (a pipe or terminal on stdin) go out as each shape is ranked: the
  // stream's buffer held them until the input ended (a fresh batch user's find, 2026-12-05). A file
  // is read at full speed, and its results are flushed by the buffer's own size.
  struct stat stdin_stat {};
  const bool live_input = !file && !(::fstat(STDIN_FILENO, &stdin_stat) == 0 && S_ISREG(stdin_stat.st_mode));
  bool stopped = false, unreadable = false;
  std::atomic<bool> stop{false};
  bool reader_failed = false;  // touched by the reading stage only
  std::size_t read_count = 0;  // touched by the reading stage only
  std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t>> vllm_seen;           // reading stage
  std::map<std::pair<std::int64_t, std::int64_t>, std::map<std::int64_t, TileConfig>> vllm_tables;  // writing stage
  Progress progress(!g_quiet && ::isatty(STDERR_FILENO), position_tells ? total_bytes : 0);
  // The CSV header and the Triton list's "[" go out with the first result, so that an input holding
  // no shape (an error) leaves stdout empty, not with a header passed off as a complete answer.
  bool first_json = true;
  bool header_written = false;

  tbb::enumerable_thread_specific<Scratch> scratch;
  tbb::parallel_pipeline(
      jobs * kTokensPerThread,
      tbb::make_filter<void, std::shared_ptr<Item>>(
          tbb::filter_mode::serial_in_order,
          [&](tbb::flow_control& fc) -> std::shared_ptr<Item> {
            if (stop.load() || reader_failed) {
              fc.stop();
              return nullptr;
            }
            auto item = std::make_shared<Item>();
            try {
              if (!reader->next(item->entry)) {
                fc.stop();
                return nullptr;
              }
            } catch (const InputError& err) {
              // The rest of the input cannot be read: pass the error on in order, then stop.
              item->entry.error = err.what();
              item->fatal = true;
              reader_failed = true;
              return item;
            }
            // A bad line of gzipped data that stops the run may be the data's corruption, which zlib
            // finds only at the member's check: read on to the end and say that instead (a flipped
            // bit was "expected 3 fields as in the header": a fresh user's find, 2026-12-05).
            if (gunzipped && !o.keep_going && !item->entry.error.empty()) {
              try {
                char sink[1 << 14];
                while (in->read(sink, sizeof sink) || in->gcount() > 0) {
                }
              } catch (const InputError& err) {
                item->entry.error = err.what();
                item->fatal = true;
                reader_failed = true;
                return item;
              }
            }
            if (progress.enabled() && position_tells && ++read_count % Progress::kPositionSampleShapes == 0)
            {
              // The compressed bytes taken so far for a gzipped list (its file's size is the total);
              // the decompressed stream cannot tell (tellg -1: the bar stood at 100% from the start).
              const auto pos = input.tellg();  // -1 once the stream hit its end
              progress.set_position(pos < 0 ? total_bytes : static_cast<double>(pos));
            }
            ShapeEntry& e = item->entry;
            if (vllm && e.error.empty()) {
              e.problem.dtype = Dtype::fp8;
              e.problem.layout = defaults.layout;
              if (e.problem.batch != 1) {
                e.error = located(source, e.line,
                                  "batch " + std::to_string(e.problem.batch) +
                                      ": vLLM's block FP8 GEMM is 2-D, the batch must be 1");
              } else {
                item->duplicate =
                    !vllm_seen.emplace(e.problem.n, e.problem.k, m_from_input ? e.problem.m : 0).second;
              }
            }
            return item;
          }) &
          tbb::make_filter<std::shared_ptr<Item>, std::shared_ptr<Item>>(
              tbb::filter_mode::parallel,
              [&](std::shared_ptr<Item> item) {
                ShapeEntry& e = item->entry;
                if (!e.error.empty() || item->duplicate || stop.load()) return item;
                try {
                  validate_problem(e.problem);
                  require_dtype(hw, e.problem.dtype);
                } catch (const InputError& err) {
                  e.error = located(source, e.line, err.what());
                  return item;
                }
                Scratch& s = scratch.local();
                if (vllm) {
                  GemmProblem q = e.problem;
                  const std::vector<std::int64_t> own_m = {e.problem.m};
                  for (std::int64_t m : m_from_input ? own_m : m_grid) {
                    q.m = m;
                    advise(target, q, profile, nullptr, 1, s.candidates, s.ranked);
                    if (s.ranked.empty() || !s.ranked.front().estimate.feasible) {
                      e.error = located(source, e.line,
                                        "no config of vLLM's block FP8 kernel fits " + q.shape_text() + " on " + hw.name);
                      return item;
                    }
                    item->vllm_best.emplace_back(m, s.ranked.front().config);
                  }
                  return item;
                }
                try {
                  // With a field left out (--names GROUP_SIZE_M=), configs that differed only there are
                  // written once: the whole ranking, so that `top` distinct ones remain.
                  advise(target, e.problem, profile, fixed.empty() ? nullptr : &fixed, fields_left_out ? 0 : top,
                         s.candidates, s.ranked, common.distinct);
                  if (common.distinct) distinct_tiles_first(s.ranked, top);
                } catch (const InputError& err) {
                  // A line's own dtype wins over --dtype: said where that is what the target refuses
                  // (examples/deepseek-v3.csv's bf16 column with --dtype fp8: a fresh user's find).
                  // Without --dtype too: the shipped DeepSeek list under --target vllm-fp8-block failed
                  // every line with no word of the column (a fresh user's find, 2026-12-07).
                  const bool own_dtype = !e.dtype_text.empty() && e.problem.dtype != defaults.dtype;
                  e.error = located(source, e.line,
                                    std::string(err.what()) +
                                        (!own_dtype ? ""
                                         : dtype_set ? " (the line's dtype column, which --dtype does not override: "
                                                       "edit or drop the column)"
                                                     : " (the line's dtype column: edit or drop the column; a line "
                                                       "without one takes " +
                                                           std::string(dtype_name(defaults.dtype)) + ", the target's)"));
                  return item;
                }
                if (s.ranked.empty() || !s.ranked.front().estimate.feasible) {
                  // Nothing to advise is a bad line, never a silently missing row.
                  e.error = located(source, e.line,
                                    "no feasible config for " + e.problem.shape_text() + " on " + hw.name +
                                        (!fixed.empty() ? " among the configs of " + common.candidates +
                                                              (s.ranked.empty()
                                                                   ? std::string()
                                                                   : " (" + infeasible_config_text(s.ranked.front()) + ")")
                                         : s.ranked.empty() ? empty_space_reason()
                                                            : std::string()));
                  return item;
                }
                // A given config that cannot run on this shape: counted and said once at the end, as rank
                // says each (it was left out unsaid: a fresh user's find, 2026-12-04).
                if (!fixed.empty()) {
                  const auto bad_config = std::find_if(s.ranked.begin(), s.ranked.end(),
                                                       [](const RankedConfig& r) { return !r.estimate.feasible; });
                  if (bad_config != s.ranked.end()) item->infeasible_given = infeasible_config_text(*bad_config);
                }
                std::ostringstream out;
                switch (output) {
                  case Output::triton: out << json_text(emit_json(target, e.problem, hw, e.name, s.ranked, top, names)); break;
                  case Output::jsonl: {
                    nlohmann::json j = ranking_json(e.problem, hw, common.target, s.ranked, top, e.name);
                    add_fitted_shapes_note(j, profile, target, e.problem);
                    out << json_text(j) << "\n";
                    break;
                  }
                  case Output::csv: write_ranking_csv_rows(out, e.problem, hw, common.target, s.ranked, top, e.name); break;
                  default:
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
                  progress.clear();
                  std::cout.flush();  // the results before the bad line come first
                  std::cerr << "gemm-advisor: error: " << item->entry.error << "\n";
                  if (item->fatal) unreadable = true;
                  if (!o.keep_going || item->fatal) {
                    stopped = true;
                    stop = true;
                  }
                  return;
                }
                if (item->duplicate) {
                  ++duplicates;
                  return;
                }
                // A line's fp8 encoding the GPU does not compute, as --dtype's: once per spelling, at
                // its first line (the list's dtype column went unsaid: a fresh user's find, 2026-12-04).
                if (const std::string w = list_encodings.first_warning(item->entry.dtype_text, hw); !w.empty()) {
                  progress.clear();
                  spdlog::warn("{}", located(source, item->entry.line, entry_place(item->entry.entry) + w));
                }
                if (!vllm && dtype_set && !said_own_dtype && item->entry.problem.dtype != defaults.dtype) {
                  said_own_dtype = true;
                  progress.clear();
                  spdlog::warn("{}", located(source, item->entry.line,
                                             entry_place(item->entry.entry) + "the line's own dtype " +
                                                 std::string(dtype_name(item->entry.problem.dtype)) +
                                                 " is ranked, not --dtype " + common.dtype +
                                                 ": a list's dtype wins, --dtype fills the lines without one "
                                                 "(said once)"));
                }
                if (!vllm) {
                  beyond_memory.note(item->entry.problem, hw, located(source, item->entry.line, ""));
                  outside_fit.note(item->entry.problem, located(source, item->entry.line, ""));
                } else if (!item->vllm_best.empty()) {
                  // The (N, K) at the largest M its file holds, in the kernel's fp8 (the list's dtype is
                  // not used): --emit vllm warned of nothing (a fresh user's find, 2026-12-06).
                  gemm_advisor::GemmProblem largest = item->entry.problem;
                  largest.dtype = gemm_advisor::Dtype::fp8;
                  largest.batch = 1;
                  largest.m = item->vllm_best.front().first;
                  for (const auto& [m, config] : item->vllm_best) largest.m = std::max(largest.m, m);
                  beyond_memory.note(largest, hw, located(source, item->entry.line, ""));
                  // ... and a fit's range, at the file's largest M, else its smallest.
                  gemm_advisor::GemmProblem smallest = largest;
                  for (const auto& [m, config] : item->vllm_best) smallest.m = std::min(smallest.m, m);
                  const std::string place = located(source, item->entry.line, "");
                  const std::size_t before = outside_fit.tally.count;
                  outside_fit.note(largest, place);
                  if (outside_fit.tally.count == before) outside_fit.note(smallest, place);
                }
                if (!item->infeasible_given.empty() && infeasible_shapes++ == 0)
                  first_infeasible = item->entry.problem.shape_text() + " (" + source + ":" +
                                     std::to_string(item->entry.line) + "): " + item->infeasible_given;
                if (vllm) {
                  auto& table = vllm_tables[{item->entry.problem.n, item->entry.problem.k}];
                  for (const auto& [m, config] : item->vllm_best) table[m] = config;
                } else {
                  if (output == Output::csv && !header_written) write_ranking_csv_header(std::cout);
                  header_written = true;
                  // From a pipe or terminal each shape's entry ends its line as it goes out, the comma
                  // starting the next one (a line reader saw an entry only when the next shape came:
                  // a fresh CI user's find, 2026-12-05); from a file, the comma ends the line.
                  if (output == Output::triton) {
                    std::cout << (first_json ? "[\n  " : live_input ? ", " : ",\n  ");
                    first_json = false;
                  }
                  std::cout << item->text;
                  if (output == Output::triton && live_input) std::cout << "\n";
                  if (live_input) std::cout.flush();
                  // stdout failed (disk full, reader gone): ranking the rest would be wasted; main
                  // reports the failure when it flushes.
                  if (!std::cout) stop = true;
                }
                ++done;
                progress.update(done);
              }));
  // A run stopped by a bad line leaves the Triton list open: a JSON parser then rejects the
  // output instead of taking the shapes before the bad line for the whole list.
  if (output == Output::triton)
    std::cout << (stopped ? (first_json || live_input ? "" : "\n") : first_json ? "[]\n" : live_input ? "]\n" : "\n]\n");
  // A whole list read with every line bad (--keep-going) answers with the header alone, as the Triton
  // list closes empty: a dashboard's loader broke on an empty file (a fresh batch user's find).
  if (output == Output::csv && !vllm && !stopped && !header_written) write_ranking_csv_header(std::cout);
  std::cout.flush();
  progress.clear();

  std::size_t files = 0;
  // With each line's own M (--m-values input), a run stopped at a bad line may have ranked an (N, K)
  // at some of its M values and not others: vLLM would take a partial file for a whole one (it looks
  // an M up by the nearest key), so none is written then. With an M grid each (N, K) line gives its
  // whole file.
  const bool partial_tables = vllm && m_from_input && stopped;
  // A note on the bad line's error (one error line per failure: the second was "error:" too).
  if (partial_tables && !vllm_tables.empty())
    spdlog::warn("no config file written: the run stopped before the end of {}, and a file of an (N, K) would lack "
                 "the M values of the lines after it (--keep-going skips bad lines instead)", source);
  if (vllm && !partial_tables) {
    std::vector<std::string> written_names;
    for (const auto& [nk, best_by_m] : vllm_tables)
      written_names.push_back(vllm_config_file_name(nk.first, nk.second, device_name));
    const nlohmann::json run = sidecar_run_json(hw, target);
    std::vector<std::pair<std::string, std::string>> texts;
    std::size_t index = 0;
    for (const auto& [nk, best_by_m] : vllm_tables) texts.emplace_back(written_names[index++], vllm_config_file_text(best_by_m));
    // Which advisor wrote them: a sidecar, since vLLM reads every key of its files as an M.
    files += write_vllm_directory(o.out_dir, texts, run, o.overwrite);
    std::cout.flush();
  }

  beyond_memory.warn();
  outside_fit.warn();
  if (infeasible_shapes > 0)
    spdlog::warn("{}: configs that cannot run on {} of the shapes are {} (first: {})", common.candidates,
                 infeasible_shapes,
                 output == Output::triton || vllm ? "left out of the emitted configs"
                                                  : "listed after the others with their reason",
                 first_infeasible);
  const double elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // When stdout could not take the output, main says so (finish_stdout); a summary of what was
  // ranked would read as success before it.
  std::cout.flush();
  // A results file is put in place when the whole list was read (bad lines skipped with --keep-going
  // are said, and the exit code is 1); a run stopped before the end leaves it as it was.
  const bool results_written = results.finish(!stopped && !unreadable);
  const bool output_failed = std::cout.fail() || std::fflush(stdout) != 0 || std::ferror(stdout);
  // An input that could not be read before a single shape (no shapes at all, a read error) has its
  // error said already: a "0 shapes ranked, 1 bad" summary would count the input as a line.
  if (!g_quiet && !output_failed && !(unreadable && done == 0 && duplicates == 0)) {
    std::string why;
    if (unreadable) why = " (stopped: the rest of the input cannot be read)";
    else if (stopped) why = " (stopped at the first bad line; --keep-going goes on)";
    if (results.active() && !results_written)
      why += results.written_through() ? fmt::format(" (what ran went to {})", o.out_dir)
                                       : fmt::format(" ({} not written)", o.out_dir);
    const double rate = elapsed_s > 0 ? static_cast<double>(done) / elapsed_s : 0.0;
    if (vllm) {
      const std::string ranked =
          m_from_input ? counted(done, "(N, K, M) shape", "(N, K, M) shapes") + " ranked"
                       : counted(done, "(N, K) pair", "(N, K) pairs") + " ranked at " +
                             counted(m_grid.size(), "M value", "M values") + (done == 1 ? "" : " each");
      std::cerr << fmt::format("gemm-advisor: batch: {}, {} skipped, {} bad{}, {} written to {} in {:.3f} s ({})\n",
                               ranked, counted(duplicates, "repeated line", "repeated lines"), bad, why,
                               counted(files, "file", "files"), o.out_dir, elapsed_s,
                               counted(static_cast<std::size_t>(jobs), "thread", "threads"));
    } else {
      std::cerr << fmt::format("gemm-advisor: batch: {} ranked, {} bad{}{} in {:.3f} s ({:.0f} shapes/s, {})\n",
                               counted(done, "shape", "shapes"), bad, why,
                               results_written ? ", written to " + o.out_dir : std::string(), elapsed_s, rate,
                               counted(static_cast<std::size_t>(jobs), "thread", "threads"));
    }
  }
  return bad ? kExitBadInput : kExitOk;
}

}  // namespace

Registered register_batch(CLI::App& app) {
  auto o = std::make_shared<BatchOptions>();
  o->common.top = 1;
  CLI::App* cmd = app.add_subcommand("batch", "Rank every shape of a list (CSV, YAML, JSON or MxNxK lines), streaming");
  cmd->add_option("input", o->input,
                  "Shape list file, or - for stdin (--target vllm-fused-moe: a model list, or none with --from-hf)");
  add_common_options(cmd, o->common, true);
  add_moe_options(cmd, o->common.moe, false);
  o->target_option = cmd->get_option("--target");
  CLI::Option* format = cmd->add_option("--format", o->format, "jsonl (one object per shape), csv or table")
                            ->capture_default_str()
                            ->transform(CLI::IsMember({"jsonl", "csv", "table"}, CLI::ignore_case));
  cmd->add_option("--input-format", o->input_format, "auto, csv, yaml, json (also JSON Lines: jsonl, ndjson) or text")
      ->capture_default_str()
      // Any case, as dtypes, layouts and column names (JSON was refused: a fresh user's find).
      ->transform(CLI::IsMember({"auto", "csv", "yaml", "yml", "json", "jsonl", "ndjson", "text", "txt"}, CLI::ignore_case));
  cmd->add_option("--emit", o->emit,
                  "Write configs for a kernel library instead: triton (a JSON list per shape on stdout) or "
                  "vllm (vLLM's tuned-config files in --out DIR: the block FP8 GEMM's, or with --target vllm-fused-moe the "
                  "fused MoE's)")
      ->transform(CLI::IsMember({"triton", "vllm"}, CLI::ignore_case))
      ->excludes(format);
  cmd->add_option("-o,--out", o->out_dir,
                  "Where the output goes: with --emit vllm the directory for the config files (created if missing); "
                  "otherwise a file for the results (put in place when the run ends, so a stopped run leaves it as it "
                  "was; - is stdout; a file the run reads, or a profile calibrate wrote, is refused)")
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            // The written paths go to stdout one a line: a newline in DIR broke that (a fresh user's find).
            if (gemm_advisor::escape_control(v) != v)  // it escapes exactly the control bytes
              return "'" + gemm_advisor::printable(v) + "': a control character or a byte that is not UTF-8 in the name";
            return v.empty() ? "must not be empty" : "";
          },
          "DIR"));
  cmd->add_option("--m-values", o->m_values,
                  "M values (tokens) per (N, K) with --emit vllm, and per layer of a vllm-fused-moe model list: a list "
                  "(1,16,128), or 'input' for each shape line's own M (--emit vllm); default: vLLM's 1,2,4,...,4096")
      ->check(non_empty_validator());
  cmd->add_option("--names", o->names,
                  "--emit triton: write the target's parameters under your kernel's names, "
                  "e.g. BLOCK_M=BLOCK_SIZE_M,BLOCK_N=BLOCK_SIZE_N")
      ->check(non_empty_validator());
  cmd->add_option("--vllm-device-name", o->vllm_device_name,
                  "--emit vllm: device name in the file names, as torch prints it or vLLM writes it (each run of "
                  "whitespace and '/' becomes '_', as vLLM does; fused-MoE files name any H200 NVIDIA_H200, as vLLM "
                  "looks them up; default: vLLM's name for the shipped profile)")
      ->transform(vllm_device_name_validator());
  cmd->add_option("-j,--jobs", o->jobs, kJobsHelp)
      ->transform(whole_number_validator())->check(CLI::Range(0u, 1024u));
  cmd->add_flag("--keep-going", o->keep_going, "Report each bad line and go on (exit 1 at the end if any)");
  cmd->add_flag("--overwrite", o->overwrite,
                "--emit vllm: replace config files in --out that gemm-advisor did not write (vLLM's own, hand-edited "
                "ones); without it such a file stops the run before any file is written");
  // Also after the subcommand (`batch FILE --quiet`), where a CI script tends to put it.
  cmd->add_flag("-q,--quiet", g_quiet, "Only errors on stderr: no progress line, no summary");
  return {cmd, [o]() { return run_batch(*o); }};
}

}  // namespace cli
