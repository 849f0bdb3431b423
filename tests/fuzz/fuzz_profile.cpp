// libFuzzer target: the hardware-profile loader (parse_profile). Every diagnostic is one line;
// a profile that loads has positive figures, and the model on it gives no NaN, and its
// candidate space stays small enough to enumerate (no runaway loop over stages).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_util.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/ranker.hpp"
#include "gemm_advisor/targets/triton.hpp"

using namespace gemm_advisor;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ProfileDiagnostics diag;
  Profile profile;
  bool loaded = false;
  try {
    profile = parse_profile(text, "fuzz.yaml", &diag);
    loaded = true;
  } catch (const InputError& e) {
    fuzz_util::require_one_line(e.what());
    fuzz_util::require(!diag.errors.empty(), "error thrown but not listed in the diagnostics");
  }
  for (const auto& m : diag.errors) fuzz_util::require_one_line(m);
  for (const auto& m : diag.warnings) fuzz_util::require_one_line(m);
  if (!loaded) return 0;
  fuzz_util::require(diag.errors.empty(), "loaded with errors");
  const Hardware& hw = profile.hw;
  fuzz_util::require(hw.cu_count > 0 && hw.clock_hz > 0 && hw.warp_size > 0 && hw.max_warps_per_cu > 0 &&
                         hw.registers_per_cu > 0 && hw.smem_per_block_bytes > 0 && hw.dram_bandwidth_bytes_per_s > 0 &&
                         hw.l2_bandwidth_bytes_per_s > 0 && profile.triton.max_num_stages > 0,
                     "a loaded profile has a non-positive figure");
  for (const char* shape : {"1x1x1", "127x4095x1023", "4096x4096x4096x2", "2147483647x2147483647x2147483647x16777216"}) {
    for (int d = 0; d < kDtypeCount; ++d) {
      if (!hw.matrix[static_cast<std::size_t>(d)]) continue;
      GemmProblem p = parse_shape(shape);
      p.dtype = static_cast<Dtype>(d);
      std::vector<TileConfig> candidates;
      triton_candidates(p, profile, candidates);
      fuzz_util::require(candidates.size() <= 100000, "runaway candidate space");
      if (candidates.size() > 64) candidates.resize(64);
      candidates.push_back(triton_default_config());
      std::vector<RankedConfig> ranked;
      rank_configs(triton_target(), p, profile, candidates, ranked);
      for (const auto& r : ranked) fuzz_util::require_sane(r.estimate, std::string(shape) + " " + r.config.text());
    }
  }
  return 0;
}
