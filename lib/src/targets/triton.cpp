#include "gemm_advisor/targets/triton.hpp"

#include <algorithm>

#include "../target_impl.hpp"
#include "gemm_advisor/error.hpp"
#include "triton_family.hpp"

namespace gemm_advisor {

std::int64_t next_pow2(std::int64_t v) {
  std::int64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

std::string triton_resource_words(const TileConfig& c, const GemmProblem& p, const Profile& profile, const Target& t,
                                  int store_scratch_min_warps) {
  const MatrixRate* rate = profile.hw.rate(p.dtype);
  if (!rate) return "dtype " + std::string(dtype_name(p.dtype)) + " has no matrix path on " + profile.hw.name;
  const TritonResources r = triton_resources(c, p.dtype, *rate, profile.hw, profile.triton,
                                             profile.params_for(t.name(), t.default_params()).register_overhead_per_thread,
                                             triton_operand_pipelining(p, profile.triton), store_scratch_min_warps);
  return triton_resource_message(r.check, c, r.smem_bytes, r.instruction_registers, profile.hw);
}

std::string triton_rules_message(const TileConfig& c, const GemmProblem& p, const Profile& profile) {
  const Hardware& hw = profile.hw;
  auto pow2 = [](const char* what, int v) -> std::string {
    if (v < 16 || v > 1024 || !is_pow2(v))
      return std::string(what) + " = " + std::to_string(v) + " must be a power of two in [16, 1024]";
    return "";
  };
  for (auto [what, v] : {std::pair<const char*, int>{"block_m", c.block_m}, {"block_n", c.block_n},
                         {"block_k", c.block_k}}) {
    if (auto e = pow2(what, v); !e.empty()) return e;
  }
  if (!is_pow2(c.num_warps) || c.num_warps > 32)
    return "num_warps = " + std::to_string(c.num_warps) + " must be a power of two in [1, 32]";
  if (c.num_stages < 1) return "num_stages = " + std::to_string(c.num_stages) + " must be at least 1";
  if (c.split_k < 1) return "split_k = " + std::to_string(c.split_k) + " must be at least 1";
  if (const std::int64_t k_blocks = (p.k + c.block_k - 1) / c.block_k; c.split_k > k_blocks)
    return "split_k = " + std::to_string(c.split_k) + " splits K = " + std::to_string(p.k) + " into more parts than its " +
           std::to_string(k_blocks) + " blocks of block_k = " + std::to_string(c.block_k) +
           " (a split would have no K to do)";
  if (c.group_m < 1) return "group_m = " + std::to_string(c.group_m) + " must be at least 1";
  if (!hw.rate(p.dtype))
    return std::string("dtype ") + std::string(dtype_name(p.dtype)) + " has no matrix path on " + hw.name;
  if (static_cast<std::int64_t>(c.block_k) * dtype_bits(p.dtype) < 256)
    return "block_k = " + std::to_string(c.block_k) + " loads fewer than 32 bytes per row for " +
           std::string(dtype_name(p.dtype));
  return "";
}

std::string triton_search_bound_message(const TileConfig& c, const Profile& profile) {
  if (c.num_stages > profile.triton.max_num_stages)
    return "num_stages = " + std::to_string(c.num_stages) + " is outside 1.." +
           std::to_string(profile.triton.max_num_stages) + " for " + profile.hw.name +
           " (triton.max_num_stages, the profile's bound on the search, not a hardware limit: a profile of your own "
           "may raise it)";
  if (c.split_k > profile.triton.max_split_k)
    return "split_k = " + std::to_string(c.split_k) + " is outside 1.." + std::to_string(profile.triton.max_split_k) +
           " (triton.max_split_k, or --max-split-k where given: the bound on the search, not a hardware limit; raise "
           "it with --max-split-k, or max_split_k= in Python)";
  return "";
}

std::string triton_resource_message(TritonResourceCheck check, const TileConfig& c, std::int64_t smem_bytes,
                                    double instruction_registers, const Hardware& hw) {
  switch (check) {
    case TritonResourceCheck::smem:
      return "needs " + std::to_string(smem_bytes) + " bytes of shared memory, more than the " +
             std::to_string(hw.smem_per_block_bytes) + " a block may use on " + hw.name;
    case TritonResourceCheck::instruction_registers:
      return "one matrix instruction's accumulator takes " +
             std::to_string(static_cast<long long>(instruction_registers)) + " registers a thread, which with " +
             std::to_string(c.num_warps) + " warps leaves too few of the " +
             std::to_string(static_cast<long long>(triton_register_cap(c.num_warps, hw))) +
             " a thread may have (" +
             (hw.vendor == "amd" ? "the AMDGPU backend cannot allocate it" : "ptxas refuses it") + ")";
    case TritonResourceCheck::tensor_memory:
      return "its fp32 accumulator needs " + std::to_string(triton_tensor_memory_bytes(c)) +
             " bytes of tensor memory, more than the " + std::to_string(hw.tensor_memory_bytes_per_cu) + " of " +
             hw.name;
    case TritonResourceCheck::too_many_threads:
      return "num_warps = " + std::to_string(c.num_warps) + " exceeds 1024 threads per block";
    case TritonResourceCheck::ok:
      break;
  }
  return "";
}

namespace {

// The `triton` kernel's mapping onto the model core: M-, N- and K-masked loads (a tile loads only
// the real rows and columns it covers, so padding costs matrix work but no traffic), SPLIT_K with
// fp32 partials reduced by a second kernel.
struct TritonRules {
  static constexpr bool kExtraStepWork = false;
  template <bool kAligned>
  [[gnu::always_inline]] static inline bool map(const EstimateContext& ctx, const TileConfig& c, KernelShape& k) {
    const GemmProblem& p = *ctx.problem;
    const Hardware& hw = *ctx.hw;
    const TritonResources r = triton_family::map_tile<kAligned>(ctx, c, k, ctx.triton_store_scratch_min_warps);
    if ((!ctx.configs_from_space && !triton_config_rules_ok(c, p, hw, ctx.profile->triton)) ||
        r.check != TritonResourceCheck::ok)
      return false;
    // The rules passed: every block size is a power of two in [16, 1024].
    const EstimateContext::BlockTerms& tm = ctx.block_terms[0][block_index(c.block_m)];
    const EstimateContext::BlockTerms& tn = ctx.block_terms[1][block_index(c.block_n)];
    const EstimateContext::BlockTerms& tk = ctx.block_terms[2][block_index(c.block_k)];
    k.tiles_m = tm.blocks;
    k.tiles_n = tn.blocks;
    k.k_blocks = tk.blocks;
    k.split_k = c.split_k;
    k.group_m = c.group_m;
    // Masked loads: a tile-step loads the real rows, columns and K-depth it covers (on average).
    k.a_rows_loaded = k.a_rows_unique = tm.extent;
    k.b_cols_loaded = k.b_cols_unique = tn.extent;
    k.a_rows_busiest = k.out_rows_busiest = tm.busiest;  // the fullest tile: what the busiest CU copies
    k.b_cols_busiest = k.out_cols_busiest = tn.busiest;
    k.k_depth = tk.extent;
    k.k_depth_busiest = tk.busiest;
    // An aligned operand is copied in whole cache lines: a tile row shorter than a line (a
    // K-contiguous operand with BLOCK_K * elem < 128 bytes) still costs a line's request slot.
    k.a_line_bytes = ctx.layout.a_transposed ? tk.busiest * tm.busiest_line_bytes : tm.busiest * tk.busiest_line_bytes;
    k.b_line_bytes = ctx.layout.b_transposed ? tn.busiest * tk.busiest_line_bytes : tk.busiest * tn.busiest_line_bytes;
    triton_family::map_matrix_work(tm, tn, tk, r.full_instruction, k);
    k.loads_in_flight = triton_family::loads_in_flight<kAligned>(ctx, c, r);
    k.out_elem_bytes = c.split_k > 1 ? 4.0 : ctx.bytes_out;  // split-K: fp32 partials
    return true;
  }
};

class TritonTarget final : public RulesTarget<TritonRules> {
 public:
  const TargetInfo& info() const override {
    static const TargetInfo kInfo{
        "triton",
        "the project's masked Triton GEMM: M/N/K-masked loads, GROUP_M raster, SPLIT_K with an fp32 reduction kernel",
        "tools/measure/gemm_kernels.py (written for this project); measured on the H200, "
        "data/measurements/h200-triton-*.csv",
        {{"block_m", "BLOCK_M", "16..256, powers of two"},
         {"block_n", "BLOCK_N", "16..256, powers of two"},
         {"block_k", "BLOCK_K", "16..256, powers of two, >= 32 bytes"},
         {"group_m", "GROUP_M", "8"},
         {"split_k", "SPLIT_K", "1, 2, 4, ..., triton.max_split_k (few-tile, long-K shapes, up to 16 waves)"},
         {"num_warps", "num_warps", "2, 4, 8"},
         {"num_stages", "num_stages", "1..triton.max_num_stages"}}};
    return kInfo;
  }
  const ModelParams& default_params() const override {
    // model_params.hpp's values were fitted on this kernel, but for one. Co-resident blocks hide half
    // of each other's per-step overhead (ModelParams::coresident_overhead_overlap; 0 before
    // 2026-12-04): fitted per fold with the usual five (data/fit/h200-triton.txt), held out by family
    // 97.11% -> 97.23% of oracle on the 263 shapes, the fit on all of them 0.5 (0.5-0.9 rank alike; 1
    // loses decode shapes whose small split tiles it overrates: 1x1280x5120 NT 96% -> 70%). In sample
    // five picks move, none worse: 512x64x512 x64 80.5% -> 100% (256x64x32 w4 s5, one block a CU,
    // against 128x64x64 w4 s4 at two), three decode shapes' 16x128 split-2 tiles 91-95% -> 100%.
    static const ModelParams kParams = [] {
      ModelParams p;
      p.coresident_overhead_overlap = 0.5;
      // Waves after the first of one-step tiles run staggered (model_params.hpp,
      // staggered_wave_fraction, 2026-12-06): held out on h100-onestep-check2.csv 86.1% -> 90.1% of
      // oracle, median top-1 time error 44.1% -> 4.9%; the H200's 343 shapes rank alike (97.1%).
      p.staggered_wave_fraction = 1.0;
      return p;
    }();
    return kParams;
  }
  std::string problem_error(const GemmProblem& p, const Profile& profile) const override {
    if (p.is_moe()) return "a fused-MoE problem: its kernel is the target vllm-fused-moe";
    if (!profile.hw.rate(p.dtype))
      return "dtype " + std::string(dtype_name(p.dtype)) + " has no matrix path on " + profile.hw.name;
    return "";
  }
  void candidates(const GemmProblem& p, const Profile& profile, std::vector<TileConfig>& out) const override;
  std::string infeasibility(const TileConfig& c, const GemmProblem& p, const Profile& profile) const override {
    if (std::string why = triton_rules_message(c, p, profile); !why.empty()) return why;
    if (std::string why = triton_resource_words(c, p, profile, *this, triton_store_scratch_min_warps(p, profile.triton));
        !why.empty())
      return why;
    return triton_search_bound_message(c, profile);
  }
  TileConfig default_config(const GemmProblem&) const override { return triton_default_config(); }
};

void TritonTarget::candidates(const GemmProblem& p, const Profile& profile, std::vector<TileConfig>& out) const {
  out.clear();
  const Hardware& hw = profile.hw;
  if (!hw.rate(p.dtype)) return;
  static constexpr int kBlocks[] = {16, 32, 64, 128, 256};
  static constexpr int kWarps[] = {2, 4, 8};
  // Only when no config of kWarps fits (tiny shapes on 64-wide AMD wavefronts: a 16x16 tile gives
  // fewer than 4 accumulators per lane with 2 waves), a single warp keeps the shape answerable.
  static constexpr int kFallbackWarps[] = {1};
  // split_k: powers of two up to triton.max_split_k, for a few-tile shape only: its unsplit tiles fill
  // at most kSplitTileWaves waves of one block per CU ...
  constexpr double kSplitTileWaves = 2.0;
  // ... and while the split tiles fill at most kSplitTileWaves waves, or, where each split keeps at
  // least kSplitLongK of K (the partial sums' write and reduction then weigh little beside it), at
  // most kSplitMaxWaves: the longer splits past two waves matter for huge K only, and at every split
  // of a decode shape's short K they made the space 1.6x larger (BM_RankShape). The space stopped at
  // 2 waves of split tiles until 2026-12-04, where the model predicts more splits over more waves
  // 1.4-1.65x faster on few-tile, huge-K shapes (wave quantization: 80 tiles on 132 SMs run one 61%
  // wave); measured on our H200 (data/measurements/h200-split-waves.csv, 8 such problems, the plan committed before it ran):
  // the advisor's top-1 at 2 waves 90.2% of the best measured (worst 71.9%), at 16 waves 94.2% (82.9%),
  // no problem worse; the measured best of 1936x1072x160560 is 128x256 split 8, 4.8 waves.
  constexpr double kSplitMaxWaves = 16.0;
  constexpr std::int64_t kSplitLongK = 4096;
  // ... and each split keeps at least this much of K (and at least one BLOCK_K).
  constexpr std::int64_t kSplitMinK = 256;
  const std::int64_t max_m = std::max<std::int64_t>(16, next_pow2(p.m));
  const std::int64_t max_n = std::max<std::int64_t>(16, next_pow2(p.n));
  const int bits = dtype_bits(p.dtype);
  // BLOCK_K covers K's next power of two, and at least the 256 bits a K-step must hold (fp8 with
  // K <= 16 gets a masked BLOCK_K of 32, not nothing).
  const std::int64_t min_bk = (256 + bits - 1) / bits;
  const std::int64_t max_k = std::max<std::int64_t>({16, next_pow2(p.k), next_pow2(min_bk)});
  const MatrixRate& rate = *hw.rate(p.dtype);
  const double reserve = profile.params_for(name(), default_params()).register_overhead_per_thread;
  const TritonPipelining pipelined = triton_operand_pipelining(p, profile.triton);
  const int store_scratch = triton_store_scratch_min_warps(p, profile.triton);
  TileConfig c;
  c.group_m = 8;
  auto enumerate = [&](auto& warp_counts) {
    for (int bm : kBlocks) {
      if (bm > max_m) break;
      for (int bn : kBlocks) {
        if (bn > max_n) break;
        // In double: at the limits (M, N = 2^31-1, batch = 2^24) the product needs 78 bits.
        const double tiles = static_cast<double>((p.m + bm - 1) / bm) * static_cast<double>((p.n + bn - 1) / bn) *
                             static_cast<double>(p.batch);
        for (int bk : kBlocks) {
          if (bk > max_k) break;
          if (static_cast<std::int64_t>(bk) * bits < 256) continue;
          for (int w : warp_counts) {
            for (int s = 1; s <= profile.triton.max_num_stages; ++s) {
              c.block_m = bm;
              c.block_n = bn;
              c.block_k = bk;
              c.num_warps = w;
              c.num_stages = s;
              c.split_k = 1;
              // Sizes, warps and stages are legal by construction; only the resources can fail.
              if (triton_resources(c, p.dtype, rate, hw, profile.triton, reserve, pipelined, store_scratch).check !=
                  TritonResourceCheck::ok)
                continue;
              for (int sk = 1; sk <= profile.triton.max_split_k; sk *= 2) {
                if (sk > 1 && !(tiles <= kSplitTileWaves * hw.cu_count &&
                                p.k >= static_cast<std::int64_t>(sk) * std::max<std::int64_t>(bk, kSplitMinK) &&
                                (tiles * sk <= kSplitTileWaves * hw.cu_count ||
                                 (tiles * sk <= kSplitMaxWaves * hw.cu_count && p.k >= sk * kSplitLongK))))
                  break;  // both bounds only tighten as split_k grows
                c.split_k = sk;
                out.push_back(c);
              }
            }
          }
        }
      }
    }
  };
  enumerate(kWarps);
  if (out.empty()) enumerate(kFallbackWarps);
}

}  // namespace

const Target& triton_target() {
  static const TritonTarget kTarget;
  return kTarget;
}

void triton_candidates(const GemmProblem& p, const Profile& profile, std::vector<TileConfig>& out) {
  triton_target().candidates(p, profile, out);
}

std::string triton_infeasibility(const TileConfig& c, const GemmProblem& p, const Profile& profile) {
  return triton_target().infeasibility(c, p, profile);
}

TileConfig triton_default_config() {
  TileConfig c;
  c.block_m = 128;
  c.block_n = 128;
  c.block_k = 64;
  c.num_warps = 8;
  c.num_stages = 3;
  c.group_m = 8;
  c.split_k = 1;
  return c;
}

}  // namespace gemm_advisor
