#pragma once
/// Config files for kernel libraries, made from rankings (`batch --emit`):
///  - Triton: a shape's top configs as a JSON list of objects with the target kernel's own parameter
///    names (or a user's, `--names`), ready to turn into an autotune config list;
///  - vLLM: the tuned-config JSON files its Triton block-scaled FP8 GEMM
///    (`w8a8_triton_block_scaled_mm`, vllm/model_executor/layers/quantization/utils/fp8_utils.py) reads,
///    one per (N, K, device), mapping M to a config.
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gemm_advisor/profile.hpp"
#include "gemm_advisor/ranker.hpp"
#include "gemm_advisor/target.hpp"

namespace gemm_advisor {

// --- a target's own parameter names --------------------------------------------------------------

/// The names triton.Config (kwargs, num_warps, num_stages, num_ctas, maxnreg, pre_hook, ir_override)
/// or a Triton launch (grid, warmup, enable_fp_fusion, launch_cooperative_grid, launch_pdl; the AMD backend's waves_per_eu,
/// matrix_instr_nonkdim, kpack) takes as its own, ", "-separated: no kernel parameter may be
/// renamed onto one (parse_parameter_names; Python's names= the same).
inline constexpr std::string_view kTritonLaunchOptions =
    "num_warps, num_stages, num_ctas, maxnreg, pre_hook, ir_override, grid, warmup, enable_fp_fusion, "
    "launch_cooperative_grid, launch_pdl, waves_per_eu, matrix_instr_nonkdim, kpack";

/// Whether `name` is one of kTritonLaunchOptions.
bool is_triton_launch_option(std::string_view name);

/// Renames of a target's parameters for a user's own kernel (`--names BLOCK_M=BLOCK_SIZE_M,...`):
/// the target's name (TargetParameter::name) -> the name to write.
using ParameterNames = std::map<std::string, std::string, std::less<>>;

/// Parses "FROM=TO[,FROM=TO...]" for a target: FROM must be one of its parameter names, each at most
/// once, and not num_warps or num_stages (triton.Config's own arguments); TO a name of letters,
/// digits and '_' not already taken by another parameter nor one of kTritonLaunchOptions, or empty:
/// the parameter is left out of
/// the written configs (a kernel without it; "" in the map).
/// Throws InputError quoting the text and listing the target's names.
ParameterNames parse_parameter_names(std::string_view text, const Target& target);

/// One config as the target's kernel takes it: {name: value} for each of the target's parameters,
/// in its order (e.g. triton: BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, SPLIT_K, num_warps, num_stages;
/// triton-tutorial and vllm-fp8-block: BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, GROUP_SIZE_M,
/// num_warps, num_stages), names renamed by `names`. No key the kernel does not take.
nlohmann::ordered_json config_json(const Target& target, const TileConfig& c, const ParameterNames& names = {});

/// The first `top` feasible entries of a ranking (0: all feasible ones), as a JSON list of
/// config_json objects, best first, each once (a field `names` leaves out can make two entries
/// alike: the later one is skipped, so pass a ranking longer than `top` then). Infeasible entries
/// are never emitted.
nlohmann::ordered_json configs_json(const Target& target, const std::vector<RankedConfig>& ranked, std::size_t top,
                                    const ParameterNames& names = {});

/// The `--emit triton` object of one shape: {"name" (when not empty), "m", "n", "k", "batch",
/// "dtype", "layout", "configs": configs_json(...), "hardware": hardware_label(hw) (the profile, and
/// the CUs of a --cu-count partition), "target", "generator": generator_json() (version.hpp)}.
nlohmann::ordered_json emit_json(const Target& target, const GemmProblem& p, const Hardware& hw, const std::string& name,
                                 const std::vector<RankedConfig>& ranked, std::size_t top,
                                 const ParameterNames& names = {});

// --- vLLM block-scaled FP8 GEMM (target vllm-fp8-block) --------------------------------------------

/// The M values vLLM tunes its block FP8 GEMM for, ascending: the default `batch_sizes` of
/// benchmarks/kernels/benchmark_w8a8_block_fp8.py (1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 256, 512,
/// 1024, 1536, 2048, 3072, 4096). At run time vLLM takes the entry whose M is nearest the actual M.
const std::vector<std::int64_t>& vllm_default_m_values();

/// The device name vLLM puts in tuned-config file names for a shipped profile (`hw.name`):
/// `current_platform.get_device_name()` with spaces replaced by underscores (e.g. "NVIDIA_H200",
/// "AMD_Instinct_MI300X").
/// A profile read from a file (`hw.source` not "embedded:..."), whose numbers may describe another GPU:
///  - its `aliases:` list one of those names exactly (e.g. "NVIDIA_H200"): that name (the file says so);
///  - else its `name:` is a shipped profile's (a copy of profiles/h200.yaml, a calibrated overlay):
///    that profile's device name, and `warning` (when given) gets one line saying the file's name was
///    mapped to it and how to say so or choose another (the caller shows it);
///  - else InputError: pass the name explicitly (--vllm-device-name). Also InputError when the
///    aliases list several of the names.
std::string vllm_device_name(const Hardware& hw, std::string* warning = nullptr);

/// A GPU's name in vLLM's config-file form, as vLLM makes it (get_device_name_as_file_name:
/// re.sub(r"[\s/]+", "_", name)): each run of whitespace and '/' one '_' ("NVIDIA H100 PCIe/NVL" ->
/// "NVIDIA_H100_PCIe_NVL").
std::string vllm_file_name_form(std::string_view name);

/// A line saying that `device_name` (file-name form, given with --vllm-device-name) is another GPU
/// than the profile ranked for: another vendor's (an "NVIDIA_..." name under an AMD profile, an
/// "AMD_..." one under an NVIDIA profile; `rocm_keys`: the files carry ROCm launch keys, as fused-MoE
/// files of an AMD profile do, which CUDA's launcher refuses), or the vLLM name of another shipped
/// profile's GPU where the profile's own is known (NVIDIA_H100_80GB_HBM3 under h200): vLLM on that
/// GPU would read configs ranked for another. "" otherwise. `given`: the name came from
/// --vllm-device-name (the line names the flag), else from the profile (the line says so).
std::string vllm_device_vendor_warning(const Hardware& hw, const std::string& device_name, bool rocm_keys = false,
                                       bool given = true);

/// A line for `hw_given`, the GPU name the user gave for a shipped AMD profile (--hw, GEMM_ADVISOR_HW),
/// when it is an amd-smi market name ("AMD Instinct MI355 OAM") whose vLLM file-name form is not
/// `device_name`, the name the files are written under (vLLM's device-id table: AMD_Instinct_MI355X):
/// a vLLM whose table lacks this GPU's id names it by that market name, and looks its files up under
/// that form (vllm/platforms/rocm.py falls back to amdsmi's market_name; vLLM ships files under
/// AMD_Instinct_MI325_OAM, AMD_Instinct_MI350_OAM and AMD_Instinct_MI355_OAM). "" otherwise (an
/// NVIDIA profile, a name that is not a market name, one whose form is `device_name`).
std::string vllm_market_name_note(const Hardware& hw, std::string_view hw_given, const std::string& device_name);

/// "N={n},K={k},device_name={device},dtype=fp8_w8a8,block_shape=[128,128].json", exactly as
/// vLLM's get_w8a8_block_fp8_configs() builds the name it looks for.
std::string vllm_config_file_name(std::int64_t n, std::int64_t k, const std::string& device_name);

/// Throws InputError (naming the profile) when the hardware has no fp8 matrix path, so that vLLM's
/// FP8 kernel cannot run on it (e.g. a100).
void require_vllm_block_fp8(const Hardware& hw);

/// A whole tuned-config file: {"M": config, ...} with M as a decimal string key, ascending by M,
/// each config in vLLM's keys (config_json of vllm_fp8_block_target(): BLOCK_SIZE_M, BLOCK_SIZE_N,
/// BLOCK_SIZE_K, GROUP_SIZE_M, num_warps, num_stages), indented by 4 and ending in a newline, as
/// vLLM's tuner writes it (json.dump(indent=4)).
std::string vllm_config_file_text(const std::map<std::int64_t, TileConfig>& best_by_m);

// --- vLLM fused MoE (target vllm-fused-moe) ---------------------------------------------------------

/// The ROCm launch keys --emit vllm adds for AMD profiles: waves_per_eu 0 (the compiler's choice),
/// matrix_instr_nonkdim 16 (16x16 MFMA), kpack 2: the values most of vLLM's shipped MI300X fused-MoE
/// files hold; the last two only for 16-bit layers, as vLLM's ROCm tuner writes them
/// (benchmark_moe.py, get_rocm_tuning_space(use_fp16)) and 486 of the 558 fp8 entries of its shipped
/// AMD files lack them (../shared/ref/public/vllm_fused_moe_configs.csv). Not modelled: the advisor
/// ranks the other keys.
constexpr int kRocmWavesPerEu = 0;
constexpr int kRocmMatrixInstrNonKDim = 16;
constexpr int kRocmKpack = 2;

/// A whole fused-MoE tuned-config file ({"M": config, ...}, ascending by M, vLLM's keys
/// BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, GROUP_SIZE_M, num_warps, num_stages, plus the ROCm
/// keys above on an AMD profile; `vllm_dtype` the file's dtype key, "" for 16-bit, "fp8_w8a8"),
/// indented by 4 and ending in a newline, as benchmark_moe.py writes it. The file name:
/// vllm_moe_config_file_name (moe.hpp).
std::string vllm_moe_config_file_text(const std::map<std::int64_t, TileConfig>& best_by_m, const Hardware& hw,
                                      const std::string& vllm_dtype = "");

// --- files ----------------------------------------------------------------------------------------

/// Throws InputError "path: cannot write: ..." now if write_file_atomically(path, ...) would
/// certainly fail (no such directory, a directory not writable, something not a regular file
/// standing there, a folder where no file can be created: its temporary file is created there and
/// removed), so that a long job checks its output before it runs.
void check_writable_path(const std::string& path);

/// Writes `text` to `path` atomically: into a temporary file in the same directory, then renamed
/// over `path`, so a reader sees the old file or the whole new one, never a part. Throws InputError
/// naming the path when the directory is not writable or the disk is full (the temporary file is
/// removed then).
/// A path that exists must be a regular file or a link to one (the link's target is replaced); a
/// directory, device or pipe there is an InputError, not replaced.
void write_file_atomically(const std::string& path, const std::string& text);

/// A file written while a run goes and put in place only when it ends well: the stream writes a
/// temporary file beside `path` (write_file_atomically's kind; a dead writer's are removed first),
/// and commit() syncs it and renames it over `path`, so that a reader sees the old file or the whole
/// new one, with the replaced file's permission bits. Destroyed without commit() (a run stopped by a
/// bad line, an exception), it removes the temporary and leaves `path` as it was. The temporary is
/// locked (flock) while its writer lives, which is how other runs tell it from a dead writer's. `path` must be what write_file_atomically takes (a regular
/// file, a link to one, or nothing yet). Throws InputError naming `path`: at construction when the
/// temporary cannot be made (no such directory, not writable), at commit() when a write failed
/// (disk full) or the rename does.
class AtomicFile {
 public:
  explicit AtomicFile(const std::string& path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  /// Where the run writes (the temporary file).
  std::ostream& stream() { return out_; }
  /// Syncs and renames the temporary over the path (once; InputError as above).
  void commit();
  /// Gives the write up: the temporary removed, the path left as it was. For a writer that went
  /// through another stream on stream()'s buffer (std::cout redirected), whose failure (a full disk)
  /// stream() itself never saw: commit() would have renamed the part written. Throws InputError
  /// "PATH: cannot write: REASON (left as it was)", REASON strerror(`error`) or, for 0, "a write failed".
  [[noreturn]] void abandon(int error);
  /// The path the file goes to (a link's target where the path is a link).
  const std::string& path() const { return path_; }

 private:
  // Removes the temporary and releases its lock (the file at path_ untouched); nothing left to remove.
  void discard();

  std::string path_, tmp_;
  std::ofstream out_;
  int lock_fd_ = -1;  // the temporary's own descriptor, locked (flock) while this writer lives
  bool committed_ = false;
};

/// Removes the temporary file being written (an AtomicFile's, or write_file_atomically's: a config
/// file of --emit vllm, a sidecar), if one is: for a signal handler
/// (SIGTERM, SIGHUP, SIGINT) that ends the process, so that a killed run leaves no temporary behind.
/// Async-signal-safe (unlink of a path kept in a fixed buffer).
void remove_active_temporary() noexcept;

/// A run's fields for the sidecar below: generator_json() plus "hardware" (the profile's name),
/// "cu_count" (the CUs ranked for: a --cu-count partition), "profile" (its source, profile_source_text:
/// a calibrated overlay is told from the shipped profile) and "target".
nlohmann::json sidecar_run_json(const Hardware& hw, const Target& target);

/// Where a profile came from, for output read elsewhere: "embedded:NAME" for a shipped profile, else
/// the file's absolute path (as given where it cannot be made absolute).
std::string profile_source_text(const Hardware& hw);

/// Checks, before any config file is written, that the sidecar below can be read and replaced in
/// `dir` (an existing one: a regular file or a link to one, readable). Throws InputError naming it
/// (a sidecar that failed after the config files were written left them behind unsaid).
void check_generator_sidecar(const std::string& dir);

/// Writes one --emit vllm run's config `files` (name inside `dir`, text) into `dir` (created when
/// missing), under an exclusive lock on the directory (flock: concurrent runs into one directory
/// wait for each other), with its provenance sidecar `dir`/gemm-advisor-generator.json: the run's
/// fields (`run`, sidecar_run_json: generator, hardware, profile, target, ...) at the top, and
/// under "files" each config file of the directory with the fields of the run that wrote it (kept
/// from an earlier sidecar for files this run does not rewrite; files gone from `dir` dropped).
/// First the checks: unless `overwrite`, InputError "DIR/NAME: exists and was not written by
/// gemm-advisor ... (and K more)" when one of this run's names exists and the sidecar does not list
/// it (vLLM's own tuned files, hand-edited ones; a sidecar it cannot read as one lists nothing, and
/// the message says so), or lists it as written for another hardware or CU count (vLLM's file names
/// cannot tell them apart); to `warnings`, files still there under this run's device names ranked
/// for another hardware or CU count, and a sidecar that is no sidecar (replaced). Then the sidecar
/// listing the files planned, each file atomically (`written` called with each path once it is in
/// place), then the sidecar listing those written. A long run rewrites the sidecar as it goes,
/// once `sidecar_refresh` has passed since it last did (after a file, before `written` is called),
/// so that a run killed midway leaves the files it wrote listed as written and only the rest marked
/// "written": false.
/// A file that fails throws InputError as write_file_atomically, the sidecar left listing the files
/// that were written (or, where it cannot be rewritten, those planned), so that the same command
/// run again is not refused over this run's own files. Returns the sidecar's path ("" when `files`
/// is empty: nothing is written then). `file_layers` (optional, by file name): the layer each file's
/// configs were ranked for (fused MoE: {"model", "hidden", "top_k", "dtype"}), recorded under the
/// file's "layer"; unless `overwrite`, InputError "DIR/NAME: written for ..." when the sidecar lists
/// the name with another hidden, top_k or dtype (vLLM's names cannot tell them apart).
std::string write_config_directory(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files,
                                   const nlohmann::json& run, bool overwrite,
                                   const std::function<void(const std::string&)>& written,
                                   std::vector<std::string>* warnings,
                                   std::chrono::milliseconds sidecar_refresh = std::chrono::seconds(1),
                                   const std::map<std::string, nlohmann::json>* file_layers = nullptr);

/// Throws InputError naming `dir` when ensure_directory would fail on it: it exists and is not a
/// directory, is a link to nowhere, or its nearest existing ancestor is not a writable directory.
/// Creates nothing (a run that fails later leaves no empty directory behind).
void check_directory_creatable(const std::string& dir);

/// Creates `dir` (and its parents) when missing. Throws InputError naming it when it exists but is
/// not a directory, or cannot be created.
void ensure_directory(const std::string& dir);

}  // namespace gemm_advisor
