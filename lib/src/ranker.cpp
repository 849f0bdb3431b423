#include "gemm_advisor/ranker.hpp"

#include <algorithm>
#include <cstdint>

#include "gemm_advisor/triton_target.hpp"

namespace gemm_advisor {

namespace {
// What the sort moves: small keys, not the ~300-byte records.
struct SortKey {
  double latency_s;
  double arithmetic_intensity;
  std::uint32_t index;  // into the estimated records
};
}  // namespace

void rank_configs(const GemmProblem& p, const Hardware& hw, const std::vector<TileConfig>& candidates,
                  std::vector<RankedConfig>& out, std::size_t top) {
  // With --top N most estimates are only compared, never printed: compute just their sort keys
  // (estimate_latency) and estimate the few that make the cut in full at the end (cheaper than
  // filling and storing 300-byte records).
  const bool keep_all = top == 0 || top >= candidates.size();
  const EstimateContext context = make_estimate_context(p, hw);
  thread_local std::vector<RankedConfig> estimated;  // keep_all: every record; else the infeasible
  thread_local std::vector<SortKey> keys;
  estimated.clear();
  keys.clear();
  if (keep_all) estimated.reserve(candidates.size());
  auto add_infeasible = [&](const TileConfig& c, const Estimate& e) {
    std::string reason = triton_infeasibility(c, p, hw);
    if (reason.empty()) reason = "no thread block fits on a CU (occupancy 0)";
    estimated.push_back(RankedConfig{c, e, std::move(reason)});
  };
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const TileConfig& c = candidates[i];
    if (keep_all) {
      const Estimate e = estimate(context, c);
      if (e.feasible) {
        keys.push_back({e.latency_s, e.arithmetic_intensity, static_cast<std::uint32_t>(i)});
        estimated.push_back(RankedConfig{c, e, ""});
      } else {
        add_infeasible(c, e);
      }
    } else {
      const LatencyEstimate e = estimate_latency(context, c);
      if (e.feasible) keys.push_back({e.latency_s, e.arithmetic_intensity, static_cast<std::uint32_t>(i)});
      else add_infeasible(c, estimate(context, c));
    }
  }
  if (keep_all) {
    // Keys index the records, not the candidates, when every record is kept.
    std::uint32_t next = 0;
    for (std::size_t r = 0; r < estimated.size(); ++r) {
      if (estimated[r].estimate.feasible) keys[next++].index = static_cast<std::uint32_t>(r);
    }
  }
  auto config_of = [&](const SortKey& k) -> const TileConfig& {
    return keep_all ? estimated[k.index].config : candidates[k.index];
  };
  auto by_latency = [&](const SortKey& a, const SortKey& b) {
    if (a.latency_s != b.latency_s) return a.latency_s < b.latency_s;
    return config_of(a) < config_of(b);
  };
  const double tol = hw.model.near_tie_tolerance;
  // With --top N only the configs that can reach the first N places matter: those no slower than
  // the N-th fastest plus the near-tie band (a near-tie run starts no later than the N-th place).
  if (top > 0 && top < keys.size()) {
    std::nth_element(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(top - 1), keys.end(), by_latency);
    const double bound = keys[top - 1].latency_s * (1.0 + tol);
    keys.erase(std::remove_if(keys.begin(), keys.end(), [&](const SortKey& k) { return k.latency_s > bound; }),
               keys.end());
  }
  std::sort(keys.begin(), keys.end(), by_latency);
  // Near-ties: a run of configs within near_tie_tolerance of the run's fastest is ordered by
  // arithmetic intensity (higher first), then by the config (Origami's tie-breaker).
  for (auto run = keys.begin(); run != keys.end();) {
    auto stop = run + 1;
    while (stop != keys.end() && stop->latency_s <= run->latency_s * (1.0 + tol)) ++stop;
    if (stop - run > 1) {
      std::sort(run, stop, [&](const SortKey& a, const SortKey& b) {
        if (a.arithmetic_intensity != b.arithmetic_intensity) return a.arithmetic_intensity > b.arithmetic_intensity;
        return config_of(a) < config_of(b);
      });
    }
    run = stop;
  }
  out.clear();
  out.reserve(keys.size() + estimated.size());
  for (const SortKey& k : keys) {
    if (keep_all) out.push_back(std::move(estimated[k.index]));
    else out.push_back(RankedConfig{candidates[k.index], estimate(context, candidates[k.index]), ""});
  }
  for (auto& r : estimated) {
    if (!r.estimate.feasible) out.push_back(std::move(r));  // infeasible tail, in input order
  }
}

}  // namespace gemm_advisor
