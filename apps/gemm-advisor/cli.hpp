#pragma once
// Shared pieces of the command-line front end. No model logic lives here.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>
#include <memory>
#include <stdexcept>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gemm_advisor/emit.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/evaluate.hpp"
#include "gemm_advisor/hardware.hpp"
#include "gemm_advisor/measurements.hpp"
#include "gemm_advisor/moe.hpp"
#include "gemm_advisor/problem.hpp"
#include "gemm_advisor/profile.hpp"
#include "gemm_advisor/target.hpp"

namespace cli {

/// Exit codes (README, "Exit codes").
constexpr int kExitOk = 0;
constexpr int kExitBadInput = 1;  ///< malformed shape, bad profile, unreadable file, ...
constexpr int kExitUsage = 2;     ///< unknown option, missing argument
constexpr int kExitBrokenPipe = 141;  ///< stdout's reader went away (128 + SIGPIPE), nothing on stderr

/// A bad option value or combination that only the subcommand can check (it depends on another
/// option, e.g. calibrate's --param-set on --target, batch's --emit vllm without --out): main
/// reports it as a usage error, "... (see gemm-advisor SUBCOMMAND --help)", exit kExitUsage.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// --cu-count and --max-split-k: the profile as the user's GPU partition and split-K limit sees it
/// (0: as the profile says).
struct HardwareOverrides {
  int cu_count = 0;
  int max_split_k = 0;
};

/// The fused-MoE layer of `--target vllm-fused-moe` (rank, explain; batch takes --from-hf, --tp and
/// --routing, its list gives the rest).
struct MoeOptions {
  std::int64_t experts = 0, top_k = 0, hidden = 0, intermediate = 0, tp = 1;
  std::string from_hf;             ///< a Hugging Face config.json giving experts, top_k, hidden, intermediate
  std::string routing = "tuner";    ///< tuner (vLLM's tuner routing), uniform, zipf:S (gemm_advisor::parse_moe_routing)
  std::string gemm = "layer";       ///< layer, up or down
  std::string block_shape;          ///< fp8: [b,b] block scales ("128x128"); empty: per-tensor
  std::vector<const CLI::Option*> options;  ///< every MoE option added (their counts: which were given)
};

/// Options every subcommand that ranks shares.
struct CommonOptions {
  std::string hw;  // empty: default_hardware()
  std::string dtype = "bf16";
  std::string layout = "NT";
  std::string target = "triton";
  std::string candidates;
  std::size_t top = 5;
  bool distinct = false;  ///< --distinct: distinct tiles first (gemm_advisor::distinct_tiles_first)
  HardwareOverrides overrides;
  MoeOptions moe;
  // The --dtype and --layout options (their counts say whether the command line gave them).
  const CLI::Option* dtype_option = nullptr;
  const CLI::Option* top_option = nullptr;       ///< --top, where the subcommand has it
  const CLI::Option* distinct_option = nullptr;  ///< --distinct, likewise
  const CLI::Option* layout_option = nullptr;
};

/// Whether the command line gave --dtype (not its default, nor a target's own dtype); --layout.
inline bool dtype_given(const CommonOptions& common) {
  return common.dtype_option && common.dtype_option->count() > 0;
}
inline bool layout_given(const CommonOptions& common) {
  return common.layout_option && common.layout_option->count() > 0;
}

/// The profile a run loads as named: `hw_option` (--hw), else $GEMM_ADVISOR_HW, else "" (the local
/// GPU, which default_hardware() asks nvidia-smi or rocm-smi for). Names a file the run reads, for the
/// checks that -o does not replace it.
std::string hardware_named(const std::string& hw_option);

/// The `--help` footer of evaluate and calibrate: the measurement CSV's columns, then the exit codes
/// (the installed tool has no tools/measure/README.md, which the help pointed to: a fresh user's
/// find, 2026-12-05).
std::string measurement_csv_footer();

/// Validators of option values (a bad value is a usage error, exit 2).
/// An integer option's value in decimal digits (a leading '-' allowed, for the range check to refuse).
CLI::Validator whole_number_validator();
CLI::Validator dtype_validator();
CLI::Validator layout_validator();
/// --routing (gemm_advisor::parse_moe_routing) and --block-shape (gemm_advisor::parse_block_shape).
CLI::Validator moe_routing_validator();
CLI::Validator block_shape_validator();
/// explain's --config (gemm_advisor::parse_tile_config).
CLI::Validator tile_config_validator();
CLI::Validator non_empty_validator();
/// --vllm-device-name: a file-name part vLLM would write (no '/', space or control character).
CLI::Validator vllm_device_name_validator();

/// The problem defaults of the options: their dtype and layout, or, where the command line gave
/// neither, the target's own (TargetInfo::default_dtype/layout: fp8 NT for vllm-fp8-block).
/// Throws gemm_advisor::InputError for an unknown target.
gemm_advisor::GemmProblem problem_defaults(const CommonOptions& o);

/// The shape text with problem_defaults' dtype and layout; throws gemm_advisor::InputError. For the
/// fused-MoE target the shape is the token count M and the layer comes from the MoE options
/// (moe_problem); MoE options with another target are an InputError.
gemm_advisor::GemmProblem parse_problem(const std::string& shape, const CommonOptions& o);

/// Adds the MoE options to a subcommand: with `layer` (rank, explain) --experts, --top-k, --hidden,
/// --intermediate, --gemm and --block-shape besides --from-hf, --tp and --routing (batch).
void add_moe_options(CLI::App* cmd, MoeOptions& o, bool layer);

/// Whether the command line gave any MoE option.
bool moe_options_given(const MoeOptions& o);

/// The routing the options give (a MoeSpec with routing and zipf exponent only). Throws InputError.
gemm_advisor::MoeSpec moe_routing(const MoeOptions& o);

/// The model the MoE options describe: --from-hf (its dtype unless --dtype was given) or the four
/// sizes, with --tp, --dtype and --block-shape. Throws InputError naming what is missing.
gemm_advisor::MoeModel moe_model(const CommonOptions& o);

/// The MoE problem for `tokens` (the SHAPE of rank/explain: a whole number M): the layer, or its up
/// or down GEMM (--gemm). Throws InputError.
gemm_advisor::GemmProblem moe_problem(const std::string& tokens, const CommonOptions& o);

/// `batch --target vllm-fused-moe`: ranks every model of a list (or --from-hf) at each M and
/// prints the rankings, or writes vLLM's tuned-config files (--emit vllm --out DIR).
struct MoeBatchOptions {
  const CommonOptions* common = nullptr;
  std::string input;  ///< the model list ("" with --from-hf)
  std::string format, emit, out_dir, m_values, vllm_device_name;
  bool keep_going = false;
  bool overwrite = false;  ///< --overwrite: replace config files gemm-advisor did not write
};
/// Throws UsageError for a bad combination of options (batch reports it, exit 2).
int run_moe_batch(const MoeBatchOptions& o);

/// --m-values: "" -> vLLM's tuner list (gemm_advisor::vllm_default_m_values), else "1,16,128"
/// (sorted, duplicates dropped). Throws gemm_advisor::InputError for a bad entry.
std::vector<std::int64_t> parse_m_value_list(const std::string& text);
/// Whether an --m-values text is the keyword 'input' (any case, spaces around it allowed).
bool is_input_keyword(const std::string& text);

/// Adds --hw, --dtype, --layout, --target, --candidates (and --top when with_top) to a subcommand.
void add_common_options(CLI::App* cmd, CommonOptions& o, bool with_top);

/// Adds --cu-count (a partition or CU mask: gemm_advisor::use_cu_count) and, with_split_k,
/// --max-split-k (not on evaluate and calibrate: measured configs are what they are).
void add_hardware_overrides(CLI::App* cmd, HardwareOverrides& o, bool with_split_k = true);

/// Adds --target (the kernel whose configs are ranked; `gemm-advisor targets` lists them).
void add_target_option(CLI::App* cmd, std::string& target);

/// "1 file", "2 files": a count with its noun, singular for one (summary lines).
inline std::string counted(std::size_t n, const std::string& singular, const std::string& plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

/// A shape or model list's own dtypes checked for an fp8 encoding the GPU does not compute, or a
/// dtype it or Triton lacks as asked (gemm_advisor::dtype_format_warning), each spelling once: its
/// first line says it.
class ListDtypeEncodings {
 public:
  /// The warning for `dtype_text` the first time it is seen, else "".
  std::string first_warning(const std::string& dtype_text, const gemm_advisor::Hardware& hw) {
    if (!checked_.insert(dtype_text).second) return "";
    return gemm_advisor::dtype_format_warning(dtype_text, hw);
  }

 private:
  std::set<std::string> checked_;
};

/// The profile to use when --hw is not given: $GEMM_ADVISOR_HW, else the local GPU as nvidia-smi
/// (or rocm-smi) names it, resolved to a shipped profile. Throws gemm_advisor::InputError when
/// neither gives one (no GPU, or one no shipped profile describes), listing the profiles: never a
/// silent default.
std::string default_hardware();

/// Loads a profile by name or path (an empty name: default_hardware()) (gemm_advisor::load_profile) and logs its warnings (unknown
/// keys, uncited numbers) on stderr as "gemm-advisor: warning: FILE:LINE: ..." (not with --quiet),
/// then applies the overrides. Throws gemm_advisor::InputError (also for a CU count above the
/// profile's).
/// `target` (when given): warn when the profile gives model parameters for other targets only (a
/// calibrated overlay used with a target it was not fitted for).
gemm_advisor::Profile load_profile_logged(const std::string& name_or_path, const HardwareOverrides& overrides = {},
                                          std::string_view target = {});

/// Warns (once per parameter set) where the profile's values for `target` are all another parameter
/// set's than one of `problems` runs with (gemm_advisor::unused_param_set_warning).
void warn_unused_param_set(const gemm_advisor::Profile& profile, const std::string& target,
                           const std::vector<gemm_advisor::GemmProblem>& problems);

/// Both --emit vllm commands: a warning where `hw` is a partition (fewer CUs than its product: vLLM
/// loads the files by device name on the whole GPU too), naming --cu-count (`overrides`) or the
/// profile's compute.active_cu_count as the source.
void warn_partition_files(const gemm_advisor::Hardware& hw, const HardwareOverrides& overrides);

/// Both --emit vllm commands' writing of their config files (name, text) into `dir` for the run
/// `run` (write_config_directory): each path on stdout as it is written, then the sidecar's, the
/// warnings logged; `file_layers` as write_config_directory's. Returns the number of config files
/// written; throws as write_config_directory.
std::size_t write_vllm_directory(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files,
                                 const nlohmann::json& run, bool overwrite,
                                 const std::map<std::string, nlohmann::json>* file_layers = nullptr);

/// Whether a profile's text is one `calibrate` wrote (a top-level 'calibration:' block): calibrate
/// replaces only such a file, and batch --out never does (a fitted profile was replaced by a batch's
/// results: a fresh user's find, 2026-12-07).
bool written_by_calibrate_text(const std::string& text);
/// The same of the file at `path`: false for no regular file, or one unreadable or over 16 MiB.
bool written_by_calibrate(const std::string& path);

/// `batch --out FILE` without --emit vllm: the results that go to stdout go to FILE instead, written
/// as gemm_advisor::AtomicFile writes (a temporary beside it, renamed when the run ends well), so a
/// run stopped by a bad line, killed or failing leaves FILE as it was, never a part passed off as the
/// whole (a fresh batch user's find, 2026-12-05). An empty path or "-": stdout, as without --out. A
/// pipe or device (/dev/null, a FIFO, >(gzip)) cannot be replaced and is written through as the run goes.
class ResultsFile {
 public:
  /// Checks `path` (none of the run's inputs: the list `input`, and `common`'s --candidates,
  /// --from-hf and --hw file; writable) and redirects std::cout to its temporary; the file behind
  /// stdout (/dev/stdout) is stdout itself (nothing redirected). Throws UsageError (an input's path,
  /// a directory) or gemm_advisor::InputError (not writable).
  ResultsFile(const std::string& path, const std::string& input, const CommonOptions& common);
  ~ResultsFile();  ///< restores std::cout; an uncommitted temporary is removed
  ResultsFile(const ResultsFile&) = delete;
  ResultsFile& operator=(const ResultsFile&) = delete;
  bool active() const { return file_ != nullptr || direct_ != nullptr; }
  /// A pipe or device, written as the run went: whatever ran is in it, complete or not.
  bool written_through() const { return direct_ != nullptr; }
  /// Restores std::cout and, when `complete` (the whole list read, the output written), puts the file
  /// in place (InputError when the disk failed it). Returns whether it did.
  bool finish(bool complete);

 private:
  std::unique_ptr<gemm_advisor::AtomicFile> file_;
  std::unique_ptr<std::ofstream> direct_;  // a pipe or device, written through
  std::string direct_path_;
  std::streambuf* saved_ = nullptr;
};

/// Warns when the GPU name the user gave (--hw, else GEMM_ADVISOR_HW) is a market name an older vLLM
/// would look `device_name`'s files up under (gemm_advisor::vllm_market_name_note).
void warn_vllm_market_name(const gemm_advisor::Hardware& hw, const CommonOptions& common, const std::string& device_name);

/// Warns (one line, "SHAPE: " and gemm_advisor::beyond_memory_warning) when `p` does not fit the GPU's memory.
void warn_beyond_memory(const gemm_advisor::GemmProblem& p, const gemm_advisor::Hardware& hw);

/// Shapes of a batch that one warning is about: counted as they are ranked, said in one line at the
/// end, naming the first (a batch said nothing where rank warns, so --strict passed one and failed
/// the other: a fresh batch user's find, 2026-12-05).
struct ShapeTally {
  std::size_t count = 0;
  std::string first;  ///< "PLACE SHAPE: " + the first's warning
  /// Counts `p` when `why` (its warning) is not empty; `place` ("FILE:LINE: " or "") names where it came from.
  void note(const std::string& why, const gemm_advisor::GemmProblem& p, const std::string& place);
  /// The one warning, when any was counted: the first's alone, or "N shapes `many` (first: ...)".
  void warn(std::string_view many) const;
};

/// The shapes of a batch that do not fit the GPU's memory (gemm_advisor::beyond_memory_warning).
struct BeyondMemory {
  ShapeTally tally;
  void note(const gemm_advisor::GemmProblem& p, const gemm_advisor::Hardware& hw, const std::string& place) {
    tally.note(gemm_advisor::beyond_memory_warning(p, hw), p, place);
  }
  void warn() const { tally.warn("do not fit the GPU's memory"); }
};

/// The shapes of a batch outside those the profile's calibrated parameters for `target` were fitted
/// on (gemm_advisor::outside_fitted_shapes_warning, each shape with its own parameter set).
struct OutsideFittedShapes {
  const gemm_advisor::Profile& profile;
  const gemm_advisor::Target& target;
  ShapeTally tally;
  void note(const gemm_advisor::GemmProblem& p, const std::string& place) {
    if (profile.fitted_shapes.empty()) return;
    tally.note(gemm_advisor::outside_fitted_shapes_warning(profile, target.name(), target.param_variant(p), p,
                                                           profile.hw.source),
               p, place);
  }
  void warn() const { tally.warn("are outside the shapes the profile's parameters were calibrated on"); }
};

/// Warns (one line, "SHAPE: " and gemm_advisor::outside_fitted_shapes_warning) when `p` is outside the
/// shapes the profile's calibrated parameters for `target` were fitted on (an unknown target: nothing).
void warn_outside_fitted_shapes(const gemm_advisor::Profile& profile, const std::string& target,
                                const gemm_advisor::GemmProblem& p);

/// Records that the --from-hf config `config` made the model fp8 through its quantization_config
/// (no --dtype given): require_dtype's error then says so.
void note_fp8_from(const std::string& config);

/// Claims stdin for the input `what` names ("the shape list", "--candidates", "--from-hf") given as
/// "-": throws UsageError when another input of the command claimed it already (one stream feeds
/// one reader; the second read nothing, and said the input was empty).
void claim_stdin(const std::string& what);
/// main() found standard output closed (and held its number with a descriptor writes fail on):
/// the failure to write it is then said as "stdout is closed".
void mark_stdout_closed();

/// The given configs of --candidates FILE (warnings logged), or an empty list when none was given.
/// `line_of`, when given, receives each config's line in the file.
std::vector<gemm_advisor::TileConfig> read_given_candidates(
    const std::string& path, std::map<gemm_advisor::TileConfig, long>* line_of = nullptr);

/// gemm_advisor::read_measured_shapes over the --measurements files, its warnings and notes logged
/// (spdlog) as they arise.
std::vector<gemm_advisor::MeasuredShape> read_measured_shapes_logged(const std::vector<std::string>& paths,
                                                                     const std::string& kernel,
                                                                     const gemm_advisor::Profile& profile,
                                                                     const gemm_advisor::Target& target,
                                                                     bool keep_vendor_only);

/// For the "one timed config" warnings of evaluate and calibrate: the first such shape's text, where
/// its one timed row is (FILE:LINE), and, where rows of the same shape (sizes, dtype, layout) carry
/// another family or name, that (such a row is a problem of its own, so one stray family value made
/// a shape of one row, scored 100%: a fresh user's find, 2026-12-06). `single`: one of `shapes`.
std::string single_config_detail(const std::vector<gemm_advisor::MeasuredShape>& shapes,
                                 const gemm_advisor::MeasuredShape& single);

/// For the "timed alike" warnings of evaluate and calibrate: how many of `shapes` have two or more
/// configs that ran, all at one time (such a shape scores 100% of oracle whatever is picked: a file of
/// constant times was fitted and scored 100% unsaid, a fresh user's find, 2026-12-07), and the first
/// one's text with where its first row is (FILE:LINE) in `first`.
std::size_t alike_timed_shapes(const std::vector<gemm_advisor::MeasuredShape>& shapes, std::string& first);

/// gemm_advisor::measured_moe_layers over the shapes of the --measurements files, its warnings logged.
std::vector<gemm_advisor::MeasuredShape> measured_moe_layers_logged(const std::vector<gemm_advisor::MeasuredShape>& shapes,
                                                                    const std::vector<std::string>& paths);

/// The CPUs this process may run on (its affinity mask: taskset, a container's cpuset), which
/// --jobs 0 uses; hardware_concurrency counts the machine's and oversubscribed a pinned run (a fresh
/// CI user's find, 2026-12-04). At least 1.
unsigned usable_cpus();

/// --jobs's help text: threads, 0 for every usable CPU (batch, calibrate).
inline constexpr char kJobsHelp[] =
    "Threads, 1..1024, or 0 (the default) for every core this process may run on (its CPU affinity); output is "
    "identical for any value";

/// Whether --top or --distinct was given (they choose what is printed; --emit vllm writes one config).
bool ranking_options_given(const CommonOptions& o);

using gemm_advisor::same_file;

/// Throws InputError when the hardware has no matrix path for the problem's dtype (`given`: the
/// dtype as spelled on the command line, quoted when it is another name of it).
void require_dtype(const gemm_advisor::Hardware& hw, gemm_advisor::Dtype d, const std::string& given = "");

/// Each subcommand registers itself and returns the function run when it was chosen.
using Runner = std::function<int()>;
using Registered = std::pair<CLI::App*, Runner>;
Registered register_rank(CLI::App& app);
Registered register_profiles(CLI::App& app);
Registered register_batch(CLI::App& app);
Registered register_evaluate(CLI::App& app);
Registered register_explain(CLI::App& app);
Registered register_targets(CLI::App& app);
Registered register_calibrate(CLI::App& app);

/// --quiet / --verbose: stderr only.
extern bool g_quiet;

/// Files the run has written in full (calibrate's -o profile): finish_stdout names them when stdout
/// fails, so that a lost report is not read as a lost file.
extern std::vector<std::string> g_files_written;

}  // namespace cli
