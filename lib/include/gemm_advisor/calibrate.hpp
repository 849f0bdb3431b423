#pragma once
/// `calibrate`: fits a target's free model parameters (model_params.hpp) to measured configs of a
/// user's own kernel and GPU, and reports held-out figures: the shapes are split into K folds by
/// family (a family's shapes all in one fold), each fold scored with parameters fitted on the others.
///
/// The search is coordinate descent: each parameter in turn takes the best of a few values around
/// its current one (multiplicative steps for scales, additive for fractions, inside the registry's
/// range), for a fixed number of passes. The objective is what a user of the advisor wants of a
/// pick, on the training shapes: geomean % of oracle + 1/4 of the worst shape's, less the median
/// top-1 time error beyond 15% (so that the predicted times stay meaningful too).
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "gemm_advisor/measurements.hpp"
#include "gemm_advisor/model_params.hpp"
#include "gemm_advisor/profile.hpp"
#include "gemm_advisor/target.hpp"

namespace gemm_advisor {

/// How the advisor's picks score on a set of measured shapes (each ranks exactly its measured configs).
struct PickScore {
  std::size_t shapes = 0;
  double geomean_pct_of_oracle = 0;  ///< measured best / measured time of the top-1, geomean, 0..100
  double worst_pct_of_oracle = 0;
  double top5_pct_of_oracle = 0;     ///< measured best / best time among the top 5 distinct tiles, geomean
  double median_abs_err_pct = 0;     ///< |predicted - measured| / measured of the top-1, median
  double objective = 0;              ///< geomean + worst / 4 - max(0, median error - 15)
};

/// Scores the target on `shapes` with parameters `params` (replacing the target's and the
/// profile's values) for the parameter set fitted_variant(shapes) names; shapes of another variant
/// keep their own. Shapes without a valid measured config are skipped.
PickScore score_picks(const std::vector<MeasuredShape>& shapes, const Profile& profile, const Target& target,
                      const ModelParams& params);

struct CalibrationOptions {
  std::size_t folds = 5;  ///< K of the K-fold cross-validation by family (>= 2)
  std::size_t passes = 2;  ///< coordinate-descent passes over the parameters
  /// The parameters to fit; empty = default_fit_parameters().
  std::vector<const ModelParamInfo*> params;
  /// Called after each fold's fit and the final fit on all shapes with (done, of): done fits of
  /// `of` = folds + 1; empty: not called. A fit on 900 shapes takes tens of seconds, unsaid
  /// before (a fresh user's find, 2026-12-05).
  std::function<void(std::size_t done, std::size_t of)> progress;
};

/// The parameter set calibrate fits on `shapes` (Target::param_variant): the variant every shape
/// shares, else "" (the target's own set; shapes of another variant then keep their values and only
/// join the scores).
std::string_view fitted_variant(const std::vector<MeasuredShape>& shapes, const Target& target);

/// The parameters calibrate fits unless told otherwise: all but the measured split-K reduction
/// launch and the assumed register overhead.
std::vector<const ModelParamInfo*> default_fit_parameters();

struct FoldResult {
  std::vector<std::string> families;  ///< the held-out families
  PickScore before;                   ///< held out, with the parameters calibrate started from
  PickScore after;                    ///< held out, with the parameters fitted on the other folds
};

struct Calibration {
  std::string variant;               ///< the parameter set fitted (Target::param_variant; "": the target's own)
  ModelParams start;                 ///< the target's parameters on the profile before the fit
  ModelParams fitted;                ///< fitted on all shapes
  std::vector<std::string> fitted_names;  ///< the parameters fitted (CalibrationOptions::params), registry order given
  std::vector<FoldResult> folds;
  PickScore held_out_before, held_out_after;  ///< every shape scored in its held-out fold, pooled
  PickScore all_before, all_after;   ///< on all shapes (in-sample), before and after
  std::size_t shapes = 0, families = 0;
  /// The least and largest M, N, K of the shapes that run with the fitted parameter set (all zero
  /// where none does): calibrated_profile_yaml writes it as `calibration.fitted_shapes`.
  FittedShapeRange fitted_range;
  /// Where fitted_range is not this fit's shapes' alone (a fit of some of a section's parameters on
  /// an overlay whose others were fitted on other shapes: the intersection, or, disjoint, this fit's
  /// with the others extrapolated): one line saying so, for the caller to show; "" otherwise.
  std::string range_note;
  bool range_disjoint = false;  ///< range_note's second case: the fits' sizes do not overlap
  /// Shapes left out of the fit: the start values call every config timed for them infeasible
  /// ("MxNxK dtype layout", unscored_text), so the model has no pick among them to score.
  std::vector<std::string> left_out;
};

/// Splits the shapes into `folds` folds by family (MeasuredShape::family; a shape without one is a
/// family of its own; families that measured the same problem go together, so that no held-out
/// problem is also trained on), balancing shape counts, deterministically. Returns each fold's
/// shape indices.
std::vector<std::vector<std::size_t>> family_folds(const std::vector<MeasuredShape>& shapes, std::size_t folds);

/// The groups family_folds deals out: each family, with the families that measured a problem in
/// common merged into one (transitively). Returns each group's shape indices, largest group first
/// (ties in order of first appearance).
std::vector<std::vector<std::size_t>> family_groups(const std::vector<MeasuredShape>& shapes);

/// Fits and cross-validates. Throws InputError when there are fewer families than folds, or fewer
/// than 2 * folds measured shapes (too few to hold any out), naming the counts.
Calibration calibrate(const std::vector<MeasuredShape>& shapes, const Profile& profile, const Target& target,
                      const CalibrationOptions& options = {});

/// The profile overlay calibrate writes: the input profile's YAML with the fitted values (every fitted
/// parameter's, and any other the fit moved) under
/// `targets: {TARGET: {model_parameters: ...}}` (a variant's: `targets: {TARGET: {VARIANT:
/// {model_parameters: ...}}}`) and the fit's provenance under `calibration:`
/// (`provenance` lines: data files, shapes, date, cross-validated figures). `--hw FILE` loads it.
/// `profile` is the profile the fit ran on: where its CU count or split-K limit differ from the
/// YAML's (--cu-count, --max-split-k), the file records them (compute.active_cu_count,
/// triton.max_split_k, each with a `sources` entry saying so). `calibration.hardware_digest` is the
/// start's figures' (Profile::hardware_digest), except where the start's recorded one differs (its
/// figures edited after an earlier fit) and this fit leaves some of the file's parameters as they
/// were: that record stays, and `kept_digest_note` (when given) gets a line saying so.
std::string calibrated_profile_yaml(const std::string& profile_yaml, const Profile& profile, const Target& target,
                                    const Calibration& c, const std::vector<std::string>& provenance,
                                    std::string* kept_digest_note = nullptr);

}  // namespace gemm_advisor
