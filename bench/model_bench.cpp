// Speed of the library's hot paths, one thread (README, "Speed"):
//   BM_Estimate         candidate evaluations per second, as rank_configs performs them: per shape, one
//                       EstimateContext, then triton_target().estimate_latency() over the shape's whole candidate space
//                       (the context is built inside the timed loop, so its cost is counted)
//   BM_EstimateRecord   ... the same with triton_target().estimate(context, config), which fills the whole Estimate
//                       record (what rank_configs computes when every record is kept: --top 0)
//   BM_Candidates       building a shape's triton candidate space
//   BM_RankShape        shapes per second: candidate space + rank_configs, as `batch` does per shape
//   BM_RankShapeCsv     ... plus formatting the top-1 CSV row (the `batch --top 1 --format csv` path)
// Each runs over a fixed mix of real LLM shapes (decode and prefill, DESIGN.md "Shapes and layouts")
// on an NVIDIA (h200) and an AMD (mi350x) profile.
#include <benchmark/benchmark.h>

#include <sstream>
#include <string>
#include <vector>

#include "gemm_advisor/profile.hpp"
#include "gemm_advisor/model.hpp"
#include "gemm_advisor/ranker.hpp"
#include "gemm_advisor/report.hpp"
#include "gemm_advisor/targets/triton.hpp"

namespace {

using namespace gemm_advisor;

// Llama-3-8B/70B and DeepSeek-V3 (N, K) pairs with decode and prefill M (DESIGN.md).
std::vector<GemmProblem> shape_mix() {
  const std::int64_t ms[] = {1, 16, 128, 2048, 8192};
  const std::pair<std::int64_t, std::int64_t> nks[] = {{6144, 4096}, {4096, 14336}, {28672, 4096},
                                                       {8192, 28672}, {1536, 7168},  {576, 7168}};
  std::vector<GemmProblem> out;
  for (auto m : ms) {
    for (auto [n, k] : nks) {
      GemmProblem p;
      p.m = m;
      p.n = n;
      p.k = k;
      out.push_back(p);
    }
  }
  return out;
}

const Profile& profile(int index) {
  static const Profile h200 = load_profile("h200");
  static const Profile mi350x = load_profile("mi350x");
  return index == 0 ? h200 : mi350x;
}

void set_label(benchmark::State& state) { state.SetLabel(profile(static_cast<int>(state.range(0))).hw.name); }

// Evaluates every shape's candidate space with one `evaluate(target, context, configs, count, out)`
// call, one context a shape, as rank_configs does.
template <typename Result, typename Evaluate>
void estimate_spaces(benchmark::State& state, Evaluate evaluate) {
  const Profile& hw = profile(static_cast<int>(state.range(0)));
  const Target& target = triton_target();
  const std::vector<GemmProblem> shapes = shape_mix();
  std::vector<std::vector<TileConfig>> spaces(shapes.size());
  std::size_t largest = 0;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    target.candidates(shapes[i], hw, spaces[i]);
    largest = std::max(largest, spaces[i].size());
  }
  std::vector<Result> out(largest);
  std::int64_t evaluations = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      EstimateContext context = target.context(shapes[i], hw);
      context.configs_from_space = true;  // the space is target.candidates(), as advise() ranks it
      evaluate(target, context, spaces[i].data(), spaces[i].size(), out.data());
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
      evaluations += static_cast<std::int64_t>(spaces[i].size());
    }
  }
  state.counters["evals_per_s"] = benchmark::Counter(static_cast<double>(evaluations), benchmark::Counter::kIsRate);
  set_label(state);
}

void BM_Estimate(benchmark::State& state) {
  estimate_spaces<LatencyEstimate>(state, [](const Target& t, const EstimateContext& ctx, const TileConfig* c,
                                             std::size_t n, LatencyEstimate* out) { t.estimate_latencies(ctx, c, n, out); });
}

void BM_EstimateRecord(benchmark::State& state) {
  estimate_spaces<Estimate>(state, [](const Target& t, const EstimateContext& ctx, const TileConfig* c, std::size_t n,
                                      Estimate*) {
    for (std::size_t i = 0; i < n; ++i) benchmark::DoNotOptimize(t.estimate(ctx, c[i]));
  });
}

void BM_Candidates(benchmark::State& state) {
  const Profile& hw = profile(static_cast<int>(state.range(0)));
  const std::vector<GemmProblem> shapes = shape_mix();
  std::vector<TileConfig> space;
  std::int64_t done = 0, configs = 0;
  for (auto _ : state) {
    for (const GemmProblem& p : shapes) {
      triton_candidates(p, hw, space);
      configs += static_cast<std::int64_t>(space.size());
      benchmark::DoNotOptimize(space.data());
    }
    done += static_cast<std::int64_t>(shapes.size());
  }
  state.counters["shapes_per_s"] = benchmark::Counter(static_cast<double>(done), benchmark::Counter::kIsRate);
  state.counters["configs_per_shape"] = static_cast<double>(configs) / static_cast<double>(std::max<std::int64_t>(1, done));
  set_label(state);
}

void BM_RankShape(benchmark::State& state) {
  const Profile& hw = profile(static_cast<int>(state.range(0)));
  const std::vector<GemmProblem> shapes = shape_mix();
  std::vector<TileConfig> space;
  std::vector<RankedConfig> ranked;
  std::int64_t done = 0, evaluations = 0;
  for (auto _ : state) {
    for (const GemmProblem& p : shapes) {
      triton_candidates(p, hw, space);
      rank_configs(triton_target(), p, hw, space, ranked);
      evaluations += static_cast<std::int64_t>(space.size());
      benchmark::DoNotOptimize(ranked.data());
    }
    done += static_cast<std::int64_t>(shapes.size());
  }
  state.counters["shapes_per_s"] = benchmark::Counter(static_cast<double>(done), benchmark::Counter::kIsRate);
  state.counters["evals_per_s"] = benchmark::Counter(static_cast<double>(evaluations), benchmark::Counter::kIsRate);
  set_label(state);
}

void BM_RankShapeCsv(benchmark::State& state) {
  const Profile& hw = profile(static_cast<int>(state.range(0)));
  const std::vector<GemmProblem> shapes = shape_mix();
  std::vector<TileConfig> space;
  std::vector<RankedConfig> ranked;
  std::int64_t done = 0;
  for (auto _ : state) {
    for (const GemmProblem& p : shapes) {
      triton_candidates(p, hw, space);
      rank_configs(triton_target(), p, hw, space, ranked);
      std::ostringstream out;
      write_ranking_csv_rows(out, p, hw.hw, "triton", ranked, 1);
      benchmark::DoNotOptimize(out.str());
    }
    done += static_cast<std::int64_t>(shapes.size());
  }
  state.counters["shapes_per_s"] = benchmark::Counter(static_cast<double>(done), benchmark::Counter::kIsRate);
  set_label(state);
}

// Argument: 0 = h200 (NVIDIA), 1 = mi350x (AMD: XCD-split L2 and MALL terms).
BENCHMARK(BM_Estimate)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EstimateRecord)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Candidates)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RankShape)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RankShapeCsv)->Arg(0)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
