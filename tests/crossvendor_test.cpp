// The model's best-config prediction against public measurements on GPUs we cannot run (issue
// "Model fidelity", deliverable 5), and the 8192^3 sanity band on every shipped profile.
//
// The figures are read from public tables (cited per row) and typed in here: the test does not read
// ../shared/ref. What the comparison means: the advisor predicts the best *Triton* kernel of its
// target, the public figures are vendor libraries (cuBLAS through XLA, AMD's aiter assembly and
// hipBLASLt kernels, torch.mm). On our H200 cuBLAS runs at 1.14x the best Triton config (geomean of
// 61 measured shapes, README "Accuracy"), so a prediction somewhat below the library is expected.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "gemm_advisor/hardware.hpp"
#include "gemm_advisor/problem.hpp"
#include "gemm_advisor/ranker.hpp"
#include "gemm_advisor/targets/vllm_fp8_block.hpp"
#include "test_util.hpp"

namespace {

using namespace gemm_advisor;

struct PublicPoint {
  const char* shape;   // MxNxK
  const char* layout;  // our convention: NN row-major A and B; NT = B stored N x K (PyTorch Linear)
  double measured_tflops;
};

struct PublicTable {
  const char* profile;
  const char* source;
  std::vector<PublicPoint> points;
  int within_now;  // how many land within +-25% today (README "Accuracy"): a regression floor
};

// XLA's GEMM performance table: tensorflow/tensorflow, third_party/xla/xla/service/gpu/model/
// default_matmul_perf_table.txtpb at commit 3ddd1793; device sm_100_B200 resp. sm_90 (an H100),
// b = 1, bf16 x bf16 -> bf16, flops_per_s / 1e12. XLA's dot is row-major A (MxK) times B (KxN): NN.
const PublicTable kXlaB200{"b200", "XLA default_matmul_perf_table.txtpb@3ddd1793, sm_100_B200, bf16, b=1",
                           {{"256x4096x4096", "NN", 651.4},
                            {"512x512x512", "NN", 48.5},
                            {"1024x1024x1024", "NN", 288.0},
                            {"2048x2048x2048", "NN", 985.8},
                            {"4096x4096x4096", "NN", 1416.9},
                            {"4096x4096x256", "NN", 514.7},
                            {"4096x256x4096", "NN", 645.1},
                            {"1024x4096x4096", "NN", 1214.0},
                            {"2048x4096x1024", "NN", 911.4},
                            {"4096x1024x2048", "NN", 990.3},
                            {"512x2048x4096", "NN", 669.3},
                            {"256x1024x2048", "NN", 136.7}},
                           // 0 before issue #11, 1 with Blackwell modelled as Hopper (wgmma, register
                           // accumulators), 2 since tcgen05 accumulates in tensor memory (256x256 tiles
                           // no longer spill). The rest is the derived L2 bandwidth and Triton, not
                           // cuBLAS (no 2-CTA MMA, no TMA multicast: README "Known gaps"). 5 since the
                           // H200's L2 bandwidth is its measured cp.async 11.2 TB/s (the B200's derived
                           // from it: 9.35 -> 11.77 TB/s) and the copy fill fraction the measured 0.35.
                           5};
const PublicTable kXlaH100{"h100", "XLA default_matmul_perf_table.txtpb@3ddd1793, sm_90 (H100), bf16, b=1",
                           {{"256x4096x4096", "NN", 418.4},
                            {"512x512x512", "NN", 43.6},
                            {"1024x1024x1024", "NN", 252.8},
                            {"2048x2048x2048", "NN", 641.0},
                            {"4096x4096x4096", "NN", 780.2},
                            {"4096x4096x256", "NN", 398.6},
                            {"4096x256x4096", "NN", 398.9},
                            {"1024x4096x4096", "NN", 751.9},
                            {"2048x4096x1024", "NN", 596.5},
                            {"4096x1024x2048", "NN", 643.7},
                            {"512x2048x4096", "NN", 460.4},
                            {"256x1024x2048", "NN", 119.6}},
                           // 4 before issue #11; 6 since a CU's DRAM wait counts its own tiles' bytes
                           // at 16x its share (the first round's 1x share capped full waves on the
                           // H100, whose DRAM is slow for its L2). Still low: NN runs 1.1-1.35x faster
                           // than NT on our H200 with the same config (h200-triton-extra.csv, 4096^3 and
                           // 5120^3), the fit's shapes are mostly NT and the model has no layout term.
                           // 8 until, and 11 since, the measured cp.async rates (2026-12-03: the H100's
                           // L2 bandwidth taken as the H200's asynchronous copies', 11.2 TB/s, and the
                           // copy fill fraction 0.35): only 4096x4096x256 is outside, at 0.63x.
                           // 9 since the H100's own measured DRAM latency (343 ns, not the H200's 276),
                           // L2 rate and DRAM fraction (2026-12-05): predictions 0.62-0.89x of cuBLAS,
                           // 512x2048x4096 and 256x1024x2048 out at 0.72x and 0.75x. The same change
                           // took the triton target on our own H100 measurements from 96.3% to 97.6%
                           // of oracle (README "On a GPU the fit never saw"): cuBLAS is not the target.
                           // 8 since the split-K reduction's measured cost (2026-12-06: 3.4 us + 0.245 us
                           // a split on the H100, h100-phase-probe.csv; 1.7 + 0.62 before): the split-2
                           // picks lose their 1.7 us, and 256x4096x4096 falls to 0.74x, 512x2048x4096
                           // to 0.67x.
                           8};
// ROCm aiter's tuned bf16 GEMMs: ROCm/aiter, aiter/configs/bf16_tuned_gemm.csv at commit 032c54e4,
// gfx950 with 256 CUs (MI350X/MI355X; compared on the MI355X profile), the `tflops` column. aiter's
// "tn" kernels take A as M x K and B as N x K, both K-contiguous: our NT.
const PublicTable kAiterMi355x{"mi355x", "aiter bf16_tuned_gemm.csv@032c54e4, gfx950 (256 CUs), bf16",
                               {{"16x6144x2048", "NT", 36.65},
                                {"64x6144x3072", "NT", 153.09},
                                {"128x6144x2048", "NT", 202.69},
                                {"256x3072x6144", "NT", 312.77},
                                {"512x6144x3072", "NT", 420.03},
                                {"1024x3072x6144", "NT", 507.48},
                                {"1024x6144x2048", "NT", 552.87},
                                {"2048x6144x3072", "NT", 999.79},
                                {"4096x3072x6144", "NT", 1120.16},
                                {"4096x6144x2048", "NT", 941.34},
                                {"8192x6144x3072", "NT", 1261.92},
                                {"16384x6144x3072", "NT", 1321.9}},
                               6};
// Best achievable torch.mm throughput per GPU (maximum achievable matmul FLOPS): stas00/ml-engineering,
// compute/accelerator/README.md at 744d01e1 (MAMF table, shape MxNxK), and the ROCm blog
// "measuring max achievable FLOPs" part 2 (MI300X). torch.mm on row-major tensors: NN.
const PublicTable kAchievable{"*", "MAMF tables (ml-engineering@744d01e1; ROCm blog), torch.mm bf16",
                              {{"1024x10240x5120", "NN a100", 271.2},
                               {"6144x17920x2816", "NN h100", 792.1},
                               {"1792x16128x3072", "NN b200", 1745.0},
                               {"1024x15360x4096", "NN h200", 828.6},  // GH200 (H200-class GPU, 900 W)
                               {"4096x10240x4864", "NN mi300x", 781.9},
                               {"12288x8192x8192", "NN mi355x", 1565.0}},
                              // 2 until the A100's fill rate (profiles/a100.yaml, 2026-12-02): 0.73x -> 0.90x
                              4};

struct Prediction {
  double tflops;
  std::string config;
};

Prediction best_prediction(const Profile& hw, const std::string& shape, const std::string& layout) {
  GemmProblem p = parse_shape(shape);
  p.layout = parse_layout(layout);
  const std::vector<RankedConfig> ranked = test_util::rank_space(p, hw, 1);
  REQUIRE(!ranked.empty());
  REQUIRE(ranked.front().estimate.feasible);
  return {ranked.front().estimate.flops_per_s / 1e12, ranked.front().config.text()};
}

// Prints the comparison (visible with `ctest -V` or `unit_tests -s`) and returns how many
// predictions land within +-25% of the public figure.
int compare(const PublicTable& t) {
  int within = 0;
  std::printf("cross-vendor: %s (%s)\n", t.profile, t.source);
  for (const PublicPoint& pt : t.points) {
    std::string layout = pt.layout, profile = t.profile;
    if (profile == "*") {  // "NN a100": layout, then the profile
      profile = layout.substr(3);
      layout = layout.substr(0, 2);
    }
    const Profile hw = load_profile(profile);
    const Prediction pred = best_prediction(hw, pt.shape, layout);
    const double ratio = pred.tflops / pt.measured_tflops;
    const bool ok = ratio >= 0.75 && ratio <= 1.25;
    within += ok;
    std::printf("  %-7s %-16s %s measured %7.1f TFLOP/s, predicted %7.1f (%.2fx) %s%s\n", profile.c_str(), pt.shape,
                layout.c_str(), pt.measured_tflops, pred.tflops, ratio, pred.config.c_str(), ok ? "" : "  <- outside");
    // Physics, whatever the comparison: no prediction beats the profile's peak.
    CHECK(pred.tflops * 1e12 <= hw.hw.peak_flops_per_s(Dtype::bf16));
  }
  std::printf("  %d of %zu within +-25%%\n", within, t.points.size());
  return within;
}

}  // namespace

TEST_CASE("cross-vendor: predictions against public vendor-library figures", "[model][crossvendor]") {
  for (const PublicTable* t : {&kXlaB200, &kXlaH100, &kAiterMi355x, &kAchievable}) {
    INFO(t->profile << ": " << t->source);
    REQUIRE(t->points.size() >= (t == &kAchievable ? 6u : 10u));
    // Regression floor: what the model reaches today (README "Accuracy", cross-vendor table).
    CHECK(compare(*t) >= t->within_now);
  }
}

// The issue's target: within +-25% on at least 80% of the shapes of each GPU. Not met today
// (README "Accuracy": the model predicts Triton kernels, the tables are vendor libraries, and the
// B200 and AMD profiles carry derived or placeholder memory figures). Run and reported, not
// counted as a failure, so that the day it holds is visible.
TEST_CASE("cross-vendor: within +-25% on 80% of the shapes (issue target, not met)", "[model][crossvendor][!mayfail]") {
  for (const PublicTable* t : {&kXlaB200, &kXlaH100, &kAiterMi355x}) {
    INFO(t->profile);
    CHECK(compare(*t) >= 0.8 * static_cast<double>(t->points.size()));
  }
}

namespace {
// Best predicted fraction of the profile's bf16 dense peak for 8192^3 (NN, as the H200 measurement).
double best_8192_cubed_fraction(const std::string& profile) {
  const Profile hw = load_profile(profile);
  const Prediction pred = best_prediction(hw, "8192x8192x8192", "NN");
  std::printf("8192^3 bf16 on %-7s best %s predicted %.1f TFLOP/s = %.1f%% of peak\n", profile.c_str(),
              pred.config.c_str(), pred.tflops, 100 * pred.tflops * 1e12 / hw.hw.peak_flops_per_s(Dtype::bf16));
  return pred.tflops * 1e12 / hw.hw.peak_flops_per_s(Dtype::bf16);
}
}  // namespace

// Issue "Model fidelity", deliverable 4: the best predicted TFLOP/s for 8192^3 bf16 lies within
// 55-100% of the profile's peak. Measured on our H200: the best Triton config ran 8192^3 NN at
// 766 TFLOP/s = 77% of 989 (data/measurements/h200-triton-bf16.csv); public torch.mm figures put the
// other GPUs at 54-87% of peak (profiles' efficiency.matrix_peak_fraction sources).
TEST_CASE("8192^3 bf16: best prediction within 55-100% of peak", "[model][profiles]") {
  for (const char* profile : {"h200", "h100", "a100", "mi350x", "mi355x"}) {
    INFO(profile);
    const double f = best_8192_cubed_fraction(profile);
    CHECK(f >= 0.55);
    CHECK(f <= 1.0);
  }
}

// Not met on two profiles (README "Accuracy"): the B200 (its derived L2 bandwidth, the H200's per-SM
// figure, makes even 256x256 tiles, in tensor memory, L2- and latency-bound at 43% of Blackwell's
// doubled matrix rate; 33% with register accumulators, when 256x256 spilled) and the
// MI300X (its public achievable fraction is itself 0.54, and its latencies are H200 placeholders).
TEST_CASE("8192^3 bf16 within 55-100% of peak: B200, MI300X (not met)", "[model][profiles][!mayfail]") {
  for (const char* profile : {"b200", "mi300x"}) {
    INFO(profile);
    const double f = best_8192_cubed_fraction(profile);
    CHECK(f <= 1.0);
    CHECK(f >= 0.55);
  }
}

// Triton's own A100 expectations: triton-lang/triton python/test/regression/test_performance.py,
// last version (commit 855ac8f0, 2024-01-27), matmul_data['a100'], float16 (the only dtype that
// version asserts): the fraction of the tensor-core peak that `triton.ops.matmul` (autotuned, with
// SPLIT_K) reached. A and B row-major: our NN. The test's peak is at the current SM clock; the
// profile's at its 1410 MHz boost clock, taken as the same. Issue #11 asks for +-15% on 80% of the
// shapes; the first round had 1 of 14.
struct Utilisation {
  const char* shape;
  double expected;
};
const Utilisation kTritonA100[] = {
    {"512x512x512", 0.108},   {"1024x1024x1024", 0.355}, {"2048x2048x2048", 0.653}, {"8192x8192x8192", 0.839},
    {"16x1024x1024", 0.015},  {"16x4096x4096", 0.08},    {"16x8192x8192", 0.083},   {"64x1024x1024", 0.045},
    {"64x4096x4096", 0.17},   {"64x8192x8192", 0.227},   {"1024x64x1024", 0.04},    {"4096x64x4096", 0.16},
    {"8192x64x8192", 0.272},  {"8192x8192x8176", 0.828}};

int compare_triton_a100() {
  const Profile hw = load_profile("a100");
  int within = 0;
  std::printf("A100 against Triton's regression utilisations (fp16, NN)\n");
  for (const Utilisation& u : kTritonA100) {
    GemmProblem p = parse_shape(u.shape);
    p.dtype = Dtype::fp16;
    p.layout = parse_layout("NN");
    const std::vector<RankedConfig> ranked = test_util::rank_space(p, hw, 1);
    REQUIRE(!ranked.empty());
    const double util = ranked.front().estimate.flops_per_s / hw.hw.peak_flops_per_s(Dtype::fp16);
    const double ratio = util / u.expected;
    const bool ok = ratio >= 0.85 && ratio <= 1.15;
    within += ok;
    std::printf("  %-16s expected %.3f, predicted %.3f (%.2fx) %s%s\n", u.shape, u.expected, util, ratio,
                ranked.front().config.text().c_str(), ok ? "" : "  <- outside");
    CHECK(util <= 1.0);
  }
  std::printf("  %d of %zu within +-15%%\n", within, std::size(kTritonA100));
  return within;
}

TEST_CASE("cross-vendor: A100 against Triton's own regression utilisations", "[model][crossvendor]") {
  // Regression floor: 8 of 14 since the loads-in-flight count of 2026-12-02 (mma.sync, the A100's only
  // matrix path, keeps num_stages - 1 loads in flight, not - 2; with the triton refit's lower loaded
  // latency 64x1024x1024 went from inside to 1.17x); 9 of 14 before it (unaligned operands out of
  // the pipeline, the triton refit with the per-K-step overhead held at the microbenchmark's pair); 8 after the A100's per-SM
  // fill rate took the SM's 128 B/cycle shared-memory path instead of its 47.4 B/cycle share of the L2
  // (profiles/a100.yaml); 4 before that. Outside: the M = 64 and N = 64 shapes, predicted 1.2-1.5x
  // of what triton.ops.matmul reached with its own autotune list, pruned to the 10 configs its own
  // model ranked first (the model ranks the triton target's whole space).
  CHECK(compare_triton_a100() >= 8);
}

TEST_CASE("cross-vendor: A100 within +-15% of Triton's figures on 80% of the shapes (issue target, not met)",
          "[model][crossvendor][!mayfail]") {
  CHECK(compare_triton_a100() >= 0.8 * static_cast<double>(std::size(kTritonA100)));
}

namespace {
struct TunedRow {
  const char* shape;  // MxNxK
  TileConfig config;  // block_m, block_n, block_k, num_warps, num_stages, split_k, group_m
};
// vLLM's tuned block-fp8 GEMM configs for AMD_Instinct_MI300X: vllm/model_executor/layers/quantization/
// utils/configs/N=...,K=...,device_name=AMD_Instinct_MI300X,dtype=fp8_w8a8,block_shape=[128,128].json, file
// commit ed0de3e4 "[AMD] [Model] DeepSeek tunings (#13199)" (read from the public table
// ../shared/ref/public/vllm_fp8_block_gemm_configs.csv): two DeepSeek-V3 (N, K), every M key the files
// have (vLLM's 18, 1 to 4096: the table's own mix of decode and prefill M). The AMD files give no
// num_stages: Triton-HIP's default, 2, ran them.
TileConfig tuned(int bm, int bn, int bk, int w, int s, int g) { return test_util::cfg(bm, bn, bk, w, s, 1, g); }
const TunedRow kVllmMi300x[] = {
    {"1x7168x2048", tuned(32, 32, 128, 4, 2, 8)}, {"2x7168x2048", tuned(32, 32, 128, 4, 2, 32)},
    {"4x7168x2048", tuned(32, 32, 128, 4, 2, 8)}, {"8x7168x2048", tuned(32, 32, 128, 4, 2, 16)},
    {"16x7168x2048", tuned(32, 32, 128, 4, 2, 32)}, {"24x7168x2048", tuned(32, 32, 128, 4, 2, 16)},
    {"32x7168x2048", tuned(32, 32, 128, 4, 2, 8)}, {"48x7168x2048", tuned(32, 32, 128, 4, 2, 1)},
    {"64x7168x2048", tuned(32, 32, 128, 4, 2, 1)}, {"96x7168x2048", tuned(32, 32, 128, 4, 2, 1)},
    {"128x7168x2048", tuned(32, 32, 128, 4, 2, 1)}, {"256x7168x2048", tuned(64, 64, 128, 4, 2, 1)},
    {"512x7168x2048", tuned(64, 64, 128, 4, 2, 1)}, {"1024x7168x2048", tuned(64, 64, 128, 4, 2, 1)},
    {"1536x7168x2048", tuned(64, 64, 128, 4, 2, 1)}, {"2048x7168x2048", tuned(64, 64, 128, 4, 2, 1)},
    {"3072x7168x2048", tuned(64, 64, 128, 4, 2, 1)}, {"4096x7168x2048", tuned(64, 128, 128, 4, 2, 32)},
    {"1x4608x7168", tuned(32, 32, 128, 4, 2, 32)}, {"2x4608x7168", tuned(32, 32, 128, 4, 2, 32)},
    {"4x4608x7168", tuned(32, 32, 128, 4, 2, 16)}, {"8x4608x7168", tuned(32, 32, 128, 4, 2, 32)},
    {"16x4608x7168", tuned(32, 32, 128, 4, 2, 8)}, {"24x4608x7168", tuned(32, 32, 128, 4, 2, 8)},
    {"32x4608x7168", tuned(32, 32, 128, 4, 2, 16)}, {"48x4608x7168", tuned(32, 32, 128, 4, 2, 16)},
    {"64x4608x7168", tuned(32, 32, 128, 4, 2, 32)}, {"96x4608x7168", tuned(32, 32, 128, 4, 2, 1)},
    {"128x4608x7168", tuned(32, 32, 128, 4, 2, 1)}, {"256x4608x7168", tuned(32, 64, 128, 4, 2, 1)},
    {"512x4608x7168", tuned(64, 64, 128, 4, 2, 1)}, {"1024x4608x7168", tuned(64, 64, 128, 4, 2, 1)},
    {"1536x4608x7168", tuned(64, 64, 128, 4, 2, 1)}, {"2048x4608x7168", tuned(64, 128, 128, 4, 2, 32)},
    {"3072x4608x7168", tuned(64, 64, 128, 4, 2, 1)}, {"4096x4608x7168", tuned(64, 128, 128, 4, 2, 32)},
};
}  // namespace

// Issue #11: vLLM's tuned configs, measured best on the device by vLLM's tuner, predicted within 10% of
// the advisor's own top-1 on at least 70% of rows. On the MI300X the whole table, 504 rows
// (tools/compare_vllm_tuned.py --hw mi300x --predicted), agreed on 13% before the gfx942 profile capped
// the loads in flight at one step (triton.max_loads_in_flight, AMD's stream pipeliner: the model had 2
// stages waiting for each step's own loads), 79% since (97% of the rows below M 1024, 34% from 1024 on,
// where vLLM's 64x64 and 64x128 tiles are predicted up to 1.4x slower than 128x128). These 36 rows:
// 2 before, 25 since (69%: the issue's 70% is the [!mayfail] case below).
static int vllm_mi300x_agreement() {
  const Profile hw = load_profile("mi300x");
  const Target& t = vllm_fp8_block_target();
  int agree = 0;
  for (const TunedRow& row : kVllmMi300x) {
    INFO(row.shape);
    GemmProblem p = parse_shape(row.shape);
    p.dtype = Dtype::fp8;
    std::vector<TileConfig> space;
    t.candidates(p, hw, space);
    std::vector<RankedConfig> ranked;
    rank_configs(t, p, hw, space, ranked, 1);
    REQUIRE(!ranked.empty());
    const Estimate e = t.estimate(t.context(p, hw), row.config);
    REQUIRE(e.feasible);
    const double ratio = e.latency_s / ranked.front().estimate.latency_s;
    CHECK(ratio >= 1.0 - 1e-9);  // the top-1 is the fastest predicted of the space, which holds the row
    agree += ratio <= 1.10;
    std::printf("  mi300x %-16s vLLM %-18s %.3fx of the top-1 %s\n", row.shape, row.config.text().c_str(), ratio,
                ranked.front().config.text().c_str());
  }
  std::printf("  %d of %zu within 10%%\n", agree, std::size(kVllmMi300x));
  return agree;
}

TEST_CASE("cross-vendor: vLLM's tuned MI300X block-fp8 configs near the advisor's top-1", "[model][crossvendor]") {
  CHECK(vllm_mi300x_agreement() >= 25);  // regression floor: today's 25 of 36 (2 before the cap)
}

TEST_CASE("cross-vendor: vLLM's tuned MI300X configs within 10% on 70% of rows (issue target)",
          "[model][crossvendor][!mayfail]") {
  CHECK(vllm_mi300x_agreement() >= 0.7 * static_cast<double>(std::size(kVllmMi300x)));
}

// Issue #11's own measure for the B200: the best prediction within 0.7-1.15x of XLA's cuBLAS figure on
// at least 80% of the table's shapes with every dimension >= 1024: the 27 bf16 shapes of
// default_matmul_perf_table.txtpb@3ddd1793 (as kXlaB200; flops_per_s / 1e12, rounded to 0.1), and the
// same 27 of the H100 (sm_90) beside them.
struct XlaFigure {
  const char* shape;
  double tflops;
};
const XlaFigure kXlaB200Large[] = {
    {"1024x1024x1024", 288.0},  {"1024x2048x1024", 492.5},  {"1024x4096x1024", 723.4},  {"1024x1024x2048", 468.5},
    {"1024x2048x2048", 760.3},  {"1024x4096x2048", 981.3},  {"1024x1024x4096", 675.3},  {"1024x2048x4096", 1014.9},
    {"1024x4096x4096", 1214.0}, {"2048x1024x1024", 496.1},  {"2048x2048x1024", 725.4},  {"2048x4096x1024", 911.4},
    {"2048x1024x2048", 760.4},  {"2048x2048x2048", 985.8},  {"2048x4096x2048", 1172.8}, {"2048x1024x4096", 1017.7},
    {"2048x2048x4096", 1208.5}, {"2048x4096x4096", 1342.5}, {"4096x1024x1024", 715.6},  {"4096x2048x1024", 913.8},
    {"4096x4096x1024", 1075.6}, {"4096x1024x2048", 990.3},  {"4096x2048x2048", 1170.0}, {"4096x4096x2048", 1277.8},
    {"4096x1024x4096", 1204.9}, {"4096x2048x4096", 1343.5}, {"4096x4096x4096", 1416.9}};
const XlaFigure kXlaH100Large[] = {
    {"1024x1024x1024", 252.8}, {"1024x2048x1024", 384.0}, {"1024x4096x1024", 494.4}, {"1024x1024x2048", 359.8},
    {"1024x2048x2048", 529.5}, {"1024x4096x2048", 639.1}, {"1024x1024x4096", 472.6}, {"1024x2048x4096", 665.7},
    {"1024x4096x4096", 751.9}, {"2048x1024x1024", 386.8}, {"2048x2048x1024", 498.0}, {"2048x4096x1024", 596.5},
    {"2048x1024x2048", 535.3}, {"2048x2048x2048", 641.0}, {"2048x4096x2048", 725.5}, {"2048x1024x4096", 663.6},
    {"2048x2048x4096", 752.2}, {"2048x4096x4096", 752.3}, {"4096x1024x1024", 497.6}, {"4096x2048x1024", 604.6},
    {"4096x4096x1024", 685.2}, {"4096x1024x2048", 643.7}, {"4096x2048x2048", 727.5}, {"4096x4096x2048", 735.6},
    {"4096x1024x4096", 751.7}, {"4096x2048x4096", 759.4}, {"4096x4096x4096", 780.2}};

// How many of `figures` the best NN bf16 prediction on `profile` puts within 0.7-1.15x; prints each.
template <std::size_t N>
int within_issue_band(const char* profile, const XlaFigure (&figures)[N]) {
  const Profile hw = load_profile(profile);
  int within = 0;
  double lo = 1e9, hi = 0;
  for (const XlaFigure& f : figures) {
    const double ratio = best_prediction(hw, f.shape, "NN").tflops / f.tflops;
    lo = std::min(lo, ratio);
    hi = std::max(hi, ratio);
    within += ratio >= 0.7 && ratio <= 1.15;
    std::printf("  %-5s %-16s XLA %7.1f TFLOP/s, predicted %.2fx%s\n", profile, f.shape, f.tflops, ratio,
                ratio >= 0.7 && ratio <= 1.15 ? "" : "  <- outside 0.7-1.15");
  }
  std::printf("  %s: %d of %zu within 0.7-1.15x (%.2f-%.2fx)\n", profile, within, N, lo, hi);
  return within;
}

// Regression floors, 2026-12-04: the B200 18 of 27 (0.60-0.84x: every shape predicted slower than
// cuBLAS, the nine below 0.7 the largest N and K: the model predicts a plain Triton kernel, which
// ran 0.63x of cuBLAS at 4096^3 on a B200, next test), the H100 27 of 27 (0.72-0.89x; 0.70-0.87x since its measured DRAM latency, 2026-12-05, 1024x1024x4096 at 0.7005: at the band's edge).
// Since the split-K reduction's measured cost (2026-12-06, model_params.hpp: 3.4 us + 0.245 us a
// split on the H100, where 1.7 + 0.62 was assumed): the B200 18 of 27 still, the H100 26 of 27
// (1024x1024x4096 at 0.66x: its split-2 pick's reduction 1.4 us longer, the unsplit tile then first).
TEST_CASE("cross-vendor: XLA's shapes >= 1024 within 0.7-1.15x, B200 and H100", "[model][crossvendor]") {
  CHECK(within_issue_band("b200", kXlaB200Large) >= 18);
  CHECK(within_issue_band("h100", kXlaH100Large) >= 26);
}

TEST_CASE("cross-vendor: B200 within 0.7-1.15x of XLA on 80% of shapes >= 1024 (issue target, not met)",
          "[model][crossvendor][!mayfail]") {
  CHECK(within_issue_band("b200", kXlaB200Large) >= 0.8 * static_cast<double>(std::size(kXlaB200Large)));
}

// B200 against what a plain Triton matmul (tl.load pointers, tl.dot) reached on a B200, not cuBLAS:
// tile-ai/tilelang issue #1787 (2026-02-04), "triton | 0.155 ms | 885.9 TFLOPS" at 4096^3 and
// "1.022 ms | 1075.8 TFLOPS" at 8192^3, bf16. XLA's cuBLAS figures (kXlaB200) are 1.6x those at 4096^3:
// cuBLAS runs TMA and 2-CTA MMA, which pointer-load Triton kernels do not. The same script's Triton
// ran 523-527 TFLOP/s on an H100 where our H200's best Triton config runs 766 at 8192^3
// (h200-triton-bf16.csv), so these figures are lower bounds of Triton's best: the prediction may sit
// somewhat above them, not far below.
TEST_CASE("cross-vendor: B200 against a plain Triton matmul's public figures", "[model][crossvendor]") {
  const Profile hw = load_profile("b200");
  const std::pair<const char*, double> figures[] = {{"4096x4096x4096", 885.9}, {"8192x8192x8192", 1075.8}};
  for (const auto& [shape, measured] : figures) {
    const Prediction pred = best_prediction(hw, shape, "NN");
    const double ratio = pred.tflops / measured;
    std::printf("  b200 %s plain Triton %.1f TFLOP/s, predicted %.1f (%.2fx) %s\n", shape, measured, pred.tflops, ratio,
                pred.config.c_str());
    INFO(shape << " predicted " << pred.tflops);
    CHECK(ratio >= 0.85);  // 0.94x and 0.92x on 2026-12-02
    CHECK(ratio <= 1.30);
  }
}

// What vLLM's tuned B200 block-fp8 configs ran at when they were tuned. vllm-project/vllm#12707 (2025-02-03,
// "[Model] Add Deepseek V3 fp8_w8a8 configs for B200") added the files that
// ../shared/ref/public/vllm_fp8_block_gemm_configs.csv reads for NVIDIA_B200; the same author's
// sgl-project/sglang#3272 (2025-02-03, the same configs for SGLang) gives the kernel's time with them on a
// B200: (M, N, K) (16, 7168, 2048) 14.2 us, (64, 7168, 2048) 25.6 us, (256, 7168, 2048) 57.5 us. The files'
// configs for those rows (N=7168,K=2048, M keys 16, 64, 256): 16x64x128 w4 s5 g1, 64x64x128 w4 s3 g64,
// 128x128x128 w8 s2 g1. Our H200 runs the same kernel's best config on those problems in 11.7, 13.0 and
// 18.3 us (data/measurements/h200-fp8-block.csv.gz, Triton 3.6), faster than that B200: the Triton that
// tuned the B200 files (at most days after upstream Triton's main first emitted tcgen05 MMA:
// openxla/xla#22053, 2025-01-29, citing triton-lang/triton b39c1e14) ran this kernel 1.2-3.1x slower than
// an H200 runs it now, so vLLM's B200 files describe
// another compiled kernel than the tcgen05 path the b200 profile models (README "Accuracy", issue #11's
// B200 agreement). The test pins that reading: the model's times of those very configs on the b200
// profile are below the public ones, the more so the larger M (0.88x, 0.65x, 0.49x on 2026-12-07); were
// the model to predict them as slow as measured, the B200 agreement would need another explanation.
TEST_CASE("cross-vendor: vLLM's tuned B200 configs ran slower than the b200 profile's Triton", "[model][crossvendor]") {
  const Profile hw = load_profile("b200");
  const Target& t = vllm_fp8_block_target();
  struct Row {
    const char* shape;
    TileConfig config;
    double measured_us;
  };
  const Row rows[] = {{"16x7168x2048", tuned(16, 64, 128, 4, 5, 1), 14.2},
                      {"64x7168x2048", tuned(64, 64, 128, 4, 3, 64), 25.6},
                      {"256x7168x2048", tuned(128, 128, 128, 8, 2, 1), 57.5}};
  double previous_ratio = 2.0;
  for (const Row& row : rows) {
    INFO(row.shape);
    GemmProblem p = parse_shape(row.shape);
    p.dtype = Dtype::fp8;
    const Estimate e = t.estimate(t.context(p, hw), row.config);
    REQUIRE(e.feasible);
    const double ratio = e.latency_s * 1e6 / row.measured_us;
    std::printf("  b200 %-14s vLLM's %-18s public %.1f us, predicted %.1f us (%.2fx)\n", row.shape,
                row.config.text().c_str(), row.measured_us, e.latency_s * 1e6, ratio);
    CHECK(ratio < 1.0);             // the public kernel was slower than the modelled one
    CHECK(ratio < previous_ratio);  // and the more so, the more matrix work per tile
    previous_ratio = ratio;
  }
}
