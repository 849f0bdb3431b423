#pragma once
// The estimate entry points of a target, written once over its compile-time Rules (model_core.hpp).
// A target derives from RulesTarget<Rules> and supplies the rest of Target (info, space, rules).
#include "gemm_advisor/target.hpp"
#include "model_core.hpp"

namespace gemm_advisor {

template <class Rules>
class RulesTarget : public Target {
 public:
  Estimate estimate(const EstimateContext& ctx, const TileConfig& c) const final {
    Estimate e;
    LatencyEstimate unused;
    core::estimate_terms<Rules, true>(ctx, c, &unused, &e);
    return e;
  }
  LatencyEstimate estimate_latency(const EstimateContext& ctx, const TileConfig& c) const final {
    LatencyEstimate out;
    core::estimate_terms<Rules, false>(ctx, c, &out, nullptr);
    return out;
  }
  void estimate_latencies(const EstimateContext& ctx, const TileConfig* configs, std::size_t count,
                          LatencyEstimate* out) const final {
    for (std::size_t i = 0; i < count; ++i) core::estimate_terms<Rules, false>(ctx, configs[i], &out[i], nullptr);
  }
  void estimate_records(const EstimateContext& ctx, const TileConfig* configs, std::size_t count,
                        Estimate* out) const final {
    LatencyEstimate unused;
    for (std::size_t i = 0; i < count; ++i) {
      out[i] = Estimate{};
      core::estimate_terms<Rules, true>(ctx, configs[i], &unused, &out[i]);
    }
  }
};

}  // namespace gemm_advisor
