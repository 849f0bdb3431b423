#include "gemm_advisor/shape_list.hpp"

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <cctype>
#include <sstream>

#include "gemm_advisor/csv_reader.hpp"
#include "gemm_advisor/error.hpp"

namespace gemm_advisor {

ShapeFormat parse_shape_format(const std::string& text) {
  if (text == "auto") return ShapeFormat::automatic;
  if (text == "csv") return ShapeFormat::csv;
  if (text == "yaml" || text == "yml") return ShapeFormat::yaml;
  if (text == "json") return ShapeFormat::json;
  if (text == "text" || text == "txt") return ShapeFormat::text;
  throw InputError("unknown input format '" + text + "' (expected auto, csv, yaml, json or text)");
}

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Applies optional dtype/layout text to a problem, throwing InputError with the bad text.
void apply_dtype_layout(GemmProblem& p, const std::string& dtype, const std::string& layout) {
  if (!dtype.empty()) p.dtype = parse_dtype(dtype);
  if (!layout.empty()) p.layout = parse_layout(layout);
}

class CsvShapeReader : public ShapeReader {
 public:
  CsvShapeReader(std::istream& in, const std::string& source, const GemmProblem& defaults, long first_line)
      : reader_(in, source, first_line), defaults_(defaults) {
    header_ = CsvHeader::read(reader_, {"m", "n", "k"});
    im_ = header_.index("m");
    in_ = header_.index("n");
    ik_ = header_.index("k");
    ib_ = header_.index("batch");
    id_ = header_.index("dtype");
    il_ = header_.index("layout");
    iname_ = header_.index("name");
  }
  bool next(ShapeEntry& e) override {
    if (!reader_.next(fields_)) return false;
    e = ShapeEntry{};
    e.line = reader_.line();
    try {
      if (fields_.size() != header_.size())
        reader_.fail("expected " + std::to_string(header_.size()) + " fields as in the header, got " +
                     std::to_string(fields_.size()));
      e.problem = defaults_;
      e.problem.m = csv_int(reader_, fields_, im_, "m", 1, kMaxDim);
      e.problem.n = csv_int(reader_, fields_, in_, "n", 1, kMaxDim);
      e.problem.k = csv_int(reader_, fields_, ik_, "k", 1, kMaxDim);
      e.problem.batch = ib_ >= 0 && !fields_[ib_].empty() ? csv_int(reader_, fields_, ib_, "batch", 1, kMaxBatch) : 1;
      try {
        apply_dtype_layout(e.problem, csv_text(fields_, id_, ""), csv_text(fields_, il_, ""));
      } catch (const InputError& err) {
        reader_.fail(err.what());
      }
      e.name = csv_text(fields_, iname_, "");
    } catch (const InputError& err) {
      e.error = err.what();
    }
    return true;
  }

 private:
  CsvReader reader_;
  CsvHeader header_;
  GemmProblem defaults_;
  std::vector<std::string> fields_;
  int im_, in_, ik_, ib_, id_, il_, iname_;
};

class TextShapeReader : public ShapeReader {
 public:
  TextShapeReader(std::istream& in, const std::string& source, const GemmProblem& defaults, long first_line)
      : in_(in), source_(source), defaults_(defaults), line_(first_line) {}
  bool next(ShapeEntry& e) override {
    std::string text;
    while (std::getline(in_, text)) {
      ++line_;
      if (!bom_checked_ && text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
      bom_checked_ = true;
      if (!text.empty() && text.back() == '\r') text.pop_back();
      const auto hash = text.find('#');
      if (hash != std::string::npos) text.erase(hash);
      std::size_t b = 0, end = text.size();
      while (b < end && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
      while (end > b && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
      if (b == end) continue;
      e = ShapeEntry{};
      e.line = line_;
      try {
        if (text.find('\0') != std::string::npos) throw InputError("contains NUL bytes: not a text shape list");
        e.problem = parse_shape(std::string_view(text).substr(b, end - b), defaults_);
      } catch (const InputError& err) {
        e.error = located(source_, line_, err.what());
      }
      return true;
    }
    if (in_.bad()) throw InputError(located(source_, line_, "read error"));
    return false;
  }

 private:
  std::istream& in_;
  std::string source_;
  GemmProblem defaults_;
  long line_ = 0;
  bool bom_checked_ = false;
};

// YAML (and JSON, which is YAML) lists are loaded whole: yaml-cpp has no streaming reader.
class YamlShapeReader : public ShapeReader {
 public:
  YamlShapeReader(std::istream& in, const std::string& source, const GemmProblem& defaults, bool json,
                  long first_line)
      : source_(source), defaults_(defaults), first_line_(first_line) {
    std::ostringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    if (text.find('\0') != std::string::npos) throw InputError(source + ": contains NUL bytes: not a text file");
    if (json) {
      // Strict JSON first, for exact JSON error messages; then walk it with yaml-cpp for lines.
      try {
        const auto parsed = nlohmann::json::parse(text);
        (void)parsed;
      } catch (const nlohmann::json::parse_error& err) {
        throw InputError(source + ": not valid JSON: " + err.what());
      }
    }
    try {
      root_ = YAML::Load(text);
    } catch (const YAML::Exception& err) {
      throw InputError(located(source, err.mark.line + 1 + first_line, std::string("not valid ") + (json ? "JSON" : "YAML") +
                                                          ": " + err.msg));
    }
    if (root_.IsMap() && root_["shapes"]) root_ = root_["shapes"];
    if (!root_.IsSequence())
      throw InputError(located(source, root_.Mark().line + 1 + first_line, "expected a list of shapes (each with m, n, k)"));
  }
  bool next(ShapeEntry& e) override {
    if (index_ >= root_.size()) return false;
    const YAML::Node item = root_[index_++];
    e = ShapeEntry{};
    e.line = item.Mark().line + 1 + first_line_;
    try {
      e.problem = defaults_;
      if (item.IsScalar()) {
        e.problem = parse_shape(item.Scalar(), defaults_);
      } else if (!item.IsMap()) {
        throw InputError("expected a mapping with m, n, k or a \"MxNxK\" string");
      } else {
        for (const auto& kv : item) {
          const std::string key = kv.first.Scalar();
          if (key != "m" && key != "n" && key != "k" && key != "batch" && key != "dtype" && key != "layout" &&
              key != "name")
            throw InputError("unknown key '" + key + "' (expected m, n, k, batch, dtype, layout, name)");
        }
        e.problem.m = integer(item, "m", true, kMaxDim);
        e.problem.n = integer(item, "n", true, kMaxDim);
        e.problem.k = integer(item, "k", true, kMaxDim);
        e.problem.batch = integer(item, "batch", false, kMaxBatch);
        apply_dtype_layout(e.problem, scalar(item, "dtype"), scalar(item, "layout"));
        e.name = scalar(item, "name");
      }
    } catch (const InputError& err) {
      e.error = located(source_, e.line, err.what());
    }
    return true;
  }

 private:
  static std::string scalar(const YAML::Node& item, const char* key) {
    const YAML::Node v = item[key];
    if (!v) return "";
    if (!v.IsScalar()) throw InputError(std::string("'") + key + "' must be a string");
    return v.Scalar();
  }
  static std::int64_t integer(const YAML::Node& item, const char* key, bool required, std::int64_t max) {
    const YAML::Node v = item[key];
    if (!v) {
      if (required) throw InputError(std::string("missing '") + key + "'");
      return 1;
    }
    const std::string s = v.IsScalar() ? v.Scalar() : "";
    std::int64_t out = 0;
    bool ok = !s.empty() && s.size() <= 19;
    for (char ch : s) ok = ok && ch >= '0' && ch <= '9';
    if (ok) out = std::stoll(s);
    if (!ok) throw InputError(std::string("'") + key + "' must be a positive whole number, got '" + s + "'");
    if (out < 1 || out > max)
      throw InputError(std::string("'") + key + "' = " + s + " is outside 1.." + std::to_string(max));
    return out;
  }

  std::string source_;
  GemmProblem defaults_;
  long first_line_ = 0;
  YAML::Node root_;
  std::size_t index_ = 0;
};

}  // namespace

std::unique_ptr<ShapeReader> open_shape_reader(std::istream& in, const std::string& source, ShapeFormat format,
                                               const GemmProblem& defaults) {
  if (format == ShapeFormat::automatic) {
    if (ends_with(source, ".csv")) format = ShapeFormat::csv;
    else if (ends_with(source, ".yaml") || ends_with(source, ".yml")) format = ShapeFormat::yaml;
    else if (ends_with(source, ".json")) format = ShapeFormat::json;
    else if (ends_with(source, ".txt")) format = ShapeFormat::text;
  }
  long skipped_lines = 0;
  if (format == ShapeFormat::automatic) {
    // Sniff the first significant character without consuming it.
    int ch;
    while ((ch = in.peek()) != EOF) {
      if (ch == '#') {
        std::string skip;
        std::getline(in, skip);
        ++skipped_lines;
        continue;
      }
      if (!std::isspace(ch) && ch != 0xEF && ch != 0xBB && ch != 0xBF) break;
      if (in.get() == '\n') ++skipped_lines;
    }
    if (ch == '[' || ch == '{') format = ShapeFormat::json;
    else if (ch == '-') format = ShapeFormat::yaml;
    else if (std::isdigit(ch)) format = ShapeFormat::text;
    else format = ShapeFormat::csv;
  }
  switch (format) {
    case ShapeFormat::csv: return std::make_unique<CsvShapeReader>(in, source, defaults, skipped_lines);
    case ShapeFormat::yaml: return std::make_unique<YamlShapeReader>(in, source, defaults, false, skipped_lines);
    case ShapeFormat::json: return std::make_unique<YamlShapeReader>(in, source, defaults, true, skipped_lines);
    default: return std::make_unique<TextShapeReader>(in, source, defaults, skipped_lines);
  }
}

}  // namespace gemm_advisor
