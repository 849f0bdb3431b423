#include "gemm_advisor/ranker.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>
#include <cstdint>

#include "gemm_advisor/targets/triton.hpp"

namespace gemm_advisor {

namespace {
// What the sort moves: small keys, not the ~300-byte records.
struct SortKey {
  double latency_s;
  double arithmetic_intensity;
  std::uint32_t index;  // into the estimated records
  float l2_hit_rate;    // the estimate's where every record is kept, else 0 (not known: looked up)
};

// A config's tile as --distinct tells tiles apart: its block sizes and split.
using TileKey = std::array<int, 4>;
TileKey tile_key(const TileConfig& c) { return {c.block_m, c.block_n, c.block_k, c.split_k}; }

// The same config but for num_stages.
bool same_but_stages(const TileConfig& a, const TileConfig& b) {
  return a.block_m == b.block_m && a.block_n == b.block_n && a.block_k == b.block_k && a.split_k == b.split_k &&
         a.num_warps == b.num_warps && a.group_m == b.group_m;
}
}  // namespace

TileSizeLimits::TileSizeLimits(const GemmProblem& p) {
  if (p.is_moe()) return;
  max_m = std::max<std::int64_t>(16, next_pow2(p.m));
  max_n = std::max<std::int64_t>(16, next_pow2(p.n));
  max_k = std::max<std::int64_t>({16, 256 / dtype_bits(p.dtype), next_pow2(p.k)});
}

std::string oversized_rank_warning(const std::vector<RankedConfig>& ranked, const GemmProblem& p,
                                   const TileConfig** fastest_out) {
  // A given config larger than the problem ranks after the others even where it is predicted faster:
  // said where the output then shows a slower config above a faster one (a fresh expert's find,
  // 2026-12-07).
  const TileSizeLimits limits(p);
  const RankedConfig* slowest_within = nullptr;  // the slowest config within the problem listed
  for (const RankedConfig& r : ranked)
    if (r.estimate.feasible && !limits.oversized(r.config) &&
        (!slowest_within || r.estimate.latency_s > slowest_within->estimate.latency_s))
      slowest_within = &r;
  if (!slowest_within) return {};
  const RankedConfig* fastest = nullptr;
  std::size_t faster = 0;
  for (const RankedConfig& r : ranked)
    if (r.estimate.feasible && limits.oversized(r.config) &&
        r.estimate.latency_s < slowest_within->estimate.latency_s) {
      ++faster;
      if (!fastest || r.estimate.latency_s < fastest->estimate.latency_s) fastest = &r;
    }
  if (!fastest) return {};
  if (fastest_out) *fastest_out = &fastest->config;
  return fmt::format("{} given config{} larger than {} in a block size (past its next power of two) {} ranked "
                     "after every config within it, though predicted faster than {}: such a tile never ran "
                     "faster on our H200 (README, 'Rank order'); the fastest, {}, {:.2f} us",
                     faster, faster == 1 ? "" : "s", p.shape_text(), faster == 1 ? "is" : "are",
                     slowest_within->config.text(), fastest->config.text(), fastest->estimate.latency_s * 1e6);
}

void rank_configs(const Target& target, const GemmProblem& p, const Profile& profile,
                  const std::vector<TileConfig>& candidates, std::vector<RankedConfig>& out, std::size_t top,
                  bool from_space, bool distinct) {
  // A problem built by hand is checked here too, as advise checks it (a 0x0x0 problem ranked with a
  // reason about its split: a fresh C++ consumer's find, 2026-12-07).
  validate_problem(p);
  EstimateContext context = target.context(p, profile);
  context.configs_from_space = from_space;
  rank_configs(target, context, candidates, out, top, distinct);
}

void rank_configs(const Target& target, const EstimateContext& context, const std::vector<TileConfig>& candidates,
                  std::vector<RankedConfig>& out, std::size_t top, bool distinct) {
  // With --top N most estimates are only compared, never printed: compute just their sort keys
  // (estimate_latencies) and estimate the few that make the cut in full at the end (cheaper than
  // filling and storing 300-byte records).
  const GemmProblem& p = *context.problem;
  const Profile& profile = *context.profile;
  // distinct with a top: every config ranked by its sort key alone, and only the first `top` distinct
  // tiles estimated in full (a full ranking of 300-byte records, then distinct_tiles_first, took 3.3x
  // the time of --top N: a fresh CI user's find, 2026-12-07).
  const bool distinct_top = distinct && top > 0;
  const bool keep_all = top == 0 || (!distinct_top && top >= candidates.size());
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
        keys.push_back({e.latency_s, e.arithmetic_intensity, static_cast<std::uint32_t>(estimated.size()),
                        static_cast<float>(e.l2_hit_rate)});
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
      if (e.feasible) keys.push_back({e.latency_s, e.arithmetic_intensity, static_cast<std::uint32_t>(i), 0.0f});
      else add_infeasible(candidates[i], target.estimate(context, candidates[i]));
    }
  }
  auto config_of = [&](const SortKey& k) -> const TileConfig& {
    return keep_all ? estimated[k.index].config : candidates[k.index];
  };
  const double tol = context.params.near_tie_tolerance;
  // Looked for once: the targets' spaces mostly hold none, and a test per comparison cost batch 5%.
  const TileSizeLimits limits(p);
  const bool any_oversized =
      std::any_of(keys.begin(), keys.end(), [&](const SortKey& k) { return limits.oversized(config_of(k)); });
  const auto oversized = [&](const TileConfig& c) { return any_oversized && limits.oversized(c); };
  // Such a tile (mostly padding) ranks after every other. First (2026-12-04) only within near-ties,
  // where its padded work made its intensity win (128x128x64 over 16x16x16 for 16x16x16: a fresh
  // user's find; the tutorial's sets f +0.41, h +0.32, q +0.17, the first 52 +0.08 points of oracle,
  // l -0.10). Since 2026-12-07 after every other: the targets' spaces leave it out (the tutorial's
  // keeps its tuner's fixed sizes), and given candidates (a measured set, an autotune list) are
  // ranked as the space would rank them. The model can predict one faster (a 64-row wgmma
  // tile for 32 rows on Hopper: 32x9808x4016 NN, 64x128x128:8:4 23.5 us against rank's 29.3 at
  // 32x128x256:4:3), but measured on our H200 it never is: over the 38 shapes of M 16-32 where both
  // kinds were timed (h200-tutorial-*.csv, h200-staging.csv, ...), the best tile past M's next power
  // of two ran 1.02-3.2x the best within it (a fresh expert's find, 2026-12-07: evaluate credited
  // the advisor with a config rank never lists).
  auto by_time = [&](const SortKey& a, const SortKey& b) {
    if (a.latency_s != b.latency_s) return a.latency_s < b.latency_s;
    return config_of(a) < config_of(b);
  };
  auto oversized_last = [&](const SortKey& a, const SortKey& b) {
    if (const bool oa = limits.oversized(config_of(a)), ob = limits.oversized(config_of(b)); oa != ob) return ob;
    return by_time(a, b);
  };
  // The sorts take by_time itself where no tile is oversized: one comparator that tests for them cost
  // batch 4.4-5.1% of its instructions (callgrind, 1,000 shapes, against c4fe7a7), mostly as the sort
  // no longer inlined.
  const auto sort_keys = [&](auto&& sort) { any_oversized ? sort(oversized_last) : sort(by_time); };
  const int preferred_stages = profile.triton.default_num_stages;
  const int preferred_warps = profile.triton.default_num_warps;
  const int preferred_group = target.default_config(p).group_m;
  // With --top N only the configs that can reach the first N places matter: those no slower than
  // the N-th fastest plus the near-tie band (a near-tie run starts no later than the N-th place).
  // (Not for distinct tiles: the N-th distinct tile may rank anywhere.)
  if (!distinct_top && top > 0 && top < keys.size()) {
    sort_keys([&](auto&& less) {
      std::nth_element(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(top - 1), keys.end(), less);
    });
    const double bound = keys[top - 1].latency_s * (1.0 + tol);
    // Oversized tiles come after the others whatever their time: an N-th place within the others
    // drops every oversized one, an oversized N-th none of the others.
    const bool nth_oversized = oversized(config_of(keys[top - 1]));
    keys.erase(std::remove_if(keys.begin(), keys.end(),
                              [&](const SortKey& k) {
                                if (!any_oversized) return k.latency_s > bound;
                                const bool o = limits.oversized(config_of(k));
                                return o != nth_oversized ? o : k.latency_s > bound;
                              }),
               keys.end());
  }
  sort_keys([&](auto&& less) { std::sort(keys.begin(), keys.end(), less); });
  // Near-ties: a run of configs within near_tie_tolerance of the run's fastest is ordered by
  // arithmetic intensity (higher first: Origami's tie-breaker), then by num_stages' distance from
  // the compiler's default (triton.default_num_stages, where the profile gives it), then by
  // num_warps' distance from its default (triton.default_num_warps), then by group_m's distance from
  // the kernel's default config's, then by the config
  // (TileConfig's order: fewer warps and stages first). Not by predicted time: within the
  // tolerance that is noise, and ordering same-tile configs by it scored 93.7% of oracle on the 263
  // H200 triton shapes against 95.9% (2026-12-01). The stage preference (2026-12-03): where the
  // model predicts a tile's stage counts alike (an unaligned operand leaves the pipeline at every
  // num_stages), 1 stage ran 1.45x slower than 3 on 2048x1001x4096 and 2048x5003x2048 NN
  // (h200-tutorial-l.csv, -c.csv); on the H200 data, fewer stages first against the default's 3
  // first: triton 96.38% -> 96.53% of oracle in sample (worst 78.1% -> 76.8%), the tutorial's
  // sets a-g 95.63% -> 96.12%, h-j 95.51% -> 95.68%, l 93.91% -> 96.28%, vllm-fp8-block and
  // vllm-fused-moe alike; a preference of 2 or 4 scored lower. The warps preference (2026-12-04):
  // decode tiles whose memory step no warp count changes tie at 2, 4 and 8 warps, and 2 (first in
  // config order) ran 4-10% slower than 4 (1x59136x8192 NT, 16x256x64: 84.8% -> 91.6% of oracle);
  // triton held out by family 96.92% -> 96.91%, top-5 distinct 98.96% -> 99.00% (the shipped values,
  // unrefitted: 96.82% -> 97.02%, 98.98% -> 99.08%), set h 96.88% -> 97.20%, the tutorial's sets
  // within 0.04, vllm-fp8-block and vllm-fused-moe alike; a preference of 8 cost 0.5-15 points.
  // Then group_m's distance from the kernel's own default (Target::default_config: what it runs
  // untuned; GROUP_SIZE_M 32 in vLLM's block-fp8 kernel, 8 in Triton's matmul tutorial), as the
  // measured grids ask (2026-12-04): vllm-fp8-block ties GROUP_SIZE_M 1 to 64 where the raster
  // barely changes L2 traffic, and 1 (first in config order) ran slower: held out by family
  // 96.57% -> 96.97% of oracle, top-5 distinct 98.81% -> 99.02% (191 problems); the fused-MoE
  // block-fp8 layers' worst 85.0% -> 87.9%; the other targets' spaces hold one group_m.
  // Then, among one tile's stage variants predicted exactly alike (a compute- or issue-bound step
  // hides each one's memory time) whose step streams its operands from DRAM (L2 hit rate below
  // ModelParams::slack_tie_max_l2_hit_rate), the shortest memory step goes first, in the slots the
  // variants hold: there the loaded latency runs longer than the fitted multiple, and slack in the
  // memory step is what survives it (decode layers: 1x3072x8192 NT at 16x32x256 w4, 5 stages tied
  // with 6, measured 25.5 against 22.8 us, h200-triton-extra.csv). On the H200 data (2026-12-04): triton held
  // out by family 96.81% -> 96.91% of oracle, top-5 distinct 98.86% -> 98.96%; the tutorial
  // kernel's sets, vllm-fp8-block and vllm-fused-moe alike or better (README "Accuracy"). Not
  // where the tile has a single K-step: no memory step follows the prefetch, and measured on our
  // H200 (h200-single-kstep.csv, 22 tiles of one K-step at 1-6 stages) 6 stages run 1.065x the
  // tile's best in the geomean, Triton's default 3 1.026x (2026-12-04).
  const double max_hit_rate = context.params.slack_tie_max_l2_hit_rate;
  // A run position's group key: the config but num_stages, packed (block sizes and warps are powers
  // of two: their exponents, 5 bits each; split_k and group_m 16 bits each), and its time.
  struct TieKey {
    std::uint64_t tile;
    double latency_s;
    std::uint32_t position;
    bool operator<(const TieKey& o) const {
      if (tile != o.tile) return tile < o.tile;
      if (latency_s != o.latency_s) return latency_s < o.latency_s;
      return position < o.position;
    }
  };
  auto pack_tile = [](const TileConfig& c) {
    auto log2 = [](int v) { return static_cast<std::uint64_t>(v > 0 ? __builtin_ctz(static_cast<unsigned>(v)) : 0); };
    const auto low16 = [](int v) { return static_cast<std::uint64_t>(v) & 0xffffu; };
    // Exact for the configs of every space; a given config outside those ranges may share a key with
    // another, and same_but_stages below still tells them apart.
    return log2(c.block_m) | log2(c.block_n) << 5 | log2(c.block_k) << 10 | log2(c.num_warps) << 15 |
           low16(c.split_k) << 20 | low16(c.group_m) << 36;
  };
  thread_local std::vector<TieKey> order;  // a run's positions, grouped by tile and time
  thread_local std::vector<std::pair<double, SortKey>> variants;
  auto order_stage_ties = [&](std::vector<SortKey>::iterator first, std::vector<SortKey>::iterator last) {
    // Group the run's positions by (config but num_stages, predicted time), keeping each group's
    // positions ascending: O(n log n), as the run can hold the whole space (a launch-bound shape).
    const auto n = static_cast<std::uint32_t>(last - first);
    // With every record at hand, a run with no config streaming from DRAM (most of a full ranking)
    // is left as it is before anything is sorted (the pass cost a full ranking 20% without this).
    // (The key's hit rate is a float: compared with a margin, so that it only ever lets through.)
    if (keep_all && std::none_of(first, last, [&](const SortKey& k) {
          return static_cast<double>(k.l2_hit_rate) < max_hit_rate + 1e-6;
        }))
      return;
    order.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) order[i] = {pack_tile(config_of(first[i])), first[i].latency_s, i};
    std::sort(order.begin(), order.end());
    for (std::uint32_t g = 0; g < n;) {
      std::uint32_t end = g + 1;
      while (end < n && order[end].tile == order[g].tile && order[end].latency_s == order[g].latency_s &&
             same_but_stages(config_of(first[order[end].position]), config_of(first[order[g].position])))
        ++end;
      const std::uint32_t begin = g;
      g = end;
      if (end - begin < 2) continue;
      variants.clear();
      for (std::uint32_t v = begin; v < end; ++v) {
        const SortKey& k = first[order[v].position];
        double hit_rate, memory_step_s, k_steps;
        if (keep_all) {  // every record is there
          hit_rate = estimated[k.index].estimate.l2_hit_rate;
          memory_step_s = estimated[k.index].estimate.memory_step_s;
          k_steps = estimated[k.index].estimate.k_steps;
        } else {
          const Estimate e = target.estimate(context, candidates[k.index]);
          hit_rate = e.l2_hit_rate;
          memory_step_s = e.memory_step_s;
          k_steps = e.k_steps;
        }
        if (!(hit_rate < max_hit_rate)) break;  // the tile's bytes come from L2: leave the order
        // One K-step has no step after the first to hide: its stage variants are alike in fact, and
        // the compiler's default goes first (16x16x16 ranked 6 stages first: a fresh user's find).
        if (k_steps <= 1) break;
        variants.push_back({memory_step_s, k});
      }
      if (variants.size() != end - begin) continue;
      std::stable_sort(variants.begin(), variants.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (std::uint32_t v = begin; v < end; ++v) first[order[v].position] = variants[v - begin].second;
    }
  };
  // distinct with a top: the runs after the one where `top` distinct tiles have been seen are never
  // read, and are left unordered (their ties cost a full estimate each on this path).
  std::set<TileKey> tiles_ranked;
  for (auto run = keys.begin(); run != keys.end();) {
    auto stop = run + 1;
    // A near-tie run stays within its group (oversized tiles or the others), which are apart in time order.
    while (stop != keys.end() && stop->latency_s <= run->latency_s * (1.0 + tol) &&
           oversized(config_of(*stop)) == oversized(config_of(*run)))
      ++stop;
    if (stop - run > 1) {
      // Exactly equal times sit side by side while the run is still in time order: none, no ties
      // for the streaming pass to order (most runs; checked before the sort below mixes them).
      const bool exact_ties =
          max_hit_rate > 0 &&
          std::adjacent_find(run, stop, [](const SortKey& a, const SortKey& b) { return a.latency_s == b.latency_s; }) !=
              stop;
      // The less-work rule below holds for a run whose configs all run at most one block a CU, so
      // that the comparison is one order over the run (a strict weak ordering, as std::sort needs):
      // applied pair by pair where both fit, it was not transitive, and a subset of configs could
      // come out in another relative order than in the whole ranking (a fresh user's find,
      // 2026-12-05).
      bool run_fits_one_wave = !p.is_moe() && !(context.a_aligned && context.b_aligned);
      const double run_cus = profile.hw.cu_count;
      for (auto it = run; run_fits_one_wave && it != stop; ++it) {
        const TileConfig& c = config_of(*it);
        run_fits_one_wave = static_cast<double>((p.m + c.block_m - 1) / c.block_m) *
                                static_cast<double>((p.n + c.block_n - 1) / c.block_n) *
                                static_cast<double>(p.batch) * static_cast<double>(c.split_k) <=
                            run_cus;
      }
      std::sort(run, stop, [&](const SortKey& a, const SortKey& b) {
        // Two launches of at most one block a CU (each block has its CU to itself, so the launch
        // takes its slowest block's time) of a problem with an unaligned operand (staged element by
        // element through registers): the block with less work first (block_m x block_n x its
        // share of K), before intensity, which favours the larger tile. There the per-element work
        // the model leaves out (each staged element's address, load and store instructions, the
        // epilogue's masked stores) is what tells near-tied configs apart: 1166x27x18 NN ran
        // 128x32x32 (10 blocks) in 5.3 us and 32x16x32 (74 blocks) in 4.4 (h200-triton-extra.csv),
        // predicted 4.79 and 4.73 us. On the H200 data (2026-12-04), the shipped values in sample:
        // triton's 263 97.02% -> 97.22% of oracle (1166x27x18 81.5% -> 90.5%, 12 picks up, 7 down,
        // worst alike), set h 97.19% -> 97.45%, sets i, k, l, m alike; the tutorial kernel's sets, vllm-fp8-block
        // alike (no pick moved). For aligned operands too: triton +0.0-0.8 (set k 96.0% -> 96.8%), but
        // the tutorial kernel's small aligned shapes lost (set q's worst 91.8% -> 88.9%: 80x1200x48
        // NT ran 64x32x64 faster than 32x32x64). Held out by family on the 263 (refitted per
        // fold): 96.91% / 78.95% / 99.00% (top-5 distinct) -> 97.11% / 78.95% / 98.97% (32x11x16 TN,
        // launch-bound at 4 us, its top-5 distinct 100% -> 92.2%); for aligned operands too, 97.11%
        // / 78.95% / 99.03%. Out of sample (set n, h200-triton-n.csv, measured after: 12 small
        // problems of one partial wave with an unaligned operand, chosen before the rule's picks were
        // looked at): 83.2% -> 98.0% of oracle, worst 68.1% -> 93.0%. By more blocks instead of less work a block
        // (padding counted): set j of the tutorial -0.5 points (a tile padded into more blocks is
        // not less work a block).
        if (run_fits_one_wave) {
          // In double: the product passes int64 at the limits (2^31 - 1 cubed, batch 2^24).
          const auto block_work = [&](const TileConfig& c) {
            return static_cast<double>(c.block_m) * c.block_n * static_cast<double>((p.k + c.split_k - 1) / c.split_k);
          };
          const double wa = block_work(config_of(a)), wb = block_work(config_of(b));
          if (wa != wb) return wa < wb;
        }
        if (a.arithmetic_intensity != b.arithmetic_intensity) return a.arithmetic_intensity > b.arithmetic_intensity;
        if (preferred_stages > 0) {
          const int da = std::abs(config_of(a).num_stages - preferred_stages);
          const int db = std::abs(config_of(b).num_stages - preferred_stages);
          if (da != db) return da < db;
        }
        if (preferred_warps > 0) {
          const int wa = std::abs(config_of(a).num_warps - preferred_warps);
          const int wb = std::abs(config_of(b).num_warps - preferred_warps);
          if (wa != wb) return wa < wb;
        }
        if (config_of(a).group_m != config_of(b).group_m) {
          const int ga = std::abs(config_of(a).group_m - preferred_group);
          const int gb = std::abs(config_of(b).group_m - preferred_group);
          if (ga != gb) return ga < gb;
        }
        return config_of(a) < config_of(b);
      });
      if (exact_ties) order_stage_ties(run, stop);
    }
    if (distinct_top) {
      for (auto it = run; it != stop; ++it) tiles_ranked.insert(tile_key(config_of(*it)));
      if (tiles_ranked.size() >= top) break;
    }
    run = stop;
  }
  out.clear();
  if (distinct_top) {
    // The best-ranked config of each tile (block sizes and split), then, where fewer than `top` tiles
    // exist, the others in rank order: the first `top` of those, as distinct_tiles_first keeps them
    // from the full ranking.
    out.reserve(std::min(top, keys.size()) + estimated.size());  // a --top past the space reserves no more
    std::set<TileKey> seen;
    std::vector<const SortKey*> repeats;
    for (const SortKey& k : keys) {
      if (out.size() == top) break;
      const TileConfig& c = config_of(k);
      if (seen.insert(tile_key(c)).second)
        out.push_back(RankedConfig{c, target.estimate(context, c), ""});
      else if (repeats.size() < top)
        repeats.push_back(&k);
    }
    for (std::size_t i = 0; i < repeats.size() && out.size() < top; ++i)
      out.push_back(RankedConfig{config_of(*repeats[i]), target.estimate(context, config_of(*repeats[i])), ""});
  } else {
    out.reserve(keys.size() + estimated.size());
    for (const SortKey& k : keys) {
      if (keep_all) out.push_back(std::move(estimated[k.index]));
      else out.push_back(RankedConfig{candidates[k.index], target.estimate(context, candidates[k.index]), ""});
    }
  }
  for (auto& r : estimated) {
    if (!r.estimate.feasible) out.push_back(std::move(r));  // infeasible tail, in input order
  }
}

void distinct_tiles_first(std::vector<RankedConfig>& ranked, std::size_t top) {
  const auto feasible_end =
      std::stable_partition(ranked.begin(), ranked.end(), [](const RankedConfig& r) { return r.estimate.feasible; });
  std::set<TileKey> seen;
  std::stable_partition(ranked.begin(), feasible_end, [&](const RankedConfig& r) {
    return seen.insert(tile_key(r.config)).second;
  });
  // The first `top` feasible configs, and every infeasible one after them: they are reported, never
  // dropped (cutting the list at `top` lost them: a fresh user's find, 2026-12-04).
  const auto feasible = static_cast<std::size_t>(feasible_end - ranked.begin());
  if (top > 0 && feasible > top) ranked.erase(ranked.begin() + static_cast<std::ptrdiff_t>(top), feasible_end);
}

}  // namespace gemm_advisor
