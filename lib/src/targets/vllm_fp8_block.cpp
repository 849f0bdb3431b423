// The `vllm-fp8-block` target: vLLM's block-scaled w8a8 fp8 GEMM (`_w8a8_triton_block_scaled_mm`,
// vllm/model_executor/layers/quantization/utils/fp8_utils.py).
#include "gemm_advisor/targets/vllm_fp8_block.hpp"

#include <algorithm>
#include <iterator>

#include "../target_impl.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/targets/triton.hpp"
#include "triton_family.hpp"

namespace gemm_advisor {

namespace {

// vLLM's tuner space (benchmarks/kernels/benchmark_w8a8_block_fp8.py, get_configs_compute_bound).
constexpr int kBlockM[] = {16, 32, 64, 128, 256};
constexpr int kBlockN[] = {32, 64, 128, 256};
constexpr int kBlockK[] = {64, 128};
constexpr int kGroupM[] = {1, 16, 32, 64};
constexpr int kWarps[] = {4, 8};
constexpr int kMinStages = 2, kMaxStages = 5;
// Per K-step and output element the kernel computes acc += dot(a, b) * a_s[:, None] * b_s[None, :]:
// two multiplies and an add on the vector units.
constexpr double kScaleOpsPerElement = 3.0;
// Each K-step loads one fp32 scale per A row (a_s) and one per B column (b_s, gathered by block).
constexpr double kScaleBytes = 4.0;

// The kernel's own limits: BLOCK_SIZE_K divides the 128-wide quantization group (one scale per
// step), no split-K, power-of-two tiles, and what the Triton compiler refuses (triton_resources:
// on our H200 every config of the tuner's space compiled and ran but those over the shared memory,
// data/measurements/h200-fp8-block.csv.gz; 256x256 tiles with 4 warps spill but run).
// The Triton rules every target shares (triton_config_rules_ok: the profile's max_num_stages among
// them, which given configs broke unchecked here while the other targets refused them: a fresh
// user's find, 2026-12-04).
bool kernel_rules_ok(const TileConfig& c, const GemmProblem& p, const Hardware& hw, const TritonSettings& t) {
  return c.split_k == 1 && c.block_k >= 16 && kVllmFp8QuantBlock % c.block_k == 0 &&
         triton_config_rules_ok(c, p, hw, t);
}

// The mapping: wrapped offsets (% M, % N) as the tutorial, plus what the block scales add each
// K-step: the scale loads through registers, the scale multiply on the vector units, a second
// BM x BN fp32 tile live in registers (the fresh product, scaled before it is added), and a product
// that must complete before the scaling, so nothing of the step overlaps the matrix work.
struct Fp8BlockRules {
  static constexpr bool kExtraStepWork = true;
  template <bool kAligned>
  [[gnu::always_inline]] static inline bool map(const EstimateContext& ctx, const TileConfig& c, KernelShape& k) {
    const TritonResources r = triton_family::map_tile<kAligned>(ctx, c, k);
    triton_family::hold_scaled_product(r, k);
    if (!kernel_rules_ok(c, *ctx.problem, *ctx.hw, ctx.profile->triton) || r.check != TritonResourceCheck::ok ||
        ctx.problem->dtype != Dtype::fp8)
      return false;
    triton_family::map_wrapped_operands(ctx, c, r.full_instruction, k);
    k.split_k = 1;
    k.group_m = c.group_m;
    k.loads_in_flight = triton_family::loads_in_flight<kAligned>(ctx, c, r);
    k.out_elem_bytes = ctx.bytes_out;
    k.extra_step_bytes = (k.block_m + k.block_n) * kScaleBytes;
    k.vector_ops = kScaleOpsPerElement * k.block_m * k.block_n;
    k.matrix_result_per_step = true;
    return true;
  }
};

class Fp8BlockTarget final : public RulesTarget<Fp8BlockRules> {
 public:
  const TargetInfo& info() const override {
    static const TargetInfo kInfo{
        "vllm-fp8-block",
        "vLLM's block-scaled w8a8 fp8 GEMM: fp8 A [M, K] with per-token 1x128 scales, fp8 B [N, K] with "
        "128x128 block scales, bf16 out; wrapped offsets, scales loaded and applied every K-step, no split-K",
        "vllm-project/vllm vllm/model_executor/layers/quantization/utils/fp8_utils.py (_w8a8_triton_block_scaled_mm), "
        "tuner space of benchmarks/kernels/benchmark_w8a8_block_fp8.py; our copy after it: "
        "tools/measure/fp8_block_kernel.py, measured on the H200 (data/measurements/h200-fp8-block.csv.gz)",
        {{"block_m", "BLOCK_SIZE_M", "16, 32, 64, 128, 256 (<= the next power of two of M)"},
         {"block_n", "BLOCK_SIZE_N", "32, 64, 128, 256"},
         {"block_k", "BLOCK_SIZE_K", "64, 128 (divides the 128-wide quantization group)"},
         {"group_m", "GROUP_SIZE_M", "1, 16, 32, 64 (those mapping the grid alike collapsed to the smallest)"},
         {"num_warps", "num_warps", "4, 8"},
         {"num_stages", "num_stages", "2..5 (at most triton.max_num_stages)"}},
        "fp8",
        "NT"};
    return kInfo;
  }
  const ModelParams& default_params() const override { return vllm_fp8_block_default_params(); }
  std::string problem_error(const GemmProblem& p, const Profile& profile) const override {
    if (p.is_moe()) return "a fused-MoE problem: its kernel is the target vllm-fused-moe";
    if (p.dtype != Dtype::fp8)
      return "vLLM's block FP8 GEMM takes fp8 operands, got " + std::string(dtype_name(p.dtype));
    if (p.layout.name() != "NT") return "vLLM's block FP8 GEMM computes x W^T (layout NT), got " + p.layout.name();
    if (p.batch != 1) return "vLLM's block FP8 GEMM is 2-D: batch must be 1, got " + std::to_string(p.batch);
    if (!profile.hw.rate(Dtype::fp8)) return profile.hw.name + " has no fp8 matrix path";
    if (profile.hw.vector_fp32_lanes_per_cu <= 0)
      return "the profile (" + escape_for_display(profile.hw.source) +
             ") has no compute.vector_fp32_lanes_per_cu, which the per-step scale math needs";
    return "";
  }
  void candidates(const GemmProblem& p, const Profile& profile, std::vector<TileConfig>& out) const override {
    out.clear();
    if (!problem_error(p, profile).empty()) return;
    const double reserve = profile.params_for(name(), default_params()).register_overhead_per_thread;
    // Tiles larger than the problem's next power of two only add padding (and, with wrapped
    // offsets, re-load the same rows): the tuner times them, the advisor skips them.
    const std::int64_t max_m = std::max<std::int64_t>(kBlockM[0], next_pow2(p.m));
    const std::int64_t max_n = std::max<std::int64_t>(kBlockN[0], next_pow2(p.n));
    triton_family::TunerSpace space;
    for (int bm : kBlockM)
      if (bm <= max_m) space.block_m.push_back(bm);
    for (int bn : kBlockN)
      if (bn <= max_n) space.block_n.push_back(bn);
    space.block_k.assign(std::begin(kBlockK), std::end(kBlockK));
    space.num_warps.assign(std::begin(kWarps), std::end(kWarps));
    space.group_m.assign(std::begin(kGroupM), std::end(kGroupM));
    space.min_stages = kMinStages;
    space.max_stages = std::min(kMaxStages, profile.triton.max_num_stages);
    triton_family::tuner_candidates(
        space, p, profile, reserve, [&](int bm) { return static_cast<double>((p.m + bm - 1) / bm); }, out);
  }
  std::string infeasibility(const TileConfig& c, const GemmProblem& p, const Profile& profile) const override {
    if (std::string why = problem_error(p, profile); !why.empty()) return why;
    if (c.split_k != 1) return "split_k = " + std::to_string(c.split_k) + ": vLLM's block FP8 GEMM has no split-K";
    if (c.block_k < 16 || !is_pow2(c.block_k) || kVllmFp8QuantBlock % c.block_k != 0)
      return "block_k = " + std::to_string(c.block_k) + " must divide the " + std::to_string(kVllmFp8QuantBlock) +
             "-wide quantization group (one scale per K-step)";
    if (std::string why = triton_rules_message(c, p, profile); !why.empty()) return why;
    if (std::string why = triton_resource_words(c, p, profile, *this); !why.empty()) return why;
    return triton_search_bound_message(c, profile);
  }
  TileConfig default_config(const GemmProblem&) const override { return vllm_fp8_block_default_config(); }
};

}  // namespace

TileConfig vllm_fp8_block_default_config() {
  // vLLM's w8a8_triton_block_scaled_mm when no tuned file exists: BLOCK_SIZE_M 64, BLOCK_SIZE_N =
  // block_size[0] = 128, BLOCK_SIZE_K = block_size[1] = 128, GROUP_SIZE_M 32, 4 warps, 2 stages.
  TileConfig c;
  c.block_m = 64;
  c.block_n = kVllmFp8QuantBlock;
  c.block_k = kVllmFp8QuantBlock;
  c.group_m = 32;
  c.num_warps = 4;
  c.num_stages = 2;
  c.split_k = 1;
  return c;
}

const ModelParams& vllm_fp8_block_default_params() {
  static const ModelParams kParams = [] {
    // Fitted with `gemm-advisor calibrate` on this kernel's H200 data (191 problems, the whole tuner
    // space each: data/measurements/h200-fp8-block.csv.gz, 12 (N, K) of DeepSeek-V3 tp1 and tp8 and
    // Qwen3-32B-FP8 x 13 M, and h200-fp8-block-e.csv, 5 (N, K) of Qwen3-8B-FP8 and other DeepSeek-V3
    // splits x 7 M), 5-fold cross-validation by model: 95.0% of oracle held out before, 96.1% after
    // (data/fit/h200-fp8-block.txt); these values are the fit on all of it, 96.7% in sample. History:
    // first (2026-12-01) fitted on the 156 from the triton target's values (84.5% -> 95.2% held out);
    // after the loads-in-flight count of 2026-12-02 (mma.sync tiles: num_stages - 1 loads in flight)
    // those values scored 93.6% on the 35 problems of h200-fp8-block-e.csv, measured after the count
    // (96.2% with the model before it), so the three values the refit moves were refitted from them: the
    // per-K-step overhead 481.4 -> 409.2 cycles, the copy's fill fraction 0.45 -> 0.55, the loaded
    // latency 2.5 -> 3.5 times the idle one. This ranks the measured space better and puts vLLM's own
    // tuned configs further from the top-1 in predicted time (within 10% on 62% / 57% / 32% of the
    // H100 / H200 / B200 rows, against 74% / 68% / 42% for the earlier values with the count: README
    // "Accuracy"). Every value is written out.
    ModelParams p;
    p.k_step_overhead_overlap = 0.85;
    p.memory_level_overlap = 0.95;
    p.unaligned_pipeline_fraction = 0.3;
    p.k_step_overhead_cycles = 409.2;
    p.launch_overhead_s = 7.08e-6;
    p.narrow_tile_matrix_efficiency = 0.35;
    // The loaded latency grows with the step's memory traffic (model_params.hpp,
    // idle_latency_fraction; 2026-12-06, forty-third session): fitted with the loaded multiplier on the
    // same 191 problems (data/fit/h200-fp8-block.txt), 3.5 -> 4.13 at full load and 0.55 of that
    // (2.27x the idle latency) with the levels idle: held out by family 97.0% -> 97.4% (worst 76.2%,
    // top-5 distinct 99.0% -> 99.1%). At decode the stage count then costs what it measures
    // (1x576x7168, 16x32x128 w4 g1, s2..s5: 49.2 / 27.1 / 21.8 / 20.2 us measured, predicted 66.4 /
    // 37.5 / 27.8 / 23.0 before, 49.4 / 29.9 / 23.4 / 22.7 after); vLLM's tuned configs within 10%
    // of the top-1 (README "Accuracy"): H100 62% -> 59%, H200 61% -> 66%, B200 40% -> 47%, MI300X 76%.
    p.loaded_latency_multiplier = 4.13;
    p.idle_latency_fraction = 0.55;
    p.unpipelined_latency_multiplier = 2.5;  // not fitted: no 1-stage config in the tuner space, operands aligned
    p.dram_active_cu_headroom = 11.2;
    p.near_tie_tolerance = 0.0;
    // The measured cp.async ceiling, as every target's (model_params.hpp); fitted alone at the
    // measured L2 bandwidth it is 0.35 too, held out by family 96.4% (data/fit/h200-fp8-block.txt).
    // 0.55 before 2026-12-03, fitted around the 8.9 TB/s of register loads.
    p.async_copy_fill_fraction = 0.35;
    p.l2_reuse_fraction = 0.5;
    // Its 4-warp configs are not slower alone on a CU (model_params.hpp, lone_warpgroup_step_cycles).
    p.lone_warpgroup_step_cycles = 0.0;
    // Co-resident blocks' pipelined loads queue on their CU (model_params.hpp, coresident_load_overlap;
    // 2026-12-07, forty-sixth session): a load waits L + T / b, not L + T. Decided out of sample by the
    // rule committed with the plans before they were timed (tools/measure/README.md): on random
    // block-fp8 shapes whose top-1 differs between 0 and 1, the picks at 1 run faster, H200 (60
    // shapes, h200-clo.csv) 95.5% -> 96.6% of oracle, worst 74.6% -> 80.8%; H100 (30, h100-clo.csv)
    // 96.1% -> 97.4%; a second H100 sample timed after it was taken (60, h100-clo2.csv): 95.2% -> 98.7%. The values above, fitted at 0, are not refitted: on the H200 data they were
    // fitted on 97.4% -> 96.8%; refitted there with it at 1 the H100 fell to 89% (the DRAM headroom
    // 11.2 -> 2.8), from 1 with it free to 0.5 the H200 test fell to 95.2% (data/fit/h200-fp8-block.txt).
    // vLLM's tuned configs within 10% of the top-1: H100 59% -> 64%, H200 66% -> 71%, B200 47% -> 50%.
    p.coresident_load_overlap = 1.0;
    return p;
  }();
  return kParams;
}

const Target& vllm_fp8_block_target() {
  static const Fp8BlockTarget kTarget;
  return kTarget;
}

}  // namespace gemm_advisor
