#pragma once
/// The `triton` target: the standard Triton tiled matmul (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M,
/// num_warps, num_stages, SPLIT_K), its candidate space and its feasibility rules.
#include <cstdint>
#include <string>
#include <vector>

#include "gemm_advisor/hardware.hpp"
#include "gemm_advisor/problem.hpp"
#include "gemm_advisor/tile_config.hpp"

namespace gemm_advisor {

/// Shared memory a Triton kernel allocates for operands, in bytes:
/// max(1, num_stages - smem_stage_offset) * (block_m*block_k*bits_a + block_k*block_n*bits_b) / 8.
/// (NVIDIA's Triton keeps num_stages buffers, AMD's num_stages - 1: DESIGN.md.)
std::int64_t triton_smem_bytes(const TileConfig& c, Dtype dtype, const Hardware& hw);

/// fp32 accumulator registers per thread: block_m * block_n / (num_warps * warp_size).
double accumulator_registers_per_thread(const TileConfig& c, const Hardware& hw);

/// Why a config cannot run on the hardware, or "" when it can. Checks, in order: positive and
/// power-of-two block sizes and warps; block_k * dtype bits >= 256 (one 32-byte load per row);
/// num_stages in [1, max_num_stages]; split_k in [1, 256]; group_m >= 1; shared memory <= the
/// per-block limit; accumulators <= half the per-thread register limit (rounded up); at least
/// one 4-accumulator MMA fragment per thread; dtype supported by the hardware's matrix units.
std::string triton_infeasibility(const TileConfig& c, const GemmProblem& p, const Hardware& hw);

/// The same checks as triton_infeasibility, without building a message.
bool triton_config_fits(const TileConfig& c, const GemmProblem& p, const Hardware& hw);
/// ... split for the model's hot path, which has the shared memory and accumulators at hand:
/// the rules on sizes, warps, stages, split_k, group_m and dtype ...
bool triton_config_rules_ok(const TileConfig& c, const GemmProblem& p, const Hardware& hw);
/// ... and the resource limits (shared memory per block, accumulators per thread, threads per block).
bool triton_resources_fit(std::int64_t smem_bytes, double accumulator_registers, int num_warps, const Hardware& hw);

/// The candidate space for a problem (the same rules as tools/measure/sweep.py):
/// block_m, block_n, block_k in {16..256} (powers of two), block_m <= max(16, next_pow2(M)),
/// block_n <= max(16, next_pow2(N)), block_k <= max(16, next_pow2(K)); num_warps in {2, 4, 8};
/// num_stages 1..max_num_stages; group_m 8; split_k in {1, 2, 4, 8, 16}, split_k > 1 only while
/// tiles * split_k <= 2 * cu_count and K >= split_k * max(block_k, 256); every config feasible.
/// Appends to `out` (cleared first) so batch mode can reuse its buffer.
void triton_candidates(const GemmProblem& p, const Hardware& hw, std::vector<TileConfig>& out);

/// The fixed default config used as the baseline in `evaluate`: 128x128x64, 8 warps, 3 stages,
/// GROUP_M 8, no split.
TileConfig triton_default_config();

}  // namespace gemm_advisor
