#include "gemm_advisor/moe.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <functional>
#include <set>
#include <iostream>
#include <sstream>

#include "gemm_advisor/csv_reader.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/hardware.hpp"
#include "gemm_advisor/model.hpp"
#include "text.hpp"
#include "yaml_document.hpp"

namespace gemm_advisor {

namespace {

constexpr std::size_t kBlockSizes = kBlockSizeCount;  // BLOCK_SIZE_M = 8 << i (8..1024), as block_terms
// Tuner routing: the Binomial distribution is summed over mean +- this many standard deviations
// (the mass outside is below 1e-30: nothing a double of the sums would show).
constexpr double kBinomialSpanSigmas = 12.0;

static_assert(std::tuple_size<decltype(MoeRoutingTerms::blocks)>::value == kBlockSizeCount,
              "MoeRoutingTerms holds one entry per block_terms size");
double block_m_of(std::size_t i) { return static_cast<double>(kSmallestBlock << i); }

// Every expert the same (or one more) row: the integer split of `rows` over min(E, rows) experts.
void uniform_terms(double rows, double experts, MoeRoutingTerms& t) {
  t.active_experts = std::min(experts, rows);
  const double base = std::floor(rows / t.active_experts);
  const double extra = rows - base * t.active_experts;  // experts with base + 1 rows
  t.busiest_expert_rows = extra > 0 ? base + 1 : base;
  for (std::size_t i = 0; i < kBlockSizes; ++i) {
    const double bm = block_m_of(i);
    t.blocks[i] = extra * std::ceil((base + 1) / bm) + (t.active_experts - extra) * std::ceil(base / bm);
  }
}

// vLLM's tuner: each token's top-k of E iid random logits is a uniformly random k-subset, so one
// expert's row count is Binomial(M, k / E). Expectations over it, summed over its bulk.
void tuner_terms(double tokens, double top_k, double experts, MoeRoutingTerms& t) {
  const double p = top_k / experts;
  if (p >= 1.0) {  // every token on every expert
    uniform_terms(tokens * experts, experts, t);
    return;
  }
  const double mean = tokens * p;
  const double sigma = std::sqrt(tokens * p * (1 - p));
  const double lo = std::max(0.0, std::floor(mean - kBinomialSpanSigmas * sigma - 1));
  const double hi = std::min(tokens, std::ceil(mean + kBinomialSpanSigmas * sigma + 1));
  const double log_p = std::log(p), log_q = std::log1p(-p), log_fact_m = std::lgamma(tokens + 1);
  std::array<double, kBlockSizes> blocks{};
  double cdf = 0, expected_max = 0, prob_zero = 0;
  for (double x = lo; x <= hi; x += 1) {
    const double pmf = std::exp(log_fact_m - std::lgamma(x + 1) - std::lgamma(tokens - x + 1) + x * log_p +
                                (tokens - x) * log_q);
    if (x == 0) prob_zero = pmf;
    for (std::size_t i = 0; i < kBlockSizes; ++i) blocks[i] += pmf * std::ceil(x / block_m_of(i));
    cdf += pmf;
    // E[max of E counts] = sum over c >= 0 of P(max > c) = 1 - F(c)^E (the counts taken as
    // independent: they are nearly so, and exactly so in sum); below lo, P(max > c) is 1.
    expected_max += 1.0 - std::pow(std::min(1.0, cdf), experts);
  }
  t.active_experts = experts * (1.0 - (lo > 0 ? 0.0 : prob_zero));
  // The counts sum to tokens * top_k, so the largest is at least their even share (the independent
  // approximation alone gives 0.66 rows for one row over 8 experts).
  t.busiest_expert_rows = std::min(tokens, std::max(lo + expected_max, std::ceil(tokens * top_k / experts)));
  for (std::size_t i = 0; i < kBlockSizes; ++i) t.blocks[i] = experts * blocks[i];
}

// Zipf: shares 1/(e+1)^s, each expert capped at `tokens` rows (the excess goes to the others in
// proportion), then rounded to whole rows by largest remainder.
void zipf_terms(double tokens, double rows, std::int64_t experts, double s, MoeRoutingTerms& t) {
  std::vector<double> share(static_cast<std::size_t>(experts)), count(share.size(), 0.0);
  for (std::size_t e = 0; e < share.size(); ++e) share[e] = std::pow(static_cast<double>(e + 1), -s);
  std::vector<bool> capped(share.size(), false);
  double left = rows;
  for (std::size_t round = 0; round < share.size() && left > 0; ++round) {
    double open = 0;
    for (std::size_t e = 0; e < share.size(); ++e) open += capped[e] ? 0.0 : share[e];
    bool newly = false;
    for (std::size_t e = 0; e < share.size(); ++e) {
      if (capped[e]) continue;
      count[e] = left * share[e] / open;
      if (count[e] > tokens) newly = true;
    }
    if (!newly) break;
    left = rows;
    for (std::size_t e = 0; e < share.size(); ++e) {
      if (!capped[e] && count[e] > tokens) capped[e] = true;
      if (capped[e]) {
        count[e] = tokens;
        left -= tokens;
      }
    }
  }
  std::vector<std::pair<double, std::size_t>> remainders;
  double whole = 0;
  for (std::size_t e = 0; e < count.size(); ++e) {
    const double f = std::floor(count[e]);
    remainders.emplace_back(count[e] - f, e);
    count[e] = f;
    whole += f;
  }
  std::stable_sort(remainders.begin(), remainders.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; whole < rows && i < remainders.size(); ++i, whole += 1) count[remainders[i].second] += 1;
  t.active_experts = 0;
  t.busiest_expert_rows = 0;
  for (double c : count) {
    if (c <= 0) continue;
    t.active_experts += 1;
    t.busiest_expert_rows = std::max(t.busiest_expert_rows, c);
    for (std::size_t i = 0; i < kBlockSizes; ++i) t.blocks[i] += std::ceil(c / block_m_of(i));
  }
}

using text::lower;
using text::trim;

std::int64_t parse_count(std::string_view text, const char* what, std::int64_t min_value, std::int64_t max_value) {
  const std::string t = trim(text);
  // 2.0 or 1e3 is a whole number too, as in the shape lists (text::whole_number; "tp": 2.0 in a JSON
  // model list was refused: a fresh user's find, 2026-12-04).
  const std::optional<std::int64_t> parsed = text::whole_number(t);
  if (!parsed && text::whole_number_too_large(t))
    throw InputError(std::string(what) + " = " + printable(t) + " is outside " + std::to_string(min_value) + ".." +
                     std::to_string(max_value));
  if (!parsed) throw InputError(std::string(what) + " '" + printable(text) + "' is not a whole number");
  const std::int64_t v = *parsed;
  if (v < min_value || v > max_value)
    throw InputError(std::string(what) + " = " + std::to_string(v) + " is outside " + std::to_string(min_value) + ".." +
                     std::to_string(max_value));
  return v;
}

}  // namespace

MoeRoutingTerms moe_routing_terms(const GemmProblem& p) {
  MoeRoutingTerms t;
  const double tokens = static_cast<double>(p.m), top_k = static_cast<double>(p.moe.top_k);
  const double experts = static_cast<double>(p.moe.experts);
  t.routed_rows = tokens * top_k;
  t.a_rows = p.moe.gemm == MoeGemm::down ? t.routed_rows : tokens;
  switch (p.moe.routing) {
    case MoeRouting::uniform: uniform_terms(t.routed_rows, experts, t); break;
    case MoeRouting::tuner: tuner_terms(tokens, top_k, experts, t); break;
    case MoeRouting::zipf: zipf_terms(tokens, t.routed_rows, p.moe.experts, p.moe.zipf_exponent, t); break;
  }
  for (std::size_t i = 0; i < kBlockSizes; ++i) {
    // At least one block per expert hit, and at least the rows' own blocks (rounding of expectations).
    t.blocks[i] = std::max({t.blocks[i], t.active_experts, std::ceil(t.routed_rows / block_m_of(i))});
    t.busiest_rows[i] = std::min(block_m_of(i), std::max(1.0, t.busiest_expert_rows));
  }
  return t;
}

double moe_active_experts(const GemmProblem& p) { return moe_routing_terms(p).active_experts; }

std::array<GemmProblem, 2> moe_layer_gemms(const GemmProblem& layer) {
  GemmProblem up = layer, down = layer;
  up.moe.gemm = MoeGemm::up;
  up.n = 2 * layer.n;
  up.k = layer.k;
  down.moe.gemm = MoeGemm::down;
  down.n = layer.k;
  down.k = layer.n;
  return {up, down};
}

void parse_moe_routing(std::string_view text, MoeSpec& moe) {
  const std::string t = lower(trim(text));
  if (t == "uniform") {
    moe.routing = MoeRouting::uniform;
  } else if (t == "tuner" || t == "random") {
    moe.routing = MoeRouting::tuner;
  } else if (t.rfind("zipf:", 0) == 0 || t.rfind("zipf=", 0) == 0) {
    const std::string v = t.substr(5);
    double s = 0;
    const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), s);
    if (v.empty() || ec != std::errc() || ptr != v.data() + v.size() || !(s >= kMinZipfExponent && s <= kMaxZipfExponent))
      throw InputError("routing '" + printable(text) + "': the zipf exponent must be a number in [" +
                       fmt::format("{:g}, {:g}", kMinZipfExponent, kMaxZipfExponent) +
                       "], e.g. zipf:1.2 (near 0 it is uniform routing)");
    moe.routing = MoeRouting::zipf;
    moe.zipf_exponent = s;
  } else {
    throw InputError("unknown routing '" + printable(text) + "' (expected uniform, tuner (alias random: vLLM's tuner routes tokens at random) or zipf:S, e.g. zipf:1.2)");
  }
}

std::string moe_routing_text(const MoeSpec& moe) {
  switch (moe.routing) {
    case MoeRouting::uniform: return "uniform";
    case MoeRouting::tuner: return "tuner";
    case MoeRouting::zipf: {
      // The shortest text that reads back as the same double (a sidecar's zipf:1.23456789 was written
      // zipf:1.23457: the run could not be repeated from its record; a fresh user's find).
      char buf[32];
      const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, moe.zipf_exponent);
      return "zipf:" + std::string(buf, ec == std::errc() ? end : buf);
    }
  }
  return "?";
}

GemmProblem MoeModel::layer(std::int64_t tokens, const MoeSpec& routing) const {
  GemmProblem p;
  p.m = tokens;
  p.n = n_per_rank();
  p.k = hidden;
  p.dtype = dtype;
  p.layout = Layout{false, true};
  p.moe = routing;
  p.moe.experts = experts;
  p.moe.top_k = top_k;
  p.moe.gemm = MoeGemm::layer;
  p.moe.quant_block = quant_block;
  return p;
}

void validate_moe_model(const MoeModel& m, const std::string& where) {
  auto fail = [&](const std::string& what) { throw InputError(where + what); };
  if (m.experts < 1 || m.experts > kMaxExperts) fail("experts = " + std::to_string(m.experts) + " is outside 1..65536");
  if (m.top_k < 1 || m.top_k > m.experts)
    fail("top_k = " + std::to_string(m.top_k) + " is outside 1..experts (" + std::to_string(m.experts) + ")");
  if (m.hidden < 1 || m.hidden > kMaxDim) fail("hidden = " + std::to_string(m.hidden) + " is outside 1..2147483647");
  if (m.intermediate < 1 || m.intermediate > kMaxDim / 2)
    fail("intermediate = " + std::to_string(m.intermediate) + " is outside 1..1073741823");
  if (m.tp < 1 || m.intermediate % m.tp != 0)
    fail("tp = " + std::to_string(m.tp) + " must be at least 1 and divide the intermediate size " +
         std::to_string(m.intermediate));
  if (m.dtype != Dtype::bf16 && m.dtype != Dtype::fp16 && m.dtype != Dtype::fp8)
    fail("dtype " + std::string(dtype_name(m.dtype)) + ": vLLM's fused MoE takes bf16, fp16 or fp8_w8a8");
  if (m.quant_block != 0 && m.dtype != Dtype::fp8) fail("a block_shape goes with dtype fp8_w8a8");
  // vLLM's Fp8MoEMethod.create_weights (vllm/model_executor/layers/quantization/fp8.py) raises for a
  // block-quantized layer whose per-rank intermediate size is not a multiple of block_n (and, with
  // tp > 1, of block_k; both b here): such a layer never runs (it was ranked: a fresh user's find).
  if (m.quant_block > 0 && m.tp >= 1 && (m.intermediate / m.tp) % m.quant_block != 0)
    fail("the intermediate size per rank, " + std::to_string(m.intermediate) + " / tp " + std::to_string(m.tp) +
         " = " + std::to_string(m.intermediate / m.tp) + ", is not a multiple of the block_shape's " +
         std::to_string(m.quant_block) + ": vLLM refuses such a block-quantized layer (Fp8MoEMethod)");
}

Dtype parse_moe_dtype(std::string_view text) {
  const std::string t = lower(trim(text));
  if (t == "fp8_w8a8") return Dtype::fp8;
  Dtype d = Dtype::bf16;
  try {
    d = parse_dtype(t);
  } catch (const InputError&) {  // its message lists the dense dtypes
    d = Dtype::fp32;
  }
  if (d != Dtype::bf16 && d != Dtype::fp16 && d != Dtype::fp8)
    throw InputError("dtype '" + printable(text) + "': vLLM's fused MoE takes bf16, fp16 or fp8_w8a8");
  return d;
}

std::int64_t parse_block_shape(std::string_view text) {
  std::string t = trim(text);
  const std::string quoted = "block_shape '" + printable(text) + "'";
  // Empty: per-tensor scales. Blanks only were taken so too, unsaid (a fresh user's find, 2026-12-05).
  if (t.empty() && !text.empty()) throw InputError(quoted + ": blank; give two sizes, e.g. 128x128, or leave it out");
  if (t.empty()) return 0;
  if (t.front() == '[' && t.back() == ']') t = t.substr(1, t.size() - 2);
  std::size_t sep = t.find_first_of(",xX");
  if (sep == std::string::npos || t.find_first_of(",xX", sep + 1) != std::string::npos)
    throw InputError(quoted + ": expected two sizes, e.g. 128x128 or [128,128]");
  const std::string size = quoted + ": size";
  const std::int64_t bn = parse_count(std::string_view(t).substr(0, sep), size.c_str(), 16, 1024);
  const std::int64_t bk = parse_count(std::string_view(t).substr(sep + 1), size.c_str(), 16, 1024);
  if (bn != bk || (bn & (bn - 1)) != 0)
    throw InputError(quoted + ": square power-of-two blocks only ([128,128] is what vLLM ships configs for)");
  return bn;
}

namespace {

// Applies one entry's fields (from CSV, YAML or JSON, as text) to a model.
struct ModelFields {
  std::string experts, top_k, hidden, intermediate, dtype, tp, block_shape, name;
};

MoeModel model_from_fields(const ModelFields& f, const std::string& where, long line) {
  MoeModel m;
  try {
    auto need = [](const std::string& v, const char* key) {
      if (trim(v).empty()) throw InputError(std::string("'") + key + "' is missing");
      return v;
    };
    m.experts = parse_count(need(f.experts, "experts"), "experts", 1, kMaxExperts);
    m.top_k = parse_count(need(f.top_k, "top_k"), "top_k", 1, kMaxExperts);
    m.hidden = parse_count(need(f.hidden, "hidden"), "hidden", 1, kMaxDim);
    m.intermediate = parse_count(need(f.intermediate, "intermediate"), "intermediate", 1, kMaxDim / 2);
    m.tp = trim(f.tp).empty() ? 1 : parse_count(f.tp, "tp", 1, 1 << 20);
    m.dtype = trim(f.dtype).empty() ? Dtype::bf16 : parse_moe_dtype(f.dtype);
    m.dtype_text = trim(f.dtype);
    m.quant_block = parse_block_shape(f.block_shape);
    m.name = trim(f.name);
    require_utf8(m.name, "'name'");
  } catch (const InputError& e) {
    throw InputError(where + e.what());
  }
  m.line = line;
  validate_moe_model(m, where);
  return m;
}

// A bad entry: thrown, or with keep_bad returned in its place with its error.
void add_entry(std::vector<MoeModel>& out, bool keep_bad, long line, const std::function<MoeModel()>& make) {
  if (!keep_bad) {
    out.push_back(make());
    return;
  }
  try {
    out.push_back(make());
  } catch (const InputError& e) {
    MoeModel bad;
    bad.line = line;
    bad.error = e.what();
    out.push_back(std::move(bad));
  }
}

std::vector<MoeModel> read_csv_models(std::istream& in, const std::string& path, std::vector<std::string>* warnings,
                                      bool keep_bad) {
  CsvReader r(in, path);
  const CsvHeader h = CsvHeader::read(r, {"experts", "top_k", "hidden", "intermediate"}, {},
                                      {"m", "a list of GEMM shapes (m, n, k): --target vllm-fused-moe takes MoE models "
                                            "(a shape's M is given with --m-values, the layer's sizes per model)"});
  const std::vector<std::string> known = {"experts", "top_k", "hidden", "intermediate", "dtype", "tp", "block_shape", "name"};
  for (const std::string& w : h.unknown_column_warnings(known))
    if (warnings) warnings->push_back(w);
  std::vector<int> index;
  for (const std::string& k : known) index.push_back(h.index(k));
  std::vector<MoeModel> out;
  std::vector<std::string> f;
  while (r.next(f)) {
    add_entry(out, keep_bad, r.line(), [&] {
      require_header_fields(r, h, f);
      auto at = [&](std::size_t i) { return index[i] >= 0 ? f[static_cast<std::size_t>(index[i])] : std::string(); };
      const ModelFields mf{at(0), at(1), at(2), at(3), at(4), at(5), at(6), at(7)};
      return model_from_fields(mf, path + ":" + std::to_string(r.line()) + ": ", r.line());
    });
  }
  return out;
}

std::vector<MoeModel> read_yaml_models(const std::string& text, const std::string& path,
                                       std::vector<std::string>* warnings, bool keep_bad) {
  YAML::Node root;
  // Text that opens with a JSON mapping and has a second top-level value is one JSON mapping a line
  // (JSON Lines, as batch reads shape lists): a model list is one document. The generic advice (text
  // lists) did not fit, and its --input-format text was then refused (a fresh user's find, 2026-12-06).
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  const std::string json_lines = first != std::string::npos && text[first] == '{'
                                     ? "one JSON mapping a line (JSON Lines): a fused-MoE model list is CSV, YAML or "
                                       "one JSON document; write the models as a JSON list, [{...}, {...}]"
                                     : std::string();
  try {
    root = load_one_document(text, path, 0, "a model list", json_lines);
  } catch (const YAML::Exception& e) {
    throw InputError(path + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML/JSON: " + e.msg);
  }
  std::vector<std::string> top_warnings;
  root = list_under(root, "models", path, 0, &top_warnings);
  if (warnings) warnings->insert(warnings->end(), top_warnings.begin(), top_warnings.end());
  if (!root.IsSequence())  // at its line, as a shape list says it (yaml-cpp's mark of the node found)
    throw InputError(path + ":" + std::to_string(std::max(0, root.Mark().line) + 1) +
                     ": expected a list of models (or a mapping with a 'models:' list)");
  std::vector<MoeModel> out;
  for (std::size_t i = 0; i < root.size(); ++i) {
    const YAML::Node n = root[i];
    const long line = n.Mark().line + 1;
    // Entries sharing a line: the entry's place too, as shape lists say it (a fresh user's find,
    // 2026-12-04).
    const long entry = entry_shares_line(root, i) ? static_cast<long>(i + 1) : 0;
    const std::string where = path + ":" + std::to_string(line) + ": " + entry_place(entry);
    add_entry(out, keep_bad, line, [&] {
      if (!n.IsMap()) throw InputError(where + "each model is a mapping of experts, top_k, hidden, intermediate, ...");
      if (n["m"] && !n["experts"])
        throw InputError(where + "a GEMM shape (m, n, k), not a MoE model: --target vllm-fused-moe takes models "
                                 "(experts, top_k, hidden, intermediate; M from --m-values)");
      ModelFields mf;
      static const std::vector<std::string> kKnown = {"experts", "top_k", "hidden", "intermediate", "dtype", "tp",
                                                      "block_shape", "name"};
      std::set<std::string> seen;
      for (const auto& kv : n) {
        const std::string key = kv.first.Scalar();
        if (!seen.insert(key).second) throw InputError(where + "duplicate key '" + printable(key) + "'");
        if (key == "<<") throw InputError(where + kMergeKeyMessage);
        if (std::find(kKnown.begin(), kKnown.end(), key) == kKnown.end()) {
          if (warnings)
            warnings->push_back(where + "unknown key '" + printable(key) +
                                "' ignored (known: experts, top_k, hidden, intermediate, dtype, tp, block_shape, name)");
          continue;
        }
        std::string value;
        if (kv.second.IsScalar()) {
          value = kv.second.Scalar();
        } else if (key == "block_shape" && kv.second.IsSequence() && kv.second.size() == 2) {
          value = kv.second[0].Scalar() + "," + kv.second[1].Scalar();
        } else if (!kv.second.IsNull()) {
          throw InputError(where + "'" + key + "' must be a single value");
        }
        if (key == "experts") mf.experts = value;
        else if (key == "top_k") mf.top_k = value;
        else if (key == "hidden") mf.hidden = value;
        else if (key == "intermediate") mf.intermediate = value;
        else if (key == "dtype") mf.dtype = value;
        else if (key == "tp") mf.tp = value;
        else if (key == "block_shape") mf.block_shape = value;
        else mf.name = value;
      }
      return model_from_fields(mf, where, line);
    });
    out.back().entry = entry;  // add_entry added one model, good or bad
  }
  return out;
}

}  // namespace

std::vector<MoeModel> read_moe_models(const std::string& path_given, std::vector<std::string>* warnings, bool keep_bad) {
  // Read whole (a list is short, and its format is sniffed from its first line), never more than
  // kMaxWholeInputBytes: a stream without end (/dev/zero) is an error, not a full memory.
  const bool from_stdin = path_given == "-";
  const std::string path = from_stdin ? std::string("<stdin>") : path_given;
  std::string all;
  const std::string why = "a model list is read whole";
  if (from_stdin) {
    all = read_whole_input(std::cin, path, why);
  } else {
    check_readable_file(path);
    const std::unique_ptr<std::istream> file = open_csv_file(path);  // a ".gz" list read decompressed
    all = read_whole_input(*file, path, why);
  }
  // Gzip data under another name or on stdin, told by its magic bytes, as batch tells a shape list.
  all = gunzip_whole(std::move(all), path, why);
  std::vector<MoeModel> models;
  const std::string lower_path = lower(name_under_gzip(path));  // models.yaml.gz: YAML
  const bool yaml = !from_stdin && (text::ends_with(lower_path, ".yaml") || text::ends_with(lower_path, ".yml") ||
                                    text::ends_with(lower_path, ".json"));
  // Sniff: a list whose first significant line opens a YAML/JSON sequence or mapping.
  std::string t;
  for (std::size_t at = 0; !yaml && at < all.size();) {
    const std::size_t end = std::min(all.find('\n', at), all.size());
    t = trim(std::string_view(all).substr(at, end - at));
    if (!t.empty() && t[0] != '#') break;
    at = end + 1;
  }
  if (yaml || (!t.empty() && (t[0] == '[' || t[0] == '{' || t[0] == '-' || t.rfind("models:", 0) == 0))) {
    models = read_yaml_models(all, path, warnings, keep_bad);
  } else {
    std::istringstream in(all);
    models = read_csv_models(in, path, warnings, keep_bad);
  }
  if (models.empty()) throw InputError(path + ": no models (the list is empty)");
  return models;
}

namespace {
// Python's json writes float('nan') and float('inf') as NaN, Infinity and -Infinity, which are no
// JSON: a config.json with one in a field unread here (router_aux_loss_coef) was "not valid JSON"
// (a fresh user's find, 2026-12-04). Outside strings, each becomes null (the line count unchanged).
std::string python_constants_as_null(std::string text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) out += text[++i];
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    bool replaced = false;
    for (const std::string_view token : {"-Infinity", "Infinity", "NaN"}) {
      if (text.compare(i, token.size(), token) == 0) {
        out += "null";
        i += token.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += c;
  }
  return out;
}
}  // namespace

MoeModel moe_model_from_hf_config(const std::string& file, std::int64_t tp, const std::string& dtype_override,
                                  std::vector<std::string>* warnings) {
  // "-" reads stdin (`curl .../config.json | gemm-advisor rank 1 --from-hf -`), as shape lists do.
  const bool from_stdin = file == "-";
  const std::string path = from_stdin ? "<stdin>" : file;  // as shape lists name it
  // Read whole (bounded) first: an empty file or /dev/zero was "not valid JSON: unexpected end of input".
  // read_text_file's bound for both (16 MiB).
  const std::string in = python_constants_as_null(
      from_stdin ? read_whole_input(std::cin, path, "not a config.json", std::size_t{16} << 20) : read_text_file(path));
  if (in.find_first_not_of(" \t\r\n") == std::string::npos) throw InputError(path + ": is empty (expected a config.json)");
  if (in.find('\0') != std::string::npos) throw InputError(path + ": contains NUL bytes: not a text file");
  check_flow_nesting(in, path, 0, "a config.json");
  nlohmann::json root;
  // nlohmann keeps the last of a key given twice: a config whose hidden_size is written twice is
  // ambiguous, so the parser's key events are checked per object.
  std::vector<std::set<std::string>> object_keys;
  std::string duplicate;
  const nlohmann::json::parser_callback_t keys_once = [&](int, nlohmann::json::parse_event_t event,
                                                          nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (event == Event::object_start) {
      object_keys.emplace_back();
    } else if (event == Event::object_end) {
      if (!object_keys.empty()) object_keys.pop_back();
    } else if (event == Event::key && !object_keys.empty() && duplicate.empty() && parsed.is_string() &&
               !object_keys.back().insert(parsed.get<std::string>()).second) {
      duplicate = parsed.get<std::string>();
    }
    return true;
  };
  try {
    root = nlohmann::json::parse(in, keys_once);
  } catch (const nlohmann::json::exception& e) {
    // printable: the parser quotes what it last read, raw bytes too (README: bytes that are not UTF-8
    // text are shown as \xNN).
    const std::string what = text::json_error_message(e.what());
    throw InputError(located(path, text::json_error_line(in, what), "not valid JSON: " + printable(what, 300)));
  }
  if (!duplicate.empty()) throw InputError(path + ": duplicate key '" + printable(duplicate) + "' (which one holds?)");
  if (!root.is_object()) throw InputError(path + ": expected a JSON object (a Hugging Face config.json)");
  // A multimodal model's language part sits under text_config; anything else there is no config
  // (it was read past, and the top level's keys taken, without a word).
  if (root.contains("text_config") && !root["text_config"].is_object() && !root["text_config"].is_null())
    throw InputError(path + ": text_config = " + printable(root["text_config"].dump(), 80) +
                     " is not an object (the language model's config, as multimodal config.json files hold it)");
  const nlohmann::json& c = root.contains("text_config") && root["text_config"].is_object() ? root["text_config"] : root;
  // Expert keys at the top level and under text_config: which layer is meant is a guess (text_config
  // was taken unsaid: a fresh user's find, 2026-12-04).
  if (&c != &root)
    for (const char* k : {"num_local_experts", "n_routed_experts", "num_experts", "num_experts_per_tok"})
      if (root.contains(k) && c.contains(k))
        throw InputError(path + ": '" + k + "' both at the top level and under text_config: which model's MoE layer "
                                          "is meant? (keep one)");
  // ":LINE" of key `k` where it is written once in the file (a nested config may hold the same key
  // for another part, a vision tower's hidden_size: no line then), else "" (type errors named no line
  // in a file of many: a fresh MoE user's find, 2026-12-07).
  auto key_line = [&](const char* k) -> std::string {
    const std::string quoted = std::string("\"") + k + "\"";
    std::size_t at = std::string::npos, found = 0;
    for (std::size_t i = in.find(quoted); i != std::string::npos; i = in.find(quoted, i + 1)) {
      const std::size_t colon = in.find_first_not_of(" \t\r\n", i + quoted.size());
      if (colon == std::string::npos || in[colon] != ':') continue;
      at = i;
      ++found;
    }
    if (found != 1) return "";
    return ":" + std::to_string(1 + std::count(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  };
  // The first of `keys` present; a present key with no whole number, or two present keys that
  // disagree, is an error (a config is read as vLLM would, never guessed at).
  auto integer = [&](std::initializer_list<const char*> keys, const char* what) -> std::int64_t {
    const char* found = nullptr;
    std::int64_t value = 0;
    for (const char* k : keys) {
      if (!c.contains(k)) continue;
      const nlohmann::json& v = c[k];
      if (v.is_number_float() && std::trunc(v.get<double>()) == v.get<double>() &&
          std::abs(v.get<double>()) <= static_cast<double>(kMaxDim))  // 8.0: whole, but vLLM reads an int
        throw InputError(path + key_line(k) + ": " + k + " = " + printable(v.dump()) +
                         " is written as a decimal number; config.json gives it as a whole number (e.g. 8)");
      // NaN and Infinity (Python's json writes them) were read as null, and said so: "= null" (a fresh
      // MoE user's find, 2026-12-07).
      if (v.is_null())
        throw InputError(path + key_line(k) + ": " + k + " is null, NaN or Infinity, not the " + what +
                         " (a whole number)");
      if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(kMaxDim)))
        throw InputError(path + key_line(k) + ": " + k + " = " + printable(v.dump()) +
                         " is not a whole number of at most 2147483647");
      // Said by the file's key (it was validate_moe_model's "hidden = -4096 is outside ...": a fresh
      // MoE user's find, 2026-12-07).
      if (v.get<std::int64_t>() < 1)
        throw InputError(path + key_line(k) + ": " + k + " = " + v.dump() + " must be at least 1 (the " + what + ")");
      if (found && v.get<std::int64_t>() != value)
        throw InputError(path + ": " + found + " = " + std::to_string(value) + " and " + k + " = " + v.dump() +
                         " disagree on the " + what);
      if (!found) {
        found = k;
        value = v.get<std::int64_t>();
      }
    }
    if (found) return value;
    std::string names;
    for (const char* k : keys) names += std::string(names.empty() ? "" : ", ") + k;
    // Under text_config the top level is not read (vLLM reads a multimodal config's language part):
    // said where the top level holds the key (it read as if the file lacked it: a fresh user's find).
    std::string top_level;
    if (&c != &root)
      for (const char* k : keys)
        if (top_level.empty() && root.contains(k)) top_level = k;
    throw InputError(path + ": no " + what + " (looked for " + names + ")" +
                     (top_level.empty() ? std::string()
                                        : " under text_config, the language model's config vLLM reads; the top "
                                          "level's " + top_level + " is not read"));
  };
  MoeModel m;
  m.experts = integer({"num_local_experts", "n_routed_experts", "num_experts"}, "expert count");
  m.top_k = integer({"num_experts_per_tok", "experts_per_token", "moe_topk"}, "experts per token");
  m.hidden = integer({"hidden_size"}, "hidden size");
  // A null moe_intermediate_size (some configs write one for dense layers) falls back as a missing one.
  m.intermediate = c.contains("moe_intermediate_size") && !c["moe_intermediate_size"].is_null()
                       ? integer({"moe_intermediate_size"}, "expert intermediate size")
                       : integer({"intermediate_size"}, "expert intermediate size");
  m.tp = tp;
  if (c.contains("model_type") && c["model_type"].is_string()) m.name = c["model_type"].get<std::string>();
  require_utf8(m.name, path + ": model_type");
  // intermediate_size is the experts' own only where the config has no other (Mixtral's). Models
  // naming their experts num_experts or n_routed_experts (Qwen-MoE, DeepSeek) keep a dense MLP's size
  // there: without moe_intermediate_size the file came out for N = 6144 on Qwen3-30B-A3B, where vLLM
  // looks for 768, unsaid (a fresh vLLM user's find, 2026-12-05).
  if (warnings && (!c.contains("moe_intermediate_size") || c["moe_intermediate_size"].is_null()) &&
      !c.contains("num_local_experts") && (c.contains("n_routed_experts") || c.contains("num_experts")))
    warnings->push_back(path + ": no moe_intermediate_size: the experts' size is taken from intermediate_size (" +
                        std::to_string(m.intermediate) + "), which a model naming its experts " +
                        (c.contains("n_routed_experts") ? "n_routed_experts" : "num_experts") +
                        " usually keeps for its dense MLP");
  const nlohmann::json* q = nullptr;
  const std::array<const nlohmann::json*, 2> nodes = {&root, &c};
  for (const nlohmann::json* node : nodes) {
    if (!node->contains("quantization_config") || (*node)["quantization_config"].is_null()) continue;
    if (!(*node)["quantization_config"].is_object())
      throw InputError(path + ": quantization_config must be an object, got " + printable((*node)["quantization_config"].dump()));
    q = &(*node)["quantization_config"];
  }
  // weight_block_size, where given, is [b, b] (vLLM's block quantisation).
  auto block_of = [&](const nlohmann::json& qc) -> std::int64_t {
    if (!qc.contains("weight_block_size") || qc["weight_block_size"].is_null()) return 0;
    const nlohmann::json& b = qc["weight_block_size"];
    if (!b.is_array() || b.size() != 2 || !b[0].is_number_integer() || b[0] != b[1])
      throw InputError(path + ": quantization_config.weight_block_size must be [b, b], got " + printable(b.dump()));
    try {
      return parse_block_shape(std::to_string(b[0].get<std::int64_t>()) + "x" + std::to_string(b[1].get<std::int64_t>()));
    } catch (const InputError& e) {  // the file's key, not the --block-shape option, is at fault
      throw InputError(path + ": quantization_config.weight_block_size " + printable(b.dump()) + ": " + e.what());
    }
  };
  // A quantization_config without its method: said as such (it was "quantization '' is not one vLLM's
  // Triton fused MoE tunes": a fresh MoE user's find, 2026-12-07).
  if (q && dtype_override.empty() && (!q->contains("quant_method") || (*q)["quant_method"].is_null()))
    throw InputError(path + key_line("quantization_config") +
                     ": quantization_config has no quant_method (vLLM tells a checkpoint's quantization by it: "
                     "\"fp8\" for the fp8_w8a8 layer ranked here); or give --dtype");
  if (q && q->contains("quant_method") && !(*q)["quant_method"].is_string() && !(*q)["quant_method"].is_null())
    throw InputError(path + ": quantization_config.quant_method must be text, got " +
                     printable((*q)["quant_method"].dump()));
  const std::string method = q && q->contains("quant_method") && (*q)["quant_method"].is_string()
                                 ? lower((*q)["quant_method"].get<std::string>())
                                 : "";
  if (!dtype_override.empty()) {
    m.dtype = parse_moe_dtype(dtype_override);
    m.dtype_text = trim(dtype_override);
    if (m.dtype == Dtype::fp8 && q) m.quant_block = block_of(*q);
    if (m.dtype != Dtype::fp8 && method == "fp8" && warnings)
      warnings->push_back(path + ": quantization_config is fp8, but dtype " + printable(dtype_override) +
                          " ranks the layer unquantized (drop --dtype for the checkpoint's fp8 layer)");
    // Another quantization (mxfp4, awq, compressed-tensors, ...) ranked as the given dtype: the
    // checkpoint runs another MoE kernel, which reads none of these files (it passed unsaid, where
    // fp8 is warned of: a fresh vLLM user's find, 2026-12-05).
    if (!method.empty() && method != "fp8" && warnings)
      warnings->push_back(path + ": quantization '" + printable(method) + "': ranked as the " +
                          printable(dtype_override) + " layer --dtype gives, not from the checkpoint's "
                          "quantization_config; vLLM may run such a checkpoint's MoE with another kernel, or read "
                          "files named for another dtype, so check that these files are read");
  } else if (q) {
    if (method != "fp8")
      throw InputError(path + ": quantization '" + printable(method) +
                       "' is not one vLLM's Triton fused MoE tunes here (bf16, fp16, fp8_w8a8): vLLM runs such a "
                       "checkpoint's MoE with another kernel, or reads files named for another dtype; --dtype bf16 "
                       "ranks the layer as if unquantized, --dtype fp8_w8a8 as vLLM's per-tensor fp8 layer (an fp8 "
                       "W8A8 checkpoint vLLM runs on its Triton fused MoE), either as files vLLM may not read");
    m.dtype = Dtype::fp8;
    m.quant_block = block_of(*q);
  } else {
    // transformers writes `dtype` since it renamed `torch_dtype` (4.56): either is read, torch_dtype
    // first (a config with `dtype: float16` was ranked as bf16: a fresh user's find, 2026-12-06).
    const char* key = c.contains("torch_dtype") && c["torch_dtype"].is_string() ? "torch_dtype"
                      : c.contains("dtype") && c["dtype"].is_string()          ? "dtype"
                                                                                : nullptr;
    const std::string td = key ? c[key].get<std::string>() : "bfloat16";
    m.dtype = lower(td) == "float16" ? Dtype::fp16 : Dtype::bf16;
    // Another dtype (float32, int8) was ranked as bf16 unsaid (a fresh MoE user's find, 2026-12-07).
    if (warnings && lower(td) != "float16" && lower(td) != "bfloat16")
      warnings->push_back(path + ": " + key + " '" + printable(td) + "' is not a dtype vLLM's fused MoE runs "
                          "(bfloat16, float16, or fp8 by quantization_config): ranked as bf16 (give --dtype to choose)");
  }
  // --tp is the command line's, not the file's: named so (it read as the file's fault: a fresh CI
  // user's find, 2026-12-05).
  if (m.intermediate >= 1 && (m.tp < 1 || m.intermediate % m.tp != 0))
    throw InputError("--tp " + std::to_string(m.tp) + " must divide " + path + "'s intermediate size " +
                     std::to_string(m.intermediate));
  validate_moe_model(m, path + ": ");
  return m;
}

std::string vllm_moe_dtype(const MoeModel& m) { return m.dtype == Dtype::fp8 ? "fp8_w8a8" : ""; }

std::string vllm_moe_device_name(const std::string& device_name) {
  for (std::size_t start = 0; start <= device_name.size();) {
    const std::size_t end = std::min(device_name.find('_', start), device_name.size());
    if (device_name.compare(start, end - start, "H200") == 0) return "NVIDIA_H200";
    start = end + 1;
  }
  return device_name;
}

std::string vllm_moe_config_file_name(std::int64_t experts, std::int64_t n, const std::string& device_name,
                                      const std::string& vllm_dtype, std::int64_t quant_block) {
  std::string name =
      "E=" + std::to_string(experts) + ",N=" + std::to_string(n) + ",device_name=" + vllm_moe_device_name(device_name);
  if (!vllm_dtype.empty()) name += ",dtype=" + vllm_dtype;
  if (quant_block > 0) name += ",block_shape=[" + std::to_string(quant_block) + "," + std::to_string(quant_block) + "]";
  return name + ".json";
}

}  // namespace gemm_advisor
