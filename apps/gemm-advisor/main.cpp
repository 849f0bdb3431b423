// gemm-advisor: ranks GEMM tile configurations for a GPU with an analytical latency model.
#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <csignal>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "gemm_advisor/csv_reader.hpp"
#include "gemm_advisor/emit.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/version.hpp"
#include "gemm_advisor/candidates.hpp"
#include "gemm_advisor/tile_config.hpp"
#include "gemm_advisor/targets/vllm_fused_moe.hpp"
#include "gemm_advisor/frontend.hpp"
#include "gemm_advisor/measurements.hpp"

namespace cli {

bool g_quiet = false;
std::vector<std::string> g_files_written;

// Option values checked at parse time, so a bad value is a usage error (exit 2) like any other.
namespace {
// A validator that accepts what `parse` accepts and reports its message otherwise.
template <typename Parse>
CLI::Validator parsing_validator(Parse parse, const char* name) {
  return CLI::Validator(
      [parse](std::string& v) -> std::string {
        try {
          (void)parse(v);
          return "";
        } catch (const gemm_advisor::InputError& e) {
          return e.what();
        }
      },
      name);
}
}  // namespace

CLI::Validator whole_number_validator() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        // Decimal digits only, as in shapes and CSV cells: the parser would also take 0x10, 0o17, 0b11
        // and spaces around the number (a fresh user's find, 2026-12-03). What it refuses itself
        // (1.5, abc, '') keeps its own message (cli::usage_message).
        const std::string_view body = std::string_view(v).substr(!v.empty() && v[0] == '-');
        const bool spaced = !v.empty() && (std::isspace(static_cast<unsigned char>(v.front())) ||
                                           std::isspace(static_cast<unsigned char>(v.back())));
        const bool prefixed = body.size() > 1 && body[0] == '0' && std::isalpha(static_cast<unsigned char>(body[1]));
        if (spaced || prefixed) return "'" + gemm_advisor::printable(v) + "' is not a whole number (decimal digits)";
        // Leading zeros are decimal, as in shapes: the parser read 010 as octal (--cu-count 010 ranked
        // on 8 CUs, --top 010 printed 8 rows) and refused 038 as no number (a fresh user's find,
        // 2026-12-05). Dropped here, keeping one digit.
        const std::size_t sign = v.size() - body.size();
        std::size_t zeros = 0;
        while (zeros + 1 < body.size() && body[zeros] == '0' && std::isdigit(static_cast<unsigned char>(body[zeros + 1])))
          ++zeros;
        if (zeros > 0) v.erase(sign, zeros);
        return "";
      },
      "");
}

CLI::Validator dtype_validator() {
  return parsing_validator([](const std::string& v) { return gemm_advisor::parse_dtype(v); }, "DTYPE");
}
CLI::Validator layout_validator() {
  return parsing_validator([](const std::string& v) { return gemm_advisor::parse_layout(v); }, "LAYOUT");
}
CLI::Validator moe_routing_validator() {
  return parsing_validator(
      [](const std::string& v) {
        gemm_advisor::MoeSpec spec;
        gemm_advisor::parse_moe_routing(v, spec);
        return spec;
      },
      "ROUTING");
}
CLI::Validator tile_config_validator() {
  return parsing_validator([](const std::string& v) { return gemm_advisor::parse_tile_config(v); }, "CONFIG");
}

CLI::Validator block_shape_validator() {
  return parsing_validator([](const std::string& v) { return gemm_advisor::parse_block_shape(v); }, "BNxBK");
}
gemm_advisor::GemmProblem problem_defaults(const CommonOptions& o) {
  return gemm_advisor::problem_defaults_for(gemm_advisor::find_target(o.target).info(),
                                            dtype_given(o) ? o.dtype : "", layout_given(o) ? o.layout : "");
}

gemm_advisor::GemmProblem parse_problem(const std::string& shape, const CommonOptions& o) {
  if (o.target == gemm_advisor::vllm_fused_moe_target().name()) return moe_problem(shape, o);
  if (moe_options_given(o.moe))
    throw UsageError("--experts, --top-k, --hidden, --intermediate, --tp, --from-hf, --routing, --gemm "
                     "and --block-shape describe a MoE layer: they go with --target vllm-fused-moe");
  return gemm_advisor::parse_shape(shape, problem_defaults(o));
}
CLI::Validator non_empty_validator() {
  return CLI::Validator([](std::string& v) -> std::string { return v.empty() ? "must not be empty" : ""; },
                        "TEXT");
}

CLI::Validator vllm_device_name_validator() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        if (v.empty()) return "must not be empty";
        // The GPU's name as torch prints it ("NVIDIA L40S", "NVIDIA H100 PCIe/NVL") becomes vLLM's
        // file-name form as vLLM makes it (get_device_name_as_file_name: re.sub(r"[\s/]+", "_",
        // name), 2026): each run of whitespace and '/' one '_' (it was refused for its space, then
        // for a '/' or a tab: fresh users' finds, 2026-12-04).
        const std::string typed = v;
        v = gemm_advisor::vllm_file_name_form(typed);
        if (v.find_first_not_of('_') == std::string::npos) return "'" + gemm_advisor::printable(typed) + "': no name";
        if (gemm_advisor::escape_control(v) != v)  // it escapes exactly the control bytes
          return "'" + gemm_advisor::printable(typed) + "': a control character in a device name (e.g. NVIDIA_H200)";
        // Invisible and bidirectional-override characters (U+202E) too: they went raw into the file
        // names and the paths printed (a fresh user's find, 2026-12-07).
        if (gemm_advisor::printable(v, v.size()) != v)
          return "'" + gemm_advisor::printable(typed) + "': an invisible or direction-changing character in a device "
                 "name (e.g. NVIDIA_H200)";
        // ',' and '=' separate the file name's fields (E=..,N=..,device_name=..): a name with one
        // wrote a file whose fields no longer split as vLLM's reader makes them (a fresh user's find,
        // 2026-12-05); no GPU name torch prints has either.
        if (v.find_first_of(",=") != std::string::npos)
          return "'" + gemm_advisor::printable(typed) + "': ',' and '=' separate the config file name's fields (e.g. NVIDIA_H200)";
        return "";
      },
      "NAME");
}

void add_common_options(CLI::App* cmd, CommonOptions& o, bool with_top) {
  cmd->add_option("--hw", o.hw, "Hardware profile (a shipped name, a GPU name as nvidia-smi, rocm-smi or torch print it, or a YAML file; default: $GEMM_ADVISOR_HW, else the local GPU)")
      ->check(non_empty_validator());
  o.dtype_option = cmd->add_option("--dtype", o.dtype, "Input dtype: fp32, fp16, bf16, fp8, fp6, fp4 (vllm-fp8-block: fp8; vllm-fused-moe: bf16, fp16, fp8_w8a8)")
                       ->capture_default_str()
                       ->check(dtype_validator());
  o.layout_option = cmd->add_option("--layout", o.layout, "Storage of A and B: NN, NT, TN, TT (NT = PyTorch Linear)")
                        ->capture_default_str()
                        ->check(layout_validator());
  add_target_option(cmd, o.target);
  add_hardware_overrides(cmd, o.overrides);
  cmd->add_option("--candidates", o.candidates,
                  "Configs to rank instead of the target's space: a CSV with a header "
                  "(block_m,block_n,block_k,num_warps,num_stages[,group_m,split_k]; Triton's BLOCK_SIZE_M, GROUP_SIZE_M, ... spellings too), "
                  "or one config a line (128x128x64:8:3; '#' comments)")
      ->check(non_empty_validator());
  if (with_top) {
    o.top_option = cmd->add_option("--top", o.top, "Configs to print per shape (0 = all)")
                       ->capture_default_str()
                       ->transform(whole_number_validator())->check(CLI::Range(0, 1000000));  // size_t alone would take -1 as 2^64 - 1
    o.distinct_option = cmd->add_flag("--distinct,!--no-distinct", o.distinct,
                  "Distinct tiles first: the best config of each (block_m, block_n, block_k, split_k), then the rest, "
                  "so --top 5 gives 5 different tiles (batch --emit triton: on unless --no-distinct, as an "
                  "autotune list wants)")
        // --distinct with --no-distinct: a usage error, not the last one silently (a fresh user's find).
        ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
  }
}

void add_hardware_overrides(CLI::App* cmd, HardwareOverrides& o, bool with_split_k) {
  cmd->add_option("--cu-count", o.cu_count,
                  "CUs (SMs) the kernel may use, for a partition (MIG, CPX) or a CU mask: waves and peak follow it, "
                  "memory stays the profile's: DRAM bandwidth and L2 of the whole GPU, which a MIG slice or an "
                  "NPS-partitioned CPX instance does not have (give a profile of the slice for those) (default: all)")
      ->transform(whole_number_validator())->check(CLI::Range(1, 1 << 20));
  if (!with_split_k) return;
  cmd->add_option("--max-split-k", o.max_split_k,
                  "Largest split_k the split-K targets (triton) try and accept (default: the profile's "
                  "triton.max_split_k, 256); their space tries the powers of two up to it (3 tries 1 and 2), a "
                  "given config any split_k up to it; no effect on targets without split-K")
      ->transform(whole_number_validator())->check(CLI::Range(1, 1 << 16));
}

void add_target_option(CLI::App* cmd, std::string& target) {
  std::vector<std::string> names;
  for (const gemm_advisor::Target* t : gemm_advisor::all_targets()) names.emplace_back(t->name());
  cmd->add_option("--target", target, "Kernel whose configs are ranked (see `gemm-advisor targets`)")
      ->capture_default_str()
      // Blanks around the name dropped ("triton " was refused where --hw's are dropped), none inside.
      ->transform(CLI::IsMember(names, CLI::ignore_case, [](std::string s) {
        const std::size_t first = s.find_first_not_of(" \t"), last = s.find_last_not_of(" \t");
        return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
      }));
}

std::string default_hardware() {
  std::string local_gpu;
  std::string resolved = gemm_advisor::default_hardware_name("--hw", &local_gpu);
  if (!local_gpu.empty()) spdlog::info("--hw {}: the local GPU, {}", resolved, local_gpu);
  return resolved;
}

std::string hardware_named(const std::string& hw_option) {
  if (!hw_option.empty()) return hw_option;
  const char* env = std::getenv("GEMM_ADVISOR_HW");
  return env ? std::string(env) : std::string();
}

void warn_partition_files(const gemm_advisor::Hardware& hw, const HardwareOverrides& overrides) {
  // vLLM finds its files by device name, whatever part of the GPU it runs on: configs ranked for a
  // partition, written under the whole GPU's name, are loaded on whole GPUs too (a fresh user's find,
  // 2026-12-07; the sidecar alone recorded the CU count). Said by both emitters (the fused-MoE one
  // was silent: an adversarial user's find, 2026-12-07), naming where the count came from.
  if (hw.product_cu_count > 0 && hw.cu_count < hw.product_cu_count)
    spdlog::warn("--emit vllm: the configs are ranked for {} of {}'s {} CUs ({}), but vLLM loads these files by device "
                 "name on the whole GPU too: keep them apart from the whole GPU's configs",
                 hw.cu_count, hw.product_display_name, hw.product_cu_count,
                 overrides.cu_count > 0 ? "--cu-count " + std::to_string(overrides.cu_count)
                                        : std::string("the profile's compute.active_cu_count"));
}

void warn_unused_param_set(const gemm_advisor::Profile& profile, const std::string& target,
                           const std::vector<gemm_advisor::GemmProblem>& problems) {
  const gemm_advisor::Target* t = gemm_advisor::find_target_or_null(target);
  if (!t || t->param_variants().empty()) return;
  std::set<std::string_view> said;
  for (const gemm_advisor::GemmProblem& p : problems) {
    const std::string_view v = t->param_variant(p);
    if (!said.insert(v).second) continue;
    if (const std::string w = gemm_advisor::unused_param_set_warning(profile, t->name(), v, profile.hw.source); !w.empty())
      spdlog::warn("{}", w);
  }
}

gemm_advisor::Profile load_profile_logged(const std::string& name_or_path, const HardwareOverrides& overrides,
                                          std::string_view target) {
  gemm_advisor::ProfileDiagnostics diagnostics;
  const char* env = std::getenv("GEMM_ADVISOR_HW");
  const bool from_env = name_or_path.empty() && env && *env;
  gemm_advisor::Profile profile;
  std::string source;  // resolved once: without --hw that asks nvidia-smi or rocm-smi
  try {
    source = name_or_path.empty() ? default_hardware() : name_or_path;
    profile = gemm_advisor::load_profile(source, &diagnostics);
  } catch (const gemm_advisor::InputError& e) {
    if (!from_env) throw;
    throw gemm_advisor::InputError(std::string("GEMM_ADVISOR_HW: ") + e.what());  // say where the name came from
  }
  for (const auto& w : diagnostics.warnings) spdlog::warn("{}", w);
  if (overrides.cu_count > 0) {
    try {
      gemm_advisor::use_cu_count(profile.hw, overrides.cu_count);
    } catch (const gemm_advisor::InputError& e) {
      throw UsageError(std::string("--cu-count: ") + e.what());  // a value the profile's GPU cannot take
    }
  }
  // An overlay's parameters fit the CUs it was calibrated on: ranking for another count is allowed
  // but said.
  if (const std::string why = gemm_advisor::calibrated_cu_count_warning(profile, source, target); !why.empty())
    spdlog::warn("{}", why);
  if (overrides.max_split_k > 0) {
    profile.triton.max_split_k = overrides.max_split_k;
    // Said, not silent: a target whose kernel has no split-K ranks the same with it.
    if (const gemm_advisor::Target* t = gemm_advisor::find_target_or_null(target);
        t && !gemm_advisor::target_has_field(*t, "split_k"))
      spdlog::warn("--max-split-k: target {} has no split-K: no effect", t->name());
  }
  // A calibrated overlay holds one target's parameters: used with another, it changes nothing.
  if (const std::string why = gemm_advisor::other_target_params_warning(profile, target, source); !why.empty())
    spdlog::warn("{}", why);
  // The profile's own source (embedded:NAME for a shipped one, whatever file of that name is here).
  spdlog::debug("profile {} ({}) from {}: {} CUs at {:g} MHz, operand buffers {}",
                profile.hw.name, profile.hw.display_name, profile.hw.source,
                profile.hw.cu_count, profile.hw.clock_hz / 1e6,
                profile.triton.smem_stage_offset == 0 ? "num_stages" : "num_stages - 1");
  return profile;
}

std::vector<gemm_advisor::MeasuredShape> read_measured_shapes_logged(const std::vector<std::string>& paths,
                                                                     const std::string& kernel,
                                                                     const gemm_advisor::Profile& profile,
                                                                     const gemm_advisor::Target& target,
                                                                     bool keep_vendor_only) {
  return gemm_advisor::read_measured_shapes(paths, kernel, profile, target, keep_vendor_only,
                                            [](gemm_advisor::LogLevel level, const std::string& message) {
                                              spdlog::log(level == gemm_advisor::LogLevel::warning ? spdlog::level::warn
                                                          : level == gemm_advisor::LogLevel::info  ? spdlog::level::info
                                                                                                    : spdlog::level::debug,
                                                          "{}", message);
                                            });
}

std::string single_config_detail(const std::vector<gemm_advisor::MeasuredShape>& shapes,
                                 const gemm_advisor::MeasuredShape& single) {
  using gemm_advisor::printable;
  const std::string text = gemm_advisor::unscored_text(single.problem);
  std::string out = text;
  for (const gemm_advisor::MeasuredConfig& mc : single.configs)
    if (mc.status == "ok" && mc.source) {
      out += " at " + gemm_advisor::escape_control(*mc.source) + ":" + std::to_string(mc.line);
      break;
    }
  for (const gemm_advisor::MeasuredShape& other : shapes) {
    if (&other == &single || gemm_advisor::unscored_text(other.problem) != text) continue;
    if (other.family != single.family)
      return out + "; rows of the same shape are under family '" + printable(other.family) + "', this one under '" +
             printable(single.family) + "' (a row whose family differs is a problem of its own)";
    if (other.name != single.name)
      return out + "; rows of the same shape are named '" + printable(other.name) + "', this one '" +
             printable(single.name) + "' (a row whose name differs is a problem of its own)";
  }
  return out;
}

std::size_t alike_timed_shapes(const std::vector<gemm_advisor::MeasuredShape>& shapes, std::string& first) {
  std::size_t alike = 0;
  for (const gemm_advisor::MeasuredShape& s : shapes) {
    const gemm_advisor::MeasuredConfig* first_ok = nullptr;
    bool other_config = false, one_time = true;
    for (const gemm_advisor::MeasuredConfig& mc : s.configs) {
      if (mc.status != "ok") continue;
      if (!first_ok) {
        first_ok = &mc;
        continue;
      }
      other_config = other_config || !(mc.config == first_ok->config);
      one_time = one_time && mc.ms == first_ok->ms;
    }
    if (!first_ok || !other_config || !one_time) continue;
    if (alike++ == 0) {
      first = gemm_advisor::unscored_text(s.problem);
      if (first_ok->source)
        first += " at " + gemm_advisor::escape_control(*first_ok->source) + ":" + std::to_string(first_ok->line);
    }
  }
  return alike;
}

std::vector<gemm_advisor::MeasuredShape> measured_moe_layers_logged(const std::vector<gemm_advisor::MeasuredShape>& shapes,
                                                                    const std::vector<std::string>& paths) {
  std::vector<std::string> warnings;
  auto layers = gemm_advisor::measured_moe_layers(shapes, fmt::format("{}", fmt::join(paths, ", ")), &warnings);
  for (const std::string& w : warnings) spdlog::warn("{}", w);
  return layers;
}

bool ranking_options_given(const CommonOptions& o) {
  return (o.top_option && o.top_option->count() > 0) || (o.distinct_option && o.distinct_option->count() > 0);
}

std::string measurement_csv_footer() {
  return "Measurement CSV: a header row, then one row per (shape, config) timed.\n"
         "  required: m, n, k, block_m, block_n, block_k, num_warps, num_stages, ms (milliseconds, the config's\n"
         "            whole time: its split-K reduction launch too; above 1e9 is refused as a unit slip)\n"
         "  optional: batch (1), dtype (bf16), layout (NN, the harness's default: not rank's NT), split_k (1),\n"
         "            group_m, kernel (the row's kernel, default --kernel's, else the target's: rows of another\n"
         "            kernel are skipped; a vendor library's rows, block sizes 0, are its reference),\n"
         "            status (ok, else the config failed to run: wrong, compile_error or launch_error; other\n"
         "            words are refused), family (cross-validation holds whole families out), name, gpu (as\n"
         "            torch names it), reps, rel_err;\n"
         "            vllm-fused-moe: experts, top_k, gemm, routing, block_shape\n"
         "Exit codes: 0 success, 1 bad input (shape, profile, file; with --strict, any warning), 2 usage error,\n"
         "3 internal error, 141 stdout closed by its reader (SIGPIPE).";
}

namespace {
bool g_stdout_was_closed = false;  // main() found fd 1 closed and held its number (writes fail there)
}  // namespace

void mark_stdout_closed() { g_stdout_was_closed = true; }

void claim_stdin(const std::string& what) {
  static std::string claimed;
  if (!claimed.empty() && claimed != what)
    throw UsageError(what + " and " + claimed + " are both '-': stdin feeds one of them (give the other as a file)");
  claimed = what;
}

std::vector<gemm_advisor::TileConfig> read_given_candidates(const std::string& path,
                                                            std::map<gemm_advisor::TileConfig, long>* line_of) {
  if (path.empty()) return {};
  if (path == "-") claim_stdin("--candidates");
  std::vector<std::string> warnings;
  std::vector<long> lines;
  std::vector<gemm_advisor::TileConfig> given = gemm_advisor::read_candidates_file(path, &warnings, &lines);
  for (const std::string& w : warnings) spdlog::warn("{}", w);
  if (line_of)
    for (std::size_t i = 0; i < given.size(); ++i) line_of->emplace(given[i], lines[i]);
  return given;
}

namespace {
std::string g_fp8_from;  // a --from-hf config whose quantization_config made the model fp8 (note_fp8_from)
}  // namespace

void note_fp8_from(const std::string& config) { g_fp8_from = config; }

void warn_vllm_market_name(const gemm_advisor::Hardware& hw, const CommonOptions& common, const std::string& device_name) {
  const char* env = std::getenv("GEMM_ADVISOR_HW");
  const std::string given = !common.hw.empty() ? common.hw : env ? std::string(env) : std::string();
  if (const std::string note = gemm_advisor::vllm_market_name_note(hw, given, device_name); !note.empty())
    spdlog::warn("{}", note);
}

bool written_by_calibrate_text(const std::string& text) {
  return text.rfind("calibration:", 0) == 0 || text.find("\ncalibration:") != std::string::npos;
}

bool written_by_calibrate(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  try {
    return written_by_calibrate_text(gemm_advisor::read_text_file(path));
  } catch (const gemm_advisor::InputError&) {
    return false;  // unreadable or too large: not a profile calibrate wrote
  }
}

ResultsFile::ResultsFile(const std::string& path, const std::string& input, const CommonOptions& common) {
  if (path.empty() || path == "-") return;
  // A .gz name got plain text, which the readers, taking a .gz name for gzip data, then refused (a
  // fresh expert's find, 2026-12-07): refused, as calibrate's -o is.
  if (gemm_advisor::is_gzip_path(path))
    throw UsageError("--out " + path + ": the results are written as plain text, not gzip (a .gz name is read back as "
                     "gzip): give a name without .gz, or compress them yourself (-o - | gzip > " + path + ")");
  // The profile: --hw, else $GEMM_ADVISOR_HW (a profile named there was replaced: a fresh CI
  // reviewer's find, 2026-12-05).
  const std::string hw = hardware_named(common.hw);
  const std::vector<std::string> inputs = {input, common.candidates, common.moe.from_hf,
                                           gemm_advisor::is_profile_path(hw) ? hw : std::string()};
  // The file behind stdout (-o /dev/stdout, /proc/self/fd/1) is stdout: written through, not replaced
  // (a CI log appended to with >> was replaced by the results: a fresh CI user's find, 2026-12-05).
  struct stat out_st {}, path_st {};
  const bool exists = ::stat(path.c_str(), &path_st) == 0;
  if (exists && ::fstat(STDOUT_FILENO, &out_st) == 0 && out_st.st_dev == path_st.st_dev && out_st.st_ino == path_st.st_ino)
    return;
  std::error_code ec;
  // Any file the run reads (the list, --candidates, --from-hf, a --hw profile) is refused: each was
  // replaced by the results (a fresh CI user's find).
  for (const std::string& read : inputs)
    if (!read.empty() && read != "-" && std::filesystem::equivalent(path, read, ec))
      throw UsageError("--out " + path + " is an input of the run (" + read + "): write the results elsewhere");
  // An input read from stdin ('-') that is this file (`-o list.txt < list.txt`: the list was replaced
  // by the results, exit 0: the same reviewer's find).
  struct stat in_st {};
  if (exists && std::find(inputs.begin(), inputs.end(), "-") != inputs.end() && ::fstat(STDIN_FILENO, &in_st) == 0 &&
      S_ISREG(in_st.st_mode) && in_st.st_dev == path_st.st_dev && in_st.st_ino == path_st.st_ino)
    throw UsageError("--out " + path + " is the file stdin reads ('-'): write the results elsewhere");
  if (std::filesystem::is_directory(path, ec))
    throw UsageError("--out " + path + " is a directory: the results go to a file (--emit vllm writes its "
                     "config files into a directory)");
  if (exists && S_ISREG(path_st.st_mode) && written_by_calibrate(path))
    throw UsageError("--out " + path + " is a profile calibrate wrote: write the results elsewhere, or remove it first");
  // A pipe or a device (-o /dev/null, -o >(gzip > r.gz), a FIFO) cannot be replaced: written through as
  // the run goes (it was refused, /dev/fd/63 as "a link to nowhere": a fresh CI user's find,
  // 2026-12-05).
  if (exists && (S_ISFIFO(path_st.st_mode) || S_ISCHR(path_st.st_mode) || S_ISSOCK(path_st.st_mode))) {
    direct_ = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::app);
    if (!*direct_) throw gemm_advisor::InputError(path + ": cannot write: " + std::strerror(errno));
    direct_path_ = path;
    saved_ = std::cout.rdbuf(direct_->rdbuf());
    return;
  }
  file_ = std::make_unique<gemm_advisor::AtomicFile>(path);
  saved_ = std::cout.rdbuf(file_->stream().rdbuf());
}

ResultsFile::~ResultsFile() {
  if (saved_) std::cout.rdbuf(saved_);
}

bool ResultsFile::finish(bool complete) {
  if (!active()) return false;
  std::cout.flush();
  const bool failed = std::cout.fail();
  std::cout.rdbuf(saved_);
  saved_ = nullptr;
  std::cout.clear();  // a failed file write set the stream's state: stdout itself is fine
  if (direct_) {
    direct_->close();
    if (failed || direct_->fail()) throw gemm_advisor::InputError(direct_path_ + ": cannot write (the output is incomplete)");
    return complete;
  }
  if (failed) {
    // A write through std::cout failed (a full disk). The file's own stream never saw it, so a commit
    // renamed the part written over FILE (a fresh CI user's find, 2026-12-05): given up instead, with
    // the reason the buffer's last write gives.
    errno = 0;
    const bool synced = file_->stream().rdbuf()->pubsync() == 0;
    file_->abandon(synced ? 0 : errno);
  }
  if (!complete) return false;  // the destructor removes the temporary: FILE stays as it was
  file_->commit();
  return true;
}

void warn_beyond_memory(const gemm_advisor::GemmProblem& p, const gemm_advisor::Hardware& hw) {
  if (const std::string why = gemm_advisor::beyond_memory_warning(p, hw); !why.empty())
    spdlog::warn("{}: {}", p.shape_text(), why);
}

void ShapeTally::note(const std::string& why, const gemm_advisor::GemmProblem& p, const std::string& place) {
  if (why.empty()) return;
  if (count++ == 0) first = place + p.shape_text() + ": " + why;
}

void ShapeTally::warn(std::string_view many) const {
  if (count == 1) spdlog::warn("{}", first);
  else if (count > 1) spdlog::warn("{} shapes {} (first: {})", count, many, first);
}

void warn_outside_fitted_shapes(const gemm_advisor::Profile& profile, const std::string& target,
                                const gemm_advisor::GemmProblem& p) {
  const gemm_advisor::Target* t = gemm_advisor::find_target_or_null(target);
  if (!t || profile.fitted_shapes.empty()) return;
  if (const std::string why =
          gemm_advisor::outside_fitted_shapes_warning(profile, t->name(), t->param_variant(p), p, profile.hw.source);
      !why.empty())
    spdlog::warn("{}: {}", p.shape_text(), why);
}

std::size_t write_vllm_directory(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files,
                                 const nlohmann::json& run, bool overwrite,
                                 const std::map<std::string, nlohmann::json>* file_layers) {
  std::size_t written = 0;
  std::vector<std::string> warnings;
  // The config files are the product, the paths on stdout a listing: a reader that goes away
  // (`| head -1`) stops the listing, not the files (SIGPIPE ended the run after ~100 of 2,945 files:
  // a fresh user's find, 2026-12-07); the run still ends with 141, as finish_stdout says.
  ::signal(SIGPIPE, SIG_IGN);
  // Another run holding the directory (write_config_directory waits for its lock): said before the
  // wait, which was silent until a CI timeout (a fresh CI user's find, 2026-12-05).
  if (const int probe = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); probe >= 0) {
    // A note, not a warning (--strict would fail a run that only waited); --quiet hides it.
    if (::flock(probe, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK && !g_quiet)
      std::cerr << "gemm-advisor: " << gemm_advisor::escape_for_display(dir)
                << ": another gemm-advisor run is writing there (it holds the directory's lock): waiting for it\n";
    ::close(probe);
  }
  const std::string sidecar = gemm_advisor::write_config_directory(
      dir, files, run, overwrite,
      [&](const std::string& path) {
        std::cout << path << "\n";
        g_files_written.push_back(path);
        ++written;
      },
      &warnings, std::chrono::seconds(1), file_layers);
  if (!sidecar.empty()) std::cout << sidecar << "\n";
  for (const std::string& w : warnings) spdlog::warn("{}", w);
  return written;
}

unsigned usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return static_cast<unsigned>(CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

void require_dtype(const gemm_advisor::Hardware& hw, gemm_advisor::Dtype d, const std::string& given) {
  try {
    gemm_advisor::require_matrix_dtype(hw, d, given);
  } catch (const gemm_advisor::InputError& e) {
    // The user gave no dtype: say where fp8 came from (it read as if --dtype fp8 were given: a fresh
    // user's find, 2026-12-04).
    if (d != gemm_advisor::Dtype::fp8 || g_fp8_from.empty()) throw;
    throw gemm_advisor::InputError(std::string(e.what()) + "; fp8 is " + g_fp8_from +
                                   "'s quantization_config: --dtype bf16 ranks the model unquantized");
  }
}

namespace {

// True when stdout is a pipe or socket whose reading end has been closed (`| head -1`).
bool stdout_reader_gone() {
  struct stat st {};
  if (::fstat(STDOUT_FILENO, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) return false;
  struct pollfd p {};
  p.fd = STDOUT_FILENO;
  return ::poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP)) != 0;
}

// An error message as one line: control bytes (a newline or ESC in a file name or option value that
// the message quotes) and invisible characters (bidi overrides, zero-width) written \xNN, as the
// readers' printable() writes them; other UTF-8 kept. A path with a newline split the error over two
// lines, an ESC reached the terminal raw, a right-to-left override reordered the rest of the line.
std::string one_line(std::string_view text) { return gemm_advisor::escape_for_display(text); }

// Flushes stdout and checks that every byte reached it. Returns `code` when it did. When the
// reader went away (`| head -1` while SIGPIPE is ignored; by default SIGPIPE ends the process
// first) ends quietly with 141, as SIGPIPE would, or with `code` where that is an error's; any
// other failure (disk full, closed descriptor) prints one error line and returns 1: a truncated
// output is never passed off as complete.
int finish_stdout(int code) {
  std::cout.flush();
  const int flush_errno = std::fflush(stdout) != 0 ? errno : 0;
  if (!std::ferror(stdout) && !std::cout.fail()) return code;
  // A run that failed says so by its code, the reader gone or not (--emit vllm ignores SIGPIPE, and
  // its bad lines ended with 141: an adversarial user's find, 2026-12-07).
  if (stdout_reader_gone()) return code != 0 ? code : kExitBrokenPipe;
  std::string why;
  if (g_stdout_was_closed || ::fcntl(STDOUT_FILENO, F_GETFD) == -1) why = ": stdout is closed";
  else if (flush_errno != 0) why = std::string(": ") + std::strerror(flush_errno);
  // What the run did write in full is said (calibrate's profile was written, yet the message read as
  // if nothing was: a fresh user's find, 2026-12-05).
  std::string kept;
  if (!g_files_written.empty())
    kept = "; " + gemm_advisor::escape_for_display(g_files_written.front()) +
           (g_files_written.size() > 1 ? " and " + std::to_string(g_files_written.size() - 1) + " more" : "") +
           " written in full";
  std::cerr << "gemm-advisor: error: cannot write the output to stdout" << why << " (the output is incomplete" << kept
            << ")\n";
  return kExitBadInput;
}

}  // namespace

}  // namespace cli

namespace {

// CLI11's wording of three option errors, said as what is wrong (a fresh user's finds): an option
// given twice ("At Most 1 required but received 2"), an empty value, and a fraction or a word where
// a whole number is expected (all "Value ... not in range A to B", untrue for 1.5 in [1, 1048576]).
// Every range check of the CLI is on a whole-number option.
std::string clearer_parse_error(std::string what) {
  const std::string twice = "At Most 1 required but received ";
  if (const auto at = what.find(twice); at != std::string::npos) {
    // The one flag with a negation: --distinct and --no-distinct together read as one given twice.
    if (what.rfind("--distinct", 0) == 0)
      return "--distinct, --no-distinct: given " + what.substr(at + twice.size()) + " times: give one of them";
    return what.substr(0, at) + "given " + what.substr(at + twice.size()) + " times; it takes one value";
  }
  const std::string value = "Value ", range = " not in range ", to = " to ";
  const auto v = what.find(value), r = what.find(range);
  if (v == std::string::npos || r == std::string::npos || r < v) return what;
  const std::string given = what.substr(v + value.size(), r - v - value.size());
  const std::string bounds = what.substr(r + range.size());
  const auto t = bounds.find(to);
  if (t == std::string::npos) return what;
  const std::string prefix = what.substr(0, v);
  if (given.empty()) return prefix + "no value given (expected " + bounds + ")";
  char* end = nullptr;
  const double x = std::strtod(given.c_str(), &end);
  const double lo = std::strtod(bounds.c_str(), nullptr), hi = std::strtod(bounds.c_str() + t + to.size(), nullptr);
  const bool whole_bounds =
      lo == static_cast<double>(static_cast<long long>(lo)) && hi == static_cast<double>(static_cast<long long>(hi));
  const bool numeric = end != given.c_str() && *end == '\0';
  // A number inside the bounds was refused for its form (1.5, 2.0, 1e3): not a whole number as written.
  // --cu-count's bounds are no GPU's: its message names the profile's CU count instead (a word said
  // "expected 1 to 1048576": a fresh user's find, 2026-12-06).
  if (whole_bounds && (!numeric || (x >= lo && x <= hi)))
    return prefix + "'" + given + "' is not a whole number (expected " +
           (prefix.rfind("--cu-count", 0) == 0 ? std::string("1 up to the GPU's CUs, the profile's cu_count") : bounds) +
           ")";
  // --cu-count's parse-time bound is no GPU's ("Value 0 not in range 1 to 1048576"); the GPU's own is
  // checked once the profile is read.
  if (prefix.rfind("--cu-count", 0) == 0 && numeric)
    return prefix + given + " is not a CU count: give 1 up to the GPU's CUs (the profile's cu_count)";
  return what;
}

// Counts the warnings logged: --strict makes a run that gave any a failed one (a CI job that fails on
// errors passed a misspelt column's defaults with exit 0: a fresh CI user's find, 2026-12-04).
class WarningCounter final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  std::size_t count() const { return count_.load(); }

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    if (msg.level == spdlog::level::warn) ++count_;
  }
  void flush_() override {}

 private:
  std::atomic<std::size_t> count_{0};
};

}  // namespace

// An option that takes a value given another option in its place (`-o --strict`, `--out --overwrite`):
// CLI11 takes a required value whatever it looks like, so the second option was swallowed as a file
// name (calibrate wrote a profile named '--strict', exit 0: a fresh user's find, 2026-12-05). The
// usage error, or "" where none: only a token that is exactly a known option of the subcommand (or a
// top-level one) counts, so a value that merely starts with '-' (stdin's '-') still passes.
// `command` gets "gemm-advisor SUBCOMMAND" for the error's pointer to its --help.
std::string option_given_as_value(CLI::App& app, int argc, char** argv, std::string& command) {
  CLI::App* sub = nullptr;
  auto known = [&](const std::string& token) -> CLI::Option* {
    if (token.size() < 2 || token[0] != '-') return nullptr;
    const std::string name = token.substr(0, token.find('='));
    if (sub)
      if (CLI::Option* o = sub->get_option_no_throw(name)) return o;
    return app.get_option_no_throw(name);
  };
  for (int i = 1; i < argc; ++i) {
    const std::string token = argv[i];
    if (token == "--") break;  // what follows is positional
    if (!sub && token[0] != '-') {
      for (CLI::App* candidate : app.get_subcommands([](CLI::App*) { return true; }))
        if (candidate->check_name(token)) sub = candidate;
      continue;
    }
    CLI::Option* opt = known(token);
    // `--params=`: an empty value, which CLI11 reports as a missing required argument or takes the
    // next one for (a fresh user's find, 2026-12-06).
    if (opt && token.size() > 2 && token[1] == '-' && token.back() == '=' && token.find('=') == token.size() - 1 &&
        opt->get_items_expected_min() >= 1) {
      command = "gemm-advisor" + (sub ? " " + sub->get_name() : std::string());
      return token.substr(0, token.size() - 1) + ": an empty value ('" + token + "')";
    }
    if (!opt || token.find('=') != std::string::npos || opt->get_items_expected_min() < 1 || i + 1 >= argc) continue;
    const std::string next = argv[i + 1];
    if (next != "-" && known(next) != nullptr) {
      command = "gemm-advisor" + (sub ? " " + sub->get_name() : std::string());
      return token + " needs a value, got the option " + gemm_advisor::printable(next);
    }
    ++i;  // its value
  }
  return "";
}

namespace {
// SIGTERM, SIGHUP and SIGINT end the process as they would, after removing the temporary file a
// `batch -o FILE` run was writing (it stayed behind, megabytes of it, until a later run into the
// same folder removed it: a fresh CI user's find, 2026-12-05).
void end_on_signal(int signo) {
  gemm_advisor::remove_active_temporary();
  ::signal(signo, SIG_DFL);
  ::raise(signo);
}
}  // namespace

int main(int argc, char** argv) {
  // Standard input, output and error hold their numbers before any file is opened: with one closed
  // (`2>&-`) the next file opened took its number, and the warnings went into the -o results (a
  // fresh CI reviewer's find, 2026-12-05). A closed one gets /dev/null opened the other way, so that
  // reading stdin or writing stdout still fails as on a closed descriptor (EBADF), and is said so.
  for (int fd = 0; fd <= 2; ++fd)
    if (::fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
      if (fd == 1) cli::mark_stdout_closed();
      const int opened = ::open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
      if (opened >= 0 && opened != fd) {
        ::dup2(opened, fd);
        ::close(opened);
      }
    }
  for (const int signo : {SIGTERM, SIGHUP, SIGINT}) ::signal(signo, end_on_signal);
  // Past the file-size limit (ulimit -f) a write fails with EFBIG, said and cleaned up like a full
  // disk, instead of SIGXFSZ ending the run with its temporary file left behind (a fresh CI
  // reviewer's find, 2026-12-05).
  ::signal(SIGXFSZ, SIG_IGN);
  auto logger = spdlog::stderr_color_mt("gemm-advisor");
  const auto warnings = std::make_shared<WarningCounter>();
  logger->sinks().push_back(warnings);
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("gemm-advisor: %l: %v");
  spdlog::set_level(spdlog::level::warn);

  CLI::App app{"gemm-advisor: ranks GEMM tile configurations for a GPU with an analytical latency model,\n"
               "without running anything on that GPU."};
  app.require_subcommand(1);
  app.set_version_flag("--version", gemm_advisor::version_line());
  bool verbose = false;
  CLI::Option* quiet_flag = app.add_flag("-q,--quiet", cli::g_quiet, "Only errors on stderr");
  app.add_flag("-v,--verbose", verbose, "More detail on stderr")->excludes(quiet_flag);
  bool strict = false;
  app.add_flag("--strict", strict,
               "A warning fails the run: exit 1 once the output is written (warnings are shown even with --quiet)");
  app.footer(
      "Exit codes: 0 success, 1 bad input (shape, profile, file; with --strict, any warning), 2 usage error,\n"
      "3 internal error, 141 stdout closed by its reader (SIGPIPE).\n"
      "Examples:\n"
      "  gemm-advisor rank 4096x4096x4096 --hw mi350x\n"
      "  gemm-advisor rank 16x6144x4096 --hw b200 --top 3 --format json\n"
      "  gemm-advisor batch examples/llama3-8b.csv --hw a100 --format csv\n"
      "  gemm-advisor profiles");

  // --quiet and --verbose also after the subcommand (`rank SHAPE --quiet`): a subcommand's unknown
  // options fall through to the top-level ones; subcommands inherit this setting.
  app.fallthrough();
  std::vector<cli::Registered> runners;
  for (auto reg : {cli::register_rank, cli::register_explain, cli::register_batch, cli::register_evaluate,
                   cli::register_profiles, cli::register_targets, cli::register_calibrate})
    runners.push_back(reg(app));

  {
    std::string command;
    if (const std::string what = option_given_as_value(app, argc, argv, command); !what.empty()) {
      std::cerr << "gemm-advisor: error: " << what << " (see " << command << " --help)\n";
      return cli::kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return cli::finish_stdout(app.exit(e));
  } catch (const CLI::CallForAllHelp& e) {
    return cli::finish_stdout(app.exit(e));
  } catch (const CLI::CallForVersion& e) {
    return cli::finish_stdout(app.exit(e));
  } catch (const CLI::ParseError& e) {
    // Point at the help of the subcommand the error belongs to, where one was named.
    std::string command = "gemm-advisor";
    for (std::vector<CLI::App*> parsed = app.get_subcommands(); !parsed.empty(); parsed = parsed.front()->get_subcommands())
      command += " " + parsed.front()->get_name();
    // A first word that is no subcommand: name it, rather than CLI11's "A subcommand is required".
    std::string what = clearer_parse_error(e.what());
    // Arguments no option took: in the order given (CLI11 lists them last first: "768 --intermediate
    // 2048 --hidden"), and for a fused-MoE layer's options on batch, where batch takes them (a fresh
    // user's find, 2026-12-04).
    if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
      const CLI::App* deepest = &app;
      while (!deepest->get_subcommands().empty()) deepest = deepest->get_subcommands().front();
      std::vector<std::string> extras = deepest->remaining();
      if (extras.empty()) extras = app.remaining();
      if (!extras.empty()) {
        std::string listed;
        bool layer_option = false;
        for (const std::string& a : extras) {
          listed += (listed.empty() ? "" : " ") + gemm_advisor::printable(a);
          layer_option = layer_option || a == "--experts" || a == "--top-k" || a == "--hidden" || a == "--intermediate";
        }
        what = "unexpected argument" + std::string(extras.size() == 1 ? "" : "s") + ": " + listed;
        if (layer_option && deepest->get_name() == "batch")
          what += "; batch takes fused-MoE layers from a list (examples/moe-models.csv) or --from-hf: --experts, "
                  "--top-k, --hidden and --intermediate are rank's and explain's";
      }
    }
    if (app.get_subcommands().empty() && argc > 1 && argv[1][0] != '\0') {
      std::string names;
      for (const CLI::App* sub : app.get_subcommands({})) names += (names.empty() ? "" : ", ") + sub->get_name();
      const std::string first = argv[1];
      if (first[0] != '-') {
        what = "unknown subcommand '" + gemm_advisor::printable(first) + "' (one of " + names + ")";
      } else if (first != "--" && !app.get_option_no_throw(first.substr(0, first.find('=')))) {
        // CLI11 reports the missing subcommand before the stray option (`gemm-advisor --bogus`).
        what = "unknown option '" + gemm_advisor::printable(first) + "' before the subcommand (one of " + names + ")";
      }
    }
    // -q and -v are the top-level command's: its help lists them, not the subcommand's (a fresh user's
    // find, 2026-12-06).
    if (dynamic_cast<const CLI::ExcludesError*>(&e) != nullptr && what.find("--quiet") != std::string::npos)
      command = "gemm-advisor";
    std::cerr << "gemm-advisor: error: " << cli::one_line(what) << " (see " << command << " --help)\n";
    return cli::kExitUsage;
  }
  // batch has its own --quiet (its help says what it hides): the top-level exclusion does not see it
  // (`batch --quiet --verbose` ran verbose: a fresh CI user's find, 2026-12-04).
  if (cli::g_quiet && verbose) {
    std::cerr << "gemm-advisor: error: --quiet excludes --verbose (see gemm-advisor --help)\n";
    return cli::kExitUsage;
  }
  if (cli::g_quiet && !strict) spdlog::set_level(spdlog::level::err);
  if (verbose) spdlog::set_level(spdlog::level::debug);

  std::string subcommand;  // the one that ran, for a usage error's pointer to its --help
  try {
    for (auto& [cmd, run] : runners) {
      if (!cmd->parsed()) continue;
      subcommand = cmd->get_name();
      const int code = cli::finish_stdout(run());
      if (strict && code == cli::kExitOk && warnings->count() > 0) {
        std::cerr << "gemm-advisor: error: --strict: " << cli::counted(warnings->count(), "warning", "warnings")
                  << " above (the output is written)\n";
        return cli::kExitBadInput;
      }
      return code;
    }
  } catch (const gemm_advisor::InputError& e) {
    std::cout.flush();
    std::cerr << "gemm-advisor: error: " << cli::one_line(e.what()) << "\n";
    return cli::kExitBadInput;
  } catch (const cli::UsageError& e) {
    std::cout.flush();
    std::cerr << "gemm-advisor: error: " << cli::one_line(e.what()) << " (see gemm-advisor " << subcommand << " --help)\n";
    return cli::kExitUsage;
  } catch (const std::bad_alloc&) {
    std::cerr << "gemm-advisor: error: out of memory\n";
    return cli::kExitBadInput;
  } catch (const std::exception& e) {
    // A resource the system refused (a thread under `ulimit -v` or -u, which TBB reports as
    // "pthread_create has failed: Resource temporarily unavailable"; too many open files) is the
    // environment's limit, not a bug (it exited 3, "internal error": a fresh CI reviewer's find,
    // 2026-12-05).
    const std::string what = e.what();
    for (const int refused : {EAGAIN, ENOMEM, EMFILE, ENFILE})
      if (what.find(std::strerror(refused)) != std::string::npos) {
        std::cerr << "gemm-advisor: error: out of resources: " << cli::one_line(what)
                  << " (a limit of the environment: ulimit -v, -u or -n; -j 1 runs one thread)\n";
        return cli::kExitBadInput;
      }
    std::cerr << "gemm-advisor: internal error: " << cli::one_line(e.what()) << "\n";
    return 3;
  }
  return cli::kExitUsage;
}
