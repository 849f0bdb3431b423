#pragma once
/// The `triton` target: the standard Triton tiled matmul (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M,
/// num_warps, num_stages, SPLIT_K), its candidate space and its feasibility rules.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gemm_advisor/hardware.hpp"
#include "gemm_advisor/problem.hpp"
#include "gemm_advisor/tile_config.hpp"

namespace gemm_advisor {

// The checks the model makes for every config it estimates are defined here, inline, so that they
// inline into its per-config call (millions a second).

/// Whether v is a positive power of two.
constexpr bool is_pow2(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/// Shared memory a Triton kernel allocates for operands, in bytes:
/// max(1, num_stages - smem_stage_offset) * (block_m*block_k*bits_a + block_k*block_n*bits_b) / 8.
/// (NVIDIA's Triton keeps num_stages buffers, AMD's num_stages - 1: DESIGN.md.)
inline std::int64_t triton_smem_bytes(const TileConfig& c, Dtype dtype, const Hardware& hw) {
  const std::int64_t buffers = std::max(1, c.num_stages - hw.triton_smem_stage_offset);
  const std::int64_t bits = dtype_bits(dtype);
  const std::int64_t per_stage_bits =
      (static_cast<std::int64_t>(c.block_m) * c.block_k + static_cast<std::int64_t>(c.block_k) * c.block_n) * bits;
  return buffers * ((per_stage_bits + 7) / 8);
}

/// fp32 accumulator registers per thread: block_m * block_n / (num_warps * warp_size).
inline double accumulator_registers_per_thread(const TileConfig& c, const Hardware& hw) {
  return static_cast<double>(c.block_m) * c.block_n / (static_cast<double>(c.num_warps) * hw.warp_size);
}

/// The resource limit a config breaks first, if any (see triton_infeasibility for the messages).
enum class TritonResourceCheck { ok, smem, too_many_accumulators, too_few_accumulators, too_many_threads };

/// Checks the resource limits, in order: shared memory (bytes) <= the per-block limit;
/// accumulators (per thread) <= half the per-thread register limit (rounded up) and >= 4 (one MMA
/// fragment); num_warps * warp_size <= 1024 threads.
inline TritonResourceCheck triton_check_resources(std::int64_t smem_bytes, double accumulator_registers,
                                                  int num_warps, const Hardware& hw) {
  if (smem_bytes > hw.smem_per_block_bytes) return TritonResourceCheck::smem;
  if (accumulator_registers > (hw.max_registers_per_thread + 1) / 2) return TritonResourceCheck::too_many_accumulators;
  if (accumulator_registers < 4) return TritonResourceCheck::too_few_accumulators;
  if (static_cast<std::int64_t>(num_warps) * hw.warp_size > 1024) return TritonResourceCheck::too_many_threads;
  return TritonResourceCheck::ok;
}

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
inline bool triton_config_rules_ok(const TileConfig& c, const GemmProblem& p, const Hardware& hw) {
  auto block_ok = [](int v) { return v >= 16 && v <= 1024 && is_pow2(v); };
  return block_ok(c.block_m) && block_ok(c.block_n) && block_ok(c.block_k) && is_pow2(c.num_warps) &&
         c.num_warps <= 32 && c.num_stages >= 1 && c.num_stages <= hw.triton_max_num_stages && c.split_k >= 1 &&
         c.split_k <= 256 && c.group_m >= 1 && hw.rate(p.dtype) != nullptr &&
         static_cast<std::int64_t>(c.block_k) * dtype_bits(p.dtype) >= 256;
}
/// ... and the resource limits (shared memory per block, accumulators per thread, threads per block).
inline bool triton_resources_fit(std::int64_t smem_bytes, double accumulator_registers, int num_warps,
                                 const Hardware& hw) {
  return triton_check_resources(smem_bytes, accumulator_registers, num_warps, hw) == TritonResourceCheck::ok;
}

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
