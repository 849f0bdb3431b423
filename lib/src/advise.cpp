#include "gemm_advisor/advise.hpp"

#include <fmt/format.h>

#include <cmath>
#include <utility>

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
  // A default Profile{} holds no GPU ("dtype bf16 has no matrix path on " said so unclearly); a
  // loaded one edited in code may hold a figure no reader would pass (a zero DRAM bandwidth ranked
  // every config at NaN: a fresh C++ user's find, 2026-12-04).
  const Hardware& hw = profile.hw;
  if (hw.name.empty() && hw.cu_count <= 0)
    throw InputError("the profile describes no GPU (a default Profile: load one with load_profile or parse_profile)");
  const std::pair<const char*, double> positive[] = {
      {"cu_count", hw.cu_count},
      {"clock_hz", hw.clock_hz},
      {"dram_bandwidth_bytes_per_s", hw.dram_bandwidth_bytes_per_s},
      {"l2_bandwidth_bytes_per_s", hw.l2_bandwidth_bytes_per_s},
      {"per_cu_load_bytes_per_s", hw.per_cu_load_bytes_per_s},
      {"smem_per_cu_bytes", static_cast<double>(hw.smem_per_cu_bytes)},
      {"registers_per_cu", static_cast<double>(hw.registers_per_cu)},
      {"triton.max_split_k", profile.triton.max_split_k},
  };
  for (const auto& [field, value] : positive)
    if (!(value > 0) || !std::isfinite(value))
      throw InputError("profile " + hw.name + ": " + field + " must be a positive number, got " + fmt::format("{:g}", value));
  if (std::string why = target.problem_error(p, profile); !why.empty())
    throw InputError(p.shape_text() + ": " + std::string(target.name()) + ": " + why);
  if (!given) target.candidates(p, profile, space);
  rank_configs(target, p, profile, given ? *given : space, out, top, /*from_space=*/given == nullptr);
}

}  // namespace gemm_advisor
