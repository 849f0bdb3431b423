#pragma once
/// `evaluate`: how well the advisor's ranking picks among configs that were measured on hardware.
#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gemm_advisor/measurements.hpp"
#include "gemm_advisor/profile.hpp"
#include "gemm_advisor/target.hpp"

namespace gemm_advisor {

/// Spearman rank correlation of two equally long samples (average ranks for ties). Returns NaN
/// (undefined) for fewer than 2 points, a constant sample or a NaN in either. Throws InputError for
/// samples of different lengths.
double spearman(const std::vector<double>& a, const std::vector<double>& b);
/// Geometric mean of positive values (0 for an empty list), never outside their range (rounding).
/// Throws InputError for a value that is not positive and finite (it returned NaN), as percentile
/// and spearman throw for what they cannot take.
double geomean(const std::vector<double>& v);
/// Percentile by linear interpolation between closest ranks, q in [0, 1] (0 for an empty list).
/// Throws InputError for a q outside [0, 1] (or NaN).
double percentile(std::vector<double> v, double q);

/// The advisor against measurements, for one shape. Percentages are 0..100 (may exceed 100 for
/// the vendor library when Triton beats it).
struct ShapeEvaluation {
  GemmProblem problem;
  /// the shape's `family` and `name` columns (MeasuredShape's; "" if none): two problems of one
  /// shape in two families are two shapes
  std::string family, name;
  std::size_t measured = 0;          ///< configs with a valid time
  TileConfig advisor_top1;
  double advisor_top1_ms = 0;
  double predicted_top1_ms = 0;
  TileConfig measured_best;
  double measured_best_ms = 0;
  double pct_of_oracle = 0;          ///< measured_best_ms / advisor_top1_ms * 100
  std::optional<std::size_t> best_rank;  ///< measured best's 1-based rank in the advisor's order
  /// What an autotuner given the advisor's top_k configs would get: measured best / the fastest
  /// measured time among them * 100; and the same for the top_k distinct tiles (distinct_tiles_first).
  double top_k_pct_of_oracle = 0, top_k_distinct_pct_of_oracle = 0;
  double spearman = 0;               ///< predicted vs measured times of the feasible configs; NaN if undefined
  double top1_abs_err_pct = 0;       ///< |predicted - measured| / measured of the advisor's top-1
  std::optional<double> default_pct_of_oracle;  ///< the fixed default config, if it was measured
  std::optional<double> vendor_pct_of_oracle;   ///< measured best / vendor library time * 100
  std::string vendor_kernel;
  std::vector<MeasuredConfig> infeasible_but_ran;  ///< valid rows the model calls infeasible
  std::size_t failed_rows = 0;       ///< rows without a valid time (compile errors, wrong results)
  std::size_t failed_rows_model_infeasible = 0;  ///< ... of which the model also calls infeasible
  /// A config whose run failed (status compile_error, launch_error or wrong; not the timing checks'
  /// own, is_timing_check_status) that the model calls feasible and predicts faster than advisor_top1: the
  /// advisor's real first pick, which did not run. advisor_top1 is then its first pick that ran.
  std::optional<MeasuredConfig> failed_pick;
};

struct Evaluation {
  std::vector<ShapeEvaluation> shapes;
  std::size_t top_k = 5;
  // Aggregates over shapes.
  double geomean_pct_of_oracle = 0, worst_pct_of_oracle = 0;
  double top1_hit_rate = 0, top5_hit_rate = 0, top10_hit_rate = 0, top_k_hit_rate = 0;
  /// Geomeans of ShapeEvaluation::top_k_pct_of_oracle and top_k_distinct_pct_of_oracle.
  double top_k_geomean_pct_of_oracle = 0, top_k_distinct_geomean_pct_of_oracle = 0;
  double spearman = 0;               ///< mean over the shapes where it is defined (NaN if none)
  double median_abs_err_pct = 0, p90_abs_err_pct = 0;
  double default_geomean_pct_of_oracle = 0, default_worst_pct_of_oracle = 0;
  std::size_t default_measured_shapes = 0;
  /// shapes where the default config ran and failed (a failed row, no valid one): not "unmeasured"
  std::size_t default_failed_shapes = 0;
  double vendor_geomean_pct_of_oracle = 0;
  std::size_t vendor_measured_shapes = 0;
  std::size_t infeasible_but_ran = 0;
  std::size_t failed_picks = 0;  ///< shapes with a ShapeEvaluation::failed_pick
  /// Shapes left out of `shapes` and every aggregate: the model calls each config measured for
  /// them infeasible, so it has no pick to score (their configs count in infeasible_but_ran).
  std::vector<GemmProblem> unscored;
};

/// How much a diagnostic of read_measured_shapes matters: debug (progress), info (said, nothing
/// wrong), warning (a likely mistake in the input, which was still read).
enum class LogLevel { debug, info, warning };
/// Receives read_measured_shapes's diagnostics, one line each, as they arise (the CLI logs them).
using MeasurementLog = std::function<void(LogLevel level, const std::string& message)>;

/// The measured problems of `kernel` in the measurement files `paths` (read_measurements), read and
/// checked as one set for evaluate() and calibrate(), as `gemm-advisor evaluate` and `calibrate` do:
/// a problem in several files is one, its configs merged (a config timed again counts at its faster
/// time; a warning per file says how many re-timed configs disagree by more than
/// kRetimeDisagreement); a row faster than the profile's peak and DRAM and L2 bandwidth allow, or shorter
/// than a quarter of the target's launch_overhead_s, is left out (kStatusFasterThanPeak, a warning);
/// a shape alone whose best is over 200x slower than the model puts any of its configs is left out
/// (kStatusFarSlowerThanModel, a warning); timed configs with warps, stages or group_m the target's
/// space never takes are warned of per file. `keep_vendor_only`: keep problems with vendor rows only
/// (evaluate's vendor column). Throws InputError for: a file given twice (or its bytes under another
/// name); a problem measured on another GPU (the `gpu` column), on a MIG slice without a partition
/// (Hardware::cu_count below the product's), of a dtype the profile lacks or one the target cannot
/// run; a file most of whose configs or shapes beat the peak (a unit slip, or a faster GPU's file);
/// a file whose shapes run over 200x slower than the model puts any of their configs (times in
/// microseconds); no row of `kernel` in any file while some hold another kernel's; no file at all.
/// `log` (may be empty) receives the warnings and notes.
std::vector<MeasuredShape> read_measured_shapes(const std::vector<std::string>& paths, const std::string& kernel,
                                                const Profile& profile, const Target& target,
                                                bool keep_vendor_only = true, const MeasurementLog& log = {});

/// Ranks exactly the measured configs of each shape with the target's model on the profile
/// (advise()) and compares. Shapes with no valid measured config are skipped; shapes whose valid
/// configs the model calls all infeasible go to Evaluation::unscored. `top_k` is the
/// shortlist length for the best-of-top-k scores and an extra hit-rate cut-off (1, 5, 10 always); at
/// least 1 (InputError otherwise). The fixed default is the target's default_config. With no shape
/// scored the aggregates are 0 and spearman NaN (evaluation_json writes null for them). The shapes
/// are taken as given: read_measured_shapes checks them (rows faster than the peak, another GPU's
/// rows, unit slips) as the CLI does; a row with status "ok" and no time above 0 ms (the reader's
/// rule) throws InputError here too.
Evaluation evaluate(const std::vector<MeasuredShape>& shapes, const Profile& profile, const Target& target,
                    std::size_t top_k = 5);

/// "MxNxK dtype layout" (the fused-MoE layer's text for a MoE problem): how evaluate and calibrate
/// name a shape they leave out.
std::string unscored_text(const GemmProblem& p);

/// JSON report: {"hardware", "cu_count", "profile", "profile_digest", "target", "generator", "aggregate":
/// {...}, "shapes": [...]} (README, "evaluate").
nlohmann::json evaluation_json(const Evaluation& e, const Profile& profile, const Target& target);

}  // namespace gemm_advisor
