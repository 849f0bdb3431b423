#include "gemm_advisor/calibrate.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include "gemm_advisor/error.hpp"
#include "gemm_advisor/evaluate.hpp"
#include "gemm_advisor/ranker.hpp"

namespace gemm_advisor {

namespace {

// The objective's weights (calibrate.hpp): the worst shape counts a quarter, and the median top-1
// time error only beyond a tolerance, in points per percent.
constexpr double kWorstWeight = 0.25;
constexpr double kErrorTolerancePct = 15.0;
constexpr double kErrorWeight = 1.0;
// How many distinct tiles a shortlist has (PickScore::top5_pct_of_oracle), and how deep into the
// ranking calibrate looks for them.
constexpr std::size_t kShortlist = 5;
constexpr std::size_t kShortlistSearch = 200;
// Coordinate-descent steps: multiplicative for scales, additive for fractions.
constexpr double kScaleSteps[] = {0.25, 0.5, 0.7, 0.85, 1.18, 1.4, 2.0, 4.0};
constexpr double kFractionSteps[] = {-0.5, -0.3, -0.15, -0.05, 0.05, 0.15, 0.3, 0.5};
// A fitted value is written with this many significant digits (and scored as written).
constexpr int kWrittenDigits = 4;

// One shape's valid measurements: each config once, at its fastest time.
struct Measured {
  const MeasuredShape* shape;
  std::vector<TileConfig> configs;
  std::vector<double> ms;
  double best_ms = 0;
};

std::vector<Measured> valid_measurements(const std::vector<MeasuredShape>& shapes) {
  std::vector<Measured> out;
  for (const MeasuredShape& s : shapes) {
    Measured m{&s, {}, {}, 0};
    std::map<TileConfig, double> fastest;
    for (const MeasuredConfig& mc : s.configs) {
      if (mc.status != "ok" || !(mc.ms > 0)) continue;
      auto [it, fresh] = fastest.emplace(mc.config, mc.ms);
      if (!fresh) it->second = std::min(it->second, mc.ms);
    }
    if (fastest.empty()) continue;
    for (const auto& [c, ms] : fastest) {
      m.configs.push_back(c);
      m.ms.push_back(ms);
    }
    m.best_ms = *std::min_element(m.ms.begin(), m.ms.end());
    out.push_back(std::move(m));
  }
  return out;
}

double measured_ms_of(const Measured& m, const TileConfig& c) {
  const auto it = std::lower_bound(m.configs.begin(), m.configs.end(), c);
  return it != m.configs.end() && *it == c ? m.ms[static_cast<std::size_t>(it - m.configs.begin())] : 0.0;
}

// One shape's scores: % of oracle of the top-1, of the best of the top kShortlist distinct tiles, and
// the top-1's time error.
struct ShapeScore {
  double pct = 0, shortlist_pct = 0, err_pct = 0;
};

PickScore aggregate(const std::vector<ShapeScore>& scores) {
  PickScore s;
  s.shapes = scores.size();
  if (scores.empty()) return s;
  std::vector<double> pcts, top5, errs;
  for (const ShapeScore& x : scores) {
    pcts.push_back(x.pct);
    top5.push_back(x.shortlist_pct);
    errs.push_back(x.err_pct);
  }
  s.geomean_pct_of_oracle = geomean(pcts);
  s.worst_pct_of_oracle = *std::min_element(pcts.begin(), pcts.end());
  s.top5_pct_of_oracle = geomean(top5);
  s.median_abs_err_pct = percentile(errs, 0.5);
  s.objective = s.geomean_pct_of_oracle + kWorstWeight * s.worst_pct_of_oracle -
                kErrorWeight * std::max(0.0, s.median_abs_err_pct - kErrorTolerancePct);
  return s;
}

// One shape's score under `params` (shape_scores'); `ranked` is scratch.
ShapeScore shape_score(const Measured& m, const Profile& profile, const Target& target, std::string_view variant,
                       const ModelParams& params, std::vector<RankedConfig>& ranked) {
  const GemmProblem& p = m.shape->problem;
  const EstimateContext ctx = make_estimate_context(
      p, profile, target.param_variant(p) == variant ? params : target.problem_params(p, profile));
  rank_configs(target, ctx, m.configs, ranked, kShortlistSearch);
  // The model rejects every config that ran: the worst possible pick.
  if (ranked.empty() || !ranked.front().estimate.feasible) return {1e-9, 1e-9, 100.0};
  const double top1_ms = measured_ms_of(m, ranked.front().config);
  // The shortlist an autotuner would get, as `evaluate --top-k` and `rank --distinct --top 5` have
  // it: the first kShortlist distinct tiles (block sizes and split), each at its best-ranked warps
  // and stages, then, where fewer tiles were measured, the next configs in rank order.
  double shortlist_ms = top1_ms;
  distinct_tiles_first(ranked, kShortlist);
  for (const RankedConfig& r : ranked) {
    if (r.estimate.feasible) shortlist_ms = std::min(shortlist_ms, measured_ms_of(m, r.config));
  }
  return {100.0 * (m.best_ms / top1_ms), 100.0 * (m.best_ms / shortlist_ms),
          100.0 * std::abs(ranked.front().estimate.latency_s * 1e3 - top1_ms) / top1_ms};
}

// `params` are those of the parameter set being fitted, `variant` (Target::param_variant); a shape of
// another variant is scored with its own values on the profile. Each shape on its own (TBB's
// threads, as many as the caller allows: calibrate --jobs), into its own slot, so the scores, summed
// in shape order by aggregate(), are the same on any number of threads (a serial loop took 255 s on
// 4,200 shapes: a fresh user's find, 2026-12-05).
std::vector<ShapeScore> shape_scores(const std::vector<const Measured*>& shapes, const Profile& profile,
                                     const Target& target, std::string_view variant, const ModelParams& params) {
  std::vector<ShapeScore> out(shapes.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, shapes.size()), [&](const tbb::blocked_range<std::size_t>& range) {
    std::vector<RankedConfig> ranked;
    for (std::size_t i = range.begin(); i != range.end(); ++i)
      out[i] = shape_score(*shapes[i], profile, target, variant, params, ranked);
  });
  return out;
}

PickScore score(const std::vector<const Measured*>& shapes, const Profile& profile, const Target& target,
                std::string_view variant, const ModelParams& params) {
  return aggregate(shape_scores(shapes, profile, target, variant, params));
}

double rounded(double v) {
  if (v == 0 || !std::isfinite(v)) return v;
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", kWrittenDigits, v);
  return std::strtod(text, nullptr);
}

// Candidate values of one parameter around `v`, inside the registry's range, each as it would be
// written.
std::vector<double> candidates_around(const ModelParamInfo& info, double v) {
  std::vector<double> out;
  auto add = [&](double x) {
    x = rounded(std::clamp(x, info.min_value, info.max_value));
    if (x != v && std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  };
  if (info.unit == "fraction") {
    for (double d : kFractionSteps) add(v + d);
  } else if (v == 0) {
    for (double f : {1e-4, 1e-3, 1e-2}) add(info.min_value + f * (info.max_value - info.min_value));
  } else {
    for (double f : kScaleSteps) add(v * f);
  }
  return out;
}

ModelParams fit(const std::vector<const Measured*>& shapes, const Profile& profile, const Target& target,
                std::string_view variant, ModelParams start, const CalibrationOptions& o) {
  ModelParams best = start;
  double best_objective = score(shapes, profile, target, variant, best).objective;
  for (std::size_t pass = 0; pass < o.passes; ++pass) {
    bool improved = false;
    for (const ModelParamInfo* info : o.params) {
      const double current = best.*(info->field);
      for (double v : candidates_around(*info, current)) {
        ModelParams trial = best;
        trial.*(info->field) = v;
        const double objective = score(shapes, profile, target, variant, trial).objective;
        if (objective > best_objective + 1e-9) {
          best_objective = objective;
          best = trial;
          improved = true;
        }
      }
    }
    if (!improved) break;
  }
  return best;
}

}  // namespace

std::string_view fitted_variant(const std::vector<MeasuredShape>& shapes, const Target& target) {
  if (shapes.empty()) return {};
  const std::string_view first = target.param_variant(shapes.front().problem);
  for (const MeasuredShape& s : shapes) {
    if (target.param_variant(s.problem) != first) return {};
  }
  return first;
}

std::vector<const ModelParamInfo*> default_fit_parameters() {
  std::vector<const ModelParamInfo*> out;
  for (const ModelParamInfo& p : kModelParamRegistry) {
    // Measured (the split-K reduction's launch and wait a split) or assumed (register overhead): not
    // the fit's to move (ModelParamInfo::fit_by_default).
    if (!p.fit_by_default) continue;
    out.push_back(&p);
  }
  return out;
}

PickScore score_picks(const std::vector<MeasuredShape>& shapes, const Profile& profile, const Target& target,
                      const ModelParams& params) {
  const std::vector<Measured> valid = valid_measurements(shapes);
  std::vector<const Measured*> all;
  for (const Measured& m : valid) all.push_back(&m);
  return score(all, profile, target, fitted_variant(shapes, target), params);
}

// A shape's family as the report names it: its own, or, untagged, the problem itself (shape, dtype
// and layout: 4096x4096x4096 NN and NT are two problems; the count took them as one family while the
// folds kept them apart, a fresh user's find, 2026-12-04).
namespace {
std::string family_name(const MeasuredShape& s) {
  if (!s.family.empty()) return s.family;
  return s.problem.shape_text() + " " + std::string(dtype_name(s.problem.dtype)) + " " + s.problem.layout.name();
}
}  // namespace

std::vector<std::vector<std::size_t>> family_groups(const std::vector<MeasuredShape>& shapes) {
  // A shape's group is its family; families that measured the same problem (Llama-3-70B's and
  // Qwen2.5-72B's qkv are both 8x10240x8192) are one group, so that no held-out shape was also
  // trained on. Groups in order of first appearance, then the largest first.
  auto family_of = [&](std::size_t i) {
    const GemmProblem& p = shapes[i].problem;
    return shapes[i].family.empty()
               ? "shape:" + p.shape_text() + ":" + std::string(dtype_name(p.dtype)) + ":" + p.layout.name()
               : shapes[i].family;
  };
  std::map<std::string, std::string> parent;
  std::function<std::string(const std::string&)> root = [&](const std::string& f) -> std::string {
    auto it = parent.find(f);
    if (it == parent.end() || it->second == f) return f;
    return it->second = root(it->second);
  };
  std::map<std::string, std::string> problem_family;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const std::string f = family_of(i);
    parent.emplace(f, f);
    const GemmProblem& p = shapes[i].problem;
    const std::string key = p.shape_text() + ":" + std::string(dtype_name(p.dtype)) + ":" + p.layout.name();
    auto [it, fresh] = problem_family.emplace(key, f);
    if (!fresh) {
      const std::string a = root(it->second), b = root(f);
      if (a != b) parent[b] = a;
    }
  }
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::size_t>> members;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const std::string group = root(family_of(i));
    auto [it, fresh] = members.emplace(group, std::vector<std::size_t>{});
    if (fresh) order.push_back(group);
    it->second.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](const std::string& a, const std::string& b) { return members[a].size() > members[b].size(); });
  std::vector<std::vector<std::size_t>> groups;
  groups.reserve(order.size());
  for (const std::string& group : order) groups.push_back(std::move(members[group]));
  return groups;
}

std::vector<std::vector<std::size_t>> family_folds(const std::vector<MeasuredShape>& shapes, std::size_t folds) {
  // The groups, the largest first into the fold with the fewest shapes.
  std::vector<std::vector<std::size_t>> out(folds);
  for (const std::vector<std::size_t>& group : family_groups(shapes)) {
    auto smallest = std::min_element(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.size() < b.size(); });
    smallest->insert(smallest->end(), group.begin(), group.end());
  }
  for (auto& fold : out) std::sort(fold.begin(), fold.end());
  return out;
}

namespace {

// The range of `a` and `b` together: each size's least and largest of either, the dtypes and layouts
// of either, sorted as the reader keeps them (Dtype order, by name).
FittedShapeRange united(FittedShapeRange a, const FittedShapeRange& b) {
  a.m_min = std::min(a.m_min, b.m_min), a.m_max = std::max(a.m_max, b.m_max);
  a.n_min = std::min(a.n_min, b.n_min), a.n_max = std::max(a.n_max, b.n_max);
  a.k_min = std::min(a.k_min, b.k_min), a.k_max = std::max(a.k_max, b.k_max);
  a.batch_min = std::min(a.batch_min, b.batch_min), a.batch_max = std::max(a.batch_max, b.batch_max);
  const auto add = [](auto& to, const auto& from) {
    for (const auto& v : from)
      if (std::find(to.begin(), to.end(), v) == to.end()) to.push_back(v);
    std::sort(to.begin(), to.end());
  };
  add(a.dtypes, b.dtypes);
  add(a.layouts, b.layouts);
  return a;
}

// What both of an earlier fit's range `a` and this fit's `b` saw: each size's greater least and smaller
// largest, the dtypes and layouts in both (where `a` records none, b's: an overlay written before
// they were recorded); nullopt where that leaves nothing.
std::optional<FittedShapeRange> intersection(const FittedShapeRange& a, const FittedShapeRange& b) {
  FittedShapeRange both = b;
  both.m_min = std::max(a.m_min, b.m_min), both.m_max = std::min(a.m_max, b.m_max);
  both.n_min = std::max(a.n_min, b.n_min), both.n_max = std::min(a.n_max, b.n_max);
  both.k_min = std::max(a.k_min, b.k_min), both.k_max = std::min(a.k_max, b.k_max);
  if (a.batch_max > 0) both.batch_min = std::max(a.batch_min, b.batch_min), both.batch_max = std::min(a.batch_max, b.batch_max);
  const auto keep_in = [](auto& kept, const auto& earlier) {
    if (earlier.empty()) return;
    kept.erase(std::remove_if(kept.begin(), kept.end(),
                              [&](const auto& v) { return std::find(earlier.begin(), earlier.end(), v) == earlier.end(); }),
               kept.end());
  };
  keep_in(both.dtypes, a.dtypes);
  keep_in(both.layouts, a.layouts);
  if (both.m_min > both.m_max || both.n_min > both.n_max || both.k_min > both.k_max || both.batch_min > both.batch_max ||
      both.dtypes.empty() || both.layouts.empty())
    return std::nullopt;
  return both;
}

}  // namespace

Calibration calibrate(const std::vector<MeasuredShape>& shapes, const Profile& profile, const Target& target,
                      const CalibrationOptions& options) {
  CalibrationOptions o = options;
  if (o.params.empty()) o.params = default_fit_parameters();
  if (o.folds < 2) throw InputError("calibrate: --folds must be at least 2, got " + std::to_string(o.folds));
  // A null entry (find_model_param's answer for an unknown name) crashed the fit: said (a fresh library
  // consumer's find, 2026-12-05).
  if (std::find(o.params.begin(), o.params.end(), nullptr) != o.params.end())
    throw InputError("calibrate: a parameter to fit is null (find_model_param returns null for an unknown name)");
  // Only shapes with a valid time count, and their families.
  // ... and of those, the shapes where the start values call some timed config feasible: where they
  // call every one infeasible there is no pick to score (Calibration::left_out; evaluate leaves them
  // out the same way), and a fit scoring them as 0% would chase that, not the ranking.
  const std::string_view start_variant = fitted_variant(shapes, target);
  const ModelParams start_params = profile.params_for(Target::param_key(target.name(), std::string(start_variant)),
                                                      target.variant_default_params(std::string(start_variant)));
  std::vector<MeasuredShape> usable;
  std::vector<std::string> left_out;
  for (const MeasuredShape& s : shapes) {
    if (!std::any_of(s.configs.begin(), s.configs.end(), [](const MeasuredConfig& c) { return c.status == "ok"; }))
      continue;
    const EstimateContext ctx = make_estimate_context(
        s.problem, profile,
        target.param_variant(s.problem) == start_variant ? start_params : target.problem_params(s.problem, profile));
    if (std::none_of(s.configs.begin(), s.configs.end(), [&](const MeasuredConfig& c) {
          return c.status == "ok" && target.estimate(ctx, c.config).feasible;
        })) {
      left_out.push_back(unscored_text(s.problem));
      continue;
    }
    usable.push_back(s);
  }
  std::set<std::string> families;
  for (const MeasuredShape& s : usable) families.insert(family_name(s));
  // Families that measured a problem in common are held out together (family_groups): the folds
  // deal out those groups, and the checks below count them (four equal families timing the same
  // shapes were one group, and the error blamed their sizes: a fresh user's find, 2026-12-07).
  const std::size_t groups = family_groups(usable).size();
  const std::string merged =
      groups < families.size()
          ? " (families that timed the same problem are held out together: " + std::to_string(families.size()) +
                " families make " + std::to_string(groups) + " such group" + (groups == 1 ? "" : "s") + ")"
          : std::string();
  if (usable.size() < 2 * o.folds)
    throw InputError("calibrate: " + std::to_string(usable.size()) +
                     (usable.size() == 1 ? " measured shape is" : " measured shapes are") + " too few for " +
                     std::to_string(o.folds) + " folds (need at least " + std::to_string(2 * o.folds) + ")" +
                     (left_out.empty() ? std::string()
                                       : "; " + std::to_string(left_out.size()) +
                                             " more left out: the model calls every config timed for them infeasible"));
  // Advice that can be taken: fewer folds only down to 2, and a family column already there is
  // refined or dropped, not added (a fresh user's find, 2026-12-04).
  // The most folds these shapes and families allow, each fold two shapes or more (the advice said
  // "fewer, 2 at least" where 4 of 5 worked: a fresh H100 user's find, 2026-12-05); 0: none.
  const auto most_folds = [&]() -> std::size_t {
    for (std::size_t f = o.folds - 1; f >= 2; --f) {
      if (groups < f || usable.size() < 2 * f) continue;
      const std::vector<std::vector<std::size_t>> members = family_folds(usable, f);
      if (std::all_of(members.begin(), members.end(), [](const auto& m) { return m.size() >= 2; })) return f;
    }
    return 0;
  };
  // Built only for an error: most_folds splits the shapes into folds once per fold count tried.
  const auto way_out = [&]() -> std::string {
    const std::size_t fewer = o.folds > 2 ? most_folds() : 0;
    if (fewer > 0) return "give --folds " + std::to_string(fewer) + " (the most these families allow), or measure more families";
    return groups < families.size()
               ? "measure shapes of more families, each family its own problems (a problem timed in two families "
                 "joins them)"
               : "measure shapes of more families, or split the family column's values (a column left out makes "
                 "each shape a family of its own)";
  };
  if (groups < o.folds)
    throw InputError("calibrate: " + std::to_string(groups) + " shape famil" + (groups == 1 ? "y is" : "ies are") +
                     " fewer than the " + std::to_string(o.folds) + " folds" + merged + ": " + way_out());

  // Each fold holds at least two shapes: families of very unequal sizes can leave one shape in a
  // fold, and the others' fit on very few (7, 1 and 1 shapes in 3 folds fitted one fold on 2: a fresh
  // user's find; the README's rule was not checked).
  const std::vector<std::vector<std::size_t>> fold_members = family_folds(usable, o.folds);
  for (std::size_t f = 0; f < fold_members.size(); ++f) {
    if (fold_members[f].size() >= 2) continue;
    std::set<std::string> names;
    for (std::size_t i : fold_members[f]) names.insert(family_name(usable[i]));
    std::string listed;
    for (const std::string& n : names) listed += (listed.empty() ? "" : ", ") + n;
    throw InputError("calibrate: fold " + std::to_string(f + 1) + " of " + std::to_string(o.folds) + " holds " +
                     std::to_string(fold_members[f].size()) + " measured shape" +
                     (fold_members[f].size() == 1 ? "" : "s") + (listed.empty() ? "" : " (" + listed + ")") +
                     ": each fold needs at least two (the families' sizes are too unequal for " +
                     std::to_string(o.folds) + " folds" + merged + ": " + way_out() + ")");
  }

  Calibration c;
  c.left_out = std::move(left_out);
  c.shapes = usable.size();
  c.families = families.size();
  c.variant = std::string(fitted_variant(usable, target));
  // The sizes the fitted parameters saw: the shapes that run with the fitted set (with mixed sets,
  // the target's own set is fitted and only the shapes of it use the values).
  bool first_range = true;
  for (const MeasuredShape& s : usable) {
    if (target.param_variant(s.problem) != c.variant) continue;
    const FittedShapeRange p = fitted_sizes(s.problem);  // a fused-MoE launch as its layer
    c.fitted_range = first_range ? p : united(c.fitted_range, p);
    first_range = false;
  }
  for (const ModelParamInfo* info : o.params) c.fitted_names.emplace_back(info->name);
  // A fit of some of a section's parameters (--params) on an overlay whose others were fitted on other
  // shapes: the sizes both fits saw, the intersection (the range was this fit's alone, though most of
  // the values were fitted elsewhere: a fresh user's find, 2026-12-07); where they do not overlap,
  // this fit's, said in range_note.
  const std::string section = Target::param_key(target.name(), c.variant);
  if (const auto prev = profile.fitted_shapes.find(section); prev != profile.fitted_shapes.end() && !first_range) {
    std::vector<std::string> kept;
    if (const auto values = profile.target_model.find(section); values != profile.target_model.end())
      for (const auto& [info, value] : values->second)
        if (std::find(c.fitted_names.begin(), c.fitted_names.end(), info->name) == c.fitted_names.end())
          kept.emplace_back(info->name);
    if (!kept.empty()) {
      std::string names;
      for (const std::string& n : kept) names += (names.empty() ? "" : ", ") + n;
      if (const std::optional<FittedShapeRange> both = intersection(prev->second, c.fitted_range)) {
        c.fitted_range = *both;
        c.range_note = "the shapes both this fit and the earlier fit of the parameters it leaves as they were (" +
                       names + ") saw: their intersection";
      } else {
        c.range_disjoint = true;
        c.range_note = "the parameters not refitted (" + names +
                       ") were fitted on other shapes (sizes, batch, dtypes or layouts), which these do not "
                       "overlap: the recorded shapes are this fit's, and those values are extrapolated there";
      }
    }
  }
  c.start = profile.params_for(section, target.variant_default_params(c.variant));
  const std::vector<Measured> valid = valid_measurements(usable);
  std::map<const MeasuredShape*, const Measured*> by_shape;
  for (const Measured& m : valid) by_shape[m.shape] = &m;
  std::vector<const Measured*> all;
  for (const Measured& m : valid) all.push_back(&m);

  std::vector<ShapeScore> held_before, held_after;
  for (const std::vector<std::size_t>& fold : fold_members) {
    std::vector<const Measured*> held, train;
    std::set<std::size_t> in_fold(fold.begin(), fold.end());
    FoldResult r;
    std::set<std::string> fold_families;
    for (std::size_t i = 0; i < usable.size(); ++i) {
      const Measured* m = by_shape.count(&usable[i]) ? by_shape[&usable[i]] : nullptr;
      if (!m) continue;
      if (in_fold.count(i)) {
        held.push_back(m);
        fold_families.insert(family_name(usable[i]));
      } else {
        train.push_back(m);
      }
    }
    r.families.assign(fold_families.begin(), fold_families.end());
    const std::vector<ShapeScore> before = shape_scores(held, profile, target, c.variant, c.start);
    const ModelParams fold_fit = fit(train, profile, target, c.variant, c.start, o);
    const std::vector<ShapeScore> after = shape_scores(held, profile, target, c.variant, fold_fit);
    held_before.insert(held_before.end(), before.begin(), before.end());
    held_after.insert(held_after.end(), after.begin(), after.end());
    r.before = aggregate(before);
    r.after = aggregate(after);
    c.folds.push_back(std::move(r));
    if (o.progress) o.progress(c.folds.size(), fold_members.size() + 1);
  }
  c.held_out_before = aggregate(held_before);
  c.held_out_after = aggregate(held_after);
  c.fitted = fit(all, profile, target, c.variant, c.start, o);
  if (o.progress) o.progress(fold_members.size() + 1, fold_members.size() + 1);
  c.all_before = score(all, profile, target, c.variant, c.start);
  c.all_after = score(all, profile, target, c.variant, c.fitted);
  return c;
}

std::string calibrated_profile_yaml(const std::string& profile_yaml, const Profile& profile, const Target& target,
                                    const Calibration& c, const std::vector<std::string>& provenance,
                                    std::string* kept_digest_note) {
  YAML::Node root = YAML::Load(profile_yaml);
  const Profile as_written = parse_profile(profile_yaml, profile.hw.source);
  // The figures this fit saw, recorded so that a later hand edit of them is said where the file is
  // read. Where the start's own record says its figures were edited after an earlier fit, and this
  // fit leaves some of that fit's parameters as they were, those were fitted on the earlier figures:
  // the earlier record stays (the file keeps warning), and *kept_digest_note says which.
  std::string digest = as_written.hardware_digest;
  if (const YAML::Node old = root["calibration"]["hardware_digest"];
      old && old.IsScalar() && old.Scalar() != as_written.hardware_digest) {
    std::vector<std::string> carried;  // SECTION.NAME of the file's parameters this fit does not refit
    const auto refitted = [&](const std::string& name) {
      return std::find(c.fitted_names.begin(), c.fitted_names.end(), name) != c.fitted_names.end();
    };
    const auto collect = [&](const YAML::Node& params, const std::string& section, bool this_section) {
      if (!params.IsMap()) return;
      for (const auto& kv : params)
        if (kv.first.IsScalar() && !(this_section && refitted(kv.first.Scalar())))
          carried.push_back(section + "." + kv.first.Scalar());
    };
    collect(root["model_parameters"], "model_parameters", false);
    if (const YAML::Node targets = root["targets"]; targets.IsMap()) {
      for (const auto& t : targets) {
        if (!t.first.IsScalar() || !t.second.IsMap()) continue;
        const std::string name = t.first.Scalar();
        for (const auto& section : t.second) {
          if (!section.first.IsScalar()) continue;
          const std::string key = section.first.Scalar();
          if (key == "model_parameters")
            collect(section.second, name, name == target.name() && c.variant.empty());
          else if (section.second.IsMap())
            collect(section.second["model_parameters"], name + "." + key, name == target.name() && key == c.variant);
        }
      }
    }
    if (!carried.empty()) {
      digest = old.Scalar();
      if (kept_digest_note)
        *kept_digest_note = "the start's model parameters this fit does not refit (" + std::to_string(carried.size()) +
                            ", first " + carried.front() +
                            ") were fitted on its figures before they were edited (its calibration.hardware_digest): "
                            "the file keeps that digest and warns when loaded; refit them too (--params) to clear it";
    }
  }
  if (profile.hw.cu_count != as_written.hw.cu_count) {
    root["compute"]["active_cu_count"] = profile.hw.cu_count;
    root["sources"]["compute.active_cu_count"] = "given to gemm-advisor calibrate (--cu-count): the partition measured";
  }
  if (profile.triton.max_split_k != as_written.triton.max_split_k) {
    root["triton"]["max_split_k"] = profile.triton.max_split_k;
    root["sources"]["triton.max_split_k"] = "given to gemm-advisor calibrate (--max-split-k)";
  }
  YAML::Node section = root["targets"][std::string(target.name())];
  YAML::Node params = c.variant.empty() ? section["model_parameters"] : section[c.variant]["model_parameters"];
  for (const ModelParamInfo& info : kModelParamRegistry) {
    const double v = c.fitted.*(info.field);
    // A fitted parameter is written even where the fit kept its start: a file that left it out
    // followed whatever a later binary ships as the target's default (a fresh user's find, 2026-12-06).
    const bool fitted = std::find(c.fitted_names.begin(), c.fitted_names.end(), info.name) != c.fitted_names.end();
    if (v == c.start.*(info.field) && !fitted) continue;
    char text[64];
    std::snprintf(text, sizeof text, "%.*g", kWrittenDigits, v);  // as rounded() scored it
    params[std::string(info.name)] = std::string(text);
  }
  YAML::Node cal = root["calibration"];
  // A fit on top of an earlier overlay keeps the earlier targets' names: `target` is the last fit's,
  // `targets` every target fitted into the file, in order (target alone named only the last, while
  // `targets:` held both: a fresh user's find, 2026-12-04).
  std::vector<std::string> fitted_targets;
  if (cal["targets"] && cal["targets"].IsSequence()) {
    for (const YAML::Node& t : cal["targets"])
      if (t.IsScalar()) fitted_targets.push_back(t.as<std::string>());
  } else if (cal["target"] && cal["target"].IsScalar()) {
    fitted_targets.push_back(cal["target"].as<std::string>());
  }
  if (std::find(fitted_targets.begin(), fitted_targets.end(), target.name()) == fitted_targets.end())
    fitted_targets.emplace_back(target.name());
  cal["target"] = std::string(target.name());
  if (fitted_targets.size() > 1) cal["targets"] = fitted_targets;
  if (!c.variant.empty()) cal["parameter_set"] = c.variant;
  // The sizes the fit saw, for the section fitted (a later fit of it replaces them), in flow style.
  if (c.fitted_range.m_min > 0) {
    const FittedShapeRange& r = c.fitted_range;
    YAML::Node range;
    for (auto [key, lo, hi] : {std::tuple{"m", r.m_min, r.m_max}, std::tuple{"n", r.n_min, r.n_max},
                               std::tuple{"k", r.k_min, r.k_max}, std::tuple{"batch", r.batch_min, r.batch_max}}) {
      YAML::Node bounds;
      bounds.push_back(lo);
      bounds.push_back(hi);
      bounds.SetStyle(YAML::EmitterStyle::Flow);
      range[key] = bounds;
    }
    YAML::Node names;
    for (const Dtype d : r.dtypes) names.push_back(std::string(dtype_name(d)));  // sorted by calibrate
    names.SetStyle(YAML::EmitterStyle::Flow);
    if (!r.dtypes.empty()) range["dtypes"] = names;
    YAML::Node layouts;
    for (const std::string& l : r.layouts) layouts.push_back(l);  // sorted by calibrate
    layouts.SetStyle(YAML::EmitterStyle::Flow);
    if (!r.layouts.empty()) range["layouts"] = layouts;
    cal["fitted_shapes"][Target::param_key(target.name(), c.variant)] = range;
  }
  YAML::Node lines = cal["provenance"];
  for (const std::string& line : provenance) lines.push_back(line);
  cal["hardware_digest"] = digest;
  YAML::Emitter out;
  out << root;
  return std::string(out.c_str()) + "\n";
}

}  // namespace gemm_advisor
