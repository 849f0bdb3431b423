#pragma once
/// The analytical latency model (the Origami method; arXiv 2610.22230, Section III-B):
///
///   L_tile  = L_prefetch + ceil(K / BK) * max(L_compute, L_mem) + L_store
///   L_total = waves * L_tile
///
/// evaluated wave by wave: every wave but the last runs cu_count * occupancy tiles, the last the
/// rest, and a CU running c tiles at once takes c times a tile's compute per K-step. A pure
/// function of (problem, hardware, config): no allocation, no I/O.
#include <cstdint>

#include "gemm_advisor/hardware.hpp"
#include "gemm_advisor/problem.hpp"
#include "gemm_advisor/tile_config.hpp"

namespace gemm_advisor {

enum class Bound { compute, memory };
const char* bound_name(Bound b);

/// Every term of one estimate, in SI units. Per-K-step terms are for one whole wave of the
/// busiest CU (all tiles it runs at once advancing one K-step).
struct Estimate {
  bool feasible = false;          ///< false: the config cannot run (see triton_infeasibility)
  double latency_s = 0;           ///< predicted kernel time (split-K reduction included)
  double flops_per_s = 0;         ///< useful 2*M*N*K*batch / latency_s
  Bound bound = Bound::compute;   ///< which term dominates the K-loop of the first wave

  // Counts are doubles: at the limits (M, N, K = 2^31-1, batch = 2^24) they exceed 64 bits.
  double output_tiles = 0;        ///< ceil(M/BM) * ceil(N/BN) * batch
  double work_tiles = 0;          ///< output_tiles * split_k (thread blocks launched)
  double k_steps = 0;             ///< K-steps per thread block: ceil(ceil(K/BK) / split_k)
  int occupancy = 0;              ///< thread blocks resident per CU/SM at once
  double waves = 0;               ///< ceil(work_tiles / (cu_count * occupancy))
  double last_wave_efficiency = 0;  ///< work_tiles / (waves * cu_count * occupancy)
  double padding_waste = 0;       ///< fraction of the matrix work spent on tile overhang

  double prefetch_s = 0;          ///< pipeline fill before the first K-step of a wave
  double compute_step_s = 0;      ///< matrix work of one K-step on the busiest CU (full wave)
  double memory_step_s = 0;       ///< operand traffic of one K-step (max of the levels below)
  double l2_step_s = 0;           ///< ... all tiles' operand bytes over L2 bandwidth
  double dram_step_s = 0;         ///< ... bytes missing L2 over DRAM bandwidth
  double cu_load_step_s = 0;      ///< ... the busiest CU's bytes over its L2->CU fill rate
  double latency_step_s = 0;      ///< ... load latency not hidden by the pipeline
  double step_overhead_s = 0;     ///< ... issue overhead included in compute_step_s
  double store_s = 0;             ///< writing the output tile(s) of a wave
  double split_k_reduce_s = 0;    ///< the split-K partial-sum reduction kernel (0 if split_k = 1)
  double llc_step_s = 0;          ///< ... L2 misses over the last-level cache (AMD MALL), if any
  double l2_hit_rate = 0;         ///< fraction of operand bytes served by L2, first wave
  double llc_hit_rate = 0;        ///< fraction of L2 misses served by the last-level cache
  double dram_bytes = 0;          ///< predicted DRAM traffic of the whole kernel
  double arithmetic_intensity = 0;  ///< 2*BM*BN*BK / ((BM*BK + BK*BN + BM*BN) * bytes)
  double matrix_unit_utilization = 0;  ///< matrix units the resident warps can feed, 0..1
  bool a_aligned = true;          ///< A's contiguous dimension allows 16-byte vector loads
  bool b_aligned = true;          ///< B's contiguous dimension allows 16-byte vector loads
  std::int64_t smem_bytes = 0;    ///< shared memory per thread block
  double registers_per_thread = 0;  ///< estimated registers per thread
};

/// Estimates one config. The problem must be valid (validate_problem); an infeasible config
/// returns feasible = false and latency_s = +infinity.
Estimate estimate(const GemmProblem& p, const Hardware& hw, const TileConfig& c);

}  // namespace gemm_advisor
