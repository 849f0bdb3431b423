#pragma once
/// A hardware profile as a whole (schema: profiles/SCHEMA.md): the GPU's physics (Hardware), and
/// beside it what no kernel-independent physics can say: the Triton compiler's behaviour on that
/// GPU (`triton:`), and values for the model's free parameters (`model_parameters:` for every
/// target, `targets: {NAME: {model_parameters: ...}}` for one).
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gemm_advisor/hardware.hpp"
#include "gemm_advisor/model_params.hpp"

namespace gemm_advisor {

/// What the Triton compiler does on this GPU (the profile's `triton:` section), shared by every
/// Triton target: how deep a software pipeline may be and how many operand buffers it keeps.
struct TritonSettings {
  int max_num_stages = 0;     ///< largest num_stages the candidate spaces use
  int smem_stage_offset = 0;  ///< operand buffers in shared memory = max(1, num_stages - offset)
  /// ... for configs on the synchronous matrix-instruction fallback (Hopper's mma.sync below a
  /// warpgroup); the profile's `sync_mma_smem_stage_offset`, default smem_stage_offset.
  int sync_mma_smem_stage_offset = 0;
  /// Largest split_k the split-K targets try and accept (`triton.max_split_k`, default 256;
  /// `--max-split-k` overrides it): few-tile, huge-K shapes split K until the CUs are busy.
  int max_split_k = 256;
  /// Narrowest load, in bits per thread vector, the software pipeliner multi-buffers
  /// (`triton.min_pipelined_load_bits`, default 32): an operand whose loads are narrower (an
  /// unaligned one, loaded element by element) is loaded in the K-step that uses it, into one
  /// shared-memory buffer. 32 upstream on NVIDIA (AssignLatencies.cpp, isSmallLoad: cp.async
  /// copies 4, 8 or 16 bytes) and AMD CDNA 3; 0 (every load pipelined) on CDNA 4.
  int min_pipelined_load_bits = 32;
  /// Most K-steps of global loads in flight ahead of the math (`triton.max_loads_in_flight`; 0, the
  /// default: num_stages - 1 on either matrix path, triton_family::loads_in_flight). Where loads are
  /// staged through registers (AMD CDNA 3 without asynchronous copies) the stream pipeliner issues the
  /// next step's global loads one iteration ahead and spends further stages on shared-memory buffers:
  /// loads in flight = min(num_stages - 1, this).
  int max_loads_in_flight = 0;
  /// The compiler's own num_stages when a kernel gives none (`triton.default_num_stages`; 0, not
  /// given: no preference): within a near-tie of the same arithmetic intensity the ranking prefers
  /// the num_stages closest to it (ranker.cpp), where the model cannot tell stage counts apart (an
  /// operand left out of the software pipeline keeps every num_stages of a tile alike). 3 in
  /// Triton's NVIDIA backend (CUDAOptions), 2 in its AMD one (HIPOptions).
  int default_num_stages = 0;
  /// The compiler's own num_warps when a kernel gives none (`triton.default_num_warps`; 0, not
  /// given: no preference): within a near-tie of the same arithmetic intensity and stage
  /// preference the ranking lists the num_warps closest to it first (ranker.cpp). 4 in both of
  /// Triton's backends (CUDAOptions, HIPOptions).
  int default_num_warps = 0;
  /// Fewest num_warps at which the `triton` target's kernel, on an output whose row stride N is not a
  /// multiple of 16 elements, converts its fp32 accumulator's layout through shared memory to store it
  /// (`triton.misaligned_store_scratch_min_warps`; 0, the default: not known to): block_m * block_n * 4
  /// bytes, taken after the K loop, so the block needs the larger of that and its operand buffers
  /// (triton_resources). The kernel compiles its fp32 split-K store in every config (SPLIT_K is a
  /// run-time argument), which Triton cannot vectorize without the 16-divisibility of N.
  int misaligned_store_scratch_min_warps = 0;
};

/// The least and the largest M, N and K (and batch, dtypes, layouts) of the shapes a calibrated
/// overlay's parameters for one target were fitted on (`calibration.fitted_shapes`, which
/// `gemm-advisor calibrate` writes): what the fit saw. Sizes in elements (M: rows of A and C, a
/// fused-MoE layer's tokens).
struct FittedShapeRange {
  std::int64_t m_min = 0, m_max = 0;
  std::int64_t n_min = 0, n_max = 0;
  std::int64_t k_min = 0, k_max = 0;
  /// The input dtypes of those shapes (`dtypes:`, in Dtype order); empty: not recorded (an overlay
  /// written before it was), no check.
  std::vector<Dtype> dtypes;
  /// The least and largest batch count (`batch:`); 0, 0: not recorded (an overlay written before
  /// 2026-12-07's forty-eighth session), no check.
  std::int64_t batch_min = 0, batch_max = 0;
  /// The layouts of those shapes (`layouts:`, Layout::name()'s "NN", "NT", "TN", "TT", sorted); empty:
  /// not recorded, no check.
  std::vector<std::string> layouts;
};

/// The sizes of `p` as FittedShapeRange records them: a GEMM's own M, N, K; a fused-MoE problem's
/// layer's (tokens, per-rank intermediate, hidden) whichever of its launches `p` is (up: N = 2 x
/// intermediate, K = hidden; down: N = hidden, K = intermediate), so that a layer, its up and its
/// down GEMM are checked alike (the launches' own sizes against a layer's range warned wrongly both
/// ways: a fresh user's find, 2026-12-07).
inline FittedShapeRange fitted_sizes(const GemmProblem& p) {
  std::int64_t n = p.n, k = p.k;
  if (p.moe.gemm == MoeGemm::up) n = p.n / 2;
  if (p.moe.gemm == MoeGemm::down) n = p.k, k = p.n;
  return {p.m, p.m, n, n, k, k, {p.dtype}, p.batch, p.batch, {p.layout.name()}};
}

/// Model-parameter values a profile gives, each (registry entry, value), in file order.
using ModelParamValues = std::vector<std::pair<const ModelParamInfo*, double>>;

struct Profile {
  Hardware hw;                ///< physics only
  TritonSettings triton;      ///< `triton:`
  ModelParamValues model;     ///< `model_parameters:` (every target)
  std::map<std::string, ModelParamValues, std::less<>> target_model;  ///< `targets.NAME.model_parameters:`
  /// A calibrated overlay's (`calibration:`, written by `gemm-advisor calibrate`): the CUs its model
  /// parameters were fitted on (the loaded cu_count: compute.active_cu_count where given); 0 for a
  /// profile without `calibration:`. A caller ranking for another CU count should say so.
  int calibrated_cu_count = 0;
  /// `calibration.fitted_shapes:` of a calibrated overlay, by the parameter section it describes
  /// (TARGET, or TARGET.VARIANT for a target's other parameter set); empty for a profile without
  /// it (a shipped profile, or an overlay written before 2026-12-07).
  std::map<std::string, FittedShapeRange, std::less<>> fitted_shapes;
  /// The measurement files the fits of a calibrated overlay read: the `data:` lines of
  /// `calibration.provenance` ("data: FILE, FILE (kernel NAME)...", absolute paths as calibrate
  /// writes them), every fit's; empty for a profile without them. calibrate warns when it is given
  /// one of them again (its "held out, before" would score values fitted on those shapes).
  std::vector<std::string> calibration_data_files;
  /// A digest of the file's figures that fitted parameters depend on: `vendor`, `arch`, `isa` and the
  /// `compute`, `memory`, `efficiency`, `matrix` and `triton` sections, less the keys the reader
  /// ignores and `compute.active_cu_count` and `triton.max_split_k` (calibrate writes those for a
  /// run); canonical: key order, comments, layout and a number's spelling (1830, 1830.0, 0x726) do
  /// not change it. calibrate records it as `calibration.hardware_digest`; parse_profile warns where
  /// a calibrated overlay's recorded one differs (its figures were edited after the fit).
  std::string hardware_digest;

  /// The parameters a target runs with on this profile: its `defaults`, then this profile's values
  /// for every target, then its values for `target`.
  ModelParams params_for(std::string_view target, const ModelParams& defaults) const;
};

/// Problems found while validating a profile. Errors make it unusable; warnings do not.
struct ProfileDiagnostics {
  std::vector<std::string> errors;    ///< each "source:line: message"
  std::vector<std::string> warnings;  ///< each "source:line: message"
  /// The YAML text load_profile read from a file, as it was parsed (empty for a shipped profile):
  /// what a caller keeps of the file (the Python module's pickle) without reading it again.
  std::string file_text;
};

/// Parses and validates profile YAML text. `source` names it in messages (a path, or
/// "embedded:NAME"). Returns the profile, filling `diagnostics`. Throws InputError carrying the
/// first error (file:line) when the text is not YAML or any error was found.
Profile parse_profile(std::string_view yaml_text, const std::string& source,
                      ProfileDiagnostics* diagnostics = nullptr);

/// The warning for a calibrated overlay used with another target: where `profile` gives model
/// parameters only under `targets: NAME:` (no `model_parameters:` for every target) and none of those
/// names is `target`, the overlay changes nothing for it; the message says so, naming the profile as
/// `source` and the targets it has values for. "" otherwise (also for an empty `target`).
std::string other_target_params_warning(const Profile& profile, std::string_view target, const std::string& source);

/// The warning for a profile whose parameters for `target` are all another parameter set's than the
/// one a problem runs with (Target::param_variant: vllm-fused-moe's `fp8_block` set for block-fp8
/// layers, its own for 16-bit ones): that problem runs with the target's own values, so the overlay
/// changes nothing for it. `variant` is the problem's set ("" the target's own); `source` names the
/// profile. "" where a `model_parameters:` for every target applies, the profile has no values for
/// the target at all (other_target_params_warning's case), or has some for `variant`.
std::string unused_param_set_warning(const Profile& profile, std::string_view target, std::string_view variant,
                                     const std::string& source);

/// The warning for a calibrated overlay used for another CU count than it was fitted on
/// (Profile::calibrated_cu_count against hw.cu_count after a partition, use_cu_count): its model
/// parameters fit the CUs it was calibrated on. `source` names the profile. "" where they agree or
/// the profile is no overlay, or its parameters are another target's than `target` (the
/// other_target_params_warning then says so; "" target: any).
std::string calibrated_cu_count_warning(const Profile& profile, const std::string& source,
                                        std::string_view target = {});

/// The warning for a problem outside the shapes a calibrated overlay's parameters for `target` (its
/// parameter set `variant`, "" the target's own) were fitted on (Profile::fitted_shapes): its M, N or
/// K below the least or above the largest of the fit's, so the fitted values are extrapolated
/// there. Names each size outside and the fitted range, and `source` (the profile). "" where the
/// problem is inside, or the profile records no range for that section.
std::string outside_fitted_shapes_warning(const Profile& profile, std::string_view target, std::string_view variant,
                                          const GemmProblem& p, const std::string& source);

/// Whether load_profile takes `text` as a path rather than a name: it has a '/' or ends in .yaml/.yml.
bool is_profile_path(std::string_view text);

/// Loads a profile by embedded name ("b200") or by path (anything with '/' or ending in .yaml/.yml).
/// Throws InputError for an unknown name (listing the known ones), an unreadable file or a bad profile.
/// `diagnostics`, when given, receives the profile's warnings (unknown keys, uncited numbers), which
/// a caller should show: they do not stop the load.
Profile load_profile(const std::string& name_or_path, ProfileDiagnostics* diagnostics = nullptr);

/// Adds to diagnostics->warnings (nothing where diagnostics is null) the warning that the profile
/// read from `path` takes a shipped profile's name and that profile's aliases while its hardware
/// differs (CU count of the product, clock, memory, caches, shared memory or matrix rates per CU; a
/// partition, compute.active_cu_count, is the same card): every output would say the shipped name.
/// load_profile calls it for a file; `profiles validate` too, so that both say the same.
void warn_shipped_name_taken(const Profile& profile, const std::string& path, ProfileDiagnostics* diagnostics);

/// A profile compiled into the binary: its name (file stem) and YAML text.
struct EmbeddedProfile {
  std::string_view name;
  std::string_view yaml;
};
/// Every profile of profiles/*.yaml, sorted by name. Generated at build time.
const std::vector<EmbeddedProfile>& embedded_profiles();

/// The shipped profile a GPU name means: its `name`, its `display_name`, one of its `aliases`
/// (torch / nvidia-smi / rocm-smi / vLLM spellings), or its `isa` where only one shipped profile
/// has it; compared on lowercase letters and digits only ("NVIDIA H100 80GB HBM3", "nvidia_h100_80gb_hbm3"
/// and "h100" all give "h100"), or a shortened spelling of one of its names that holds its `name`
/// ("H100 SXM", "nvidia-h100": each word the start of a word of that name, or the letters and
/// digits a run of them). Returns "" when nothing matches; throws InputError when the text names
/// several profiles (gfx950: mi350x and mi355x), naming them.
std::string resolve_profile_name(std::string_view text);

/// How to describe a GPU the shipped profile `shipped` is near but does not describe (another card of
/// the chip: its own SM count, clocks or memory): "write its figures into a copy (gemm-advisor
/// profiles show SHIPPED > mine.yaml) and give that file as the profile (...)". One text for the
/// messages that give it (an unknown --hw, a gpu column's variant card, a vLLM device name).
std::string own_profile_advice(const std::string& shipped);

/// Every shipped profile's names as resolve_profile_name takes them: name -> aliases (display
/// name, aliases, a unique isa), for `gemm-advisor profiles`.
std::vector<std::pair<std::string, std::vector<std::string>>> profile_aliases();

}  // namespace gemm_advisor
