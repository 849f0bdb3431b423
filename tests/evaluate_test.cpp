#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

#include "gemm_advisor/calibrate.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/evaluate.hpp"
#include "gemm_advisor/model_params.hpp"
#include "gemm_advisor/ranker.hpp"
#include "gemm_advisor/targets/triton.hpp"
#include "test_util.hpp"

#include <zlib.h>

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
  // Misuse through the library is an InputError or NaN, not a read out of bounds (q = 1e9 crashed) or
  // a number from unpaired samples (a fresh library consumer's finds, 2026-12-05).
  CHECK_THROWS_AS(percentile({1, 2, 3}, 2), InputError);
  CHECK_THROWS_AS(percentile({1, 2, 3}, -1), InputError);
  CHECK_THROWS_AS(percentile({1, 2, 3}, std::nan("")), InputError);
  CHECK_THROWS_AS(spearman({1, 2}, {5, 4, 3}), InputError);
  // A value that is not positive: said, not NaN (a fresh C++ consumer's find, 2026-12-07).
  CHECK_THROWS_WITH(geomean({-1, 4}), "geomean: -1 is not a positive finite value");
  CHECK_THROWS_AS(geomean({0, 4}), InputError);
  CHECK(std::isnan(spearman({1, std::nan(""), 3}, {1, 2, 3})));
}

TEST_CASE("evaluate refuses hand-built rows the reader would refuse", "[evaluate][errors]") {
  // ms 0 gave a NaN geomean and -1 a 100% pick (a fresh library consumer's find, 2026-12-05).
  auto shapes = read_measurements(test_util::source_path("tests/data/tiny-measurements.csv"));
  REQUIRE(!shapes.empty());
  REQUIRE(!shapes[0].configs.empty());
  shapes[0].configs[0].status = "ok";
  shapes[0].configs[0].ms = 0;
  CHECK_THROWS_WITH(evaluate(shapes, test_util::toy(), triton_target()), Catch::Contains("needs a time above 0 ms"));
  shapes[0].configs[0].ms = -1;
  CHECK_THROWS_AS(evaluate(shapes, test_util::toy(), triton_target()), InputError);
  // ... past the readers' 1e9 ms bound, and an empty status (a cut-off row, which the readers refuse:
  // the shape was dropped unsaid; a fresh C++ consumer's finds, 2026-12-07).
  shapes[0].configs[0].ms = 1e300;
  CHECK_THROWS_WITH(evaluate(shapes, test_util::toy(), triton_target()), Catch::Contains("at most 1e9"));
  shapes[0].configs[0].ms = 1.0;
  shapes[0].configs[0].status = "";
  CHECK_THROWS_WITH(evaluate(shapes, test_util::toy(), triton_target()), Catch::Contains("an empty status"));
}

TEST_CASE("calibrate refuses a null parameter to fit", "[evaluate][errors]") {
  // find_model_param's null for an unknown name, passed on, crashed the fit (a fresh library
  // consumer's find, 2026-12-05).
  const auto shapes = read_measurements(test_util::source_path("tests/data/tiny-measurements.csv"));
  CalibrationOptions o;
  o.params = {find_model_param("no_such_parameter")};
  CHECK_THROWS_WITH(calibrate(shapes, test_util::toy(), triton_target(), o), Catch::Contains("is null"));
}

TEST_CASE("a gzip-compressed measurement file reads as the plain one", "[evaluate][gzip]") {
  // Measurement files may be committed gzipped (data/measurements/h100-fp8-block.csv.gz): the same
  // rows, whether written in one gzip member or two (as `cat a.gz b.gz` makes), and a member cut
  // short is an error naming the file, not a shorter table.
  const std::string plain = test_util::source_path("tests/data/tiny-measurements.csv");
  std::ifstream in(plain, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(text.size() > 100);
  test_util::TempDir tmp;
  const std::string one = (tmp.path / "one.csv.gz").string(), two = (tmp.path / "two.csv.gz").string();
  const auto write_gz = [](const std::string& path, const std::string& data, const char* mode) {
    gzFile f = gzopen(path.c_str(), mode);
    REQUIRE(f != nullptr);
    REQUIRE(gzwrite(f, data.data(), static_cast<unsigned>(data.size())) == static_cast<int>(data.size()));
    REQUIRE(gzclose(f) == Z_OK);
  };
  write_gz(one, text, "wb");
  const std::size_t half = text.find('\n', text.size() / 2) + 1;
  write_gz(two, text.substr(0, half), "wb");
  write_gz(two, text.substr(half), "ab");  // a second gzip member appended
  const auto expected = read_measurements(plain);
  for (const std::string& path : {one, two}) {
    const auto got = read_measurements(path);
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      CHECK(got[i].problem.shape_text() == expected[i].problem.shape_text());
      CHECK(got[i].vendor_ms == expected[i].vendor_ms);
      REQUIRE(got[i].configs.size() == expected[i].configs.size());
      for (std::size_t j = 0; j < got[i].configs.size(); ++j) CHECK(got[i].configs[j].ms == expected[i].configs[j].ms);
    }
  }
  // Cut inside the first member: zlib reports the end of the file, and the reader says so.
  std::ifstream gz(one, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(gz)), std::istreambuf_iterator<char>());
  const std::string cut = (tmp.path / "cut.csv.gz").string();
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() - 12);
  CHECK_THROWS_WITH(read_measurements(cut), Catch::Contains("cut.csv.gz: corrupt gzip data"));
  // Zero padding after the last member is allowed (gzip -t allows it); rows appended uncompressed
  // are an error at their byte offset, not dropped (zlib's gzread dropped them: a fresh user's find).
  const std::string padded = (tmp.path / "padded.csv.gz").string(), appended = (tmp.path / "appended.csv.gz").string();
  std::ofstream(padded, std::ios::binary) << bytes << std::string(100, '\0');
  CHECK(read_measurements(padded).size() == expected.size());
  std::ofstream(appended, std::ios::binary) << bytes << "4096,4096,4096,1,bf16,NT,triton,64,64,32,8,4,2,1,0.9,ok\n";
  CHECK_THROWS_WITH(read_measurements(appended),
                    Catch::Contains("appended.csv.gz: bytes after the gzip data at byte " + std::to_string(bytes.size())));
  // An empty .gz reads as an empty file (a failed upload), as the plain path says it.
  const std::string empty = (tmp.path / "empty.csv.gz").string();
  std::ofstream(empty, std::ios::binary).flush();
  CHECK_THROWS_WITH(read_measurements(empty), Catch::Contains("empty.csv.gz: empty file"));
  // No name at all (the library's own check; the CLI refuses '' as an option value before it).
  CHECK_THROWS_WITH(read_measurements(""), Catch::Contains("'': an empty file name"));
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

TEST_CASE("read_measured_shapes checks a measured set for the library as evaluate and calibrate do", "[evaluate][errors]") {
  // A C++ caller's evaluate() scored a 1e-7 ms row as the oracle, where the CLI leaves it out (a fresh
  // library user's find, 2026-12-04): the checks are the library's now.
  const Profile hw = load_profile("h200");
  test_util::TempDir dir;
  const std::string path = (dir.path / "mine.csv").string();
  std::ofstream(path) << "m,n,k,layout,kernel,block_m,block_n,block_k,num_warps,num_stages,ms\n"
                         "4096,4096,4096,NT,triton,128,128,64,8,3,0.2\n"
                         "4096,4096,4096,NT,triton,128,256,64,8,3,0.25\n"
                         "4096,4096,4096,NT,triton,64,64,32,4,3,1e-7\n";
  std::vector<std::string> warnings;
  const MeasurementLog log = [&](LogLevel level, const std::string& message) {
    if (level == LogLevel::warning) warnings.push_back(message);
  };
  const auto shapes = read_measured_shapes({path}, "triton", hw, triton_target(), true, log);
  REQUIRE(shapes.size() == 1);
  REQUIRE(shapes[0].configs.size() == 3);
  // 2 x 4096^3 FLOP at the H200's 989 TFLOP/s take 0.139 ms: the 1e-7 ms row (line 4) is a timing
  // error, left out and said; the other two stand.
  CHECK(shapes[0].configs[0].status == "ok");
  CHECK(shapes[0].configs[2].status == "faster-than-peak");
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::Contains("mine.csv:4:") && Catch::Contains("faster than"));
  const Evaluation e = evaluate(shapes, hw, triton_target(), 5);
  REQUIRE(e.shapes.size() == 1);
  CHECK(e.shapes[0].measured_best_ms == 0.2);
  CHECK(e.shapes[0].measured == 2);
  // The same file twice, and a kernel no file has rows of: refused, as on the command line.
  CHECK_THROWS_WITH(read_measured_shapes({path, path}, "triton", hw, triton_target()), Catch::Contains("given twice"));
  CHECK_THROWS_WITH(read_measured_shapes({path}, "my-kernel", hw, triton_target()),
                    Catch::Contains("no row of the my-kernel kernel") && Catch::Contains("triton"));
  // One shape in two families of one file, no name column: two problems, as the file's reader
  // groups them (it was refused as "the same file is given twice": a fresh user's find, 2026-12-06);
  // the same two families in two files, likewise two, and an unlabelled file merges with the one
  // label it was measured under.
  const std::string fams = (dir.path / "fams.csv").string();
  std::ofstream(fams) << "m,n,k,layout,kernel,block_m,block_n,block_k,num_warps,num_stages,ms,family\n"
                         "4096,4096,4096,NT,triton,128,256,64,8,3,0.25,square\n"
                         "4096,4096,4096,NT,triton,64,64,64,4,3,0.5,compile-grid\n";
  const auto two = read_measured_shapes({fams}, "triton", hw, triton_target());
  REQUIRE(two.size() == 2);
  CHECK(two[0].family == "square");
  CHECK(two[1].family == "compile-grid");
  const std::string sweep = (dir.path / "sweep.csv").string();
  std::ofstream(sweep) << "m,n,k,layout,kernel,block_m,block_n,block_k,num_warps,num_stages,ms,family\n"
                          "4096,4096,4096,NT,triton,128,128,64,8,3,0.3,sweep\n";
  CHECK(read_measured_shapes({fams, sweep}, "triton", hw, triton_target()).size() == 3);
  const std::string plain = (dir.path / "plain.csv").string();
  std::ofstream(plain) << "m,n,k,layout,kernel,block_m,block_n,block_k,num_warps,num_stages,ms\n"
                          "4096,4096,4096,NT,triton,256,128,64,8,3,0.28\n";
  const auto merged = read_measured_shapes({sweep, plain}, "triton", hw, triton_target());
  REQUIRE(merged.size() == 1);
  CHECK(merged[0].configs.size() == 2);
  // Another GPU's rows (the gpu column) name the place.
  const std::string other = (dir.path / "other.csv").string();
  std::ofstream(other) << "m,n,k,layout,kernel,block_m,block_n,block_k,num_warps,num_stages,ms,gpu\n"
                          "4096,4096,4096,NT,triton,128,128,64,8,3,0.4,NVIDIA A100-SXM4-80GB\n";
  CHECK_THROWS_WITH(read_measured_shapes({other}, "triton", hw, triton_target()),
                    Catch::Contains("other.csv:2:") && Catch::Contains("not on"));
}

TEST_CASE("evaluate with no shape to score, and with a shortlist of none", "[evaluate][errors]") {
  const Profile hw = test_util::toy();
  const Evaluation e = evaluate({}, hw, triton_target(), 5);
  CHECK(e.shapes.empty());
  CHECK(std::isnan(e.spearman));  // as documented: NaN where no shape defines it (it was 0)
  const nlohmann::json j = evaluation_json(e, hw, triton_target());
  // No figure rather than 0% of oracle (the default's and vendor's figures were null already).
  CHECK(j["aggregate"]["geomean_pct_of_oracle"].is_null());
  CHECK(j["aggregate"]["top_k_distinct_geomean_pct_of_oracle"].is_null());
  CHECK(j["aggregate"]["default_geomean_pct_of_oracle"].is_null());
  CHECK(j["aggregate"]["shapes"] == 0);
  CHECK_THROWS_WITH(evaluate({}, hw, triton_target(), 0), Catch::Contains("top_k must be at least 1"));
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

namespace {
// The warnings of reading `text` as a measurement file of `kernel`, which must hold one shape of
// `configs` configs of that kernel.
std::vector<std::string> one_shape_warnings(const std::string& text, const std::string& source,
                                            const std::string& kernel, std::size_t configs) {
  std::istringstream csv(text);
  std::vector<std::string> warnings;
  const auto shapes = read_measurements(csv, source, kernel, &warnings);
  REQUIRE(shapes.size() == 1);
  CHECK(shapes[0].configs.size() == configs);
  return warnings;
}
}  // namespace

TEST_CASE("a config timed twice in one file, the times more than 1.25x apart, is counted in a warning", "[evaluate]") {
  // 0.010 and 0.020 ms (2x apart: counted), 0.010 and 0.011 (1.1x: not); only the named repeats said
  // before (a fresh user's find, 2026-12-05).
  const auto warnings = one_shape_warnings(
      "m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms\n"
      "64,64,64,16,16,64,4,3,0.010\n64,64,64,32,32,64,4,3,0.010\n"
      "64,64,64,16,16,64,4,3,0.020\n64,64,64,32,32,64,4,3,0.011\n",
      "twice.csv", "triton", 4);
  REQUIRE(warnings.size() == 3);  // the two repeats at their lines, then the count
  CHECK(warnings[2] == "twice.csv: 1 config measured again in the file differs by more than 1.25x from its first "
                       "time (a bad run? the faster counts)");
}

TEST_CASE("rows of a tile kernel no target is named, beside the target's, are skipped with a warning", "[evaluate]") {
  // A misspelt kernel name on half a file's rows changed the scores without a word (a fresh user's
  // find, 2026-12-05); another target's rows (a harness plan file of several kernels) are not warned of.
  const auto warnings = one_shape_warnings(
      "kernel,m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms\n"
      "my-matmul,64,64,64,16,16,64,4,3,0.010\n"
      "my-matmull,64,64,64,32,32,64,4,3,0.009\n"
      "my-matmull,64,64,64,64,64,64,4,3,0.011\n"
      "triton,64,64,64,64,64,64,4,3,0.011\n",
      "typo.csv", "my-matmul", 1);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "typo.csv: 2 rows of another kernel (my-matmull) skipped: only my-matmul's are scored "
                       "(--kernel NAME scores another's)");
}

TEST_CASE("a skipped tile kernel's rows are not the vendor reference; only block-size-0 rows are", "[evaluate]") {
  // A user's second version of their kernel, timed beside the first, was reported as "the vendor
  // library" (its fastest row, 0.004 ms here) while the warning said its rows were skipped (a fresh
  // user's find, 2026-12-07). The cublas row (block sizes 0, 0.020 ms) is the reference.
  std::istringstream csv(
      "kernel,m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms\n"
      "my-matmul,64,64,64,16,16,64,4,3,0.010\n"
      "my-matmul-v2,64,64,64,32,32,64,4,3,0.004\n"
      "cublas,64,64,64,0,0,0,0,0,0.020\n");
  std::vector<std::string> warnings;
  const auto shapes = read_measurements(csv, "v2.csv", "my-matmul", &warnings);
  REQUIRE(shapes.size() == 1);
  CHECK(shapes[0].vendor_kernel == "cublas");
  CHECK(shapes[0].vendor_ms == 0.020);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "v2.csv: 1 row of another kernel (my-matmul-v2) skipped: only my-matmul's are scored "
                       "(--kernel NAME scores another's)");
  // Without a vendor row, none (0), not the skipped kernel's.
  std::istringstream no_vendor(
      "kernel,m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms\n"
      "my-matmul,64,64,64,16,16,64,4,3,0.010\n"
      "my-matmul-v2,64,64,64,32,32,64,4,3,0.004\n");
  const auto alone = read_measurements(no_vendor, "v2.csv", "my-matmul");
  REQUIRE(alone.size() == 1);
  CHECK(alone[0].vendor_ms == 0);
  CHECK(alone[0].vendor_kernel.empty());
}

TEST_CASE("rel_err nan (the harness's unwritten elements) is read; ok rows above 1e-2 or nan are counted", "[evaluate]") {
  // sweep.py and harness.py write rel_err 'nan' on a wrong row whose NaN-poisoned output kept
  // unwritten elements: the whole file was refused for it (a fresh user's find, 2026-12-07). Rows
  // marked ok with rel_err 0.9 (line 4) and nan (line 5) went unsaid; 1e-2 itself is within the
  // harness's bf16 tolerance (line 3), and a wrong row's nan (line 6) is as it should be.
  const auto warnings = one_shape_warnings(
      "m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms,rel_err,status\n"
      "64,64,64,16,16,64,4,3,0.010,1e-2,ok\n"
      "64,64,64,32,32,64,4,3,0.011,0.9,ok\n"
      "64,64,64,64,64,64,4,3,0.012,NaN,ok\n"
      "64,64,64,64,32,64,4,3,0.013,nan,wrong\n",
      "relerr.csv", "triton", 4);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "relerr.csv:3: 2 rows marked ok have a rel_err above 0.01 or nan, which tools/measure's "
                       "harness marks wrong: timed as given (was the result checked?)");
  // A wrong row's nan alone: read, nothing said.
  CHECK(one_shape_warnings("m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms,rel_err,status\n"
                           "64,64,64,16,16,64,4,3,0.010,1e-3,ok\n"
                           "64,64,64,32,32,64,4,3,,nan,wrong\n",
                           "relerr.csv", "triton", 2)
            .empty());
}
