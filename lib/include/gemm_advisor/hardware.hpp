#pragma once
/// A GPU described by a YAML hardware profile (schema: profiles/SCHEMA.md).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gemm_advisor/model_params.hpp"
#include "gemm_advisor/problem.hpp"

namespace gemm_advisor {

/// The matrix instruction a kernel issues for one input dtype, and the CU's dense rate with it.
struct MatrixRate {
  int instruction_m = 0;  ///< rows of the instruction's output tile
  int instruction_n = 0;  ///< columns of the instruction's output tile
  int instruction_k = 0;  ///< reduction depth of one instruction
  double flops_per_cycle_per_cu = 0;  ///< dense FLOP per core cycle of one CU/SM, all matrix units
  bool tf32 = false;      ///< fp32 inputs run as TF32 on this hardware
};

/// All figures in SI units (seconds, bytes, Hz), converted once from the profile's keys.
struct Hardware {
  std::string name;          ///< id used by --hw (e.g. "b200")
  std::string display_name;  ///< e.g. "NVIDIA B200"
  std::string vendor;        ///< "nvidia" or "amd"
  std::string arch;          ///< e.g. "hopper", "cdna4"
  std::string isa;           ///< e.g. "sm_90", "gfx950"
  std::string source;        ///< where it was loaded from ("embedded:b200" or a path)

  int cu_count = 0;
  double clock_hz = 0;
  int warp_size = 0;
  int matrix_units_per_cu = 0;
  int warps_to_feed_matrix_units = 0;
  int matrix_instruction_warps = 1;  ///< warps that issue one matrix instruction together (Hopper wgmma: 4)
  int max_warps_per_cu = 0;
  int max_blocks_per_cu = 0;
  std::int64_t registers_per_cu = 0;
  int max_registers_per_thread = 0;
  std::int64_t smem_per_cu_bytes = 0;
  std::int64_t smem_per_block_bytes = 0;

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

  double matrix_peak_fraction = 1;
  double dram_bandwidth_fraction = 1;

  std::array<std::optional<MatrixRate>, kDtypeCount> matrix{};

  int triton_max_num_stages = 0;
  int triton_smem_stage_offset = 0;

  ModelParams model;

  /// The matrix rate for a dtype, or nullptr when the hardware has no matrix path for it.
  const MatrixRate* rate(Dtype d) const {
    const auto& r = matrix[static_cast<std::size_t>(d)];
    return r ? &*r : nullptr;
  }
  /// Datasheet dense peak for a dtype in FLOP/s: cu_count * flops_per_cycle_per_cu * clock_hz.
  /// 0 when the dtype is unsupported.
  double peak_flops_per_s(Dtype d) const;
};

/// Problems found while validating a profile. Errors make it unusable; warnings do not.
struct ProfileDiagnostics {
  std::vector<std::string> errors;    ///< each "source:line: message"
  std::vector<std::string> warnings;  ///< each "source:line: message"
};

/// Parses and validates profile YAML text. `source` names it in messages (a path, or
/// "embedded:NAME"). Returns the hardware, filling `diagnostics`. Throws InputError carrying the
/// first error (file:line) when the text is not YAML or any error was found.
Hardware parse_profile(std::string_view yaml_text, const std::string& source,
                       ProfileDiagnostics* diagnostics = nullptr);

/// Loads a profile by embedded name ("b200") or by path (anything with '/' or ending in .yaml/.yml).
/// Throws InputError for an unknown name (listing the known ones), an unreadable file or a bad profile.
/// `diagnostics`, when given, receives the profile's warnings (unknown keys, uncited numbers), which
/// a caller should show: they do not stop the load.
Hardware load_hardware(const std::string& name_or_path, ProfileDiagnostics* diagnostics = nullptr);

/// A profile compiled into the binary: its name (file stem) and YAML text.
struct EmbeddedProfile {
  std::string_view name;
  std::string_view yaml;
};
/// Every profile of profiles/*.yaml, sorted by name. Generated at build time.
const std::vector<EmbeddedProfile>& embedded_profiles();

/// Reads a whole file. Throws InputError naming the path when it is missing, a directory,
/// unreadable, or longer than `max_bytes` (so `--hw /dev/zero` fails instead of eating memory).
std::string read_text_file(const std::string& path, std::size_t max_bytes = std::size_t{16} << 20);

/// Checks that a path names a readable regular file (not a directory) without reading it.
/// Throws InputError naming the path and the reason.
void check_readable_file(const std::string& path);

}  // namespace gemm_advisor
