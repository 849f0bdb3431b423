#pragma once
/// Report writers for rankings: table (people), JSON (one object), CSV (spreadsheets, CI).
/// JSON schema: README, "JSON output".
#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

#include "gemm_advisor/ranker.hpp"

namespace gemm_advisor {

/// The model's terms of one estimate, keys with units (`_s`, `_bytes`), as in README.
nlohmann::json estimate_json(const Estimate& e);

/// One config entry: rank, the config's fields, latency_s, tflops, pct_of_peak, bound, waves and
/// the model's terms under "terms". An infeasible entry has "feasible": false and "reason".
nlohmann::json ranked_config_json(const RankedConfig& r, std::size_t rank, const GemmProblem& p, const Hardware& hw);

/// The whole ranking of one problem: {problem, hardware, target, configs[, name]}. `top` = 0: all.
nlohmann::json ranking_json(const GemmProblem& p, const Hardware& hw, const std::string& target,
                            const std::vector<RankedConfig>& ranked, std::size_t top, const std::string& name = "");

/// Adds "outside_fitted_shapes" (outside_fitted_shapes_warning's text, naming the sizes outside and
/// the fitted range) to a ranking or explain JSON object `j` of problem `p` where the profile's
/// calibrated parameters for `target` were fitted on other sizes; nothing otherwise. So machine
/// readers see per shape what stderr says once (a CI job could not tell which of its shapes were
/// extrapolated: a fresh user's find, 2026-12-07).
void add_fitted_shapes_note(nlohmann::json& j, const Profile& profile, const Target& target, const GemmProblem& p);

/// A human-readable table of the top `top` entries (0: all), with a one-line title.
void write_ranking_table(std::ostream& out, const GemmProblem& p, const Hardware& hw,
                         const std::vector<RankedConfig>& ranked, std::size_t top, const std::string& name = "");

/// CSV: the header line, then one line per ranked entry (top `top`; 0: all). With `moe` (fused-MoE
/// layers: rows of MoE problems only) the header has experts, top_k, gemm, block_shape and routing
/// after layout, which say what layer m, n and k belong to. `target` (the kernel ranked, as
/// `--target` names it) is the column after hardware, as the JSON outputs carry it.
void write_ranking_csv_header(std::ostream& out, bool moe = false);
/// The problem's columns of that header, in order: name, m, n, k, batch, dtype, layout and, for
/// `moe`, experts, top_k, gemm, block_shape, routing (what a candidates reader reads past in a
/// ranking CSV given as --candidates).
const std::vector<std::string>& ranking_csv_problem_columns(bool moe);
/// The columns of that header after the problem's (hardware, target, rank, the config, the estimate:
/// latency_us ... reason), in order: what a shape-list reader reads past in `batch --format csv`'s
/// own output.
const std::vector<std::string>& ranking_csv_result_columns();
void write_ranking_csv_rows(std::ostream& out, const GemmProblem& p, const Hardware& hw, const std::string& target,
                            const std::vector<RankedConfig>& ranked, std::size_t top, const std::string& name = "");

/// Quotes a CSV field when it holds a comma, quote or newline (RFC 4180), starts with '#' (a comment
/// to CSV readers) or starts or ends with a space or tab (trimmed when read); control bytes other than
/// tab and newlines are written \xNN (as the table writes them), UTF-8 text as it is.
std::string csv_field(const std::string& s);

/// JSON text of `j` (nlohmann::json, or ordered_json, whose key order it keeps) for output: one
/// line when `indent` is -1, else indented by `indent` spaces (as nlohmann's dump). Every JSON
/// output goes through it: bytes that are not valid UTF-8, should any reach a string unchecked,
/// are written as U+FFFD instead of throwing (dump's default), so a stray byte can never end a run
/// in an internal error.
template <typename Json>
std::string json_text(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace gemm_advisor
