#include "gemm_advisor/frontend.hpp"

#include <cstdio>
#include <cstdlib>

#include "gemm_advisor/advise.hpp"
#include "gemm_advisor/csv_reader.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/model_params.hpp"
#include "gemm_advisor/moe.hpp"
#include "gemm_advisor/report.hpp"

#include <sys/wait.h>
#include <unistd.h>

namespace gemm_advisor {

namespace {

// A hung driver hangs nvidia-smi: the query gets 5 s (coreutils' timeout, by its path: PATH may
// not hold it), then counts as no GPU.
constexpr const char* kTimeoutCommand = "/usr/bin/timeout";
constexpr const char* kTimeoutArgs = " -k 1 5 ";

// The non-empty lines of a command's stdout (none if it cannot run, fails or times out): how the
// local GPU is named. `timed_out` is set when the time limit ended it (coreutils' status 124).
std::vector<std::string> command_lines(const std::string& query, bool* timed_out = nullptr) {
  std::vector<std::string> lines;
  const bool can_time_out = ::access(kTimeoutCommand, X_OK) == 0;
  const std::string command = can_time_out ? std::string(kTimeoutCommand) + kTimeoutArgs + query : query;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return lines;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe) && lines.size() < 64) {
    std::string line(buffer);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) lines.push_back(line);
  }
  const int status = ::pclose(pipe);
  if (status != 0) lines.clear();  // a failed query names nothing
  constexpr int kTimedOutStatus = 124;  // coreutils timeout(1)
  if (timed_out) *timed_out = can_time_out && status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == kTimedOutStatus;
  return lines;
}

}  // namespace

std::string shipped_profile_names() {
  std::string known;
  for (const auto& e : embedded_profiles()) known += (known.empty() ? "" : ", ") + std::string(e.name);
  return known;
}

std::string default_hardware_name(std::string_view option, std::string* local_gpu) {
  if (local_gpu) local_gpu->clear();
  if (const char* env = std::getenv("GEMM_ADVISOR_HW"); env && *env) return env;
  // nvidia-smi prints one name per GPU ("NVIDIA H100 80GB HBM3"); rocm-smi --showproductname prints
  // "GPU[0] : Card Series: AMD Instinct MI300X OAM" among other lines.
  bool nvidia_timed_out = false, rocm_timed_out = false;
  std::vector<std::string> names =
      command_lines("nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null", &nvidia_timed_out);
  if (names.empty()) {
    for (const std::string& line : command_lines("rocm-smi --showproductname 2>/dev/null", &rocm_timed_out)) {
      const std::size_t at = line.find("Card Series:");
      if (at == std::string::npos) continue;
      std::string name = line.substr(at + 12);
      name.erase(0, name.find_first_not_of(" \t"));
      if (!name.empty()) names.push_back(name);
    }
  }
  const std::string opt(option);
  const std::string give = "give " + opt + (opt.back() == '=' ? "" : " ") + "NAME (" + shipped_profile_names() +
                           ") or a profile YAML";
  if (names.empty()) {
    const std::string hung = nvidia_timed_out && rocm_timed_out ? "nvidia-smi and rocm-smi did not answer within 5 s"
                             : nvidia_timed_out                  ? "nvidia-smi did not answer within 5 s"
                             : rocm_timed_out                    ? "rocm-smi did not answer within 5 s"
                                                                 : "nvidia-smi, rocm-smi";
    // An empty GEMM_ADVISOR_HW= counts as unset, and says so (it read "not set": a fresh user's find).
    const char* env = std::getenv("GEMM_ADVISOR_HW");
    const std::string env_state = env ? "GEMM_ADVISOR_HW is empty" : "GEMM_ADVISOR_HW is not set";
    throw InputError("no " + opt + " given, " + env_state + " and no GPU was found (" + hung + "): " + give);
  }
  // GPUs of different kinds: which one the kernel runs on is the user's to say.
  for (const std::string& other : names) {
    if (other != names.front())
      throw InputError("no " + opt + " given and the local GPUs differ ('" + printable(names.front()) + "', '" +
                       printable(other) + "'): " + give);
  }
  const std::string resolved = resolve_profile_name(names.front());
  if (resolved.empty())
    throw InputError("no " + opt + " given and the local GPU, '" + printable(names.front()) +
                     "', is not a shipped profile: " + give);
  if (local_gpu) *local_gpu = names.front();
  return resolved;
}

GemmProblem problem_defaults_for(const TargetInfo& target, std::string_view dtype, std::string_view layout) {
  GemmProblem base;
  base.dtype = parse_dtype(!dtype.empty() ? dtype : !target.default_dtype.empty() ? target.default_dtype : "bf16");
  base.layout = parse_layout(!layout.empty() ? layout : !target.default_layout.empty() ? target.default_layout : "NT");
  return base;
}

void require_matrix_dtype(const Hardware& hw, Dtype d, std::string_view given) {
  if (hw.rate(d)) return;
  std::string have;
  for (int i = 0; i < kDtypeCount; ++i) {
    if (hw.matrix[static_cast<std::size_t>(i)])
      have += (have.empty() ? "" : ", ") + std::string(dtype_name(static_cast<Dtype>(i)));
  }
  const std::string name(dtype_name(d));
  const std::string spelled = given.empty() || given == name ? name : std::string(given) + " (" + name + ")";
  throw InputError("dtype " + spelled + " is not supported by " + hw.name + " (it has: " + have + ")");
}

std::string empty_space_reason() {
  return " (every config of the target's space breaks a limit of the profile: triton.max_num_stages, "
         "triton.max_split_k, the registers or the shared memory; `explain --config` names the limit a "
         "given config breaks)";
}

std::string infeasible_config_text(const RankedConfig& r) { return r.config.text() + ": " + r.infeasible_reason; }

std::vector<std::string> infeasible_warnings(const std::vector<RankedConfig>& ranked, const Hardware& hw,
                                             const std::string& source,
                                             const std::function<std::string(const TileConfig&, std::string)>& locate) {
  std::vector<std::string> out;
  RepeatedRows infeasible;  // 5 named, then a count, as for configs listed twice
  for (const auto& r : ranked)
    if (!r.estimate.feasible && infeasible.name_next())
      out.push_back(locate(r.config, "config " + r.config.text() + " is infeasible on " + hw.name + ": " + r.infeasible_reason));
  if (std::string more = infeasible.summary(source, "infeasible on " + hw.name, "listed as infeasible"); !more.empty())
    out.push_back(std::move(more));
  return out;
}

void require_feasible(const std::vector<RankedConfig>& ranked, const GemmProblem& p, const Hardware& hw) {
  std::size_t feasible = 0, infeasible = 0;
  for (const auto& r : ranked) (r.estimate.feasible ? feasible : infeasible)++;
  if (feasible > 0) return;
  // The one error line carries a reason (a front end's warnings give every one).
  const std::string why = infeasible == 1 ? ": " + ranked.front().infeasible_reason
                          : infeasible > 1
                              ? " (all " + std::to_string(infeasible) + " configs ranked are infeasible; " +
                                    infeasible_config_text(ranked.front()) + ")"
                              : empty_space_reason();
  throw InputError("no feasible config for " + p.shape_text() + " on " + hw.name + why);
}

RankedConfig explain_config(const Target& target, const GemmProblem& p, const Profile& profile,
                            const TileConfig* given) {
  std::vector<TileConfig> list, space;
  if (given) list.push_back(*given);
  std::vector<RankedConfig> ranked;
  advise(target, p, profile, given ? &list : nullptr, 1, space, ranked);
  if (ranked.empty())
    throw InputError("no feasible config for " + p.shape_text() + " on " + profile.hw.name + empty_space_reason());
  RankedConfig r = ranked.front();
  if (!r.estimate.feasible) {
    // The target's own rules refuse it, or it passes them but no block fits on a CU.
    const std::string why = target.infeasibility(r.config, p, profile);
    throw InputError("config " + r.config.text() +
                     (why.empty() ? " does not fit on a CU of " + profile.hw.name
                                  : " is infeasible on " + profile.hw.name + ": " + why));
  }
  return r;
}

ProblemFloors problem_floors(const GemmProblem& p, const Hardware& hw) {
  ProblemFloors f;
  f.compulsory_bytes = p.compulsory_bytes();
  f.compute_s = p.flops() / hw.peak_flops_per_s(p.dtype);
  f.dram_s = f.compulsory_bytes / hw.dram_bandwidth_bytes_per_s;
  return f;
}

nlohmann::json explain_json(const GemmProblem& p, const Hardware& hw, const Target& target, const RankedConfig& r,
                            bool given) {
  nlohmann::json j = ranking_json(p, hw, std::string(target.name()), {r}, 1);
  j["chosen"] = given ? "given" : "the advisor's top config";
  const ProblemFloors f = problem_floors(p, hw);
  j["floors"] = {{"compute_s", f.compute_s}, {"dram_s", f.dram_s}, {"compulsory_bytes", f.compulsory_bytes}};
  // The dtype C is written in (bf16 for fp8 and narrower inputs): the compulsory bytes count it.
  j["output_dtype"] = dtype_name(output_dtype(p.dtype));
  if (given && j["configs"].is_array() && !j["configs"].empty()) j["configs"][0]["rank"] = nullptr;
  return j;
}

std::vector<std::pair<GemmProblem, Estimate>> moe_layer_estimates(const GemmProblem& p, const Profile& profile,
                                                                  const Target& target, const TileConfig& c) {
  std::vector<std::pair<GemmProblem, Estimate>> gemms;
  if (p.moe.gemm == MoeGemm::layer)
    for (const GemmProblem& g : moe_layer_gemms(p)) gemms.emplace_back(g, target.estimate(target.context(g, profile), c));
  return gemms;
}

nlohmann::json explain_json(const GemmProblem& p, const Profile& profile, const Target& target, const RankedConfig& r,
                            bool given) {
  nlohmann::json j = explain_json(p, profile.hw, target, r, given);
  if (p.moe.gemm != MoeGemm::layer) return j;
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [g, ge] : moe_layer_estimates(p, profile, target, r.config)) {
    list.push_back({{"gemm", moe_gemm_name(g.moe.gemm)}, {"m", g.m}, {"n", g.n}, {"k", g.k},
                    {"latency_s", ge.latency_s}, {"tflops", ge.flops_per_s / 1e12},
                    {"bound", bound_name(ge.bound)}, {"terms", estimate_json(ge)}});
  }
  j["gemms"] = list;
  return j;
}

nlohmann::json profiles_json() {
  nlohmann::json list = nlohmann::json::array();
  const auto aliases_of = profile_aliases();
  for (const auto& e : embedded_profiles()) {
    const Hardware hw = parse_profile(e.yaml, "embedded:" + std::string(e.name)).hw;
    std::vector<std::string> aliases;
    for (const auto& [name, names] : aliases_of)
      if (name == hw.name) aliases.assign(names.begin() + 1, names.end());  // [0] is the display name
    list.push_back({{"name", hw.name},
                    {"display_name", hw.display_name},
                    {"vendor", hw.vendor},
                    {"arch", hw.arch},
                    {"cu_count", hw.cu_count},
                    {"peak_bf16_tflops", hw.peak_flops_per_s(Dtype::bf16) / 1e12},
                    {"dram_tb_per_s", hw.dram_bandwidth_bytes_per_s / 1e12},
                    {"aliases", aliases}});
  }
  return list;
}

nlohmann::ordered_json targets_json() {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  // Each free parameter's unit, allowed range and meaning (model_params.hpp's registry).
  nlohmann::ordered_json registry = nlohmann::ordered_json::object();
  for (const ModelParamInfo& m : kModelParamRegistry)
    registry[std::string(m.name)] = {{"unit", m.unit}, {"min", m.min_value}, {"max", m.max_value}, {"meaning", m.meaning}};
  for (const Target* t : all_targets()) {
    const TargetInfo& info = t->info();
    nlohmann::ordered_json params = nlohmann::ordered_json::array();
    for (const TargetParameter& p : info.parameters)
      params.push_back({{"name", p.name}, {"field", p.field}, {"values", p.values}});
    nlohmann::ordered_json model = nlohmann::ordered_json::object();
    for (const ModelParamInfo& m : kModelParamRegistry) model[std::string(m.name)] = t->default_params().*(m.field);
    // The parameter sets of the kernel's other code paths (Target::param_variants), each its values.
    nlohmann::ordered_json sets = nlohmann::ordered_json::object();
    for (std::string_view v : t->param_variants()) {
      nlohmann::ordered_json values = nlohmann::ordered_json::object();
      for (const ModelParamInfo& m : kModelParamRegistry)
        values[std::string(m.name)] = t->variant_default_params(v).*(m.field);
      sets[std::string(v)] = values;
    }
    list.push_back({{"name", info.name},
                    {"kernel", info.kernel},
                    {"source", info.source},
                    {"parameters", params},
                    {"model_parameters", model},
                    {"parameter_sets", sets},
                    {"model_parameter_units", registry}});
  }
  return list;
}

}  // namespace gemm_advisor
