// The `vllm-fused-moe` target: vLLM's fused_moe_kernel (vllm/model_executor/layers/fused_moe/fused_moe.py).
#include "gemm_advisor/targets/vllm_fused_moe.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>

#include "../model_core.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/moe.hpp"
#include "gemm_advisor/targets/triton.hpp"
#include "gemm_advisor/targets/vllm_fp8_block.hpp"
#include "triton_family.hpp"

namespace gemm_advisor {

namespace {

// vLLM's NVIDIA tuner space (benchmarks/kernels/benchmark_moe.py, get_configs_compute_bound).
constexpr int kBlockM[] = {16, 32, 64, 128, 256};
constexpr int kBlockN[] = {32, 64, 128, 256};
constexpr int kBlockK[] = {64, 128, 256};
constexpr int kGroupM[] = {1, 16, 32, 64};
constexpr int kWarps[] = {4, 8};
constexpr int kMinStages = 2, kMaxStages = 5;
// Block-scaled fp8: per K-step and output element acc += dot(a, b) * a_s[:, None] * b_s[None, :]
// (two multiplies and an add), one fp32 scale loaded per A row and one per B column.
constexpr double kScaleOpsPerElement = 3.0;
constexpr double kScaleBytes = 4.0;

// Both parameter sets start from vllm-fp8-block's values (this kernel's code descends from that one),
// without its co-resident loads (2026-12-07): untested on this kernel, whose guards they lower
// (h200-fused-moe.csv 96.7% -> 94.8%, worst 87.0% -> 75.3%) and whose larger layers they predict
// faster (20 more in the invariants test).
ModelParams fp8_block_kernel_params() {
  ModelParams p = vllm_fp8_block_default_params();
  p.coresident_load_overlap = 0.0;
  return p;
}

// The parameter set of block-fp8 layers (Target::param_variant; a profile's
// `targets: vllm-fused-moe: fp8_block: model_parameters:`).
constexpr std::string_view kFp8BlockVariant = "fp8_block";
const ModelParams& fp8_block_params() {
  static const ModelParams kParams = [] {
    // Fitted with `gemm-advisor calibrate --param-set fp8_block --folds 6` on six block-fp8 MoE models
    // (DeepSeek-V3 tp8: data/measurements/h200-fused-moe{,-check,-check2}.csv; Kimi-K2 tp8, Qwen3-30B-A3B,
    // Qwen3-235B-A22B tp4, Qwen3-Coder-480B tp4 and Qwen3-Next-80B FP8: h200-fused-moe-fp8.csv; 108
    // layers), starting from vllm-fp8-block's values, which never saw this kernel: held out by model
    // 93.8% of oracle before, 96.8% after (worst 74.0% -> 77.4%); data/fit/h200-fused-moe-fp8.txt. The
    // per-step overhead is 4.7x the dense block-fp8 kernel's: each K-step's gathered scale loads and
    // scaling wait for the product (the chain), with tiles mostly of 16-64 rows. The others are
    // vllm-fp8-block's. This fit predates the last-K-step fix of wave_terms (model_core.hpp); the
    // same command after it gives 97.3% held out (k_step_overhead_cycles 962.8, loaded latency 1.25x),
    // but the files that fit writes ran worst at 77.8% of the best in h200-fused-moe-check7.csv against
    // 85.7% for these values (both written and timed together): these were kept. Then refitted from
    // them with the run of the advisor's top tiles added (h200-fused-moe-tiles-fp8.csv): held out by
    // model 95.5% -> 96.0% (worst 85.4% -> 80.5%), the files 95.5% -> 96.1% of the fastest timed
    // (h200-fused-moe-check9.csv); only the loaded latency (3.5 -> 7: the per-step scale loads wait
    // unhidden) and the L2 reuse between waves (0.5 -> 0) moved (data/fit/h200-fused-moe-fp8.txt).
    // Refitted 2026-12-02 (the same command and data) after the loads-in-flight count of
    // triton_family::loads_in_flight gave mma.sync tiles (most of these: 16-64 rows) one more
    // K-step of loads in flight: held out by model 94.9% before, 96.2% after (worst 76.1% ->
    // 84.9%, median top-1 time error 8.6% -> 6.7%); the per-K-step overhead halves (2273 -> 1136
    // cycles: the old count's missing step of loads in flight had been charged there) and the
    // narrow-tile efficiency goes 0.2 -> 0.15.
    ModelParams p = fp8_block_kernel_params();
    p.k_step_overhead_cycles = 1136;
    p.async_copy_fill_fraction = 0.3;
    p.narrow_tile_matrix_efficiency = 0.15;
    p.loaded_latency_multiplier = 7.0;
    p.unpipelined_latency_multiplier = 7.0;  // the one latency this fit had
    // One latency at every load: fitted with the loaded multiplier, idle_latency_fraction stays 1 here
    // (data/fit/h200-fp8-block.txt, 2026-12-06), where vllm-fp8-block's is 0.55.
    p.idle_latency_fraction = 1.0;
    p.l2_reuse_fraction = 0.0;
    p.memory_level_overlap = 1.0;
    p.tail_wave_fill_relief = 0.0;  // as the 16-bit set (vllm_fused_moe_default_params)
    return p;
  }();
  return kParams;
}

// BLOCK_SIZE_M 8 runs (Triton pads the dot to the instruction): vLLM ships H200 configs with it
// for block-fp8 decode (E=256,N=256,...fp8_w8a8,block_shape=[128,128].json, M 1..4) and they ran on
// our H200 (data/measurements/h200-fused-moe.csv). Triton's other rules are checked on a 16-row tile.
constexpr int kSmallBlockM = 8;
constexpr int kMinInstructionRows = 16;
TileConfig rules_view(const TileConfig& c) {
  TileConfig v = c;
  if (v.block_m == kSmallBlockM) v.block_m = 2 * kSmallBlockM;
  return v;
}

// What the kernel itself allows besides Triton's rules: no split-K, and with block scales a
// BLOCK_SIZE_K that divides the scale group (the kernel loads one scale per K-step; vLLM clamps
// BLOCK_SIZE_K to the group before the launch).
bool kernel_rules_ok(const TileConfig& c, const GemmProblem& p, const Hardware& hw, const TritonSettings& t) {
  return c.split_k == 1 && triton_config_rules_ok(rules_view(c), p, hw, t) &&
         (p.moe.quant_block == 0 || p.moe.quant_block % c.block_k == 0);
}

// The mapping of one GEMM of the layer: a grouped GEMM over the experts hit (the context's batch),
// whose M dimension the routing gives (block_terms[0]: padded blocks per expert, real rows per
// block, the fullest block). Padding rows are masked (no traffic, full matrix work); N wraps with
// % N (a tile always loads BLOCK_SIZE_N weight rows); K is masked. A's rows are gathered through the
// sorted token ids, each row K-contiguous, so a tile-step's copy is one line run per real row.
template <bool kBlockScales>
struct MoeRules {
  static constexpr bool kExtraStepWork = kBlockScales;
  template <bool kAligned>
  [[gnu::always_inline]] static inline bool map(const EstimateContext& ctx, const TileConfig& c, KernelShape& k) {
    const TritonResources r = triton_family::map_tile<kAligned>(ctx, c, k);
    if constexpr (kBlockScales) triton_family::hold_scaled_product(r, k);
    if (!kernel_rules_ok(c, *ctx.problem, *ctx.hw, ctx.profile->triton) || r.check != TritonResourceCheck::ok)
      return false;
    const EstimateContext::BlockTerms& tm = ctx.block_terms[0][block_index(c.block_m)];
    const EstimateContext::BlockTerms& tn = ctx.block_terms[1][block_index(c.block_n)];
    const EstimateContext::BlockTerms& tk = ctx.block_terms[2][block_index(c.block_k)];
    k.tiles_m = tm.blocks;
    k.tiles_n = tn.blocks;
    k.k_blocks = tk.blocks;
    k.split_k = 1;
    k.group_m = c.group_m;
    k.batches_in_launch_order = false;  // one raster over every expert's padded blocks (EM)
    k.a_rows_loaded = k.a_rows_unique = tm.extent;
    k.a_rows_busiest = k.out_rows_busiest = tm.busiest;
    k.b_cols_loaded = k.b_cols_busiest = k.block_n;
    k.b_cols_unique = tn.extent;
    k.out_cols_busiest = tn.busiest;
    k.k_depth = tk.extent;
    k.k_depth_busiest = tk.busiest;
    // The copy into shared memory covers the whole tile: masked padding rows are zero-filled there
    // (Triton's masked asynchronous copy writes `other`), so they cost the CU's fill, not traffic.
    k.a_line_bytes = k.block_m * tk.busiest_line_bytes;
    k.b_line_bytes = k.block_n * tk.busiest_line_bytes;
    triton_family::map_matrix_work(tm, tn, tk, r.full_instruction, k);
    // The smallest matrix instruction has 16 rows (mma.sync m16n8k*): an 8-row tile computes 16.
    if (c.block_m < kMinInstructionRows) k.matrix_flops *= static_cast<double>(kMinInstructionRows) / c.block_m;
    k.loads_in_flight = triton_family::loads_in_flight<kAligned>(ctx, c, r);
    k.out_elem_bytes = ctx.bytes_out;
    if constexpr (kBlockScales) {
      k.extra_step_bytes = (k.block_m + k.block_n) * kScaleBytes;
      k.vector_ops = kScaleOpsPerElement * k.block_m * k.block_n;
      k.matrix_result_per_step = true;
    }
    return true;
  }
};

// One GEMM's estimate, the rules chosen by the problem's quantisation.
template <bool kRecord>
inline void estimate_gemm(const EstimateContext& ctx, const TileConfig& c, LatencyEstimate* out, Estimate* record) {
  // Each GEMM's operands are aligned or not on their own (model_core.hpp, estimate_terms' kAligned).
  const bool aligned = core::operands_aligned(ctx);
  if (ctx.problem->moe.quant_block != 0) {
    if (aligned) core::estimate_terms<MoeRules<true>, kRecord, true>(ctx, c, out, record);
    else core::estimate_terms<MoeRules<true>, kRecord, false>(ctx, c, out, record);
  } else {
    if (aligned) core::estimate_terms<MoeRules<false>, kRecord, true>(ctx, c, out, record);
    else core::estimate_terms<MoeRules<false>, kRecord, false>(ctx, c, out, record);
  }
}

// A layer's record: times (the launch costs too: the JSON gave one launch's under a two-launch time,
// a fresh user's find), bytes and blocks summed over its two launches (one config for both, as vLLM
// runs them); the layer's last wave is the down GEMM's; the per-K-step terms, the first wave, hit
// rates and resources are the up GEMM's (explain shows each GEMM's own).
Estimate combine_layer(const Estimate& up, const Estimate& down, double layer_flops) {
  Estimate e = up;
  if (!up.feasible || !down.feasible) {
    e.feasible = false;
    e.latency_s = std::numeric_limits<double>::infinity();
    return e;
  }
  e.latency_s = up.latency_s + down.latency_s;
  e.flops_per_s = layer_flops / e.latency_s;
  e.output_tiles = up.output_tiles + down.output_tiles;
  e.work_tiles = up.work_tiles + down.work_tiles;
  e.waves = up.waves + down.waves;
  // The block slots busy over both launches' waves (one config: the same slots per wave), and the
  // layer's last wave, the down GEMM's.
  const double slots = up.waves > 0 && up.last_wave_efficiency > 0 ? up.work_tiles / (up.waves * up.last_wave_efficiency) : 0;
  if (slots > 0) e.last_wave_efficiency = e.work_tiles / (e.waves * slots);
  e.last_wave_blocks = down.last_wave_blocks;
  e.last_wave_fill = down.last_wave_fill;
  e.prefetch_s = up.prefetch_s + down.prefetch_s;
  e.store_s = up.store_s + down.store_s;
  e.launch_s = up.launch_s + down.launch_s;
  e.last_wave_s = down.last_wave_s;
  e.dram_bytes = up.dram_bytes + down.dram_bytes;
  return e;
}

template <bool kRecord>
inline void estimate_problem(const EstimateContext& ctx, const TileConfig& c, LatencyEstimate* out, Estimate* record) {
  if (!ctx.moe_layer) {
    estimate_gemm<kRecord>(ctx, c, out, record);
    return;
  }
  const MoeLayerContexts& layer = *ctx.moe_layer;
  LatencyEstimate up, down;
  Estimate up_record, down_record;
  estimate_gemm<kRecord>(layer.up_ctx, c, &up, &up_record);
  estimate_gemm<kRecord>(layer.down_ctx, c, &down, &down_record);
  out->feasible = up.feasible && down.feasible;
  out->latency_s = out->feasible ? up.latency_s + down.latency_s : std::numeric_limits<double>::infinity();
  out->arithmetic_intensity = out->feasible ? up.arithmetic_intensity : 0.0;
  if constexpr (kRecord) *record = combine_layer(up_record, down_record, ctx.flops);
}

class FusedMoeTarget final : public Target {
 public:
  const TargetInfo& info() const override {
    static const TargetInfo kInfo{
        "vllm-fused-moe",
        "vLLM's fused MoE grouped GEMM: token rows gathered per expert and padded to BLOCK_SIZE_M "
        "(moe_align_block_size), one expert's weights per block, N wrapped, K masked; bf16/fp16, fp8_w8a8 per "
        "tensor or with [128,128] block scales applied every K-step; a layer = the up (2N x H) and down (H x N) "
        "launches with one config",
        "vllm-project/vllm vllm/model_executor/layers/fused_moe/fused_moe.py (fused_moe_kernel, "
        "get_default_config), tuner space of benchmarks/kernels/benchmark_moe.py; our copy after it: "
        "tools/measure/fused_moe_kernel.py, measured on the H200 (data/measurements/h200-fused-moe.csv)",
        {{"block_m", "BLOCK_SIZE_M", "16, 32, 64, 128, 256, and 8 for block fp8 on NVIDIA (<= the next power of two of an expert's rows)"},
         {"block_n", "BLOCK_SIZE_N", "32, 64, 128, 256 (also under block fp8, as vLLM's shipped files use them)"},
         {"block_k", "BLOCK_SIZE_K", "64, 128, 256 (block fp8: 128, the scale group)"},
         {"group_m", "GROUP_SIZE_M", "1, 16, 32, 64 (those mapping the grid alike collapsed to the smallest)"},
         {"num_warps", "num_warps", "4, 8"},
         {"num_stages", "num_stages", "2..5 (at most triton.max_num_stages); 2 on AMD, as vLLM's ROCm tuner"}},
        "bf16",
        "NT"};
    return kInfo;
  }
  const ModelParams& default_params() const override { return vllm_fused_moe_default_params(); }
  // The block-fp8 path's inner loop (scales loaded and applied every K-step, the product consumed
  // before the next step) is vllm-fp8-block's kernel's: it runs on that target's parameters (fitted
  // on 156 fp8 GEMMs), the rest on this target's own (fitted on the 16-bit MoE models).
  // Block-fp8 layers run the kernel's scale path (per-step scale loads and multiply, the fresh
  // product's registers), whose own parameters are fitted on block-fp8 models (fp8_block_params).
  std::string_view param_variant(const GemmProblem& p) const override {
    return p.moe.quant_block != 0 ? kFp8BlockVariant : std::string_view{};
  }
  std::vector<std::string_view> param_variants() const override { return {kFp8BlockVariant}; }
  const ModelParams& variant_default_params(std::string_view variant) const override {
    return variant == kFp8BlockVariant ? fp8_block_params() : default_params();
  }

  std::string problem_error(const GemmProblem& p, const Profile& profile) const override {
    if (!p.is_moe())
      return "vLLM's fused MoE kernel takes a MoE layer (experts, experts per token, hidden and intermediate "
             "sizes), not a plain GEMM";
    if (p.dtype != Dtype::bf16 && p.dtype != Dtype::fp16 && p.dtype != Dtype::fp8)
      return "vLLM's fused MoE takes bf16, fp16 or fp8_w8a8, got " + std::string(dtype_name(p.dtype));
    if (p.layout.name() != "NT") return "vLLM's fused MoE computes x W^T (layout NT), got " + p.layout.name();
    if (!profile.hw.rate(p.dtype))
      return "dtype " + std::string(dtype_name(p.dtype)) + " has no matrix path on " + profile.hw.name;
    // vLLM's tuner keeps the BLOCK_SIZE_K (64, 128, 256) that the scale group divides: a group no one
    // of them is a multiple of (512) leaves it nothing to run.
    if (p.moe.quant_block != 0 &&
        std::none_of(std::begin(kBlockK), std::end(kBlockK), [&](int bk) { return bk % p.moe.quant_block == 0; }))
      return "block shape " + std::to_string(p.moe.quant_block) + "x" + std::to_string(p.moe.quant_block) +
             ": vLLM's tuner keeps a BLOCK_SIZE_K (64, 128, 256) only where the scale group divides it, and " +
             std::to_string(p.moe.quant_block) + " divides none";
    // The one BLOCK_SIZE_K a group below 64 leaves must still load Triton's 32 bytes a row (256 bits;
    // triton.cpp's rule): 16x16 fp8 groups left no config, said as a resource limit.
    if (p.moe.quant_block != 0 && p.moe.quant_block * dtype_bits(p.dtype) < 256)
      return "block shape " + std::to_string(p.moe.quant_block) + "x" + std::to_string(p.moe.quant_block) +
             ": BLOCK_SIZE_K runs as the scale group, " + std::to_string(p.moe.quant_block) +
             ", which loads fewer than the 32 bytes a row Triton's dot needs for " + std::string(dtype_name(p.dtype));
    if (p.moe.quant_block != 0 && profile.hw.vector_fp32_lanes_per_cu <= 0)
      return "the profile (" + escape_for_display(profile.hw.source) +
             ") has no compute.vector_fp32_lanes_per_cu, which the per-step scale math needs";
    return "";
  }

  void candidates(const GemmProblem& p, const Profile& profile, std::vector<TileConfig>& out) const override {
    out.clear();
    if (!problem_error(p, profile).empty()) return;
    // The reserve of the problem's own parameter set: a block-fp8 layer's is fp8_block's (the set its estimates
    // use), not the 16-bit one's (a fresh user's find, 2026-12-06: the two disagreed, `rank` dropping
    // configs that `explain` called feasible).
    const double reserve = problem_params(p, profile).register_overhead_per_thread;
    const MoeRoutingTerms routing = moe_routing_terms(p);
    // A block much taller than the busiest expert's rows only pads: the tuner times such blocks, the
    // advisor skips those more than one size above the busiest expert's expected rows (rounded to a
    // power of two). One size above stays: under the tuner's random routing some experts get more rows
    // than the expectation, and a block that holds them reads their weights once, not twice; and it
    // may reach the full matrix instruction (Hopper's wgmma: 64 rows) that a shorter block gives up
    // (Mixtral-8x7B on mi300x at M = 96: the expected 30 rows had capped the space at 32, where
    // 64x128x128 is predicted 5% faster).
    const auto max_m = std::max<std::int64_t>(
        kBlockM[0], 2 * next_pow2(static_cast<std::int64_t>(std::ceil(routing.busiest_expert_rows))));
    const std::int64_t q = p.moe.quant_block;
    triton_family::TunerSpace space;
    // vLLM's ROCm tuner (benchmark_moe.py, get_rocm_tuning_space) times BLOCK_SIZE_M 16-256 and
    // num_stages 2 only, and its shipped AMD files hold no BLOCK_SIZE_M 8 and no num_stages above 2
    // (1173 of 1321 entries at 2, 20 at 1: ../shared/ref/public/vllm_fused_moe_configs.csv): an AMD
    // profile's space is that (8-row tiles and 4 stages were written into AMD files: a fresh user's
    // find, 2026-12-04). Given configs outside it are still estimated.
    const bool rocm = profile.hw.vendor == "amd";
    // BLOCK_SIZE_M 8 where vLLM's shipped files use it: block fp8 on NVIDIA (see rules_view).
    if (q != 0 && !rocm) space.block_m.push_back(kSmallBlockM);
    for (int bm : kBlockM)
      if (bm <= max_m) space.block_m.push_back(bm);
    space.block_n.assign(std::begin(kBlockN), std::end(kBlockN));
    // Block scales: the tuner's BLOCK_SIZE_K % group == 0, then vLLM's clamp to the group, so every
    // larger BLOCK_SIZE_K runs the group's: kept once.
    // A group below the smallest BLOCK_SIZE_K (32) runs every tuned BLOCK_SIZE_K as the group's: that
    // one (it was no config at all, "no feasible config": a fresh MoE user's find, 2026-12-05).
    if (q == 0) space.block_k.assign(std::begin(kBlockK), std::end(kBlockK));
    else space.block_k.push_back(static_cast<int>(q));
    space.num_warps.assign(std::begin(kWarps), std::end(kWarps));
    space.group_m.assign(std::begin(kGroupM), std::end(kGroupM));
    space.min_stages = kMinStages;
    space.max_stages = rocm ? kMinStages : std::min(kMaxStages, profile.triton.max_num_stages);
    // The grid's rows of blocks: every expert's padded blocks.
    triton_family::tuner_candidates(
        space, p, profile, reserve, [&](int bm) { return routing.blocks[block_index(bm)]; }, out);
    // A layer runs its two GEMMs with the one config, and each GEMM's operands are aligned or not
    // on their own (up: K = H; down: K = N), so they are pipelined, and take shared memory, apart:
    // a config the compiler refuses for either GEMM is no candidate (the space above is the
    // layer's own, whose operands are the up GEMM's).
    if (p.moe.gemm == MoeGemm::layer) {
      const MatrixRate& rate = *profile.hw.rate(p.dtype);
      for (const GemmProblem& g : moe_layer_gemms(p)) {
        const TritonPipelining pipelined = triton_operand_pipelining(g, profile.triton);
        out.erase(std::remove_if(out.begin(), out.end(),
                                 [&](const TileConfig& c) {
                                   return triton_resources(c, g.dtype, rate, profile.hw, profile.triton, reserve,
                                                           pipelined)
                                              .check != TritonResourceCheck::ok;
                                 }),
                  out.end());
      }
    }
  }

  std::string infeasibility(const TileConfig& c, const GemmProblem& p, const Profile& profile) const override {
    if (std::string why = problem_error(p, profile); !why.empty()) return why;
    if (c.split_k != 1) return "split_k = " + std::to_string(c.split_k) + ": vLLM's fused MoE has no split-K";
    // BLOCK_SIZE_M 8 (rules_view), or Triton's rule for the other block sizes: checked here whole,
    // so that the message states the rule this target enforces.
    if (c.block_m != kSmallBlockM && (c.block_m < 2 * kSmallBlockM || c.block_m > 1024 || !is_pow2(c.block_m)))
      return "block_m = " + std::to_string(c.block_m) + " must be 8 or a power of two in [16, 1024]";
    if (std::string why = triton_rules_message(rules_view(c), p, profile); !why.empty()) return why;
    if (p.moe.quant_block != 0 && p.moe.quant_block % c.block_k != 0)
      return "block_k = " + std::to_string(c.block_k) + " must divide the " + std::to_string(p.moe.quant_block) +
             "-wide scale group (one scale per K-step)";
    if (p.moe.gemm != MoeGemm::layer) {
      if (std::string why = triton_resource_words(c, p, profile, *this); !why.empty()) return why;
      return triton_search_bound_message(rules_view(c), profile);
    }
    // A layer: each of its GEMMs must fit (their operands are pipelined apart, see candidates). A
    // limit both hit alike is the config's; otherwise each GEMM that does not fit is named (as
    // explain titles it: "down GEMM MxNxK") with what it needs.
    const std::array<GemmProblem, 2> gemms = moe_layer_gemms(p);
    const std::array<std::string, 2> why = {triton_resource_words(c, gemms[0], profile, *this),
                                            triton_resource_words(c, gemms[1], profile, *this)};
    if (why[0] == why[1]) return why[0].empty() ? triton_search_bound_message(rules_view(c), profile) : why[0];
    std::string words;
    for (std::size_t i = 0; i < gemms.size(); ++i) {
      if (why[i].empty()) continue;
      const GemmProblem& g = gemms[i];
      words += (words.empty() ? "the " : "; the ") + std::string(moe_gemm_name(g.moe.gemm)) + " GEMM " +
               std::to_string(g.m) + "x" + std::to_string(g.n) + "x" + std::to_string(g.k) + " " + why[i];
    }
    return words;
  }

  TileConfig default_config(const GemmProblem& p) const override { return vllm_fused_moe_default_config(p); }

  Estimate estimate(const EstimateContext& ctx, const TileConfig& c) const override {
    Estimate e;
    LatencyEstimate unused;
    estimate_problem<true>(ctx, c, &unused, &e);
    return e;
  }
  LatencyEstimate estimate_latency(const EstimateContext& ctx, const TileConfig& c) const override {
    LatencyEstimate out;
    estimate_problem<false>(ctx, c, &out, nullptr);
    return out;
  }
  void estimate_latencies(const EstimateContext& ctx, const TileConfig* configs, std::size_t count,
                          LatencyEstimate* out) const override {
    for (std::size_t i = 0; i < count; ++i) estimate_problem<false>(ctx, configs[i], &out[i], nullptr);
  }
  void estimate_records(const EstimateContext& ctx, const TileConfig* configs, std::size_t count,
                        Estimate* out) const override {
    for (std::size_t i = 0; i < count; ++i) {
      out[i] = Estimate{};
      LatencyEstimate unused;
      estimate_problem<true>(ctx, configs[i], &unused, &out[i]);
    }
  }
};

}  // namespace

TileConfig vllm_fused_moe_default_config(const GemmProblem& p) {
  TileConfig c;
  c.split_k = 1;
  c.num_warps = 4;
  c.num_stages = 3;
  if (p.dtype == Dtype::fp8 && p.moe.quant_block != 0) {
    c.block_m = 64;
    c.block_n = static_cast<int>(p.moe.quant_block);
    c.block_k = static_cast<int>(p.moe.quant_block);
    c.group_m = 32;
  } else if (p.m <= p.moe.experts) {
    c.block_m = 16;
    c.block_n = 32;
    c.block_k = 64;
    c.group_m = 1;
  } else {
    c.block_m = 64;
    c.block_n = 64;
    c.block_k = 32;
    c.group_m = 8;
  }
  return c;
}

const ModelParams& vllm_fused_moe_default_params() {
  static const ModelParams kParams = [] {
    // Fitted with `gemm-advisor calibrate --folds 6` on this kernel's H200 data (the 6 models x 18 M
    // of examples/moe-models.csv: the first run's sampled space, two runs of the advisor's own files
    // and the GROUP_SIZE_M run of its best tiles, data/measurements/h200-fused-moe{,-check,-check2,
    // -groups}.csv; data/fit/h200-fused-moe.txt), starting from the vllm-fp8-block target's values.
    // Only 16-bit problems take them (block-fp8 layers have their own set, fp8_block_params). Held
    // out by model: 94.9% of oracle before (the start never saw this kernel), 94.7% after; the
    // files written with these values reach 94.98% of the best timed in the same run
    // (h200-fused-moe-check6.csv) against 94.1% with the start's. The others are vllm-fp8-block's.
    // coresident_overhead_overlap 1 (co-resident blocks hide each other's per-step overhead) was
    // fitted alone afterwards, with the run of the advisor's top tiles added (h200-fused-moe-tiles.csv):
    // held out by model 95.4% -> 95.8%, no fold worse; the files then reach 95.0% of the best timed
    // in the same run against 94.7% before (h200-fused-moe-check8.csv).
    ModelParams p = fp8_block_kernel_params();
    p.k_step_overhead_cycles = 409.2;
    p.k_step_overhead_overlap = 0.35;
    p.async_copy_fill_fraction = 0.35;
    p.narrow_tile_matrix_efficiency = 0.25;
    p.loaded_latency_multiplier = 3.5;
    p.unpipelined_latency_multiplier = 3.5;  // the one latency this fit had
    // One latency at every load: fitted with the loaded multiplier, idle_latency_fraction stays 1 here
    // (data/fit/h200-fp8-block.txt, 2026-12-06), where vllm-fp8-block's is 0.55.
    p.idle_latency_fraction = 1.0;
    p.dram_active_cu_headroom = 5.6;
    p.memory_level_overlap = 0.9;
    p.coresident_overhead_overlap = 1.0;
    // No faster copies in a partial last wave (model_params.hpp, tail_wave_fill_relief): the files
    // written with 1 reached 96.59% of the best layer time against 96.72% with 0, timed twice each
    // in one run (h200-fused-moe-check13/14.csv, all 11 models).
    p.tail_wave_fill_relief = 0.0;
    return p;
  }();
  return kParams;
}

const Target& vllm_fused_moe_target() {
  static const FusedMoeTarget kTarget;
  return kTarget;
}

}  // namespace gemm_advisor
