#pragma once
/// The model's free parameters: every constant of the latency model that is not physics.
///
/// Defaults were set on measured H200 data (data/measurements/) with tools/fit_model.py, fitted on
/// one half of the measured shapes and checked on the other (README, "Accuracy"). A profile can
/// override any of them in its optional `model_parameters:` section (same key names).

namespace gemm_advisor {

struct ModelParams {
  /// Issue and synchronisation overhead of one K-step of one tile (address arithmetic, barrier,
  /// pipeline bookkeeping), in core cycles. Fitted.
  double k_step_overhead_cycles = 40.0;
  /// Fixed cost of one kernel launch as seen by a timed kernel (launch + ramp-up), in seconds.
  /// Fitted; a split-K run pays it twice (the GEMM and the reduction kernel).
  double launch_overhead_s = 4.0e-6;
  /// Fraction of the L2 that keeps operand panels between waves (the rest holds the working set of
  /// the wave itself and the output). Fitted.
  double l2_reuse_fraction = 0.5;
  /// Matrix-unit efficiency of a tile whose rows fall short of the instruction's M (the kernel
  /// falls back to a narrower instruction instead of padding). 1 = padded to instruction_m. Fitted.
  double narrow_tile_matrix_efficiency = 0.5;
  /// Registers per thread a Triton kernel uses besides accumulators and operand fragments
  /// (addresses, loop state). From the compiler's resource reports of the measured kernels.
  double register_overhead_per_thread = 32.0;
  /// Predicted times within this relative distance are a near-tie, broken by tile arithmetic
  /// intensity (Origami's tie-breaker). A named choice, not fitted.
  double near_tie_tolerance = 0.01;
};

}  // namespace gemm_advisor
