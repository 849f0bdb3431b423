#include "gemm_advisor/ranker.hpp"

#include <algorithm>

#include "gemm_advisor/triton_target.hpp"

namespace gemm_advisor {

void rank_configs(const GemmProblem& p, const Hardware& hw, const std::vector<TileConfig>& candidates,
                  std::vector<RankedConfig>& out) {
  out.clear();
  out.reserve(candidates.size());
  std::size_t feasible = 0;
  for (const TileConfig& c : candidates) {
    RankedConfig r;
    r.config = c;
    r.estimate = estimate(p, hw, c);
    if (!r.estimate.feasible) {
      r.infeasible_reason = triton_infeasibility(c, p, hw);
      if (r.infeasible_reason.empty()) r.infeasible_reason = "no thread block fits on a CU (occupancy 0)";
    } else {
      ++feasible;
    }
    out.push_back(std::move(r));
  }
  // Feasible first (input order kept for the infeasible tail), then by predicted latency.
  std::stable_partition(out.begin(), out.end(), [](const RankedConfig& r) { return r.estimate.feasible; });
  auto end = out.begin() + static_cast<std::ptrdiff_t>(feasible);
  std::sort(out.begin(), end, [](const RankedConfig& a, const RankedConfig& b) {
    if (a.estimate.latency_s != b.estimate.latency_s) return a.estimate.latency_s < b.estimate.latency_s;
    return a.config < b.config;
  });
  // Near-ties: a run of configs within near_tie_tolerance of the run's fastest is ordered by
  // arithmetic intensity (higher first), then by the config (Origami's tie-breaker).
  const double tol = hw.model.near_tie_tolerance;
  for (auto run = out.begin(); run != end;) {
    auto stop = run + 1;
    while (stop != end && stop->estimate.latency_s <= run->estimate.latency_s * (1.0 + tol)) ++stop;
    if (stop - run > 1) {
      std::sort(run, stop, [](const RankedConfig& a, const RankedConfig& b) {
        if (a.estimate.arithmetic_intensity != b.estimate.arithmetic_intensity)
          return a.estimate.arithmetic_intensity > b.estimate.arithmetic_intensity;
        return a.config < b.config;
      });
    }
    run = stop;
  }
}

}  // namespace gemm_advisor
