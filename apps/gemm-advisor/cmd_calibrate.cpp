// `gemm-advisor calibrate`: fit a target's model parameters to a user's own measurements.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>
#include <tbb/global_control.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "cli.hpp"
#include "gemm_advisor/calibrate.hpp"
#include "gemm_advisor/csv_reader.hpp"
#include "gemm_advisor/emit.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/evaluate.hpp"
#include "gemm_advisor/measurements.hpp"
#include "gemm_advisor/targets/vllm_fused_moe.hpp"
#include "gemm_advisor/report.hpp"
#include "gemm_advisor/version.hpp"

namespace cli {

namespace {
// Family names as the output shows them: a byte that is not well-formed, visible UTF-8 as \xNN
// (README; an invalid byte in a families file was written out as U+FFFD: a fresh user's find).
std::vector<std::string> shown(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& n : names) out.push_back(gemm_advisor::printable(n, n.size()));
  return out;
}

std::string score_text(const gemm_advisor::PickScore& s) {
  return fmt::format("{:5.1f}% {:5.1f}% {:5.1f}% {:6.1f}%", s.geomean_pct_of_oracle, s.worst_pct_of_oracle,
                     s.top5_pct_of_oracle, s.median_abs_err_pct);
}

nlohmann::json score_json(const gemm_advisor::PickScore& s) {
  return {{"shapes", s.shapes},
          {"geomean_pct_of_oracle", s.geomean_pct_of_oracle},
          {"worst_pct_of_oracle", s.worst_pct_of_oracle},
          {"top5_pct_of_oracle", s.top5_pct_of_oracle},
          {"median_abs_err_pct", s.median_abs_err_pct}};
}

// The profile's own YAML text, from where it was loaded (Hardware::source): a shipped one's
// embedded text ("embedded:NAME"), else the file's.
std::string profile_text(const std::string& source) {
  for (const auto& e : gemm_advisor::embedded_profiles()) {
    if ("embedded:" + std::string(e.name) == source) return std::string(e.yaml);
  }
  return gemm_advisor::read_text_file(source);
}

// The written file as --hw reads it back, to paste into a shell: a path that is no profile path (no
// '/' and no .yaml/.yml, e.g. `-o h200`) gets "./", since --hw takes it for a profile's name first
// (calibrate -o h200 advised --hw h200, which loads the shipped H200: a fresh user's find,
// 2026-12-06); anything but plain path characters is single-quoted.
std::string hw_argument(const std::string& path) {
  const std::string arg = gemm_advisor::is_profile_path(path) ? path : "./" + path;
  const bool plain = std::all_of(arg.begin(), arg.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || std::strchr("._/-+=:,@%", ch) != nullptr;
  });
  if (plain) return arg;
  // A control byte (an ESC in the name) is written as bash's $'...' escape, not raw on the terminal
  // (a fresh user's find, 2026-12-07: every other message escapes it).
  if (std::any_of(arg.begin(), arg.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f; })) {
    std::string quoted = "$'";
    for (const char ch : arg) {
      const auto byte = static_cast<unsigned char>(ch);
      if (byte < 0x20 || byte == 0x7f) quoted += fmt::format("\\x{:02x}", byte);
      else if (ch == '\'' || ch == '\\') quoted += std::string("\\") + ch;
      else quoted += ch;
    }
    return quoted + "'";
  }
  std::string quoted = "'";
  for (const char ch : arg) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return quoted + "'";
}

}  // namespace

Registered register_calibrate(CLI::App& app) {
  struct Options {
    std::string hw;  // empty: default_hardware()
    HardwareOverrides overrides;
    std::string target = "triton";
    std::string kernel;
    bool per_gemm = false;
    std::vector<std::string> measurements;
    std::size_t folds = 5;
    std::size_t passes = 2;
    std::string params;
    std::string param_set;
    std::vector<std::string> families;
    std::string out;
    std::string format = "table";
    unsigned jobs = 0;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "calibrate", "Fit a target's model parameters to measured configs of your kernel and GPU; write a profile");
  cmd->footer(measurement_csv_footer());
  cmd->add_option("--hw", o->hw, "The profile of the GPU the measurements were taken on (a shipped name, a GPU name as nvidia-smi, rocm-smi or torch print it, or a YAML file; default: $GEMM_ADVISOR_HW, else the local GPU)")
      ->check(non_empty_validator());
  add_target_option(cmd, o->target);
  add_hardware_overrides(cmd, o->overrides, false);
  cmd->add_flag("--per-gemm", o->per_gemm,
                "vllm-fused-moe: score each GEMM (up, down) of a layer on its own instead of whole layers (the sum of "
                "both launches with one config, as vLLM runs them)");
  cmd->add_option("--kernel", o->kernel,
                  "The `kernel` column value of your kernel's rows (default: the target's name); e.g. "
                  "--target triton --kernel my-matmul fits the triton target to your kernel")
      ->check(non_empty_validator());
  cmd->add_option("--measurements", o->measurements, "Measurement CSV(s) of that kernel (columns below; .gz read gzipped)")
      ->required()
      ->expected(1, CLI::detail::expected_max_vector_size)
      ->check(non_empty_validator());
  cmd->add_option("--families", o->families,
                  "CSV(s) of m,n,k[,batch,dtype,layout],family[,name]: the families of shapes whose rows have none")
      ->expected(1, CLI::detail::expected_max_vector_size)
      ->check(non_empty_validator());
  cmd->add_option("--folds", o->folds, "K of the K-fold cross-validation by shape family")
      ->capture_default_str()
      ->transform(whole_number_validator())->check(CLI::Range(2, 100));
  cmd->add_option("-j,--jobs", o->jobs, kJobsHelp)->transform(whole_number_validator())->check(CLI::Range(0u, 1024u));
  cmd->add_option("--passes", o->passes, "Coordinate-descent passes over the parameters")
      ->capture_default_str()
      ->transform(whole_number_validator())->check(CLI::Range(1, 20));
  std::vector<std::string_view> not_by_default;  // the measured or assumed ones (ModelParamInfo::fit_by_default)
  for (const gemm_advisor::ModelParamInfo& p : gemm_advisor::kModelParamRegistry)
    if (!p.fit_by_default) not_by_default.push_back(p.name);
  cmd->add_option("--params", o->params,
                  fmt::format("Comma-separated parameters to fit (default: all but {}; `gemm-advisor targets --format "
                              "json` lists them); may be given more than once",
                              fmt::join(not_by_default, ", ")))
      ->check(non_empty_validator())
      ->multi_option_policy(CLI::MultiOptionPolicy::Join);  // several --params join with a newline
  cmd->add_option("--param-set", o->param_set,
                  "Fit this parameter set of the target, on the measured problems it covers (vllm-fused-moe: "
                  "fp8_block, its block-fp8 layers; default: the set all measured problems share, else the "
                  "target's own)")
      ->check(non_empty_validator());
  cmd->add_option("-o,--out", o->out, "The calibrated profile to write (YAML; load it with --hw FILE)")
      ->required()
      ->check(non_empty_validator());  // what stands there is checked before the fit (check_writable_path)
  cmd->add_option("--format", o->format, "table or json (the report on stdout)")
      ->capture_default_str()
      ->transform(CLI::IsMember({"table", "json"}, CLI::ignore_case));
  return {cmd, [o]() {
            using namespace gemm_advisor;
            if (o->out == "-")
              throw cli::UsageError("-o -: calibrate writes a profile file (give its path); the report goes to stdout");
            // A .gz name got plain YAML (zcat refused it, and --hw reads profiles as text only).
            if (is_gzip_path(o->out))
              throw cli::UsageError("-o " + o->out + ": calibrate writes a plain YAML profile (--hw reads profiles as "
                                    "text, not gzipped): give a name without .gz");
            // A .json name got YAML without a word (a fresh user's find, 2026-12-06): the profile is YAML
            // with comments and sources, which no JSON reader takes.
            std::string ending = o->out.size() >= 5 ? o->out.substr(o->out.size() - 5) : std::string();
            for (char& ch : ending) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            if (ending == ".json")
              throw cli::UsageError("-o " + o->out + ": calibrate writes a YAML profile (what --hw loads), not JSON: "
                                    "name it .yaml (the report is JSON with --format json, on stdout)");
            // The overlay must not replace an input (a -o naming the measurements lost them; one naming
            // the --hw profile replaced the user's own profile, comments and all).
            for (const std::vector<std::string>* inputs : {&o->measurements, &o->families}) {
              for (const std::string& path : *inputs) {
                if (same_file(path, o->out))
                  throw cli::UsageError("-o " + o->out + " is one of the input files (" + path +
                                        "): write the profile elsewhere");
              }
            }
            std::error_code ec;
            // The profile as --hw or $GEMM_ADVISOR_HW names it (the variable's file was replaced: a
            // fresh CI reviewer's find, 2026-12-05).
            const std::string hw = hardware_named(o->hw);
            if (!hw.empty() && std::filesystem::is_regular_file(hw, ec) && same_file(hw, o->out))
              throw cli::UsageError("-o " + o->out + " is the " + (o->hw.empty() ? "$GEMM_ADVISOR_HW" : "--hw") +
                                    " profile (" + hw + "): write the calibrated profile elsewhere and load it with --hw");
            // -o naming where stdout goes (/dev/stdout redirected to a file): the profile would
            // overwrite the report, or the report the profile.
            struct stat out_st {}, stdout_st {};
            if (::stat(o->out.c_str(), &out_st) == 0 && ::fstat(STDOUT_FILENO, &stdout_st) == 0 &&
                S_ISREG(stdout_st.st_mode) && out_st.st_dev == stdout_st.st_dev && out_st.st_ino == stdout_st.st_ino)
              throw cli::UsageError("-o " + o->out + " is where stdout goes (the report): write the profile elsewhere");
            // An existing file is replaced only when calibrate wrote it (a top-level 'calibration:'
            // block): any other file there was overwritten unsaid (a fresh user's find, 2026-12-04).
            // Read here, not through written_by_calibrate: a file it cannot read is said as such.
            if (std::filesystem::is_regular_file(o->out, ec)) {
              if (!written_by_calibrate_text(read_text_file(o->out)))
                throw cli::UsageError("-o " + o->out + ": exists and is not a profile calibrate wrote (no top-level "
                                      "'calibration:'): give another -o, or remove the file first");
            }
            check_writable_path(o->out);  // before the fit, which may take a while
            const Profile profile = load_profile_logged(o->hw, o->overrides);
            const Target& target = find_target(o->target);
            const std::string kernel = o->kernel.empty() ? std::string(target.name()) : o->kernel;
            // As evaluate (it was accepted here and did nothing: a fresh user's find).
            if (o->per_gemm && &target != &vllm_fused_moe_target())
              throw cli::UsageError("--per-gemm fits the GEMMs of fused-MoE layers: it needs --target vllm-fused-moe");
            if (!o->param_set.empty()) {
              const std::vector<std::string_view> sets = target.param_variants();
              if (std::find(sets.begin(), sets.end(), o->param_set) == sets.end())
                throw cli::UsageError("--param-set: target " + std::string(target.name()) + " has no parameter set '" +
                                 printable(o->param_set) + "' (" +
                                 (sets.empty() ? std::string("it has only its own")
                                               : "known: " + fmt::format("{}", fmt::join(sets, ", "))) + ")");
            }
            CalibrationOptions options;
            options.folds = o->folds;
            options.passes = o->passes;
            if (!o->params.empty()) {
              std::size_t start = 0;
              while (start <= o->params.size()) {
                const std::size_t comma = std::min(o->params.find_first_of(",\n", start), o->params.size());
                // Spaces around a name are no part of it ('a, b' was "unknown parameter ' b'").
                std::string name = o->params.substr(start, comma - start);
                name.erase(0, std::min(name.size(), name.find_first_not_of(" \t")));
                name.erase(name.find_last_not_of(" \t") + 1);
                if (name.empty())
                  throw cli::UsageError("--params: an empty name in '" + printable(o->params) +
                                        "' (comma-separated names, e.g. k_step_overhead_cycles,loaded_latency_multiplier)");
                const ModelParamInfo* info = find_model_param(name);
                if (!info) {
                  // The nearest name where one is near (the whole list of 27 hid it: a fresh user's find).
                  const std::string nearest = nearest_model_param(name);
                  if (!nearest.empty())
                    throw cli::UsageError("--params: unknown parameter '" + printable(name) + "' (did you mean '" +
                                          nearest + "'? `gemm-advisor targets --format json` lists them)");
                  std::vector<std::string> known;
                  for (const ModelParamInfo& p : kModelParamRegistry) known.emplace_back(p.name);
                  throw cli::UsageError("--params: unknown parameter '" + printable(name) + "' (known: " +
                                   fmt::format("{}", fmt::join(known, ", ")) + ")");
                }
                if (std::find(options.params.begin(), options.params.end(), info) != options.params.end())
                  throw cli::UsageError("--params: '" + printable(name) + "' is named twice");
                options.params.push_back(info);
                start = comma + 1;
              }
              // A parameter the target's kernel never uses is fitted to nothing: said, as --max-split-k is.
              const bool splits = target_has_field(target, "split_k");
              for (const ModelParamInfo* p : options.params)
                if (!splits && p->split_k_only)
                  spdlog::warn("--params: target {} has no split-K: {} has no effect on it", target.name(), p->name);
            }
            // A families file given twice: the second copy found every shape taken and said it matched
            // none (a fresh user's find, 2026-12-03); as --measurements twice, a usage error.
            for (std::size_t i = 0; i < o->families.size(); ++i)
              for (std::size_t j = 0; j < i; ++j)
                if (same_file(o->families[i], o->families[j]))
                  throw cli::UsageError("--families: '" + printable(o->families[i]) + "' is given twice");
            std::vector<MeasuredShape> shapes = read_measured_shapes_logged(o->measurements, kernel, profile, target, false);
            std::vector<std::string> families_used;  // the provenance names only files that gave families
            for (const std::string& path : o->families) {
              std::vector<std::string> family_warnings, family_notes;
              const std::size_t set = apply_families(path, shapes, &family_warnings, &family_notes);
              for (const std::string& w : family_warnings) spdlog::warn("{}", w);
              // Said with -v: a families file shared by several data sets lists shapes of the others
              // (h200-triton-families.csv: 80 of its 343 rows are not in the 262 triton shapes).
              for (const std::string& w : family_notes) spdlog::info("{}", w);
              if (set == 0)
                spdlog::warn("{}: no measured shape without a family matches its rows (m, n, k, batch, dtype, "
                             "layout): nothing taken from it", path);
              else
                families_used.push_back(path);
            }
            if (const auto bare = std::count_if(shapes.begin(), shapes.end(),
                                                [](const MeasuredShape& s) { return s.family.empty(); });
                bare > 0)
              spdlog::warn("{} of the {} measured shapes {} no family: each is a family of its own in the folds, "
                           "so related shapes may sit on both sides of a fold (give a 'family' column or --families)",
                           bare, shapes.size(), bare == 1 ? "has" : "have");
            if (&target == &vllm_fused_moe_target() && !o->per_gemm)
              shapes = measured_moe_layers_logged(shapes, o->measurements);
            if (shapes.empty())
              throw InputError(fmt::format("{}", fmt::join(o->measurements, ", ")) + ": no shape has a config of the " +
                               kernel + " kernel (rows need kernel=" + kernel + ", or give --kernel)");
            // Every row failed: said with the files, as evaluate says it ("calibrate: 0 measured shapes
            // are too few for 2 folds" named no file: a fresh user's find, 2026-12-07).
            if (std::none_of(shapes.begin(), shapes.end(), [](const MeasuredShape& s) {
                  return std::any_of(s.configs.begin(), s.configs.end(),
                                     [](const MeasuredConfig& c) { return c.status == "ok"; });
                }))
              throw InputError(fmt::format("{}", fmt::join(o->measurements, ", ")) + ": no config of the " + kernel +
                               " kernel ran (no row with status ok and a time): nothing to fit");
            {
              // A shape with one config that ran scores 100% of oracle whatever the parameters: only
              // its time error steers the fit (a fit on such data moved a parameter with nothing said:
              // a fresh user's find, 2026-12-05; evaluate says the same of its shapes).
              std::size_t single = 0;
              std::string first;
              for (const MeasuredShape& s : shapes) {
                std::vector<TileConfig> ran;
                for (const MeasuredConfig& mc : s.configs)
                  if (mc.status == "ok" && std::find(ran.begin(), ran.end(), mc.config) == ran.end())
                    ran.push_back(mc.config);
                if (ran.size() == 1 && single++ == 0) first = single_config_detail(shapes, s);
              }
              if (single > 0)
                spdlog::warn("{}: {} of the {} shapes {} one timed config, which scores 100% of oracle whatever "
                             "the parameters: only {} top-1 time error steers the fit (first: {}); time several "
                             "configs a shape to fit the ranking",
                             fmt::join(o->measurements, ", "), single, shapes.size(), single == 1 ? "has" : "have",
                             single == 1 ? "its" : "their", first);
              std::string first_alike;
              if (const std::size_t alike = alike_timed_shapes(shapes, first_alike); alike > 0)
                spdlog::warn("{}: {} of the {} shapes {} every config at one time, which scores 100% of oracle "
                             "whatever the parameters (first: {}); check the ms column",
                             fmt::join(o->measurements, ", "), alike, shapes.size(), alike == 1 ? "has" : "have",
                             first_alike);
            }
            if (!o->param_set.empty()) {
              std::vector<MeasuredShape> in_set;
              for (MeasuredShape& s : shapes)
                if (target.param_variant(s.problem) == o->param_set) in_set.push_back(std::move(s));
              if (in_set.empty())
                throw InputError(fmt::format("{}", fmt::join(o->measurements, ", ")) + ": no measured problem runs " +
                                 "parameter set " + o->param_set + " of " + std::string(target.name()));
              shapes = std::move(in_set);
            }
            if (o->param_set.empty() && fitted_variant(shapes, target).empty()) {
              // Mixed parameter sets: the target's own is fitted; say what the others' shapes do.
              std::map<std::string, std::size_t> other;
              for (const MeasuredShape& s : shapes)
                if (const std::string_view v = target.param_variant(s.problem); !v.empty()) ++other[std::string(v)];
              for (const auto& [set, count] : other)
                spdlog::warn("{} of the {} measured problems run parameter set {}, which this fit of {}'s own set does "
                             "not move (they only join the scores); --param-set {} fits it on them",
                             count, shapes.size(), set, target.name(), set);
            }
            std::vector<std::string> fitted_names;
            for (const ModelParamInfo* p : options.params.empty() ? default_fit_parameters() : options.params)
              fitted_names.emplace_back(p->name);
            // Whether the fit was asked to move a parameter (the report marks those it was not: they
            // looked fitted and unmoved, a fresh user's find, 2026-12-06).
            const auto was_fit = [&](const ModelParamInfo& info) {
              return std::find(fitted_names.begin(), fitted_names.end(), info.name) != fitted_names.end();
            };
            const auto t0 = std::chrono::steady_clock::now();
            // The shapes are scored on this many threads (the result is the same on any number).
            tbb::global_control threads(tbb::global_control::max_allowed_parallelism, o->jobs ? o->jobs : usable_cpus());
            // Each fit's end said with -v, with the time so far (a large fit ran unsaid).
            const auto fit_start = std::chrono::steady_clock::now();
            options.progress = [&](std::size_t done, std::size_t of) {
              const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - fit_start).count();
              if (done < of) spdlog::info("calibrate: fold {} of {} fitted ({:.1f} s)", done, of - 1, s);
              else spdlog::info("calibrate: the fit on all shapes done ({:.1f} s)", s);
            };
            const Calibration c = calibrate(shapes, profile, target, options);
            for (const std::string& shape : c.left_out)
              spdlog::warn("{}: {}: the start values call every config timed for it infeasible (they ran): left out "
                           "of the fit",
                           fmt::join(o->measurements, ", "), shape);
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

            // Provenance, in the written profile and the report.
            const std::time_t now = std::time(nullptr);
            char date[32];
            std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
            // The data files by absolute path, as the start profile is (a relative one means nothing
            // where the overlay is read: a fresh user's find); "-" (stdin) stays as it is.
            auto absolute_paths = [](const std::vector<std::string>& paths) {
              std::vector<std::string> out;
              for (const std::string& path : paths) {
                std::error_code abs_ec;
                const std::filesystem::path a = std::filesystem::absolute(path, abs_ec);
                out.push_back(path == "-" || abs_ec ? path : a.lexically_normal().string());
              }
              return out;
            };
            const std::vector<std::string> data_files = absolute_paths(o->measurements);
            const std::vector<std::string> family_files = absolute_paths(families_used);
            // A start profile fitted on these files already (a calibrated overlay fitted again): its
            // values saw the held-out folds' shapes, so "held out, before" is in sample there and
            // "after" starts from them; said, and kept with the overlay (the report said "held out"
            // unqualified: a fresh user's find, 2026-12-07).
            std::vector<std::string> fitted_before;
            // By path, or as the same file (a link, another spelling: a fresh user's find, 2026-12-07).
            for (const std::string& file : data_files)
              if (std::any_of(profile.calibration_data_files.begin(), profile.calibration_data_files.end(),
                              [&](const std::string& fitted) { return fitted == file || same_file(fitted, file); }))
                fitted_before.push_back(escape_control(file));
            const std::string refit_note =
                fitted_before.empty()
                    ? std::string()
                    : fmt::format("the start profile was fitted on {} already: the held-out figures score values "
                                  "that saw those shapes (before: in sample; after: refitted from them), not a "
                                  "held-out test; the start's own provenance has the first fit's",
                                  fmt::join(fitted_before, ", "));
            if (!refit_note.empty()) spdlog::warn("{}: {}", profile_source_text(profile.hw), refit_note);
            std::vector<std::string> provenance = {
                fmt::format("fitted by {} calibrate on {} for target {}{} on profile {} ({}, profile digest {})",
                            version_line(), date, target.name(),
                            c.variant.empty() ? "" : " (parameter set " + c.variant + ")",
                            profile_source_text(profile.hw), hardware_label(profile.hw), profile.hw.source_digest),
                fmt::format("data: {} (kernel {}){}", fmt::join(data_files, ", "), kernel,
                            family_files.empty() ? std::string()
                                                 : fmt::format("; families from {}", fmt::join(family_files, ", "))),
                // What reproduces the fit (the families and parameters were not recorded: a fresh user's find).
                fmt::format("fitted parameters: {}; {} folds, {}", fmt::join(fitted_names, ","), options.folds,
                            cli::counted(options.passes, "pass", "passes")),
                fmt::format("{} shapes in {} families, {}-fold cross-validation by family; pooled held out: geomean "
                            "{:.1f}% -> {:.1f}% of oracle, worst {:.1f}% -> {:.1f}%, top-5 distinct {:.1f}% -> {:.1f}%, "
                            "median top-1 error {:.1f}% -> {:.1f}%",
                            c.shapes, c.families, c.folds.size(), c.held_out_before.geomean_pct_of_oracle,
                            c.held_out_after.geomean_pct_of_oracle, c.held_out_before.worst_pct_of_oracle,
                            c.held_out_after.worst_pct_of_oracle, c.held_out_before.top5_pct_of_oracle,
                            c.held_out_after.top5_pct_of_oracle, c.held_out_before.median_abs_err_pct,
                            c.held_out_after.median_abs_err_pct)};
            for (std::size_t i = 0; i < c.folds.size(); ++i) {
              const FoldResult& f = c.folds[i];
              provenance.push_back(fmt::format(
                  "fold {} held out ({}): geomean {:.1f}% -> {:.1f}% of oracle, worst {:.1f}% -> {:.1f}%, "
                  "top-5 distinct {:.1f}% -> {:.1f}%, median top-1 error {:.1f}% -> {:.1f}%",
                  i + 1, fmt::join(shown(f.families), ", "), f.before.geomean_pct_of_oracle, f.after.geomean_pct_of_oracle,
                  f.before.worst_pct_of_oracle, f.after.worst_pct_of_oracle, f.before.top5_pct_of_oracle,
                  f.after.top5_pct_of_oracle, f.before.median_abs_err_pct, f.after.median_abs_err_pct));
            }
            // The recorded sizes where they are not this fit's alone (Calibration::range_note): in the
            // provenance, and said where the fits' sizes do not overlap.
            if (!c.range_note.empty()) provenance.push_back("fitted_shapes: " + c.range_note);
            if (!refit_note.empty()) provenance.push_back("note: " + refit_note);
            if (c.range_disjoint) spdlog::warn("{}: {}", o->out, c.range_note);
            std::string kept_digest;
            std::string yaml =
                calibrated_profile_yaml(profile_text(profile.hw.source), profile, target, c, provenance, &kept_digest);
            if (!kept_digest.empty()) spdlog::warn("{}: {}", o->out, kept_digest);
            write_file_atomically(o->out, yaml);
            g_files_written.push_back(o->out);
            // The file must load as it is meant to be used.
            (void)parse_profile(yaml, o->out);
            bool moved = false;
            for (const ModelParamInfo& info : kModelParamRegistry)
              moved = moved || c.start.*(info.field) != c.fitted.*(info.field);
            if (!moved)
              // The fit on all shapes kept every start value (the folds' fits may have moved): the file
              // holds the start's values, which the warning below called worse than themselves.
              spdlog::warn("no parameter moved in the fit on all shapes: {} holds the start's values ({}), written out", o->out,
                           profile_source_text(profile.hw));
            // Worse by at least what the line shows (0.05 points): "96.7% -> 96.7%" was called worse, a
            // difference too small to print failing a --strict CI run (a fresh user's find, 2026-12-07).
            else if (c.held_out_after.geomean_pct_of_oracle < c.held_out_before.geomean_pct_of_oracle - 0.05)
              spdlog::warn("the fit does not generalize: held out, geomean {:.1f}% -> {:.1f}% of oracle, worst {:.1f}% -> "
                           "{:.1f}%; {} is written, but the start ({}) scores better on families it was not fitted on",
                           c.held_out_before.geomean_pct_of_oracle, c.held_out_after.geomean_pct_of_oracle,
                           c.held_out_before.worst_pct_of_oracle, c.held_out_after.worst_pct_of_oracle, o->out,
                           profile.hw.source);
            // The fit ranks; its times may get worse (the objective forgives a median error up to 15%):
            // said when the held-out median error grows by half or more (it could triple unsaid).
            if (moved && c.held_out_after.median_abs_err_pct > 1.5 * c.held_out_before.median_abs_err_pct &&
                c.held_out_after.median_abs_err_pct > 5.0)
              spdlog::warn("the fit's predicted times are less accurate held out: median top-1 time error {:.1f}% -> "
                           "{:.1f}% (the fit's objective is the ranking, with a time error it forgives up to 15%; use the start's "
                           "times to budget a kernel)",
                           c.held_out_before.median_abs_err_pct, c.held_out_after.median_abs_err_pct);

            std::ostringstream out;
            if (o->format == "json") {
              nlohmann::json folds = nlohmann::json::array();
              for (const FoldResult& f : c.folds)
                folds.push_back({{"families", f.families}, {"before", score_json(f.before)}, {"after", score_json(f.after)}});
              nlohmann::json params = nlohmann::json::object();
              // Whether the fit moved it is start != fitted; whether the fit was asked to is "fit".
              for (const ModelParamInfo& info : kModelParamRegistry)
                params[std::string(info.name)] = {
                    {"start", c.start.*(info.field)}, {"fitted", c.fitted.*(info.field)}, {"fit", was_fit(info)}};
              out << json_text(nlohmann::json{{"generator", generator_json()},
                                              {"target", target.name()},
                                              {"parameter_set", c.variant},
                                              {"hardware", profile.hw.name},
                                              {"cu_count", profile.hw.cu_count},
                                              {"start_profile", profile_source_text(profile.hw)},
                                              {"start_profile_digest", profile.hw.source_digest},
                                              {"profile_digest", text_digest(yaml)},
                                              {"measurements", data_files},
                                              {"families_files", family_files},
                                              {"kernel", kernel},
                                              {"shapes", c.shapes},
                                              {"families", c.families},
                                              {"folds", folds},
                                              {"held_out_before", score_json(c.held_out_before)},
                                              {"held_out_after", score_json(c.held_out_after)},
                                              {"all_before", score_json(c.all_before)},
                                              {"all_after", score_json(c.all_after)},
                                              {"parameters", params},
                                              {"profile", std::filesystem::absolute(o->out).lexically_normal().string()}},
                               2)
                  << "\n";
            } else {
              out << fmt::format("calibrate {}{}{} on {}{}: {} shapes in {} families, {} folds by family ({:.1f} s)\n",
                                 target.name(), c.variant.empty() ? "" : " (parameter set " + c.variant + ")",
                                 kernel == target.name() ? std::string() : " to kernel " + printable(kernel),
                                 hardware_label(profile.hw), profile_file_note(profile.hw), c.shapes, c.families,
                                 c.folds.size(), seconds);
              // Both groups' columns named (the second had none: a fresh H100 user's find, 2026-12-05).
              out << fmt::format("{:<7} {:^28}   {:^28}   {}\n", "", "held out, before", "held out, after",
                                 "families held out");
              out << fmt::format("{:<7} {:>6} {:>6} {:>6} {:>7}   {:>6} {:>6} {:>6} {:>7}\n", "", "geo", "worst",
                                 "top5d", "err", "geo", "worst", "top5d", "err");
              PickScore mean_before, mean_after;
              // Families joined with ", ": a shape's own label (no family column) has spaces, and with
              // " " between them the list could not be read back (a fresh user's find, 2026-12-06).
              for (std::size_t i = 0; i < c.folds.size(); ++i) {
                const FoldResult& f = c.folds[i];
                out << fmt::format("{:<7} {:>28}   {:>28}   {}\n", fmt::format("fold {}", i + 1), score_text(f.before),
                                   score_text(f.after),
                                   fmt::join(shown(f.families), ", "));
              }
              out << fmt::format("{:<7} {:>28}   {:>28}   (every shape in its held-out fold)\n", "pooled",
                                 score_text(c.held_out_before), score_text(c.held_out_after));
              out << fmt::format("{:<7} {:>28}   {:>28}   (in-sample, the fit that is written)\n", "all",
                                 score_text(c.all_before), score_text(c.all_after));
              // A fitted parameter the fit left where it started says so (its status was empty: a
              // fresh user's find, 2026-12-06).
              out << "parameters (start -> fitted; those not fitted stay at the start):\n";
              for (const ModelParamInfo& info : kModelParamRegistry) {
                const double a = c.start.*(info.field), b = c.fitted.*(info.field);
                out << fmt::format("  {:<34} {:>10.4g} -> {:<10.4g} {}\n", info.name, a, b,
                                   a != b ? "(changed)" : was_fit(info) ? "(fitted, unchanged)" : "(not fitted)");
              }
              out << fmt::format("wrote {} (use it with --hw {} --target {})\n", escape_control(o->out), hw_argument(o->out),
                                 target.name());
            }
            std::cout << out.str();
            return kExitOk;
          }};
}

}  // namespace cli
