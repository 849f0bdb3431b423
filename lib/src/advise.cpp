#include "gemm_advisor/advise.hpp"

#include "gemm_advisor/error.hpp"

namespace gemm_advisor {

void advise(const Target& target, const GemmProblem& p, const Profile& profile, const std::vector<TileConfig>* given,
            std::size_t top, std::vector<TileConfig>& space, std::vector<RankedConfig>& out) {
  // A problem built by hand (a library caller's, not parse_shape's) is checked here too: a default
  // GemmProblem is 0x0x0, and ranking one gave feasible configs with made-up or NaN times (a fresh
  // C++ user's find, 2026-12-04).
  try {
    validate_problem(p);
  } catch (const InputError& e) {
    throw InputError(p.shape_text() + ": " + e.what());
  }
  if (std::string why = target.problem_error(p, profile); !why.empty())
    throw InputError(p.shape_text() + ": " + std::string(target.name()) + ": " + why);
  if (!given) target.candidates(p, profile, space);
  rank_configs(target, p, profile, given ? *given : space, out, top, /*from_space=*/given == nullptr);
}

}  // namespace gemm_advisor
