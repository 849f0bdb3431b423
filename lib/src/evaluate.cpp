#include "gemm_advisor/evaluate.hpp"
#include "gemm_advisor/emit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "gemm_advisor/advise.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/report.hpp"
#include "gemm_advisor/version.hpp"

namespace gemm_advisor {

namespace {
std::vector<double> average_ranks(const std::vector<double>& v) {
  std::vector<std::size_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
  std::vector<double> ranks(v.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
    const double avg = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
    for (std::size_t t = i; t <= j; ++t) ranks[order[t]] = avg;
    i = j + 1;
  }
  return ranks;
}
}  // namespace

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
  // Checked (a library user's unequal samples gave a number, a NaN gave 1: a fresh consumer's find,
  // 2026-12-05).
  if (a.size() != b.size())
    throw InputError("spearman: samples of " + std::to_string(a.size()) + " and " + std::to_string(b.size()) +
                     " values (they pair up one to one)");
  const std::size_t n = a.size();
  const double undefined = std::numeric_limits<double>::quiet_NaN();
  auto has_nan = [](const std::vector<double>& v) { return std::any_of(v.begin(), v.end(), [](double x) { return std::isnan(x); }); };
  if (n < 2 || has_nan(a) || has_nan(b)) return undefined;
  const std::vector<double> ra = average_ranks(a), rb = average_ranks(b);
  const double mean = (static_cast<double>(n) + 1.0) / 2.0;
  double cov = 0, va = 0, vb = 0;
  for (std::size_t i = 0; i < n; ++i) {
    cov += (ra[i] - mean) * (rb[i] - mean);
    va += (ra[i] - mean) * (ra[i] - mean);
    vb += (rb[i] - mean) * (rb[i] - mean);
  }
  if (va == 0 || vb == 0) return undefined;
  return cov / std::sqrt(va * vb);
}

double geomean(const std::vector<double>& v) {
  if (v.empty()) return 0;
  double s = 0;
  for (double x : v) {
    // Not positive or not finite: said (it returned NaN: a fresh C++ consumer's find, 2026-12-07).
    if (!(x > 0) || !std::isfinite(x))
      throw InputError("geomean: " + fmt::format("{:g}", x) + " is not a positive finite value");
    s += std::log(x);
  }
  // A geometric mean lies between the smallest and the largest value; the rounding of log and exp
  // can put it just outside (100 of oracle on every shape came out 100.00000000000013%: a fresh
  // user's find, 2026-12-03).
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return std::clamp(std::exp(s / static_cast<double>(v.size())), *lo, *hi);
}

double percentile(std::vector<double> v, double q) {
  // Outside [0, 1] it read before or past the values (q = 1e9 crashed: a fresh consumer's find).
  if (!(q >= 0 && q <= 1)) throw InputError("percentile: q = " + std::to_string(q) + " is outside [0, 1]");
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const std::size_t lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(v.size() - 1, lo + 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

std::string unscored_text(const GemmProblem& p) {
  return p.shape_text() + " " + std::string(dtype_name(p.dtype)) + " " + p.layout.name();
}

Evaluation evaluate(const std::vector<MeasuredShape>& shapes, const Profile& profile, const Target& target,
                    std::size_t top_k) {
  if (top_k < 1) throw InputError("evaluate: top_k must be at least 1, got 0");
  Evaluation out;
  out.top_k = top_k;
  out.spearman = std::numeric_limits<double>::quiet_NaN();  // as with no shape where it is defined
  std::vector<double> pcts, errs, default_pcts, vendor_pcts, rhos, topk_pcts, topk_distinct_pcts;
  std::size_t hit1 = 0, hit5 = 0, hit10 = 0, hitk = 0;
  std::vector<TileConfig> configs;
  std::vector<RankedConfig> ranked;
  for (const MeasuredShape& shape : shapes) {
    ShapeEvaluation se;
    se.problem = shape.problem;
    se.family = shape.family;
    se.name = shape.name;
    const TileConfig fixed = target.default_config(shape.problem);
    bool default_failed = false;  // the default config has a failed row (compile or launch error, wrong result)
    const EstimateContext context = target.context(shape.problem, profile);
    // Valid measurements, one time per config (the fastest if a config was timed twice).
    std::vector<MeasuredConfig> valid;
    // The failed config the model predicts fastest among those it calls feasible (failed_pick's
    // candidate), and that prediction.
    const MeasuredConfig* failed_fastest = nullptr;
    double failed_fastest_s = 0;
    for (const MeasuredConfig& mc : shape.configs) {
      // The reader's rule for hand-built rows too (ms 0 gave a NaN geomean, -1 a 100% pick: a fresh
      // library consumer's find, 2026-12-05).
      if (mc.status == "ok" && !(mc.ms > 0 && mc.ms <= kMaxMeasuredMs))
        throw InputError("evaluate: " + shape.problem.shape_text() + " " + mc.config.text() + ": status ok needs a time " +
                         "above 0 ms and at most 1e9 (the readers' bound), got " + fmt::format("{:g}", mc.ms));
      // An empty status: a cut-off row, as the readers refuse it (the shape was dropped unsaid: a fresh
      // C++ consumer's find, 2026-12-07).
      if (mc.status.empty())
        throw InputError("evaluate: " + shape.problem.shape_text() + " " + mc.config.text() +
                         ": an empty status (\"ok\", or why the run has no time)");
      if (mc.status != "ok") {
        ++se.failed_rows;
        if (mc.config == fixed && !is_timing_check_status(mc.status)) default_failed = true;
        const Estimate e = target.estimate(context, mc.config);
        if (!e.feasible || !target.infeasibility(mc.config, shape.problem, profile).empty())
          ++se.failed_rows_model_infeasible;
        else if (!is_timing_check_status(mc.status) && (!failed_fastest || e.latency_s < failed_fastest_s))
          failed_fastest = &mc, failed_fastest_s = e.latency_s;
        continue;
      }
      auto dup = std::find_if(valid.begin(), valid.end(), [&](const MeasuredConfig& v) { return v.config == mc.config; });
      if (dup == valid.end()) valid.push_back(mc);
      else dup->ms = std::min(dup->ms, mc.ms);
    }
    if (valid.empty()) continue;
    se.measured = valid.size();
    configs.clear();
    for (const auto& v : valid) configs.push_back(v.config);
    // The failed config is ranked with the ones that ran, so that the ranking's own order (its
    // tie-breaks among near-equal predictions) says whether it would have been the first pick (a
    // failed pick tied with the next went unsaid: a fresh user's find, 2026-12-05); then dropped.
    const bool rank_failed = failed_fastest && std::find(configs.begin(), configs.end(), failed_fastest->config) ==
                                                   configs.end();
    if (rank_failed) configs.push_back(failed_fastest->config);
    std::vector<TileConfig> unused_space;
    advise(target, shape.problem, profile, &configs, 0, unused_space, ranked);
    bool failed_first = false;
    if (rank_failed) {
      const auto at = std::find_if(ranked.begin(), ranked.end(),
                                   [&](const RankedConfig& r) { return r.config == failed_fastest->config; });
      failed_first = at == ranked.begin();
      if (at != ranked.end()) ranked.erase(at);
    }
    auto measured_ms = [&](const TileConfig& c) {
      for (const auto& v : valid)
        if (v.config == c) return v.ms;
      return 0.0;
    };
    const auto best = std::min_element(valid.begin(), valid.end(),
                                       [](const MeasuredConfig& a, const MeasuredConfig& b) { return a.ms < b.ms; });
    se.measured_best = best->config;
    se.measured_best_ms = best->ms;
    std::vector<double> predicted, measured;
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      const RankedConfig& r = ranked[i];
      if (!r.estimate.feasible) {
        for (const auto& v : valid)
          if (v.config == r.config) se.infeasible_but_ran.push_back(v);
        continue;
      }
      predicted.push_back(r.estimate.latency_s);
      measured.push_back(measured_ms(r.config));
      if (r.config == se.measured_best && !se.best_rank) se.best_rank = i + 1;
    }
    if (predicted.empty()) {
      // The model rejects every config that ran: it has no pick among them to score (a made-up
      // 0% would sink every aggregate, and the table would show a pick that was not measured).
      out.infeasible_but_ran += se.infeasible_but_ran.size();
      out.unscored.push_back(se.problem);
      continue;
    }
    se.advisor_top1 = ranked.front().config;  // the infeasible configs rank last
    // The advisor's real first pick failed to run: said (scored, its next pick that ran passed
    // unsaid, and the failure went unseen: a fresh own-kernel user's find, 2026-12-04).
    if (failed_first) {
      se.failed_pick = *failed_fastest;
      ++out.failed_picks;
    }
    se.advisor_top1_ms = measured.front();
    se.predicted_top1_ms = predicted.front() * 1e3;
    se.pct_of_oracle = 100.0 * (se.measured_best_ms / se.advisor_top1_ms);
    se.spearman = spearman(predicted, measured);
    se.top1_abs_err_pct = 100.0 * std::abs(se.predicted_top1_ms - se.advisor_top1_ms) / se.advisor_top1_ms;
    // Best of the shortlist: the top_k feasible configs in the advisor's order, and the top_k
    // distinct tiles.
    auto best_of_top = [&](const std::vector<RankedConfig>& order) {
      double fastest = 0;
      std::size_t taken = 0;
      for (const RankedConfig& r : order) {
        if (!r.estimate.feasible || taken == top_k) break;
        const double ms = measured_ms(r.config);
        if (fastest == 0 || ms < fastest) fastest = ms;
        ++taken;
      }
      return fastest > 0 ? 100.0 * (se.measured_best_ms / fastest) : 0.0;
    };
    se.top_k_pct_of_oracle = best_of_top(ranked);
    std::vector<RankedConfig> distinct = ranked;
    distinct_tiles_first(distinct, top_k);
    se.top_k_distinct_pct_of_oracle = best_of_top(distinct);
    // Positive: a scored shape has a feasible, measured pick (the others went to out.unscored).
    topk_pcts.push_back(se.top_k_pct_of_oracle);
    topk_distinct_pcts.push_back(se.top_k_distinct_pct_of_oracle);
    const double default_ms = measured_ms(fixed);
    if (default_ms > 0) se.default_pct_of_oracle = 100.0 * (se.measured_best_ms / default_ms);
    else if (default_failed) ++out.default_failed_shapes;
    if (shape.vendor_ms > 0) {
      se.vendor_pct_of_oracle = 100.0 * (se.measured_best_ms / shape.vendor_ms);
      se.vendor_kernel = shape.vendor_kernel;
    }
    pcts.push_back(se.pct_of_oracle);
    errs.push_back(se.top1_abs_err_pct);
    if (!std::isnan(se.spearman)) rhos.push_back(se.spearman);
    if (se.default_pct_of_oracle) default_pcts.push_back(*se.default_pct_of_oracle);
    if (se.vendor_pct_of_oracle) vendor_pcts.push_back(*se.vendor_pct_of_oracle);
    if (se.best_rank) {
      hit1 += *se.best_rank <= 1;
      hit5 += *se.best_rank <= 5;
      hit10 += *se.best_rank <= 10;
      hitk += *se.best_rank <= top_k;
    }
    out.infeasible_but_ran += se.infeasible_but_ran.size();
    out.shapes.push_back(std::move(se));
  }
  const double n = static_cast<double>(out.shapes.size());
  if (n == 0) return out;
  out.geomean_pct_of_oracle = geomean(pcts);
  out.worst_pct_of_oracle = *std::min_element(pcts.begin(), pcts.end());
  out.top1_hit_rate = static_cast<double>(hit1) / n;
  out.top5_hit_rate = static_cast<double>(hit5) / n;
  out.top10_hit_rate = static_cast<double>(hit10) / n;
  out.top_k_hit_rate = static_cast<double>(hitk) / n;
  out.top_k_geomean_pct_of_oracle = geomean(topk_pcts);
  out.top_k_distinct_geomean_pct_of_oracle = geomean(topk_distinct_pcts);
  if (!rhos.empty()) out.spearman = std::accumulate(rhos.begin(), rhos.end(), 0.0) / static_cast<double>(rhos.size());
  out.median_abs_err_pct = percentile(errs, 0.5);
  out.p90_abs_err_pct = percentile(errs, 0.9);
  out.default_measured_shapes = default_pcts.size();
  if (!default_pcts.empty()) {
    out.default_geomean_pct_of_oracle = geomean(default_pcts);
    out.default_worst_pct_of_oracle = *std::min_element(default_pcts.begin(), default_pcts.end());
  }
  out.vendor_measured_shapes = vendor_pcts.size();
  if (!vendor_pcts.empty()) out.vendor_geomean_pct_of_oracle = geomean(vendor_pcts);
  return out;
}

nlohmann::json evaluation_json(const Evaluation& e, const Profile& profile, const Target& target) {
  const Hardware& hw = profile.hw;
  auto cfg = [](const TileConfig& c) { return c.text(); };
  // No shape scored: no figure (null, as the default's and vendor's figures without rows), not 0%.
  auto scored = [&](double v) { return e.shapes.empty() ? nlohmann::json(nullptr) : nlohmann::json(v); };
  nlohmann::json unscored = nlohmann::json::array();
  for (const GemmProblem& p : e.unscored) unscored.push_back(unscored_text(p));
  nlohmann::json shapes = nlohmann::json::array();
  std::size_t outside = 0;  // shapes outside the sizes a calibrated overlay was fitted on
  for (const auto& s : e.shapes) {
    nlohmann::json infeasible = nlohmann::json::array();
    for (const auto& mc : s.infeasible_but_ran) infeasible.push_back({{"config", mc.config.text()}, {"ms", mc.ms}, {"line", mc.line}});
    shapes.push_back({
        {"m", s.problem.m}, {"n", s.problem.n}, {"k", s.problem.k}, {"batch", s.problem.batch},
        {"dtype", dtype_name(s.problem.dtype)}, {"layout", s.problem.layout.name()},
        {"family", s.family}, {"name", s.name},
        {"measured_configs", s.measured},
        {"advisor_top1", cfg(s.advisor_top1)}, {"advisor_top1_ms", s.advisor_top1_ms},
        {"predicted_top1_ms", s.predicted_top1_ms},
        {"measured_best", cfg(s.measured_best)}, {"measured_best_ms", s.measured_best_ms},
        {"pct_of_oracle", s.pct_of_oracle},
        {"best_rank", s.best_rank ? nlohmann::json(*s.best_rank) : nlohmann::json(nullptr)},
        {"spearman", s.spearman}, {"top1_abs_err_pct", s.top1_abs_err_pct},
        {"default_pct_of_oracle", s.default_pct_of_oracle ? nlohmann::json(*s.default_pct_of_oracle) : nlohmann::json(nullptr)},
        {"vendor_pct_of_oracle", s.vendor_pct_of_oracle ? nlohmann::json(*s.vendor_pct_of_oracle) : nlohmann::json(nullptr)},
        {"infeasible_but_ran", infeasible},
        {"failed_rows", s.failed_rows}, {"failed_rows_model_infeasible", s.failed_rows_model_infeasible},
        {"top_k_pct_of_oracle", s.top_k_pct_of_oracle},
        {"top_k_distinct_pct_of_oracle", s.top_k_distinct_pct_of_oracle},
        {"failed_pick", s.failed_pick ? nlohmann::json{{"config", s.failed_pick->config.text()},
                                                       {"status", s.failed_pick->status},
                                                       {"line", s.failed_pick->line},
                                                       {"file", s.failed_pick->source ? nlohmann::json(*s.failed_pick->source)
                                                                                      : nlohmann::json()}}
                                      : nlohmann::json(nullptr)},
    });
    // Scores of shapes the overlay's parameters were not fitted on test its extrapolation (each
    // with the warning's text, as rank's JSON has it).
    add_fitted_shapes_note(shapes.back(), profile, target, s.problem);
    outside += shapes.back().contains("outside_fitted_shapes");
  }
  return {
      {"hardware", hw.name},
      {"cu_count", hw.cu_count},  // a --cu-count partition's scores are told from the whole GPU's
      {"profile", profile_source_text(hw)},
      {"profile_digest", hw.source_digest},
      {"target", target.name()},
      {"generator", generator_json()},
      {"aggregate",
       {{"shapes", e.shapes.size()},
        {"unscored_shapes", unscored},
        {"geomean_pct_of_oracle", scored(e.geomean_pct_of_oracle)},
        {"worst_pct_of_oracle", scored(e.worst_pct_of_oracle)},
        {"top1_hit_rate", scored(e.top1_hit_rate)},
        {"top5_hit_rate", scored(e.top5_hit_rate)},
        {"top10_hit_rate", scored(e.top10_hit_rate)},
        {"top_k", e.top_k},
        {"top_k_hit_rate", scored(e.top_k_hit_rate)},
        {"top_k_geomean_pct_of_oracle", scored(e.top_k_geomean_pct_of_oracle)},
        {"top_k_distinct_geomean_pct_of_oracle", scored(e.top_k_distinct_geomean_pct_of_oracle)},
        {"spearman", e.spearman},
        {"median_abs_err_pct", scored(e.median_abs_err_pct)},
        {"p90_abs_err_pct", scored(e.p90_abs_err_pct)},
        {"default_config", target.name() == "vllm-fused-moe" ? std::string("vLLM get_default_config (per M)")
                                                             : target.default_config(GemmProblem{}).text()},
        {"default_geomean_pct_of_oracle",
         e.default_measured_shapes ? nlohmann::json(e.default_geomean_pct_of_oracle) : nlohmann::json(nullptr)},
        {"default_worst_pct_of_oracle",
         e.default_measured_shapes ? nlohmann::json(e.default_worst_pct_of_oracle) : nlohmann::json(nullptr)},
        {"default_measured_shapes", e.default_measured_shapes},
        {"default_failed_shapes", e.default_failed_shapes},
        // null, not 0, where no shape has a vendor row (likewise the default's figures)
        {"vendor_geomean_pct_of_oracle",
         e.vendor_measured_shapes ? nlohmann::json(e.vendor_geomean_pct_of_oracle) : nlohmann::json(nullptr)},
        {"vendor_measured_shapes", e.vendor_measured_shapes},
        {"infeasible_but_ran", e.infeasible_but_ran},
        {"failed_picks", e.failed_picks},
        // null for a profile that records no fitted sizes (a shipped one): nothing to be outside of
        {"outside_fitted_shapes", profile.fitted_shapes.empty() ? nlohmann::json(nullptr) : nlohmann::json(outside)}}},
      {"shapes", shapes},
  };
}

}  // namespace gemm_advisor
