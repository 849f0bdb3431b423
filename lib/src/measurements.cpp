#include "gemm_advisor/measurements.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "gemm_advisor/csv_reader.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/evaluate.hpp"
#include "gemm_advisor/hardware.hpp"
#include "gemm_advisor/moe.hpp"
#include "gemm_advisor/targets/vllm_fp8_block.hpp"
#include "gemm_advisor/targets/vllm_fused_moe.hpp"
#include "gemm_advisor/target.hpp"
#include "text.hpp"

namespace gemm_advisor {

static_assert(kMaxMeasuredMs == 1e9, "read_measurements' message names the bound");

bool gpu_matches_profile(const std::string& gpu, const std::string& profile_name, const std::string& display_name,
                         const std::vector<std::string>& aliases) {
  // The names' letters and digits run together (text::squeezed).
  const std::string g = text::squeezed(gpu), name = text::squeezed(profile_name);
  if (g.empty()) return false;
  if (!name.empty() && g.find(name) != std::string::npos) return true;
  // The display name and the aliases: either holding the other ("H200" in "NVIDIA H200 SXM 141GB").
  auto holds = [&](const std::string& other) {
    const std::string o = text::squeezed(other);
    return !o.empty() && (o.find(g) != std::string::npos || g.find(o) != std::string::npos);
  };
  return holds(display_name) || std::any_of(aliases.begin(), aliases.end(), holds);
}

std::string gpu_variant(const std::string& gpu, const std::string& display_name) {
  // Whole words: "NVIDIA H200 NVL" has the word "nvl"; "MIG-3g.71gb" the word "mig".
  const std::vector<std::string> g = text::words(gpu), d = text::words(display_name);
  auto has = [](const std::vector<std::string>& words, const char* w) {
    return std::find(words.begin(), words.end(), w) != words.end();
  };
  if (has(g, "mig")) return "MIG";
  for (const auto& [word, label] : {std::pair<const char*, const char*>{"nvl", "NVL"}, {"pcie", "PCIe"}, {"sxm", "SXM"}})
    if (has(g, word) && !has(d, word)) return label;
  return "";
}

MigSlice mig_slice(const std::string& gpu) {
  MigSlice slice;
  const std::vector<std::string> words = text::words(gpu);
  const auto mig = std::find(words.begin(), words.end(), "mig");
  if (mig == words.end()) return slice;
  // The words after "mig": "3g" and "40gb", or "1c", "3g" and "40gb" (a compute instance).
  int gpu_sevenths = 0, compute_sevenths = 0;
  for (auto it = std::next(mig); it != words.end(); ++it) {
    const std::string& w = *it;
    const std::size_t digits = w.find_first_not_of("0123456789");
    if (digits == 0 || digits == std::string::npos || digits > 4) continue;
    const int value = std::stoi(w.substr(0, digits));
    const std::string unit = w.substr(digits);
    if (unit == "g" && value >= 1 && value <= 7) gpu_sevenths = value;
    else if (unit == "c" && value >= 1 && value <= 7) compute_sevenths = value;
    else if (unit == "gb" && value >= 1) slice.memory_bytes = value * 1e9;
  }
  slice.sm_sevenths = compute_sevenths > 0 ? compute_sevenths : gpu_sevenths;
  return slice;
}

namespace {

// The columns of a problem in a measurement or family CSV, and one row's problem (batch 1, dtype
// bf16 and layout NN where the row gives none).
struct ProblemColumns {
  int m, n, k, batch, dtype, layout;
};

ProblemColumns problem_columns(const CsvHeader& h) {
  return {h.index("m"), h.index("n"), h.index("k"), h.index("batch"), h.index("dtype"), h.index("layout")};
}

GemmProblem read_problem_row(const CsvReader& r, const std::vector<std::string>& f, const ProblemColumns& c) {
  GemmProblem p;
  p.m = csv_int(r, f, c.m, "m", 1, kMaxDim);
  p.n = csv_int(r, f, c.n, "n", 1, kMaxDim);
  p.k = csv_int(r, f, c.k, "k", 1, kMaxDim);
  p.batch = c.batch >= 0 && !f[c.batch].empty() ? csv_int(r, f, c.batch, "batch", 1, kMaxBatch) : 1;
  try {
    p.dtype = parse_dtype(csv_text(f, c.dtype, "bf16"));
    p.layout = parse_layout(csv_text(f, c.layout, "NN"));
  } catch (const InputError& e) {
    r.fail(e.what());
  }
  return p;
}

}  // namespace

std::string family_label(const std::string& family, const std::string& name) {
  return name.empty() ? printable(family) : printable(family) + "/" + printable(name);
}

std::size_t apply_families(const std::string& path, std::vector<MeasuredShape>& shapes, std::vector<std::string>* warnings,
                           std::vector<std::string>* notes) {
  // As for measurements ("-: cannot open: No such file" before: a fresh user's find, 2026-12-06).
  if (path == "-") throw InputError("-: families are read from a file, not stdin (give the CSV's path)");
  check_readable_file(path);
  const std::unique_ptr<std::istream> in = open_csv_file(path);
  CsvReader r(*in, path);
  const CsvHeader h = CsvHeader::read(r, {"m", "n", "k", "family"});
  // An unknown column is said, as in a measurement file (ignored silently before: a fresh user's find).
  if (warnings)
    for (std::string& w : h.unknown_column_warnings({"m", "n", "k", "family", "batch", "dtype", "layout", "name"}))
      warnings->push_back(std::move(w));
  const ProblemColumns cols = problem_columns(h);
  const int ifam = h.index("family"), iname = h.index("name");
  // A column the file leaves out matches every value of it (a list of m,n,k,family names shapes,
  // whatever their dtype and layout).
  const bool by_batch = h.index("batch") >= 0, by_dtype = h.index("dtype") >= 0, by_layout = h.index("layout") >= 0;
  using Key = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, int, std::string>;
  const auto key_of = [&](const GemmProblem& p) {
    return Key(p.m, p.n, p.k, by_batch ? p.batch : 0, by_dtype ? static_cast<int>(p.dtype) : -1,
               by_layout ? p.layout.name() : std::string());
  };
  std::map<Key, std::tuple<std::string, std::string, long>> families;  // -> family, name, line
  std::vector<std::string> f;
  while (r.next(f)) {
    require_header_fields(r, h, f);
    GemmProblem p = read_problem_row(r, f, cols);
    const std::string family = csv_text(f, ifam, "");
    if (family.empty()) r.fail("column 'family' is empty");
    const auto [it, fresh] = families.try_emplace(key_of(p), family, csv_text(f, iname, ""), r.line());
    if (!fresh && std::get<0>(it->second) != family)
      r.fail("shape " + p.shape_text() + " is in family '" + std::get<0>(it->second) + "' already (line " +
             std::to_string(std::get<2>(it->second)) + ")" +
             ": a shape is in one family" +
             (by_batch && by_dtype && by_layout ? "" : " (two problems? add the batch, dtype and layout columns to tell them apart)"));
  }
  // Rows no measured shape matches, named (a mistyped shape's row went unsaid while the rest
  // matched: a fresh user's find, 2026-12-05); a file matching nothing at all is the caller's to say.
  if (notes) {
    std::set<Key> measured;
    for (const MeasuredShape& s : shapes) measured.insert(key_of(s.problem));
    std::size_t unmatched = 0;
    const std::tuple<std::string, std::string, long>* first = nullptr;
    Key first_key;
    for (const auto& [key, value] : families) {
      if (measured.count(key)) continue;
      ++unmatched;
      if (!first || std::get<2>(value) < std::get<2>(*first)) {
        first = &value;
        first_key = key;
      }
    }
    if (unmatched > 0 && unmatched < families.size())
      notes->push_back(located(path, std::get<2>(*first),
                                  std::to_string(std::get<0>(first_key)) + "x" + std::to_string(std::get<1>(first_key)) +
                                      "x" + std::to_string(std::get<2>(first_key)) + " matches no measured shape" +
                                      (unmatched > 1 ? " (" + std::to_string(unmatched) + " such rows)" : "") +
                                      ": its family is not used (a mistyped shape?)"));
  }
  std::size_t set = 0;
  for (MeasuredShape& s : shapes) {
    if (!s.family.empty()) continue;
    const auto it = families.find(key_of(s.problem));
    if (it == families.end()) continue;
    s.family = std::get<0>(it->second);
    if (s.name.empty()) s.name = std::get<1>(it->second);
    ++set;
  }
  return set;
}

std::vector<MeasuredShape> read_measurements(const std::string& path, const std::string& target,
                                             std::vector<std::string>* warnings, std::set<std::string>* other_kernels) {
  // "-" is no file here ("-: cannot open: No such file or directory" did not say why: a fresh user's find).
  if (path == "-")
    throw InputError("-: measurements are read from files, not stdin (give the CSV's path; several may be given)");
  check_readable_file(path);
  const std::unique_ptr<std::istream> in = open_csv_file(path);  // plain, or gzip when it ends in .gz
  return read_measurements(*in, path, target, warnings, other_kernels);
}

namespace {

// The fused-MoE columns of a row: `gemm` (up, down or layer) makes it a MoE problem with `experts`
// and `top_k`; `routing` (default tuner: tools/measure/fused_moe_kernel.py routes as vLLM's tuner)
// and `block_shape` (default [128,128] for fp8: the harness measures only the block-scaled path).
void read_moe_columns(const CsvReader& r, const std::vector<std::string>& f, int igemm, int iexp, int itopk,
                      int iroute, int iblock, int ilayout, GemmProblem& p) {
  const std::string gemm = csv_text(f, igemm, "");
  if (gemm.empty()) return;
  if (const std::string layout = csv_text(f, ilayout, ""); !layout.empty() && layout != "NT" && layout != "nt")
    r.fail("column 'layout': " + printable(layout) + ": vLLM's fused MoE computes x W^T (layout NT)");
  if (gemm == "up") p.moe.gemm = MoeGemm::up;
  else if (gemm == "down") p.moe.gemm = MoeGemm::down;
  else if (gemm == "layer") p.moe.gemm = MoeGemm::layer;
  else r.fail("column 'gemm': '" + printable(gemm) + "' is not up, down or layer");
  p.moe.experts = csv_int(r, f, iexp, "experts", 1, kMaxExperts);
  p.moe.top_k = csv_int(r, f, itopk, "top_k", 1, kMaxExperts);
  try {
    p.moe.routing = MoeRouting::tuner;
    if (const std::string routing = csv_text(f, iroute, ""); !routing.empty()) parse_moe_routing(routing, p.moe);
    const std::string block = csv_text(f, iblock, "");
    p.moe.quant_block = !block.empty() ? parse_block_shape(block) : p.dtype == Dtype::fp8 ? kVllmFp8QuantBlock : 0;
    p.layout = Layout{false, true};
    validate_problem(p);
  } catch (const InputError& e) {
    r.fail(e.what());
  }
}

}  // namespace

void merge_measured_shape(MeasuredShape& into, MeasuredShape&& more, std::size_t* retimed, std::size_t* disagree) {
  if (retimed || disagree) {
    std::map<TileConfig, double> before;  // each config's fastest ok time so far
    for (const MeasuredConfig& c : into.configs)
      if (c.status == "ok") before[c.config] = before.count(c.config) ? std::min(before[c.config], c.ms) : c.ms;
    for (const MeasuredConfig& c : more.configs) {
      const auto it = c.status == "ok" ? before.find(c.config) : before.end();
      if (it == before.end()) continue;
      if (retimed) ++*retimed;
      if (disagree && std::max(c.ms, it->second) > kRetimeDisagreement * std::min(c.ms, it->second)) ++*disagree;
    }
  }
  into.configs.insert(into.configs.end(), std::make_move_iterator(more.configs.begin()),
                      std::make_move_iterator(more.configs.end()));
  if (more.vendor_ms > 0 && (into.vendor_ms == 0 || more.vendor_ms < into.vendor_ms)) {
    into.vendor_ms = more.vendor_ms;
    into.vendor_kernel = more.vendor_kernel;
  }
  if (into.gpu.empty()) into.gpu = more.gpu;
}

std::vector<MeasuredShape> pair_moe_layers(const std::vector<MeasuredShape>& shapes, std::size_t* unpaired_configs) {
  std::vector<MeasuredShape> out;
  if (unpaired_configs) *unpaired_configs = 0;
  // (family, E, top_k, dtype, M, name, routing, block scales) -> index of its up and down shapes: a
  // model's layers in M order; two GEMMs routed or quantised differently are not one layer.
  std::map<std::tuple<std::string, std::int64_t, std::int64_t, int, std::int64_t, std::string, std::string, std::int64_t>,
           std::pair<int, int>>
      layers;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const GemmProblem& p = shapes[i].problem;
    if (p.moe.gemm != MoeGemm::up && p.moe.gemm != MoeGemm::down) {
      out.push_back(shapes[i]);
      continue;
    }
    auto& slot = layers.try_emplace(std::make_tuple(shapes[i].family, p.moe.experts, p.moe.top_k,
                                                    static_cast<int>(p.dtype), p.m, shapes[i].name,
                                                    moe_routing_text(p.moe), p.moe.quant_block),
                                    -1, -1)
                     .first->second;
    (p.moe.gemm == MoeGemm::up ? slot.first : slot.second) = static_cast<int>(i);
  }
  for (const auto& [key, slot] : layers) {
    if (slot.first < 0 || slot.second < 0) continue;  // a layer needs both of its GEMMs
    const MeasuredShape& up = shapes[static_cast<std::size_t>(slot.first)];
    const MeasuredShape& down = shapes[static_cast<std::size_t>(slot.second)];
    if (up.problem.k != down.problem.n || up.problem.n != 2 * down.problem.k) continue;  // not one layer
    MeasuredShape layer = up;
    layer.problem.moe.gemm = MoeGemm::layer;
    layer.problem.n = down.problem.k;
    layer.problem.k = up.problem.k;
    layer.configs.clear();
    layer.vendor_ms = 0;
    layer.vendor_kernel.clear();
    std::map<TileConfig, double> down_ms;
    for (const MeasuredConfig& c : down.configs) {
      if (c.status != "ok") continue;
      auto [it, fresh] = down_ms.emplace(c.config, c.ms);
      if (!fresh) it->second = std::min(it->second, c.ms);
    }
    std::set<TileConfig> up_ok;
    for (const MeasuredConfig& c : up.configs) {
      if (c.status != "ok") continue;
      const bool fresh = up_ok.insert(c.config).second;
      const auto it = down_ms.find(c.config);
      if (it == down_ms.end()) {
        if (unpaired_configs && fresh) ++*unpaired_configs;
        continue;
      }
      MeasuredConfig both = c;
      both.ms = c.ms + it->second;
      layer.configs.push_back(both);
    }
    if (unpaired_configs) {
      for (const auto& [config, ms] : down_ms) *unpaired_configs += up_ok.count(config) == 0;
    }
    if (!layer.configs.empty()) out.push_back(std::move(layer));
  }
  return out;
}

std::vector<MeasuredShape> measured_moe_layers(const std::vector<MeasuredShape>& shapes, const std::string& sources,
                                               std::vector<std::string>* warnings) {
  std::size_t unpaired_configs = 0;
  std::vector<MeasuredShape> layers = pair_moe_layers(shapes, &unpaired_configs);
  if (!shapes.empty() && layers.empty())
    throw InputError(sources +
                     ": no MoE layer has both its up and down GEMM measured (rows of one family, name, M, experts, "
                     "top_k, routing and block_shape); give --per-gemm to score each GEMM alone");
  const auto is_gemm = [](const MeasuredShape& s) {
    return s.problem.moe.gemm == MoeGemm::up || s.problem.moe.gemm == MoeGemm::down;
  };
  const auto gemms = std::count_if(shapes.begin(), shapes.end(), is_gemm);
  const auto paired = 2 * std::count_if(layers.begin(), layers.end(),
                                        [](const MeasuredShape& s) { return s.problem.moe.gemm == MoeGemm::layer; });
  if (warnings && gemms > paired)
    warnings->push_back(sources + ": " + std::to_string(gemms - paired) + " of the " + std::to_string(gemms) +
                        " up/down GEMM problems make no layer (the other GEMM not measured, dimensions of another "
                        "layer, or no config timed ok in both): left out (--per-gemm scores each GEMM alone)");
  if (warnings && unpaired_configs > 0)
    warnings->push_back(sources + ": " + std::to_string(unpaired_configs) +
                        " configs were timed ok on one GEMM of their layer only: left out of that layer's scores "
                        "(--per-gemm scores each GEMM alone)");
  return layers;
}

std::vector<MeasuredShape> read_measurements(std::istream& in, const std::string& source, const std::string& target,
                                             std::vector<std::string>* warnings, std::set<std::string>* other_kernels_out) {
  CsvReader r(in, source);
  const auto source_name = std::make_shared<const std::string>(source);
  const CsvHeader h =
      CsvHeader::read(r, {"m", "n", "k", "block_m", "block_n", "block_k", "num_warps", "num_stages", "ms"});
  if (warnings) {
    for (std::string& w : h.unknown_column_warnings({"m", "n", "k", "batch", "dtype", "layout", "kernel", "block_m",
                                                     "block_n", "block_k", "group_m", "num_warps", "num_stages",
                                                     "split_k", "ms", "reps", "rel_err", "status", "family", "name",
                                                     "gpu", "experts", "top_k", "gemm", "routing", "block_shape"}))
      warnings->push_back(std::move(w));
  }
  const ProblemColumns cols = problem_columns(h);
  const int ikern = h.index("kernel"), ist = h.index("status");
  // Without a kernel column every row is the kernel asked for (--kernel, else the target's), as
  // tools/measure/README.md and --help say (they were the triton kernel's whatever was asked, and
  // `evaluate --target triton-tutorial` on such a file failed: fresh users' finds, 2026-12-04/05).
  const int ibm = h.index("block_m"), ibn = h.index("block_n"), ibk = h.index("block_k");
  const int iw = h.index("num_warps"), is = h.index("num_stages"), ig = h.index("group_m");
  const int isk = h.index("split_k"), ims = h.index("ms");
  const int ifam = h.index("family"), iname = h.index("name"), igpu = h.index("gpu");
  const int igemm = h.index("gemm"), iexp = h.index("experts"), itopk = h.index("top_k");
  const int iroute = h.index("routing"), iblock = h.index("block_shape");
  const int ireps = h.index("reps"), irel = h.index("rel_err");

  std::vector<MeasuredShape> shapes;
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, int, std::string>, std::size_t> index;
  // per problem: config -> the line it was first on and its time there (ms; 0 where it did not run)
  std::vector<std::map<TileConfig, std::pair<std::size_t, double>>> seen;
  std::size_t repeats_disagreeing = 0;  // ... timed again here more than kRetimeDisagreement apart
  struct {
    std::size_t count = 0, first_line = 0;
  } inaccurate_ok;  // rows marked ok whose rel_err is above kOkRelErrLimit or nan
  RepeatedRows repeated;  // configs measured again within this file
  std::set<std::string> other_kernels;  // kernels other than `target` with tile-config rows (a few)
  std::set<std::string> unknown_kernels;  // ... of them, those no target is named (a few)
  std::size_t unknown_kernel_rows = 0;    // ... their rows, skipped
  std::vector<std::string> f;
  std::size_t rows = 0;
  while (r.next(f)) {
    require_header_fields(r, h, f);
    GemmProblem p = read_problem_row(r, f, cols);
    read_moe_columns(r, f, igemm, iexp, itopk, iroute, iblock, cols.layout, p);
    const std::string kernel = csv_text(f, ikern, target);
    if (kernel == vllm_fused_moe_target().name() && !p.is_moe())
      r.fail((igemm < 0 ? std::string("the header lacks a 'gemm' column") : std::string("column 'gemm' is empty")) +
             ": a " + kernel + " row is one GEMM of a layer (up or down), with experts and top_k");
    // Kept for the record, not scored, but a slip there is still a slip (reps=abc passed unsaid: a
    // fresh user's find, 2026-12-05): a whole count of runs, a finite error of at least 0.
    if (!csv_text(f, ireps, "").empty()) csv_int(r, f, ireps, "reps", 0, std::numeric_limits<std::int32_t>::max());
    // rel_err `nan` is what the harness writes for a result with unwritten elements (its NaN poison
    // survived), on a row it marks wrong: kept (the whole file was refused for it: a fresh user's
    // find, 2026-12-07).
    const std::string rel_text = csv_text(f, irel, "");
    const bool rel_nan = text::lower(rel_text) == "nan";
    const double rel_err = rel_nan || rel_text.empty() ? 0.0 : csv_double(r, f, irel, "rel_err");
    if (rel_err < 0)
      r.fail("column 'rel_err': " + printable(f[irel]) + " is negative (a relative error is at least 0)");
    const std::string status = csv_text(f, ist, "ok");
    // A present but empty status is a cut-off row (a sweep stopped mid-write), not an ok one; a
    // differently spelt "ok" would silently drop a timed row.
    if (ist >= 0 && static_cast<std::size_t>(ist) < f.size() && f[ist].empty())
      r.fail("column 'status' is empty (a truncated row?): expected ok, wrong, compile_error or launch_error");
    if (status != "ok" && text::lower(status) == "ok")
      r.fail("column 'status': '" + status + "' must be written 'ok'");
    // Any other word would drop the row unsaid (only ok rows are timed ones).
    if (status != "ok" && status != "wrong" && status != "compile_error" && status != "launch_error")
      r.fail("column 'status': '" + status + "' is not one of ok, wrong, compile_error, launch_error");
    // A problem is its shape and, where the file names them, its family and name (the compile grid
    // of 4096^3 NT and a square sweep's 4096^3 NT are two measurements).
    const auto key = std::make_tuple(p.m, p.n, p.k, p.batch, static_cast<int>(p.dtype),
                                     p.layout.name() + "|" + csv_text(f, ifam, "") + "|" + csv_text(f, iname, "") + "|" +
                                         p.shape_text());
    auto it = index.find(key);
    if (it == index.end()) {
      // The texts a shape carries into every output are one line each (a newline in a quoted name
      // made a stray row a shape of its own, scored at 100%: a fresh user's find, 2026-12-04).
      for (const auto& [column, at] : {std::pair{"family", ifam}, {"name", iname}, {"gpu", igpu}, {"kernel", ikern}}) {
        try {
          require_utf8(csv_text(f, at, ""), std::string("column '") + column + "'");
        } catch (const InputError& e) {
          r.fail(e.what());
        }
      }
      it = index.emplace(key, shapes.size()).first;
      shapes.push_back(
          MeasuredShape{p, csv_text(f, ifam, ""), csv_text(f, iname, ""), csv_text(f, igpu, ""), {}, 0, "",
                        csv_text(f, cols.dtype, "")});
    }
    MeasuredShape& shape = shapes[it->second];
    // One device per shape: the file's reader checks the shape's device (MeasuredShape::gpu, its
    // first row's) against the profile, so a row of another device would pass under it unchecked.
    if (igpu >= 0) {
      const std::string gpu = csv_text(f, igpu, "");
      if (gpu != shape.gpu)
        r.fail("column 'gpu': '" + printable(gpu) + "' differs from '" + printable(shape.gpu) + "' of the first row of " +
               p.shape_text() + ": one device's timings per shape (split the file by device)");
    }
    ++rows;
    double ms = 0;
    if (status == "ok" && (rel_nan || rel_err > kOkRelErrLimit) && inaccurate_ok.count++ == 0)
      inaccurate_ok.first_line = r.line();
    if (status == "ok") {
      ms = csv_double(r, f, ims, "ms");
      if (ms <= 0) r.fail("column 'ms': " + f[ims] + " must be positive for a row with status ok");
      if (ms > kMaxMeasuredMs)
        r.fail("column 'ms': " + f[ims] + " is above 1e9 ms (11.6 days): not one GEMM's time (a unit slip?)");
    } else if (ims >= 0 && static_cast<std::size_t>(ims) < f.size() && !f[ims].empty()) {
      // A failed run's time is not used, but one that is not a time at all ('abc') is a broken row
      // (read silently before: a fresh user's find, 2026-12-06); empty, 0 or the time a wrong result
      // took are what harnesses write.
      if (csv_double(r, f, ims, "ms") < 0)
        r.fail("column 'ms': " + f[ims] + " is negative (a failed row's time is empty, 0 or its time)");
    }
    if (kernel != target) {
      const bool other_target = find_target_or_null(kernel) != nullptr;
      // A tile config's row (block sizes not 0, nor empty as a vendor row may leave them) of another
      // kernel: named if the file has none of this one.
      const bool tile_row = ibm >= 0 && static_cast<std::size_t>(ibm) < f.size() && !f[ibm].empty() && f[ibm] != "0";
      if (tile_row) {
        if (other_kernels.size() < 8) other_kernels.insert(kernel);
        // Another target's kernel beside this one is a harness file of several (plan files are);
        // a tile kernel of no target's name is a typo or a user's own kernel, counted.
        if (!other_target) {
          ++unknown_kernel_rows;
          if (unknown_kernels.size() < 8) unknown_kernels.insert(kernel);
        }
      }
      if (other_target) continue;  // another target's kernel: not a vendor reference
      // A vendor library's row has no tile config (block sizes 0); a tile kernel of no target's name
      // (a user's second version of their kernel) is skipped, as the warning below says (its fastest
      // row was reported as "the vendor library": a fresh user's find, 2026-12-07).
      if (tile_row) continue;
      if (status == "ok" && (shape.vendor_ms == 0 || ms < shape.vendor_ms)) {
        shape.vendor_ms = ms;
        shape.vendor_kernel = kernel;
      }
      continue;
    }
    MeasuredConfig mc;
    // A vendor library's row has every block size 0; block_m 0 beside a block_n is a typo, said as a
    // range error (it was called a vendor library's row: a fresh user's find, 2026-12-05).
    const auto zero = [&](long i) { return i >= 0 && static_cast<std::size_t>(i) < f.size() && f[i] == "0"; };
    const bool vendor_like = zero(ibm) && zero(ibn) && zero(ibk);
    // A vendor library's row (block sizes 0) in a file without a kernel column reads as the kernel
    // asked for: the error says why (it said only "0 is outside 1..65536": a fresh user's find).
    if (ikern < 0 && vendor_like)
      r.fail("column 'block_m': 0 is outside 1..65536; the file has no 'kernel' column, so every row is taken as " +
             target + "'s: a vendor library's row? (name each row's kernel in a kernel column)");
    // The kernel scored is a vendor library's (--kernel cublas): its rows have no tile config (a range
    // error said nothing of that: a fresh user's find, 2026-12-04).
    if (ikern >= 0 && vendor_like)
      r.fail("kernel '" + printable(kernel) + "': a vendor library's row (block sizes 0), no tile config to fit or "
             "score; give --kernel the name of a kernel whose rows carry its configs");
    mc.config.block_m = static_cast<int>(csv_int(r, f, ibm, "block_m", 1, 65536));
    mc.config.block_n = static_cast<int>(csv_int(r, f, ibn, "block_n", 1, 65536));
    mc.config.block_k = static_cast<int>(csv_int(r, f, ibk, "block_k", 1, 65536));
    mc.config.num_warps = static_cast<int>(csv_int(r, f, iw, "num_warps", 1, 1024));
    mc.config.num_stages = static_cast<int>(csv_int(r, f, is, "num_stages", 1, 64));
    mc.config.group_m = ig >= 0 && !f[ig].empty() ? static_cast<int>(csv_int(r, f, ig, "group_m", 1, 65536)) : 8;
    mc.config.split_k = isk >= 0 && !f[isk].empty() ? static_cast<int>(csv_int(r, f, isk, "split_k", 1, 65536)) : 1;
    mc.ms = ms;
    mc.status = status;
    mc.line = r.line();
    mc.source = source_name;
    // The same config of the same problem twice: kept (evaluate and calibrate take the faster),
    // but said, since one of two times of one config is likely a bad run.
    if (seen.size() < shapes.size()) seen.resize(shapes.size());
    auto [first, fresh] = seen[it->second].emplace(mc.config, std::make_pair(mc.line, status == "ok" ? ms : 0.0));
    const double earlier_ms = first->second.second;
    // Two times of one config far apart: one of them a bad run (counted as a re-time across files is:
    // within a file they went uncounted, a fresh user's find, 2026-12-05).
    if (!fresh && status == "ok" && earlier_ms > 0 &&
        std::max(ms, earlier_ms) > kRetimeDisagreement * std::min(ms, earlier_ms))
      ++repeats_disagreeing;
    // The first few at their lines, then one count: a file appended to itself gave one line per row.
    if (!fresh && warnings && repeated.name_next())
      warnings->push_back(source + ":" + std::to_string(mc.line) + ": config " + mc.config.text() + " of " +
                          p.shape_text() + " was measured already (line " + std::to_string(first->second.first) +
                          (status == "ok" && earlier_ms > 0   ? "): the faster time counts"
                           : status == "ok" || earlier_ms > 0 ? "): the row that ran counts, not the failed one"
                                                              : "): it failed both times") +
                          (isk < 0 ? " (the file has no split_k column: every row is taken as unsplit)" : ""));
    shape.configs.push_back(mc);
  }
  if (rows == 0) throw InputError(source + ": no measurement rows (only a header)");
  // One problem's rows of which some carry a family or name and some neither, interleaved: two
  // problems (a blank cell in a labelled file split a shape's configs in two, said only as "a shape
  // has no family": a fresh user's find, 2026-12-07). Apart, as two sets of one shape (a re-time of a
  // labelled grid beside an unlabelled sweep), they are two measurements and not said. Said once a
  // file, at the first unlabelled row inside a labelled problem's lines.
  if (warnings) {
    std::map<std::string, const MeasuredShape*> labelled;
    for (const MeasuredShape& m : shapes)
      if (!m.configs.empty() && (!m.family.empty() || !m.name.empty())) labelled.emplace(unscored_text(m.problem), &m);
    for (const MeasuredShape& m : shapes) {
      if (m.configs.empty() || !m.family.empty() || !m.name.empty()) continue;
      const auto it = labelled.find(unscored_text(m.problem));
      if (it == labelled.end()) continue;
      const std::vector<MeasuredConfig>& other = it->second->configs;
      const auto [lo, hi] = std::minmax_element(other.begin(), other.end(), [](const MeasuredConfig& a,
                                                                                const MeasuredConfig& b) {
        return a.line < b.line;
      });
      const auto inside = std::find_if(m.configs.begin(), m.configs.end(), [&](const MeasuredConfig& c) {
        return c.line > lo->line && c.line < hi->line;
      });
      if (inside == m.configs.end()) continue;
      warnings->push_back(source + ":" + std::to_string(inside->line) + ": rows of " +
                          unscored_text(m.problem) + " have no family or name, others (line " +
                          std::to_string(lo->line) + ") family '" +
                          printable(it->second->family) + "' and name '" + printable(it->second->name) +
                          "': scored as two problems (a blank cell?)");
      break;
    }
  }
  // Rows of a tile kernel no target is named, beside this one's, are skipped, and said (half a file's
  // rows with a misspelt kernel name changed the scores without a word: a fresh user's find,
  // 2026-12-05). A file with none of this kernel's rows is the caller's to name.
  if (warnings && unknown_kernel_rows > 0 &&
      std::any_of(shapes.begin(), shapes.end(), [](const MeasuredShape& m) { return !m.configs.empty(); })) {
    std::string names;
    for (const std::string& k : unknown_kernels) names += (names.empty() ? "" : ", ") + printable(k);
    warnings->push_back(source + ": " + std::to_string(unknown_kernel_rows) + " row" +
                        (unknown_kernel_rows == 1 ? "" : "s") + " of another kernel (" + names + ") skipped: only " +
                        printable(target) + "'s are scored (--kernel NAME scores another's)");
  }
  if (other_kernels_out) *other_kernels_out = std::move(other_kernels);
  if (std::string more = repeated.summary(source, "measured again", "each counts at its faster time");
      warnings && !more.empty())
    warnings->push_back(std::move(more));
  if (warnings && inaccurate_ok.count > 0)
    warnings->push_back(fmt::format("{}:{}: {} row{} marked ok ha{} a rel_err above {:g} or nan, which "
                                    "tools/measure's harness marks wrong: timed as given (was the result checked?)",
                                    source, inaccurate_ok.first_line, inaccurate_ok.count,
                                    inaccurate_ok.count == 1 ? "" : "s", inaccurate_ok.count == 1 ? "s" : "ve",
                                    kOkRelErrLimit));
  if (warnings && repeats_disagreeing > 0)
    warnings->push_back(fmt::format("{}: {} config{} measured again in the file differ{} by more than {:g}x from {} "
                                    "first time (a bad run? the faster counts)",
                                    source, repeats_disagreeing, repeats_disagreeing == 1 ? "" : "s",
                                    repeats_disagreeing == 1 ? "s" : "", kRetimeDisagreement,
                                    repeats_disagreeing == 1 ? "its" : "their"));
  return shapes;
}

}  // namespace gemm_advisor
