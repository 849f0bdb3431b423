#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>

#include "gemm_advisor/advise.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/model_params.hpp"
#include "gemm_advisor/profile.hpp"
#include "gemm_advisor/ranker.hpp"
#include "gemm_advisor/targets/triton.hpp"
#include "gemm_advisor/targets/triton_tutorial.hpp"
#include "gemm_advisor/targets/vllm_fp8_block.hpp"
#include "gemm_advisor/targets/vllm_fused_moe.hpp"
#include "test_util.hpp"

using namespace gemm_advisor;

TEST_CASE("ranking is sorted by predicted latency, infeasible configs last", "[ranker]") {
  const Profile hw = test_util::toy();
  const GemmProblem p = parse_shape("4096x4096x4096");
  std::vector<TileConfig> cands;
  triton_candidates(p, hw, cands);
  TileConfig bad;
  bad.block_m = 512;  // not allowed: > 256 accumulators... and shared memory
  bad.block_n = 512;
  bad.block_k = 256;
  cands.insert(cands.begin(), bad);
  std::vector<RankedConfig> ranked;
  rank_configs(triton_target(), p, hw, cands, ranked);
  REQUIRE(ranked.size() == cands.size());
  CHECK_FALSE(ranked.back().estimate.feasible);
  CHECK_FALSE(ranked.back().infeasible_reason.empty());
  const double tol = test_util::params(hw).near_tie_tolerance;
  for (std::size_t i = 1; i + 1 < ranked.size(); ++i) {
    // Out of order only inside a near-tie.
    CHECK(ranked[i].estimate.latency_s >= ranked[i - 1].estimate.latency_s / (1.0 + tol) * (1 - 1e-12));
  }
}

TEST_CASE("near-ties are broken by arithmetic intensity, then deterministically", "[ranker]") {
  const Profile hw = test_util::toy();
  const GemmProblem p = parse_shape("4096x4096x4096");
  std::vector<TileConfig> cands;
  triton_candidates(p, hw, cands);
  std::vector<RankedConfig> a, b;
  rank_configs(triton_target(), p, hw, cands, a);
  std::reverse(cands.begin(), cands.end());
  rank_configs(triton_target(), p, hw, cands, b);
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i].config == b[i].config);  // order-independent
  // The leading near-tie group is every config within near_tie_tolerance of the fastest; it comes
  // first, ordered by arithmetic intensity (highest first).
  double fastest = a[0].estimate.latency_s;
  for (const auto& r : a) fastest = std::min(fastest, r.estimate.latency_s);
  const double bound = fastest * (1 + test_util::params(hw).near_tie_tolerance);
  std::size_t group = 0;
  for (const auto& r : a) group += r.estimate.latency_s <= bound;
  REQUIRE(group >= 1);
  for (std::size_t i = 0; i < group; ++i) CHECK(a[i].estimate.latency_s <= bound);
  for (std::size_t i = 1; i < group; ++i)
    CHECK(a[i].estimate.arithmetic_intensity <= a[i - 1].estimate.arithmetic_intensity);
}

TEST_CASE("a tile's stage counts predicted alike go nearest the compiler's default num_stages first", "[ranker]") {
  // 2048x1001x4096 NN on the tutorial kernel: B (N = 1001) is unaligned and leaves the software
  // pipeline at every num_stages, so the model predicts 256x64x128 w8 alike at 1, 2 and 3 stages
  // (measured on our H200: 184, 127 and 126 us, h200-tutorial-l.csv). The H200 profile gives Triton's
  // NVIDIA default, 3 (profiles/h200.yaml, triton.default_num_stages): 3 stages first, then 2, then
  // 1. Without it (0: no preference) fewer stages go first, as before.
  Profile hw = load_profile("h200");
  REQUIRE(hw.triton.default_num_stages == 3);
  GemmProblem p = parse_shape("2048x1001x4096");
  p.layout = parse_layout("NN");
  const std::vector<TileConfig> cands = {test_util::cfg(256, 64, 128, 8, 1), test_util::cfg(256, 64, 128, 8, 2),
                                         test_util::cfg(256, 64, 128, 8, 3)};
  std::vector<RankedConfig> ranked;
  rank_configs(triton_tutorial_target(), p, hw, cands, ranked);
  REQUIRE(ranked.size() == 3);
  REQUIRE(ranked[0].estimate.latency_s == ranked[2].estimate.latency_s);
  CHECK(ranked[0].config.num_stages == 3);
  CHECK(ranked[1].config.num_stages == 2);
  CHECK(ranked[2].config.num_stages == 1);
  hw.triton.default_num_stages = 0;
  rank_configs(triton_tutorial_target(), p, hw, cands, ranked);
  CHECK(ranked[0].config.num_stages == 1);
  CHECK(ranked[2].config.num_stages == 3);
}

TEST_CASE("a tile's warp counts predicted alike go nearest the compiler's default num_warps first", "[ranker]") {
  // 1x59136x8192 NT bf16 on the triton target: 16x256x64 at 3 stages is memory-bound alike at 2, 4
  // and 8 warps (the same bytes and loads in flight), predicted 229.9 us each. Measured on our H200
  // (data/measurements/h200-triton-extra.csv and h200-retime-tri.csv): 274 and 278 us at 2 warps,
  // 254 at 4, 250 and 252 at 8. Triton's default is 4 (profiles/h200.yaml, triton.default_num_warps):
  // 4 first, then 2 and 8 (equally far, in config order); without it (0) 2 warps first, as before.
  Profile hw = load_profile("h200");
  REQUIRE(hw.triton.default_num_warps == 4);
  GemmProblem p = parse_shape("1x59136x8192");
  p.layout = parse_layout("NT");
  const std::vector<TileConfig> cands = {test_util::cfg(16, 256, 64, 8, 3), test_util::cfg(16, 256, 64, 2, 3),
                                         test_util::cfg(16, 256, 64, 4, 3)};
  std::vector<RankedConfig> ranked;
  rank_configs(triton_target(), p, hw, cands, ranked);
  REQUIRE(ranked.size() == 3);
  REQUIRE(ranked[0].estimate.latency_s == ranked[2].estimate.latency_s);
  CHECK(ranked[0].config.num_warps == 4);
  CHECK(ranked[1].config.num_warps == 2);
  CHECK(ranked[2].config.num_warps == 8);
  hw.triton.default_num_warps = 0;
  rank_configs(triton_target(), p, hw, cands, ranked);
  CHECK(ranked[0].config.num_warps == 2);
  CHECK(ranked[2].config.num_warps == 8);
}

TEST_CASE("group_m variants predicted alike go nearest the kernel's default group_m first", "[ranker]") {
  // 128x24576x1536 fp8 (DeepSeek-V3's q_b_proj at M 128) on vllm-fp8-block: 64x128x128 w4 s3 is
  // predicted 23.16 us at GROUP_SIZE_M 1, 16, 32 and 64 alike. Measured on our H200
  // (data/measurements/h200-fp8-block.csv.gz, h200-retime-fp8.csv): 31.7 and 32.0 us at 1, 29.7 at 16,
  // 29.6 and 29.9 at 32. vLLM's kernel runs GROUP_SIZE_M 32 untuned (vllm_fp8_block_default_config):
  // 32 first, then 16 (16 away), 1 (31), 64 (32); before, 1 went first (config order).
  REQUIRE(vllm_fp8_block_default_config().group_m == 32);
  const Profile hw = load_profile("h200");
  GemmProblem p = parse_shape("128x24576x1536");
  p.dtype = Dtype::fp8;
  std::vector<TileConfig> cands;
  for (int g : {1, 16, 32, 64}) cands.push_back(test_util::cfg(64, 128, 128, 4, 3, 1, g));
  std::vector<RankedConfig> ranked;
  rank_configs(vllm_fp8_block_target(), p, hw, cands, ranked);
  REQUIRE(ranked.size() == 4);
  REQUIRE(ranked[0].estimate.latency_s == ranked[3].estimate.latency_s);
  std::vector<int> order;
  for (const auto& r : ranked) order.push_back(r.config.group_m);
  CHECK(order == std::vector<int>{32, 16, 1, 64});
}

TEST_CASE("a tile's exactly tied stage variants streaming from DRAM go shortest memory step first", "[ranker]") {
  // 1x3072x8192 NT bf16, triton target, 16x32x256 w4: every K-step reads a new slice of B from DRAM
  // (L2 hit rate about 0), and the model's step is issue-bound at 5 and 6 stages alike (0.455 us),
  // with 6 stages' memory step the shorter (more loads in flight). Measured on our H200 (data/
  // measurements/h200-triton-extra.csv, decode family): 22.8 us at 6 stages against 25.5 at 5. The
  // stage preference alone (3, the compiler's default) would put 5 first.
  const Profile hw = load_profile("h200");
  GemmProblem p = parse_shape("1x3072x8192");
  p.layout = parse_layout("NT");
  const std::vector<TileConfig> cands = {test_util::cfg(16, 32, 256, 4, 5), test_util::cfg(16, 32, 256, 4, 6)};
  EstimateContext context = triton_target().context(p, hw);
  REQUIRE(context.params.slack_tie_max_l2_hit_rate == 0.5);
  std::vector<RankedConfig> ranked;
  rank_configs(triton_target(), context, cands, ranked, 0);
  REQUIRE(ranked.size() == 2);
  REQUIRE(ranked[0].estimate.latency_s == ranked[1].estimate.latency_s);
  REQUIRE(ranked[0].estimate.l2_hit_rate < 0.5);
  CHECK(ranked[0].config.num_stages == 6);
  CHECK(ranked[0].estimate.memory_step_s < ranked[1].estimate.memory_step_s);
  // The lean path (--top) orders them alike.
  rank_configs(triton_target(), context, cands, ranked, 1);
  CHECK(ranked[0].config.num_stages == 6);
  // Off (0), or where the tile's bytes come from L2 (a hit-rate bound below this tile's), the
  // preference for the default num_stages decides: 5 first.
  for (double off : {0.0, ranked[0].estimate.l2_hit_rate}) {
    context.params.slack_tie_max_l2_hit_rate = off;
    rank_configs(triton_target(), context, cands, ranked, 0);
    CHECK(ranked[0].config.num_stages == 5);
  }
}

TEST_CASE("a tile past M's next power of two ranks after the others, even predicted faster", "[ranker]") {
  // A fresh expert's find (2026-12-07): on Hopper the model predicts a 64-row wgmma tile faster for 32
  // rows than the 32-row tiles the space holds, and evaluate credited the advisor with that pick, which
  // rank never lists; measured on our H200 such a tile never was the faster (ranker.cpp).
  const Profile hw = load_profile("h200");
  GemmProblem p = parse_shape("32x9808x4016");
  p.layout = parse_layout("NN");
  const std::vector<TileConfig> cands = {parse_tile_config("64x128x128:8:4"), parse_tile_config("32x128x256:4:3"),
                                         parse_tile_config("128x64x64:4:4"), parse_tile_config("16x64x128:4:4")};
  std::vector<Estimate> e;
  for (const TileConfig& c : cands) e.push_back(triton_target().estimate(triton_target().context(p, hw), c));
  // The premise, in the model's own figures: the 64-row tile is predicted the fastest of the four.
  REQUIRE(e[0].latency_s < std::min({e[1].latency_s, e[2].latency_s, e[3].latency_s}));
  for (const std::size_t top : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
    std::vector<RankedConfig> ranked;
    rank_configs(triton_target(), p, hw, cands, ranked, top);
    REQUIRE(ranked.size() >= std::max<std::size_t>(top, 1));
    // The two tiles of at most 32 rows first, by predicted time; the oversized ones after.
    const bool first_is_32 = ranked[0].config.block_m == 32;
    CHECK(ranked[0].config.block_m <= 32);
    CHECK(first_is_32 == (e[1].latency_s <= e[3].latency_s));
    if (top == 0) {
      REQUIRE(ranked.size() == 4);
      CHECK(ranked[1].config.block_m <= 32);
      CHECK(ranked[2].config.block_m > 32);
      CHECK(ranked[3].config.block_m > 32);
      CHECK(ranked[2].estimate.latency_s <= ranked[3].estimate.latency_s);
    }
  }
}

TEST_CASE("a top-N ranking gives exactly the first N places of the full ranking", "[ranker]") {
  const char* shapes[] = {"4096x4096x4096", "1x4096x4096", "127x4095x1023", "128x128x65536", "16x6144x4096"};
  for (const auto& ep : embedded_profiles()) {
    const Profile hw = load_profile(std::string(ep.name));
    for (const char* s : shapes) {
      INFO(ep.name << " " << s);
      const GemmProblem p = parse_shape(s);
      std::vector<TileConfig> cands;
      triton_candidates(p, hw, cands);
      std::vector<RankedConfig> full, top;
      rank_configs(triton_target(), p, hw, cands, full);
      for (std::size_t n : {1, 3, 10}) {
        rank_configs(triton_target(), p, hw, cands, top, n);
        REQUIRE(top.size() >= n);
        REQUIRE(top.size() <= full.size());
        for (std::size_t i = 0; i < n; ++i) CHECK(top[i].config == full[i].config);
      }
    }
  }
}

TEST_CASE("distinct tiles first: the best config of each tile, then the rest, infeasible last", "[ranker]") {
  auto ranked_config = [](int bm, int warps, int stages, bool feasible) {
    RankedConfig r;
    r.config = test_util::cfg(bm, 64, 64, warps, stages);
    r.estimate.feasible = feasible;
    return r;
  };
  // A ranking of 128x64x64 at two stage counts, 64x64x64, 128x64x64 again, 32x64x64, and an
  // infeasible given config: the distinct order keeps each tile's first (best) place.
  std::vector<RankedConfig> ranked = {ranked_config(128, 4, 3, true), ranked_config(128, 4, 4, true),
                                      ranked_config(64, 4, 3, true),  ranked_config(128, 8, 3, true),
                                      ranked_config(32, 4, 3, true),  ranked_config(256, 4, 9, false)};
  std::vector<RankedConfig> all = ranked;
  distinct_tiles_first(all);
  std::vector<std::string> order;
  for (const auto& r : all) order.push_back(r.config.text());
  CHECK(order == std::vector<std::string>{"128x64x64:4:3", "64x64x64:4:3", "32x64x64:4:3", "128x64x64:4:4",
                                          "128x64x64:8:3", "256x64x64:4:9"});
  // The first 3 feasible, then the infeasible one, kept with its reason (cutting at 3 dropped it: a
  // fresh user's find, 2026-12-04).
  distinct_tiles_first(ranked, 3);
  REQUIRE(ranked.size() == 4);
  CHECK(ranked[2].config.text() == "32x64x64:4:3");
  CHECK(ranked[3].config.text() == "256x64x64:4:9");
  CHECK_FALSE(ranked[3].estimate.feasible);
}


TEST_CASE("advise refuses a problem built by hand that is not valid", "[ranker][errors]") {
  // A default GemmProblem is 0x0x0: ranked, it gave feasible configs with made-up times, and batch 0
  // or a MoE layer of 0 experts NaN times marked feasible (a fresh C++ user's find, 2026-12-04).
  const Profile hw = test_util::toy();
  std::vector<TileConfig> space;
  std::vector<RankedConfig> out;
  GemmProblem p;
  CHECK_THROWS_WITH(advise(triton_target(), p, hw, nullptr, 1, space, out),
                    Catch::Contains("0x0x0") && Catch::Contains("M must be at least 1"));
  p = parse_shape("64x64x64");
  p.batch = 0;
  CHECK_THROWS_WITH(advise(triton_target(), p, hw, nullptr, 1, space, out), Catch::Contains("batch must be at least 1"));
  p.batch = 1;
  p.k = std::int64_t{1} << 40;
  CHECK_THROWS_WITH(advise(triton_target(), p, hw, nullptr, 1, space, out),
                    Catch::Contains("exceeds the largest supported dimension"));
  p.k = 64;
  CHECK_THROWS_WITH(advise(triton_target(), p, Profile{}, nullptr, 1, space, out),
                    Catch::Contains("the profile describes no GPU"));
  // A loaded profile edited in code into what no reader passes (a fresh library consumer's finds,
  // 2026-12-05): each ranked an empty list, infinite or NaN times, or a larger GPU, unsaid; a null
  // parameter entry crashed.
  const Profile h200 = load_profile("h200");
  auto with = [&](const std::function<void(Profile&)>& edit) {
    Profile e = h200;
    edit(e);
    return e;
  };
  CHECK_THROWS_WITH(advise(triton_target(), p, with([](Profile& e) { e.hw.warp_size = 0; }), nullptr, 1, space, out),
                    Catch::Contains("warp_size must be a positive number"));
  CHECK_THROWS_WITH(advise(triton_target(), p, with([](Profile& e) { e.hw.matrix_peak_fraction = 0; }), nullptr, 1,
                           space, out),
                    Catch::Contains("matrix_peak_fraction must be a fraction in (0, 1], got 0"));
  CHECK_THROWS_WITH(advise(triton_target(), p, with([](Profile& e) { e.triton.max_num_stages = 0; }), nullptr, 1,
                           space, out),
                    Catch::Contains("triton.max_num_stages must be a positive number"));
  CHECK_THROWS_WITH(advise(triton_target(), p, with([](Profile& e) { e.hw.cu_count = 1000; }), nullptr, 1, space, out),
                    Catch::Contains("cu_count = 1000 exceeds the 132 CUs"));
  CHECK_THROWS_WITH(advise(triton_target(), p, with([](Profile& e) {
                      e.model.push_back({find_model_param("launch_overhead_s"), std::nan("")});
                    }),
                           nullptr, 1, space, out),
                    Catch::Contains("model parameter launch_overhead_s = nan is outside"));
  CHECK_THROWS_WITH(advise(triton_target(), p, with([](Profile& e) { e.model.push_back({nullptr, 1.0}); }), nullptr, 1,
                           space, out),
                    Catch::Contains("names no parameter"));
  // ... and the rest of what parse_profile checks (a fresh C++ consumer's finds, 2026-12-07: a negative
  // DRAM latency ranked every config feasible at -1058 s, a zero bf16 rate at infinity, a NaN L2
  // latency or a zero instruction at NaN).
  const auto bf16 = static_cast<std::size_t>(Dtype::bf16);
  const std::pair<std::function<void(Profile&)>, const char*> more[] = {
      {[](Profile& e) { e.hw.dram_latency_s = -1; }, "dram_latency_s must be a positive number, got -1"},
      {[](Profile& e) { e.hw.l2_latency_s = std::nan(""); }, "l2_latency_s must be a positive number, got nan"},
      {[&](Profile& e) { e.hw.matrix[bf16]->flops_per_cycle_per_cu = 0; },
       "matrix bf16 flops_per_cycle_per_cu must be a positive number, got 0"},
      {[&](Profile& e) { e.hw.matrix[bf16]->instruction_k = 0; }, "matrix bf16 instruction 64x8x0: each size must be at least 1"},
      {[](Profile& e) { e.hw.xcd_count = 0; }, "xcd_count must be a positive number, got 0"},
      {[](Profile& e) { e.hw.misaligned_store_fraction = 0; }, "misaligned_store_fraction must be a fraction in (0, 1], got 0"},
      {[](Profile& e) { e.hw.dram_bandwidth_fraction = 1.5; }, "dram_bandwidth_fraction must be a fraction in (0, 1], got 1.5"},
      {[](Profile& e) { e.hw.matrix_instruction_warps = 0; }, "matrix_instruction_warps must be a positive number"},
      {[](Profile& e) { e.triton.smem_stage_offset = -5; }, "triton.smem_stage_offset must be a number of at least 0, got -5"},
      {[](Profile& e) { e.hw.l2_bytes = std::nan(""); }, "l2_bytes must be a number of at least 0, got nan"},
      {[](Profile& e) { e.hw.tensor_memory_bytes_per_cu = -1; }, "tensor_memory_bytes_per_cu must be a number of at least 0"},
  };
  for (const auto& [edit, what] : more) {
    INFO(what);
    CHECK_THROWS_WITH(advise(triton_target(), p, with(edit), nullptr, 1, space, out), Catch::Contains(what));
  }
  const std::vector<TileConfig> none;
  CHECK_THROWS_WITH(advise(triton_target(), p, h200, &none, 1, space, out), Catch::Contains("no config given to rank"));
  // rank_configs, public too, checks the problem as advise does (a 0x0x0 problem was ranked).
  CHECK_THROWS_WITH(rank_configs(triton_target(), GemmProblem{}, h200, {TileConfig{}}, out),
                    Catch::Contains("M must be at least 1"));
  // A loaded profile edited in code to a figure no reader passes, and a dtype out of the enum: named
  // (a zero DRAM bandwidth ranked every config at NaN, marked feasible).
  Profile edited = hw;
  edited.hw.dram_bandwidth_bytes_per_s = 0;
  CHECK_THROWS_WITH(advise(triton_target(), p, edited, nullptr, 1, space, out),
                    Catch::Contains("dram_bandwidth_bytes_per_s must be a positive number, got 0"));
  GemmProblem odd = p;
  odd.dtype = static_cast<Dtype>(42);
  CHECK_THROWS_WITH(advise(triton_target(), odd, hw, nullptr, 1, space, out), Catch::Contains("dtype 42 is none of"));
  advise(triton_target(), p, hw, nullptr, 1, space, out);  // the valid problem ranks
  REQUIRE_FALSE(out.empty());  // at least the first place (rank_configs keeps what can reach it)
  CHECK(out.front().estimate.feasible);
  CHECK(out.front().estimate.latency_s > 0);
}

// advise(..., top, distinct) ranks every config by its sort key and estimates only the first `top`
// distinct tiles in full (2026-12-07: a full ranking then distinct_tiles_first took 3.3x the time of
// --top N). It must keep exactly what distinct_tiles_first keeps from the full ranking: the same
// configs in the same order with the same estimates, and the same infeasible tail, on every profile,
// every dense target, fused-MoE layers, given candidates and each top.
TEST_CASE("distinct tiles from the lean ranking equal distinct_tiles_first of the full one", "[ranker][distinct]") {
  const char* const shapes[] = {"1x4096x4096", "16x6144x4096", "4096x4096x4096", "2048x1024x479", "13x7x5",
                                "8192x512x13", "512x512x512x8", "128x128x65536"};
  std::size_t compared = 0;
  const auto same = [&](const Target& t, const GemmProblem& p, const Profile& hw, const std::vector<TileConfig>* given,
                        std::size_t top) {
    std::vector<TileConfig> space;
    std::vector<RankedConfig> full, lean;
    try {
      advise(t, p, hw, given, 0, space, full);
    } catch (const InputError&) {
      return;  // a problem the target does not take on this GPU
    }
    distinct_tiles_first(full, top);
    advise(t, p, hw, given, top, space, lean, /*distinct=*/true);
    INFO(hw.hw.name << " " << t.name() << " " << p.shape_text() << " top " << top);
    REQUIRE(lean.size() == full.size());
    for (std::size_t i = 0; i < full.size(); ++i) {
      CHECK(lean[i].config == full[i].config);
      CHECK(lean[i].estimate.latency_s == full[i].estimate.latency_s);
      CHECK(lean[i].estimate.feasible == full[i].estimate.feasible);
      CHECK(lean[i].infeasible_reason == full[i].infeasible_reason);
    }
    ++compared;
  };
  for (const auto& ep : embedded_profiles()) {
    const Profile hw = load_profile(std::string(ep.name));
    for (const Target* t : {&triton_target(), &triton_tutorial_target(), &vllm_fp8_block_target()}) {
      for (const char* shape : shapes) {
        GemmProblem base;
        if (t == &vllm_fp8_block_target()) base.dtype = Dtype::fp8;
        const GemmProblem p = parse_shape(shape, base);
        for (std::size_t top : {1, 3, 5, 8, 40}) same(*t, p, hw, nullptr, top);
      }
    }
    // Given configs, some infeasible and some repeated tiles at other stages.
    const std::vector<TileConfig> given = {test_util::cfg(128, 128, 64, 8, 3), test_util::cfg(128, 128, 64, 8, 4),
                                           test_util::cfg(512, 512, 256, 8, 3), test_util::cfg(64, 64, 64, 4, 2),
                                           test_util::cfg(64, 64, 64, 4, 3), test_util::cfg(16, 16, 16, 1, 1)};
    for (std::size_t top : {1, 2, 3}) same(triton_target(), parse_shape("4096x4096x4096"), hw, &given, top);
    // A fused-MoE layer (Mixtral's at M 256), bf16 and block-fp8.
    for (const Dtype dtype : {Dtype::bf16, Dtype::fp8}) {
      GemmProblem layer;
      layer.m = 256, layer.n = 14336, layer.k = 4096, layer.dtype = dtype;
      layer.moe.experts = 8, layer.moe.top_k = 2, layer.moe.gemm = MoeGemm::layer;
      if (dtype == Dtype::fp8) layer.moe.quant_block = 128;
      for (std::size_t top : {1, 4, 8}) same(vllm_fused_moe_target(), layer, hw, nullptr, top);
    }
  }
  CHECK(compared > 800);  // the comparisons ran, not skipped as problems a target refuses
}
