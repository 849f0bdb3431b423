#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <vector>

#include "gemm_advisor/error.hpp"
#include "gemm_advisor/ranker.hpp"
#include "gemm_advisor/shape_list.hpp"
#include "gemm_advisor/targets/triton.hpp"
#include "test_util.hpp"

// Arithmetic at the limits (M, N, K up to 2^31 - 1, batch up to 2^24): counts, bytes and FLOPs
// must not overflow (the sanitizer build makes signed overflow fatal), estimates stay finite and
// above the physical floors; one past a limit is a clear error wherever a shape comes in.

using namespace gemm_advisor;

namespace {
const char* const kLimitShapes[] = {
    "2147483647x2147483647x2147483647x16777216",  // everything at its limit
    "2147483647x1x1",  "1x2147483647x1", "1x1x2147483647", "1x1x1x16777216",
    "2147483647x2147483647x1", "1x2147483647x2147483647x16777216", "65536x65536x2147483647x16777216"};
}  // namespace

TEST_CASE("every candidate at the limits gets a finite estimate above the floors, on every profile",
          "[limits]") {
  for (const auto& ep : embedded_profiles()) {
    const Profile hw = load_profile(std::string(ep.name));
    for (const char* shape : kLimitShapes) {
      for (const Dtype d : {Dtype::bf16, Dtype::fp8, Dtype::fp32}) {
        if (!hw.hw.rate(d)) continue;
        GemmProblem p = parse_shape(shape);
        p.dtype = d;
        INFO(ep.name << " " << shape << " " << dtype_name(d));
        CHECK(std::isfinite(p.flops()));
        CHECK(std::isfinite(p.compulsory_bytes()));
        const std::vector<RankedConfig> ranked = test_util::rank_space(p, hw);
        const double floor_s = std::max(p.flops() / hw.hw.peak_flops_per_s(d), p.compulsory_bytes() /
                                                                               hw.hw.dram_bandwidth_bytes_per_s);
        for (const auto& r : ranked) {
          if (!r.estimate.feasible) continue;
          REQUIRE(std::isfinite(r.estimate.latency_s));
          REQUIRE(r.estimate.latency_s >= floor_s * (1 - 1e-9));
          REQUIRE(std::isfinite(r.estimate.waves));
          REQUIRE(r.estimate.waves >= 1);
          REQUIRE(std::isfinite(r.estimate.dram_bytes));
          REQUIRE(r.estimate.output_tiles >= 1);
        }
      }
    }
  }
}

TEST_CASE("tile counts at the limits are exact where they fit and never wrap", "[limits]") {
  const Profile hw = load_profile("h200");
  TileConfig c = triton_default_config();  // 128x128x64
  const Estimate e = test_util::estimate(parse_shape("2147483647x2147483647x2147483647x16777216"), hw, c);
  REQUIRE(e.feasible);
  // ceil((2^31-1)/128)^2 * 2^24 = 2^24 * 2^24 * 2^24 = 2^72: beyond int64, exact in double.
  CHECK(e.output_tiles == std::ldexp(1.0, 72));
  CHECK(e.k_steps == std::ldexp(1.0, 25));  // ceil((2^31-1)/64)
  // split-K is never proposed there: 2^72 tiles fill far more than two waves.
  std::vector<TileConfig> candidates;
  triton_candidates(parse_shape("2147483647x2147483647x2147483647x16777216"), hw, candidates);
  REQUIRE(!candidates.empty());
  for (const auto& cand : candidates) CHECK(cand.split_k == 1);
}

TEST_CASE("one past a limit is a clear error wherever a shape comes in", "[limits][errors]") {
  CHECK_THROWS_WITH(parse_shape("2147483648x1x1"), Catch::Contains("M '2147483648' exceeds the limit 2147483647"));
  CHECK_THROWS_WITH(parse_shape("1x2147483648x1"), Catch::Contains("N '2147483648' exceeds the limit"));
  CHECK_THROWS_WITH(parse_shape("1x1x2147483648"), Catch::Contains("K '2147483648' exceeds the limit"));
  CHECK_THROWS_WITH(parse_shape("1x1x1x16777217"), Catch::Contains("batch '16777217' exceeds the limit 16777216"));
  CHECK_THROWS_WITH(parse_shape("18446744073709551617x1x1"), Catch::Contains("exceeds the limit"));
  GemmProblem p;
  p.m = p.n = p.k = 1;
  p.m = kMaxDim + 1;
  CHECK_THROWS_WITH(validate_problem(p), Catch::Contains("exceeds the largest supported dimension"));
  p.m = 1;
  p.batch = kMaxBatch + 1;
  CHECK_THROWS_WITH(validate_problem(p), Catch::Contains("exceeds the largest supported batch"));

  auto first_error = [](const std::string& text, const std::string& source) {
    std::istringstream in(text);
    auto reader = open_shape_reader(in, source, ShapeFormat::automatic, GemmProblem{});
    ShapeEntry e;
    REQUIRE(reader->next(e));
    return e.error;
  };
  CHECK_THAT(first_error("m,n,k\n2147483648,1,1\n", "s.csv"), Catch::Contains("s.csv:2: column 'm': 2147483648 is outside"));
  CHECK_THAT(first_error("m,n,k,batch\n1,1,1,16777217\n", "s.csv"), Catch::Contains("column 'batch': 16777217 is outside"));
  CHECK_THAT(first_error("m,n,k\n-9223372036854775808,1,1\n", "s.csv"), Catch::Contains("is outside 1..2147483647"));
  CHECK_THAT(first_error("- {m: 2147483648, n: 1, k: 1}\n", "s.yaml"), Catch::Contains("'m' = 2147483648 is outside"));
  // 19 digits: beyond int64 (once std::out_of_range from std::stoll: an "internal error", exit 3).
  CHECK_THAT(first_error("- {m: 9999999999999999999, n: 1, k: 1}\n", "s.yaml"), Catch::Contains("is outside 1.."));
  CHECK_THAT(first_error("[{\"m\": 1, \"n\": 1, \"k\": 1, \"batch\": 16777217}]", "s.json"),
             Catch::Contains("'batch' = 16777217 is outside 1..16777216"));
  CHECK_THAT(first_error("1x1x2147483648\n", "s.txt"), Catch::Contains("s.txt:1: shape '1x1x2147483648'"));
}

TEST_CASE("the limits themselves are accepted by every reader", "[limits]") {
  for (const auto& [text, source] : std::vector<std::pair<std::string, std::string>>{
           {"m,n,k,batch\n2147483647,2147483647,2147483647,16777216\n", "s.csv"},
           {"- {m: 2147483647, n: 2147483647, k: 2147483647, batch: 16777216}\n", "s.yaml"},
           {"[{\"m\": 2147483647, \"n\": 2147483647, \"k\": 2147483647, \"batch\": 16777216}]", "s.json"},
           {"2147483647x2147483647x2147483647x16777216\n", "s.txt"}}) {
    INFO(source);
    std::istringstream in(text);
    auto reader = open_shape_reader(in, source, ShapeFormat::automatic, GemmProblem{});
    ShapeEntry e;
    REQUIRE(reader->next(e));
    CHECK(e.error.empty());
    CHECK(e.problem.m == kMaxDim);
    CHECK(e.problem.k == kMaxDim);
    CHECK(e.problem.batch == kMaxBatch);
  }
}

TEST_CASE("configs at the reader's bounds do not overflow shared-memory or register arithmetic", "[limits]") {
  const Profile hw = load_profile("mi350x");
  TileConfig c;
  c.block_m = c.block_n = c.block_k = 65536;
  c.num_warps = 1024;
  c.num_stages = 64;
  c.split_k = 65536;
  c.group_m = 65536;
  const GemmProblem p = parse_shape("2147483647x2147483647x2147483647x16777216");
  // 64 buffers (gfx950's async copies keep num_stages) of 2 * 65536^2 fp32 elements: 2^41 bytes, no overflow.
  CHECK(triton_smem_bytes(c, Dtype::fp32, hw.triton, true) == 64LL * 2 * 65536 * 65536 * 4);
  CHECK_FALSE(triton_infeasibility(c, p, hw).empty());
  const Estimate e = test_util::estimate(p, hw, c);
  CHECK_FALSE(e.feasible);
  CHECK_THROWS_WITH(parse_tile_config("65537x16x16:4:3"), Catch::Contains("is larger than 65536"));
  CHECK_THROWS_WITH(parse_tile_config("2147483647x2147:4444496:344496:37872417"), Catch::Contains("larger than"));
  // A part too many is named as such (it read only "expected ...", a fresh user's find, 2026-12-03).
  CHECK_THROWS_WITH(parse_tile_config("128x128x64:4:3:2:g8:extra"),
                    Catch::Contains("GROUP_M ('g8') must be the last part"));
  // GROUP_M without its g read "4 ':' parts after the block sizes, at most 4" (a fresh user's find).
  CHECK_THROWS_WITH(parse_tile_config("128x128x64:8:3:1:8"),
                    Catch::Contains("a 4th part after the block sizes is GROUP_M, written with a g (':g8')"));
  CHECK_THROWS_WITH(parse_tile_config("4294967424x128x64:8:3"), Catch::Contains("'4294967424' is larger than 65536"));
  CHECK_THROWS_WITH(parse_tile_config("128x128x64:4:3:2:5:g8"),
                    Catch::Contains("5 ':' parts after the block sizes, at most 4"));
}
