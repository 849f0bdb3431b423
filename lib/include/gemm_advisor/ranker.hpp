#pragma once
/// Ranking: estimate every candidate, sort by predicted latency, break near-ties by tile
/// arithmetic intensity (Origami's tie-breaker), then by the config itself (deterministic).
#include <string>
#include <vector>

#include "gemm_advisor/model.hpp"
#include "gemm_advisor/target.hpp"

namespace gemm_advisor {

struct RankedConfig {
  TileConfig config;
  Estimate estimate;
  std::string infeasible_reason;  ///< non-empty for a given config that cannot run
};

/// A problem's largest block sizes that are not mostly padding: its next power of two in each of M, N
/// and K (at least 16; for K, at least a K-step's 32 bytes). A tile past one (oversized) the targets'
/// spaces leave out and rank_configs puts after every other given config. None for a fused-MoE layer
/// (its rows are per expert). Computed once per problem, tested per config.
struct TileSizeLimits {
  std::int64_t max_m = 0, max_n = 0, max_k = 0;  ///< 0 (a fused-MoE layer): no tile is oversized
  explicit TileSizeLimits(const GemmProblem& p);
  bool oversized(const TileConfig& c) const {
    return max_m > 0 && (c.block_m > max_m || c.block_n > max_n || c.block_k > max_k);
  }
};

/// What `rank --candidates` (and Python's rank with candidates) warns of: a given config past the
/// problem's tile-size limits (TileSizeLimits) that `ranked` (a rank_configs result, feasible first)
/// lists after a config within them predicted slower than it. "" where there is none; else one
/// message without its place ("N given config(s) larger than MxNxK ... the fastest, C, T us"), and
/// `*fastest` (when not null) points at the fastest such config of `ranked`, for the caller to name
/// where it was given.
std::string oversized_rank_warning(const std::vector<RankedConfig>& ranked, const GemmProblem& p,
                                   const TileConfig** fastest = nullptr);

/// Ranks `candidates` of a target for the problem. Feasible configs come first in rank order (by
/// predicted time, near-ties by the tie-breakers of ranker.cpp; a tile TileSizeLimits calls
/// oversized after every other); infeasible ones (only possible with user-given candidates) follow,
/// in input order, with their reason. `top` > 0 keeps only the feasible configs that can reach the first `top` places (at
/// least `top` of them, in exactly the order a full ranking gives them); 0 keeps all.
/// `out` is cleared and reused (batch mode keeps one per thread).
/// `from_space`: the candidates are target.candidates(p, profile) (EstimateContext::configs_from_space).
/// `distinct` with `top` > 0: exactly what distinct_tiles_first(full ranking, top) keeps (the
/// best-ranked config of each of the first `top` distinct tiles, then the infeasible ones), with only
/// those estimated in full; with `top` 0 it changes nothing (call distinct_tiles_first).
/// Throws InputError for a problem that is not valid (validate_problem).
void rank_configs(const Target& target, const GemmProblem& p, const Profile& profile,
                  const std::vector<TileConfig>& candidates, std::vector<RankedConfig>& out, std::size_t top = 0,
                  bool from_space = false, bool distinct = false);

/// The same over a context built by the caller (Target::context, or make_estimate_context with other
/// parameters, as calibrate does): the problem and profile are the context's.
void rank_configs(const Target& target, const EstimateContext& context, const std::vector<TileConfig>& candidates,
                  std::vector<RankedConfig>& out, std::size_t top = 0, bool distinct = false);

/// Reorders a ranking so that distinct tiles come first: the best-ranked config of each distinct
/// (block_m, block_n, block_k, split_k), in rank order, then the others in rank order, then the
/// infeasible ones as they were; keeps the first `top` feasible configs (0 = all) and every
/// infeasible one. A shortlist of 5 is then 5
/// different tiles, not one tile at five stage counts (what an autotuner given the list needs).
/// Give it the whole ranking (rank_configs or advise with top 0): a ranking already cut to its
/// first N configs holds fewer distinct tiles, and the shortlist repeats tiles.
void distinct_tiles_first(std::vector<RankedConfig>& ranked, std::size_t top = 0);

}  // namespace gemm_advisor
