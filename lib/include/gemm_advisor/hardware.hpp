#pragma once
/// The physics of a GPU, as a YAML hardware profile describes it (schema: profiles/SCHEMA.md; the
/// profile as a whole, with its Triton section and model parameters, is profile.hpp's Profile).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gemm_advisor/problem.hpp"

namespace gemm_advisor {

/// The matrix instruction a kernel issues for one input dtype, and the CU's dense rate with it.
struct MatrixRate {
  int instruction_m = 0;  ///< rows of the instruction's output tile
  int instruction_n = 0;  ///< columns of the instruction's output tile
  int instruction_k = 0;  ///< reduction depth of one instruction
  int instruction_max_n = 0;  ///< largest N one instruction takes (wgmma: 256); default instruction_n
  /// Smallest block_m the asynchronous instruction takes (Blackwell's tcgen05: M = 64 besides 128);
  /// default instruction_m. A block of that M still costs the work of instruction_m rows (the
  /// instruction's rate is per instruction_m rows: half of it at M = 64).
  int instruction_min_m = 0;
  double flops_per_cycle_per_cu = 0;  ///< dense FLOP per core cycle of one CU/SM, all matrix units
  bool tf32 = false;      ///< fp32 inputs run as TF32 on this hardware
};

/// All figures in SI units (seconds, bytes, Hz), converted once from the profile's keys.
struct Hardware {
  std::string name;          ///< id used by --hw (e.g. "b200")
  std::string display_name;  ///< e.g. "NVIDIA B200"; with " (N of M CUs)" on a partition (use_cu_count)
  std::string product_display_name;  ///< the product's, without the partition
  std::string vendor;        ///< "nvidia" or "amd"
  std::string arch;          ///< e.g. "hopper", "cdna4"
  std::string isa;           ///< e.g. "sm_90", "gfx950"
  std::string source;        ///< where it was loaded from ("embedded:b200" or a path)
  /// text_digest of the YAML the profile was parsed from: results name their profile by path, which
  /// differs between checkouts and stays when the file's figures change; this follows the content.
  std::string source_digest;
  /// Other names of the GPU, as drivers and tools print them (`aliases:`; torch, nvidia-smi,
  /// rocm-smi, vLLM's file names): `--hw` takes any of them (resolve_profile_name).
  std::vector<std::string> aliases;

  int cu_count = 0;          ///< CUs (SMs) a kernel may use: the product's, or a partition's (use_cu_count)
  int product_cu_count = 0;  ///< the whole product's CUs, as the profile's compute.cu_count gives them
  double clock_hz = 0;
  int warp_size = 0;
  int matrix_units_per_cu = 0;
  int warps_to_feed_matrix_units = 0;
  int matrix_instruction_warps = 1;  ///< warps that issue one matrix instruction together (Hopper wgmma: 4)
  /// Bytes of tensor memory per CU/SM (Blackwell: 128 lanes x 512 columns of 32 bits = 262144),
  /// where the asynchronous matrix instruction keeps its accumulator instead of registers; 0: none
  /// (the accumulator lives in registers).
  std::int64_t tensor_memory_bytes_per_cu = 0;
  /// FP32 vector (non-matrix) lanes of one CU/SM, each one multiply, add or FMA per cycle; 0 when
  /// the profile does not say (targets with per-step vector math then cannot estimate).
  int vector_fp32_lanes_per_cu = 0;
  int max_warps_per_cu = 0;
  int max_blocks_per_cu = 0;
  std::int64_t registers_per_cu = 0;
  int max_registers_per_thread = 0;
  std::int64_t smem_per_cu_bytes = 0;
  std::int64_t smem_per_block_bytes = 0;
  /// Shared memory the driver keeps per resident block beside the block's own (NVIDIA sm_80 and
  /// later: 1 KB, CUDA's cudaDevAttrReservedSharedMemoryPerBlock; 0 on AMD): a CU holds
  /// floor(smem_per_cu_bytes / (block's bytes + this)) blocks.
  std::int64_t smem_reserved_per_block_bytes = 0;

  double l2_bytes = 0;
  double l2_bandwidth_bytes_per_s = 0;
  double l2_latency_s = 0;
  double llc_bytes = 0;
  double llc_bandwidth_bytes_per_s = 0;
  double dram_bytes = 0;
  double dram_bandwidth_bytes_per_s = 0;
  double dram_latency_s = 0;
  double per_cu_load_bytes_per_s = 0;
  int xcd_count = 1;
  int product_xcd_count = 0;  ///< the product's xcd_count, once use_cu_count has capped xcd_count

  double matrix_peak_fraction = 1;
  double dram_bandwidth_fraction = 1;
  /// Fraction of the DRAM write rate (dram_bandwidth_bytes_per_s x dram_bandwidth_fraction) that an
  /// output whose rows are not a whole number of kStoreSectorBytes sectors reaches: a tile's row then
  /// starts and ends inside a sector that its neighbour writes too. 1 (no penalty) where not given.
  double misaligned_store_fraction = 1;

  std::array<std::optional<MatrixRate>, kDtypeCount> matrix{};

  /// The matrix rate for a dtype, or nullptr when the hardware has no matrix path for it.
  const MatrixRate* rate(Dtype d) const {
    const auto& r = matrix[static_cast<std::size_t>(d)];
    return r ? &*r : nullptr;
  }
  /// Datasheet dense peak for a dtype in FLOP/s: cu_count * flops_per_cycle_per_cu * clock_hz.
  /// 0 when the dtype is unsupported.
  double peak_flops_per_s(Dtype d) const;
};

/// Restricts `hw` to `cu_count` of its product's CUs: a partition (MIG, MI300X CPX, MI355X
/// partition modes) or a CU mask (ROCm/tritonBLAS #76: 200 of 304 CUs). Waves, occupancy and the
/// matrix peak follow the CU count; caches, DRAM bandwidth and latencies stay as the profile gives
/// them (right for a CU mask; for a partition that also slices memory, give its memory figures in
/// a profile). The display name gains "(N of M CUs)". Throws InputError unless
/// 1 <= cu_count <= product_cu_count; `xcd_count` is capped at cu_count.
void use_cu_count(Hardware& hw, int cu_count);

/// The profile's name, with " (N of M CUs)" when use_cu_count restricted it: what a CSV row's
/// hardware column says (a 66-CU prediction is not the whole GPU's).
std::string hardware_label(const Hardware& hw);

/// What a table's heading names the GPU by: display_name, and for a profile read from a file (a
/// calibrated overlay, an edited copy) " [profile FILE]", so that a table ranked with an overlay
/// says so (it read as the shipped profile's: a fresh user's find, 2026-12-05).
std::string hardware_heading(const Hardware& hw);

/// " [profile FILE]" for a profile read from a file, "" for an embedded one: what hardware_heading
/// adds, for headings that name the GPU by hardware_label (evaluate's and calibrate's: an overlay's
/// table read as the shipped profile's, a fresh user's find, 2026-12-07).
std::string profile_file_note(const Hardware& hw);

/// A peak in FLOP/s as the text headings print it, in TFLOP/s: whole numbers from 100 up ("989"), three
/// significant digits below ("7.5" for one H100 SM), so that a partition's percentages read right.
std::string peak_tflops_text(double peak_flops_per_s);

/// Reads a whole file. Throws InputError naming the path when it is missing, a directory,
/// unreadable, or longer than `max_bytes` (so `--hw /dev/zero` fails instead of eating memory).
std::string read_text_file(const std::string& path, std::size_t max_bytes = std::size_t{16} << 20);

/// Checks that a path names a readable regular file (not a directory) without reading it.
/// Throws InputError naming the path and the reason.
void check_readable_file(const std::string& path);

/// A warning where `dtype_text` (as given: "torch.float8_e4m3fnuz", "float8_e4m3fn") names an fp8
/// encoding the GPU does not compute: the FNUZ encodings (float8_e4m3fnuz, float8_e5m2fnuz) are CDNA
/// 3's (gfx942: FNUZ only, ROCm's HIP "FP8 Numbers" table), the OCP ones (float8_e4m3fn, float8_e5m2)
/// every other fp8 GPU's (NVIDIA's; gfx950, LLVM's AMDGPU OCP support). The model ranks fp8 alike;
/// a kernel built for the other encoding converts or is refused. Also where the text asks for what
/// the GPU or Triton does not have: tf32 on a GPU without TF32 (ranked as fp32), nvfp4 on AMD (ranked
/// as its mxfp4), fp6 (no Triton kernel takes it: tl.dot_scaled's formats are e2m1, e4m3, e5m2, bf16,
/// fp16), or tf32 on gfx942, whose XF32 is not modelled (ranked at Triton-HIP's default IEEE rate).
/// "" where the text names no encoding ("fp8", "e4m3") or the GPU's own, or the GPU has no fp8.
/// `another_gpu` (when not null) is set to whether rows of that dtype may have been timed on another
/// GPU (an encoding, TF32 or nvfp4 this one lacks), not where no GPU or only the model lacks it.
std::string dtype_format_warning(std::string_view dtype_text, const Hardware& hw, bool* another_gpu = nullptr);

/// A warning where the problem's operands and output (GemmProblem::compulsory_bytes) do not fit the
/// GPU's memory (Hardware::dram_bytes): "A, B and C take X GB, more than NAME's Y GB of memory: no one
/// GPU runs it as one GEMM" (a fused-MoE problem: the weights of all its experts, "no one GPU holds
/// it"). The model predicts such a problem as given; the CLI and the Python module say so. "" where it
/// fits or the profile gives no memory size.
std::string beyond_memory_warning(const GemmProblem& p, const Hardware& hw);

}  // namespace gemm_advisor
