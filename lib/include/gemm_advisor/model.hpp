#pragma once
/// The analytical latency model (the Origami method; arXiv 2610.22230, Section III-B):
///
///   L_tile  = L_prefetch + (ceil(K / BK) - 1) * max(L_compute, L_mem) + L_compute + L_store
///   L_total = waves * L_tile
///
/// (the paper charges every K-step max(L_compute, L_mem); the prefetch has brought the first step's
/// operands, so the last step has no loads left and takes its compute alone).
/// evaluated wave by wave: every wave but the last runs cu_count * occupancy tiles, the last the
/// rest, and a CU running c tiles at once takes c times a tile's compute per K-step. A pure
/// function of (problem, profile, target, config): no allocation, no I/O. The core knows no
/// kernel: a target (target.hpp) maps each config onto a KernelShape (kernel_shape.hpp), and the
/// core estimates that. To estimate many configs of one problem, build its EstimateContext once
/// and pass it to each estimate (Target::estimate and friends).
#include <array>
#include <cstdint>
#include <memory>

#include "gemm_advisor/hardware.hpp"
#include "gemm_advisor/model_params.hpp"
#include "gemm_advisor/problem.hpp"
#include "gemm_advisor/profile.hpp"
#include "gemm_advisor/tile_config.hpp"

namespace gemm_advisor {

/// What limits the K-loop of a full wave: the matrix work (compute), the operand traffic (memory),
/// or the per-K-step issue and synchronisation overhead (issue: more work per K-step helps).
enum class Bound { compute, memory, issue };
const char* bound_name(Bound b);

/// Every term of one estimate, in SI units. Per-K-step terms are for one whole wave of the
/// busiest CU (all tiles it runs at once advancing one K-step).
struct Estimate {
  // The flags and small counts first, together (no padding between them: the record stays 384
  // bytes, six cache lines; at 408 every full estimate ran 10-15% slower, model_bench).
  bool feasible = false;          ///< false: the config cannot run (see Target::infeasibility)
  bool a_aligned = true;          ///< A's contiguous dimension allows 16-byte vector loads
  bool b_aligned = true;          ///< B's contiguous dimension allows 16-byte vector loads
  /// the fp32 accumulator lives in tensor memory, not in registers (false where the kernel moves
  /// each step's product to registers to scale it: vllm-fp8-block, block-fp8 MoE)
  bool accumulator_in_tensor_memory = false;
  Bound bound = Bound::compute;   ///< which term dominates the K-loop of the first wave
  int occupancy = 0;              ///< thread blocks resident per CU/SM at once
  double latency_s = 0;           ///< predicted kernel time (split-K reduction included)
  double flops_per_s = 0;         ///< useful 2*M*N*K*batch / latency_s

  // Counts are doubles: at the limits (M, N, K = 2^31-1, batch = 2^24) they exceed 64 bits.
  double output_tiles = 0;        ///< ceil(M/BM) * ceil(N/BN) * batch
  double work_tiles = 0;          ///< output_tiles * split_k (thread blocks launched)
  double k_steps = 0;             ///< K-steps per thread block: ceil(ceil(K/BK) / split_k)
  double waves = 0;               ///< ceil(work_tiles / (cu_count * occupancy))
  /// work_tiles / (waves * cu_count * occupancy): the share of all the waves' block slots that are
  /// busy (Origami's wave efficiency), not the last wave's own fill (last_wave_fill)
  double last_wave_efficiency = 0;
  double last_wave_blocks = 0;    ///< thread blocks the last wave runs (all of them in a single wave)
  double last_wave_fill = 0;      ///< last_wave_blocks / (cu_count * occupancy): the last wave's own fill, 0..1
  double padding_waste = 0;       ///< fraction of the matrix work spent on tile overhang

  double prefetch_s = 0;          ///< pipeline fill before the first K-step of a wave
  double compute_step_s = 0;      ///< matrix work of one K-step on the busiest CU (full wave)
  double memory_step_s = 0;       ///< operand traffic of one K-step: max(memory_levels_step_s, latency_step_s)
  /// the levels below together: the slowest of l2, llc, dram and cu_load + (1 - memory_level_overlap)
  /// x the others (ModelParams::memory_level_overlap)
  double memory_levels_step_s = 0;
  double l2_step_s = 0;           ///< ... all tiles' operand bytes over L2 bandwidth
  /// ... the longer of dram_step_bytes at the DRAM rate and the busiest CU's bytes at its share of
  /// it (ModelParams::dram_active_cu_headroom x its 1/cu_count)
  double dram_step_s = 0;
  /// the first wave's DRAM bytes a K-step: what no earlier wave left in L2 (and never less than the
  /// wave's share of the compulsory bytes), not the L2 misses of l2_hit_rate
  double dram_step_bytes = 0;
  double cu_load_step_s = 0;      ///< ... the busiest CU's bytes over its L2->CU fill rate (spilled registers' too)
  double latency_step_s = 0;      ///< ... load latency not hidden by the pipeline
  double step_overhead_s = 0;     ///< per-K-step issue overhead, part of compute_step_s (model_params.hpp)
  /// the part of the shorter of the matrix work and step_overhead_s hidden under the longer:
  /// compute_step_s = longer + (1 - this) x shorter (k_step_overhead_overlap for asynchronous
  /// matrix instructions, 0 for synchronous ones); without vector_step_s
  double step_overhead_overlap = 0;
  double vector_step_s = 0;       ///< per-K-step vector math (e.g. applying scales), part of compute_step_s
  /// Dead time of serialized matrix instructions per K-step (KernelShape::serialized_matrix_instructions
  /// x serialized_matrix_drain_cycles), added to the step whatever bounds it; 0 where pipelined
  double matrix_drain_step_s = 0;
  /// Wait per K-step of a wgmma tile of one warpgroup whose config's occupancy allows at most one
  /// block per CU (the profile's target's lone_warpgroup_step_cycles), added to the step whatever
  /// bounds it; 0 otherwise
  double lone_warpgroup_step_s = 0;
  double store_s = 0;             ///< writing the output tile(s) of a wave
  double split_k_reduce_s = 0;    ///< the split-K partial-sum reduction kernel (0 if split_k = 1)
  /// its parts (0 if split_k = 1): split_k_reduce_s = split_k_reduce_launch_s +
  /// max(split_k_reduce_bandwidth_s, split_k_reduce_latency_s)
  double split_k_reduce_launch_s = 0;     ///< the reduction kernel's launch (the target's split_k_reduce_launch_s)
  double split_k_reduce_bandwidth_s = 0;  ///< the partials read and the output written, over DRAM bandwidth
  double split_k_reduce_latency_s = 0;    ///< split_k x the idle L2 latency x split_k_reduce_latency_multiplier (its loop waits each split)
  double split_k_partial_bytes = 0;       ///< fp32 partials written, then read: 2 x split_k x M x N x batch x 4 (in dram_bytes)
  /// The time's parts: latency_s = launch_s + first_wave_s + (waves - 2) * later_wave_s + last_wave_s +
  /// split_k_reduce_s with two waves or more (a fused-MoE launch's fractional last wave: last_wave_s
  /// times that fraction); launch_s + first_wave_s + split_k_reduce_s with one
  double launch_s = 0;            ///< the kernel launch (model parameter launch_overhead_s)
  double first_wave_s = 0;        ///< one full wave: prefetch + (k_steps - 1) * step + last step + store
  /// a full wave after the first: first_wave_s, or less where its blocks run staggered
  /// (ModelParams::staggered_wave_fraction: one-K-step tiles with loads in flight or operands that
  /// cannot be pipelined, two or more blocks per CU)
  double later_wave_s = 0;
  double last_wave_s = 0;         ///< the last wave (= later_wave_s when it is full, first_wave_s when the only one)
  /// Staggered waves only (else 0): one block's whole life alone on a CU (a wave of one block a CU),
  /// and the first wave's throughput (its K-steps at their bound, then its output at the store rate),
  /// the two floors of a staggered wave
  double lone_block_wave_s = 0;
  double wave_throughput_s = 0;
  double llc_step_s = 0;          ///< ... L2 misses over the last-level cache (AMD MALL), if any
  double l2_hit_rate = 0;         ///< fraction of operand bytes served by L2, first wave
  double llc_hit_rate = 0;        ///< fraction of L2 misses served by the last-level cache
  double dram_bytes = 0;          ///< predicted DRAM traffic of the whole kernel
  /// 2*BM*BN*BK / ((BM*BK + BK*BN + BM*BN) * input dtype bytes), FLOP per byte: Origami's tie-break
  /// figure, every element (the output tile's too) at the input dtype's size
  double arithmetic_intensity = 0;
  double matrix_unit_utilization = 0;  ///< matrix units the resident warps can feed, 0..1
  std::int64_t smem_bytes = 0;    ///< shared memory per thread block
  double registers_per_thread = 0;  ///< estimated registers per thread
  /// registers per thread beyond the cap (at least the accumulators where they do not fit beside the
  /// kernel's others), stored and reloaded every K-step; their bytes are in cu_load_step_s
  double spilled_registers_per_thread = 0;
  /// tensor memory one thread block holds (Blackwell's tcgen05 writes its fp32 result there), bytes;
  /// 0: none
  double tensor_memory_bytes = 0;
};
static_assert(sizeof(Estimate) <= 384, "the record grew past six cache lines: model_bench's full estimates slow down");

struct MoeLayerContexts;

/// The power-of-two block sizes the model precomputes terms for: kSmallestBlock << i, i < kBlockSizeCount (8..1024).
constexpr int kSmallestBlock = 8;
constexpr std::size_t kBlockSizeCount = 8;

/// The terms of the model that depend on the problem, the profile and the target's parameters but
/// not on the config, computed once per problem (make_estimate_context) so that estimating each of
/// a problem's candidates does not repeat them. It points to the problem and the profile it was
/// made from, which must outlive it. Sizes and counts are doubles (see Estimate); other units are
/// in the names.
struct EstimateContext {
  const GemmProblem* problem = nullptr;  ///< the problem (not owned)
  const Profile* profile = nullptr;      ///< the profile (not owned)
  const Hardware* hw = nullptr;          ///< &profile->hw
  const MatrixRate* rate = nullptr;      ///< the hardware's matrix path for the dtype; nullptr: none
  double m = 0, n = 0, k = 0, batch = 0;  ///< the problem's sizes, in elements (batch: GEMMs)
  double flops = 0;                      ///< the problem's useful work, FLOP (GemmProblem::flops)
  bool a_aligned = true;                 ///< A's contiguous dimension allows 16-byte vector loads
  bool b_aligned = true;                 ///< B's contiguous dimension allows 16-byte vector loads
  /// The operands' storage as the compiled kernel walks it (compiled_layout): the problem's, except
  /// where a size of 1 makes the other dimension contiguous.
  Layout layout;
  double bytes_in = 0;                   ///< bytes per element of A and B
  double bytes_out = 0;                  ///< bytes per element of C
  double operand_bytes = 0;              ///< A and B of every batch: batch * (M*K + K*N) * bytes_in
  double operand_reuse = 0;              ///< fraction of operand_bytes that L2's reusable part and the LLC hold, 0..1
  double cu_flops_per_s = 0;             ///< one CU's matrix rate for the dtype times matrix_peak_fraction, FLOP/s
  double dram_bytes_per_s = 0;           ///< DRAM bandwidth times dram_bandwidth_fraction, bytes/s
  /// The DRAM rate of the output write, bytes/s: dram_bytes_per_s, times the profile's
  /// misaligned_store_fraction where a row of N outputs is not a whole number of 32-byte sectors;
  /// out_: rows of bytes_out elements, fp32_: of fp32 split-K partials
  double out_store_bytes_per_s = 0, fp32_store_bytes_per_s = 0;
  /// Where those rows are not whole sectors: the 32-byte sectors one output tile's row (min(block_n,
  /// N) elements) touches, in bytes, over its own bytes (>= 1; 1 where rows are whole sectors), by
  /// log2(block_n) for block_n 1..512 (core::store_sector_factor; other block_n compute it). out_: rows
  /// of bytes_out elements, fp32_: of fp32 split-K partials.
  std::array<double, 10> out_store_sector_factor{}, fp32_store_sector_factor{};
  bool sectored_store = false;  ///< the tables hold sectors (NVIDIA's 32-byte L2 sectors); else all 1

  /// What one tile dimension (M, N or K) gives for a block size: ceil(size / block) blocks, the
  /// elements a block covers on average (size / blocks), and the block padded to the matrix
  /// instruction's size in that dimension. All in elements except `blocks`.
  struct BlockTerms {
    double blocks = 0;
    double extent = 0;
    double padded = 0;
    double row_line_bytes = 0;    ///< extent * element bytes rounded up to whole 128-byte cache lines
    double block_line_bytes = 0;  ///< block * element bytes rounded up to whole 128-byte cache lines
    double busiest = 0;           ///< elements the fullest block covers: min(block, size)
    double busiest_line_bytes = 0;  ///< busiest * element bytes rounded up to whole 128-byte cache lines
    /// block / narrow_tile_matrix_efficiency: the rows of matrix work of a block under the narrow
    /// fallback instruction (Triton's map_matrix_work; M only). Also makes the record 64 bytes.
    double narrow_work = 0;
  };
  /// BlockTerms for each power-of-two block size 8, 16, ..., 1024 (index log2(block) - 3,
  /// block_index), the sizes the Triton targets allow (8 only as vllm-fused-moe's BLOCK_SIZE_M):
  /// [0] M by block_m, [1] N by block_n, [2] K by block_k.
  std::array<std::array<BlockTerms, kBlockSizeCount>, 3> block_terms{};

  ModelParams params;  ///< the target's free parameters on this profile (Profile::params_for)

  /// Config-independent factors of the per-config terms (model_core.hpp), computed once here so
  /// that the loop over the configs does not repeat them. Each is the very expression the model
  /// writes, evaluated in the same order, so every estimate is the same bit for bit.
  double dram_cu_bytes_per_s = 0;      ///< dram_bytes_per_s * dram_active_cu_headroom / cu_count: one CU's DRAM share
  double l2_headroom_bytes_per_s = 0;  ///< l2_bandwidth_bytes_per_s * dram_active_cu_headroom
  double k_step_overhead_s = 0;  ///< k_step_overhead_cycles / clock_hz: one block's K-step overhead
  double matrix_drain_s = 0;     ///< serialized_matrix_drain_cycles / clock_hz: one serialized instruction's dead time
  double lone_warpgroup_step_s = 0;  ///< lone_warpgroup_step_cycles / clock_hz on a warpgroup-instruction GPU, else 0
  /// l2_latency_s * serialized_load_latency_fraction: the wait of one staged element loaded alone, s
  double serialized_element_s = 0;
  /// Both operands aligned and staged_registers_per_element * 0 is +0 (the parameter is finite and
  /// not negative): no register staging, whose term is then +0 for any positive thread count.
  bool no_staged_registers = false;
  bool spill_fraction_positive = false;  ///< spill_bandwidth_fraction > 0: no spill moves +0 bytes
  /// fp32 registers per thread of the Triton fallback instruction's accumulator (mma.sync's,
  /// kMmaSyncAccumulatorRegisters in targets/triton.hpp).
  double warp_instruction_registers = 0;
  /// At least the fp32 registers per thread of any full matrix instruction's accumulator: the
  /// widest's, instruction_m * instruction_max_n / (matrix_instruction_warps * warp_size) (or
  /// +infinity where the profile's figures give no bound). The Triton targets skip their
  /// instruction-register rule where this fits (triton_resources).
  double widest_instruction_registers = 0;
  /// triton_store_scratch_min_warps of the problem and profile (0: none); only the `triton` target's
  /// kernel has that epilogue.
  int triton_store_scratch_min_warps = 0;

  /// What depends on a config only through its num_warps (core::warp_terms_of computes it).
  struct WarpTerms {
    double threads = 0;            ///< threads per block: num_warps * warp_size
    double register_cap = 0;       ///< registers a thread can have: min(max_registers_per_thread, floor(registers_per_cu / threads))
    double warp_occupancy = 0;     ///< blocks a CU's warp limit admits: floor(max_warps_per_cu / num_warps)
    double block_utilization = 0;  ///< matrix units one block's warps feed: min(1, num_warps / warps_to_feed_matrix_units)
  };
  static constexpr int kWarpTermsMax = 32;  ///< warp_terms covers 1..32 warps (Triton allows up to 32)
  /// warp_terms[w] for num_warps = w in 1..kWarpTermsMax ([0] unused); core::warp_terms reads it.
  std::array<WarpTerms, kWarpTermsMax + 1> warp_terms{};

  /// Set when every config estimated with this context comes from the target's own candidates()
  /// for this problem and profile, which generates only configs the kernel's rules allow: the
  /// per-config rule checks (power-of-two sizes, warp and stage ranges) are then skipped, the same
  /// results at less cost (tests/targets_test.cpp compares both). advise() sets it for its space.
  bool configs_from_space = false;

  /// A fused-MoE GEMM (problem->moe.gemm up or down) is a grouped GEMM: the context then takes
  /// batch = the experts the routing hits (moe_routing_terms; fractional under tuner routing), m =
  /// the routed rows per expert hit, and block_terms[0] from the routing: `blocks` the padded
  /// BLOCK_SIZE_M blocks per expert hit, `extent` the real rows per block, `busiest` the fullest
  /// block's rows. flops and operand_bytes are the GEMM's (2 * M * top_k * N * K; the weights of the
  /// experts hit and the distinct A rows).
  /// A whole layer (MoeGemm::layer) has its two GEMMs' contexts here; this context's own terms are
  /// the up GEMM's, flops the layer's. Empty otherwise.
  std::shared_ptr<const MoeLayerContexts> moe_layer;
};

/// The two GEMMs of a MoE layer problem and their contexts (EstimateContext::moe_layer). Each
/// context points to the problem beside it: the object is never copied or moved.
struct MoeLayerContexts {
  GemmProblem up, down;
  EstimateContext up_ctx, down_ctx;
};

/// Builds the context of a problem on a profile, for a target whose parameters on that profile are
/// `params`. The problem must be valid (validate_problem).
EstimateContext make_estimate_context(const GemmProblem& p, const Profile& profile, const ModelParams& params);
/// Not from temporaries: the context would point to a destroyed problem or profile.
EstimateContext make_estimate_context(GemmProblem&& p, const Profile& profile, const ModelParams& params) = delete;
EstimateContext make_estimate_context(const GemmProblem& p, Profile&& profile, const ModelParams& params) = delete;

/// The sectors' bytes a tile `block_n` wide touches per byte of its output rows (>= 1; 1 where rows are
/// whole 32-byte sectors or the profile's L2 is not NVIDIA's sectored one): the factor by which the
/// misaligned store rate (EstimateContext::out_store_bytes_per_s) is slowed for that tile.
/// `elem_bytes`: the row's element size (the output's, or 4 for split-K partials). Source: NVIDIA's
/// 32-byte sectors (CUDA C++ Best Practices Guide, "Coalesced Access to Global Memory").
double store_sector_factor(const EstimateContext& ctx, double block_n, double elem_bytes);

/// What ranking compares of an estimate: the same values as the Estimate's fields of these names.
struct LatencyEstimate {
  bool feasible = false;            ///< false: the config cannot run
  double latency_s = 0;             ///< predicted kernel time, seconds (+infinity if infeasible)
  double arithmetic_intensity = 0;  ///< FLOP per operand byte of a tile-step (0 if infeasible)
};

/// The index of a power-of-two block size in [8, 1024] in EstimateContext::block_terms.
/// (Unsigned arithmetic, so that the compiler folds the - 3 into the address of the table entry.)
inline std::size_t block_index(int block) {
  return static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(block))) - 3;
}

}  // namespace gemm_advisor
