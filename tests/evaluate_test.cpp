#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

#include "gemm_advisor/error.hpp"
#include "gemm_advisor/evaluate.hpp"
#include "gemm_advisor/ranker.hpp"
#include "test_util.hpp"

using namespace gemm_advisor;

TEST_CASE("spearman, geomean and percentile by hand", "[evaluate]") {
  // Ranks (1,2,3) vs (2,1,3): d^2 = 1+1+0 = 2; rho = 1 - 6*2 / (3*(9-1)) = 0.5.
  CHECK(spearman({1, 2, 3}, {20, 10, 30}) == Approx(0.5));
  CHECK(spearman({1, 2, 3, 4}, {4, 3, 2, 1}) == Approx(-1.0));
  // Ties take average ranks: (1, 2.5, 2.5, 4) vs (1,2,3,4): Pearson of ranks = 0.9486833.
  CHECK(spearman({1, 2, 2, 3}, {1, 2, 3, 4}) == Approx(0.9486833));
  // Undefined for one point or a constant sample: NaN, left out of the mean and printed "-".
  CHECK(std::isnan(spearman({1}, {2})));
  CHECK(std::isnan(spearman({1, 2, 3}, {5, 5, 5})));
  CHECK(geomean({50, 200}) == Approx(100.0));  // sqrt(50*200)
  // Every shape at 100% of oracle averages to 100% exactly, not a rounding above it (exp(mean(log))
  // of three hundreds is 100.00000000000004 unclamped).
  CHECK(geomean(std::vector<double>(3, 100.0)) <= 100.0);
  CHECK(geomean(std::vector<double>(3, 100.0)) == Approx(100.0));
  CHECK(percentile({1, 2, 3, 4}, 0.5) == Approx(2.5));
  CHECK(percentile({10, 0, 5}, 0.9) == Approx(9.0));  // sorted 0,5,10: pos 1.8 -> 5 + 0.8*5
}

TEST_CASE("evaluate on a hand-made measurement file", "[evaluate]") {
  const Profile hw = test_util::toy();
  const auto shapes = read_measurements(test_util::source_path("tests/data/tiny-measurements.csv"));
  REQUIRE(shapes.size() == 2);
  CHECK(shapes[0].configs.size() == 4);
  CHECK(shapes[0].vendor_ms == 0.5);
  CHECK(shapes[0].vendor_kernel == "cublas");

  // Precondition the hand calculation rests on: the model orders shape 1's valid configs
  // 128x128x64 < 64x64x32 < 16x16x16 (big tiles first on a compute-bound square).
  std::vector<RankedConfig> ranked;
  rank_configs(triton_target(), shapes[0].problem, hw, {shapes[0].configs[0].config, shapes[0].configs[1].config, shapes[0].configs[2].config}, ranked);
  REQUIRE(ranked[0].config == shapes[0].configs[0].config);
  REQUIRE(ranked[1].config == shapes[0].configs[1].config);

  const Evaluation e = evaluate(shapes, hw, triton_target(), 5);
  REQUIRE(e.shapes.size() == 2);
  const ShapeEvaluation& s1 = e.shapes[0];
  CHECK(s1.measured == 3);                         // the compile_error row has no time
  CHECK(s1.failed_rows == 1);
  CHECK(s1.failed_rows_model_infeasible == 1);     // 256x256x128 x4 stages needs 512 KiB smem
  CHECK(s1.advisor_top1_ms == 1.0);                // the model picks 128x128x64 (1.0 ms)
  CHECK(s1.measured_best_ms == 0.8);               // 64x64x32 was fastest
  CHECK(s1.pct_of_oracle == Approx(80.0));         // 0.8 / 1.0
  REQUIRE(s1.best_rank);
  CHECK(*s1.best_rank == 2);
  CHECK(s1.spearman == Approx(0.5));               // predicted ranks (1,2,3) vs measured (2,1,3)
  CHECK(s1.vendor_pct_of_oracle.value() == Approx(160.0));  // 0.8 ms / 0.5 ms: cuBLAS beats the best Triton config
  CHECK_FALSE(s1.default_pct_of_oracle);           // 128x128x64 with 8 warps was not measured here

  // Best of the shortlist: with top_k = 1 the pick alone (80%); with 2, the measured best (ranked
  // 2nd) is in it: 100%. Its three configs are three distinct tiles, so the distinct shortlist is
  // the same.
  CHECK(s1.top_k_pct_of_oracle == Approx(100.0));
  CHECK(s1.top_k_distinct_pct_of_oracle == Approx(100.0));
  const Evaluation e1 = evaluate(shapes, hw, triton_target(), 1);
  CHECK(e1.shapes[0].top_k_pct_of_oracle == Approx(80.0));
  CHECK(e1.top_k_geomean_pct_of_oracle == Approx(std::sqrt(80.0 * e1.shapes[1].top_k_pct_of_oracle)));

  const ShapeEvaluation& s2 = e.shapes[1];
  CHECK(s2.pct_of_oracle == Approx(100.0));        // the model picks the measured best
  CHECK(*s2.best_rank == 1);
  CHECK(s2.default_pct_of_oracle.value() == Approx(100.0));  // 128x128x64:8:3 is the default and the best
  CHECK(std::abs(s2.top1_abs_err_pct - 100.0 * std::abs(s2.predicted_top1_ms - 0.4) / 0.4) < 1e-9);

  CHECK(e.geomean_pct_of_oracle == Approx(std::sqrt(80.0 * 100.0)));
  CHECK(e.worst_pct_of_oracle == Approx(80.0));
  CHECK(e.top1_hit_rate == Approx(0.5));
  CHECK(e.top5_hit_rate == Approx(1.0));
  CHECK(e.spearman == Approx((0.5 + 1.0) / 2));   // shape 2: two configs in the same order
  CHECK(e.default_measured_shapes == 1);
}

TEST_CASE("measurement files with errors", "[evaluate][errors]") {
  const std::string dir = test_util::source_path("tests/data/");
  CHECK_THROWS_WITH(read_measurements(dir + "candidates.csv"), Catch::Contains("lacks column 'm'"));
  CHECK_THROWS_WITH(read_measurements(dir + "missing.csv"), Catch::Contains("missing.csv: cannot open"));
}

TEST_CASE("a measurement file of several kernels: the target's rows, other targets' skipped, vendor rows kept", "[evaluate][targets]") {
  // The harness writes one file per plan, which may hold several kernels: a row of another target's
  // kernel is neither a candidate nor a vendor reference.
  std::istringstream csv(
      "kernel,family,name,m,n,k,batch,dtype,layout,experts,top_k,gemm,block_m,block_n,block_k,group_m,num_warps,num_stages,split_k,ms,reps,rel_err,status\n"
      "cublas,llama,qkv.m16,16,6144,4096,1,bf16,NT,,,,0,0,0,0,0,0,1,0.020,10,1e-3,ok\n"
      "triton-tutorial,llama,qkv.m16,16,6144,4096,1,bf16,NT,,,,16,64,128,8,4,3,1,0.010,10,1e-3,ok\n"
      "triton,llama,qkv.m16,16,6144,4096,1,bf16,NT,,,,16,64,128,8,4,3,1,0.030,10,1e-3,ok\n");
  std::vector<std::string> warnings;
  const auto shapes = read_measurements(csv, "multi.csv", "triton", &warnings);
  CHECK(warnings.empty());  // family, name, experts, ... are known columns
  REQUIRE(shapes.size() == 1);
  CHECK(shapes[0].family == "llama");
  CHECK(shapes[0].name == "qkv.m16");
  CHECK(shapes[0].configs.size() == 1);
  CHECK(shapes[0].configs[0].ms == 0.030);
  CHECK(shapes[0].vendor_kernel == "cublas");  // not the faster tutorial row
  CHECK(shapes[0].vendor_ms == 0.020);
}
