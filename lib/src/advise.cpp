#include "gemm_advisor/advise.hpp"

#include <fmt/format.h>

#include <cmath>
#include <utility>

#include "gemm_advisor/error.hpp"
#include "gemm_advisor/model_params.hpp"

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
      // ... and the figures without which no config can run or every one takes forever (edited in
      // code to 0, each gave an empty ranking or infinite times unsaid: a fresh consumer's find,
      // 2026-12-05).
      {"warp_size", hw.warp_size},
      {"max_warps_per_cu", hw.max_warps_per_cu},
      {"max_blocks_per_cu", hw.max_blocks_per_cu},
      {"matrix_peak_fraction", hw.matrix_peak_fraction},
      {"triton.max_num_stages", profile.triton.max_num_stages},
  };
  for (const auto& [field, value] : positive)
    if (!(value > 0) || !std::isfinite(value))
      throw InputError("profile " + hw.name + ": " + field + " must be a positive number, got " + fmt::format("{:g}", value));
  // A CU count above the product's is no partition (use_cu_count refuses it; set in code it ranked a
  // larger GPU than the profile's).
  if (hw.product_cu_count > 0 && hw.cu_count > hw.product_cu_count)
    throw InputError("profile " + hw.name + ": cu_count = " + std::to_string(hw.cu_count) + " exceeds the " +
                     std::to_string(hw.product_cu_count) + " CUs of the GPU");
  // The model parameters the target runs with, inside the registry's ranges (a NaN launch overhead
  // ranked every config feasible at NaN).
  const ModelParams mp = target.problem_params(p, profile);
  for (const ModelParamInfo& info : kModelParamRegistry) {
    const double v = mp.*(info.field);
    if (!(v >= info.min_value && v <= info.max_value))
      throw InputError("profile " + hw.name + ": model parameter " + std::string(info.name) + " = " +
                       fmt::format("{:g}", v) + " is outside " + fmt::format("{:g}..{:g}", info.min_value, info.max_value));
  }
  // An empty list given: said as such (it read as "every config of the target's space breaks a limit").
  if (given && given->empty()) throw InputError(p.shape_text() + ": no config given to rank");
  if (std::string why = target.problem_error(p, profile); !why.empty())
    throw InputError(p.shape_text() + ": " + std::string(target.name()) + ": " + why);
  if (!given) target.candidates(p, profile, space);
  rank_configs(target, p, profile, given ? *given : space, out, top, /*from_space=*/given == nullptr);
}

}  // namespace gemm_advisor
