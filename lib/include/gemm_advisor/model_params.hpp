#pragma once
/// The model's free parameters: every constant of the latency model that is not physics.
///
/// The defaults marked "Fitted" were set by tools/fit_model.py on the H200 measurements
/// (data/measurements/h200-triton-bf16.csv, 45 shapes), by coordinate descent over the grid in that
/// script. Two-fold cross-validation over shapes (fit on one half, score on the other) is recorded in
/// data/fit/h200-cv.json and README, "Accuracy"; the values below are the fit on all shapes, which
/// chose the same values as both folds except near_tie_tolerance. No other GPU was measured: the
/// same values serve every profile unless its optional `model_parameters:` section overrides them
/// (same key names).

namespace gemm_advisor {

struct ModelParams {
  /// Issue and synchronisation cost of one K-step of one tile (barrier, async-copy and
  /// matrix-instruction waits, address arithmetic), in core cycles. Fitted: 640.
  double k_step_overhead_cycles = 640.0;
  /// Fixed cost of one kernel launch as seen by a timed kernel (launch + ramp-up), in seconds.
  /// A split-K run pays it twice (the GEMM and the reduction kernel). Fitted: 4 us.
  double launch_overhead_s = 4.0e-6;
  /// Fraction of the L2 that keeps operand panels between waves (the rest holds the working set of
  /// the wave itself and the output). Fitted: 0.25.
  double l2_reuse_fraction = 0.25;
  /// Matrix-unit efficiency of a tile whose rows fall short of the instruction's M, or of too few
  /// warps to issue it (the kernel falls back to a narrower instruction instead of padding).
  /// Fitted: 0.3.
  double narrow_tile_matrix_efficiency = 0.3;
  /// Load-to-use latency of a GEMM's operand loads while the memory system is busy, as a multiple
  /// of the profile's idle (pointer-chase) L2/DRAM latencies. Fitted: 7 (about 1.1 us for an L2
  /// hit and 1.9 us for a DRAM access on the H200, whose idle figures are 157 ns and 276 ns).
  double loaded_latency_multiplier = 7.0;
  /// Registers one element of an unaligned operand costs while it is staged through registers:
  /// the value and its own 64-bit address (2 registers). Fitted: 3, as that reasoning predicts.
  double staged_registers_per_element = 3.0;
  /// L2 and DRAM bandwidth a CU can draw, as a multiple of its even share (bandwidth / cu_count):
  /// few active CUs cannot keep enough misses in flight to saturate either. Fitted: 1.
  double dram_active_cu_headroom = 1.0;
  /// Registers per thread a Triton kernel uses besides accumulators and staged operands
  /// (addresses, loop counters, masks). Assumed, not measured; it only matters near the limits.
  double register_overhead_per_thread = 32.0;
  /// Predicted times within this relative distance are a near-tie, broken by tile arithmetic
  /// intensity (Origami's tie-breaker). Fitted: 0.04.
  double near_tie_tolerance = 0.04;
};

}  // namespace gemm_advisor
