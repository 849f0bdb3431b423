#include "gemm_advisor/ranker.hpp"

#include <algorithm>
#include <cstdlib>
#include <array>
#include <set>
#include <cstdint>

namespace gemm_advisor {

namespace {
// What the sort moves: small keys, not the ~300-byte records.
struct SortKey {
  double latency_s;
  double arithmetic_intensity;
  std::uint32_t index;  // into the estimated records
};
}  // namespace

void rank_configs(const Target& target, const GemmProblem& p, const Profile& profile,
                  const std::vector<TileConfig>& candidates, std::vector<RankedConfig>& out, std::size_t top,
                  bool from_space) {
  EstimateContext context = target.context(p, profile);
  context.configs_from_space = from_space;
  rank_configs(target, context, candidates, out, top);
}

void rank_configs(const Target& target, const EstimateContext& context, const std::vector<TileConfig>& candidates,
                  std::vector<RankedConfig>& out, std::size_t top) {
  // With --top N most estimates are only compared, never printed: compute just their sort keys
  // (estimate_latencies) and estimate the few that make the cut in full at the end (cheaper than
  // filling and storing 300-byte records).
  const GemmProblem& p = *context.problem;
  const Profile& profile = *context.profile;
  const bool keep_all = top == 0 || top >= candidates.size();
  thread_local std::vector<RankedConfig> estimated;  // keep_all: every record; else the infeasible
  thread_local std::vector<SortKey> keys;
  thread_local std::vector<LatencyEstimate> latencies;
  estimated.clear();
  keys.clear();
  auto add_infeasible = [&](const TileConfig& c, const Estimate& e) {
    std::string reason = target.infeasibility(c, p, profile);
    if (reason.empty()) reason = "no thread block fits on a CU (occupancy 0)";
    estimated.push_back(RankedConfig{c, e, std::move(reason)});
  };
  if (keep_all) {
    // Every record is kept: estimate each straight into its place (a batch call would fill a
    // second array of 300-byte records first).
    estimated.reserve(candidates.size());
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const Estimate e = target.estimate(context, candidates[i]);
      if (e.feasible) {
        // Keys index the records (not the candidates) when every record is kept.
        keys.push_back({e.latency_s, e.arithmetic_intensity, static_cast<std::uint32_t>(estimated.size())});
        estimated.push_back(RankedConfig{candidates[i], e, ""});
      } else {
        add_infeasible(candidates[i], e);
      }
    }
  } else {
    latencies.resize(candidates.size());
    target.estimate_latencies(context, candidates.data(), candidates.size(), latencies.data());
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const LatencyEstimate& e = latencies[i];
      if (e.feasible) keys.push_back({e.latency_s, e.arithmetic_intensity, static_cast<std::uint32_t>(i)});
      else add_infeasible(candidates[i], target.estimate(context, candidates[i]));
    }
  }
  auto config_of = [&](const SortKey& k) -> const TileConfig& {
    return keep_all ? estimated[k.index].config : candidates[k.index];
  };
  auto by_latency = [&](const SortKey& a, const SortKey& b) {
    if (a.latency_s != b.latency_s) return a.latency_s < b.latency_s;
    return config_of(a) < config_of(b);
  };
  const double tol = context.params.near_tie_tolerance;
  const int preferred_stages = profile.triton.default_num_stages;
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
  // arithmetic intensity (higher first: Origami's tie-breaker), then by num_stages' distance from
  // the compiler's default (triton.default_num_stages, where the profile gives it), then by the
  // config (TileConfig's order: fewer warps and stages first). Not by predicted time: within the
  // tolerance that is noise, and ordering same-tile configs by it scored 93.7% of oracle on the 263
  // H200 triton shapes against 95.9% (2026-12-01). The stage preference (2026-12-03): where the
  // model predicts a tile's stage counts alike (an unaligned operand leaves the pipeline at every
  // num_stages), 1 stage ran 1.45x slower than 3 on 2048x1001x4096 and 2048x5003x2048 NN
  // (h200-tutorial-l.csv, -c.csv); on the H200 data, fewer stages first against the default's 3
  // first: triton 96.38% -> 96.53% of oracle in sample (worst 78.1% -> 76.8%), the tutorial's
  // sets a-g 95.63% -> 96.12%, h-j 95.51% -> 95.68%, l 93.91% -> 96.28%, vllm-fp8-block and
  // vllm-fused-moe alike; a preference of 2 or 4 scored lower.
  for (auto run = keys.begin(); run != keys.end();) {
    auto stop = run + 1;
    while (stop != keys.end() && stop->latency_s <= run->latency_s * (1.0 + tol)) ++stop;
    if (stop - run > 1) {
      std::sort(run, stop, [&](const SortKey& a, const SortKey& b) {
        if (a.arithmetic_intensity != b.arithmetic_intensity) return a.arithmetic_intensity > b.arithmetic_intensity;
        if (preferred_stages > 0) {
          const int da = std::abs(config_of(a).num_stages - preferred_stages);
          const int db = std::abs(config_of(b).num_stages - preferred_stages);
          if (da != db) return da < db;
        }
        return config_of(a) < config_of(b);
      });
    }
    run = stop;
  }
  out.clear();
  out.reserve(keys.size() + estimated.size());
  for (const SortKey& k : keys) {
    if (keep_all) out.push_back(std::move(estimated[k.index]));
    else out.push_back(RankedConfig{candidates[k.index], target.estimate(context, candidates[k.index]), ""});
  }
  for (auto& r : estimated) {
    if (!r.estimate.feasible) out.push_back(std::move(r));  // infeasible tail, in input order
  }
}

void distinct_tiles_first(std::vector<RankedConfig>& ranked, std::size_t top) {
  const auto feasible_end =
      std::stable_partition(ranked.begin(), ranked.end(), [](const RankedConfig& r) { return r.estimate.feasible; });
  std::set<std::array<int, 4>> seen;
  std::stable_partition(ranked.begin(), feasible_end, [&](const RankedConfig& r) {
    return seen.insert({r.config.block_m, r.config.block_n, r.config.block_k, r.config.split_k}).second;
  });
  if (top > 0 && ranked.size() > top) ranked.resize(top);
}

}  // namespace gemm_advisor
