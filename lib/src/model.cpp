#include "gemm_advisor/model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gemm_advisor/moe.hpp"
#include "gemm_advisor/targets/triton.hpp"

#include "model_core.hpp"

namespace gemm_advisor {

const char* bound_name(Bound b) {
  switch (b) {
    case Bound::compute: return "compute";
    case Bound::memory: return "memory";
    case Bound::issue: return "issue";
  }
  return "?";
}

namespace {

// A fused-MoE GEMM as a grouped GEMM over the experts the routing hits (EstimateContext::moe_layer's
// comment): its M dimension from the routing, N and K as any GEMM's (filled by the caller).
void moe_gemm_terms(const GemmProblem& p, EstimateContext& ctx) {
  using core::round_up;
  const MoeRoutingTerms r = moe_routing_terms(p);
  ctx.batch = r.active_experts;
  ctx.m = r.routed_rows / r.active_experts;
  ctx.flops = 2.0 * r.routed_rows * ctx.n * ctx.k;
  for (std::size_t i = 0; i < ctx.block_terms[0].size(); ++i) {
    const double block = static_cast<double>(kSmallestBlock << i);
    EstimateContext::BlockTerms& t = ctx.block_terms[0][i];
    t.blocks = r.blocks[i] / r.active_experts;
    t.extent = r.routed_rows / r.blocks[i];
    t.padded = round_up(block, ctx.rate->instruction_m);
    t.row_line_bytes = round_up(t.extent * ctx.bytes_in, core::kLineBytes);
    t.block_line_bytes = round_up(block * ctx.bytes_in, core::kLineBytes);
    t.busiest = r.busiest_rows[i];
    t.busiest_line_bytes = round_up(t.busiest * ctx.bytes_in, core::kLineBytes);
  }
  ctx.operand_bytes = (r.active_experts * ctx.n * ctx.k + r.a_rows * ctx.k) * ctx.bytes_in;
}

}  // namespace

double store_sector_factor(const EstimateContext& ctx, double block_n, double elem_bytes) {
  if (!ctx.sectored_store) return 1.0;
  return core::store_sector_factor(ctx.n * elem_bytes, std::min(block_n, ctx.n) * elem_bytes);
}

EstimateContext make_estimate_context(const GemmProblem& p, const Profile& profile, const ModelParams& params) {
  if (p.moe.gemm == MoeGemm::layer) {
    auto layer = std::make_shared<MoeLayerContexts>();
    const std::array<GemmProblem, 2> g = moe_layer_gemms(p);
    layer->up = g[0];
    layer->down = g[1];
    layer->up_ctx = make_estimate_context(layer->up, profile, params);
    layer->down_ctx = make_estimate_context(layer->down, profile, params);
    EstimateContext ctx = layer->up_ctx;
    ctx.problem = &p;
    ctx.flops = p.flops();
    ctx.moe_layer = std::move(layer);
    return ctx;
  }
  using core::ceil_div;
  using core::round_up;
  const Hardware& hw = profile.hw;
  EstimateContext ctx;
  ctx.problem = &p;
  ctx.profile = &profile;
  ctx.hw = &hw;
  ctx.params = params;
  ctx.rate = hw.rate(p.dtype);
  ctx.m = static_cast<double>(p.m);
  ctx.n = static_cast<double>(p.n);
  ctx.k = static_cast<double>(p.k);
  ctx.batch = static_cast<double>(p.batch);
  ctx.flops = p.flops();
  const double m = ctx.m, n = ctx.n, k = ctx.k, batch = ctx.batch;

  // Alignment: an operand whose contiguous dimension is not a multiple of 16 elements cannot be
  // loaded with 16-byte vectors (Triton specialises integer arguments on divisibility by 16,
  // triton/runtime/jit.py) nor copied asynchronously: it goes element by element through
  // registers, at the cost of the cache lines it touches (core::elementwise_line_bytes; the target
  // says what else it loses: the Triton targets, its place in the software pipeline,
  // triton_operand_pipelining).
  ctx.a_aligned = a_vector_aligned(p.m, p.k, p.layout);
  ctx.b_aligned = b_vector_aligned(p.n, p.k, p.layout);
  ctx.layout = compiled_layout(p.layout, p.m, p.n);
  ctx.bytes_in = dtype_bits(p.dtype) / 8.0;
  ctx.bytes_out = dtype_bits(output_dtype(p.dtype)) / 8.0;
  if (!ctx.rate) return ctx;

  // Tiles per dimension, the average extent a tile actually covers, and the block padded to the
  // matrix instruction, for every power-of-two block size.
  const double sizes[3] = {m, n, k};
  const int instruction[3] = {ctx.rate->instruction_m, ctx.rate->instruction_n, ctx.rate->instruction_k};
  for (std::size_t d = 0; d < 3; ++d) {
    for (std::size_t i = 0; i < ctx.block_terms[d].size(); ++i) {
      const double block = static_cast<double>(kSmallestBlock << i);
      EstimateContext::BlockTerms& t = ctx.block_terms[d][i];
      t.blocks = ceil_div(sizes[d], block);
      t.extent = sizes[d] / t.blocks;
      t.padded = round_up(block, instruction[d]);
      t.row_line_bytes = round_up(t.extent * ctx.bytes_in, core::kLineBytes);
      t.block_line_bytes = round_up(block * ctx.bytes_in, core::kLineBytes);
      t.busiest = std::min(block, sizes[d]);
      t.busiest_line_bytes = round_up(t.busiest * ctx.bytes_in, core::kLineBytes);
      t.narrow_work = block / params.narrow_tile_matrix_efficiency;
    }
  }

  // DRAM traffic over the whole kernel: each wave fetches the operand panels its tiles touch;
  // panels that fit in the reusable part of L2 (and the LLC) are fetched once.
  ctx.operand_bytes = batch * (m * k + k * n) * ctx.bytes_in;
  if (p.is_moe()) moe_gemm_terms(p, ctx);
  const double cache_bytes = hw.l2_bytes * params.l2_reuse_fraction + hw.llc_bytes;
  ctx.operand_reuse = std::min(1.0, cache_bytes / ctx.operand_bytes);

  ctx.cu_flops_per_s = ctx.rate->flops_per_cycle_per_cu * hw.clock_hz * hw.matrix_peak_fraction;
  ctx.dram_bytes_per_s = hw.dram_bandwidth_bytes_per_s * hw.dram_bandwidth_fraction;
  // A row of the output that is not a whole number of sectors starts or ends inside a sector another
  // tile (or the next row) writes too (Hardware::misaligned_store_fraction).
  auto store_rate = [&](double elem_bytes) {
    const double row_bytes = n * elem_bytes;
    return std::fmod(row_bytes, core::kStoreSectorBytes) == 0 ? ctx.dram_bytes_per_s
                                                             : ctx.dram_bytes_per_s * hw.misaligned_store_fraction;
  };
  ctx.out_store_bytes_per_s = store_rate(ctx.bytes_out);
  ctx.fp32_store_bytes_per_s = store_rate(core::kFp32Bytes);
  // ... and the sectors a tile's row touches there, by block_n = 2^i (core::store_sector_factor): on
  // NVIDIA's L2 of 32-byte sectors; AMD's write granularity for a partial line has no public figure
  // here, and its profiles no measured misaligned rate: 1 there.
  ctx.sectored_store = hw.vendor == "nvidia";
  for (std::size_t i = 0; i < ctx.out_store_sector_factor.size(); ++i) {
    const double block_n = static_cast<double>(1u << i);
    ctx.out_store_sector_factor[i] = store_sector_factor(ctx, block_n, ctx.bytes_out);
    ctx.fp32_store_sector_factor[i] = store_sector_factor(ctx, block_n, core::kFp32Bytes);
  }

  // The per-config loop's constant factors (EstimateContext; the expressions of core::wave_terms).
  ctx.dram_cu_bytes_per_s = ctx.dram_bytes_per_s * params.dram_active_cu_headroom / hw.cu_count;
  ctx.l2_headroom_bytes_per_s = hw.l2_bandwidth_bytes_per_s * params.dram_active_cu_headroom;
  ctx.k_step_overhead_s = params.k_step_overhead_cycles / hw.clock_hz;
  ctx.matrix_drain_s = params.serialized_matrix_drain_cycles / hw.clock_hz;
  // Only a warpgroup's matrix instruction (Hopper's wgmma) has the lone-warpgroup wait: a warp-level
  // one (A100's mma.sync, AMD's MFMA) was not measured to.
  ctx.lone_warpgroup_step_s = hw.matrix_instruction_warps > 1 ? params.lone_warpgroup_step_cycles / hw.clock_hz : 0.0;
  ctx.serialized_element_s = hw.l2_latency_s * params.serialized_load_latency_fraction;
  const double unstaged = params.staged_registers_per_element * 0.0;
  ctx.no_staged_registers = core::operands_aligned(ctx) && unstaged == 0 && !std::signbit(unstaged);
  ctx.spill_fraction_positive = params.spill_bandwidth_fraction > 0;
  ctx.warp_instruction_registers = kMmaSyncAccumulatorRegisters;
  // A bound of triton_instruction_registers' full-instruction value, whose N is at most
  // instruction_max_n: the same expression is monotone in N for instruction_m >= 0 and positive threads.
  const double instruction_threads = static_cast<double>(hw.matrix_instruction_warps) * hw.warp_size;
  ctx.widest_instruction_registers =
      ctx.rate->instruction_m >= 0 && ctx.rate->instruction_max_n >= 0 && instruction_threads > 0
          ? ctx.rate->instruction_m * static_cast<double>(ctx.rate->instruction_max_n) / instruction_threads
          : std::numeric_limits<double>::infinity();
  ctx.triton_store_scratch_min_warps = triton_store_scratch_min_warps(p, profile.triton);
  for (int w = 1; w <= EstimateContext::kWarpTermsMax; ++w) ctx.warp_terms[w] = core::warp_terms_of(hw, w);
  return ctx;
}

}  // namespace gemm_advisor
