#include "gemm_advisor/shape_list.hpp"

#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <set>

#include "gemm_advisor/csv_reader.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/report.hpp"
#include "text.hpp"
#include "yaml_document.hpp"

namespace gemm_advisor {

ShapeFormat parse_shape_format(const std::string& text) {
  if (text == "auto") return ShapeFormat::automatic;
  if (text == "csv") return ShapeFormat::csv;
  if (text == "yaml" || text == "yml") return ShapeFormat::yaml;
  // JSON Lines (one object a line, as `batch --format jsonl` writes) is read by the JSON reader.
  if (text == "json" || text == "jsonl" || text == "ndjson") return ShapeFormat::json;
  if (text == "text" || text == "txt") return ShapeFormat::text;
  throw InputError("unknown input format '" + printable(text) + "' (expected auto, csv, yaml, json, jsonl or text)");
}

namespace {

// The fields a shape list names, in a CSV header or as a YAML/JSON entry's keys; others are
// ignored with a warning.
const std::vector<std::string>& shape_list_keys() {
  static const std::vector<std::string> keys = {"m", "n", "k", "batch", "dtype", "layout", "name"};
  return keys;
}

// Wraps a reader so that an input holding no shape at all is an error, not an empty success.
class NonEmptyReader : public ShapeReader {
 public:
  NonEmptyReader(std::unique_ptr<ShapeReader> inner, std::string source)
      : inner_(std::move(inner)), source_(std::move(source)) {}
  bool next(ShapeEntry& e) override {
    if (inner_->next(e)) {
      ++entries_;
      return true;
    }
    if (entries_ == 0)
      throw InputError(source_ + ": no shapes (the input is empty, or holds only a header, comments or an empty list)");
    return false;
  }
  std::vector<std::string> warnings() const override { return inner_->warnings(); }

 private:
  std::unique_ptr<ShapeReader> inner_;
  std::string source_;
  std::size_t entries_ = 0;
};

using text::ends_with;

// A stream buffer that serves `prefix` (a line the format sniffer read) and then what is left of
// `rest`: the first line given back to the reader that the sniffed format picks.
class PrefixStreambuf : public std::streambuf {
 public:
  PrefixStreambuf(std::string prefix, std::streambuf* rest) : prefix_(std::move(prefix)), rest_(rest) {
    setg(prefix_.data(), prefix_.data(), prefix_.data() + prefix_.size());
  }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    const std::streamsize n = rest_->sgetn(chunk_, sizeof chunk_);
    if (n <= 0) return traits_type::eof();
    setg(chunk_, chunk_, chunk_ + n);
    return traits_type::to_int_type(*gptr());
  }

 private:
  std::string prefix_;
  std::streambuf* rest_;
  char chunk_[1 << 16];
};

// A reader over a PrefixStreambuf it owns (the stream must outlive the reader it feeds).
class PrefixedReader : public ShapeReader {
 public:
  PrefixedReader(std::unique_ptr<PrefixStreambuf> buf, std::unique_ptr<std::istream> stream)
      : buf_(std::move(buf)), stream_(std::move(stream)) {}
  std::istream& stream() { return *stream_; }
  void set_inner(std::unique_ptr<ShapeReader> inner) { inner_ = std::move(inner); }
  bool next(ShapeEntry& e) override { return inner_->next(e); }
  std::vector<std::string> warnings() const override { return inner_->warnings(); }

 private:
  std::unique_ptr<PrefixStreambuf> buf_;
  std::unique_ptr<std::istream> stream_;
  std::unique_ptr<ShapeReader> inner_;
};

// Whether a line opens a YAML mapping of shapes ("shapes:", as the YAML reader's list_under takes).
bool opens_shapes_mapping(const std::string& line) {
  const std::string_view t(line);
  if (t.rfind("shapes", 0) != 0) return false;
  std::size_t i = 6;
  while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
  return i < t.size() && t[i] == ':';
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
    header_ = CsvHeader::read(reader_, {"m", "n", "k"}, {},
                              {"experts", "a fused-MoE model list: give --target vllm-fused-moe"});
    // `batch --format csv`'s own output re-ranked: its result columns are read past without a warning
    // each, and only each shape's first place is ranked again (18 warnings, and a --top 3 result
    // ranked every shape three times: a fresh user's find, 2026-12-06), as a JSON Lines result is.
    const bool result = header_.index("rank") >= 0 && header_.index("latency_us") >= 0 && header_.index("hardware") >= 0;
    // A fused-MoE layer's result (`batch --target vllm-fused-moe --format csv`): its m, n, k are one
    // GEMM of a layer, which re-ranked as a dense GEMM with only unknown-column warnings, where the
    // JSON Lines form of the same result is refused (a fresh user's find, 2026-12-06).
    if (result && header_.index("experts") >= 0 && header_.index("gemm") >= 0)
      reader_.fail("a fused-MoE layer's result (columns experts, top_k, gemm), not a dense GEMM list: rank the "
                   "layer from its model list with --target vllm-fused-moe");
    irank_ = result ? header_.index("rank") : -1;
    warnings_ = header_.unknown_column_warnings(shape_list_keys(),
                                                result ? ranking_csv_result_columns() : std::vector<std::string>{});
    im_ = header_.index("m");
    in_ = header_.index("n");
    ik_ = header_.index("k");
    ib_ = header_.index("batch");
    id_ = header_.index("dtype");
    il_ = header_.index("layout");
    iname_ = header_.index("name");
  }
  std::vector<std::string> warnings() const override { return warnings_; }
  bool next(ShapeEntry& e) override {
    if (!reader_.next(fields_)) return false;
    // A result's later rows of the shape just read (rank 2, 3, ..., and its infeasible rows, which have
    // no rank: `--candidates --top 0`): the shape is ranked once, at its first row (each such row
    // ranked it once more: a fresh user's find, 2026-12-06). Whatever rank a shape's first row has, it
    // is read: a result filtered to its rank-2 rows was "no shapes" (a second fresh user's find).
    while (irank_ >= 0 && static_cast<std::size_t>(irank_) < fields_.size() && fields_[irank_] != "1" &&
           shape_key() == last_key_)
      if (!reader_.next(fields_)) return false;
    if (irank_ >= 0) last_key_ = shape_key();
    e = ShapeEntry{};
    e.line = reader_.line();
    try {
      require_header_fields(reader_, header_, fields_);
      e.problem = defaults_;
      e.problem.m = csv_int(reader_, fields_, im_, "m", 1, kMaxDim);
      e.problem.n = csv_int(reader_, fields_, in_, "n", 1, kMaxDim);
      e.problem.k = csv_int(reader_, fields_, ik_, "k", 1, kMaxDim);
      e.problem.batch = ib_ >= 0 && !fields_[ib_].empty() ? csv_int(reader_, fields_, ib_, "batch", 1, kMaxBatch) : 1;
      try {
        e.dtype_text = csv_text(fields_, id_, "");
        apply_dtype_layout(e.problem, e.dtype_text, csv_text(fields_, il_, ""));
        e.name = csv_text(fields_, iname_, "");
        require_utf8(e.name, "column 'name'");  // it goes into JSON output as it is
      } catch (const InputError& err) {
        reader_.fail(err.what());
      }
    } catch (const InputError& err) {
      e.error = err.what();
    }
    return true;
  }

 private:
  CsvReader reader_;
  CsvHeader header_;
  std::vector<std::string> warnings_;
  GemmProblem defaults_;
  std::vector<std::string> fields_;
  int im_, in_, ik_, ib_, id_, il_, iname_;
  int irank_ = -1;  ///< the rank column of `batch --format csv`'s own output, else -1
  std::string last_key_;  ///< shape_key() of the result row read last

  /// A result row's shape: its name, m, n, k, batch, dtype and layout fields, joined.
  std::string shape_key() const {
    std::string key;
    for (int i : {iname_, im_, in_, ik_, ib_, id_, il_})
      key += (i >= 0 && static_cast<std::size_t>(i) < fields_.size() ? fields_[static_cast<std::size_t>(i)] : "") + '\x1f';
    return key;
  }
};

class TextShapeReader : public ShapeReader {
 public:
  TextShapeReader(std::istream& in, const std::string& source, const GemmProblem& defaults, long first_line)
      : in_(in), source_(source), defaults_(defaults), line_(first_line) {}
  bool next(ShapeEntry& e) override {
    std::string text;
    for (;;) {
      const LineRead got = read_line(in_, text, kMaxLineBytes);
      if (got == LineRead::end) break;
      ++line_;
      if (got == LineRead::too_long)
        throw InputError(located(source_, line_, "line longer than 1 MiB: not a text shape list"));
      if (text.find('\0') != std::string::npos)
        throw InputError(located(source_, line_, "contains NUL bytes: not a text shape list"));
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

// What a strict JSON pass over a text finds without building its document (nlohmann's SAX parser,
// into a handler that keeps almost nothing): the root's kind, the distinct keys of every object (in
// lower case, into a set shared over several passes; `keys_capped` past kMaxKeys), and the error
// that stopped it (nlohmann's message; `out_of_range`: a number past a double's range, 1e400, which
// is valid JSON nlohmann cannot hold). Parsing a list of a million shapes into nlohmann's and then
// yaml-cpp's nodes took 3.5 KB a shape (0.9 GB for 200,000: README's "parsed whole first").
class JsonScan : public nlohmann::json_sax<nlohmann::json> {
 public:
  enum class Root { none, list, object, scalar };
  explicit JsonScan(std::set<std::string>* keys) : keys_(keys) {}
  Root root = Root::none;
  std::string error;
  bool out_of_range = false;
  bool keys_capped = false;

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override { return open(Root::object); }
  bool start_array(std::size_t) override { return open(Root::list); }
  bool end_object() override { return --depth_, true; }
  bool end_array() override { return --depth_, true; }
  bool key(string_t& k) override {
    if (keys_->size() < kMaxKeys) keys_->insert(text::lower(k));
    else if (!keys_->count(text::lower(k))) keys_capped = true;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) override {
    error = ex.what();
    out_of_range = ex.id == 406;  // nlohmann's out_of_range.406: "number overflow parsing"
    return false;
  }

 private:
  static constexpr std::size_t kMaxKeys = 256;
  bool value() {
    if (depth_ == 0) root = Root::scalar;
    return true;
  }
  bool open(Root kind) {
    if (depth_++ == 0) root = kind;
    return true;
  }
  std::set<std::string>* keys_;
  int depth_ = 0;
};

// One entry of a JSON list read entry by entry: its text's place in the input and the 0-based line
// it starts on.
// 24 bytes an entry: a million-shape list's spans are 24 MB beside its text (with a JSON Lines
// line's error string in each, 56 bytes and a growing vector's copy, the list peaked at 127 MB where
// the README said 88: a fresh CI user's find, 2026-12-07). A line's error is kept apart (SpanErrors).
struct JsonSpan {
  std::size_t offset = 0, size = 0;
  long line = 0;
};
/// JSON Lines: why a line is no JSON object, by its span's index (the few lines that fail).
using SpanErrors = std::map<std::size_t, std::string>;

// The top-level entries of `text`, valid JSON whose root is a list (JsonScan said so), in order: the
// text scanned twice, first to count them, so that the vector is allocated once.
std::vector<JsonSpan> json_list_spans(const std::string& text) {
  std::vector<JsonSpan> spans;
  std::size_t count = 0;
  for (const bool store : {false, true}) {
    if (store) spans.reserve(count);
    std::size_t i = text.find('[');  // the root list's (a BOM and blanks may come first)
    long line = static_cast<long>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(i), '\n'));
    ++i;
    const auto skip_blanks = [&] {
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n')) {
        if (text[i] == '\n') ++line;
        ++i;
      }
    };
    for (;;) {
      skip_blanks();
      if (i >= text.size() || text[i] == ']') break;
      JsonSpan span;
      span.offset = i;
      span.line = line;
      int depth = 0;
      bool in_string = false;
      for (; i < text.size(); ++i) {
        const char ch = text[i];
        if (ch == '\n') ++line;
        if (in_string) {
          if (ch == '\\') ++i;  // an escape: the next character is the string's (JSON strings hold no newline)
          else if (ch == '"') in_string = false;
          continue;
        }
        if (ch == '"') in_string = true;
        else if (ch == '[' || ch == '{') ++depth;
        else if (ch == ']' || ch == '}') {
          if (depth == 0) break;  // the root list's end
          --depth;
        } else if (depth == 0 && (ch == ',' || ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n')) {
          if (ch == '\n') --line;  // counted again by skip_blanks
          break;
        }
      }
      span.size = i - span.offset;
      if (store) spans.push_back(span);
      else ++count;
      skip_blanks();
      if (i < text.size() && text[i] == ',') ++i;
    }
  }
  return spans;
}

// Lines of `text` holding anything but blanks (space, tab, CR).
std::size_t lines_with_text(std::string_view text) {
  std::size_t count = 0;
  bool text_on_line = false;
  for (const char ch : text) {
    if (ch == '\n') {
      count += text_on_line;
      text_on_line = false;
    } else if (ch != ' ' && ch != '\t' && ch != '\r') {
      text_on_line = true;
    }
  }
  return count + text_on_line;
}

// When `text` is JSON Lines (two or more lines, each blank or one JSON object, its first object
// line before any other), each line's span into *spans (its keys into *keys, as JsonScan keeps them),
// true; false otherwise. A later line that is no JSON object is a span with its error, an entry that
// fails alone as a JSON list's bad entry does (--keep-going goes on past it: it stopped the whole
// list before any shape, a fresh user's find, 2026-12-06); so is a first line of valid JSON that is
// no object where an object follows. A line with a number past a double's range is still an object
// line (its entry's error comes later); *keys_incomplete is then set.
bool jsonl_spans(const std::string& text, std::vector<JsonSpan>* spans, SpanErrors* errors, std::set<std::string>* keys,
                 bool* keys_incomplete) {
  std::size_t objects = 0;
  std::size_t start = 0;
  long line = 0;
  std::vector<JsonSpan> out;
  SpanErrors out_errors;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view row(text.data() + start, end - start);
    if (row.find_first_not_of(" \t\r") != std::string_view::npos) {
      // Every line with text is a span: counted once, the vector is allocated once (grown by
      // doubling, a million lines took 88.5 MB where the JSON list of them takes 71.5: noticed
      // 2026-12-07).
      if (out.empty()) out.reserve(lines_with_text(std::string_view(text).substr(start)));
      JsonScan scan(keys);
      nlohmann::json::sax_parse(row, &scan);
      if (!scan.out_of_range && (!scan.error.empty() || scan.root != JsonScan::Root::object)) {
        // A first line of valid JSON that is no object ("8x8x8") with an object on a later line: JSON
        // Lines whose first entry is not an object (it was "not valid JSON: unexpected '{'" at the
        // second line: a fresh user's find, 2026-12-06).
        // The first line with text after this one ("" where none).
        const auto next_line = [&] {
          for (std::size_t at = end + 1; at < text.size();) {
            const std::size_t e = std::min(text.find('\n', at), text.size());
            const std::string_view later(text.data() + at, e - at);
            if (const std::size_t first = later.find_first_not_of(" \t\r"); first != std::string_view::npos)
              return later.substr(first);
            at = e + 1;
          }
          return std::string_view();
        };
        bool object_later = false;
        if (objects == 0 && scan.error.empty()) {
          object_later = next_line().substr(0, 1) == "{";
        } else if (objects == 0) {
          // ... or a first line that starts as an object and is broken, followed by a line that is one
          // whole object (a cut-off first line sank a JSON Lines file, reported at a later line: a
          // fresh user's find, 2026-12-07). Reached only when the whole text is not valid JSON.
          const std::size_t first = row.find_first_not_of(" \t\r");
          if (first != std::string_view::npos && row[first] == '{') {
            std::set<std::string> ignored;
            JsonScan later(&ignored);
            nlohmann::json::sax_parse(next_line(), &later);
            object_later = later.error.empty() && later.root == JsonScan::Root::object;
          }
        }
        if (objects == 0 && !object_later) return false;
        std::string why;
        if (scan.error.empty()) {
          why = "not a JSON object (one shape's mapping a line; a \"MxNxK\" string or a list of shapes goes in a "
                "JSON list or a text list)";
        } else {
          why = text::json_error_message(scan.error);
          // The parser's "line 1" is the line's own: the message is located at the file's line.
          if (const auto at = why.find("at line 1, column"); at != std::string::npos) why.replace(at, 17, "at column");
        }
        // Valid JSON that is no object is not called invalid (an adversarial user's find, 2026-12-07).
        const char* prefix =
            scan.error.empty() ? "valid JSON but " : "not valid JSON (a JSON Lines list, one object a line): ";
        out_errors.emplace(out.size(), prefix + printable(why, 300));
        out.push_back({start, row.size(), line});
      } else {
        *keys_incomplete = *keys_incomplete || scan.out_of_range || scan.keys_capped;
        ++objects;
        out.push_back({start, row.size(), line});
      }
    }
    if (end == text.size()) break;
    start = end + 1;
    ++line;
  }
  if (out.size() < 2) return false;
  *spans = std::move(out);
  *errors = std::move(out_errors);
  return true;
}

// Whether `text`'s first line with text is one whole JSON object and a later line has text too: no
// JSON document (one value), so JSON Lines or nothing.
bool whole_object_line_then_more(const std::string& text) {
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view row(text.data() + start, end - start);
    const std::size_t first = row.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) {
      start = end + 1;
      continue;
    }
    if (row[first] != '{') return false;
    std::set<std::string> ignored;
    JsonScan scan(&ignored);
    nlohmann::json::sax_parse(row, &scan);
    if (!scan.error.empty() || scan.root != JsonScan::Root::object) return false;
    return lines_with_text(std::string_view(text).substr(std::min(end + 1, text.size()))) > 0;
  }
  return false;
}

// YAML lists are loaded whole (yaml-cpp has no streaming reader). A JSON list (or JSON Lines) is
// checked as strict JSON first, without building it, and then read entry by entry: each entry's
// text is loaded alone (JSON is YAML) where it starts, so that a list of a million shapes takes its
// text and 24 bytes a shape, not a document of nodes; a JSON mapping ({"shapes": [...]}) and a list
// with a number past a double's range are loaded whole, as YAML is.
class YamlShapeReader : public ShapeReader {
 public:
  YamlShapeReader(std::istream& in, const std::string& source, const GemmProblem& defaults, bool json,
                  long first_line)
      : source_(source), defaults_(defaults), first_line_(first_line) {
    std::string text = read_whole_input(in, source, "YAML and JSON lists are read whole; use CSV or text, which stream");
    if (const std::size_t nul = text.find('\0'); nul != std::string::npos) {
      const auto line = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n');
      throw InputError(located(source, static_cast<long>(line) + 1 + first_line, "contains NUL bytes: not a text file"));
    }
    if (json) {
      // Nested too deep as one text: JSON Lines whose broken lines leave brackets open add up across
      // lines (70 cut-off lines stopped a whole file at a valid line: a fresh user's find, 2026-12-07),
      // so such text is tried as JSON Lines, each line checked alone (load_span), before the error.
      std::optional<InputError> too_deep;
      try {
        check_flow_nesting(text, source, first_line, "a shape list");
      } catch (const InputError& err) {
        too_deep = err;
      }
      std::set<std::string> keys;
      bool keys_incomplete = false;
      JsonScan scan(&keys);
      bool jsonl = false;  // read as JSON Lines already
      if (too_deep) {
        if (!jsonl_spans(text, &spans_, &span_errors_, &keys, &keys_incomplete)) throw *too_deep;
        streaming_ = jsonl = true;
      } else if (whole_object_line_then_more(text) &&
                 jsonl_spans(text, &spans_, &span_errors_, &keys, &keys_incomplete)) {
        // Plainly JSON Lines: not parsed as one text first, whose error ("unexpected '{'") quotes every
        // blank between the first object and the next (120 million blank lines took 1.26 GB: an
        // adversarial user's find, 2026-12-07).
        streaming_ = jsonl = true;
      } else {
        keys.clear();
        keys_incomplete = false;
        // Strict JSON first, for exact JSON error messages.
        nlohmann::json::sax_parse(text, &scan);
        keys_incomplete = scan.keys_capped;
      }
      if (jsonl) {
        // JSON Lines, said above.
      } else if (!scan.error.empty() && !scan.out_of_range) {
        // JSON Lines: one object a line (`batch --format jsonl`'s output too), read as the list of
        // them, each at its own line (it was "not valid JSON: unexpected '{'": a fresh CI user's
        // find, 2026-12-05). Otherwise the JSON error, where it is.
        keys.clear();
        keys_incomplete = false;
        if (!jsonl_spans(text, &spans_, &span_errors_, &keys, &keys_incomplete)) {
          const std::string what = text::json_error_message(scan.error);
          const long line = text::json_error_line(text, what);
          throw InputError(located(source, line > 0 ? line + first_line : 0, "not valid JSON: " + printable(what, 300)));
        }
        streaming_ = true;
      } else if (scan.error.empty() && scan.root == JsonScan::Root::list) {
        spans_ = json_list_spans(text);
        streaming_ = true;
      }
      // A number past a double's range (1e400) is valid JSON, which nlohmann cannot hold: such a
      // list is loaded whole by yaml-cpp below, which reads it as text, and its entry is out of
      // range there, the others ranked (it sank the whole list as "not valid JSON": a fresh batch
      // user's find, 2026-12-05).
      if (streaming_) {
        text_ = std::move(text);
        // Unknown keys are warned of at the start, as a CSV column is: entries are looked at for
        // them only where some key of the text is not a shape's.
        const bool all_known = !keys_incomplete && std::all_of(keys.begin(), keys.end(), known_key);
        if (!all_known) {
          std::set<std::string> unknown;
          for (std::size_t i = 0; i < spans_.size(); ++i) {
            if (span_errors_.count(i)) continue;  // a JSON Lines line that is no object: its entry fails
            YAML::Node entry;
            try {
              entry = load_span(i);
            } catch (const InputError&) {
              continue;  // nested too deep or not valid alone: its entry fails when it is read
            }
            note_unknown_keys(entry, first_line_ + spans_[i].line, &unknown);
            if (unknown.size() >= kMaxUnknownKeyWarnings && !keys.count("<<")) break;
          }
        }
        return;
      }
    }
    try {
      root_ = load_one_document(text, source, first_line, "a shape list");
    } catch (const YAML::Exception& err) {
      // A tab's or a control byte's error named (yaml_error_hint), as a profile's is.
      throw InputError(located(source, err.mark.line + 1 + first_line, std::string("not valid ") + (json ? "JSON" : "YAML") +
                                                          ": " + printable(err.msg, 200) +
                                                          yaml_error_hint(text, err.mark.line + 1, first_line)));
    }
    root_ = list_under(root_, "shapes", source, first_line, &warnings_);
    // One shape alone (a JSON Lines file of one line, `batch --format json`'s result of one shape, a
    // YAML mapping): a list of one ("expected a list of shapes" refused a one-line JSON Lines file:
    // a fresh user's find, 2026-12-06).
    if (root_.IsMap() && (lookup(root_, "m") || lookup(root_, "problem") || is_moe_model(root_))) {
      YAML::Node one(YAML::NodeType::Sequence);
      one.push_back(root_);
      root_.reset(one);  // not `root_ = one`: yaml-cpp assigns into the node root_ refers to
    }
    if (!root_.IsSequence())
      throw InputError(located(source, root_.Mark().line + 1 + first_line, "expected a list of shapes (each with m, n, k)"));
    // A key the reader does not know is ignored with a warning at its first line, as a CSV column is
    // (it was an error on every entry here, a warning in a CSV list: a fresh user's find, 2026-12-04).
    std::set<std::string> unknown;
    for (const auto& entry : root_) note_unknown_keys(entry, first_line_, &unknown);
    // An empty entry ('-' alone on its line): yaml-cpp marks it at the next token, a line or more
    // below ("nul.yaml:3: entry 2 of the list", for line 2: a fresh user's find, 2026-12-06). Its own
    // line is the nearest one above that mark holding only the '-' (a comment may follow).
    std::vector<std::string_view> lines;
    for (std::size_t i = 0; i < root_.size(); ++i) {
      const YAML::Node entry = root_[i];
      if (!entry.IsNull() || entry.Tag() == "tag:yaml.org,2002:null" || !entry.Scalar().empty()) continue;
      if (lines.empty())
        for (std::size_t at = 0; at <= text.size();) {
          const std::size_t end = std::min(text.find('\n', at), text.size());
          lines.emplace_back(text.data() + at, end - at);
          at = end + 1;
        }
      for (long l = std::min<long>(entry.Mark().line, static_cast<long>(lines.size()) - 1); l >= 0; --l) {
        const std::string_view line = lines[static_cast<std::size_t>(l)];
        const std::size_t dash = line.find_first_not_of(" \t");
        if (dash == std::string_view::npos || line[dash] != '-') continue;
        const std::size_t rest = line.find_first_not_of(" \t\r", dash + 1);
        if (rest == std::string_view::npos || line[rest] == '#') {
          empty_entry_lines_[i] = l;
          break;
        }
      }
    }
  }
  std::vector<std::string> warnings() const override { return warnings_; }
  bool next(ShapeEntry& e) override {
    if (streaming_) {
      if (index_ >= spans_.size()) return false;
      const std::size_t i = index_++;
      if (const auto error = span_errors_.find(i); error != span_errors_.end()) {  // a JSON Lines line that is no object
        e = ShapeEntry{};
        e.line = first_line_ + spans_[i].line + 1;
        e.error = located(source_, e.line, error->second);
        return true;
      }
      // Entries sharing a line: the entry's place in the list too (a fresh user's find, 2026-12-04).
      const bool shares = (i > 0 && spans_[i - 1].line == spans_[i].line) ||
                          (i + 1 < spans_.size() && spans_[i + 1].line == spans_[i].line);
      YAML::Node node;
      try {
        node = load_span(i);
      } catch (const InputError& err) {  // nested too deep, or not valid alone: this entry's error
        e = ShapeEntry{};
        e.line = first_line_ + spans_[i].line + 1;
        e.error = err.what();
        return true;
      }
      read_entry(node, first_line_ + spans_[i].line, shares ? static_cast<long>(i + 1) : 0, e);
      return true;
    }
    if (index_ >= root_.size()) return false;
    const YAML::Node entry = root_[index_++];
    if (const auto it = empty_entry_lines_.find(index_ - 1); it != empty_entry_lines_.end()) {
      // '-' alone on its own line: that line, not the next token's (yaml-cpp's mark).
      e = ShapeEntry{};
      e.line = it->second + 1 + first_line_;
      e.error = located(source_, e.line, "an empty entry ('-' with nothing after it): expected a mapping with m, n, k "
                                         "or a \"MxNxK\" string");
      return true;
    }
    // Entries sharing a line: the entry's place in the list too (a fresh user's find, 2026-12-04).
    read_entry(entry, first_line_, entry_shares_line(root_, index_ - 1) ? static_cast<long>(index_) : 0, e);
    return true;
  }

 private:
  // Entry `i` of a JSON list read entry by entry, loaded alone (its marks count from its first line).
  YAML::Node load_span(std::size_t i) const {
    const JsonSpan& span = spans_[i];
    const std::string entry = text_.substr(span.offset, span.size);
    check_flow_nesting(entry, source_, first_line_ + span.line, "a shape list's entry");
    try {
      return YAML::Load(entry);
    } catch (const YAML::Exception& err) {
      throw InputError(located(source_, err.mark.line + 1 + first_line_ + span.line, "not valid JSON: " + printable(err.msg, 200)));
    }
  }
  // The unknown keys of one entry (whose marks count from `line_base`, 0-based) warned of, each once
  // (`unknown`: those warned so far, kMaxUnknownKeyWarnings at most); a YAML merge key is an error.
  void note_unknown_keys(const YAML::Node& entry, long line_base, std::set<std::string>* unknown) {
    // A fused-MoE model's keys are not warned of one by one: the entry's error says what it is.
    if (!entry.IsMap() || is_moe_model(entry)) return;
    const YAML::Node item = shape_of(entry);
    if (is_moe_result(item)) return;  // the entry's error says what it is
    for (const auto& kv : item) {
      const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
      if (key == "<<") throw InputError(located(source_, kv.first.Mark().line + 1 + line_base, kMergeKeyMessage));
      if (!known_key(text::lower(key)) && unknown->size() < kMaxUnknownKeyWarnings && unknown->insert(key).second)
        warnings_.push_back(located(source_, kv.first.Mark().line + 1 + line_base,
                                    "unknown key '" + printable(key) + "' ignored (expected m, n, k, batch, dtype, layout, name)"));
    }
  }
  // The shape of one entry (marks counting from `line_base`, 0-based; `place`: its place in the list
  // where it shares its line, else 0) into e, or its error.
  void read_entry(const YAML::Node& entry, long line_base, long place, ShapeEntry& e) const {
    const YAML::Node item = entry.IsMap() ? shape_of(entry) : entry;
    e = ShapeEntry{};
    e.line = item.Mark().line + 1 + line_base;
    e.entry = place;
    try {
      e.problem = defaults_;
      if (item.IsScalar()) {
        e.problem = parse_shape(item.Scalar(), defaults_);
      } else if (!item.IsMap()) {
        throw InputError("expected a mapping with m, n, k or a \"MxNxK\" string");
      } else {
        std::set<std::string> seen;
        for (const auto& kv : item) {
          const std::string key = kv.first.IsScalar() ? text::lower(kv.first.Scalar()) : "";
          if (!known_key(key)) continue;  // warned once (the constructor)
          if (!seen.insert(key).second)
            throw InputError("duplicate key '" + printable(kv.first.Scalar()) + "'" +
                             (key != kv.first.Scalar() ? " (keys are matched whatever their case)" : ""));
        }
        // A fused-MoE model list given to a dense target ("missing 'm'" did not say what was wrong:
        // a fresh user's find, 2026-12-04).
        if (is_moe_model(item))
          throw InputError("a fused-MoE model (experts, top_k, hidden, intermediate), not a GEMM shape: give "
                           "--target vllm-fused-moe");
        // A fused-MoE layer's result (`batch --target vllm-fused-moe --format jsonl`: its problem has a
        // "moe" mapping): its m, n, k are one GEMM of a layer, which re-ranked as a dense GEMM with only
        // an unknown-key warning (a fresh user's find, 2026-12-06).
        if (is_moe_result(item))
          throw InputError("a fused-MoE layer's result (its problem has 'moe'), not a dense GEMM: rank the layer "
                           "from its model list with --target vllm-fused-moe");
        e.problem.m = integer(item, "m", true, kMaxDim);
        e.problem.n = integer(item, "n", true, kMaxDim);
        e.problem.k = integer(item, "k", true, kMaxDim);
        e.problem.batch = integer(item, "batch", false, kMaxBatch);
        e.dtype_text = scalar(item, "dtype");
        apply_dtype_layout(e.problem, e.dtype_text, scalar(item, "layout"));
        e.name = scalar(lookup(entry, "name") ? entry : item, "name");
        require_utf8(e.name, "'name'");  // it goes into JSON output as it is
      }
    } catch (const InputError& err) {
      e.error = located(source_, e.line, entry_place(e.entry) + err.what());
    }
  }

  // The value of `key` in a mapping, its key matched whatever its case ("M" is m), as a CSV header's
  // names are (JSON keys were matched exactly: "unknown key 'M'", then "missing 'm'": a fresh user's
  // find, 2026-12-04); an undefined node when absent.
  static YAML::Node lookup(const YAML::Node& item, const char* key) {
    if (const YAML::Node exact = item[key]) return exact;
    for (const auto& kv : item)
      if (kv.first.IsScalar() && text::lower(kv.first.Scalar()) == key) return kv.second;
    return item[key];
  }
  // The mapping holding an entry's shape: the entry, or, for a result of `batch --format json(l)` (no m,
  // a "problem" mapping beside "configs", "hardware", ...), its "problem", so that yesterday's results
  // re-rank as a list (their name is the entry's).
  static YAML::Node shape_of(const YAML::Node& entry) {
    if (lookup(entry, "m")) return entry;
    const YAML::Node problem = lookup(entry, "problem");
    return problem && problem.IsMap() ? problem : entry;
  }
  // A mapping that is a fused-MoE model (experts, no m): a list of them given to a dense target.
  static bool is_moe_model(const YAML::Node& item) { return !lookup(item, "m") && lookup(item, "experts"); }
  // A fused-MoE layer's result (`batch --target vllm-fused-moe --format jsonl`): its problem has a "moe" mapping.
  static bool is_moe_result(const YAML::Node& item) {
    const YAML::Node moe = lookup(item, "moe");
    return moe && moe.IsMap();
  }
  static std::string scalar(const YAML::Node& item, const char* key) {
    const YAML::Node v = lookup(item, key);
    // null (json.dump of a Python None) is the default, as an empty CSV cell is (it was "must be a
    // string": a fresh user's find, 2026-12-04).
    if (!v || v.IsNull()) return "";
    if (!v.IsScalar()) throw InputError(std::string("'") + key + "' must be a string");
    if (v.Scalar().find_first_of("\r\n") != std::string::npos)
      throw InputError(std::string("'") + key + "' must be one line, got '" + printable(v.Scalar()) + "'");
    return v.Scalar();
  }
  static std::int64_t integer(const YAML::Node& item, const char* key, bool required, std::int64_t max) {
    const YAML::Node v = lookup(item, key);
    if (!v || v.IsNull()) {  // null: the default (batch 1), as an empty CSV cell; a required key's missing
      if (required) throw InputError(std::string("missing '") + key + "'" + (v ? " (it is null)" : ""));
      return 1;
    }
    if (!v.IsScalar())
      // Named in both formats' words: a JSON list read "got a YAML list" (a fresh user's find, 2026-12-05).
      throw InputError(std::string("'") + key + "' must be a positive whole number, got " +
                       (v.IsSequence() ? "a list" : v.IsMap() ? "a mapping (an object)" : "null"));
    const std::string& s = v.Scalar();
    // A whole number written as a decimal (4096.0: pandas' and json.dumps' floats) or in an exponent
    // form (1e3) is that number (text::whole_number: each was refused while the string "4096" was
    // taken: fresh users' finds, 2026-12-04).
    const std::optional<std::int64_t> out = text::whole_number(s);
    const bool too_large = !out && text::whole_number_too_large(s);  // past int64, 1e308, 1e400
    if ((!out && !too_large) || s[0] == '-')
      throw InputError(std::string("'") + key + "' must be a positive whole number, got '" + printable(s) + "'");
    if (!out || *out < 1 || *out > max)
      throw InputError(std::string("'") + key + "' = " + printable(s) + " is outside 1.." + std::to_string(max));
    return *out;
  }

  static bool known_key(const std::string& key) {
    const std::vector<std::string>& keys = shape_list_keys();
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  }
  static constexpr std::size_t kMaxUnknownKeyWarnings = 5;  // distinct unknown keys warned about

  std::string source_;
  GemmProblem defaults_;
  long first_line_ = 0;
  YAML::Node root_;                // the list, loaded whole (YAML; a JSON mapping)
  bool streaming_ = false;         // a JSON list read entry by entry: text_ and spans_ instead
  std::map<std::size_t, long> empty_entry_lines_;  // a YAML list's '-'-alone entries: index -> 0-based line
  std::string text_;
  std::vector<JsonSpan> spans_;
  SpanErrors span_errors_;  // JSON Lines: the lines that are no JSON object
  std::size_t index_ = 0;
  std::vector<std::string> warnings_;
};

}  // namespace

std::unique_ptr<ShapeReader> open_shape_reader(std::istream& in, const std::string& source, ShapeFormat format,
                                               const GemmProblem& defaults) {
  if (format == ShapeFormat::automatic) {
    const std::string name = name_under_gzip(source);  // shapes.csv.gz: CSV
    if (ends_with(name, ".csv")) format = ShapeFormat::csv;
    else if (ends_with(name, ".yaml") || ends_with(name, ".yml")) format = ShapeFormat::yaml;
    else if (ends_with(name, ".json") || ends_with(name, ".jsonl") || ends_with(name, ".ndjson"))
      format = ShapeFormat::json;
    else if (ends_with(name, ".txt")) format = ShapeFormat::text;
  }
  long skipped_lines = 0;
  // A JSON list by name skips its leading blank and '#' comment lines as a sniffed one does (the same
  // file ranked without its .json ending and was "not valid JSON" with it: a fresh user's find,
  // 2026-12-05); JSON itself has no comments, so none are read past the first value.
  const bool json_by_name = format == ShapeFormat::json;
  if (format == ShapeFormat::automatic || json_by_name) {
    // Sniff the first significant character without consuming it.
    int ch;
    bool comments = false;
    while ((ch = in.peek()) != EOF) {
      if (ch == '#') {
        in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
        ++skipped_lines;
        comments = true;
        continue;
      }
      if (!std::isspace(ch) && ch != 0xEF && ch != 0xBB && ch != 0xBF) break;
      if (in.get() == '\n') ++skipped_lines;
    }
    // Nothing to tell the format by: say so, not what one of the formats would have expected.
    if (in.bad()) throw InputError(source + ": read error");
    if (ch == EOF)
      throw InputError(source + (comments ? ": no shapes (only comments and blank lines)" : ": empty input: no shapes"));
    if (!json_by_name) {
      if (ch == '[' || ch == '{') format = ShapeFormat::json;
      else if (ch == '-' || ch == '%') format = ShapeFormat::yaml;  // '%': a directive (%YAML 1.2)
      else if (std::isdigit(ch)) format = ShapeFormat::text;
      else format = ShapeFormat::csv;
    }
    // The first line read to tell the format, then given back to the reader it picks: YAML, or
    // `other` (the CSV or text reader).
    const auto first_line_decides = [&](auto&& yaml_if, ShapeFormat other) -> std::unique_ptr<ShapeReader> {
      std::string first;
      std::getline(in, first);
      const bool yaml = yaml_if(first);
      if (!in.eof()) first += '\n';
      auto buf = std::make_unique<PrefixStreambuf>(std::move(first), in.rdbuf());
      auto stream = std::make_unique<std::istream>(buf.get());
      auto prefixed = std::make_unique<PrefixedReader>(std::move(buf), std::move(stream));
      if (yaml)
        prefixed->set_inner(std::make_unique<YamlShapeReader>(prefixed->stream(), source, defaults, false, skipped_lines));
      else if (other == ShapeFormat::csv)
        prefixed->set_inner(std::make_unique<CsvShapeReader>(prefixed->stream(), source, defaults, skipped_lines));
      else
        prefixed->set_inner(std::make_unique<TextShapeReader>(prefixed->stream(), source, defaults, skipped_lines));
      return std::make_unique<NonEmptyReader>(std::move(prefixed), source);
    };
    // A first line "shapes:" opens the YAML mapping form (it was read as a CSV header lacking m:
    // a fresh user's find, 2026-12-04, on stdin and in a file without an extension).
    if (format == ShapeFormat::csv && ch == 's')
      return first_line_decides([](const std::string& first) { return opens_shapes_mapping(first); }, ShapeFormat::csv);
    // A '-' opens a YAML list item only before a space, a tab or the line's end ("- 64x64x64",
    // "---"); "-1x2x3" is a text line with a negative M, said as such (it was "expected a list of
    // shapes": a fresh user's find, 2026-12-05).
    if (format == ShapeFormat::yaml)
      return first_line_decides(
          [](const std::string& first) {
            // A YAML directive opens a YAML document (it was sniffed as a CSV header: a fresh user's
            // find, 2026-12-06).
            if (first.compare(0, 5, "%YAML") == 0 || first.compare(0, 4, "%TAG") == 0) return true;
            return first.size() < 2 || first[1] == ' ' || first[1] == '\t' || first[1] == '\r' ||
                   first.compare(0, 3, "---") == 0;
          },
          ShapeFormat::text);
  }
  std::unique_ptr<ShapeReader> reader;
  switch (format) {
    case ShapeFormat::csv: reader = std::make_unique<CsvShapeReader>(in, source, defaults, skipped_lines); break;
    case ShapeFormat::yaml:
      reader = std::make_unique<YamlShapeReader>(in, source, defaults, false, skipped_lines);
      break;
    case ShapeFormat::json:
      if (skipped_lines > 0) {
        // The skipped lines given back as blank ones, so that the JSON parser's own line numbers in
        // its messages are the file's, as the reader's file:line is (they counted from after the
        // comments: "d2.json:6: ... parse error at line 3": a fresh user's find, 2026-12-05).
        auto buf = std::make_unique<PrefixStreambuf>(std::string(static_cast<std::size_t>(skipped_lines), '\n'), in.rdbuf());
        auto stream = std::make_unique<std::istream>(buf.get());
        auto prefixed = std::make_unique<PrefixedReader>(std::move(buf), std::move(stream));
        prefixed->set_inner(std::make_unique<YamlShapeReader>(prefixed->stream(), source, defaults, true, 0));
        reader = std::move(prefixed);
      } else {
        reader = std::make_unique<YamlShapeReader>(in, source, defaults, true, 0);
      }
      break;
    default: reader = std::make_unique<TextShapeReader>(in, source, defaults, skipped_lines); break;
  }
  return std::make_unique<NonEmptyReader>(std::move(reader), source);
}

}  // namespace gemm_advisor
