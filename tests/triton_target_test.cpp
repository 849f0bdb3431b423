#include <catch2/catch.hpp>

#include <set>

#include "gemm_advisor/hardware.hpp"
#include "gemm_advisor/targets/triton.hpp"
#include "test_util.hpp"

using namespace gemm_advisor;

TEST_CASE("shared memory follows the vendor's Triton buffering", "[triton]") {
  TileConfig c;  // 128x128x64, 3 stages
  c.block_m = 128;
  c.block_n = 128;
  c.block_k = 64;
  c.num_stages = 3;
  // Hand calculation: one stage = (128*64 + 64*128) * 2 bytes = 32768 bytes.
  const Profile nv = load_profile("h200");  // NVIDIA: num_stages buffers
  CHECK(triton_smem_bytes(c, Dtype::bf16, nv.triton) == 3 * 32768);
  const Profile amd = load_profile("mi350x");  // AMD: num_stages - 1 buffers
  CHECK(triton_smem_bytes(c, Dtype::bf16, amd.triton) == 2 * 32768);
  CHECK(triton_smem_bytes(c, Dtype::fp8, nv.triton) == 3 * 16384);
}

TEST_CASE("no proposed config exceeds the hardware's limits, on every profile", "[triton]") {
  const char* shapes[] = {"8192x8192x8192", "1x4096x4096", "127x4095x1023", "128x128x65536", "65536x256x512"};
  for (const auto& e : embedded_profiles()) {
    const Profile hw = load_profile(std::string(e.name));
    for (const char* s : shapes) {
      INFO(e.name << " " << s);
      const GemmProblem p = parse_shape(s);
      std::vector<TileConfig> cands;
      triton_candidates(p, hw, cands);
      REQUIRE(!cands.empty());
      for (const TileConfig& c : cands) {
        CHECK(triton_smem_bytes(c, p.dtype, hw.triton) <= hw.hw.smem_per_block_bytes);
        CHECK(accumulator_registers_per_thread(c, hw.hw) <= (hw.hw.max_registers_per_thread + 1) / 2);
        CHECK(c.num_stages <= hw.triton.max_num_stages);
        CHECK(triton_infeasibility(c, p, hw).empty());
      }
    }
  }
}

TEST_CASE("the candidate space prunes tiles larger than the problem", "[triton]") {
  const Profile hw = load_profile("h200");
  std::vector<TileConfig> cands;
  triton_candidates(parse_shape("1x4096x4096"), hw, cands);
  std::set<int> bms;
  for (const auto& c : cands) bms.insert(c.block_m);
  CHECK(bms == std::set<int>{16});  // M = 1: only the smallest block_m is worth trying
  // Split-K appears only when the output tiles fill less than two waves (1 x 256 tiles of 16x16 do not).
  bool saw_split = false;
  for (const auto& c : cands) saw_split |= c.split_k > 1;
  CHECK(saw_split);
  triton_candidates(parse_shape("8192x8192x8192"), hw, cands);
  for (const auto& c : cands) CHECK(c.split_k == 1);  // >= 1024 tiles: never split
}

TEST_CASE("infeasible configs say why", "[triton][errors]") {
  const Profile hw = load_profile("h200");
  const GemmProblem p = parse_shape("4096x4096x4096");
  TileConfig c;
  c.block_m = 256;
  c.block_n = 256;
  c.block_k = 128;
  c.num_stages = 4;
  c.num_warps = 8;
  // (256*128 + 128*256) * 2 bytes * 4 stages = 524288 > 232448.
  CHECK_THAT(triton_infeasibility(c, p, hw), Catch::Contains("524288 bytes of shared memory"));
  c.block_m = 96;
  CHECK_THAT(triton_infeasibility(c, p, hw), Catch::Contains("power of two"));
  c = TileConfig{};
  c.block_m = 256;
  c.block_n = 256;
  c.block_k = 32;
  c.num_warps = 4;  // 65536 / 128 threads = 512 accumulators per thread
  CHECK_THAT(triton_infeasibility(c, p, hw), Catch::Contains("accumulator registers"));
  c = TileConfig{};
  c.num_stages = 9;
  CHECK_THAT(triton_infeasibility(c, p, hw), Catch::Contains("num_stages = 9"));
}

TEST_CASE("tile config text round-trips", "[triton]") {
  const TileConfig c = parse_tile_config("128x64x32:4:3:2");
  CHECK(c.block_m == 128);
  CHECK(c.block_n == 64);
  CHECK(c.block_k == 32);
  CHECK(c.num_warps == 4);
  CHECK(c.num_stages == 3);
  CHECK(c.split_k == 2);
  CHECK(c.text() == "128x64x32:4:3:2");
  CHECK_THROWS_WITH(parse_tile_config("128x64:4:3"), Catch::Contains("expected BMxBNxBK:WARPS:STAGES"));
  CHECK_THROWS_WITH(parse_tile_config("128x64x32:0:3"), Catch::Contains("'0' is not a positive"));
}
