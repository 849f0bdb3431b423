// libFuzzer target: the shape parser (parse_shape), and the dtype, layout and tile-config
// parsers on the same bytes. A parsed shape must be within the limits, print back to itself and
// give a sane estimate (no overflow at M, N, K = 2^31 - 1 and batch = 2^24).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_util.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/tile_config.hpp"
#include "gemm_advisor/targets/triton.hpp"

using namespace gemm_advisor;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const GemmProblem p = parse_shape(text);
    fuzz_util::require_valid(p);
    validate_problem(p);
    const GemmProblem again = parse_shape(p.shape_text());
    fuzz_util::require(again.m == p.m && again.n == p.n && again.k == p.k && again.batch == p.batch,
                       "shape_text does not parse back:", p.shape_text());
    fuzz_util::require(std::isfinite(p.flops()) && std::isfinite(p.compulsory_bytes()), "non-finite FLOPs/bytes");
    for (const Profile* hw : {&fuzz_util::nvidia(), &fuzz_util::amd()}) {
      fuzz_util::require_sane(fuzz_util::estimate(p, *hw, triton_default_config()), p.shape_text());
      std::vector<TileConfig> candidates;
      triton_candidates(p, *hw, candidates);
      for (const TileConfig& c : candidates) {
        fuzz_util::require(triton_infeasibility(c, p, *hw).empty(), "infeasible candidate:", c.text());
      }
      if (!candidates.empty()) {
        fuzz_util::require_sane(fuzz_util::estimate(p, *hw, candidates.front()), p.shape_text() + " " + candidates.front().text());
        fuzz_util::require_sane(fuzz_util::estimate(p, *hw, candidates.back()), p.shape_text() + " " + candidates.back().text());
      }
    }
  } catch (const InputError& e) {
    fuzz_util::require_one_line(e.what());
  }
  try {
    (void)parse_dtype(text);
  } catch (const InputError& e) {
    fuzz_util::require_one_line(e.what());
  }
  try {
    (void)parse_layout(text);
  } catch (const InputError& e) {
    fuzz_util::require_one_line(e.what());
  }
  try {
    const TileConfig c = parse_tile_config(text);
    fuzz_util::require(c.block_m > 0 && c.block_n > 0 && c.block_k > 0 && c.num_warps > 0 && c.num_stages > 0 &&
                           c.split_k > 0,
                       "non-positive config field");
    fuzz_util::require_sane(fuzz_util::estimate(parse_shape("4096x4096x4096"), fuzz_util::nvidia(), c), c.text());
  } catch (const InputError& e) {
    fuzz_util::require_one_line(e.what());
  }
  return 0;
}
