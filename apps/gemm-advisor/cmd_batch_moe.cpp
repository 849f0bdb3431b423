// `gemm-advisor batch LIST --target vllm-fused-moe`: ranks every MoE model of a list (or --from-hf) at
// each M of --m-values, and prints the rankings or writes vLLM's fused-MoE tuned-config files.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>
#include <tuple>

#include "cli.hpp"
#include "gemm_advisor/advise.hpp"
#include "gemm_advisor/emit.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/frontend.hpp"
#include "gemm_advisor/report.hpp"
#include "gemm_advisor/targets/vllm_fused_moe.hpp"

namespace cli {

int run_moe_batch(const MoeBatchOptions& o) {
  using namespace gemm_advisor;
  const CommonOptions& common = *o.common;
  const bool emit_vllm = o.emit == "vllm";
  if (o.emit == "triton") throw UsageError("--emit triton lists a GEMM's configs: for MoE layers use --emit vllm");
  if (emit_vllm && o.out_dir.empty()) throw UsageError("--emit vllm needs --out DIR (the directory for the config files)");
  if (emit_vllm && o.out_dir == "-")
    throw UsageError("--emit vllm writes files into --out DIR: - (stdout) cannot hold them");
  if (emit_vllm && !common.candidates.empty())
    throw UsageError("--emit vllm ranks vLLM's own kernel space: drop --candidates");
  if (emit_vllm && ranking_options_given(common))
    throw UsageError("--top and --distinct choose what is printed: --emit vllm writes each M's top config");
  if (!emit_vllm && (!o.vllm_device_name.empty() || o.overwrite))
    throw UsageError("--vllm-device-name and --overwrite go with --emit vllm");
  // As batch does for vllm-fp8-block: a --layout the kernel cannot take is the command line's error,
  // said once, not once per model and M (the layers are x W^T; the list has no layout column).
  if (common.layout_option && common.layout_option->count() > 0) {
    const std::string layout = parse_layout(common.layout).name();  // checked at parse time
    if (layout != "NT")
      throw UsageError("--layout " + common.layout + ": vLLM's fused MoE computes x W^T (layout NT), got " + layout);
  }
  if (is_input_keyword(o.m_values)) throw UsageError("--m-values input: a model list has no M; give a list, e.g. 1,16,128");
  std::vector<std::int64_t> m_values;
  try {
    m_values = parse_m_value_list(o.m_values);
  } catch (const InputError& e) {
    throw UsageError(e.what());
  }

  // The models: a list, or one config.json.
  std::vector<MoeModel> models;
  if (!common.moe.from_hf.empty()) {
    if (!o.input.empty()) throw UsageError("give a model list or --from-hf config.json, not both");
    models.push_back(moe_model(common));
  } else {
    if (o.input.empty()) throw UsageError("give a model list (CSV, YAML or JSON) or --from-hf config.json");
    if (common.moe.tp != 1) throw UsageError("--tp goes with --from-hf: a model list gives each model's tp");
    if (dtype_given(common))
      throw UsageError("--dtype goes with --from-hf: a model list gives each model's dtype");
    std::vector<std::string> warnings;
    if (o.input == "-") claim_stdin("the model list");
    models = read_moe_models(o.input, &warnings, true);  // bad entries in place: --keep-going goes past them
    for (const std::string& w : warnings) spdlog::warn("{}", w);
  }
  const MoeSpec routing = moe_routing(common.moe);

  const Profile profile = load_profile_logged(common.hw, common.overrides, vllm_fused_moe_target().name());
  const Hardware& hw = profile.hw;
  // An fp8 encoding the GPU does not compute, as rank's --dtype is warned of: once per spelling, at
  // the first model that writes it (--from-hf's --dtype is the command line's, warned of there).
  ListDtypeEncodings list_encodings;
  for (const MoeModel& m : models) {
    if (m.error.empty())
      if (const std::string w = list_encodings.first_warning(m.dtype_text, hw); !w.empty())
        spdlog::warn("{}", m.line > 0 ? located(o.input == "-" ? "<stdin>" : o.input, m.line,
                                                entry_place(m.entry) + w)
                                      : w);
  }
  const Target& target = vllm_fused_moe_target();
  {
    // An overlay's parameter sets against the layers' (a bf16 model with fp8_block values alone).
    std::vector<GemmProblem> layers;
    for (const MoeModel& m : models)
      if (m.error.empty()) layers.push_back(m.layer(1, routing));
    warn_unused_param_set(profile, std::string(target.name()), layers);
  }
  // --candidates: the given configs instead of the kernel's space, read and checked as rank reads them.
  const std::vector<TileConfig> fixed = read_given_candidates(common.candidates);
  std::string device_name;
  if (emit_vllm) {
    warn_partition_files(hw, common.overrides);
    std::string mapped;  // a --hw FILE named like a shipped profile: its name taken for the device's
    device_name = o.vllm_device_name.empty() ? vllm_device_name(hw, &mapped) : o.vllm_device_name;  // checked at parse time
    if (!mapped.empty()) spdlog::warn("{}", mapped);
    // vLLM's fused MoE looks every H200's files up as NVIDIA_H200 (vllm_moe_device_name): a variant's
    // name given is checked as the name written, and its figures said apart (the warning said vLLM
    // read the files "on the GPU named so" while they were written as NVIDIA_H200's: a fresh MoE
    // user's find, 2026-12-07).
    const std::string written = vllm_moe_device_name(device_name);
    if (const std::string other =
            vllm_device_vendor_warning(hw, written, /*rocm_keys=*/true, /*given=*/!o.vllm_device_name.empty());
        !other.empty())
      spdlog::warn("{}", other);
    else if (written != device_name && hw.source == "embedded:" + hw.name)
      spdlog::warn("--vllm-device-name {}: vLLM's fused MoE reads every H200's files as {}, the name written; they "
                   "are ranked with the shipped {} profile's figures ({}), which a variant's SMs, clocks or memory may "
                   "not match ({})",
                   device_name, written, hw.name, hw.display_name, own_profile_advice(hw.name));
    // A market name given for the GPU, which an older vLLM would look the files up under (a fresh MoE
    // user's find, 2026-12-05).
    if (o.vllm_device_name.empty()) warn_vllm_market_name(hw, common, device_name);
    check_directory_creatable(o.out_dir);  // created when the files are written: a failed run leaves none
    check_generator_sidecar(o.out_dir);  // before any file: a sidecar that cannot be replaced stops the run
  }

  // --out FILE without --emit vllm: the rows go to FILE, in place only when the run ends well.
  ResultsFile results(emit_vllm ? std::string() : o.out_dir, o.input, common);

  // One file per (E, N, dtype, block shape), as vLLM names them; two models sharing one would write
  // the same file, so the first keeps it.
  using FileKey = std::tuple<std::int64_t, std::int64_t, std::string, std::int64_t>;
  std::map<FileKey, std::pair<std::string, std::map<std::int64_t, TileConfig>>> files;  // key -> (model, M -> config)
  std::map<FileKey, MoeModel> file_model;  // key -> the model whose file it is
  std::vector<TileConfig> space;
  std::vector<RankedConfig> ranked;
  std::size_t ranked_layers = 0, bad = 0;
  BeyondMemory beyond_memory;  // layers whose weights and activations exceed the GPU's memory
  OutsideFittedShapes outside_fit{profile, target, {}};  // ... outside a calibrated overlay's shapes
  std::size_t infeasible_layers = 0;  // layers for which some --candidates config cannot run
  std::string first_infeasible;
  const std::size_t top = common.top;
  // The CSV header goes out with the first ranked layer: a run whose first model is bad printed a
  // header alone (the GEMM batch prints nothing then: a fresh CI user's find, 2026-12-04).
  bool csv_header_due = o.format == "csv" && !emit_vllm;
  bool stopped = false;  // a bad model without --keep-going: the files of the models before it are written
  for (const MoeModel& model : models) {
    if (stopped) break;
    if (!model.error.empty()) {  // a bad list entry: as a layer that cannot be ranked
      std::cout.flush();
      std::cerr << "gemm-advisor: error: " << model.error << "\n";
      ++bad;
      if (!o.keep_going) stopped = true;
      continue;
    }
    // A list's model by its line; a --from-hf model by its config file (it was named by its model_type
    // alone, "qwen3_moe M=300000000: ...": a fresh user's find, 2026-12-05).
    const std::string where = model.line > 0                 ? o.input + ":" + std::to_string(model.line) + ": "
                              : !common.moe.from_hf.empty() ? common.moe.from_hf + ": "
                                                            : "";
    const std::string label = model.name.empty() ? fmt::format("E{}-N{}-H{}", model.experts, model.n_per_rank(), model.hidden)
                                                 : model.name;
    const FileKey key{model.experts, model.n_per_rank(), vllm_moe_dtype(model), model.quant_block};
    if (emit_vllm) {
      // The first model's label, with its line where it has one (two unnamed models of one E and N
      // were each other's "E8-N14336-H4096": a fresh user's find, 2026-12-04).
      const std::string first = model.line > 0 ? label + " (line " + std::to_string(model.line) + ")" : label;
      const auto [it, fresh] = files.try_emplace(key, first, std::map<std::int64_t, TileConfig>{});
      const MoeModel& owner = file_model.try_emplace(key, model).first->second;
      if (!fresh) {
        // What the file's configs were ranked for that this model does not have: its hidden size (K),
        // top_k, or 16-bit dtype (vLLM leaves bf16 and fp16 out of the name). A hidden size of its own
        // read as a harmless duplicate (a fresh CI user's find, 2026-12-05); top_k and the dtype went
        // unsaid, the dtype called the same (a fresh user's find, 2026-12-06).
        std::vector<std::string> differs;
        if (owner.hidden != model.hidden)
          differs.push_back(fmt::format("hidden size K = {} (this model's {})", owner.hidden, model.hidden));
        if (owner.top_k != model.top_k)
          differs.push_back(fmt::format("top_k = {} (this model's {})", owner.top_k, model.top_k));
        if (owner.dtype != model.dtype)
          differs.push_back(fmt::format("dtype {} (this model's {})", dtype_name(owner.dtype), dtype_name(model.dtype)));
        std::string ranked_for;
        for (std::size_t i = 0; i < differs.size(); ++i)
          ranked_for += (i == 0 ? "; the file's configs are ranked for its " : i + 1 == differs.size() ? " and " : ", ") +
                        differs[i];
        spdlog::warn("{}{}: E={}, N={}{} as {}, whose file it is: vLLM names its files by E, N and fp8 dtype only{}; "
                     "skipped",
                     where, label, model.experts, model.n_per_rank(), model.dtype == Dtype::fp8 ? " and dtype" : "",
                     it->second.first, ranked_for);
        continue;
      }
    }
    for (const std::int64_t m : m_values) {
      const GemmProblem p = model.layer(m, routing);
      try {
        validate_problem(p);
        require_dtype(hw, p.dtype);
        advise(target, p, profile, fixed.empty() ? nullptr : &fixed, emit_vllm ? 1 : top, space, ranked,
               !emit_vllm && common.distinct);
        if (common.distinct) distinct_tiles_first(ranked, top);
        // With --candidates, the first one's reason, as rank gives each (a fresh user's find: batch gave none).
        if (ranked.empty() || !ranked.front().estimate.feasible)
          throw InputError("no config of vLLM's fused MoE kernel fits " + p.shape_text() + " on " + hw.name +
                           (fixed.empty() ? ""
                                          : " among the configs of " + common.candidates +
                                                (ranked.empty() ? std::string()
                                                                : " (" + infeasible_config_text(ranked.front()) + ")")));
      } catch (const InputError& e) {
        std::cout.flush();
        std::cerr << "gemm-advisor: error: " << where << label << " M=" << m << ": " << e.what() << "\n";
        ++bad;
        if (!o.keep_going) stopped = true;
        break;  // the model's file would lack this M: it is not written
      }
      ++ranked_layers;
      beyond_memory.note(p, hw, where + label + " ");
      outside_fit.note(p, where + label + " ");
      // A given config that cannot run on this layer: counted and said once at the end, as the dense
      // batch says it (the fused-MoE batch listed them unsaid: a fresh user's find, 2026-12-04).
      if (!fixed.empty()) {
        const auto bad_given = std::find_if(ranked.begin(), ranked.end(),
                                            [](const RankedConfig& r) { return !r.estimate.feasible; });
        if (bad_given != ranked.end() && infeasible_layers++ == 0)
          first_infeasible = where + label + " M=" + std::to_string(m) + ": " + infeasible_config_text(*bad_given);
      }
      const std::string name = fmt::format("{}/m{}", label, m);
      if (emit_vllm) {
        files[key].second[m] = ranked.front().config;
      } else if (o.format == "csv") {
        if (csv_header_due) write_ranking_csv_header(std::cout, true), csv_header_due = false;
        write_ranking_csv_rows(std::cout, p, hw, std::string(target.name()), ranked, top, name);
      } else if (o.format == "table") {
        write_ranking_table(std::cout, p, hw, ranked, top, name);
        std::cout << "\n";
      } else {
        nlohmann::json j = ranking_json(p, hw, std::string(target.name()), ranked, top, name);
        add_fitted_shapes_note(j, profile, target, p);
        std::cout << json_text(j) << "\n";
      }
    }
  }
  std::size_t written = 0;
  std::vector<std::string> names;  // the files written, for the sidecar
  if (emit_vllm) {
    for (const auto& [key, entry] : files) {
      if (entry.second.size() != m_values.size()) continue;  // a model that did not rank at every M
      const auto& [experts, n, dtype, block] = key;
      names.push_back(vllm_moe_config_file_name(experts, n, device_name, dtype, block));
    }
    nlohmann::json run = sidecar_run_json(hw, target);
    run["routing"] = moe_routing_text(routing);
    std::vector<std::pair<std::string, std::string>> texts;
    std::map<std::string, nlohmann::json> layers;  // each file's layer, so that a later run into the
                                                   // directory tells another model's file under this name
    std::size_t index = 0;
    for (const auto& [key, entry] : files) {
      if (entry.second.size() != m_values.size()) continue;
      const MoeModel& owner = file_model.at(key);
      const std::string model_name =
          owner.name.empty() ? fmt::format("E{}-N{}-H{}", owner.experts, owner.n_per_rank(), owner.hidden) : owner.name;
      layers[names[index]] = {{"model", model_name}, {"hidden", owner.hidden}, {"top_k", owner.top_k},
                              {"dtype", std::string(dtype_name(owner.dtype))}};
      texts.emplace_back(names[index++], vllm_moe_config_file_text(entry.second, hw, std::get<2>(key)));
    }
    written += write_vllm_directory(o.out_dir, texts, run, o.overwrite, &layers);
  }
  // Every model bad, the whole list read (--keep-going): the header alone, as the GEMM batch answers.
  if (csv_header_due && !stopped) write_ranking_csv_header(std::cout, true);
  std::cout.flush();
  const bool results_written = results.finish(!stopped);
  beyond_memory.warn();
  outside_fit.warn();
  if (infeasible_layers > 0)
    spdlog::warn("{}: configs that cannot run on {} are {} (first: {})", common.candidates,
                 counted(infeasible_layers, "layer", "of the layers"),
                 emit_vllm ? "left out of the written files" : "listed after the others with their reason",
                 first_infeasible);
  // The summary, unless nothing ran: then the error line says it all (bad input: one line).
  if (!g_quiet && (bad == 0 || ranked_layers > 0)) {
    std::cerr << fmt::format("gemm-advisor: batch: {} x {}: {} ranked ({} routing), {} bad{}{}\n",
                             counted(models.size(), "model", "models"), counted(m_values.size(), "M value", "M values"),
                             counted(ranked_layers, "layer", "layers"), moe_routing_text(routing), bad,
                             stopped ? " (stopped at the first bad model; --keep-going goes on)" : "",
                             emit_vllm ? ", " + counted(written, "file", "files") + " written to " + o.out_dir
                             : results_written ? ", written to " + o.out_dir
                             : results.written_through() ? ", what ran went to " + o.out_dir
                             : results.active() ? ", " + o.out_dir + " not written"
                                                : std::string());
  }
  return bad ? kExitBadInput : kExitOk;
}

}  // namespace cli
