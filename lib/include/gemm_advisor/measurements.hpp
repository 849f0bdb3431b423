#pragma once
/// Measurement CSV (one row per timed kernel run; DESIGN.md, "Measurements and evaluation").
/// Required columns: m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms. Optional: batch (1),
/// dtype (bf16), layout (NN), group_m (8), split_k (1), kernel (triton), status (ok), family and
/// name (the shape's family, e.g. the model, and its label; tools/measure/harness.py writes them),
/// gpu (the measuring device's name as torch or nvidia-smi print it),
/// reps, rel_err (the harness's); for vllm-fused-moe rows gemm (up, down or layer), experts, top_k and
/// optional routing (tuner: the harness routes as vLLM's tuner) and block_shape ([128,128] for fp8:
/// the harness measures the block-scaled path).
/// Rows whose kernel is the target are its configs; rows of another target's kernel are skipped;
/// any other kernel (e.g. `cublas`) is a vendor-library reference timing.
#include <istream>
#include <set>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gemm_advisor/problem.hpp"
#include "gemm_advisor/tile_config.hpp"

namespace gemm_advisor {

struct MeasuredConfig {
  TileConfig config;
  double ms = 0;       ///< measured time in milliseconds (the median of repeats); 0 when not timed
  std::string status;  ///< "ok", or why the run has no valid time (compile_error, wrong, ...)
  long line = 0;       ///< line in the CSV
  /// The CSV it was read from (its `source`: a path or "<stdin>"), shared by the file's rows; null
  /// for a row built in code. Several files merge into one shape's rows, so a line needs its file.
  std::shared_ptr<const std::string> source;
};

/// Statuses read_measured_shapes (evaluate.hpp) gives rows its timing checks leave out: a time faster
/// than the GPU allows, and a shape's rows far slower than the model puts any of its configs. The run
/// did not fail; its time is not believed.
inline constexpr std::string_view kStatusFasterThanPeak = "faster-than-peak";
inline constexpr std::string_view kStatusFarSlowerThanModel = "far-slower-than-model";
/// Whether `status` is one of those (not a failed run: a compile error, a wrong result, a timeout).
inline bool is_timing_check_status(std::string_view status) {
  return status == kStatusFasterThanPeak || status == kStatusFarSlowerThanModel;
}

/// How a measured problem's family and name read in a message or a table: "family/name", the family
/// alone where it has no name, "" where it has neither; through printable() (bytes that are not
/// well-formed, visible UTF-8 as \xNN).
std::string family_label(const std::string& family, const std::string& name);

/// All rows of one problem, in file order.
struct MeasuredShape {
  GemmProblem problem;
  std::string family;                   ///< the `family` column of its first row ("" if none)
  std::string name;                     ///< the `name` column of its first row ("" if none)
  std::string gpu;                      ///< the `gpu` column of its first row (the device's own name; "" if none)
  std::vector<MeasuredConfig> configs;  ///< rows of the target kernel
  double vendor_ms = 0;                 ///< fastest vendor-library row (0 if none)
  std::string vendor_kernel;            ///< its kernel name (e.g. "cublas")
  std::string dtype_text;               ///< the `dtype` column of its first row as written ("" if none):
                                        ///< which encoding or format (dtype_format_warning)
};

/// Whether a device name from a measurement file (`NVIDIA H200`, `AMD Instinct MI300X`) names the
/// profile's GPU: the profile's name (h200), display name or one of its `aliases` (what a user's own
/// profile lists for its GPU's driver name: a fresh user's find, 2026-12-04), compared on lowercase
/// letters and digits.
bool gpu_matches_profile(const std::string& gpu, const std::string& profile_name, const std::string& display_name,
                         const std::vector<std::string>& aliases = {});

/// What a measurement's device name says beyond the GPU a profile describes, given that
/// gpu_matches_profile holds: "MIG" for a MIG slice (`NVIDIA H200 MIG 3g.71gb`: fewer SMs than the
/// whole GPU), or the form factor it names that the profile's display name does not ("NVL", "PCIe"
/// or "SXM": another card of the same chip, with its own clocks and power limit); "" for neither.
/// Words are matched case-insensitively, whole.
std::string gpu_variant(const std::string& gpu, const std::string& display_name);

/// A MIG slice's share of the GPU as its device name gives it (NVIDIA MIG User Guide, "Supported MIG
/// Profiles": a profile "Ng.Mgb" holds N sevenths of the SMs and M GB of the memory, with about that
/// share of the L2 and the DRAM bandwidth; a compute instance "Kc.Ng.Mgb" K sevenths of the SMs).
struct MigSlice {
  int sm_sevenths = 0;     ///< N (or K of a compute instance), 1..7; 0: the name gives none
  double memory_bytes = 0;  ///< M GB in bytes (1e9 a GB, as the names count); 0: none given
};
/// The slice a device name like "NVIDIA A100-SXM4-80GB MIG 3g.40gb" names; zeros where it names none.
MigSlice mig_slice(const std::string& gpu);

/// Largest time a measurement row may give, in ms: 1e9 ms is 11.6 days, far beyond any one GEMM
/// launch; larger values are a unit or parse slip, and near DBL_MAX they overflow the scoring's
/// ratios (an `inf` % of oracle).
constexpr double kMaxMeasuredMs = 1e9;

/// Largest `rel_err` (relative Frobenius error against an fp32 reference) a row marked `ok` is
/// expected to have: tools/measure's harness marks a row `wrong` above 1e-2 (bf16, fp8; 5e-3 for
/// fp16), so an `ok` row above it, or `nan`, comes from a tool with another check and is counted in a
/// warning (timed as given).
constexpr double kOkRelErrLimit = 1e-2;

/// Reads a measurement CSV and groups rows by problem (first-appearance order). Rows whose kernel
/// is neither `target` nor a vendor library (block sizes 0) are ignored. A row with status "ok" must have ms > 0;
/// `rel_err` may be `nan` (what the harness writes for a result with unwritten elements);
/// an empty status field is an error (a cut-off row). `warnings`, when given, receives one
/// "path:line: unknown column ..." line per column the reader does not know (a misspelt `split_k`
/// would otherwise read as 1). `other_kernels`, when given, receives the kernels other than `target`
/// with tile-config rows (a few; vendor rows, block sizes 0, not), which names what a file without
/// `target`'s rows holds instead. Throws InputError "path:line: ..." on a malformed row or a file
/// without data rows.
std::vector<MeasuredShape> read_measurements(const std::string& path, const std::string& target = "triton",
                                             std::vector<std::string>* warnings = nullptr,
                                             std::set<std::string>* other_kernels = nullptr);

/// Shape families given apart from the measurements (`--families FILE`): a CSV with columns
/// m,n,k,family and optional batch, dtype, layout, name (a column left out matches every value of
/// it). Sets each shape's family (and name, if given) where the shape is listed and has none;
/// returns how many it set. An unknown column goes to `warnings` ("path:1: unknown column ...
/// ignored"); rows matching no measured shape at all (a mistyped shape, or a shape of another data
/// set the file also lists) are noted in `notes`, "path:line: ..." of the first with a count; each
/// when given. Throws InputError "path:line: ..." for a malformed file or a shape listed in two
/// families.
std::size_t apply_families(const std::string& path, std::vector<MeasuredShape>& shapes,
                           std::vector<std::string>* warnings = nullptr, std::vector<std::string>* notes = nullptr);

/// Two times of one config further apart than this ratio are a disagreement between runs
/// (merge_measured_shape counts them): one of them is likely a bad run.
constexpr double kRetimeDisagreement = 1.25;

/// Adds another measurement of the same problem (another file's rows of it: a re-measurement, or more
/// configs) to `into`: its configs are appended (a config timed in both: the faster time counts, as
/// within one file) and the faster vendor time is kept. Where given, `retimed` is increased by the
/// timed (ok) configs of `more` that `into` has timed already, and `disagree` by those of them whose
/// two times differ by more than kRetimeDisagreement.
void merge_measured_shape(MeasuredShape& into, MeasuredShape&& more, std::size_t* retimed = nullptr,
                          std::size_t* disagree = nullptr);

/// Fused-MoE layers from per-GEMM measurements (rows with gemm up and down, as the harness writes
/// them): each (family, name, M, experts, top_k, dtype, routing, block shape) whose two GEMMs were both measured becomes
/// one layer problem (MoeGemm::layer: n = N, k = H), holding each config measured ok in both with
/// ms = up + down, since vLLM runs both launches of a layer with one config. Other shapes are
/// returned unchanged, first; the layers follow in (family, experts, top_k, dtype, M) order. `unpaired_configs`, when
/// given, receives how many configs were timed ok on only one GEMM of a paired layer (left out).
std::vector<MeasuredShape> pair_moe_layers(const std::vector<MeasuredShape>& shapes,
                                           std::size_t* unpaired_configs = nullptr);

/// pair_moe_layers for a command that scores layers: throws InputError "sources: no MoE layer has
/// both its up and down GEMM measured ... --per-gemm ..." when there were shapes but none pairs.
/// `warnings`, when given, receives one line when some up/down GEMM problems make no layer (the
/// other half missing, dimensions of another layer, or no config timed ok in both): they are left
/// out of the layer scores.
std::vector<MeasuredShape> measured_moe_layers(const std::vector<MeasuredShape>& shapes, const std::string& sources,
                                               std::vector<std::string>* warnings = nullptr);

/// The same, from a stream; `source` names it in messages ("source:line: ...").
std::vector<MeasuredShape> read_measurements(std::istream& in, const std::string& source,
                                             const std::string& target = "triton",
                                             std::vector<std::string>* warnings = nullptr,
                                             std::set<std::string>* other_kernels = nullptr);

}  // namespace gemm_advisor
