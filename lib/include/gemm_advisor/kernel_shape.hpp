#pragma once
/// What the model core sees of one config of one kernel: the generic inputs a target maps its
/// config onto (grid and raster, the extents each operand really loads, the padded matrix work,
/// extra loads and math per K-step, resources, pipeline depth, epilogue). The core (model.hpp)
/// knows no kernel: everything kernel-specific reaches it through these fields.
///
/// Units: counts and extents in elements (doubles: at the limits they exceed 64 bits), bytes in
/// bytes, work in FLOP. "Tile-step" = one thread block's one K-step.
#include <cstdint>
#include <limits>

namespace gemm_advisor {

/// No default member initialisers: a target's map fills every field it is asked for (the tile and
/// the resources always, the rest when the config is feasible), and zeroing ~30 fields per config
/// first would cost the hot loop measurably (bench/model_bench.cpp).
struct KernelShape {
  // --- the tile, as the kernel declares it ---
  double block_m = 0, block_n = 0, block_k = 0;  ///< BLOCK_M, BLOCK_N, BLOCK_K
  int num_warps = 0;                             ///< warps per thread block
  int num_stages = 0;                            ///< the kernel's pipeline parameter

  // --- grid and raster ---
  double tiles_m = 0;   ///< output tiles along M of one GEMM: ceil(M / block_m)
  double tiles_n = 0;   ///< output tiles along N: ceil(N / block_n)
  double k_blocks = 0;  ///< K-steps of a whole output tile: ceil(K / block_k)
  double split_k = 0;   ///< thread blocks per output tile (a K split); partials reduced by a second kernel
  double group_m = 0;   ///< grouped raster: consecutive blocks walk this many tile rows before the next column
  /// The grid runs batch by batch (each batch's tiles_m x tiles_n tiles, then the next: a dense
  /// batched GEMM's grid z), so a wave holds whole batches and part of one more; false where one
  /// raster interleaves the batches' blocks (a fused-MoE layer's experts)
  bool batches_in_launch_order = true;

  // --- loads of one tile-step ---
  double a_rows_loaded = 0;   ///< rows of A a tile-step loads, on average over the tiles (the L2 traffic;
                              ///< masked: the real rows; wrapped: block_m)
  double a_rows_busiest = 0;  ///< ... by the fullest tile (what the busiest CU copies: a wave waits for it)
  double a_rows_unique = 0;   ///< distinct rows of A per tile, on average (what DRAM and the L2 footprint see)
  double b_cols_loaded = 0;   ///< columns of B loaded, likewise
  double b_cols_busiest = 0;  ///< ... by the fullest tile
  double b_cols_unique = 0;   ///< ... distinct
  double k_depth = 0;         ///< K elements a tile-step loads on average (K is masked in every kernel)
  double k_depth_busiest = 0; ///< ... in the busiest block's steps: min(block_k, K) (all but its last are full)
  double a_line_bytes = 0;    ///< bytes an asynchronous copy of the fullest A tile moves, in whole cache lines
  double b_line_bytes = 0;    ///< ... of the fullest B tile
  double a_staged_elements = 0;  ///< elements of A one tile-step stages through registers when A is unaligned
  double b_staged_elements = 0;  ///< ... of B
  /// The compiler lays a warp's lanes across the rows of an unaligned B tile (each lane a different
  /// K row, one element each) instead of along its contiguous dimension: every element is then its
  /// own cache-line access (model_core.hpp, scattered_line_bytes)
  bool b_staged_across_rows = false;
  double extra_step_bytes = 0;   ///< other loads per tile-step (e.g. quantization scales), bytes, through registers

  // --- math of one tile-step ---
  double matrix_flops = 0;       ///< matrix work, padded to the instruction actually issued, FLOP
  bool async_matrix = false;     ///< the matrix instruction is asynchronous (its issue overhead may overlap)
  bool matrix_result_per_step = false;  ///< each step's product is consumed by vector math before the next
                                        ///< step (no overlap of matrix work with anything of that step)
  double vector_ops = 0;         ///< non-matrix lane operations per tile-step (e.g. the scale multiply)
  /// Matrix instructions of one warpgroup's K-step that the compiler issues serialized, each waiting
  /// for its own completion before the next (ptxas's serialized wgmma); 0 where they are pipelined
  double serialized_matrix_instructions = 0;

  // --- resources ---
  std::int64_t smem_bytes = 0;        ///< shared memory (LDS) per thread block
  double accumulator_registers = 0;   ///< fp32 registers per thread live across the K loop (accumulators)
  /// Thread blocks whose tensor memory (Blackwell: their accumulators) fits one CU together;
  /// +infinity where they hold none
  double tensor_memory_blocks = std::numeric_limits<double>::infinity();
  /// Tensor memory one thread block holds, bytes (0: none); for reports
  double tensor_memory_bytes = 0;
  double loads_in_flight = 0;         ///< K-steps of loads issued ahead of the math (pipeline depth)

  // --- epilogue ---
  double out_elem_bytes = 0;          ///< bytes per output element a thread block writes (fp32 partials under split-K)
  double out_rows_busiest = 0;        ///< rows of C the fullest tile writes (stores are masked): min(block_m, M)
  double out_cols_busiest = 0;        ///< ... columns: min(block_n, N)
};

}  // namespace gemm_advisor
