// `gemm-advisor evaluate`: the advisor's picks against configs measured on real hardware.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <vector>

#include "cli.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/measurements.hpp"
#include "gemm_advisor/targets/vllm_fused_moe.hpp"
#include "gemm_advisor/evaluate.hpp"
#include "gemm_advisor/report.hpp"

namespace cli {

namespace {
std::string opt_pct(const std::optional<double>& v) { return v ? fmt::format("{:.1f}", *v) : "-"; }

// A rank correlation, or "-" where it is undefined (one config, or all times equal).
std::string rho_text(double rho) { return std::isnan(rho) ? "-" : fmt::format("{:.3f}", rho); }

void write_table(std::ostream& out, const gemm_advisor::Evaluation& e, const gemm_advisor::Profile& profile,
                 const gemm_advisor::Target& target, const std::string& kernel) {
  const gemm_advisor::Hardware& hw = profile.hw;
  const std::string default_text = &target == &gemm_advisor::vllm_fused_moe_target()
                                       ? std::string("vLLM's get_default_config")
                                       : target.default_config(gemm_advisor::GemmProblem{}).text();
  // The kernel whose rows are scored, where --kernel names another than the target's own.
  out << fmt::format("evaluate {}{} on {}{}: {} shape{}; % of oracle = measured best / measured time of the pick\n",
                     target.name(), kernel == target.name() ? std::string() : " (kernel " + gemm_advisor::printable(kernel) + ")",
                     gemm_advisor::hardware_label(hw), gemm_advisor::profile_file_note(hw),
                     e.shapes.size(), e.shapes.size() == 1 ? "" : "s");
  // The shape column as wide as its longest label (a MoE layer's is long: 1024x256x7168/E384/top8/layer).
  auto plain_label = [](const gemm_advisor::ShapeEvaluation& s) { return gemm_advisor::unscored_text(s.problem); };
  // A shape measured in two families (or under two names) is two problems: their lines carry the
  // family (and name) to tell them apart (two identical lines: a fresh user's find, 2026-12-06).
  std::map<std::string, int> seen;
  for (const auto& s : e.shapes) ++seen[plain_label(s)];
  auto label = [&](const gemm_advisor::ShapeEvaluation& s) {
    std::string text = plain_label(s);
    if (seen[text] > 1) {
      const std::string tag = gemm_advisor::family_label(s.family, s.name);
      text += " [" + (tag.empty() ? std::string("no family") : tag) + "]";
    }
    return text;
  };
  std::size_t width = 22;
  for (const auto& s : e.shapes) width = std::max(width, label(s).size());
  out << fmt::format("{:<{}} {:>4} {:<18} {:>9} {:<18} {:>9} {:>7} {:>5} {:>6} {:>6} {:>8} {:>7}\n", "shape", width,
                     "cfgs", "measured best", "ms", "advisor top-1", "ms", "%oracle", "rank", "rho", "err%", "%default",
                     "%vendor");
  for (const auto& s : e.shapes) {
    out << fmt::format("{:<{}} {:>4} {:<18} {:>9.4f} {:<18} {:>9.4f} {:>7.1f} {:>5} {:>6} {:>6.1f} {:>8} {:>7}\n",
                       label(s), width, s.measured, s.measured_best.text(),
                       s.measured_best_ms, s.advisor_top1.text() + (s.failed_pick ? "*" : ""), s.advisor_top1_ms,
                       s.pct_of_oracle,
                       s.best_rank ? std::to_string(*s.best_rank) : "-", rho_text(s.spearman), s.top1_abs_err_pct,
                       opt_pct(s.default_pct_of_oracle), opt_pct(s.vendor_pct_of_oracle));
    // With the model's reason: a config outside what the target describes (split-K on a kernel
    // without it) reads apart from a limit the model has wrong (a fresh user's find, 2026-12-04).
    // The first pick failed to run: the row's is the first that ran, marked, the failed one named
    // (the table showed the substitute unmarked: a fresh user's find, 2026-12-05).
    if (s.failed_pick)
      out << fmt::format("    * the advisor's first pick {} failed to run ({}, line {}): scored at its first pick that ran\n",
                         s.failed_pick->config.text(), gemm_advisor::printable(s.failed_pick->status), s.failed_pick->line);
    for (const auto& mc : s.infeasible_but_ran) {
      const std::string why = target.infeasibility(mc.config, s.problem, profile);
      out << fmt::format("    ran but the model calls it infeasible: {} ({:.4f} ms, line {}){}\n", mc.config.text(),
                         mc.ms, mc.line, why.empty() ? "" : ": " + why);
    }
  }
  const bool extra_k = e.top_k != 1 && e.top_k != 5 && e.top_k != 10;
  out << fmt::format("\nadvisor:  geomean {:.1f}% of oracle, worst {:.1f}%; measured best in top-1 {:.0f}%, top-5 {:.0f}%, "
                     "top-10 {:.0f}%{}\n",
                     e.geomean_pct_of_oracle, e.worst_pct_of_oracle, 100 * e.top1_hit_rate, 100 * e.top5_hit_rate,
                     100 * e.top10_hit_rate,
                     extra_k ? fmt::format(", top-{} {:.0f}%", e.top_k, 100 * e.top_k_hit_rate) : std::string());
  out << fmt::format("          Spearman (mean) {}; top-1 time error median {:.1f}%, p90 {:.1f}%\n", rho_text(e.spearman),
                     e.median_abs_err_pct, e.p90_abs_err_pct);
  out << fmt::format("          best of the top {0}: geomean {1:.1f}% of oracle; of the top {0} distinct tiles: {2:.1f}%\n",
                     e.top_k, e.top_k_geomean_pct_of_oracle, e.top_k_distinct_geomean_pct_of_oracle);
  // Where the default ran and failed it is said so, not "not measured" (a fresh user's find, 2026-12-06).
  const std::string failed_text =
      e.default_failed_shapes ? fmt::format("failed to run on {} shape{}", e.default_failed_shapes,
                                            e.default_failed_shapes == 1 ? "" : "s")
                              : std::string();
  if (e.default_measured_shapes)
    out << fmt::format("default:  {} geomean {:.1f}% of oracle, worst {:.1f}% ({} shape{} where it was measured{})\n",
                       default_text, e.default_geomean_pct_of_oracle, e.default_worst_pct_of_oracle,
                       e.default_measured_shapes, e.default_measured_shapes == 1 ? "" : "s",
                       failed_text.empty() ? "" : "; it " + failed_text);
  else if (!failed_text.empty())
    out << fmt::format("default:  {} {} and ran on none\n", default_text, failed_text);
  else
    out << fmt::format("default:  {} was not measured on any shape\n", default_text);
  if (e.vendor_measured_shapes)
    out << fmt::format("vendor:   the vendor library runs at {:.1f}% of oracle (best Triton time / its time), geomean ({} shapes)\n",
                       e.vendor_geomean_pct_of_oracle, e.vendor_measured_shapes);
  if (e.infeasible_but_ran)
    out << fmt::format("model errors: {} measured configs ran but are called infeasible\n", e.infeasible_but_ran);
}
}  // namespace

Registered register_evaluate(CLI::App& app) {
  struct Options {
    std::string hw;  // empty: default_hardware()
    HardwareOverrides overrides;
    std::string target = "triton";
    std::string kernel;
    bool per_gemm = false;
    std::vector<std::string> measurements;
    std::size_t top_k = 5;
    std::string format = "table";
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("evaluate", "Score the advisor against measured configs (a measurement CSV)");
  cmd->footer(measurement_csv_footer());
  cmd->add_option("--hw", o->hw, "Hardware profile the measurements were taken on (a shipped name, a GPU name as nvidia-smi, rocm-smi or torch print it, or a YAML file; default: $GEMM_ADVISOR_HW, else the local GPU)")
      ->check(non_empty_validator());
  add_target_option(cmd, o->target);
  add_hardware_overrides(cmd, o->overrides, false);
  cmd->add_flag("--per-gemm", o->per_gemm,
                "vllm-fused-moe: score each GEMM (up, down) of a layer on its own instead of whole layers (the sum of "
                "both launches with one config, as vLLM runs them)");
  cmd->add_option("--kernel", o->kernel,
                  "The `kernel` column value of the rows to score (default: the target's name), e.g. your own kernel's")
      ->check(non_empty_validator());
  cmd->add_option("--measurements", o->measurements,
                  "Measurement CSV(s) (columns below; a name ending in .gz is read gzipped); several files are scored as one set")
      ->required()
      ->expected(1, CLI::detail::expected_max_vector_size)
      ->check(non_empty_validator());
  cmd->add_option("--top-k", o->top_k, "Shortlist length: best of the advisor's top K (and top K distinct tiles), as an autotuner given them would get; also a hit-rate cut-off")->capture_default_str()->transform(whole_number_validator())->check(CLI::Range(1, 1000000));
  cmd->add_option("--format", o->format, "table or json")
      ->capture_default_str()
      ->transform(CLI::IsMember({"table", "json"}, CLI::ignore_case));
  return {cmd, [o]() {
            using namespace gemm_advisor;
            const Profile profile = load_profile_logged(o->hw, o->overrides, o->target);
            const Target& target = find_target(o->target);
            if (o->per_gemm && &target != &vllm_fused_moe_target())
              throw cli::UsageError("--per-gemm scores the GEMMs of fused-MoE layers: it needs --target vllm-fused-moe");
            const std::string kernel = o->kernel.empty() ? std::string(target.name()) : o->kernel;
            std::vector<MeasuredShape> shapes = read_measured_shapes_logged(o->measurements, kernel, profile, target, true);
            if (&target == &vllm_fused_moe_target() && !o->per_gemm)
              shapes = measured_moe_layers_logged(shapes, o->measurements);
            const Evaluation e = evaluate(shapes, profile, target, o->top_k);
            const std::string files = fmt::format("{}", fmt::join(o->measurements, ", "));
            if (e.shapes.empty() && !e.unscored.empty())
              throw InputError(files + ": the model calls every timed config of every shape infeasible: nothing to score");
            for (const GemmProblem& p : e.unscored)
              spdlog::warn("{}: {}: the model calls every config timed for it infeasible (they ran): no pick to "
                           "score, left out of the figures",
                           files, unscored_text(p));
            if (e.shapes.empty())
              throw InputError(fmt::format("{}", fmt::join(o->measurements, ", ")) +
                               ": no shape has a timed config of the " + kernel + " kernel (rows need kernel=" + kernel +
                               ", status=ok and ms > 0, and a time the GPU's peak and DRAM and L2 bandwidth allow)");
            // A shape with one timed config is its own oracle: 100% whatever the model picks (a stray
            // row of another dtype raised a geomean from 97.6% to 99.7% unsaid: a fresh user's find).
            std::size_t single = 0;
            const ShapeEvaluation* first_single = nullptr;
            for (const ShapeEvaluation& s : e.shapes)
              if (s.measured == 1 && single++ == 0) first_single = &s;
            if (single > 0) {
              std::string first = unscored_text(first_single->problem);
              for (const MeasuredShape& m : shapes)
                if (m.family == first_single->family && m.name == first_single->name &&
                    unscored_text(m.problem) == first) {
                  first = cli::single_config_detail(shapes, m);
                  break;
                }
              spdlog::warn("{}: {} of the {} shapes {} one timed config, which scores 100% of oracle whatever the "
                           "model picks (first: {}); their top-1 time error still counts",
                           files, single, e.shapes.size(), single == 1 ? "has" : "have", first);
            }
            std::string first_alike;
            if (const std::size_t alike = cli::alike_timed_shapes(shapes, first_alike); alike > 0)
              spdlog::warn("{}: {} of the {} shapes {} every config at one time, which scores 100% of oracle "
                           "whatever the model picks (first: {}); check the ms column",
                           files, alike, e.shapes.size(), alike == 1 ? "has" : "have", first_alike);
            // The advisor's first pick failed to run (its score is its first pick that ran).
            const auto failed = std::find_if(e.shapes.begin(), e.shapes.end(),
                                             [](const ShapeEvaluation& s) { return s.failed_pick.has_value(); });
            if (failed != e.shapes.end())
              spdlog::warn("{}: the advisor's first pick failed to run for {} of the {} shapes (first: {}, {} at {}: "
                           "{}); each is scored at its first pick that ran",
                           files, e.failed_picks, e.shapes.size(), unscored_text(failed->problem),
                           failed->failed_pick->config.text(),
                           (failed->failed_pick->source ? escape_control(*failed->failed_pick->source) + ":"
                                                        : std::string("line ")) +
                               std::to_string(failed->failed_pick->line),
                           printable(failed->failed_pick->status));
            // Shapes outside the sizes a calibrated overlay was fitted on: their scores test the fit's
            // extrapolation (an overlay scored on its own fitted shapes and on others read alike).
            OutsideFittedShapes outside{profile, target, {}};
            for (const ShapeEvaluation& s : e.shapes)
              outside.note(s.problem, o->measurements.size() == 1 ? files + ": " : std::string());
            outside.tally.warn(fmt::format("of the {} scored are outside the shapes the profile's parameters were "
                                           "calibrated on",
                                           e.shapes.size()));
            std::ostringstream out;
            if (o->format == "json") out << json_text(evaluation_json(e, profile, target), 2) << "\n";
            else write_table(out, e, profile, target, kernel);
            std::cout << out.str();
            return kExitOk;
          }};
}

}  // namespace cli
