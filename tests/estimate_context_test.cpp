#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gemm_advisor/model.hpp"
#include "gemm_advisor/targets/triton.hpp"
#include "test_util.hpp"

using namespace gemm_advisor;

namespace {
std::uint64_t bits(double v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// Every field of an Estimate, doubles by their bits (so that "equal" means bit for bit).
// A field added to Estimate belongs here too.
std::vector<std::uint64_t> fields(const Estimate& e) {
  return {e.feasible,
          bits(e.latency_s),
          bits(e.flops_per_s),
          static_cast<std::uint64_t>(e.bound),
          bits(e.output_tiles),
          bits(e.work_tiles),
          bits(e.k_steps),
          static_cast<std::uint64_t>(e.occupancy),
          bits(e.waves),
          bits(e.last_wave_efficiency),
          bits(e.last_wave_blocks),
          bits(e.padding_waste),
          bits(e.prefetch_s),
          bits(e.compute_step_s),
          bits(e.memory_step_s),
          bits(e.l2_step_s),
          bits(e.dram_step_s),
          bits(e.cu_load_step_s),
          bits(e.latency_step_s),
          bits(e.step_overhead_s),
          bits(e.store_s),
          bits(e.split_k_reduce_s),
          bits(e.llc_step_s),
          bits(e.l2_hit_rate),
          bits(e.llc_hit_rate),
          bits(e.dram_bytes),
          bits(e.arithmetic_intensity),
          bits(e.matrix_unit_utilization),
          e.a_aligned,
          e.b_aligned,
          static_cast<std::uint64_t>(e.smem_bytes),
          bits(e.registers_per_thread)};
}

GemmProblem problem(const char* shape, Dtype dtype = Dtype::bf16, const char* layout = "NT") {
  GemmProblem base;
  base.dtype = dtype;
  base.layout = parse_layout(layout);
  return parse_shape(shape, base);
}

// Configs that break a rule or a limit, or fit no block on a CU: their records must match too.
std::vector<TileConfig> infeasible_configs() {
  using test_util::cfg;
  return {cfg(8, 64, 64, 4, 3),            // block_m below 16
          cfg(48, 64, 64, 4, 3),           // block_m not a power of two
          cfg(512, 512, 256, 8, 3),        // shared memory and accumulators
          cfg(128, 128, 64, 3, 3),         // num_warps not a power of two
          cfg(128, 128, 64, 64, 3),        // too many threads
          cfg(128, 128, 64, 8, 0),         // no stage
          cfg(128, 128, 64, 8, 99),        // too many stages
          cfg(128, 128, 64, 8, 3, 300),    // split_k above 256
          cfg(128, 128, 64, 8, 3, 1, 0),   // group_m 0
          cfg(16, 16, 16, 8, 3),           // fewer than 4 accumulators per thread
          cfg(128, 256, 128, 8, 2, 3, 1)};  // feasible or not by profile; odd split_k and group_m
}
}  // namespace

TEST_CASE("a context built once per problem gives the same estimates as test_util::estimate(p, hw, c), bit for bit",
          "[model][context]") {
  // Aligned and unaligned operands, decode and prefill, split-K candidates (small M, long K),
  // batch > 1, fp8, every layout, and a dtype the profile has no matrix path for (fp4 on H200).
  const std::vector<GemmProblem> problems = {problem("4096x4096x4096"),
                                             problem("1x576x7168"),
                                             problem("16x6144x4096"),
                                             problem("100x200x300", Dtype::bf16, "NN"),
                                             problem("17x33x65", Dtype::fp16, "TT"),
                                             problem("128x128x65536"),
                                             problem("100x200x300x4", Dtype::bf16, "TN"),
                                             problem("2048x1536x7168x8", Dtype::fp8),
                                             problem("255x4097x1023", Dtype::fp32),
                                             problem("64x64x64", Dtype::fp4)};
  for (const char* name : {"h200", "mi350x"}) {
    const Profile hw = load_profile(name);
    // All contexts first: each must stay bound to its own problem.
    std::vector<EstimateContext> contexts;
    for (const GemmProblem& p : problems) contexts.push_back(triton_target().context(p, hw));
    std::size_t feasible = 0, infeasible = 0;
    for (std::size_t i = 0; i < problems.size(); ++i) {
      std::vector<TileConfig> configs;
      triton_candidates(problems[i], hw, configs);
      for (const TileConfig& c : infeasible_configs()) configs.push_back(c);
      for (const TileConfig& c : configs) {
        INFO(name << " " << problems[i].shape_text() << " " << dtype_name(problems[i].dtype) << " "
                  << problems[i].layout.name() << " " << c.text());
        const Estimate wrapped = test_util::estimate(problems[i], hw, c);
        const Estimate from_context = triton_target().estimate(contexts[i], c);
        CHECK(fields(from_context) == fields(wrapped));
        // The lean path ranking uses: the same feasibility, latency and intensity.
        const LatencyEstimate lean = triton_target().estimate_latency(contexts[i], c);
        CHECK(lean.feasible == wrapped.feasible);
        CHECK(bits(lean.latency_s) == bits(wrapped.latency_s));
        CHECK(bits(lean.arithmetic_intensity) == bits(wrapped.arithmetic_intensity));
        ++(wrapped.feasible ? feasible : infeasible);
      }
    }
    // The comparison covered both kinds, and whole candidate spaces.
    CHECK(feasible > 5000);
    CHECK(infeasible > 50);
  }
}
