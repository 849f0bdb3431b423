#pragma once
/// What every front end (the CLI, the Python module `gemm_advisor`) shares, so that both answer and
/// fail alike: which profile to use when none is given, the problem defaults of a target, the
/// checks and error messages of `rank` and `explain`, and the lists of profiles and targets.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gemm_advisor/profile.hpp"
#include "gemm_advisor/ranker.hpp"
#include "gemm_advisor/target.hpp"

namespace gemm_advisor {

/// The profile name to use when the user gave none: $GEMM_ADVISOR_HW, else the local GPU as
/// `nvidia-smi` (or `rocm-smi --showproductname`) names it, resolved to a shipped profile
/// (resolve_profile_name). `option` is how the front end spells the setting in messages ("--hw" for
/// the CLI, "hw=" for Python). When the local GPU was used, `*local_gpu` (if given) receives the
/// name the tool printed, else "". Throws InputError when neither gives a profile (no GPU, or one
/// that no shipped profile describes), listing the shipped profiles: never a silent default.
std::string default_hardware_name(std::string_view option = "--hw", std::string* local_gpu = nullptr);

/// "a100, b200, ...": the shipped profile names, for messages.
std::string shipped_profile_names();

/// The problem defaults of a command: `dtype` and `layout`, or, where one is "" (not given), the
/// target's own default (TargetInfo::default_dtype/layout: fp8 NT for vllm-fp8-block), else bf16
/// and NT. Throws InputError for a bad dtype or layout text.
GemmProblem problem_defaults_for(const TargetInfo& target, std::string_view dtype, std::string_view layout);

/// Throws InputError "dtype D is not supported by HW (it has: ...)" when the hardware has no matrix
/// path for the dtype; `given`, the dtype as the user spelled it, is quoted when it differs from
/// D's own name ("dtype e4m3 (fp8) is not supported by a100 ...").
void require_matrix_dtype(const Hardware& hw, Dtype d, std::string_view given = {});

/// Why a target's space can hold no config for a problem, for the "no feasible config" errors: the
/// space keeps only what the profile allows (" (every config of the target's space breaks a limit
/// of the profile: ...)").
std::string empty_space_reason();

/// "CONFIG: reason" of an infeasible ranked config (how the front ends name one that cannot run).
std::string infeasible_config_text(const RankedConfig& r);

/// The warnings for the infeasible configs of `ranked` (advise()'s result with given configs): the
/// first 5 as "config C is infeasible on HW: reason", each passed through `locate` (which may prefix
/// where the config was given, e.g. "file:line: "), then one "SOURCE: N more configs infeasible on HW
/// after the 5 above (listed as infeasible)" line for the rest (a list of thousands gave as many
/// lines). Empty when every config is feasible.
std::vector<std::string> infeasible_warnings(const std::vector<RankedConfig>& ranked, const Hardware& hw,
                                             const std::string& source,
                                             const std::function<std::string(const TileConfig&, std::string)>& locate);

/// Throws InputError "no feasible config for SHAPE on HW[: reason]" (as `rank` reports it) when
/// `ranked` (advise()'s result) has no feasible entry; the reason is the first infeasible given
/// config's, with a count when there are several; with no config at all (the target's space left
/// empty by the profile's limits), empty_space_reason().
void require_feasible(const std::vector<RankedConfig>& ranked, const GemmProblem& p, const Hardware& hw);

/// `explain`'s pick: the advisor's top config for the problem, or exactly `given` when not null,
/// estimated with every term. Throws InputError when the problem cannot run, when there is no
/// feasible config, or when `given` is infeasible (with the target's reason).
RankedConfig explain_config(const Target& target, const GemmProblem& p, const Profile& profile,
                            const TileConfig* given);

/// The physical floors of a problem on a GPU: no kernel runs faster than the larger of its FLOPs
/// (GemmProblem::flops) at the dtype's datasheet matrix peak and its compulsory bytes
/// (GemmProblem::compulsory_bytes: A and B read once, C written once) at the datasheet DRAM
/// bandwidth (Hardware::peak_flops_per_s, dram_bytes_per_s without the achievable fraction).
struct ProblemFloors {
  double compute_s = 0;         ///< flops / peak matrix FLOP/s, seconds
  double dram_s = 0;            ///< compulsory_bytes / datasheet DRAM bandwidth, seconds
  double compulsory_bytes = 0;  ///< bytes
};
ProblemFloors problem_floors(const GemmProblem& p, const Hardware& hw);

/// `explain --format json` for explain_config's pick `r` (the CLI adds a MoE layer's "gemms"):
/// ranking_json of it, "chosen" ("given" or "the advisor's top config"), "floors" (problem_floors:
/// compute_s, dram_s, compulsory_bytes), "output_dtype" (output_dtype), and for a given config "rank": null (it is estimated, not
/// ranked: `rank` says where it stands).
nlohmann::json explain_json(const GemmProblem& p, const Hardware& hw, const Target& target, const RankedConfig& r,
                            bool given);

/// A fused-MoE layer's two launches (up, down) under one config, each with its own estimate (the
/// layer's record sums their times; per-tile terms cannot be summed); empty for any other problem.
std::vector<std::pair<GemmProblem, Estimate>> moe_layer_estimates(const GemmProblem& p, const Profile& profile,
                                                                  const Target& target, const TileConfig& c);

/// The same, and for a fused-MoE layer "gemms": each of its two launches (up, down) under the one
/// config, {gemm, m, n, k, latency_s, tflops, bound, terms} (the layer's record sums their times;
/// per-tile terms cannot be summed). What `explain --format json` and Python's moe_explain print.
nlohmann::json explain_json(const GemmProblem& p, const Profile& profile, const Target& target, const RankedConfig& r,
                            bool given);

/// `profiles --format json`: one object per shipped profile, sorted by name: name, display_name,
/// vendor, arch, cu_count, peak_bf16_tflops (TFLOP/s), dram_tb_per_s (TB/s), aliases (what --hw
/// also takes).
nlohmann::json profiles_json();

/// `targets --format json`: one object per target, in all_targets() order: name, kernel, source,
/// parameters [{name, field, values}], model_parameters {name: default value}.
nlohmann::ordered_json targets_json();

}  // namespace gemm_advisor
