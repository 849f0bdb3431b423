// Fused-MoE problems and the vllm-fused-moe target. Expected values are hand calculations (each
// says how), vLLM's own rules (fused_moe.py: get_default_config, get_config_file_name), or public
// model configs (config.json figures typed in, as tools/measure/make_plans.py quotes them).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "gemm_advisor/calibrate.hpp"
#include "gemm_advisor/emit.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/measurements.hpp"
#include "gemm_advisor/tile_config.hpp"
#include "gemm_advisor/moe.hpp"
#include "gemm_advisor/profile.hpp"
#include "gemm_advisor/targets/vllm_fused_moe.hpp"
#include "test_util.hpp"

using namespace gemm_advisor;
using test_util::cfg;

namespace {

GemmProblem moe(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t experts, std::int64_t top_k, MoeGemm gemm,
                MoeRouting routing = MoeRouting::uniform, Dtype dtype = Dtype::bf16) {
  GemmProblem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.dtype = dtype;
  p.moe.experts = experts;
  p.moe.top_k = top_k;
  p.moe.gemm = gemm;
  p.moe.routing = routing;
  if (dtype == Dtype::fp8) p.moe.quant_block = 128;
  return p;
}

// The shipped H200 profile's YAML, to append sections to.
std::string h200_text() {
  std::ostringstream file;
  file << std::ifstream(test_util::source_path("profiles/h200.yaml")).rdbuf();
  return file.str();
}

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/ga-moe-" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("uniform routing splits the routed rows as integers and pads each expert to BLOCK_SIZE_M", "[moe]") {
  // M 3, top_k 2, E 4: 6 rows, 4 experts hit, two with 2 rows and two with 1; every expert fits one
  // block of 8 or 16 rows: 4 blocks; the busiest expert has 2 rows.
  const MoeRoutingTerms a = moe_routing_terms(moe(3, 64, 64, 4, 2, MoeGemm::up));
  CHECK(a.routed_rows == 6);
  CHECK(a.active_experts == 4);
  CHECK(a.busiest_expert_rows == 2);
  CHECK(a.a_rows == 3);  // up gathers the 3 tokens' rows
  CHECK(a.blocks[block_index(16)] == 4);
  CHECK(a.busiest_rows[block_index(16)] == 2);
  // M 1, top_k 8, E 128 (Qwen3-30B-A3B decode): 8 experts with one row each.
  const MoeRoutingTerms b = moe_routing_terms(moe(1, 1536, 2048, 128, 8, MoeGemm::down));
  CHECK(b.active_experts == 8);
  CHECK(b.a_rows == 8);  // down reads one row per slot
  CHECK(b.blocks[block_index(64)] == 8);
  // M 4096: 32768 rows, 256 per expert: 16 blocks of 16 each (2048), 4 of 64 (512), 1 of 256 or 512.
  const MoeRoutingTerms c = moe_routing_terms(moe(4096, 1536, 2048, 128, 8, MoeGemm::up));
  CHECK(c.blocks[block_index(16)] == 2048);
  CHECK(c.blocks[block_index(64)] == 512);
  CHECK(c.blocks[block_index(256)] == 128);
  CHECK(c.blocks[block_index(512)] == 128);
  CHECK(c.busiest_rows[block_index(512)] == 256);
}

TEST_CASE("tuner routing takes the expectation over Binomial(M, top_k / E) rows per expert", "[moe]") {
  // M 1, top_k 8, E 128: each expert is hit with probability 1/16, so 8 are expected, each with one
  // row in one block; the busiest has exactly 1 row (the token's 8 experts are distinct). Taking the
  // counts as independent gives P(max > 0) = 1 - (15/16)^128 = 0.99974; the 8 rows' even share over
  // the experts, ceil(8 / 128) = 1, is the floor.
  const MoeRoutingTerms a = moe_routing_terms(moe(1, 1536, 2048, 128, 8, MoeGemm::up, MoeRouting::tuner));
  CHECK(a.active_experts == Approx(8.0).epsilon(1e-9));
  CHECK(a.blocks[block_index(16)] == Approx(8.0).epsilon(1e-9));
  CHECK(a.busiest_expert_rows == 1.0);
  // One token on 8 experts, top_k 1 (the fresh-user case: the independent figure alone is 0.66).
  CHECK(moe_routing_terms(moe(1, 64, 64, 8, 1, MoeGemm::up, MoeRouting::tuner)).busiest_expert_rows == 1.0);
  // M 2, top_k 2, E 4: X ~ Binomial(2, 1/2): P(0) 1/4, P(1) 1/2, P(2) 1/4; experts hit 4 * 3/4 = 3;
  // blocks of 16: 4 * (1/2 + 1/4) = 3; blocks of 8 as well; E[max of 4] = P(max>0) + P(max>1)
  // = (1 - (1/4)^4) + (1 - (3/4)^4) = 0.99609 + 0.68359 = 1.67969.
  const MoeRoutingTerms b = moe_routing_terms(moe(2, 64, 64, 4, 2, MoeGemm::up, MoeRouting::tuner));
  CHECK(b.active_experts == Approx(3.0));
  CHECK(b.blocks[block_index(16)] == Approx(3.0));
  CHECK(b.busiest_expert_rows == Approx(1.0 - std::pow(0.25, 4) + 1.0 - std::pow(0.75, 4)));
  // top_k = E: every token on every expert.
  const MoeRoutingTerms c = moe_routing_terms(moe(40, 64, 64, 4, 4, MoeGemm::up, MoeRouting::tuner));
  CHECK(c.active_experts == 4);
  CHECK(c.busiest_expert_rows == 40);
  CHECK(c.blocks[block_index(16)] == 12);  // ceil(40 / 16) = 3 per expert
  // A large M stays exact enough and fast: M 2^24 tokens.
  const MoeRoutingTerms d = moe_routing_terms(moe(16777216, 64, 64, 256, 8, MoeGemm::up, MoeRouting::tuner));
  CHECK(d.active_experts == Approx(256));
  CHECK(d.blocks[block_index(1024)] == Approx(256.0 * std::ceil(16777216.0 / 32 / 1024)).epsilon(1e-3));
}

TEST_CASE("zipf routing skews the rows, at most M per expert", "[moe]") {
  // E 4, M 100, top_k 1, s 1: shares 1, 1/2, 1/3, 1/4 of 25/12: 48, 24, 16, 12 rows; blocks of 16:
  // 3 + 2 + 1 + 1 = 7.
  GemmProblem p = moe(100, 64, 64, 4, 1, MoeGemm::up, MoeRouting::zipf);
  p.moe.zipf_exponent = 1;
  const MoeRoutingTerms a = moe_routing_terms(p);
  CHECK(a.busiest_expert_rows == 48);
  CHECK(a.blocks[block_index(16)] == 7);
  CHECK(a.active_experts == 4);
  // E 4, M 10, top_k 2, s 2: shares 1, 1/4, 1/9, 1/16 of 20 rows would give expert 0 14.05 > 10 rows:
  // capped at 10, the other 10 spread 5.90, 2.62, 1.48, rounded by largest remainder to 6, 3, 1.
  GemmProblem q = moe(10, 64, 64, 4, 2, MoeGemm::up, MoeRouting::zipf);
  q.moe.zipf_exponent = 2;
  const MoeRoutingTerms b = moe_routing_terms(q);
  CHECK(b.busiest_expert_rows == 10);
  CHECK(b.blocks[block_index(8)] == 2 + 1 + 1 + 1);  // 10 -> 2 blocks of 8; 6, 3, 1 -> 1 each
}

TEST_CASE("a layer is the up (2N x H) and down (H x N) GEMMs over the same routed rows", "[moe]") {
  const GemmProblem layer = moe(64, 768, 2048, 128, 8, MoeGemm::layer);
  const auto g = moe_layer_gemms(layer);
  CHECK(g[0].moe.gemm == MoeGemm::up);
  CHECK((g[0].m == 64 && g[0].n == 1536 && g[0].k == 2048));
  CHECK(g[1].moe.gemm == MoeGemm::down);
  CHECK((g[1].m == 64 && g[1].n == 2048 && g[1].k == 768));
  // 512 routed rows: up 2 * 512 * 1536 * 2048, down 2 * 512 * 2048 * 768; together 6 * 512 * 768 * 2048.
  CHECK(layer.flops() == Approx(6.0 * 512 * 768 * 2048));
  CHECK(g[0].flops() + g[1].flops() == Approx(layer.flops()));
  // Compulsory bytes of up (uniform: all 128 experts hit): weights 128 * 1536 * 2048 * 2, A 64 * 2048 * 2,
  // C 512 * 1536 * 2.
  CHECK(g[0].compulsory_bytes() == Approx(128.0 * 1536 * 2048 * 2 + 64.0 * 2048 * 2 + 512.0 * 1536 * 2));
  CHECK(layer.shape_text() == "64x768x2048/E128/top8/layer");
}

TEST_CASE("MoE problems are checked", "[moe]") {
  CHECK_NOTHROW(validate_problem(moe(1, 64, 64, 8, 2, MoeGemm::layer)));
  CHECK_THROWS_WITH(validate_problem(moe(1, 64, 64, 8, 9, MoeGemm::layer)), Catch::Contains("top_k = 9"));
  GemmProblem b = moe(1, 64, 64, 8, 2, MoeGemm::layer);
  b.batch = 2;
  CHECK_THROWS_WITH(validate_problem(b), Catch::Contains("batch 1"));
  GemmProblem q = moe(1, 64, 64, 8, 2, MoeGemm::layer);
  q.moe.quant_block = 128;
  CHECK_THROWS_WITH(validate_problem(q), Catch::Contains("fp8"));
  MoeSpec spec;
  CHECK_THROWS_WITH(parse_moe_routing("zipf:0", spec), Catch::Contains("[0.001, 16]"));
  // A subnormal exponent was taken and written back as zipf:9.99989e-321 (a fresh user's find).
  CHECK_THROWS_WITH(parse_moe_routing("zipf:1e-320", spec), Catch::Contains("[0.001, 16]"));
  // Written back as read: a sidecar's zipf:1.23456789 was zipf:1.23457, and the run could not be
  // repeated from its record (a fresh user's find, 2026-12-05).
  parse_moe_routing("zipf:1.23456789", spec);
  CHECK(moe_routing_text(spec) == "zipf:1.23456789");
  CHECK_THROWS_WITH(parse_moe_routing("skewed", spec), Catch::Contains("uniform, tuner (alias random"));
  parse_moe_routing("zipf:1.5", spec);
  CHECK(spec.routing == MoeRouting::zipf);
  CHECK(moe_routing_text(spec) == "zipf:1.5");
  CHECK(parse_block_shape("[128, 128]") == 128);
  CHECK(parse_block_shape("128x128") == 128);
  CHECK_THROWS_WITH(parse_block_shape("128x64"), Catch::Contains("square"));
  CHECK(parse_moe_dtype("fp8_w8a8") == Dtype::fp8);
  CHECK_THROWS_WITH(parse_moe_dtype("fp32"), Catch::Contains("bf16, fp16 or fp8_w8a8"));
}

TEST_CASE("the fused-MoE target: a layer's time is its two launches', padding counted", "[moe]") {
  const Profile h200 = load_profile("h200");
  const Target& t = vllm_fused_moe_target();
  const GemmProblem layer = moe(64, 768, 2048, 128, 8, MoeGemm::layer);
  const TileConfig c = cfg(16, 64, 64, 4, 3, 1, 1);
  const Estimate e = t.estimate(t.context(layer, h200), c);
  REQUIRE(e.feasible);
  const auto g = moe_layer_gemms(layer);
  const Estimate up = t.estimate(t.context(g[0], h200), c), down = t.estimate(t.context(g[1], h200), c);
  CHECK(e.latency_s == up.latency_s + down.latency_s);
  CHECK(t.estimate_latency(t.context(layer, h200), c).latency_s == e.latency_s);
  // Uniform: 4 rows per expert in one 16-row block: 75% of the M work is padding (N and K divide).
  CHECK(up.padding_waste == Approx(0.75));
  // No faster than the floors: the up GEMM's FLOPs at peak, its compulsory bytes at DRAM bandwidth.
  CHECK(up.latency_s >= g[0].flops() / h200.hw.peak_flops_per_s(Dtype::bf16));
  CHECK(up.latency_s >= g[0].compulsory_bytes() / h200.hw.dram_bandwidth_bytes_per_s);
  CHECK(up.dram_bytes >= g[0].compulsory_bytes() * 0.999);
  // More tokens never run faster with one config (uniform routing; 2% for the model's rounding).
  double last = 0;
  for (std::int64_t m : {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096}) {
    const double s = t.estimate(t.context(moe(m, 768, 2048, 128, 8, MoeGemm::layer), h200), c).latency_s;
    CHECK(s >= last * 0.98);
    last = s;
  }
  // Plain GEMMs are the other targets' problems, and MoE problems not theirs.
  GemmProblem plain;
  plain.m = plain.n = plain.k = 1024;
  CHECK_THAT(t.problem_error(plain, h200), Catch::Contains("MoE layer"));
  CHECK_THAT(triton_target().problem_error(layer, h200), Catch::Contains("vllm-fused-moe"));
}

TEST_CASE("a fused-MoE launch's fraction of a block past its full waves costs that fraction of a wave", "[moe]") {
  // Tuner routing gives expected tiles, not whole ones: Qwen3-30B-A3B's up GEMM at tp 4 (E 128, top_k 8,
  // H 2048, N 2 x 768 / 4 = 384) with 256x256 tiles on the MI350X's 256 CUs is 256.0000000001 expected
  // tiles at M = 1024 and 256 at 1025 (a fresh expert's find, 2026-12-04). A whole second wave for the
  // 1e-10 of a block predicted 1024 tokens 1.74x slower than 1025; charged as the chance that the
  // block runs, the two are within 0.1%.
  const Profile mi350x = load_profile("mi350x");
  const Target& t = vllm_fused_moe_target();
  const TileConfig c = cfg(256, 256, 64, 4, 2, 1, 1);
  const Estimate at1024 = t.estimate(t.context(moe(1024, 384, 2048, 128, 8, MoeGemm::up, MoeRouting::tuner), mi350x), c);
  const Estimate at1025 = t.estimate(t.context(moe(1025, 384, 2048, 128, 8, MoeGemm::up, MoeRouting::tuner), mi350x), c);
  REQUIRE(at1024.feasible);
  REQUIRE(at1025.feasible);
  CHECK(at1024.work_tiles > 256.0);
  CHECK(at1024.work_tiles < 256.001);
  CHECK(at1024.latency_s <= at1025.latency_s * 1.001);
  CHECK(at1024.latency_s >= at1025.latency_s * 0.99);
}

TEST_CASE("a wave's experts reached change smoothly as an expert's expected block rows cross a whole number", "[moe]") {
  // A Llama-4-like up GEMM (E 16, top_k 1, H 5120, N 2 x 8192), tuner routing, 16x128x128 w4 s4 g1 on
  // the H200: 31.97 expected block rows at 387 tokens, 32.02 at 388, 1.998 and 2.001 an expert. Counted
  // as ceil(rows / 1.998), a wave's first 2 rows reached 2 experts at 387 and 1 at 388, and the weights
  // of the wave's second expert were charged in full: 1811 us against 1232 (a fresh expert's find,
  // 2026-12-05). As n or n + 1 block rows an expert (n = 1, the share of 2 is 0.998 at 387), the wave
  // reaches 1.002 experts there: one token more changes the time by far less than 1%. The same on
  // uniform routing (the A100, E 128, top_k 8, H 2048, N 768: the layer 12.5% faster at 528 tokens than
  // at 527 before; its up GEMM now within the invariants' 2%: 8 experts' third block row added).
  const Target& t = vllm_fused_moe_target();
  const Profile h200 = load_profile("h200"), a100 = load_profile("a100");
  const TileConfig c = cfg(16, 128, 128, 4, 4, 1, 1);
  auto time = [&](std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t e, std::int64_t top_k, MoeRouting r,
                  const Profile& hw) {
    const Estimate est = t.estimate(t.context(moe(m, n, k, e, top_k, MoeGemm::up, r), hw), c);
    REQUIRE(est.feasible);
    return est.latency_s;
  };
  const double at387 = time(387, 16384, 5120, 16, 1, MoeRouting::tuner, h200);
  const double at388 = time(388, 16384, 5120, 16, 1, MoeRouting::tuner, h200);
  CHECK(at388 == Approx(at387).epsilon(0.01));
  const double at527 = time(527, 1536, 2048, 128, 8, MoeRouting::uniform, a100);
  const double at528 = time(528, 1536, 2048, 128, 8, MoeRouting::uniform, a100);
  CHECK(at528 == Approx(at527).epsilon(0.02));
}

TEST_CASE("the fused-MoE target's space and rules follow vLLM's tuner and kernel", "[moe]") {
  const Profile h200 = load_profile("h200");
  const Target& t = vllm_fused_moe_target();
  std::vector<TileConfig> space;
  t.candidates(moe(4096, 768, 2048, 128, 8, MoeGemm::layer), h200, space);
  REQUIRE(!space.empty());
  for (const TileConfig& c : space) {
    CHECK(c.split_k == 1);
    CHECK(t.infeasibility(c, moe(4096, 768, 2048, 128, 8, MoeGemm::layer), h200).empty());
  }
  // Block fp8: BLOCK_SIZE_K 128 only (the tuner's BLOCK_SIZE_K % 128 == 0, then vLLM's clamp), and 8-row
  // blocks where vLLM's shipped H200 files use them; every config once.
  const GemmProblem fp8 = moe(1, 256, 7168, 256, 8, MoeGemm::layer, MoeRouting::tuner, Dtype::fp8);
  t.candidates(fp8, h200, space);
  bool eight = false;
  for (const TileConfig& c : space) {
    CHECK(c.block_k == 128);
    eight = eight || c.block_m == 8;
  }
  CHECK(eight);
  std::sort(space.begin(), space.end());
  CHECK(std::adjacent_find(space.begin(), space.end()) == space.end());
  CHECK_THAT(t.infeasibility(cfg(16, 128, 256, 4, 3), fp8, h200), Catch::Contains("128-wide scale group"));
  // A 32-wide group: every tuned BLOCK_SIZE_K (64, 128, 256, each a multiple of 32) runs clamped to 32,
  // so the space is BLOCK_SIZE_K 32 (it was empty, "no feasible config": a fresh user's find). A
  // 16-wide group is below Triton's 32 bytes a row for fp8, and no BLOCK_SIZE_K is a multiple of 512:
  // the layer's error says which.
  GemmProblem group32 = fp8;
  group32.moe.quant_block = 32;
  t.candidates(group32, h200, space);
  REQUIRE(!space.empty());
  CHECK(std::all_of(space.begin(), space.end(), [](const TileConfig& c) { return c.block_k == 32; }));
  GemmProblem group16 = fp8, group512 = fp8;
  group16.moe.quant_block = 16;
  group512.moe.quant_block = 512;
  CHECK_THAT(t.problem_error(group16, h200), Catch::Contains("fewer than the 32 bytes a row"));
  CHECK_THAT(t.problem_error(group512, h200), Catch::Contains("512 divides none"));
  CHECK_THAT(t.infeasibility(cfg(16, 128, 64, 4, 3, 2), fp8, h200), Catch::Contains("no split-K"));
  // BLOCK_SIZE_M: 8 or a power of two in [16, 1024], and every refusal says that rule (24 and 2048
  // were refused with Triton's "a power of two in [16, 1024]", which 8 is not).
  const GemmProblem bf16_layer = moe(64, 1408, 2048, 64, 8, MoeGemm::layer);
  CHECK(t.infeasibility(cfg(8, 64, 64, 4, 3), bf16_layer, h200).empty());
  for (int bm : {4, 12, 24, 2048})
    CHECK(t.infeasibility(cfg(bm, 64, 64, 4, 3), bf16_layer, h200) ==
          "block_m = " + std::to_string(bm) + " must be 8 or a power of two in [16, 1024]");
  // vLLM's get_default_config: block fp8 64 x 128 x 128 g32; bf16 M <= E 16x32x64 g1, else 64x64x32 g8.
  CHECK(t.default_config(fp8).text() == "64x128x128:4:3:g32");
  CHECK(t.default_config(moe(128, 768, 2048, 128, 8, MoeGemm::layer)).text() == "16x32x64:4:3:g1");
  CHECK(t.default_config(moe(129, 768, 2048, 128, 8, MoeGemm::layer)).text() == "64x64x32:4:3");  // g8 is TileConfig::text's default
}

TEST_CASE("vLLM's fused-MoE file names and contents", "[moe]") {
  // get_config_file_name: E=..,N=..,device_name=..[,dtype=..][,block_shape=[b,b]].json (vLLM #17619's).
  CHECK(vllm_moe_config_file_name(8, 7168, "NVIDIA_H200", "", 0) == "E=8,N=7168,device_name=NVIDIA_H200.json");
  CHECK(vllm_moe_config_file_name(256, 256, "NVIDIA_H200", "fp8_w8a8", 128) ==
        "E=256,N=256,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json");
  std::map<std::int64_t, TileConfig> best = {{1, cfg(16, 64, 128, 4, 3, 1, 1)}, {64, cfg(64, 128, 64, 8, 4, 1, 16)}};
  const nlohmann::json nv = nlohmann::json::parse(vllm_moe_config_file_text(best, load_profile("h200").hw));
  CHECK(nv["1"]["BLOCK_SIZE_N"] == 64);
  CHECK(nv["64"]["GROUP_SIZE_M"] == 16);
  CHECK(!nv["1"].contains("kpack"));
  const nlohmann::json amd = nlohmann::json::parse(vllm_moe_config_file_text(best, load_profile("mi300x").hw));
  CHECK(amd["1"]["kpack"] == kRocmKpack);
  CHECK(amd["1"]["matrix_instr_nonkdim"] == kRocmMatrixInstrNonKDim);
  CHECK(amd["1"]["waves_per_eu"] == kRocmWavesPerEu);
  // fp8 layers: no MFMA keys, as vLLM's ROCm tuner writes them (get_rocm_tuning_space(use_fp16)).
  const nlohmann::json amd8 =
      nlohmann::json::parse(vllm_moe_config_file_text(best, load_profile("mi300x").hw, "fp8_w8a8"));
  CHECK(amd8["1"]["waves_per_eu"] == kRocmWavesPerEu);
  CHECK(!amd8["1"].contains("kpack"));
  CHECK(!amd8["1"].contains("matrix_instr_nonkdim"));
}

TEST_CASE("MoE model lists and Hugging Face configs", "[moe]") {
  const std::string csv = temp_file("models.csv",
                                    "name,experts,top_k,hidden,intermediate,tp,dtype,block_shape\n"
                                    "mixtral,8,2,4096,14336,2,bf16,\n"
                                    "dsv3,256,8,7168,2048,8,fp8_w8a8,128x128\n");
  const auto models = read_moe_models(csv);
  REQUIRE(models.size() == 2);
  CHECK(models[0].n_per_rank() == 7168);
  CHECK((models[1].dtype == Dtype::fp8 && models[1].quant_block == 128 && models[1].line == 3));
  CHECK(vllm_moe_dtype(models[1]) == "fp8_w8a8");
  const std::string yaml = temp_file("models.yaml", "models:\n  - {name: q, experts: 128, top_k: 8, hidden: 2048, intermediate: 768}\n");
  CHECK(read_moe_models(yaml).at(0).top_k == 8);
  CHECK_THROWS_WITH(read_moe_models(temp_file("two.yaml", "models:\n  - {experts: 8, top_k: 2, hidden: 4096, intermediate: 14336}\n"
                                                             "---\nmodels: []\n")),
                    Catch::Contains("a second YAML document: a model list is one document"));
  CHECK_THROWS_WITH(read_moe_models(temp_file("typo.yaml", "models: []\nmodelz: []\n")),
                    Catch::Contains("typo.yaml:2: unknown key 'modelz' (expected only 'models': a second list?)"));
  CHECK_THROWS_WITH(read_moe_models(temp_file("bad.csv", "experts,top_k,hidden,intermediate,tp\n8,2,4096,14336,3\n")),
                    Catch::Contains("bad.csv:2: tp = 3"));
  // A whole number too large to hold is out of range, not "not a whole number" (a fresh user's find).
  CHECK_THROWS_WITH(
      read_moe_models(temp_file("big.csv", "experts,top_k,hidden,intermediate\n8,2,4096,99999999999999999999\n")),
      Catch::Contains("big.csv:2: intermediate = 99999999999999999999 is outside 1.."));
  CHECK_THROWS_WITH(read_moe_models(temp_file("typo.csv", "experts,topk,hidden,intermediate\n8,2,4096,14336\n")),
                    Catch::Contains("top_k"));
  // DeepSeek-V3's config.json (deepseek-ai/DeepSeek-V3): n_routed_experts 256, num_experts_per_tok 8,
  // hidden_size 7168, moe_intermediate_size 2048, fp8 with weight_block_size [128, 128].
  const std::string ds = temp_file("ds.json",
                                   R"({"model_type": "deepseek_v3", "n_routed_experts": 256, "num_experts_per_tok": 8,
      "hidden_size": 7168, "intermediate_size": 18432, "moe_intermediate_size": 2048,
      "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}})");
  const MoeModel d = moe_model_from_hf_config(ds, 8);
  CHECK((d.experts == 256 && d.top_k == 8 && d.hidden == 7168 && d.intermediate == 2048 && d.n_per_rank() == 256));
  CHECK((d.dtype == Dtype::fp8 && d.quant_block == 128 && d.name == "deepseek_v3"));
  // Llama-4-Scout nests its text model: text_config {num_local_experts 16, num_experts_per_tok 1,
  // hidden_size 5120, intermediate_size 8192}.
  const std::string l4 = temp_file("l4.json", R"({"text_config": {"num_local_experts": 16, "num_experts_per_tok": 1,
      "hidden_size": 5120, "intermediate_size": 8192, "torch_dtype": "bfloat16"}})");
  CHECK(moe_model_from_hf_config(l4, 4).n_per_rank() == 2048);
  CHECK_THROWS_WITH(moe_model_from_hf_config(temp_file("dense.json", R"({"hidden_size": 4096})"), 1),
                    Catch::Contains("no expert count"));
}

TEST_CASE("per-GEMM measurements pair into layers", "[moe]") {
  std::istringstream in(
      "kernel,family,name,m,n,k,dtype,layout,experts,top_k,gemm,block_m,block_n,block_k,group_m,num_warps,num_stages,ms\n"
      "vllm-fused-moe,q,m2,2,1536,2048,bf16,NT,128,8,up,16,64,64,1,4,3,0.040\n"
      "vllm-fused-moe,q,m2,2,1536,2048,bf16,NT,128,8,up,16,128,64,1,4,3,0.050\n"
      "vllm-fused-moe,q,m2,2,2048,768,bf16,NT,128,8,down,16,64,64,1,4,3,0.020\n");
  const auto layers = pair_moe_layers(read_measurements(in, "pairs.csv", "vllm-fused-moe"));
  REQUIRE(layers.size() == 1);
  const GemmProblem& p = layers[0].problem;
  CHECK((p.moe.gemm == MoeGemm::layer && p.n == 768 && p.k == 2048 && p.moe.routing == MoeRouting::tuner));
  REQUIRE(layers[0].configs.size() == 1);  // 16x128x64 has no down time
  CHECK(layers[0].configs[0].ms == Approx(0.060));
}

TEST_CASE("block-fp8 MoE layers have their own parameter set, which a profile overrides apart", "[moe][hardware]") {
  const Target& t = vllm_fused_moe_target();
  const GemmProblem bf16 = moe(64, 14336, 4096, 8, 2, MoeGemm::up);
  const GemmProblem fp8 = moe(64, 512, 7168, 256, 8, MoeGemm::up, MoeRouting::uniform, Dtype::fp8);
  CHECK(t.param_variant(bf16).empty());
  CHECK(t.param_variant(fp8) == "fp8_block");
  // The shipped sets differ (the block-fp8 one fitted on six block-fp8 models: its per-step
  // overhead, 1136 cycles, is several times the 16-bit set's 409.2).
  const Profile h200 = load_profile("h200");
  CHECK(t.problem_params(bf16, h200).k_step_overhead_cycles == Approx(409.2));
  CHECK(t.problem_params(fp8, h200).k_step_overhead_cycles == Approx(1136));
  // `targets: vllm-fused-moe: fp8_block: model_parameters:` moves the block-fp8 set only; the
  // target's own section moves only the 16-bit one.
  const std::string text = h200_text();
  const Profile p = parse_profile(text + "targets:\n  vllm-fused-moe:\n    model_parameters:\n      k_step_overhead_cycles: 11\n"
                                         "    fp8_block:\n      model_parameters:\n        k_step_overhead_cycles: 22\n",
                                  "v.yaml");
  CHECK(t.problem_params(bf16, p).k_step_overhead_cycles == 11);
  CHECK(t.problem_params(fp8, p).k_step_overhead_cycles == 22);
  CHECK(t.context(fp8, p).params.k_step_overhead_cycles == 22);
  // The candidate space follows the same set: the 16-bit set's register reserve does not prune a
  // block-fp8 layer's configs (230 left 4 warps no tile beside 2 x 64 accumulators, where the fp8
  // set's estimates call them feasible: `rank` and `explain` disagreed, a fresh user's find).
  {
    const Profile own = parse_profile(text + "targets:\n  vllm-fused-moe:\n    model_parameters:\n      "
                                             "register_overhead_per_thread: 230\n",
                                      "r.yaml");
    // A prefill's layer (4096 tokens: tiles up to 256 rows), as the find's.
    const GemmProblem big = moe(4096, 512, 7168, 256, 8, MoeGemm::up, MoeRouting::uniform, Dtype::fp8);
    std::vector<TileConfig> stock, with_own;
    t.candidates(big, h200, stock);
    t.candidates(big, own, with_own);
    CHECK(!stock.empty());
    CHECK(with_own.size() == stock.size());
    // ... and its own set's does.
    const Profile fp8_own = parse_profile(text + "targets:\n  vllm-fused-moe:\n    fp8_block:\n      model_parameters:\n"
                                                 "        register_overhead_per_thread: 230\n",
                                          "f.yaml");
    std::vector<TileConfig> with_fp8_own;
    t.candidates(big, fp8_own, with_fp8_own);
    CHECK(with_fp8_own.size() < stock.size());
  }
  // A variant another target does not have holds fitted values nothing would read: an error (it was
  // a warning and the values went unused: a fresh user's find, 2026-12-05); a malformed one too.
  CHECK_THROWS_WITH(parse_profile(text + "targets:\n  triton:\n    fp8_block:\n      model_parameters: {}\n", "w.yaml"),
                    Catch::Contains("w.yaml:") && Catch::Contains("unknown key 'targets.triton.fp8_block' holds "
                                                                   "model_parameters that nothing reads"));
  // Another unknown key without fitted values stays a warning.
  ProfileDiagnostics diag;
  const Profile w = parse_profile(text + "targets:\n  triton:\n    fp8_blok: 3\n", "w.yaml", &diag);
  CHECK(std::any_of(diag.warnings.begin(), diag.warnings.end(), [](const std::string& m) {
    return m.find("w.yaml:") != std::string::npos && m.find("unknown key 'targets.triton.fp8_blok'") != std::string::npos;
  }));
  CHECK(w.target_model.count("triton.fp8_blok") == 0);
  CHECK_THROWS_WITH(parse_profile(text + "targets:\n  vllm-fused-moe:\n    fp8_block: 3\n", "x.yaml"),
                    Catch::Contains("x.yaml:") && Catch::Contains("targets.vllm-fused-moe.fp8_block' must be a mapping"));
  // calibrate fits the set its measured problems share; mixed problems fit the target's own set.
  MeasuredShape a, b;
  a.problem = fp8;
  b.problem = bf16;
  CHECK(fitted_variant({a, a}, t) == "fp8_block");
  CHECK(fitted_variant({a, b}, t).empty());
  CHECK(fitted_variant({b}, t).empty());
}

TEST_CASE("a target named twice under targets: is an error, not a merge", "[hardware]") {
  CHECK_THROWS_WITH(parse_profile(h200_text() + "targets:\n  triton:\n    model_parameters: {k_step_overhead_cycles: 1}\n"
                                               "  triton:\n    model_parameters: {near_tie_tolerance: 0.1}\n",
                                  "dup.yaml"),
                    Catch::Contains("dup.yaml:") && Catch::Contains("duplicate key 'targets.triton'"));
}

TEST_CASE("the fused-MoE space keeps one BLOCK_SIZE_M above the busiest expert's expected rows", "[moe]") {
  // A fresh user's counterexample (2026-12-02): Mixtral-8x7B tp2 on mi300x at M = 96, tuner routing.
  // The busiest expert's expected 30 rows capped the space at BLOCK_SIZE_M 32, and `explain` of
  // 64x128x128:4:2:g1 predicted 5% faster than `rank`'s top-1 (the random routing gives some experts
  // more than 32 rows: a 64-row block reads their weights once). The space's best must be at least as
  // fast as that config.
  const Target& t = vllm_fused_moe_target();
  const Profile hw = load_profile("mi300x");
  GemmProblem p = moe(96, 7168, 4096, 8, 2, MoeGemm::layer, MoeRouting::tuner);
  p.layout = parse_layout("NT");
  std::vector<TileConfig> space;
  t.candidates(p, hw, space);
  REQUIRE(!space.empty());
  const EstimateContext ctx = t.context(p, hw);
  double best_s = std::numeric_limits<double>::infinity();
  for (const TileConfig& c : space) {
    const Estimate e = t.estimate(ctx, c);
    if (e.feasible) best_s = std::min(best_s, e.latency_s);
  }
  const Estimate tall = t.estimate(ctx, parse_tile_config("64x128x128:4:2:g1"));
  REQUIRE(tall.feasible);
  CHECK(best_s <= tall.latency_s * (1 + 1e-12));
}

TEST_CASE("a layer's space holds only configs that fit for both of its GEMMs", "[moe]") {
  // A fresh user's find: hidden size 2040 (not a multiple of 16) leaves the up GEMM's operands
  // (K = H) out of the software pipeline, so its configs take less shared memory than the down
  // GEMM's (K = N = 1408, aligned, multi-buffered). The space was filtered on the up GEMM only:
  // 584 configs that the down GEMM cannot fit were ranked as infeasible.
  const Target& t = vllm_fused_moe_target();
  const Profile h200 = load_profile("h200");
  const GemmProblem layer = moe(1024, 1408, 2040, 64, 8, MoeGemm::layer);
  std::vector<TileConfig> space;
  t.candidates(layer, h200, space);
  REQUIRE(!space.empty());
  const EstimateContext ctx = t.context(layer, h200);
  for (const TileConfig& c : space) {
    INFO(c.text());
    CHECK(t.infeasibility(c, layer, h200).empty());
    CHECK(t.estimate(ctx, c).feasible);
  }
  // A config only the down GEMM refuses says so: which GEMM, bytes needed and available
  // (64x128x256, 3 stages: (64 + 128) x 256 x 2 bytes x 3 buffers = 294,912 > 232,448 on the H200).
  const TileConfig down_only = parse_tile_config("64x128x256:4:3:g1");
  CHECK(std::find(space.begin(), space.end(), down_only) == space.end());
  CHECK_THAT(t.infeasibility(down_only, layer, h200),
             Catch::StartsWith("the down GEMM 1024x2040x1408 needs 294912 bytes of shared memory") &&
                 Catch::Contains("232448"));
  // Both GEMMs over their limits, by different amounts: each is named.
  const TileConfig big = parse_tile_config("256x256x256:8:5:g1");
  CHECK_THAT(t.infeasibility(big, layer, h200), Catch::StartsWith("the up GEMM 1024x2816x2040 needs ") &&
                                                    Catch::Contains("; the down GEMM 1024x2040x1408 needs "));
  // A limit both GEMMs hit alike (H = 2048: both aligned) is the config's own, named without a GEMM.
  CHECK_THAT(t.infeasibility(big, moe(1024, 1408, 2048, 64, 8, MoeGemm::layer), h200),
             Catch::StartsWith("needs ") && Catch::Contains("bytes of shared memory"));
}
