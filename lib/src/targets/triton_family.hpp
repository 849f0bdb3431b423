#pragma once
// Mapping pieces the Triton targets share (a private header): every Triton kernel here issues the
// same matrix instructions from the same tile, and copies aligned operands the same way; they differ
// in which rows they load (masked or wrapped), in extra per-step work, and in their epilogue.
#include <cstddef>
#include <vector>

#include "gemm_advisor/kernel_shape.hpp"
#include "gemm_advisor/model.hpp"
#include "gemm_advisor/targets/triton.hpp"
#include "../model_core.hpp"

namespace gemm_advisor::triton_family {

/// The tile fields and the resources every Triton kernel has: block sizes, warps, stages, shared
/// memory (triton_smem_bytes), one fp32 accumulator tile (in registers, or in tensor memory where
/// the full instruction is Blackwell's tcgen05), and the elements an unaligned operand
/// stages through registers (the whole A and B tiles); no extra loads or vector math per step (a
/// target with them sets its own after this). Returns the resource view, whose `check` says what
/// the compiler would refuse (ctx.rate must be set). kAligned: both operands are aligned
/// (ctx.a_aligned && ctx.b_aligned), so both are pipelined; the model's per-config loop is compiled
/// for it apart (target_impl.hpp), which keeps the common case free of the per-operand buffers.
/// `store_scratch_min_warps`: the epilogue's shared memory rule (triton_resources; 0: none).
template <bool kAligned>
[[gnu::always_inline]] inline TritonResources map_tile(const EstimateContext& ctx, const TileConfig& c, KernelShape& k,
                                                        int store_scratch_min_warps = 0) {
  // The thread count and register cap from the context's table (core::warp_terms).
  EstimateContext::WarpTerms scratch;
  const EstimateContext::WarpTerms& w = core::warp_terms(ctx, c.num_warps, &scratch);
  const TritonThreadLimits limits{w.threads, w.register_cap, ctx.warp_instruction_registers,
                                  ctx.widest_instruction_registers};
  const TritonResources r = triton_resources(
      c, ctx.problem->dtype, *ctx.rate, *ctx.hw, ctx.profile->triton, ctx.params.register_overhead_per_thread, limits,
      kAligned ? TritonPipelining{}
               : triton_operand_pipelining(ctx.a_aligned, ctx.b_aligned, ctx.problem->dtype, ctx.profile->triton),
      store_scratch_min_warps);
  k.block_m = c.block_m;
  k.block_n = c.block_n;
  k.block_k = c.block_k;
  k.num_warps = c.num_warps;
  k.num_stages = c.num_stages;
  k.smem_bytes = r.smem_bytes;
  k.accumulator_registers = r.accumulator_registers;
  k.tensor_memory_blocks = r.tensor_memory_blocks;
  k.tensor_memory_bytes = r.tensor_memory_bytes;
  k.a_staged_elements = k.block_m * k.block_k;
  k.b_staged_elements = k.block_k * k.block_n;
  k.b_staged_across_rows = false;
  k.extra_step_bytes = 0;
  k.vector_ops = 0;
  k.matrix_result_per_step = false;
  return r;
}

/// For kernels that scale each step's product before adding it (vllm-fp8-block, block-fp8 MoE):
/// the accumulator and the fresh product are both live in registers, also on Blackwell, where
/// tcgen05 makes the product in tensor memory and it comes out to registers every step to be
/// scaled. `r`: map_tile's resources.
inline void hold_scaled_product(const TritonResources& r, KernelShape& k) {
  k.accumulator_registers = 2 * r.tile_registers;
}

/// The matrix work of one tile-step, padded to the profile's instruction. A tile narrower than the
/// instruction's M, or too few warps to issue it (Hopper's wgmma needs a warpgroup of 4), runs a
/// narrower synchronous instruction at the fitted narrow_tile_matrix_efficiency instead; only the
/// full instruction is asynchronous. `full_instruction`: map_tile's TritonResources::full_instruction;
/// tm, tn, tk: the block terms of k's block sizes (tm.narrow_work = block_m / narrow_tile_matrix_efficiency).
inline void map_matrix_work(const EstimateContext::BlockTerms& tm, const EstimateContext::BlockTerms& tn,
                            const EstimateContext::BlockTerms& tk, bool full_instruction, KernelShape& k) {
  const double bm_work = full_instruction ? tm.padded : tm.narrow_work;
  k.matrix_flops = 2.0 * bm_work * tn.padded * tk.padded;
  k.async_matrix = full_instruction;
}

/// Grid, loads and matrix work of a kernel whose offsets wrap with `% M` and `% N` (Triton's
/// tutorial, vLLM's kernels): a tile-step always loads block_m rows of A and block_n columns of B,
/// an edge tile's extra ones being real rows of other tiles (traffic, served by the cache), while
/// the distinct rows are the real ones; K is masked. The block sizes must be valid powers of two;
/// `full_instruction` is map_tile's.
inline void map_wrapped_operands(const EstimateContext& ctx, const TileConfig& c, bool full_instruction, KernelShape& k) {
  const EstimateContext::BlockTerms& tm = ctx.block_terms[0][block_index(c.block_m)];
  const EstimateContext::BlockTerms& tn = ctx.block_terms[1][block_index(c.block_n)];
  const EstimateContext::BlockTerms& tk = ctx.block_terms[2][block_index(c.block_k)];
  const Layout& layout = ctx.problem->layout;
  k.tiles_m = tm.blocks;
  k.tiles_n = tn.blocks;
  k.k_blocks = tk.blocks;
  k.a_rows_loaded = k.a_rows_busiest = k.block_m;
  k.a_rows_unique = tm.extent;
  k.b_cols_loaded = k.b_cols_busiest = k.block_n;
  k.b_cols_unique = tn.extent;
  k.out_rows_busiest = tm.busiest;  // stores are masked
  k.out_cols_busiest = tn.busiest;
  k.k_depth = tk.extent;
  k.k_depth_busiest = tk.busiest;
  // Whole cache lines: a row of block_m elements where A is stored K x M, else block_m rows of the
  // K-step's depth; likewise for B.
  k.a_line_bytes = layout.a_transposed ? tk.busiest * tm.block_line_bytes : k.block_m * tk.busiest_line_bytes;
  k.b_line_bytes = layout.b_transposed ? k.block_n * tk.busiest_line_bytes : tk.busiest * tn.block_line_bytes;
  map_matrix_work(tm, tn, tk, full_instruction, k);
}

/// Loads issued ahead of the math: num_stages - 1, the distance at which Triton's pipeliner issues a
/// K-step's loads, or min(num_stages - 1, triton.max_loads_in_flight) where the profile caps them (a
/// register-staged pipeline: AMD CDNA 3). Not the operand buffers less one: the buffers differ by
/// matrix path (smem_stage_offset) because an asynchronous matrix instruction (wgmma, tcgen05)
/// still reads the current step's buffer while the next loads are issued, so it needs one more
/// than the loads in flight, while mma.sync has copied its operands to registers by then and keeps
/// num_stages - 1 buffers for the same num_stages - 1 loads. Measured on our H200 (vllm-fp8-block,
/// h200-fp8-block.csv.gz, the same tile at 3 and 5 stages, mma.sync tiles of 16 rows, 5,376
/// pairs): 3 stages run 1.11x and 0.95x the time of 5 (M <= 64 and above), which the buffers-less-one
/// count (1 load in flight against 3) predicted 1.90x and 1.58x, and this count 1.13x and 1.01x.
/// None where an operand is left out of the pipeline
/// (triton_operand_pipelining: an unaligned operand of elements narrower than
/// triton.min_pipelined_load_bits): every K-step then waits for that operand's own loads, issued in
/// the step, whatever num_stages gives the other (measured on our H200: the unaligned shapes of
/// h200-triton-*.csv and h200-tutorial*.csv run within a few percent at every num_stages). An
/// unaligned operand the pipeliner does take (AMD CDNA 4) keeps the fitted
/// unaligned_pipeline_fraction of the loads in flight. `r`: map_tile's resources (the matrix path
/// and the operands pipelined, worked out once per config there).
template <bool kAligned>
[[gnu::always_inline]] inline double loads_in_flight(const EstimateContext& ctx, const TileConfig& c,
                                                     const TritonResources& r) {
  const TritonSettings& t = ctx.profile->triton;
  // A register-staged pipeline (triton.max_loads_in_flight) keeps its cap whatever the buffers.
  const double ahead = t.max_loads_in_flight > 0
                           ? std::min(c.num_stages - 1, t.max_loads_in_flight)
                           : c.num_stages - 1;
  if (kAligned || core::operands_aligned(ctx)) return ahead;
  return r.pipelined.a && r.pipelined.b ? ahead * ctx.params.unaligned_pipeline_fraction : 0.0;
}

/// One of vLLM's tuner spaces (benchmarks/kernels/benchmark_w8a8_block_fp8.py, benchmark_moe.py),
/// already cut to the problem: the values of each parameter, ascending.
struct TunerSpace {
  std::vector<int> block_m, block_n, block_k, num_warps, group_m;
  int min_stages = 2, max_stages = 5;
};

/// The space's configs in the tuner's order (BLOCK_SIZE_M, N, K, num_warps, num_stages,
/// GROUP_SIZE_M) that the compiler accepts (triton_resources), into `out` (appended). The
/// GROUP_SIZE_M values at or above the grid's rows of blocks map the grid alike: only the smallest
/// such is kept; `block_rows(bm)` gives those rows for a BLOCK_SIZE_M. `reserve`: the target's
/// register_overhead_per_thread.
template <class BlockRows>
void tuner_candidates(const TunerSpace& space, const GemmProblem& p, const Profile& profile, double reserve,
                      BlockRows block_rows, std::vector<TileConfig>& out) {
  const Hardware& hw = profile.hw;
  const MatrixRate& rate = *hw.rate(p.dtype);
  const TritonPipelining pipelined = triton_operand_pipelining(p, profile.triton);
  TileConfig c;
  c.split_k = 1;
  for (int bm : space.block_m) {
    const double rows = block_rows(bm);
    for (int bn : space.block_n) {
      for (int bk : space.block_k) {
        for (int w : space.num_warps) {
          for (int s = space.min_stages; s <= space.max_stages; ++s) {
            for (std::size_t gi = 0; gi < space.group_m.size(); ++gi) {
              if (gi > 0 && space.group_m[gi - 1] >= rows) break;
              c.block_m = bm;
              c.block_n = bn;
              c.block_k = bk;
              c.num_warps = w;
              c.num_stages = s;
              c.group_m = space.group_m[gi];
              if (triton_resources(c, p.dtype, rate, hw, profile.triton, reserve, pipelined).check ==
                  TritonResourceCheck::ok)
                out.push_back(c);
            }
          }
        }
      }
    }
  }
}

}  // namespace gemm_advisor::triton_family
