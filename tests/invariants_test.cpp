// Physical invariants of the model, as property tests (issue "Physics and feasibility", deliverable
// 1): over random shapes on every shipped profile, every dtype it has, every layout and every
// target, each feasible estimate must
//   - take at least 2*M*N*K*batch / (datasheet matrix peak) and compulsory bytes / (datasheet DRAM
//     bandwidth): no kernel beats either;
//   - predict at least the compulsory DRAM traffic (A and B read once, C written once);
//   - never predict a larger problem (in M, N, K or batch) faster with the same config;
//   - wait, in each K-step, for the slowest level it draws from: a step's transfer is at least each
//     level's own time, and the first step of a wave (its loads all first touches, so DRAM) waits
//     at least the loaded DRAM latency.
// The floors come from the profile's datasheet figures (peak_flops_per_s, dram_bandwidth_bytes_per_s),
// not from the model's derated ones, so they hold for any fitted parameters.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "gemm_advisor/model.hpp"
#include "gemm_advisor/profile.hpp"
#include "gemm_advisor/target.hpp"
#include "test_util.hpp"

namespace {

using namespace gemm_advisor;

constexpr int kShapesPerProfileAndTarget = 200;
constexpr std::size_t kConfigsPerProblem = 48;
constexpr double kRelTol = 1e-9;  // rounding only
// A larger problem may come out up to this much faster with the same config (measured 2026-12-01:
// about 3500 of 600k comparisons, all under 2%), never more. The residue is the model's even spread of
// the compulsory DRAM bytes over the waves (model_core.hpp, wave_terms): growing N spreads A's
// bytes over more tiles, so a full first wave is charged a little less DRAM per step. Before the
// fixes of issue #11 (a CU waits for all bytes of its fullest tiles, a block's chain runs at its
// own warps' rate, the busiest block's full K-depth) it was 20284 of 180k and up to 61%.
constexpr double kMonotonicTol = 0.02;

// Log-uniform in [1, hi].
std::int64_t log_uniform(std::mt19937_64& rng, double hi) {
  std::uniform_real_distribution<double> u(0.0, std::log(hi));
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::exp(u(rng))));
}

// A larger problem that keeps every dimension's residue mod 16, so operand alignment (16-element
// vector loads, model_core.hpp) is the same and only the size grows.
GemmProblem grown(const GemmProblem& p, int which, std::int64_t by) {
  GemmProblem q = p;
  if (which == 0) q.m += 16 * by;
  if (which == 1) q.n += 16 * by;
  if (which == 2) q.k += 16 * by;
  if (which == 3) q.batch += by;
  return q;
}

// The violation kinds of a larger problem predicted faster, by the dimension grown.
const char* const kMonotonicKinds[] = {"monotonic-m", "monotonic-n", "monotonic-k", "monotonic-batch"};

struct Counts {
  std::size_t estimates = 0, problems = 0, violations = 0, within_tolerance = 0;
  std::map<std::string, std::size_t> by_kind;  // kind -> violations
  std::map<std::string, std::vector<std::string>> shown;  // kind -> the first 3 violations, described
  std::vector<std::string> untried;  // "target on profile" where no problem was tried
  double worst_speedup = 1;  // the largest (smaller problem's time / larger's) of a fixed config
  std::size_t of(const std::string& kind) const {
    const auto it = by_kind.find(kind);
    return it == by_kind.end() ? 0 : it->second;
  }
};

void check_problem(const Target& t, const Profile& profile, const GemmProblem& p, std::mt19937_64& rng, Counts& n) {
  // Its own generator, seeded from the problems' one before anything can return: the problems drawn
  // after this one must not depend on how large a target's space is (a change to one target's space
  // reshuffled every later problem of every target, and so the violations found).
  std::mt19937_64 pick(rng());
  std::vector<TileConfig> space;
  t.candidates(p, profile, space);
  if (space.empty()) return;
  std::shuffle(space.begin(), space.end(), pick);
  space.resize(std::min(space.size(), kConfigsPerProblem));
  const Hardware& hw = profile.hw;
  const ModelParams mp = profile.params_for(t.name(), t.default_params());
  const EstimateContext ctx = t.context(p, profile);
  const double time_floor_s =
      std::max(p.flops() / hw.peak_flops_per_s(p.dtype), p.compulsory_bytes() / hw.dram_bandwidth_bytes_per_s);
  std::vector<GemmProblem> larger;
  std::uniform_int_distribution<std::int64_t> by(1, 64);
  for (int which = 0; which < (p.is_moe() ? 3 : 4); ++which) larger.push_back(grown(p, which, by(pick)));  // MoE: batch 1
  std::vector<EstimateContext> larger_ctx;
  for (const GemmProblem& q : larger) larger_ctx.push_back(t.context(q, profile));
  ++n.problems;
  for (const TileConfig& c : space) {
    const Estimate e = t.estimate(ctx, c);
    ++n.estimates;
    if (!e.feasible) continue;
    const std::string where = std::string(t.name()) + " " + hw.name + " " + p.shape_text() + " " +
                              std::string(dtype_name(p.dtype)) + " " + p.layout.name() + " " + c.text();
    auto fail = [&](bool ok, const char* kind, const std::string& what) {
      if (ok) return;
      ++n.violations;
      if (++n.by_kind[kind] <= 3) n.shown[kind].push_back(where + ": " + what);
    };
    fail(e.latency_s >= time_floor_s * (1 - kRelTol), "floor",
         "time " + std::to_string(e.latency_s * 1e6) + " us below the floor " + std::to_string(time_floor_s * 1e6) + " us");
    fail(e.dram_bytes >= p.compulsory_bytes() * (1 - kRelTol), "compulsory",
         "DRAM traffic " + std::to_string(e.dram_bytes) + " B below the compulsory " + std::to_string(p.compulsory_bytes()));
    const double slowest = std::max({e.l2_step_s, e.llc_step_s, e.dram_step_s, e.cu_load_step_s});
    fail(e.memory_step_s >= slowest * (1 - kRelTol), "slowest", "a K-step's transfer is faster than its slowest level");
    // A step with no loads in flight (num_stages 1, an operand out of the pipeline) waits the lighter
    // unpipelined_latency_multiplier of it, a pipelined one loaded_latency_multiplier's, down to
    // idle_latency_fraction of that with its memory levels idle.
    const double loaded_dram_s =
        hw.dram_latency_s *
        std::min(mp.loaded_latency_multiplier * mp.idle_latency_fraction, mp.unpipelined_latency_multiplier);
    fail(e.prefetch_s >= loaded_dram_s * (1 - kRelTol), "dram-latency", "the first K-step does not wait for DRAM");
    for (std::size_t i = 0; i < larger.size(); ++i) {
      const Estimate big = t.estimate(larger_ctx[i], c);
      ++n.estimates;
      if (!big.feasible) continue;
      if (big.latency_s < e.latency_s * (1 - kRelTol)) ++n.within_tolerance;
      n.worst_speedup = std::max(n.worst_speedup, e.latency_s / big.latency_s);
      fail(big.latency_s >= e.latency_s * (1 - kMonotonicTol), kMonotonicKinds[i],
           "the larger " + larger[i].shape_text() + " is predicted faster: " + std::to_string(big.latency_s * 1e6) +
               " us < " + std::to_string(e.latency_s * 1e6) + " us");
    }
  }
}

// Every problem and config of the property test, once per process (both test cases below read it).
const Counts& invariant_counts() {
  static const Counts counts = [] {
    Counts n;
    std::mt19937_64 rng(20261201);
    const char* layouts[] = {"NN", "NT", "TN", "TT"};
    for (const EmbeddedProfile& ep : embedded_profiles()) {
      const Profile profile = load_profile(std::string(ep.name));
      std::vector<Dtype> dtypes;
      for (int d = 0; d < kDtypeCount; ++d)
        if (profile.hw.rate(static_cast<Dtype>(d))) dtypes.push_back(static_cast<Dtype>(d));
      for (const Target* t : all_targets()) {
        const std::size_t before = n.problems;
        for (int i = 0; i < kShapesPerProfileAndTarget; ++i) {
          GemmProblem p;
          p.m = log_uniform(rng, 65536);
          p.n = log_uniform(rng, 65536);
          p.k = log_uniform(rng, 65536);
          p.batch = i % 4 == 0 ? log_uniform(rng, 64) : 1;
          p.dtype = dtypes[static_cast<std::size_t>(rng() % dtypes.size())];
          p.layout = parse_layout(layouts[rng() % 4]);
          if (!t->problem_error(p, profile).empty()) {
            // A target with a fixed dtype or layout (vllm-fp8-block: fp8, NT): take its own.
            if (!t->info().default_dtype.empty()) p.dtype = parse_dtype(t->info().default_dtype);
            if (!t->info().default_layout.empty()) p.layout = parse_layout(t->info().default_layout);
          }
          if (!t->problem_error(p, profile).empty()) {
            // A target of fused-MoE layers (vllm-fused-moe): the same sizes as one GEMM of a layer,
            // E experts, top_k of them per token, uniform routing, NT, batch 1, block-fp8 for fp8.
            p.moe.experts = log_uniform(rng, 512);
            p.moe.top_k = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(std::min<std::int64_t>(p.moe.experts, 8)));
            p.moe.gemm = static_cast<MoeGemm>(1 + rng() % 3);  // up, down, layer
            p.moe.quant_block = p.dtype == Dtype::fp8 ? 128 : 0;
            p.batch = 1;
            p.layout = parse_layout("NT");
            if (!t->problem_error(p, profile).empty()) continue;
          }
          check_problem(*t, profile, p, rng, n);
        }
        const bool has_dtype = t->info().default_dtype.empty() || profile.hw.rate(parse_dtype(t->info().default_dtype));
        if (has_dtype && n.problems == before) n.untried.push_back(std::string(t->name()) + " on " + std::string(ep.name));
      }
    }
    return n;
  }();
  return counts;
}

void show(const Counts& n, const std::string& kind) {
  const auto it = n.shown.find(kind);
  if (it == n.shown.end()) return;
  for (const std::string& what : it->second) WARN(kind << ": " << what);
}

}  // namespace

// No ';' in the names: catch_discover_tests hands ctest each name as a CMake list, which a ';'
// splits; the first version of this test had one and ran in ctest as a filter that matched nothing
// (it "passed" in 0.02 s without running, from the fifth session until 2026-12-02).
TEST_CASE("invariants: floors, compulsory traffic, slowest level, every profile, dtype, layout, target", "[invariants]") {
  const Counts& n = invariant_counts();
  for (const std::string& where : n.untried) FAIL_CHECK("no problem tried: " << where);
  for (const auto& [kind, count] : n.by_kind) WARN(kind << ": " << count << " violations");
  WARN(n.estimates << " estimates of " << n.problems << " problems; " << n.within_tolerance
                  << " larger problems predicted faster within the " << kMonotonicTol * 100 << "% tolerance");
  for (const char* kind : {"floor", "compulsory", "slowest", "dram-latency"}) {
    show(n, kind);
    CHECK(n.of(kind) == 0);
  }
  CHECK(n.within_tolerance < 5000);  // the residue does not grow unnoticed
  CHECK(n.estimates > 1000000);
  // Monotonicity beyond the tolerance is not met yet (the next test case): a ratchet, so that the
  // residue does not grow. When this test first really ran (2026-12-02) it was 29 of 1.23 M
  // estimates, up to 6.6%; counting a wave's partly run panel as part of one (model_core.hpp) left
  // 22, mostly fused-MoE layers on AMD, up to 18%; the footprint of one raster over every expert's
  // rows (interleaved_footprint: a wave spilling a few tiles into the next expert had been charged
  // that expert's whole footprint) left 16, three problems on AMD profiles, up to 4%. Then each
  // problem's configs were drawn with a generator of their own (the sample no longer moves when a
  // target's space does): 7 in that sample, five problems on the A100, H100 and MI300X, up to 5.5%
  // (README "Model"). A wave's compulsory DRAM share counted at a full tile's share a tile (the
  // last wave taking what is left, model_core.hpp) fixed the A100's 2452x1x801x7 (a thin 11th row
  // tile had lowered the full first wave's share; within the tolerance 1395 -> 1305 of 1.23 M): 6,
  // three fused-MoE problems (an expert's weights shared by its own row tiles) and one MI300X
  // split-K problem whose larger N shares A among more tiles of its first wave. Counted again
  // 2026-12-05 (the sample and the model having moved since): 3, two fused-MoE layers (H100, MI300X)
  // and an fp32 A100 GEMM whose larger N draws less DRAM in its first wave, up to 6.3%. The staggered
  // waves (2026-12-06, model_params.hpp staggered_wave_fraction) added a fourth, 2.3%: the tutorial
  // target's 383x37195x1 fp8 NN on the MI355X at 64x256x32:4:2 (two waves) against M = 415, whose 7th
  // row tile of 31 rows lowers the average tile's output (the store of every wave counts the average
  // tile), so its first wave stores less than 383's; in lock step its full second wave (4.5 us) had
  // kept it slower, staggered that wave takes 2.9 us. Staggering the one-step tiles whose operands
  // cannot be pipelined too (2026-12-06, forty-first session) added two A100 problems of that kind
  // (9479x6891x6 fp32 NT at 64x256x16:2:1, 2.7%; 28x1006x7x43 fp16 NN at 16x256x16:8:3, 2.3%);
  // counting each full wave's output at a full tile's bytes (the last wave what is left,
  // model_core.hpp), as its compulsory operand bytes are, removed them and the MI355X one: 3 (the
  // two fused-MoE layers and the fp32 A100 GEMM), within the tolerance 2338 -> 2079.
  std::size_t monotonic = 0;
  for (const char* kind : kMonotonicKinds) monotonic += n.of(kind);
  CHECK(monotonic <= 3);
}

TEST_CASE("invariants: a fixed config never predicts a larger problem faster, beyond the 2% tolerance",
          "[invariants][!mayfail]") {
  // Issue #11's invariant, not met: the cases it prints are the model's to fix.
  const Counts& n = invariant_counts();
  WARN("the largest speed-up of a larger problem: " << n.worst_speedup << "x");
  for (const char* kind : kMonotonicKinds) {
    show(n, kind);
    CHECK(n.of(kind) == 0);
  }
  // A case the random sample misses (a fresh expert's find, 2026-12-07; README "Known gaps"):
  // vllm-fp8-block shares a step's transfer out among a CU's co-resident blocks
  // (coresident_load_overlap 1), the shared DRAM's too, so a DRAM-bound decode step with more
  // blocks a CU (more rows) waits less. The expert's figures: MI300X 16x32x128:4:2:g1 on N 7168,
  // K 16384, 128.4 / 115.6 / 111.8 / 112.4 / 124.3 us at M 16 / 32 / 48 / 64 / 128. Sharing out
  // only the CU's own fill made it monotone and cost the out-of-sample sets the value was taken on
  // (h200-clo.csv 96.6% -> 95.6% of oracle, worst 80.8% -> 74.6%): not taken.
  const Profile mi300x = load_profile("mi300x");
  const Target& fp8_block = find_target("vllm-fp8-block");
  const TileConfig c = parse_tile_config("16x32x128:4:2:1:g1");
  double previous_s = 0;
  for (const std::int64_t m : {16, 32, 48, 64, 128}) {
    GemmProblem p;
    p.m = m;
    p.n = 7168;
    p.k = 16384;
    p.dtype = Dtype::fp8;
    p.layout = parse_layout("NT");
    const double s = fp8_block.estimate(fp8_block.context(p, mi300x), c).latency_s;
    INFO("M = " << m << ": " << s * 1e6 << " us, the smaller M's " << previous_s * 1e6 << " us");
    CHECK(s >= previous_s * (1 - kMonotonicTol));
    previous_s = s;
  }
}
