#pragma once
/// The Triton family's shared rules (shared memory, accumulators, the limits the compiler checks),
/// and the `triton` target: the project's own masked Triton matmul (tools/measure/gemm_kernels.py;
/// BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, num_warps, num_stages, SPLIT_K), its candidate space and
/// its feasibility rules.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
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

/// The most warps Triton issues tcgen05 with (its MMAv5 keeps the accumulator in tensor memory only
/// with 4 or 8 warps: "Currently only support numWarps 4 or 8 for TMEM load and store",
/// triton-lang/triton lib/Analysis/Utility.cpp, supportMMA): 16 or 32 warps on a tensor-memory GPU
/// fall back to mma.sync, accumulators in registers (a fresh expert's find, 2026-12-07: a 16-warp
/// --candidates config on the B200 was predicted as fast as its 8-warp twin).
constexpr int kTcgen05MaxWarps = 8;

/// fp32 registers a thread holds for one mma.sync's accumulator, the instruction Triton falls back to
/// below a warpgroup (Hopper) or outside tcgen05's warp counts (Blackwell): mma.sync.aligned.m16n8kK
/// spreads its 16 x 8 fp32 D fragment over the warp's 32 threads, 4 a thread (PTX ISA, "Matrix
/// Fragments for mma.m16n8k16"). It had been the profile's full instruction's M x N over one warp,
/// 64 on the B200 (tcgen05's M 128), which refused every 32-warp config there (cap 64 with the
/// 32-register reserve: a fresh expert's find, 2026-12-07), 16 on the H200.
constexpr double kMmaSyncAccumulatorRegisters = 16.0 * 8.0 / 32.0;

/// Whether Triton issues the profile's full, asynchronous matrix instruction for a config (Hopper's
/// wgmma needs a warpgroup: num_warps >= matrix_instruction_warps, and block_m >= its M of 64;
/// Blackwell's tcgen05 num_warps 4 or 8 and block_m >= its smallest M, instruction_min_m = 64) or
/// falls back to a narrower synchronous one (mma.sync). Every config is "full" where the profile's
/// instruction is a single warp's (AMD MFMA, Ampere).
inline bool triton_full_instruction(const TileConfig& c, const MatrixRate& rate, const Hardware& hw) {
  return c.block_m >= rate.instruction_min_m && c.num_warps >= hw.matrix_instruction_warps &&
         (hw.tensor_memory_bytes_per_cu == 0 || c.num_warps <= kTcgen05MaxWarps);
}

/// Tensor memory (Blackwell) is 128 lanes of 32-bit cells, allocated in columns, at least 32 and a
/// power of two at a time (PTX ISA, "Tensor Memory" and tcgen05.alloc).
constexpr std::int64_t kTensorMemoryLanes = 128;
constexpr std::int64_t kTensorMemoryMinColumns = 32;
constexpr std::int64_t kTensorMemoryCellBytes = 4;  ///< one fp32 accumulator element per cell

/// Bytes of tensor memory one block's fp32 accumulator tile allocates: its block_n columns per 128
/// rows of block_m (a block of 64 rows still takes whole columns of all 128 lanes), at least 32
/// columns: max(block_m, 128) * max(block_n, 32) * 4 for power-of-two blocks.
inline std::int64_t triton_tensor_memory_bytes(const TileConfig& c) {
  return std::max<std::int64_t>(c.block_m, kTensorMemoryLanes) * std::max<std::int64_t>(c.block_n, kTensorMemoryMinColumns) *
         kTensorMemoryCellBytes;
}

/// Which operands Triton's software pipeliner multi-buffers (both, for aligned operands).
struct TritonPipelining {
  bool a = true;
  bool b = true;
};
/// An operand is pipelined unless it is unaligned (a_vector_aligned / b_vector_aligned false: loaded
/// one element per thread at a time) with elements narrower than triton.min_pipelined_load_bits:
/// Triton's pipeliner then leaves its load in the K-step that uses it (no latency assigned:
/// AssignLatencies.cpp, isSmallLoad, "cp.async's cp-size can only be 4, 8, or 16"), so it has one
/// shared-memory buffer and no loads in flight. Measured on our H200 (Triton 3.6,
/// data/measurements/h200-resource-probe.csv): an odd-K NT problem (both operands unaligned)
/// allocates the same shared memory at every num_stages, 1 to 4; odd K in NN (A unaligned) or odd N in
/// NN (B unaligned) allocates one buffer of the unaligned operand and num_stages of the other.
inline TritonPipelining triton_operand_pipelining(bool a_aligned, bool b_aligned, Dtype dtype,
                                                  const TritonSettings& triton) {
  const bool narrow = dtype_bits(dtype) < triton.min_pipelined_load_bits;
  return {a_aligned || !narrow, b_aligned || !narrow};
}
inline TritonPipelining triton_operand_pipelining(const GemmProblem& p, const TritonSettings& triton) {
  return triton_operand_pipelining(a_vector_aligned(p.m, p.k, p.layout), b_vector_aligned(p.n, p.k, p.layout),
                                   p.dtype, triton);
}

/// Shared memory a Triton kernel allocates for operands, in bytes:
/// (buffers_a * block_m*block_k*bits_a + buffers_b * block_k*block_n*bits_b) / 8, where a pipelined
/// operand keeps max(1, num_stages - offset) buffers (offset: the profile's triton.smem_stage_offset
/// for the full matrix instruction, triton.sync_mma_smem_stage_offset for the synchronous fallback)
/// and an operand left out of the pipeline (triton_operand_pipelining) keeps one. Measured on our
/// H200 (Triton 3.6, data/measurements/h200-triton-extra.csv, compile grid): wgmma kernels keep
/// num_stages buffers (256x256x128 s3, 8 warps: 393216 bytes asked), mma.sync ones num_stages - 1
/// (2 warps: 262144).
inline std::int64_t triton_smem_bytes(const TileConfig& c, Dtype dtype, const TritonSettings& triton, bool full_instruction,
                                      TritonPipelining pipelined = {}) {
  const int offset = full_instruction ? triton.smem_stage_offset : triton.sync_mma_smem_stage_offset;
  const std::int64_t buffers = std::max(1, c.num_stages - offset);
  const std::int64_t bits = dtype_bits(dtype);
  const std::int64_t a_bits = static_cast<std::int64_t>(c.block_m) * c.block_k * bits;
  const std::int64_t b_bits = static_cast<std::int64_t>(c.block_k) * c.block_n * bits;
  return ((pipelined.a ? buffers : 1) * a_bits + (pipelined.b ? buffers : 1) * b_bits + 7) / 8;
}

/// The `triton` target's store scratch rule for a problem: the profile's
/// triton.misaligned_store_scratch_min_warps where N is not a multiple of 16 elements (Triton
/// specializes integer arguments divisible by 16; the output's row stride is N), else 0 (none).
inline int triton_store_scratch_min_warps(const GemmProblem& p, const TritonSettings& triton) {
  return p.n % 16 != 0 ? triton.misaligned_store_scratch_min_warps : 0;
}

/// fp32 accumulator registers per thread: block_m * block_n / (num_warps * warp_size).
inline double accumulator_registers_per_thread(const TileConfig& c, const Hardware& hw) {
  return static_cast<double>(c.block_m) * c.block_n / (static_cast<double>(c.num_warps) * hw.warp_size);
}

/// The registers a thread can have: min(max_registers_per_thread, registers_per_cu / threads).
inline double triton_register_cap(int num_warps, const Hardware& hw) {
  const double threads = static_cast<double>(num_warps) * hw.warp_size;
  return std::min(static_cast<double>(hw.max_registers_per_thread),
                  static_cast<double>(static_cast<std::int64_t>(static_cast<double>(hw.registers_per_cu) / threads)));
}

/// fp32 registers one thread holds for ONE matrix instruction's accumulator, which cannot spill
/// while it runs. The full instruction's: instruction_m x its N over the threads that issue it, the
/// issuing groups (warpgroups on Hopper) laid over M first (as many as block_m / instruction_m),
/// then N, so N = min(instruction_max_n, block_n / groups along N) (256x256 with 16 warps: four
/// groups along M, one m64n256 each, 64 * 256 / 128 = 128 registers; 64x256 with 16 warps: four
/// along N, m64n64, 32). The fallback's: mma.sync's, kMmaSyncAccumulatorRegisters.
/// `sync_registers`: the fallback's (triton_thread_limits).
inline double triton_instruction_registers(const TileConfig& c, const MatrixRate& rate, const Hardware& hw,
                                           bool full_instruction, double sync_registers) {
  if (!full_instruction) return sync_registers;
  const int groups = std::max(1, c.num_warps / std::max(1, hw.matrix_instruction_warps));
  const int along_m = std::max(1, std::min(groups, c.block_m / std::max(1, rate.instruction_m)));
  const int along_n = std::max(1, groups / along_m);
  const double n = std::min(rate.instruction_max_n, std::max(rate.instruction_n, c.block_n / along_n));
  return rate.instruction_m * n / (static_cast<double>(hw.matrix_instruction_warps) * hw.warp_size);
}

/// The limit a config breaks first, if any (see triton_resource_message for the words).
enum class TritonResourceCheck { ok, smem, too_many_threads, instruction_registers, tensor_memory };

/// What the compiler refuses, in order (measured on our H200, Triton 3.6, the compile grid of
/// data/measurements/h200-triton-extra.csv; every other config there compiled and ran, spilling
/// where its accumulators outgrow the registers): shared memory (bytes) over the per-block limit;
/// over 1024 threads per block; one matrix instruction's accumulator plus `reserve_registers` over
/// the thread's register cap (ptxas: "Insufficient registers (128)" for 256x256 tiles with 16 warps,
/// whose m64n256 wgmma needs 128 at a cap of 128).
/// `register_cap`: triton_register_cap(num_warps, hw).
inline TritonResourceCheck triton_check_resources(std::int64_t smem_bytes, double instruction_registers,
                                                  double reserve_registers, int num_warps, double register_cap,
                                                  const Hardware& hw) {
  if (smem_bytes > hw.smem_per_block_bytes) return TritonResourceCheck::smem;
  if (static_cast<std::int64_t>(num_warps) * hw.warp_size > 1024) return TritonResourceCheck::too_many_threads;
  if (instruction_registers + reserve_registers > register_cap)
    return TritonResourceCheck::instruction_registers;
  return TritonResourceCheck::ok;
}

/// The words for a failed resource check of config c, or "" for ok.
std::string triton_resource_message(TritonResourceCheck check, const TileConfig& c, std::int64_t smem_bytes,
                                    double instruction_registers, const Hardware& hw);

/// The Triton family's resource view of one config (what map_tile and the messages share).
struct TritonResources {
  bool full_instruction = false;
  std::int64_t smem_bytes = 0;
  double tile_registers = 0;           ///< per thread, the whole fp32 tile: block_m * block_n / threads
  /// ... of it in registers across the K loop: tile_registers, or 0 where the full instruction
  /// accumulates in tensor memory (Blackwell's tcgen05, Triton's MMAv5)
  double accumulator_registers = 0;
  double instruction_registers = 0;    ///< per thread, one matrix instruction's accumulator
  /// Tensor memory the accumulator takes (triton_tensor_memory_bytes), 0 where it is in registers
  double tensor_memory_bytes = 0;
  /// Blocks whose accumulators fit one CU's tensor memory together; +infinity where they are in registers
  double tensor_memory_blocks = std::numeric_limits<double>::infinity();
  TritonPipelining pipelined;  ///< the operands the pipeliner multi-buffers (as given to triton_resources)
  TritonResourceCheck check = TritonResourceCheck::ok;
};
/// What triton_resources takes of the profile that depends on the config only through its
/// num_warps, or not at all (the model has them from its EstimateContext, computed once per problem).
struct TritonThreadLimits {
  double threads;                     ///< threads per block: num_warps * warp_size
  double register_cap;                ///< triton_register_cap(num_warps, hw)
  double sync_instruction_registers;  ///< the fallback instruction's: kMmaSyncAccumulatorRegisters
  /// At least the full instruction's registers of every config (EstimateContext's
  /// widest_instruction_registers), or +infinity: none known.
  double widest_instruction_registers;
};
inline TritonThreadLimits triton_thread_limits(int num_warps, const Hardware& hw) {
  return {static_cast<double>(num_warps) * hw.warp_size, triton_register_cap(num_warps, hw),
          kMmaSyncAccumulatorRegisters, std::numeric_limits<double>::infinity()};
}
/// Computes them (the dtype must have a matrix path: `rate` not null) with `reserve_registers` for
/// the instruction rule (the model's register_overhead_per_thread), the config's `limits`, and the
/// operands the pipeliner multi-buffers (`pipelined`, triton_operand_pipelining; default both).
/// Where even limits.widest_instruction_registers fit under the cap beside the reserve, the rule
/// cannot fail and the full instruction's registers are not computed (instruction_registers is
/// left 0, which passes alike): four integer divisions less (the model's per-config path).
/// `store_scratch_min_warps` (triton_store_scratch_min_warps; 0: none): from that many warps the
/// epilogue's fp32 layout conversion takes block_m * block_n * 4 bytes of shared memory, and the block
/// the larger of that and its operand buffers (measured on our H200, Triton 3.6,
/// data/measurements/h200-triton-m.csv: the `triton` kernel on N not a multiple of 16 fails
/// 256x256 tiles with 8 warps at every block_k and num_stages, "Required: 262144", 147 of 147, and
/// compiles them with 2 and 4 warps and 128x256 and 256x128 with 8).
inline TritonResources triton_resources(const TileConfig& c, Dtype dtype, const MatrixRate& rate, const Hardware& hw,
                                        const TritonSettings& triton, double reserve_registers,
                                        const TritonThreadLimits& limits, TritonPipelining pipelined = {},
                                        int store_scratch_min_warps = 0) {
  TritonResources r;
  r.full_instruction = triton_full_instruction(c, rate, hw);
  r.pipelined = pipelined;
  r.smem_bytes = triton_smem_bytes(c, dtype, triton, r.full_instruction, pipelined);
  if (store_scratch_min_warps > 0 && c.num_warps >= store_scratch_min_warps)
    r.smem_bytes = std::max(r.smem_bytes, static_cast<std::int64_t>(c.block_m) * c.block_n * 4);
  // accumulator_registers_per_thread(c, hw)
  r.tile_registers = r.accumulator_registers = static_cast<double>(c.block_m) * c.block_n / limits.threads;
  if (__builtin_expect(hw.tensor_memory_bytes_per_cu > 0 && r.full_instruction, 0)) {
    // tcgen05 writes its accumulator to tensor memory: no register holds it in the K loop, and no
    // instruction's accumulator limits the registers (instruction_registers stays 0); the tile
    // must fit the tensor memory.
    r.accumulator_registers = 0;
    r.tensor_memory_bytes = static_cast<double>(triton_tensor_memory_bytes(c));
    r.tensor_memory_blocks = std::floor(static_cast<double>(hw.tensor_memory_bytes_per_cu) / r.tensor_memory_bytes);
  } else if (!r.full_instruction || !(limits.widest_instruction_registers + reserve_registers <= limits.register_cap)) {
    r.instruction_registers =
        triton_instruction_registers(c, rate, hw, r.full_instruction, limits.sync_instruction_registers);
  }
  r.check = triton_check_resources(r.smem_bytes, r.instruction_registers, reserve_registers, c.num_warps,
                                   limits.register_cap, hw);
  // +infinity blocks where the accumulator is in registers: never below 1.
  if (r.check == TritonResourceCheck::ok && r.tensor_memory_blocks < 1) r.check = TritonResourceCheck::tensor_memory;
  return r;
}
inline TritonResources triton_resources(const TileConfig& c, Dtype dtype, const MatrixRate& rate, const Hardware& hw,
                                        const TritonSettings& triton, double reserve_registers,
                                        TritonPipelining pipelined = {}, int store_scratch_min_warps = 0) {
  return triton_resources(c, dtype, rate, hw, triton, reserve_registers, triton_thread_limits(c.num_warps, hw),
                          pipelined, store_scratch_min_warps);
}

/// The rules on sizes, warps, stages, split_k, group_m and dtype the Triton targets share:
/// power-of-two block sizes in [16, 1024] and warps up to 32; num_stages in [1, max_num_stages];
/// split_k in [1, triton.max_split_k] and no more splits than K has blocks of block_k (each split
/// has K to do); group_m >= 1; a matrix path for the dtype; block_k * dtype bits >= 256 (one 32-byte
/// load per row).
inline bool triton_config_rules_ok(const TileConfig& c, const GemmProblem& p, const Hardware& hw,
                                   const TritonSettings& triton) {
  auto block_ok = [](int v) { return v >= 16 && v <= 1024 && is_pow2(v); };
  return block_ok(c.block_m) && block_ok(c.block_n) && block_ok(c.block_k) && is_pow2(c.num_warps) &&
         c.num_warps <= 32 && c.num_stages >= 1 && c.num_stages <= triton.max_num_stages && c.split_k >= 1 &&
         c.split_k <= triton.max_split_k && c.group_m >= 1 && hw.rate(p.dtype) != nullptr &&
         c.split_k <= (p.k + c.block_k - 1) / c.block_k &&
         static_cast<std::int64_t>(c.block_k) * dtype_bits(p.dtype) >= 256;
}
/// ... the message of the first of those rules a config breaks, or "", but for the profile's bounds on
/// the search (num_stages above triton.max_num_stages, split_k above triton.max_split_k: a config past
/// them may well compile and run), which triton_search_bound_message says.
std::string triton_rules_message(const TileConfig& c, const GemmProblem& p, const Profile& profile);

/// The profile's bound on the search a config is past (num_stages above triton.max_num_stages, split_k
/// above triton.max_split_k), or "". A target's infeasibility() checks it last, after what the
/// compiler refuses, so that a config past a bound is said to be only that where it is nothing worse
/// (Python's shortlist keeps those, unranked: a 7-stage config needing 917,504 bytes of shared memory
/// was kept as "outside the search bounds", a fresh user's find, 2026-12-07).
std::string triton_search_bound_message(const TileConfig& c, const Profile& profile);


/// The words for what the compiler would refuse of config c under target t's parameters on the
/// profile (triton_resources; `store_scratch_min_warps` as there), or "".
std::string triton_resource_words(const TileConfig& c, const GemmProblem& p, const Profile& profile, const Target& t,
                                  int store_scratch_min_warps = 0);

/// The `triton` target (the default of every command).
const Target& triton_target();

/// The `triton` candidate space for a problem (the same rules as tools/measure/space.py):
/// block_m, block_n, block_k in {16..256} (powers of two), block_m <= max(16, next_pow2(M)),
/// block_n <= max(16, next_pow2(N)), block_k <= max(16, next_pow2(K)); num_warps in {2, 4, 8};
/// num_stages 1..max_num_stages; group_m 8; split_k > 1 (powers of two up to the problem's
/// max_split_k) only while tiles * split_k <= 2 * cu_count and K >= split_k * max(block_k, 256);
/// every config feasible (triton_check_resources).
/// `out` is cleared first. (= triton_target().candidates)
void triton_candidates(const GemmProblem& p, const Profile& profile, std::vector<TileConfig>& out);

/// Why `triton` cannot run a config, or "" (= triton_target().infeasibility). Checks, in order:
/// the shared rules (triton_rules_message), then what the compiler refuses (triton_check_resources),
/// then the profile's bounds on the search (triton_search_bound_message).
std::string triton_infeasibility(const TileConfig& c, const GemmProblem& p, const Profile& profile);

/// The fixed default config used as the baseline in `evaluate`: 128x128x64, 8 warps, 3 stages,
/// GROUP_M 8, no split.
TileConfig triton_default_config();

/// Smallest power of two >= v (1 for v <= 1).
std::int64_t next_pow2(std::int64_t v);

}  // namespace gemm_advisor
