#include <catch2/catch.hpp>

#include <set>
#include <tuple>

#include "gemm_advisor/evaluate.hpp"
#include "gemm_advisor/hardware.hpp"
#include "gemm_advisor/targets/triton.hpp"
#include "gemm_advisor/targets/vllm_fp8_block.hpp"
#include "test_util.hpp"

using namespace gemm_advisor;

TEST_CASE("shared memory follows the vendor's Triton buffering", "[triton]") {
  TileConfig c;  // 128x128x64, 3 stages
  c.block_m = 128;
  c.block_n = 128;
  c.block_k = 64;
  c.num_stages = 3;
  // Hand calculation: one stage = (128*64 + 64*128) * 2 bytes = 32768 bytes.
  const Profile nv = load_profile("h200");
  // The H200's wgmma kernels keep num_stages buffers, its mma.sync ones num_stages - 1 (measured: the
  // compile grid of data/measurements/h200-triton-extra.csv).
  CHECK(triton_smem_bytes(c, Dtype::bf16, nv.triton, true) == 3 * 32768);
  CHECK(triton_smem_bytes(c, Dtype::bf16, nv.triton, false) == 2 * 32768);
  CHECK(triton_smem_bytes(c, Dtype::fp8, nv.triton, true) == 3 * 16384);
  // Triton's own figures on that grid: 256x256x128 with 3 stages asks 393216 bytes with 8 warps
  // (wgmma) and 262144 with 2 warps (mma.sync).
  const GemmProblem p = parse_shape("4096x4096x4096");
  TileConfig big = test_util::cfg(256, 256, 128, 8, 3);
  CHECK_THAT(triton_infeasibility(big, p, nv), Catch::Contains("needs 393216 bytes"));
  big.num_warps = 2;
  CHECK_THAT(triton_infeasibility(big, p, nv), Catch::Contains("needs 262144 bytes"));
  // Upstream Triton on gfx950 copies asynchronously into LDS and keeps num_stages buffers (ROCm/
  // tritonBLAS #62: 128x256x128 with 2 stages overflows the MI350X's 160 KiB: 196608 bytes).
  const Profile amd = load_profile("mi350x");
  CHECK(triton_smem_bytes(c, Dtype::bf16, amd.triton, true) == 3 * 32768);
  CHECK_THAT(triton_infeasibility(test_util::cfg(128, 256, 128, 8, 2), p, amd), Catch::Contains("needs 196608 bytes"));
}

TEST_CASE("what compiled on the H200 is feasible, what failed is not", "[triton][feasibility]") {
  // The compile grid of data/measurements/h200-triton-extra.csv (4096^3 bf16 NT, 3 stages; typed in
  // from its status column): every config there compiled and ran except these 19.
  const Profile hw = load_profile("h200");
  const GemmProblem p = parse_shape("4096x4096x4096");
  const std::set<std::tuple<int, int, int, int>> failed = {
      {64, 256, 128, 4},  {64, 256, 128, 8},  {64, 256, 128, 16}, {128, 256, 128, 4}, {128, 256, 128, 8},
      {128, 256, 128, 16}, {256, 64, 128, 4}, {256, 64, 128, 8},  {256, 64, 128, 16}, {256, 128, 128, 4},
      {256, 128, 128, 8}, {256, 128, 128, 16}, {256, 256, 32, 16}, {256, 256, 64, 16}, {256, 256, 128, 1},
      {256, 256, 128, 2}, {256, 256, 128, 4}, {256, 256, 128, 8}, {256, 256, 128, 16}};
  std::size_t agree = 0, total = 0;
  for (int bm : {16, 32, 64, 128, 256})
    for (int bn : {16, 32, 64, 128, 256})
      for (int bk : {32, 64, 128})
        for (int w : {1, 2, 4, 8, 16}) {
          const bool compiled = !failed.count({bm, bn, bk, w});
          const bool feasible = triton_infeasibility(test_util::cfg(bm, bn, bk, w, 3), p, hw).empty();
          ++total;
          agree += compiled == feasible;
          if (compiled != feasible) UNSCOPED_INFO(bm << "x" << bn << "x" << bk << " w" << w << " compiled=" << compiled);
        }
  CHECK(total == 375);
  CHECK(agree == total);
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
      // 127x4095x1023 NT: both operands unaligned, one buffer each (triton_operand_pipelining)
      // where the profile leaves narrow loads out of the pipeline.
      const TritonPipelining pipelined = triton_operand_pipelining(p, hw.triton);
      for (const TileConfig& c : cands) {
        CHECK(triton_smem_bytes(c, p.dtype, hw.triton, triton_full_instruction(c, *hw.hw.rate(p.dtype), hw.hw),
                                pipelined) <= hw.hw.smem_per_block_bytes);
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

TEST_CASE("few-tile huge-K shapes split past two waves where more and shorter waves are faster", "[triton]") {
  // Measured on our H200 (data/measurements/h200-split-waves.csv, the plan committed before the call):
  // 1936x1072x160560 NN bf16 runs unsplit 128x256x64 w8 s4 in 1.5985 ms (the top-1 when the space
  // stopped at 2 waves of split tiles), split 8 over 4.8 waves in 1.1497 ms (the measured best).
  const Profile hw = load_profile("h200");
  GemmProblem p = parse_shape("1936x1072x160560");
  p.layout = parse_layout("NN");
  std::vector<TileConfig> cands;
  triton_candidates(p, hw, cands);
  int most_split = 1;
  for (const auto& c : cands) most_split = std::max(most_split, c.split_k);
  CHECK(most_split >= 16);  // 72-80 tiles x 16 splits: 8.7-9.7 waves, within the 16-wave bound
  const auto ranked = test_util::rank_space(p, hw, 1);
  REQUIRE(!ranked.empty());
  CHECK(ranked.front().config.split_k >= 8);
  // The eight problems: the top-1 over the measured configs (each problem's full-space top-1 is among
  // them) at 94.1% of the best measured, worst 82.9% (90.2% and 71.9% with the 2-wave space).
  const Evaluation e =
      evaluate(read_measurements(test_util::source_path("data/measurements/h200-split-waves.csv")), hw, triton_target());
  REQUIRE(e.shapes.size() == 8);
  CHECK(e.geomean_pct_of_oracle >= 94.0);
  CHECK(e.worst_pct_of_oracle >= 82.0);
}

TEST_CASE("co-resident blocks hide half of each other's per-step overhead (triton, fitted)", "[triton]") {
  // Measured on our H200 (data/measurements/h200-triton-extra.csv, family batched, values.h64.s512.d64):
  // 64 x 512x64x512 NN bf16 runs 128x64x64 w4 s4 (two blocks an SM) in 18.37 us, the fastest of the
  // 67 configs timed, and 256x64x32 w4 s5 (one block an SM) in 22.82 us. Charging each co-resident
  // block its whole per-step overhead (coresident_overhead_overlap 0) ranked the 256-row tile first of
  // the timed configs, 80.5% of the best; with the fitted 0.5 the 128-row tile's predicted time falls
  // from 14.78 to 14.63 us, within the near-tie tolerance of the other's 14.45, and it goes first.
  const Profile hw = load_profile("h200");
  REQUIRE(triton_target().default_params().coresident_overhead_overlap == 0.5);
  GemmProblem p = parse_shape("512x64x512x64");
  p.layout = parse_layout("NN");
  const std::vector<TileConfig> timed = {parse_tile_config("256x64x32:4:5"), parse_tile_config("128x64x64:4:4")};
  std::string h200_yaml;
  for (const EmbeddedProfile& e : embedded_profiles())
    if (e.name == "h200") h200_yaml = e.yaml;
  REQUIRE(!h200_yaml.empty());
  const Profile before = parse_profile(
      h200_yaml + "\ntargets:\n  triton:\n    model_parameters: {coresident_overhead_overlap: 0}\n", "h200-before.yaml");
  std::vector<RankedConfig> now, then;
  rank_configs(triton_target(), p, hw, timed, now, 1);
  rank_configs(triton_target(), p, before, timed, then, 1);
  REQUIRE(!now.empty());
  REQUIRE(!then.empty());
  CHECK(now.front().config.block_m == 128);
  CHECK(then.front().config.block_m == 256);
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
  c.num_warps = 16;  // one m64n256 wgmma: 128 registers a thread, at a cap of 65536 / 512 threads = 128
  CHECK_THAT(triton_infeasibility(c, p, hw), Catch::Contains("128 registers a thread"));
  c.num_warps = 4;  // 512 accumulators a thread: it spills, but compiles and runs (slowly)
  CHECK(triton_infeasibility(c, p, hw).empty());
  // Past the profile's search bound (max_num_stages 6) alone: said as that (Python's shortlist keeps
  // such configs, unranked). Past it and over the shared memory (128x128x64 at 9 stages: 9 x 32 KiB =
  // 294,912 bytes): the shared memory, the bound checked last (2026-12-07).
  c = TileConfig{};
  c.block_m = c.block_n = 32;
  c.block_k = 32;
  c.num_warps = 4;
  c.num_stages = 9;
  CHECK_THAT(triton_infeasibility(c, p, hw), Catch::Contains("num_stages = 9"));
  c = TileConfig{};
  c.num_stages = 9;
  CHECK_THAT(triton_infeasibility(c, p, hw), Catch::Contains("needs 294912 bytes of shared memory"));
}

TEST_CASE("Blackwell: tcgen05 accumulates in tensor memory, not in registers", "[triton][blackwell]") {
  // profiles/b200.yaml: 256 KiB of tensor memory per SM (PTX ISA: 128 lanes x 512 columns of 32
  // bits); Triton issues tcgen05 (MMAv5) for 4 or 8 warps and a block M that is a multiple of 64
  // (triton-lang/triton lib/Analysis/Utility.cpp, supportMMA), else mma.sync with the accumulator
  // in registers.
  const Profile b200 = load_profile("b200");
  const Profile h200 = load_profile("h200");
  const GemmProblem p = parse_shape("8192x8192x8192");
  const MatrixRate& rate = *b200.hw.rate(Dtype::bf16);
  // 256x256x64 with 8 warps and 3 stages: on the H200 (wgmma) 256 fp32 accumulators a thread, over
  // the 255-register cap: they spill every K-step; on the B200 none is in a register.
  const TileConfig big = test_util::cfg(256, 256, 64, 8, 3);
  const TritonResources rb = triton_resources(big, Dtype::bf16, rate, b200.hw, b200.triton, 32);
  CHECK(rb.full_instruction);
  CHECK(rb.accumulator_registers == 0);
  CHECK(rb.tile_registers == 256.0);  // 256 * 256 / 256 threads
  CHECK(rb.tensor_memory_bytes == 262144);  // 256 x 256 x 4 bytes: the whole tensor memory
  CHECK(rb.check == TritonResourceCheck::ok);
  const Estimate eb = test_util::estimate(p, b200, big);
  const Estimate eh = test_util::estimate(p, h200, big);
  REQUIRE(eb.feasible);
  REQUIRE(eh.feasible);
  CHECK(eh.registers_per_thread == 255.0);  // capped: the rest spills
  CHECK(eb.registers_per_thread == 32.0);   // the kernel's other registers only (the 32 reserve)
  CHECK(eb.occupancy == 1);
  // Tensor memory bounds occupancy where registers and shared memory would not: 128x256x32 with
  // 4 warps and 2 stages needs 2 * (128*32 + 32*256) * 2 = 49152 bytes of shared memory (4 blocks
  // fit its 228 KiB) and 128 x 256 x 4 = 131072 bytes of tensor memory (2 blocks).
  CHECK(test_util::estimate(p, b200, test_util::cfg(128, 256, 32, 4, 2)).occupancy == 2);
  // A 64-row block takes all 128 lanes of its columns: 128 x 128 x 4 bytes for 64x128.
  const TileConfig narrow = test_util::cfg(64, 128, 64, 4, 3);
  const TritonResources rn = triton_resources(narrow, Dtype::bf16, rate, b200.hw, b200.triton, 32);
  CHECK(rn.full_instruction);
  CHECK(rn.tensor_memory_bytes == 65536);
  // 2 warps: mma.sync, accumulators in registers, no tensor memory.
  const TritonResources r2 =
      triton_resources(test_util::cfg(64, 128, 64, 2, 3), Dtype::bf16, rate, b200.hw, b200.triton, 32);
  CHECK(!r2.full_instruction);
  CHECK(r2.accumulator_registers == 64 * 128 / 64.0);
  CHECK(r2.tensor_memory_bytes == 0);
  // 32-row blocks are below tcgen05's smallest M.
  CHECK(!triton_full_instruction(test_util::cfg(32, 128, 64, 4, 3), rate, b200.hw));
  // Nor 16 or 32 warps (Triton's TMEM loads and stores take 4 or 8: kTcgen05MaxWarps): mma.sync,
  // the accumulator in registers, 128 x 128 / 512 threads = 32 each (a fresh expert's find, 2026-12-07).
  CHECK(triton_full_instruction(test_util::cfg(128, 128, 64, 8, 3), rate, b200.hw));
  const TritonResources r16 =
      triton_resources(test_util::cfg(128, 128, 64, 16, 3), Dtype::bf16, rate, b200.hw, b200.triton, 32);
  CHECK(!r16.full_instruction);
  CHECK(r16.accumulator_registers == 128 * 128 / 512.0);
  CHECK(r16.tensor_memory_bytes == 0);
  // 32 warps: feasible, mma.sync's accumulator is 4 registers a thread (m16n8 over 32 threads, PTX
  // ISA), well under the 64-register cap of 1024 threads beside the 32 reserved; tcgen05's 128 x 16
  // over one warp, 64, had refused every 32-warp config (a fresh expert's find, 2026-12-07).
  const Estimate e32 = test_util::estimate(p, b200, test_util::cfg(128, 128, 64, 32, 3));
  CHECK(e32.feasible);
  CHECK(!e32.accumulator_in_tensor_memory);
  const TritonResources r32 =
      triton_resources(test_util::cfg(64, 64, 64, 32, 2), Dtype::bf16, rate, b200.hw, b200.triton, 32);
  CHECK(r32.instruction_registers == 16 * 8 / 32.0);
  CHECK(r32.check == TritonResourceCheck::ok);
  // mma.sync keeps num_stages - 1 operand buffers, as measured on our H200 (sync_mma_smem_stage_offset
  // 1, taken over): 32x128x64 bf16 at 3 stages, 2 x (32*64 + 64*128) x 2 = 40960 bytes; tcgen05's
  // 128x128x64 keeps 3: 3 x (128*64 + 64*128) x 2 = 98304.
  CHECK(triton_resources(test_util::cfg(32, 128, 64, 4, 3), Dtype::bf16, rate, b200.hw, b200.triton, 32).smem_bytes ==
        40960);
  CHECK(triton_resources(test_util::cfg(128, 128, 64, 4, 3), Dtype::bf16, rate, b200.hw, b200.triton, 32).smem_bytes ==
        98304);
  // A 512x512 accumulator (1 MiB) cannot be allocated.
  CHECK_THAT(triton_infeasibility(test_util::cfg(512, 512, 16, 8, 1), p, b200),
             Catch::Contains("1048576 bytes of tensor memory"));
  // One warp on mma.sync feeds one of the SM's 4 sub-partitions' tensor cores (warps_to_feed 4:
  // only the fallback needs it; tcgen05 configs have 4 or 8 warps): 2 such blocks per SM, half.
  const Estimate one_warp = test_util::estimate(p, b200, test_util::cfg(128, 128, 64, 1, 3));
  REQUIRE(one_warp.feasible);
  CHECK(!one_warp.accumulator_in_tensor_memory);
  CHECK(one_warp.matrix_unit_utilization == Approx(0.25 * one_warp.occupancy));
  CHECK(eb.accumulator_in_tensor_memory);
  CHECK(eb.tensor_memory_bytes == 262144.0);
  // vLLM's block-fp8 kernel scales each step's product: tcgen05 makes it in tensor memory (which
  // bounds the blocks per SM), the accumulator and the product are in registers.
  GemmProblem fp8 = parse_shape("4096x4096x4096");
  fp8.dtype = Dtype::fp8;
  const Target& vt = vllm_fp8_block_target();
  const Estimate ef = vt.estimate(vt.context(fp8, b200), test_util::cfg(64, 128, 128, 4, 4, 1, 1));
  REQUIRE(ef.feasible);
  CHECK(!ef.accumulator_in_tensor_memory);
  CHECK(ef.tensor_memory_bytes == 65536.0);   // max(64, 128) x 128 x 4
  CHECK(ef.registers_per_thread == 160.0);   // 2 x 64*128/128 + the 32 reserve
  // The H200 has no tensor memory: its resources are the register view as before.
  const TritonResources rh = triton_resources(big, Dtype::bf16, *h200.hw.rate(Dtype::bf16), h200.hw, h200.triton, 32);
  CHECK(rh.accumulator_registers == 256.0);
  CHECK(rh.tensor_memory_bytes == 0);
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

// Triton's pipeliner leaves loads narrower than 32 bits out of the software pipeline: an unaligned
// 16-bit operand (contiguous dimension not a multiple of 16 elements) keeps one shared-memory buffer.
// Expected bytes: Triton 3.6's own metadata.shared on our H200 (data/measurements/h200-resource-probe.csv,
// the tutorial kernel, 128x128x64 with 8 warps; one buffer of either operand = 128*64*2 = 16384 bytes).
TEST_CASE("an unaligned 16-bit operand keeps one shared-memory buffer (measured)", "[triton][pipelining]") {
  const Profile nv = load_profile("h200");
  const TileConfig base = test_util::cfg(128, 128, 64, 8, 1);
  struct Case {
    const char* shape;
    const char* layout;
    int stages;
    std::int64_t measured_shared_bytes;
  };
  const Case cases[] = {
      {"4096x4096x4095", "NT", 1, 32768}, {"4096x4096x4095", "NT", 2, 32768},   // odd K in NT: A and B
      {"4096x4096x4095", "NT", 4, 32768},                                      //   unaligned, any stages
      {"2048x4096x1001", "NN", 2, 49152}, {"2048x4096x1001", "NN", 3, 65536},  // odd K in NN: A only
      {"4096x4095x4096", "NN", 4, 81920},                                      // odd N in NN: B only
      {"4095x4096x4096", "TN", 3, 65536},                                      // odd M in TN: A only
      {"4096x4096x4096", "NT", 3, 98304}};                                     // aligned: num_stages each
  for (const Case& k : cases) {
    INFO(k.shape << " " << k.layout << " s" << k.stages);
    GemmProblem p = parse_shape(k.shape);
    p.layout = parse_layout(k.layout);
    TileConfig c = base;
    c.num_stages = k.stages;
    CHECK(triton_smem_bytes(c, p.dtype, nv.triton, true, triton_operand_pipelining(p, nv.triton)) ==
          k.measured_shared_bytes);
  }
  // fp32 elements are 32 bits wide: an unaligned fp32 operand still pipelines (cp.async of 4 bytes).
  GemmProblem p32 = parse_shape("4096x4096x4095");
  p32.dtype = Dtype::fp32;
  const TritonPipelining fp32 = triton_operand_pipelining(p32, nv.triton);
  CHECK((fp32.a && fp32.b));
  // AMD CDNA 4 keeps narrow loads in the pipeline (profiles/mi350x.yaml, min_pipelined_load_bits 0).
  const TritonPipelining cdna4 = triton_operand_pipelining(parse_shape("4096x4096x4095"), load_profile("mi350x").triton);
  CHECK((cdna4.a && cdna4.b));
}

// Consequences the H200 measured (h200-triton-bf16.csv, the masked kernel on 1000x1000x1000 NT, both
// operands unaligned): the stage count changes nothing (128x64x64 with 8 warps: 30.0-30.4 us at 1 to
// 6 stages), and staged elements beyond the registers load one after another (128x128x64 with 8
// warps, 64 elements a thread at Triton's 255-register cap: 150 us, 5x 128x64x64's 30 us).
TEST_CASE("unaligned operands: no stage sensitivity, register-bound staging is slow", "[triton][pipelining]") {
  const Profile nv = load_profile("h200");
  GemmProblem p = parse_shape("1000x1000x1000");
  p.layout = parse_layout("NT");
  const double s1 = test_util::estimate(p, nv, test_util::cfg(128, 64, 64, 8, 1)).latency_s;
  for (int s = 2; s <= 6; ++s) CHECK(test_util::estimate(p, nv, test_util::cfg(128, 64, 64, 8, s)).latency_s == s1);
  const double bound = test_util::estimate(p, nv, test_util::cfg(128, 128, 64, 8, 3)).latency_s;
  CHECK(bound > 3.0 * s1);
  // The same configs on the aligned 1024^3 stay stage-sensitive and within 2x of each other.
  const GemmProblem a = parse_shape("1024x1024x1024");
  CHECK(test_util::estimate(a, nv, test_util::cfg(128, 64, 64, 8, 1)).latency_s >
        test_util::estimate(a, nv, test_util::cfg(128, 64, 64, 8, 3)).latency_s);
  CHECK(test_util::estimate(a, nv, test_util::cfg(128, 128, 64, 8, 3)).latency_s <
        2.0 * test_util::estimate(a, nv, test_util::cfg(128, 64, 64, 8, 3)).latency_s);
}
