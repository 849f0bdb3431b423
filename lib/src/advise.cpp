#include "gemm_advisor/advise.hpp"

#include <fmt/format.h>

#include <cmath>
#include <utility>

#include "gemm_advisor/error.hpp"
#include "gemm_advisor/model_params.hpp"

namespace gemm_advisor {

void advise(const Target& target, const GemmProblem& p, const Profile& profile, const std::vector<TileConfig>* given,
            std::size_t top, std::vector<TileConfig>& space, std::vector<RankedConfig>& out, bool distinct) {
  // A problem built by hand (a library caller's, not parse_shape's) is checked here too: a default
  // GemmProblem is 0x0x0, and ranking one gave feasible configs with made-up or NaN times (a fresh
  // C++ user's find, 2026-12-04).
  try {
    validate_problem(p);
  } catch (const InputError& e) {
    throw InputError(p.shape_text() + ": " + e.what());
  }
  // A default Profile{} holds no GPU ("dtype bf16 has no matrix path on " said so unclearly); a
  // loaded one edited in code may hold a figure no reader would pass (a zero DRAM bandwidth ranked
  // every config at NaN: a fresh C++ user's find, 2026-12-04).
  const Hardware& hw = profile.hw;
  if (hw.name.empty() && hw.cu_count <= 0)
    throw InputError("the profile describes no GPU (a default Profile: load one with load_profile or parse_profile)");
  // Each figure with the range parse_profile takes: positive, at least 0, or a fraction in (0, 1].
  enum class Range { positive, non_negative, fraction };
  struct Figure {
    const char* field;
    double value;
    Range range;
  };
  const Figure figures[] = {
      {"cu_count", static_cast<double>(hw.cu_count), Range::positive},
      {"clock_hz", hw.clock_hz, Range::positive},
      {"dram_bandwidth_bytes_per_s", hw.dram_bandwidth_bytes_per_s, Range::positive},
      {"l2_bandwidth_bytes_per_s", hw.l2_bandwidth_bytes_per_s, Range::positive},
      {"per_cu_load_bytes_per_s", hw.per_cu_load_bytes_per_s, Range::positive},
      {"smem_per_cu_bytes", static_cast<double>(hw.smem_per_cu_bytes), Range::positive},
      {"registers_per_cu", static_cast<double>(hw.registers_per_cu), Range::positive},
      {"triton.max_split_k", static_cast<double>(profile.triton.max_split_k), Range::positive},
      // ... and the figures without which no config can run or every one takes forever (edited in
      // code to 0, each gave an empty ranking or infinite times unsaid: a fresh consumer's find,
      // 2026-12-05).
      {"warp_size", static_cast<double>(hw.warp_size), Range::positive},
      {"max_warps_per_cu", static_cast<double>(hw.max_warps_per_cu), Range::positive},
      {"max_blocks_per_cu", static_cast<double>(hw.max_blocks_per_cu), Range::positive},
      {"matrix_peak_fraction", hw.matrix_peak_fraction, Range::fraction},
      {"triton.max_num_stages", static_cast<double>(profile.triton.max_num_stages), Range::positive},
      // ... and the rest parse_profile checks, edited in code (a negative DRAM latency ranked every
      // config feasible at a negative time, a zero matrix rate at infinity, a NaN latency at NaN: a
      // fresh C++ consumer's find, 2026-12-07).
      {"l2_latency_s", hw.l2_latency_s, Range::positive},
      {"dram_latency_s", hw.dram_latency_s, Range::positive},
      {"dram_bandwidth_fraction", hw.dram_bandwidth_fraction, Range::fraction},
      {"misaligned_store_fraction", hw.misaligned_store_fraction, Range::fraction},
      {"matrix_instruction_warps", static_cast<double>(hw.matrix_instruction_warps), Range::positive},
      {"xcd_count", static_cast<double>(hw.xcd_count), Range::positive},
      {"l2_bytes", hw.l2_bytes, Range::non_negative},
      {"llc_bytes", hw.llc_bytes, Range::non_negative},
      {"llc_bandwidth_bytes_per_s", hw.llc_bandwidth_bytes_per_s, Range::non_negative},
      {"dram_bytes", hw.dram_bytes, Range::non_negative},
      {"tensor_memory_bytes_per_cu", static_cast<double>(hw.tensor_memory_bytes_per_cu), Range::non_negative},
      {"smem_reserved_per_block_bytes", static_cast<double>(hw.smem_reserved_per_block_bytes), Range::non_negative},
      {"triton.smem_stage_offset", static_cast<double>(profile.triton.smem_stage_offset), Range::non_negative},
      {"triton.sync_mma_smem_stage_offset", static_cast<double>(profile.triton.sync_mma_smem_stage_offset),
       Range::non_negative},
      {"triton.min_pipelined_load_bits", static_cast<double>(profile.triton.min_pipelined_load_bits), Range::non_negative},
      {"triton.max_loads_in_flight", static_cast<double>(profile.triton.max_loads_in_flight), Range::non_negative},
  };
  for (const Figure& f : figures) {
    const bool ok = std::isfinite(f.value) && (f.range == Range::non_negative ? f.value >= 0 : f.value > 0) &&
                    (f.range != Range::fraction || f.value <= 1);
    if (!ok)
      throw InputError("profile " + hw.name + ": " + f.field +
                       (f.range == Range::positive       ? " must be a positive number"
                        : f.range == Range::non_negative ? " must be a number of at least 0"
                                                         : " must be a fraction in (0, 1]") +
                       ", got " + fmt::format("{:g}", f.value));
  }
  if (hw.llc_bytes > 0 && !(hw.llc_bandwidth_bytes_per_s > 0))
    throw InputError("profile " + hw.name + ": llc_bandwidth_bytes_per_s must be positive where llc_bytes is");
  // Every matrix path's instruction and rate (a zero rate ranked at infinity, a zero instruction at NaN).
  for (std::size_t d = 0; d < hw.matrix.size(); ++d) {
    const std::optional<MatrixRate>& r = hw.matrix[d];
    if (!r) continue;
    const std::string dtype(dtype_name(static_cast<Dtype>(d)));
    if (!(r->flops_per_cycle_per_cu > 0) || !std::isfinite(r->flops_per_cycle_per_cu))
      throw InputError("profile " + hw.name + ": matrix " + dtype + " flops_per_cycle_per_cu must be a positive number, got " +
                       fmt::format("{:g}", r->flops_per_cycle_per_cu));
    if (r->instruction_m < 1 || r->instruction_n < 1 || r->instruction_k < 1)
      throw InputError("profile " + hw.name + ": matrix " + dtype + " instruction " + std::to_string(r->instruction_m) + "x" +
                       std::to_string(r->instruction_n) + "x" + std::to_string(r->instruction_k) +
                       ": each size must be at least 1");
  }
  // A CU count above the product's is no partition (use_cu_count refuses it; set in code it ranked a
  // larger GPU than the profile's).
  if (hw.product_cu_count > 0 && hw.cu_count > hw.product_cu_count)
    throw InputError("profile " + hw.name + ": cu_count = " + std::to_string(hw.cu_count) + " exceeds the " +
                     std::to_string(hw.product_cu_count) + " CUs of the GPU");
  // The model parameters the target runs with, inside the registry's ranges (a NaN launch overhead
  // ranked every config feasible at NaN).
  const ModelParams mp = target.problem_params(p, profile);
  for (const ModelParamInfo& info : kModelParamRegistry) {
    const double v = mp.*(info.field);
    if (!(v >= info.min_value && v <= info.max_value))
      throw InputError("profile " + hw.name + ": model parameter " + std::string(info.name) + " = " +
                       fmt::format("{:g}", v) + " is outside " + fmt::format("{:g}..{:g}", info.min_value, info.max_value));
  }
  // An empty list given: said as such (it read as "every config of the target's space breaks a limit").
  if (given && given->empty()) throw InputError(p.shape_text() + ": no config given to rank");
  if (std::string why = target.problem_error(p, profile); !why.empty())
    throw InputError(p.shape_text() + ": " + std::string(target.name()) + ": " + why);
  if (!given) target.candidates(p, profile, space);
  rank_configs(target, p, profile, given ? *given : space, out, top, /*from_space=*/given == nullptr, distinct);
}

}  // namespace gemm_advisor
