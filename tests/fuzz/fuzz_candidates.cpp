// libFuzzer target: the candidates reader (--candidates FILE, read_candidates). A file that
// reads holds at least one config, each within the reader's bounds; ranking them on two GPUs
// gives no NaN and an infeasibility reason for every infeasible one.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_util.hpp"
#include "gemm_advisor/candidates.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/ranker.hpp"

using namespace gemm_advisor;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::vector<TileConfig> configs;
  try {
    configs = read_candidates(in, "fuzz.csv");
  } catch (const InputError& e) {
    fuzz_util::require_one_line(e.what());
    return 0;
  }
  fuzz_util::require(!configs.empty(), "no configs and no error");
  for (const auto& c : configs) {
    fuzz_util::require(c.block_m >= 1 && c.block_n >= 1 && c.block_k >= 1 && c.num_warps >= 1 && c.num_stages >= 1 &&
                           c.group_m >= 1 && c.split_k >= 1,
                       "config field below 1:", c.text());
  }
  if (configs.size() > 32) configs.resize(32);
  for (const char* shape : {"1x1x1", "4096x4096x4096", "2147483647x2147483647x2147483647x16777216"}) {
    const GemmProblem p = parse_shape(shape);
    for (const Profile* hw : {&fuzz_util::nvidia(), &fuzz_util::amd()}) {
      std::vector<RankedConfig> ranked;
      rank_configs(triton_target(), p, *hw, configs, ranked);
      fuzz_util::require(ranked.size() == configs.size(), "ranking dropped configs");
      for (const auto& r : ranked) {
        fuzz_util::require_sane(r.estimate, std::string(shape) + " " + r.config.text());
        if (!r.estimate.feasible) fuzz_util::require(!r.infeasible_reason.empty(), "infeasible without a reason");
      }
    }
  }
  return 0;
}
