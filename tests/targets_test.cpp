// The targets: each maps its kernel onto the model core; expected values are hand calculations on
// the toy GPU (tests/data/toy.yaml: 100 SMs, 1 GHz, 1024 FLOP/cycle/SM, 128 B/cycle per SM) or
// follow from the kernels' code (tools/measure/*.py, after the public kernels).
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <sstream>

#include "gemm_advisor/error.hpp"
#include "gemm_advisor/frontend.hpp"
#include "gemm_advisor/profile.hpp"
#include "gemm_advisor/target.hpp"
#include "gemm_advisor/targets/triton.hpp"
#include "gemm_advisor/targets/triton_tutorial.hpp"
#include "gemm_advisor/targets/vllm_fp8_block.hpp"
#include "gemm_advisor/targets/vllm_fused_moe.hpp"
#include "test_util.hpp"

using namespace gemm_advisor;
using test_util::cfg;

namespace {

std::string toy_text() {
  std::ifstream in(test_util::source_path("tests/data/toy.yaml"));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// The toy GPU with an fp8 path (2048 FLOP/cycle/SM, instruction 16x8x32) and 128 FP32 lanes per SM.
Profile toy_fp8() {
  std::string text = replaced(toy_text(), "  fp16: {", "  fp8: {instruction_m: 16, instruction_n: 8, instruction_k: 32, flops_per_cycle_per_cu: 2048}\n  fp16: {");
  text = replaced(text, "  warp_size: 32\n", "  warp_size: 32\n  vector_fp32_lanes_per_cu: 128\n");
  return parse_profile(text, "toy-fp8.yaml");
}

Estimate estimate_with(const Target& t, const GemmProblem& p, const Profile& profile, const TileConfig& c) {
  return t.estimate(t.context(p, profile), c);
}

}  // namespace

TEST_CASE("every target is listed once, triton first, and found by name", "[targets]") {
  const auto& all = all_targets();
  REQUIRE(all.size() >= 3);
  CHECK(all.front()->name() == "triton");
  CHECK(&find_target("triton-tutorial") == &triton_tutorial_target());
  CHECK(&find_target("vllm-fp8-block") == &vllm_fp8_block_target());
  CHECK_THROWS_WITH(find_target("cutlass"), Catch::Contains("unknown target 'cutlass'") && Catch::Contains("triton-tutorial"));
  // Any case and blanks around the name, as the CLI's --target takes them (2026-12-07: "TRITON" and
  // "triton " were unknown to the library); a blank inside is no name.
  CHECK(&find_target(" TRITON-Tutorial\t") == &triton_tutorial_target());
  CHECK_THROWS_WITH(find_target("triton tutorial"), Catch::Contains("unknown target 'triton tutorial'"));
  for (const Target* t : all) {
    INFO(t->name());
    CHECK_FALSE(t->info().kernel.empty());
    CHECK_FALSE(t->info().source.empty());
    for (const TargetParameter& p : t->info().parameters) CHECK_NOTHROW(config_field(TileConfig{}, p.field));
  }
}

TEST_CASE("the tutorial kernel equals the masked one where no tile overhangs", "[targets][tutorial]") {
  // 4096^3 with 128x128 tiles: every tile covers 128 real rows and columns, so wrapped and masked
  // loads move the same bytes and every term is the same, but for the masked kernel's measured
  // wait of a lone warpgroup (lone_warpgroup_step_cycles) and its fitted co-resident overhead
  // overlap (coresident_overhead_overlap), set to the tutorial's 0 here.
  const Profile hw = parse_profile(
      toy_text() +
          "\ntargets:\n  triton:\n    model_parameters: {lone_warpgroup_step_cycles: 0, coresident_overhead_overlap: 0}\n",
      "toy-0.yaml");
  const GemmProblem p = parse_shape("4096x4096x4096");
  for (const TileConfig& c : {cfg(128, 128, 64, 8, 3), cfg(64, 256, 32, 4, 4), cfg(16, 16, 64, 2, 2)}) {
    const Estimate masked = estimate_with(triton_target(), p, hw, c);
    const Estimate wrapped = estimate_with(triton_tutorial_target(), p, hw, c);
    REQUIRE(masked.feasible);
    REQUIRE(wrapped.feasible);
    CHECK(wrapped.latency_s == masked.latency_s);
  }
  // ... and that it has no split-K.
  CHECK_FALSE(estimate_with(triton_tutorial_target(), p, hw, cfg(128, 128, 64, 8, 3, 2)).feasible);
  CHECK_THAT(triton_tutorial_target().infeasibility(cfg(128, 128, 64, 8, 3, 2), p, hw), Catch::Contains("no split-K"));
  std::vector<TileConfig> space;
  triton_tutorial_target().candidates(parse_shape("128x128x65536"), hw, space);
  REQUIRE_FALSE(space.empty());
  for (const TileConfig& c : space) CHECK(c.split_k == 1);
}

TEST_CASE("the tutorial kernel's 256-wide 8-warp tiles run serialized wgmma where B is K-contiguous", "[targets][tutorial]") {
  // Triton 3.6 on our H200 compiles the tutorial kernel's BLOCK_SIZE_N 256, 8-warp tiles in NT and TT
  // with every HGMMA waiting for itself; the masked kernel's stay pipelined (h200-wgmma-probe.csv).
  // 3072^3 NT, 128x256x64, 8 warps, 3 stages on the H200 profile: 24 x 12 = 288 tiles, one per SM,
  // 3 waves of 48 K-steps, each of 64 / 16 = 4 instructions that drain 50 cycles at 1830 MHz:
  // 3 * 48 * 4 * 50 / 1.83e9 = 15.74 us more than the masked kernel, whose terms are otherwise equal.
  const Profile h200 = load_profile("h200");
  GemmProblem nt = parse_shape("3072x3072x3072");
  nt.layout = parse_layout("NT");
  const TileConfig wide = cfg(128, 256, 64, 8, 3);
  const Estimate masked = estimate_with(triton_target(), nt, h200, wide);
  const Estimate wrapped = estimate_with(triton_tutorial_target(), nt, h200, wide);
  REQUIRE(masked.feasible);
  REQUIRE(wrapped.feasible);
  CHECK(masked.matrix_drain_step_s == 0);
  CHECK(wrapped.matrix_drain_step_s == Approx(4 * 50 / 1.83e9).epsilon(1e-9));
  CHECK(wrapped.latency_s - masked.latency_s == Approx(3 * 48 * 4 * 50 / 1.83e9).epsilon(1e-6));
  // Pipelined: B N-contiguous (NN), 4 warps (64x256), 128 columns (128x128 with 8 warps).
  GemmProblem nn = nt;
  nn.layout = parse_layout("NN");
  CHECK(estimate_with(triton_tutorial_target(), nn, h200, wide).latency_s == estimate_with(triton_target(), nn, h200, wide).latency_s);
  // Nor where the accumulators spill (256x256 with 8 warps: 256 fp32 registers a thread; both kernels
  // serialize there, and the model charges the spills only), nor in fp8 (not probed).
  for (const TileConfig& c : {cfg(64, 256, 64, 4, 3), cfg(128, 128, 64, 8, 3), cfg(256, 256, 64, 8, 2)})
    CHECK(estimate_with(triton_tutorial_target(), nt, h200, c).matrix_drain_step_s == 0);
  GemmProblem nt_fp8 = nt;
  nt_fp8.dtype = Dtype::fp8;
  CHECK(estimate_with(triton_tutorial_target(), nt_fp8, h200, wide).matrix_drain_step_s == 0);
  GemmProblem nt_fp16 = nt;
  nt_fp16.dtype = Dtype::fp16;
  CHECK(estimate_with(triton_tutorial_target(), nt_fp16, h200, wide).matrix_drain_step_s > 0);
  // Not on Blackwell (tcgen05, accumulators in tensor memory) nor on AMD (MFMA is one warp's).
  for (const char* gpu : {"b200", "mi300x"})
    CHECK(estimate_with(triton_tutorial_target(), nt, load_profile(gpu), wide).matrix_drain_step_s == 0);
}

TEST_CASE("wrapped offsets load whole tiles: an edge tile's padding is real traffic", "[targets][tutorial]") {
  // M = 1 (decode), a 16x64 tile, K-step 64, bf16, one tile per SM: the masked kernel loads 1 row
  // of A and 64 columns of B per step, (1 + 64) * 64 * 2 = 8320 bytes; the tutorial's `% M` makes
  // the tile load row 0 sixteen times, (16 + 64) * 64 * 2 = 10240 bytes. 64 tiles (N = 4096) on 64
  // SMs: the L2 term is requested bytes over min(L2 10 TB/s, 64 SMs * 128 GB/s = 8.192 TB/s,
  // 10 TB/s * dram_active_cu_headroom 16 * 64/100 = 102 TB/s) = 8.192 TB/s.
  const Profile hw = test_util::toy();
  const GemmProblem p = parse_shape("1x4096x4096");
  const TileConfig c = cfg(16, 64, 64, 4, 3);
  const Estimate masked = estimate_with(triton_target(), p, hw, c);
  const Estimate wrapped = estimate_with(triton_tutorial_target(), p, hw, c);
  REQUIRE(masked.feasible);
  REQUIRE(wrapped.feasible);
  REQUIRE(triton_target().default_params().dram_active_cu_headroom >= 1.28);  // 10 TB/s * h * 0.64 >= 8.192
  CHECK(masked.l2_step_s == Approx(64 * 8320.0 / 8.192e12));
  CHECK(wrapped.l2_step_s == Approx(64 * 10240.0 / 8.192e12));
  // The distinct bytes are the same: DRAM sees one row of A however often a tile re-reads it.
  CHECK(wrapped.dram_step_s == Approx(masked.dram_step_s));
  // The SM copies the 16 rows of A in whole lines too: 16 lines of 128 bytes instead of 1.
  CHECK(wrapped.cu_load_step_s > masked.cu_load_step_s);
}

TEST_CASE("the block-scaled fp8 kernel pays for its scales every K-step", "[targets][fp8-block]") {
  const Profile hw = toy_fp8();
  const Target& t = vllm_fp8_block_target();
  GemmProblem p = parse_shape("6400x256x4096");  // 100 tiles of 64x256: one per SM
  p.dtype = Dtype::fp8;
  const TileConfig c = cfg(64, 256, 128, 4, 3, 1, 1);
  const Estimate e = estimate_with(t, p, hw, c);
  REQUIRE(e.feasible);
  CHECK(e.occupancy == 1);  // smem 3 * (64*128 + 128*256) = 122880 bytes: one block per SM
  // Scale multiply: 3 lane-ops (two multiplies, one add) per output element, 3 * 64 * 256 = 49152,
  // on 128 lanes at 1 GHz = 384 ns per step.
  CHECK(e.vector_step_s == Approx(3.0 * 64 * 256 / (128 * 1e9)));
  // The product must complete before it is scaled: math + vector + overhead, nothing overlapped.
  // Math: 2 * 64 * 256 * 128 = 4,194,304 FLOP at 2048 FLOP/cycle * 1 GHz = 2.048 us.
  const ModelParams mp = vllm_fp8_block_target().default_params();
  CHECK(e.compute_step_s == Approx(2.048e-6 + 384e-9 + mp.k_step_overhead_cycles / 1e9));
  // Two fp32 tiles live per thread (the accumulator and the fresh product): 2 * 64*256/128 = 256
  // accumulators, past the 255-register cap: what spills is the cap's excess, not infeasible.
  CHECK(e.registers_per_thread == 255);
  // The same tile in the plain masked kernel keeps one tile: 128 + the overhead, no spill.
  GemmProblem bf = p;
  bf.dtype = Dtype::bf16;
  CHECK(estimate_with(triton_target(), bf, hw, cfg(64, 256, 128, 4, 3)).registers_per_thread ==
        Approx(128 + mp.register_overhead_per_thread));
}

TEST_CASE("the block-scaled fp8 kernel takes only its own problems and configs", "[targets][fp8-block]") {
  const Profile hw = toy_fp8();
  const Target& t = vllm_fp8_block_target();
  GemmProblem p = parse_shape("256x7168x7168");
  p.dtype = Dtype::fp8;
  CHECK(t.problem_error(p, hw).empty());
  CHECK_THAT(t.infeasibility(cfg(64, 128, 256, 4, 3), p, hw), Catch::Contains("divide the 128-wide"));
  CHECK_THAT(t.infeasibility(cfg(64, 128, 128, 4, 3, 2), p, hw), Catch::Contains("no split-K"));
  CHECK(t.infeasibility(vllm_fp8_block_default_config(), p, hw).empty());
  CHECK(vllm_fp8_block_default_config().text() == "64x128x128:4:2:g32");
  // Without the FP32 lane count the scale math cannot be estimated: a clear error, not a guess.
  CHECK_THAT(t.problem_error(p, test_util::toy()), Catch::Contains("fp8"));
  const Profile no_lanes = parse_profile(replaced(replaced(toy_text(), "  fp16: {", "  fp8: {instruction_m: 16, instruction_n: 8, instruction_k: 32, flops_per_cycle_per_cu: 2048}\n  fp16: {"), "name: toy", "name: toy2"), "t.yaml");
  CHECK_THAT(t.problem_error(p, no_lanes), Catch::Contains("vector_fp32_lanes_per_cu"));
}

TEST_CASE("a given config beyond the profile's max_num_stages is infeasible on every target", "[targets][fp8-block]") {
  // vllm-fp8-block estimated such a config as feasible (explain --config ...:5 with max_num_stages 1
  // gave a time) while the other targets refused it: a fresh user's find, 2026-12-04.
  Profile hw = load_profile("h200");
  hw.triton.max_num_stages = 1;
  hw.triton.default_num_stages = 1;
  GemmProblem p = parse_shape("64x7168x2048");
  for (const Target* t : {&triton_target(), &triton_tutorial_target(), &vllm_fp8_block_target()}) {
    INFO(t->info().name);
    p.dtype = t == &vllm_fp8_block_target() ? Dtype::fp8 : Dtype::bf16;
    const TileConfig c = cfg(64, 32, 128, 4, 5, 1, 1);
    const EstimateContext ctx = t->context(p, hw);
    CHECK_FALSE(t->estimate(ctx, c).feasible);
    CHECK_FALSE(t->estimate_latency(ctx, c).feasible);
    CHECK_THAT(t->infeasibility(c, p, hw), Catch::Contains("num_stages = 5 is outside 1..1"));
  }
}

TEST_CASE("a profile sets model parameters for every target and for one", "[targets][hardware]") {
  const std::string base = toy_text();
  const Profile all = parse_profile(base + "model_parameters:\n  k_step_overhead_cycles: 100\n", "a.yaml");
  CHECK(all.params_for("triton", triton_target().default_params()).k_step_overhead_cycles == 100);
  CHECK(all.params_for("triton-tutorial", triton_tutorial_target().default_params()).k_step_overhead_cycles == 100);
  const Profile one = parse_profile(base + "model_parameters:\n  k_step_overhead_cycles: 100\n"
                                           "targets:\n  triton-tutorial:\n    model_parameters:\n      k_step_overhead_cycles: 7\n",
                                    "b.yaml");
  CHECK(one.params_for("triton", triton_target().default_params()).k_step_overhead_cycles == 100);
  CHECK(one.params_for("triton-tutorial", triton_tutorial_target().default_params()).k_step_overhead_cycles == 7);
  CHECK_THROWS_WITH(parse_profile(base + "targets:\n  cutlass:\n    model_parameters: {}\n", "c.yaml"),
                    Catch::Contains("c.yaml:") && Catch::Contains("unknown target 'cutlass'"));
  CHECK_THROWS_WITH(parse_profile(base + "targets:\n  triton:\n    model_parameters:\n      near_tie_tolerance: 5\n", "d.yaml"),
                    Catch::Contains("d.yaml:") && Catch::Contains("targets.triton.model_parameters.near_tie_tolerance"));
}

TEST_CASE("a space from candidates() needs no rule checks: the same estimates with and without them", "[targets]") {
  // EstimateContext::configs_from_space skips the per-config rule checks for configs the target's
  // own candidates() generated. Every estimate of every candidate must be bit-identical either way,
  // for every target, shipped profile and dtype, on shapes from decode to prefill, unaligned too.
  const std::vector<std::string> profiles = {"h200", "a100", "b200", "mi300x", "mi350x"};
  const std::vector<std::string> shapes = {"1x4096x4096", "16x6144x4096", "300x4096x4095", "4096x4096x4096",
                                           "65536x128x128", "1000x1000x1000"};
  std::size_t compared = 0;
  for (const std::string& name : profiles) {
    const Profile profile = load_profile(name);
    for (const Target* t : all_targets()) {
      for (const std::string& text : shapes) {
        for (const Dtype dtype : {Dtype::bf16, Dtype::fp8}) {
          GemmProblem p = parse_shape(text, problem_defaults_for(t->info(), "", ""));
          if (p.is_moe()) continue;  // vllm-fused-moe takes MoE layers (it keeps its checks)
          p.dtype = dtype;
          if (!t->problem_error(p, profile).empty()) continue;
          std::vector<TileConfig> space;
          t->candidates(p, profile, space);
          EstimateContext checked = t->context(p, profile);
          EstimateContext trusted = checked;
          trusted.configs_from_space = true;
          std::vector<LatencyEstimate> a(space.size()), b(space.size());
          t->estimate_latencies(checked, space.data(), space.size(), a.data());
          t->estimate_latencies(trusted, space.data(), space.size(), b.data());
          for (std::size_t i = 0; i < space.size(); ++i) {
            INFO(name << " " << t->name() << " " << text << " " << dtype_name(dtype) << " " << space[i].text());
            REQUIRE(a[i].feasible == b[i].feasible);
            REQUIRE(std::memcmp(&a[i].latency_s, &b[i].latency_s, sizeof(double)) == 0);
            ++compared;
          }
        }
      }
    }
  }
  CHECK(compared > 10000);
}

TEST_CASE("a wgmma tile alone on its CU with one warpgroup waits longer each K-step in the masked kernel",
          "[targets][model]") {
  // Measured on our H200 (model_params.hpp, lone_warpgroup_step_cycles: 107 cycles, the median over
  // 708 pairs of the same config with 4 and 8 warps, one block per CU, h200-triton-*.csv).
  // 4096^3 NT, 128x128x64, 4 stages on the H200 profile: 4 x 32 KiB of buffers, one block per SM;
  // 32 x 32 = 1024 tiles in 8 waves (the last of 100 blocks, still one per SM) of 64 K-steps, so
  // 4 warps take 8 * 64 * 107 / 1.83e9 s = 29.93 us longer than 8, whose terms are otherwise the
  // same (4 warps feed the SM's 4 tensor cores; 160 registers a thread fit).
  const Profile h200 = load_profile("h200");
  GemmProblem p = parse_shape("4096x4096x4096");
  p.layout = parse_layout("NT");
  const Estimate four = estimate_with(triton_target(), p, h200, cfg(128, 128, 64, 4, 4));
  const Estimate eight = estimate_with(triton_target(), p, h200, cfg(128, 128, 64, 8, 4));
  REQUIRE(four.feasible);
  REQUIRE(eight.feasible);
  CHECK(four.occupancy == 1);
  CHECK(four.lone_warpgroup_step_s == Approx(107 / 1.83e9).epsilon(1e-9));
  CHECK(eight.lone_warpgroup_step_s == 0);
  CHECK(four.latency_s - eight.latency_s == Approx(8 * 64 * 107 / 1.83e9).epsilon(1e-6));
  // A config two of whose blocks fit a CU (3 stages: 96 KiB each) has a second warpgroup there in
  // every full wave (measured by occupancy: with two blocks 24 cycles, taken as none).
  const Estimate shared = estimate_with(triton_target(), p, h200, cfg(128, 128, 64, 4, 3));
  CHECK(shared.occupancy == 2);
  CHECK(shared.lone_warpgroup_step_s == 0);
  // Not the tutorial kernel (measured: none), not mma.sync (2 warps), not tensor memory (B200).
  CHECK(estimate_with(triton_tutorial_target(), p, h200, cfg(128, 128, 64, 4, 4)).lone_warpgroup_step_s == 0);
  CHECK(estimate_with(triton_target(), p, h200, cfg(128, 128, 64, 2, 4)).lone_warpgroup_step_s == 0);
  CHECK(estimate_with(triton_target(), p, load_profile("b200"), cfg(128, 128, 64, 4, 4)).lone_warpgroup_step_s == 0);
  // Nor the fused-MoE kernel, whose parameters (both sets) start from vllm-fp8-block's 0 (README says so).
  CHECK(vllm_fused_moe_target().default_params().lone_warpgroup_step_cycles == 0);
  for (std::string_view variant : vllm_fused_moe_target().param_variants())
    CHECK(vllm_fused_moe_target().variant_default_params(variant).lone_warpgroup_step_cycles == 0);
}

TEST_CASE("output rows that are not whole 32-byte sectors are written at the profile's misaligned rate", "[targets][model]") {
  // Measured on our H200 (profiles/h200.yaml, efficiency.misaligned_store_fraction 0.55,
  // h200-store-align.csv): 10020 x 2216 bf16 rows are 4432 bytes, 138.5 sectors; 10020 x 2224 are
  // 4448 bytes, 139. The wave's store is the L2 latency plus the larger of its bytes at the DRAM
  // write rate and the busiest SM's at its fill rate; with K = 16 a 64x64 tile's bytes at DRAM rate
  // dominate, so the rate at 0.55 makes that part 1 / 0.55 as long. The same profile with the
  // fraction at 1 is the reference (the store depends on nothing else the fraction touches; both
  // count the sectors the tile's rows touch alike, store_sector_factor, below).
  const Profile h200 = load_profile("h200");
  std::string text;
  for (const EmbeddedProfile& e : embedded_profiles())
    if (e.name == "h200") text = std::string(e.yaml);
  REQUIRE(text.find("misaligned_store_fraction: 0.55") != std::string::npos);
  const Profile whole = parse_profile(replaced(text, "misaligned_store_fraction: 0.55", "misaligned_store_fraction: 1"), "h200-1.yaml");
  const TileConfig c = cfg(64, 64, 16, 4, 3);
  const GemmProblem odd = parse_shape("10020x2216x16");
  const Estimate slow = estimate_with(triton_target(), odd, h200, c);
  const Estimate fast = estimate_with(triton_target(), odd, whole, c);
  REQUIRE(slow.feasible);
  CHECK(slow.store_s - h200.hw.l2_latency_s == Approx((fast.store_s - h200.hw.l2_latency_s) / 0.55).epsilon(1e-9));
  CHECK(slow.latency_s > fast.latency_s);
  // Whole sectors (N = 2224): no difference. Split-K partials are fp32: N = 2216 gives 8864-byte
  // rows, 277 sectors, so a split launch writes them at the full rate.
  const GemmProblem even = parse_shape("10020x2224x16");
  CHECK(estimate_with(triton_target(), even, h200, c).store_s == estimate_with(triton_target(), even, whole, c).store_s);
  const GemmProblem deep = parse_shape("64x2216x65536");
  const TileConfig split = cfg(64, 64, 64, 4, 3, 8);
  const Estimate split_slow = estimate_with(triton_target(), deep, h200, split);
  REQUIRE(split_slow.feasible);
  CHECK(split_slow.store_s == estimate_with(triton_target(), deep, whole, split).store_s);
  // The split-K reduction kernel writes the bf16 output once: the same misaligned rows, at the same
  // rate (a fresh user's find: it was charged the full DRAM rate). With M = 4096 its bytes outweigh
  // its loop's latencies, so the rate at 0.55 adds the output's bytes (1 / 0.55 - 1) times more at
  // the DRAM rate: 4096 x 2216 x 2 bytes. Its fp32 partials (8864-byte rows, whole sectors) are only
  // read there; its own launch writes whole rows of a flat block, not tiles (no sector factor).
  const GemmProblem tall = parse_shape("4096x2216x16384");
  const TileConfig split4 = cfg(128, 128, 64, 8, 3, 4);
  const Estimate reduce_slow = estimate_with(triton_target(), tall, h200, split4);
  const Estimate reduce_fast = estimate_with(triton_target(), tall, whole, split4);
  REQUIRE(reduce_slow.feasible);
  const double dram_bytes_per_s = h200.hw.dram_bandwidth_bytes_per_s * h200.hw.dram_bandwidth_fraction;
  CHECK(reduce_slow.split_k_reduce_s ==
        Approx(reduce_fast.split_k_reduce_s + 4096.0 * 2216 * 2 * (1 / 0.55 - 1) / dram_bytes_per_s));
  const GemmProblem tall_even = parse_shape("4096x2224x16384");
  CHECK(estimate_with(triton_target(), tall_even, h200, split4).split_k_reduce_s ==
        estimate_with(triton_target(), tall_even, whole, split4).split_k_reduce_s);
}

TEST_CASE("a misaligned row's tile is written as the 32-byte sectors it touches", "[targets][model]") {
  // Hand counts (model_core.hpp, store_sector_factor; forty-second session). A 16-wide bf16 tile of
  // 4095-wide rows (8190 bytes: offsets every 2 bytes in a sector) writes 32 bytes a row, one sector
  // at offset 0, two at the other 15 offsets: 31 / 16 sectors, 1.9375 x its bytes. 2500-wide fp16
  // rows (5000 bytes, 8 past a sector): offsets 0, 8, 16, 24, so 1.75. A 64-wide tile there (128
  // bytes): 4 sectors at offset 0, 5 at the other three: 4.75 / 4. 2216-wide bf16 rows (4432 bytes,
  // 16 past): a 64-wide tile at offsets 0 and 16, 4.5 / 4 = 1.125; a 256-wide one 16.5 / 16. Whole
  // sectors (2224-wide, 4448 bytes) and fp32 partials of 2216 (8864 bytes) count their bytes; so do
  // AMD's profiles (no public partial-line figure). On our H100 this puts 256x16x16 w4 of 16000 x
  // 2500 x 7 fp16 TN at 65 us (measured 87.5, predicted 42.6 before), h100-unaligned-onestep-check.csv.
  const Profile h100 = load_profile("h100");
  const auto factor = [&](const char* shape, Dtype dtype, double block_n, double elem_bytes) {
    GemmProblem p = parse_shape(shape);
    p.dtype = dtype;
    const EstimateContext ctx = make_estimate_context(p, h100, triton_target().problem_params(p, h100));
    return store_sector_factor(ctx, block_n, elem_bytes);
  };
  CHECK(factor("4096x4095x16", Dtype::bf16, 16, 2) == Approx(31.0 / 16));
  CHECK(factor("16000x2500x7", Dtype::fp16, 16, 2) == Approx(1.75));
  CHECK(factor("16000x2500x7", Dtype::fp16, 64, 2) == Approx(4.75 / 4));
  CHECK(factor("10020x2216x16", Dtype::bf16, 64, 2) == Approx(1.125));
  CHECK(factor("10020x2216x16", Dtype::bf16, 256, 2) == Approx(16.5 / 16));
  CHECK(factor("10020x2224x16", Dtype::bf16, 16, 2) == 1.0);
  CHECK(factor("10020x2216x16", Dtype::bf16, 64, 4) == 1.0);
  // A tile wider than the row writes the row: N = 100 bf16 (200 bytes, 8 past a sector) at
  // offsets 0, 8, 16, 24 touches 7 sectors at each (the last ends at byte 224, on a boundary):
  // 7 x 32 / 200.
  CHECK(factor("64x100x64", Dtype::bf16, 256, 2) == Approx(7.0 * 32 / 200));
  GemmProblem amd_p = parse_shape("4096x4095x16");
  const Profile mi300x = load_profile("mi300x");
  CHECK(store_sector_factor(make_estimate_context(amd_p, mi300x, triton_target().problem_params(amd_p, mi300x)), 16, 2) ==
        1.0);
  // The estimate follows: on 16000 x 2500 x 7 fp16 TN the 256x16 tile's store takes longer than the
  // 32x256 one's per byte, where it took the same before.
  GemmProblem tn = parse_shape("16000x2500x7");
  tn.dtype = Dtype::fp16;
  tn.layout = parse_layout("TN");
  const Estimate narrow = estimate_with(triton_target(), tn, h100, cfg(256, 16, 16, 4, 3));
  REQUIRE(narrow.feasible);
  CHECK(narrow.latency_s > 60e-6);
}

TEST_CASE("the triton kernel's epilogue needs the fp32 tile in shared memory on N not a multiple of 16",
          "[targets][feasibility]") {
  // Measured on our H200 (Triton 3.6, data/measurements/h200-triton-m.csv; profiles/h200.yaml,
  // triton.misaligned_store_scratch_min_warps 8): on N = 50257 every 256x256 config with 8 warps
  // failed to compile ("Required: 262144" = 256 * 256 * 4 bytes), the same with 4 warps and
  // 128x256 with 8 ran; with N a multiple of 16 256x256 with 8 warps ran (sets h, i, k, l).
  const Profile h200 = load_profile("h200");
  REQUIRE(h200.triton.misaligned_store_scratch_min_warps == 8);
  const GemmProblem odd = parse_shape("512x50257x768");
  const GemmProblem even = parse_shape("512x50304x768");
  const TileConfig big8 = cfg(256, 256, 64, 8, 3);
  CHECK_FALSE(estimate_with(triton_target(), odd, h200, big8).feasible);
  CHECK(triton_target().infeasibility(big8, odd, h200).find("needs 262144 bytes of shared memory") != std::string::npos);
  CHECK(estimate_with(triton_target(), even, h200, big8).feasible);
  CHECK(triton_target().infeasibility(big8, even, h200).empty());
  CHECK(estimate_with(triton_target(), odd, h200, cfg(256, 256, 64, 4, 3)).feasible);
  // 128x256 with 8 warps fits, and its block then takes the larger of the scratch (131072 bytes)
  // and its operand buffers: at 1 stage these are (128 * 16 + 16 * 256) * 2 = 12288 bytes.
  const Estimate mid = estimate_with(triton_target(), odd, h200, cfg(128, 256, 16, 8, 1));
  REQUIRE(mid.feasible);
  CHECK(mid.smem_bytes == 131072);
  CHECK(estimate_with(triton_target(), even, h200, cfg(128, 256, 16, 8, 1)).smem_bytes == 12288);
  // The space leaves out what the kernel cannot compile, and keeps the rest.
  std::vector<TileConfig> space;
  triton_target().candidates(odd, h200, space);
  bool has_big8 = false, has_big4 = false;
  for (const TileConfig& c : space) {
    has_big8 |= c.block_m == 256 && c.block_n == 256 && c.num_warps == 8;
    has_big4 |= c.block_m == 256 && c.block_n == 256 && c.num_warps == 4;
  }
  CHECK_FALSE(has_big8);
  CHECK(has_big4);
  // The tutorial kernel has no fp32 split-K store and compiled 256x256x16 with 8 warps on odd N
  // (h200-tutorial-b.csv, 4096x4095x4096 NN): the rule is the triton kernel's.
  CHECK(estimate_with(triton_tutorial_target(), parse_shape("4096x4095x4096"), h200, cfg(256, 256, 16, 8, 5)).feasible);
  // A profile without the figure (every GPU not measured) keeps the operand buffers alone.
  Profile other = h200;
  other.triton.misaligned_store_scratch_min_warps = 0;
  CHECK(estimate_with(triton_target(), odd, other, big8).feasible);
}
