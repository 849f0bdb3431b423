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
  // A default Profile{} holds no GPU ("dtype bf16 has no matrix path on " said so unclearly).
  if (profile.hw.cu_count <= 0 || profile.hw.clock_hz <= 0)
    throw InputError("the profile describes no GPU (a default Profile: load one with load_profile or parse_profile)");
  if (std::string why = target.problem_error(p, profile); !why.empty())
    throw InputError(p.shape_text() + ": " + std::string(target.name()) + ": " + why);
  if (!given) target.candidates(p, profile, space);
  rank_configs(target, p, profile, given ? *given : space, out, top, /*from_space=*/given == nullptr);
}

}  // namespace gemm_advisor
