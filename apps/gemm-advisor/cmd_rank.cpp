// `gemm-advisor rank SHAPE`: the ranked configs of one GEMM.
#include <spdlog/spdlog.h>

#include <iostream>
#include <memory>
#include <map>
#include <sstream>

#include "cli.hpp"
#include "gemm_advisor/advise.hpp"
#include "gemm_advisor/csv_reader.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/frontend.hpp"
#include "gemm_advisor/report.hpp"

namespace cli {

Registered register_rank(CLI::App& app) {
  struct Options {
    CommonOptions common;
    std::string shape;
    std::string format = "table";
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("rank", "Rank the tile configs of one GEMM shape");
  cmd->add_option("shape", o->shape,
                  "MxNxK or MxNxKxB (B = batch), e.g. 4096x4096x4096; --target vllm-fused-moe: the tokens M")
      ->required();
  add_common_options(cmd, o->common, true);
  add_moe_options(cmd, o->common.moe, true);
  cmd->add_option("--format", o->format, "table, json or csv")
      ->capture_default_str()
      ->transform(CLI::IsMember({"table", "json", "csv"}, CLI::ignore_case));
  return {cmd, [o]() {
            using namespace gemm_advisor;
            const GemmProblem p = parse_problem(o->shape, o->common);
            const Profile profile = load_profile_logged(o->common.hw, o->common.overrides, o->common.target);
            warn_unused_param_set(profile, o->common.target, {p});
            warn_outside_fitted_shapes(profile, o->common.target, p);
            const Hardware& hw = profile.hw;
            const Target& target = find_target(o->common.target);
            // The dtype as the user spelled it, only where given: the target's own (vllm-fp8-block's
            // fp8) was told as "dtype bf16 (fp8)" from the option's default (a fresh user's find).
            require_dtype(hw, p.dtype, dtype_given(o->common) ? o->common.dtype : std::string());
            if (const std::string w = dtype_format_warning(o->common.dtype, hw); !w.empty()) spdlog::warn("{}", w);
            warn_beyond_memory(p, hw);
            std::map<TileConfig, long> line_of;  // --candidates: where each config is, for the messages
            const std::vector<TileConfig> given = read_given_candidates(o->common.candidates, &line_of);
            std::vector<TileConfig> space;
            std::vector<RankedConfig> ranked;
            // --distinct: the first --top distinct tiles (advise estimates only those in full); with
            // --top 0 the whole ranking, distinct tiles first.
            advise(target, p, profile, o->common.candidates.empty() ? nullptr : &given, o->common.top, space, ranked,
                   o->common.distinct);
            if (o->common.distinct) distinct_tiles_first(ranked, o->common.top);
            spdlog::debug("rank {}: {} candidates ({}), target {}, {} ranked", p.shape_text(),
                          o->common.candidates.empty() ? space.size() : given.size(),
                          o->common.candidates.empty() ? "the target's space" : o->common.candidates, target.name(),
                          ranked.size());
            // Each infeasible given config said, where it was given. The target's own space holds
            // infeasible configs only where a profile's values make them so (a register reserve of 1024):
            // require_feasible's one line says it then (the warnings named no input, ": config ...", and
            // "listed as infeasible" above an empty output: a fresh user's find, 2026-12-06).
            if (!o->common.candidates.empty())
              for (const std::string& w : infeasible_warnings(ranked, hw, o->common.candidates,
                                                              [&](const TileConfig& c, std::string what) {
                                                                const auto at = line_of.find(c);
                                                                return located(o->common.candidates,
                                                                               at == line_of.end() ? 0 : at->second, what);
                                                              }))
                spdlog::warn("{}", w);
            // A given config larger than the problem, ranked below a slower one (ranker.hpp).
            if (!o->common.candidates.empty()) {
              const TileConfig* fastest = nullptr;
              if (const std::string w = oversized_rank_warning(ranked, p, &fastest); !w.empty()) {
                const auto at = line_of.find(*fastest);
                spdlog::warn("{}", located(o->common.candidates, at == line_of.end() ? 0 : at->second, w));
              }
            }
            try {
              require_feasible(ranked, p, hw);  // one error line with a reason (the warnings give all)
            } catch (const InputError& e) {
              if (o->common.candidates.empty()) throw;
              throw InputError(o->common.candidates + ": " + e.what());  // the given list is what has none
            }
            std::ostringstream out;
            if (o->format == "json") {
              nlohmann::json j = ranking_json(p, hw, o->common.target, ranked, o->common.top);
              add_fitted_shapes_note(j, profile, target, p);
              out << json_text(j, 2) << "\n";
            } else if (o->format == "csv") {
              write_ranking_csv_header(out, p.is_moe());
              write_ranking_csv_rows(out, p, hw, o->common.target, ranked, o->common.top);
            } else {
              write_ranking_table(out, p, hw, ranked, o->common.top);
            }
            std::cout << out.str();
            std::cout.flush();
            return kExitOk;
          }};
}

}  // namespace cli
