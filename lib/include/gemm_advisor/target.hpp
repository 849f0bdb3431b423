#pragma once
/// A target is one kernel: its parameters and candidate space, its feasibility rules, and how one
/// config maps onto the model core's generic inputs (KernelShape, kernel_shape.hpp). The core
/// (model.hpp) and the profile (profile.hpp) know no kernel.
///
/// Dispatch happens once per problem: a caller picks a Target (find_target), builds the problem's
/// EstimateContext with it (Target::context), and hands it whole candidate lists
/// (estimate_latencies, estimate_records). Inside, each target's mapping is a compile-time type
/// (lib/src/model_core.hpp), so the per-config loop has no virtual call.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "gemm_advisor/model.hpp"
#include "gemm_advisor/profile.hpp"
#include "gemm_advisor/tile_config.hpp"

namespace gemm_advisor {

/// One parameter of a kernel: the TileConfig field it lives in and the name the kernel gives it.
struct TargetParameter {
  std::string_view field;   ///< TileConfig field: block_m, block_n, block_k, group_m, num_warps, num_stages, split_k
  std::string_view name;    ///< the kernel's own name (BLOCK_SIZE_M, num_warps, ...), as emitted
  std::string_view values;  ///< the candidate space's values for it, in words
};

/// What `gemm-advisor targets` lists about a target.
struct TargetInfo {
  std::string_view name;    ///< --target NAME; also the `kernel` column of its measurement CSVs
  std::string_view kernel;  ///< one line: which kernel it describes
  std::string_view source;  ///< where the kernel comes from (file, project) and how it was measured
  std::vector<TargetParameter> parameters;  ///< in the order the kernel's config files list them
  std::string_view default_dtype = "";      ///< the dtype a command assumes without --dtype ("": bf16)
  std::string_view default_layout = "";     ///< the layout a command assumes without --layout ("": NT)
};

/// The value of the TileConfig field named `field` (TargetParameter::field). Throws
/// std::invalid_argument for an unknown field name (a bug in a target's table).
int config_field(const TileConfig& c, std::string_view field);

class Target;
/// Whether target t's kernel has the TileConfig `field` among its parameters (split_k: whether it
/// splits K at all).
bool target_has_field(const Target& t, std::string_view field);

class Target {
 public:
  virtual ~Target() = default;
  virtual const TargetInfo& info() const = 0;
  std::string_view name() const { return info().name; }

  /// The target's own free-parameter values (before a profile's `model_parameters:`).
  virtual const ModelParams& default_params() const = 0;

  /// Why this kernel cannot run the problem at all on the profile (a dtype, layout or batch it does
  /// not take, a dtype the hardware lacks), or "" when it can. The problem must be valid
  /// (validate_problem: sizes of at least 1 are not checked here), as for candidates and estimate.
  virtual std::string problem_error(const GemmProblem& p, const Profile& profile) const = 0;

  /// The candidate space for a problem, every config feasible. `out` is cleared first (batch mode
  /// reuses its buffer). Empty when problem_error is not.
  virtual void candidates(const GemmProblem& p, const Profile& profile, std::vector<TileConfig>& out) const = 0;

  /// Why the kernel cannot run a config on the profile (the compiler refuses it or it cannot
  /// launch), or "" when it can. Configs outside the candidate space may still be feasible.
  virtual std::string infeasibility(const TileConfig& c, const GemmProblem& p, const Profile& profile) const = 0;

  /// The fixed config a user would run without advice (the baseline of `evaluate`): the kernel's
  /// own default where it has one.
  virtual TileConfig default_config(const GemmProblem& p) const = 0;

  /// The problem's context with its parameters on the profile (problem_params).
  /// The problem must be valid; the context points to `p` and `profile`.
  EstimateContext context(const GemmProblem& p, const Profile& profile) const {
    return make_estimate_context(p, profile, problem_params(p, profile));
  }

  /// A kind of problem whose code path has its own free-parameter set, or "" for the target's own
  /// (default_params): vllm-fused-moe's block-fp8 layers are "fp8_block". A profile overrides a
  /// variant's values under `targets: NAME: VARIANT: model_parameters:`; calibrate fits the variant
  /// its measured problems share.
  virtual std::string_view param_variant(const GemmProblem& p) const {
    (void)p;
    return {};
  }
  /// Every variant param_variant can return besides "" (the profile reader accepts them as keys).
  virtual std::vector<std::string_view> param_variants() const { return {}; }
  /// A variant's own values, before a profile's; "" (and any name not in param_variants) gives
  /// default_params().
  virtual const ModelParams& variant_default_params(std::string_view variant) const {
    (void)variant;
    return default_params();
  }
  /// The parameters a problem is estimated with: its variant's values with the profile's overrides
  /// (`model_parameters:`, then the target's or the variant's section).
  ModelParams problem_params(const GemmProblem& p, const Profile& profile) const {
    const std::string_view v = param_variant(p);
    return profile.params_for(param_key(name(), v), variant_default_params(v));
  }
  /// The key of a target's (variant's) values in Profile::target_model: "NAME" or "NAME.VARIANT".
  static std::string param_key(std::string_view target, std::string_view variant) {
    std::string key(target);
    if (!variant.empty()) key.append(".").append(variant);
    return key;
  }

  /// Estimates one config of the context's problem, every term. An infeasible config returns
  /// feasible = false and latency_s = +infinity.
  virtual Estimate estimate(const EstimateContext& ctx, const TileConfig& c) const = 0;
  /// ... only what ranking compares; the same values as estimate()'s, bit for bit.
  virtual LatencyEstimate estimate_latency(const EstimateContext& ctx, const TileConfig& c) const = 0;
  /// estimate_latency of configs[0..count) into out[0..count): the ranker's per-problem call.
  virtual void estimate_latencies(const EstimateContext& ctx, const TileConfig* configs, std::size_t count,
                                  LatencyEstimate* out) const = 0;
  /// estimate of configs[0..count) into out[0..count).
  virtual void estimate_records(const EstimateContext& ctx, const TileConfig* configs, std::size_t count,
                                Estimate* out) const = 0;
};

/// Every target, in the order `gemm-advisor targets` lists them (triton first: the default).
const std::vector<const Target*>& all_targets();
/// The target named `name` (any case, blanks around it dropped). Throws InputError naming it and
/// listing the known ones.
const Target& find_target(std::string_view name);
/// ... or nullptr.
const Target* find_target_or_null(std::string_view name);
/// "triton, triton-tutorial, ...": the known names, for messages.
std::string target_names();

}  // namespace gemm_advisor
