#pragma once
// The estimate entry points of a target, written once over its compile-time Rules (model_core.hpp).
// A target derives from RulesTarget<Rules> and supplies the rest of Target (info, space, rules).
// Each entry point picks, once per call, the per-config code compiled for problems whose operands
// are both aligned (the usual case) or the general one (model_core.hpp, estimate_terms' kAligned).
#include "gemm_advisor/target.hpp"
#include "model_core.hpp"

namespace gemm_advisor {

template <class Rules>
class RulesTarget : public Target {
 public:
  Estimate estimate(const EstimateContext& ctx, const TileConfig& c) const final {
    Estimate e;
    LatencyEstimate unused;
    if (aligned(ctx))
      core::estimate_terms<Rules, true, true>(ctx, c, &unused, &e);
    else
      core::estimate_terms<Rules, true, false>(ctx, c, &unused, &e);
    return e;
  }
  LatencyEstimate estimate_latency(const EstimateContext& ctx, const TileConfig& c) const final {
    LatencyEstimate out;
    if (aligned(ctx))
      core::estimate_terms<Rules, false, true>(ctx, c, &out, nullptr);
    else
      core::estimate_terms<Rules, false, false>(ctx, c, &out, nullptr);
    return out;
  }
  void estimate_latencies(const EstimateContext& ctx, const TileConfig* configs, std::size_t count,
                          LatencyEstimate* out) const final {
    if (aligned(ctx)) {
      for (std::size_t i = 0; i < count; ++i) core::estimate_terms<Rules, false, true>(ctx, configs[i], &out[i], nullptr);
    } else {
      for (std::size_t i = 0; i < count; ++i) core::estimate_terms<Rules, false, false>(ctx, configs[i], &out[i], nullptr);
    }
  }
  void estimate_records(const EstimateContext& ctx, const TileConfig* configs, std::size_t count,
                        Estimate* out) const final {
    LatencyEstimate unused;
    const bool both_aligned = aligned(ctx);
    for (std::size_t i = 0; i < count; ++i) {
      out[i] = Estimate{};
      if (both_aligned)
        core::estimate_terms<Rules, true, true>(ctx, configs[i], &unused, &out[i]);
      else
        core::estimate_terms<Rules, true, false>(ctx, configs[i], &unused, &out[i]);
    }
  }

 private:
  static bool aligned(const EstimateContext& ctx) { return core::operands_aligned(ctx); }
};

}  // namespace gemm_advisor
