#pragma once
/// The one path every command takes to an answer (rank, explain, batch, evaluate): a target's
/// candidates for a problem (its space, or the configs a user or a measurement gives), ranked.
#include <cstddef>
#include <vector>

#include "gemm_advisor/profile.hpp"
#include "gemm_advisor/ranker.hpp"
#include "gemm_advisor/target.hpp"

namespace gemm_advisor {

/// Ranks the target's candidate space for `p` on `profile` (or exactly `given`, when not null) into
/// `out` (rank_configs: feasible first in rank order, then the infeasible given ones with their
/// reason; `top` as there, 0 = all). `space` is scratch for the candidate list (batch keeps one per
/// thread). `given` configs are ranked as given: one listed twice is ranked twice (read_candidates
/// drops repeats). Throws InputError when the problem is not valid (validate_problem: a problem built by
/// hand is checked too), the profile holds a figure parse_profile would refuse (one edited in code:
/// a rate, latency or size of 0, negative or NaN), or the target cannot run the problem on the profile
/// at all (Target::problem_error). An empty or all-infeasible result is the caller's to report.
/// `distinct` with `top` > 0: the first `top` distinct tiles, as rank_configs gives them.
void advise(const Target& target, const GemmProblem& p, const Profile& profile, const std::vector<TileConfig>* given,
            std::size_t top, std::vector<TileConfig>& space, std::vector<RankedConfig>& out, bool distinct = false);

}  // namespace gemm_advisor
