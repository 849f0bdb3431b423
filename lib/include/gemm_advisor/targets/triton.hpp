#pragma once
/// The Triton family's shared rules (shared memory, accumulators, the limits the compiler checks),
/// and the `triton` target: the project's own masked Triton matmul (tools/measure/gemm_kernels.py;
/// BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, num_warps, num_stages, SPLIT_K), its candidate space and
/// its feasibility rules.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gemm_advisor/hardware.hpp"
#include "gemm_advisor/problem.hpp"
#include "gemm_advisor/profile.hpp"
#include "gemm_advisor/target.hpp"
#include "gemm_advisor/tile_config.hpp"

namespace gemm_advisor {

// The checks the model makes for every config it estimates are defined here, inline, so that they
// inline into its per-config call (millions a second).

/// Whether v is a positive power of two.
constexpr bool is_pow2(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/// Shared memory a Triton kernel allocates for operands, in bytes:
/// max(1, num_stages - smem_stage_offset) * (block_m*block_k*bits_a + block_k*block_n*bits_b) / 8.
/// (NVIDIA's Triton keeps num_stages buffers, AMD's num_stages - 1: DESIGN.md.)
inline std::int64_t triton_smem_bytes(const TileConfig& c, Dtype dtype, const TritonSettings& triton) {
  const std::int64_t buffers = std::max(1, c.num_stages - triton.smem_stage_offset);
  const std::int64_t bits = dtype_bits(dtype);
  const std::int64_t per_stage_bits =
      (static_cast<std::int64_t>(c.block_m) * c.block_k + static_cast<std::int64_t>(c.block_k) * c.block_n) * bits;
  return buffers * ((per_stage_bits + 7) / 8);
}

/// fp32 accumulator registers per thread: block_m * block_n / (num_warps * warp_size).
inline double accumulator_registers_per_thread(const TileConfig& c, const Hardware& hw) {
  return static_cast<double>(c.block_m) * c.block_n / (static_cast<double>(c.num_warps) * hw.warp_size);
}

/// The resource limit a config breaks first, if any (see triton_resource_message for the words).
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

/// The words for a failed resource check of config c (its shared memory and accumulators as
/// computed by the target), or "" for ok.
std::string triton_resource_message(TritonResourceCheck check, const TileConfig& c, std::int64_t smem_bytes,
                                    double accumulator_registers, const Hardware& hw);

/// The rules on sizes, warps, stages, split_k, group_m and dtype the Triton targets share:
/// power-of-two block sizes in [16, 1024] and warps up to 32; num_stages in [1, max_num_stages];
/// split_k in [1, 256]; group_m >= 1; a matrix path for the dtype; block_k * dtype bits >= 256
/// (one 32-byte load per row).
inline bool triton_config_rules_ok(const TileConfig& c, const GemmProblem& p, const Hardware& hw,
                                   const TritonSettings& triton) {
  auto block_ok = [](int v) { return v >= 16 && v <= 1024 && is_pow2(v); };
  return block_ok(c.block_m) && block_ok(c.block_n) && block_ok(c.block_k) && is_pow2(c.num_warps) &&
         c.num_warps <= 32 && c.num_stages >= 1 && c.num_stages <= triton.max_num_stages && c.split_k >= 1 &&
         c.split_k <= 256 && c.group_m >= 1 && hw.rate(p.dtype) != nullptr &&
         static_cast<std::int64_t>(c.block_k) * dtype_bits(p.dtype) >= 256;
}
/// ... the message of the first of those rules a config breaks, or "".
std::string triton_rules_message(const TileConfig& c, const GemmProblem& p, const Profile& profile);

/// ... and the resource limits (shared memory per block, accumulators per thread, threads per block).
inline bool triton_resources_fit(std::int64_t smem_bytes, double accumulator_registers, int num_warps,
                                 const Hardware& hw) {
  return triton_check_resources(smem_bytes, accumulator_registers, num_warps, hw) == TritonResourceCheck::ok;
}

/// The `triton` target (the default of every command).
const Target& triton_target();

/// The `triton` candidate space for a problem (the same rules as tools/measure/space.py):
/// block_m, block_n, block_k in {16..256} (powers of two), block_m <= max(16, next_pow2(M)),
/// block_n <= max(16, next_pow2(N)), block_k <= max(16, next_pow2(K)); num_warps in {2, 4, 8};
/// num_stages 1..max_num_stages; group_m 8; split_k in {1, 2, 4, 8, 16}, split_k > 1 only while
/// tiles * split_k <= 2 * cu_count and K >= split_k * max(block_k, 256); every config feasible.
/// `out` is cleared first. (= triton_target().candidates)
void triton_candidates(const GemmProblem& p, const Profile& profile, std::vector<TileConfig>& out);

/// Why `triton` cannot run a config, or "" (= triton_target().infeasibility). Checks, in order:
/// the shared rules (triton_rules_message), then the resource limits (triton_check_resources).
std::string triton_infeasibility(const TileConfig& c, const GemmProblem& p, const Profile& profile);

/// The fixed default config used as the baseline in `evaluate`: 128x128x64, 8 warps, 3 stages,
/// GROUP_M 8, no split.
TileConfig triton_default_config();

/// Smallest power of two >= v (1 for v <= 1).
std::int64_t next_pow2(std::int64_t v);

}  // namespace gemm_advisor
