// _gemm_advisor: the compiled half of the Python package `gemm_advisor` (python/gemm_advisor/).
// Thin on purpose: each call runs the same library path as the CLI's subcommand (frontend.hpp,
// advise.hpp) and returns the same JSON text (report.hpp), which the Python half parses. Every
// gemm_advisor::InputError reaches Python as gemm_advisor.Error (a ValueError) with its one-line
// message.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gemm_advisor/advise.hpp"
#include "gemm_advisor/csv_reader.hpp"
#include "gemm_advisor/emit.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/frontend.hpp"
#include "gemm_advisor/moe.hpp"
#include "gemm_advisor/profile.hpp"
#include "gemm_advisor/ranker.hpp"
#include "gemm_advisor/report.hpp"
#include "gemm_advisor/shape_list.hpp"
#include "gemm_advisor/target.hpp"
#include "gemm_advisor/targets/vllm_fused_moe.hpp"
#include "gemm_advisor/version.hpp"

namespace py = pybind11;
namespace ga = gemm_advisor;

namespace {

// A loaded profile, as Python holds it: the profile, what it was loaded from, and its load
// warnings (unknown keys, uncited numbers), which the Python half shows once.
struct ProfileHandle {
  ga::Profile profile;
  std::string source;
  std::vector<std::string> warnings;
  std::string text;  ///< a file's YAML as it was read (empty for a shipped profile): what a pickle carries
};

// Shipped profiles by the name they were asked for: parsed once per process, since a call with
// hw="h200" parsed the YAML each time (1.8 ms a call against 0.27 ms with a loaded Profile: a fresh
// user's find, 2026-12-04). Only a name that is no path and no file here (load_profile then reads
// the embedded text, the same every time); a name with warnings is not kept (they are shown once a
// load). Guarded: the module's calls run without the GIL.
std::mutex g_shipped_mutex;
std::map<std::string, ga::Profile> g_shipped;

ProfileHandle load(const std::string& name_or_path) {
  struct stat st {};
  const bool cacheable = !ga::is_profile_path(name_or_path) && ::stat(name_or_path.c_str(), &st) != 0;
  if (cacheable) {
    std::lock_guard<std::mutex> lock(g_shipped_mutex);
    if (const auto it = g_shipped.find(name_or_path); it != g_shipped.end())
      return ProfileHandle{it->second, name_or_path, {}, {}};
  }
  ga::ProfileDiagnostics diagnostics;
  ProfileHandle h{ga::load_profile(name_or_path, &diagnostics), name_or_path, std::move(diagnostics.warnings), {}};
  // A file is remembered by its absolute path and its text: a pickle carries the text, so that the
  // profile unpickled elsewhere (another host, a file since edited or removed) is the one loaded
  // here (it loaded the path again: a fresh user's find, 2026-12-04). The text is the one parsed
  // (read once: a second read could see the file edited in between).
  if (h.profile.hw.source.rfind("embedded:", 0) != 0) {
    h.text = std::move(diagnostics.file_text);
    h.source = ga::profile_source_text(h.profile.hw);
    // The results name the file by this absolute path, not by the relative one resolved again when
    // they are made (after os.chdir it named another file: a fresh user's find, 2026-12-06).
    h.profile.hw.source = h.source;
  } else if (cacheable && h.warnings.empty()) {
    std::lock_guard<std::mutex> lock(g_shipped_mutex);
    g_shipped.emplace(name_or_path, h.profile);
  }
  return h;
}

// The profile a pickle carried: its YAML text, parsed as read from `source` (its absolute path).
ProfileHandle profile_from_text(const std::string& text, const std::string& source) {
  ga::ProfileDiagnostics diagnostics;
  return ProfileHandle{ga::parse_profile(text, source, &diagnostics), source, std::move(diagnostics.warnings), text};
}

// hw as the Python half passes it: None (the default, as the CLI finds it), a name or path, or a
// ProfileHandle (copied). cu_count > 0: restricted to that many CUs (a partition or CU mask), as
// --cu-count does; 0, the whole GPU. max_split_k > 0: the largest split_k tried and accepted, as
// --max-split-k does (triton.max_split_k); 0, the profile's.
ProfileHandle resolve_hw(const py::object& hw, int cu_count, int max_split_k = 0) {
  ProfileHandle h;
  if (hw.is_none()) {
    h = load(ga::default_hardware_name("hw="));
  } else if (py::isinstance<py::str>(hw)) {
    h = load(hw.cast<std::string>());
  } else {
    h = hw.cast<ProfileHandle>();
    h.warnings.clear();  // shown when it was loaded
  }
  if (cu_count > 0) {
    try {
      ga::use_cu_count(h.profile.hw, cu_count);
    } catch (const ga::InputError& e) {
      throw ga::InputError(std::string("cu_count: ") + e.what());
    }
  }
  if (max_split_k > 0) h.profile.triton.max_split_k = max_split_k;
  return h;
}

ga::GemmProblem problem(const ga::Target& target, const std::string& shape, const std::string& dtype,
                        const std::string& layout) {
  return ga::parse_shape(shape, ga::problem_defaults_for(target.info(), dtype, layout));
}

// The CLI's warning for an fp8 encoding the GPU does not compute (FNUZ off gfx942, OCP on it), or
// a dtype it or Triton lacks as asked (tf32 without TF32, nvfp4 on AMD, fp6).
void add_dtype_format_warning(const std::string& dtype, const ga::Hardware& hw, std::vector<std::string>& warnings) {
  if (std::string why = ga::dtype_format_warning(dtype, hw); !why.empty()) warnings.push_back(std::move(why));
}

// The CLI's warnings for a problem (rank, explain): its operands do not fit the GPU's memory; it is
// outside the shapes a calibrated overlay's parameters for the target were fitted on.
void add_problem_warnings(const ProfileHandle& h, const ga::Target& target, const ga::GemmProblem& p,
                          std::vector<std::string>& warnings) {
  if (std::string why = ga::beyond_memory_warning(p, h.profile.hw); !why.empty())
    warnings.push_back(p.shape_text() + ": " + why);
  if (std::string why =
          ga::outside_fitted_shapes_warning(h.profile, target.name(), target.param_variant(p), p, h.source);
      !why.empty())
    warnings.push_back(p.shape_text() + ": " + why);
}

// The CLI's warnings for a calibrated overlay of another target (ga::other_target_params_warning) or
// another CU count (ga::calibrated_cu_count_warning).
void add_target_params_warning(const ProfileHandle& h, const ga::Target& target, std::vector<std::string>& warnings) {
  if (std::string why = ga::other_target_params_warning(h.profile, target.name(), h.source); !why.empty())
    warnings.push_back(std::move(why));
  if (std::string why = ga::calibrated_cu_count_warning(h.profile, h.source, target.name()); !why.empty())
    warnings.push_back(std::move(why));
}

// The configs of a candidates= list (config text, as config_text() writes it), each once: a config
// given again is warned about (5 named, then a count) and ranked once, as `--candidates` does.
// Throws InputError "candidates[I]: ..." for one that does not parse, or an empty list.
std::vector<ga::TileConfig> given_configs(const std::vector<std::string>& candidates, std::vector<std::string>& warnings) {
  if (candidates.empty()) throw ga::InputError("candidates: the list is empty (give at least one config)");
  std::vector<ga::TileConfig> given;
  std::map<std::string, std::size_t> seen;  // config text -> its first index
  ga::RepeatedRows repeated;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    ga::TileConfig c;
    try {
      c = ga::parse_tile_config(candidates[i]);
    } catch (const ga::InputError& e) {
      throw ga::InputError("candidates[" + std::to_string(i) + "]: " + e.what());
    }
    // As `--candidates` does: a config given twice is ranked once (it took two ranks).
    if (const auto [it, fresh] = seen.emplace(c.text(), i); !fresh) {
      if (repeated.name_next())
        warnings.push_back("candidates[" + std::to_string(i) + "]: " + c.text() + " is listed already (candidates[" +
                           std::to_string(it->second) + "]): ranked once");
      continue;
    }
    given.push_back(c);
  }
  if (std::string more = repeated.summary("candidates", "listed again", "each ranked once"); !more.empty())
    warnings.push_back(std::move(more));
  return given;
}

// Ranks `given` (when `candidates`) or the target's space, distinct tiles first when asked; warns of
// each infeasible config (never dropped) and throws "no feasible config" when none is feasible.
std::vector<ga::RankedConfig> ranked_configs(const ga::Target& target, const ga::GemmProblem& p, const ProfileHandle& h,
                                             const std::vector<ga::TileConfig>* given, std::size_t top, bool distinct,
                                             std::vector<std::string>& warnings) {
  std::vector<ga::RankedConfig> ranked;
  {
    py::gil_scoped_release release;
    std::vector<ga::TileConfig> space;
    // distinct: the first `top` distinct tiles (advise estimates only those in full); top 0, all.
    ga::advise(target, p, h.profile, given, top, space, ranked, distinct);
    if (distinct) ga::distinct_tiles_first(ranked, top);
  }
  for (std::string& w : ga::infeasible_warnings(ranked, h.profile.hw, "candidates",
                                                [](const ga::TileConfig&, std::string what) { return what; }))
    warnings.push_back(std::move(w));
  // A given config larger than the problem ranked below a slower one, as `rank --candidates` warns.
  if (given) {
    const ga::TileConfig* fastest = nullptr;
    if (std::string w = ga::oversized_rank_warning(ranked, p, &fastest); !w.empty()) {
      const auto at = std::find(given->begin(), given->end(), *fastest);
      warnings.push_back(at == given->end() ? std::move(w)
                                            : "candidates[" + std::to_string(at - given->begin()) + "]: " + std::move(w));
    }
  }
  ga::require_feasible(ranked, p, h.profile.hw);
  return ranked;
}

// rank: (the JSON text of `rank --format json`, warnings). `candidates`: config texts
// (BMxBNxBK:WARPS:STAGES:SPLITK:gGROUP_M), ranked instead of the target's space.
std::pair<std::string, std::vector<std::string>> ranking_json(const std::string& shape, const py::object& hw,
                                                              const std::string& dtype, const std::string& layout,
                                                              const std::string& target_name, std::size_t top,
                                                              bool distinct,
                                                              const std::optional<std::vector<std::string>>& candidates,
                                                              int cu_count, int max_split_k) {
  const ga::Target& target = ga::find_target(target_name);
  const ga::GemmProblem p = problem(target, shape, dtype, layout);
  ProfileHandle h = resolve_hw(hw, cu_count, max_split_k);
  std::vector<std::string> warnings = h.warnings;
  add_target_params_warning(h, target, warnings);
  const ga::Hardware& hwr = h.profile.hw;
  ga::require_matrix_dtype(hwr, p.dtype, dtype);
  add_dtype_format_warning(dtype, hwr, warnings);
  add_problem_warnings(h, target, p, warnings);
  const std::vector<ga::TileConfig> given = candidates ? given_configs(*candidates, warnings) : std::vector<ga::TileConfig>{};
  const std::vector<ga::RankedConfig> ranked =
      ranked_configs(target, p, h, candidates ? &given : nullptr, top, distinct, warnings);
  nlohmann::json j = ga::ranking_json(p, hwr, std::string(target.name()), ranked, top);
  ga::add_fitted_shapes_note(j, h.profile, target, p);
  return {ga::json_text(j), warnings};
}

// The JSON text of `explain --format json` for problem p on the resolved profile h (a fused-MoE layer
// with its launches), and the warnings; `config` "" = the advisor's top one.
std::pair<std::string, std::vector<std::string>> explained(const ga::Target& target, const ga::GemmProblem& p,
                                                           const ProfileHandle& h, const std::string& config,
                                                           const std::string& dtype) {
  ga::require_matrix_dtype(h.profile.hw, p.dtype, dtype);
  ga::TileConfig given;
  if (!config.empty()) given = ga::parse_tile_config(config);
  ga::RankedConfig r;
  {
    py::gil_scoped_release release;
    r = ga::explain_config(target, p, h.profile, config.empty() ? nullptr : &given);
  }
  std::vector<std::string> warnings = h.warnings;
  add_target_params_warning(h, target, warnings);
  add_dtype_format_warning(dtype, h.profile.hw, warnings);
  add_problem_warnings(h, target, p, warnings);
  nlohmann::json j = ga::explain_json(p, h.profile, target, r, !config.empty());
  ga::add_fitted_shapes_note(j, h.profile, target, p);
  return {ga::json_text(j), warnings};
}

// explain: (the JSON text of `explain --format json`, warnings); `config` "" = the advisor's top one.
std::pair<std::string, std::vector<std::string>> explain_json(const std::string& shape, const py::object& hw,
                                                              const std::string& dtype, const std::string& layout,
                                                              const std::string& target_name,
                                                              const std::string& config, int cu_count,
                                                              int max_split_k) {
  const ga::Target& target = ga::find_target(target_name);
  const ga::GemmProblem p = problem(target, shape, dtype, layout);
  return explained(target, p, resolve_hw(hw, cu_count, max_split_k), config, dtype);
}

// moe_rank: (the JSON text of `rank M --target vllm-fused-moe ... --format json`, warnings) for one
// fused-MoE layer (or its up or down GEMM), the arguments as the CLI's MoE options.
// One fused-MoE layer (or its up or down GEMM) from the CLI's MoE options, checked.
ga::GemmProblem moe_problem(std::int64_t tokens, std::int64_t experts, std::int64_t top_k, std::int64_t hidden,
                            std::int64_t intermediate, std::int64_t tp, const std::string& dtype,
                            const std::string& block_shape, const std::string& routing, const std::string& gemm) {
  ga::MoeModel model;
  model.experts = experts;
  model.top_k = top_k;
  model.hidden = hidden;
  model.intermediate = intermediate;
  model.tp = tp;
  model.dtype = ga::parse_moe_dtype(dtype);
  model.quant_block = ga::parse_block_shape(block_shape);
  ga::validate_moe_model(model, "");
  if (tokens < 1 || tokens > ga::kMaxDim)
    throw ga::InputError("tokens = " + std::to_string(tokens) + " is outside 1..2147483647");
  ga::MoeSpec spec;
  ga::parse_moe_routing(routing, spec);
  ga::GemmProblem p = model.layer(tokens, spec);
  ga::validate_problem(p);
  if (gemm == "up" || gemm == "down") p = ga::moe_layer_gemms(p)[gemm == "up" ? 0 : 1];
  else if (gemm != "layer") throw ga::InputError("gemm '" + ga::printable(gemm) + "': expected layer, up or down");
  return p;
}

std::pair<std::string, std::vector<std::string>> moe_ranking_json(std::int64_t tokens, std::int64_t experts,
                                                                  std::int64_t top_k, std::int64_t hidden,
                                                                  std::int64_t intermediate, std::int64_t tp,
                                                                  const std::string& dtype,
                                                                  const std::string& block_shape,
                                                                  const std::string& routing, const std::string& gemm,
                                                                  const py::object& hw, std::size_t top,
                                                                  bool distinct,
                                                                  const std::optional<std::vector<std::string>>& candidates,
                                                                  int cu_count) {
  const ga::GemmProblem p =
      moe_problem(tokens, experts, top_k, hidden, intermediate, tp, dtype, block_shape, routing, gemm);
  ProfileHandle h = resolve_hw(hw, cu_count);
  const ga::Hardware& hwr = h.profile.hw;
  ga::require_matrix_dtype(hwr, p.dtype, dtype);
  const ga::Target& target = ga::vllm_fused_moe_target();
  std::vector<std::string> warnings = h.warnings;
  add_target_params_warning(h, target, warnings);
  add_dtype_format_warning(dtype, hwr, warnings);
  add_problem_warnings(h, target, p, warnings);
  const std::vector<ga::TileConfig> given = candidates ? given_configs(*candidates, warnings) : std::vector<ga::TileConfig>{};
  const std::vector<ga::RankedConfig> ranked =
      ranked_configs(target, p, h, candidates ? &given : nullptr, top, distinct, warnings);
  nlohmann::json j = ga::ranking_json(p, hwr, std::string(target.name()), ranked, top);
  ga::add_fitted_shapes_note(j, h.profile, target, p);
  return {ga::json_text(j), warnings};
}

// moe_explain: (the JSON text of `explain M --target vllm-fused-moe ... --format json`, warnings):
// the layer's estimate and, for a layer, each launch's terms ("gemms"); `config` "" = the top one.
std::pair<std::string, std::vector<std::string>> moe_explain_json(std::int64_t tokens, std::int64_t experts,
                                                                  std::int64_t top_k, std::int64_t hidden,
                                                                  std::int64_t intermediate, std::int64_t tp,
                                                                  const std::string& dtype,
                                                                  const std::string& block_shape,
                                                                  const std::string& routing, const std::string& gemm,
                                                                  const py::object& hw, const std::string& config,
                                                                  int cu_count) {
  const ga::GemmProblem p =
      moe_problem(tokens, experts, top_k, hidden, intermediate, tp, dtype, block_shape, routing, gemm);
  return explained(ga::vllm_fused_moe_target(), p, resolve_hw(hw, cu_count), config, dtype);
}

// read_shapes: the shapes of a list file in batch's formats (CSV, YAML, JSON, JSON Lines, text), each
// (m, n, k, batch, dtype, layout, name, line, dtype_text), with the reader's warnings; the first bad
// entry is an InputError "path:line: what" (as batch without --keep-going). dtype is the standard
// name (bf16, fp8), dtype_text the entry's own spelling (torch.bfloat16, float8_e4m3fnuz), else that name.
std::pair<std::vector<py::tuple>, std::vector<std::string>> read_shapes(const std::string& path, const std::string& dtype,
                                                                        const std::string& layout,
                                                                        const std::string& target_name,
                                                                        const std::string& format) {
  const ga::Target& target = ga::find_target(target_name);
  const ga::GemmProblem defaults = ga::problem_defaults_for(target.info(), dtype, layout);
  // A gzipped list (a ".gz" name, or gzip's magic bytes under any name, as batch tells it) is read
  // decompressed, to the same 256 MiB as a plain one.
  std::istringstream in(ga::gunzip_whole(ga::read_text_file(path, std::size_t{256} << 20), path,
                                         "a shape list is read whole here", ga::is_gzip_path(path)));
  auto reader = ga::open_shape_reader(in, path, ga::parse_shape_format(format), defaults);
  std::vector<py::tuple> shapes;
  std::string own_dtype;  // said of the first line whose own dtype is not the dtype= given
  ga::ShapeEntry e;
  while (reader->next(e)) {
    if (!e.error.empty()) throw ga::InputError(e.error);
    const ga::GemmProblem& q = e.problem;
    // A list's dtype column wins, dtype= fills the lines without one: said once, as batch says it of
    // --dtype (read_shapes was silent: noticed 2026-12-07).
    if (!dtype.empty() && own_dtype.empty() && q.dtype != defaults.dtype)
      own_dtype = ga::located(path, e.line,
                                      "the line's own dtype " + std::string(ga::dtype_name(q.dtype)) +
                                          " is read, not dtype=" + ga::printable(dtype) +
                                          ": a list's dtype wins, dtype= fills the lines without one (said once)");
    // The standard name, as batch reports it: two spellings of one type were two groups to a caller
    // grouping by it (a fresh Python user's find, 2026-12-07); the spelling, which names an fp8
    // encoding, beside it.
    const std::string name(ga::dtype_name(q.dtype));
    shapes.push_back(py::make_tuple(q.m, q.n, q.k, q.batch, name, q.layout.name(), e.name, e.line,
                                    e.dtype_text.empty() ? name : e.dtype_text));
  }
  std::vector<std::string> warnings = reader->warnings();
  if (!own_dtype.empty()) warnings.push_back(std::move(own_dtype));
  return {shapes, warnings};
}

}  // namespace

PYBIND11_MODULE(_gemm_advisor, m) {
  m.doc() = "The compiled core of gemm_advisor; use the gemm_advisor package, not this module.";
  py::register_exception<ga::InputError>(m, "Error", PyExc_ValueError);

  py::class_<ProfileHandle>(m, "Profile",
                            "A loaded hardware profile (gemm_advisor.load_profile); pass it as hw= to skip reloading.")
      .def_property_readonly("name", [](const ProfileHandle& h) { return h.profile.hw.name; },
                             "The profile's name, e.g. 'h200'.")
      .def_property_readonly("display_name", [](const ProfileHandle& h) { return h.profile.hw.display_name; },
                             "The GPU's name, e.g. 'NVIDIA H200 SXM 141GB'.")
      .def_property_readonly("vendor", [](const ProfileHandle& h) { return h.profile.hw.vendor; }, "'nvidia' or 'amd'.")
      .def_property_readonly("arch", [](const ProfileHandle& h) { return h.profile.hw.arch; }, "The architecture.")
      .def_property_readonly("cu_count", [](const ProfileHandle& h) { return h.profile.hw.cu_count; },
                             "CUs (SMs) a kernel may use.")
      .def_property_readonly("dram_bandwidth_bytes_per_s",
                             [](const ProfileHandle& h) { return h.profile.hw.dram_bandwidth_bytes_per_s; },
                             "DRAM bandwidth, bytes/s (the datasheet figure).")
      .def_property_readonly("l2_bandwidth_bytes_per_s",
                             [](const ProfileHandle& h) { return h.profile.hw.l2_bandwidth_bytes_per_s; },
                             "L2 bandwidth, bytes/s.")
      .def_property_readonly("source", [](const ProfileHandle& h) { return h.source; },
                             "The name or path it was loaded from.")
      .def_property_readonly("warnings", [](const ProfileHandle& h) { return h.warnings; },
                             "The load's warnings (unknown keys, uncited numbers), each 'FILE:LINE: message'.")
      .def(
          "peak_flops_per_s",
          [](const ProfileHandle& h, const py::object& dtype) {
            // Any object, checked here: a non-text dtype got pybind's multi-line "incompatible function
            // arguments" TypeError, naming the C++ signature (a fresh user's find, 2026-12-03).
            if (!py::isinstance<py::str>(dtype))
              throw py::type_error("dtype must be text (fp32, fp16, bf16, fp8, fp6, fp4), not " +
                                   std::string(py::str(py::type::of(dtype).attr("__name__"))));
            return h.profile.hw.peak_flops_per_s(ga::parse_dtype(dtype.cast<std::string>()));
          },
          py::arg("dtype") = "bf16",
          "Datasheet dense matrix peak for a dtype (fp32, fp16, bf16, fp8, fp6, fp4), FLOP/s; 0 when the "
          "hardware has no matrix path for it. Raises gemm_advisor.Error for an unknown dtype.")
      // Copies are exact; a pickle (multiprocessing) holds a shipped profile's name, or a file's text
      // and path, and makes the same profile where it is unpickled (a Profile could not be pickled
      // or copied: a fresh user's find, 2026-12-03).
      .def("__copy__", [](const ProfileHandle& h) { return h; })
      .def("__deepcopy__", [](const ProfileHandle& h, const py::dict&) { return h; }, py::arg("memo"))
      // The pickle calls load_profile(source) itself, so no Profile is ever made empty: pybind's
      // pickle made one with __new__ and filled it in __setstate__, and Profile.__new__(Profile)
      // gave an object whose use read uninitialised memory (a fresh user's find, 2026-12-04; the
      // package also refuses __new__).
      .def("__reduce__",
           [](const ProfileHandle& h) {
             // The package's functions (Python functions: pickled by name; this module's are not): a
             // shipped profile by its name, a file by its text.
             const py::module_ package = py::module_::import("gemm_advisor");
             if (h.text.empty()) return py::make_tuple(package.attr("load_profile"), py::make_tuple(h.source));
             return py::make_tuple(package.attr("_profile_from_text"), py::make_tuple(h.text, h.source));
           })
      .def("__repr__", [](const ProfileHandle& h) {
        return "<gemm_advisor.Profile " + h.profile.hw.name + " (" + h.profile.hw.display_name + ")>";
      });

  m.def("load_profile", &load, py::arg("name_or_path"));
  m.def("read_shapes", &read_shapes, py::arg("path"), py::arg("dtype"), py::arg("layout"), py::arg("target"),
        py::arg("format"));
  m.def("profile_from_text", &profile_from_text, py::arg("text"), py::arg("source"));
  m.def("default_hardware_name", []() { return ga::default_hardware_name("hw="); });
  m.def("ranking_json", &ranking_json, py::arg("shape"), py::arg("hw"), py::arg("dtype"), py::arg("layout"),
        py::arg("target"), py::arg("top"), py::arg("distinct"), py::arg("candidates"), py::arg("cu_count"),
        py::arg("max_split_k"));
  m.def("explain_json", &explain_json, py::arg("shape"), py::arg("hw"), py::arg("dtype"), py::arg("layout"),
        py::arg("target"), py::arg("config"), py::arg("cu_count"), py::arg("max_split_k"));
  m.def("moe_ranking_json", &moe_ranking_json, py::arg("tokens"), py::arg("experts"), py::arg("top_k"),
        py::arg("hidden"), py::arg("intermediate"), py::arg("tp"), py::arg("dtype"), py::arg("block_shape"),
        py::arg("routing"), py::arg("gemm"), py::arg("hw"), py::arg("top"), py::arg("distinct"), py::arg("candidates"),
        py::arg("cu_count"));
  m.def("moe_explain_json", &moe_explain_json, py::arg("tokens"), py::arg("experts"), py::arg("top_k"),
        py::arg("hidden"), py::arg("intermediate"), py::arg("tp"), py::arg("dtype"), py::arg("block_shape"),
        py::arg("routing"), py::arg("gemm"), py::arg("hw"), py::arg("config"), py::arg("cu_count"));
  m.def("profiles_json", []() { return ga::json_text(ga::profiles_json()); });
  m.def("targets_json", []() { return ga::json_text(ga::targets_json()); });
  m.def("version_line", []() { return ga::version_line(); });
  // The largest value of each config field parse_tile_config takes (config_text checks a dict's).
  m.attr("config_limits") = py::dict(py::arg("block_m") = ga::kMaxConfigSize, py::arg("block_n") = ga::kMaxConfigSize,
                                     py::arg("block_k") = ga::kMaxConfigSize, py::arg("num_warps") = ga::kMaxConfigWarps,
                                     py::arg("num_stages") = ga::kMaxConfigStages, py::arg("split_k") = ga::kMaxConfigSize,
                                     py::arg("group_m") = ga::kMaxConfigSize);
  // Names triton.Config or a launch takes as its own (ga::kTritonLaunchOptions): no kernel parameter
  // is renamed onto one (gemm_advisor.triton's names=, as --names).
  m.attr("triton_launch_options") = std::string(ga::kTritonLaunchOptions);
  m.attr("__version__") = ga::version();
}
