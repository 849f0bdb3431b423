#include "gemm_advisor/csv_reader.hpp"

#include <csv.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <sstream>

#include "gemm_advisor/error.hpp"
#include "text.hpp"

namespace gemm_advisor {

std::string read_whole_input(std::istream& in, const std::string& source, const std::string& why,
                             std::size_t max_bytes) {
  const auto too_large = [&] {
    return InputError(source + ": larger than " + std::to_string(max_bytes >> 20) + " MiB: " + why);
  };
  std::string text;
  // A seekable stream (a regular file, stdin redirected from one) tells its size before it is read:
  // refused then, else read into one allocation (a 308 MB JSON list was read, 532 MB held, then
  // refused: a fresh user's find, 2026-12-07).
  if (std::streambuf* sb = in.rdbuf()) {
    const std::streampos here = sb->pubseekoff(0, std::ios::cur, std::ios::in);
    if (here != std::streampos(-1)) {
      const std::streampos end = sb->pubseekoff(0, std::ios::end, std::ios::in);
      sb->pubseekpos(here, std::ios::in);
      if (end != std::streampos(-1) && end >= here) {
        const auto left = static_cast<std::uint64_t>(end - here);
        if (left > max_bytes) throw too_large();
        text.reserve(static_cast<std::size_t>(left));
      }
    }
  }
  // Otherwise (a pipe, a gzip stream) counted as it comes, the buffer never grown past max_bytes (a
  // doubling capacity held twice the limit before the refusal).
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    const auto n = static_cast<std::size_t>(in.gcount());
    if (n > max_bytes - text.size()) throw too_large();
    if (text.size() + n > text.capacity()) text.reserve(std::min(max_bytes, std::max(2 * text.capacity(), text.size() + n)));
    text.append(buffer, n);
  }
  if (in.bad()) throw InputError(source + ": read error");
  return text;
}

LineRead read_line(std::istream& in, std::string& line, std::size_t max_bytes) {
  line.clear();
  std::streambuf* sb = in.rdbuf();
  if (!in.good() || sb == nullptr) {
    in.setstate(std::ios::failbit);
    return LineRead::end;
  }
  for (;;) {
    const int ch = sb->sbumpc();
    if (ch == std::char_traits<char>::eof()) {
      in.setstate(line.empty() ? std::ios::eofbit | std::ios::failbit : std::ios::eofbit);
      return line.empty() ? LineRead::end : LineRead::ok;
    }
    if (ch == '\n') return LineRead::ok;
    if (line.size() >= max_bytes) return LineRead::too_long;
    line.push_back(static_cast<char>(ch));
  }
}

using text::trim;

struct CsvReader::Impl {
  csv_parser parser{};
  std::vector<std::string> fields;
  std::vector<bool> quoted;  // per field of the row being read: whether it was quoted
  std::deque<std::vector<std::string>> done;
  std::deque<std::vector<bool>> done_quoted;
  long row_start = 0;           // the line on which the row being read began
  std::deque<long> done_start;  // per finished row: the line it began on
  bool first_line = true;
  long quote_line = 0;  // the line where the quoted field still open began (0: none open)

  // Which fields were quoted, told by scanning each line as libcsv does (its callbacks do not say:
  // csv_parse keeps the flag in a local): per row, one flag a field, in done_quoted.
  bool scan_in_quotes = false, scan_field_started = false, scan_field_quoted = false;
  void scan(const std::string& line) {  // the line with its '\n'
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (scan_in_quotes) {
        if (c == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') ++i;  // a doubled quote inside
          else scan_in_quotes = false;
        }
        continue;
      }
      if (!scan_field_started && (c == ' ' || c == '\t')) continue;
      if (!scan_field_started && c == '"') {
        scan_field_started = scan_field_quoted = scan_in_quotes = true;
        continue;
      }
      scan_field_started = true;
      if (c == ',' || c == '\n') {
        quoted.push_back(scan_field_quoted);
        scan_field_started = scan_field_quoted = false;
        if (c == '\n') {
          done_quoted.push_back(std::move(quoted));
          quoted.clear();
        }
      }
    }
  }

  static void on_field(void* data, std::size_t len, void* self) {
    static_cast<Impl*>(self)->fields.emplace_back(static_cast<const char*>(data), len);
  }
  static void on_row(int, void* self) {
    auto* impl = static_cast<Impl*>(self);
    impl->done.push_back(std::move(impl->fields));
    impl->done_start.push_back(impl->row_start);
    impl->fields.clear();
  }
};

namespace {

// A gzip file read as a stream of its decompressed bytes (zlib's inflate, one member after another,
// 64 KiB at a time: memory does not grow with the file). What follows a member must be another member
// or zero padding (as gzip -t accepts): other bytes are an error, not dropped (gzread ignores them:
// rows appended uncompressed to a .gz vanished, a fresh user's find, 2026-12-05). Errors throw
// InputError from underflow(); GzipStream sets badbit in its exception mask so that the istream
// functions pass them on instead of ending the input early.
class GzipBuf : public std::streambuf {
 public:
  /// Inflates what `compressed` (not owned) gives; `name` names the input in messages.
  GzipBuf(std::streambuf* compressed, std::string name) : name_(std::move(name)), src_(compressed) {
    if (inflateInit2(&z_, 15 + 16) != Z_OK) throw InputError(name_ + ": cannot start zlib");  // 16: gzip only
  }
  ~GzipBuf() override { inflateEnd(&z_); }
  GzipBuf(const GzipBuf&) = delete;
  GzipBuf& operator=(const GzipBuf&) = delete;

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    for (;;) {
      if (z_.avail_in == 0 && !refill()) {
        if (in_member_) throw InputError(name_ + ": corrupt gzip data (unexpected end of file)");
        return traits_type::eof();
      }
      if (!in_member_) {  // between members: another one, or zero padding to the end
        if (z_.next_in[0] == 0) {
          skip_zeros();
          continue;
        }
        if (z_.next_in[0] != 0x1f)
          throw InputError(name_ + (consumed() == 0 ? ": not gzip data (the name ends in .gz)"
                                                    : ": bytes after the gzip data at byte " +
                                                          std::to_string(consumed()) +
                                                          " that are not another gzip member (appended uncompressed?)"));
        if (consumed() > 0) inflateReset(&z_);
        in_member_ = true;
      }
      z_.next_out = reinterpret_cast<Bytef*>(out_);
      z_.avail_out = sizeof out_;
      const int rc = inflate(&z_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) in_member_ = false;
      else if (rc != Z_OK && rc != Z_BUF_ERROR)
        throw InputError(name_ + ": corrupt gzip data (" + (z_.msg ? z_.msg : "zlib error " + std::to_string(rc)) + ")");
      const std::size_t produced = sizeof out_ - z_.avail_out;
      if (produced > 0) {
        setg(out_, out_, out_ + produced);
        return traits_type::to_int_type(*gptr());
      }
    }
  }

 private:
  bool refill() {
    // The source's own errors (a file's read error, batch's InputBuffer's InputError) pass through.
    const std::streamsize got = src_->sgetn(in_, sizeof in_);
    if (got <= 0) return false;
    read_ += static_cast<std::uint64_t>(got);
    z_.next_in = reinterpret_cast<Bytef*>(in_);
    z_.avail_in = static_cast<uInt>(got);
    return true;
  }
  void skip_zeros() {
    while (z_.avail_in > 0 && z_.next_in[0] == 0) {
      ++z_.next_in;
      --z_.avail_in;
    }
  }
  std::uint64_t consumed() const { return read_ - z_.avail_in; }  // compressed bytes used so far

  std::string name_;
  std::streambuf* src_;
  z_stream z_{};
  bool in_member_ = false;
  std::uint64_t read_ = 0;
  char in_[1 << 16];
  char out_[1 << 16];
};

// The decompressed stream of a gzip file it opens (`file` set) or of another stream's buffer.
class GzipStream : public std::istream {
 public:
  GzipStream(std::unique_ptr<std::ifstream> file, std::streambuf* compressed, const std::string& name)
      : std::istream(nullptr), file_(std::move(file)), buf_(file_ ? file_->rdbuf() : compressed, name) {
    rdbuf(&buf_);
    exceptions(std::ios::badbit);  // a GzipBuf error reaches the reader as its InputError
  }

 private:
  std::unique_ptr<std::ifstream> file_;  // before buf_, which reads it
  GzipBuf buf_;
};

}  // namespace

bool is_gzip_path(const std::string& path) {
  if (path.size() <= 3) return false;  // ".gz" alone is a hidden file's name, not an extension
  const std::string ext = path.substr(path.size() - 3);
  return ext[0] == '.' && std::tolower(static_cast<unsigned char>(ext[1])) == 'g' &&
         std::tolower(static_cast<unsigned char>(ext[2])) == 'z';
}

std::unique_ptr<std::istream> open_csv_file(const std::string& path) {
  auto in = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*in) throw InputError(path + ": cannot open");
  if (is_gzip_path(path)) return std::make_unique<GzipStream>(std::move(in), nullptr, path);
  return in;
}

std::unique_ptr<std::istream> gzip_stream(std::streambuf* compressed, const std::string& source) {
  return std::make_unique<GzipStream>(nullptr, compressed, source);
}

std::string gunzip_whole(std::string text, const std::string& source, const std::string& why, bool named_gzip) {
  if (!named_gzip && text.compare(0, 2, "\x1f\x8b") != 0) return text;
  std::istringstream compressed(std::move(text));
  return read_whole_input(*gzip_stream(compressed.rdbuf(), source), source, why);
}

std::string name_under_gzip(const std::string& path) {
  return is_gzip_path(path) ? path.substr(0, path.size() - 3) : path;
}

CsvReader::CsvReader(std::istream& in, std::string source, long first_line)
    : impl_(std::make_unique<Impl>()), in_(in), source_(std::move(source)), line_(first_line) {
  if (csv_init(&impl_->parser, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
    throw InputError(source_ + ": cannot start the CSV parser");
}

CsvReader::~CsvReader() { csv_free(&impl_->parser); }

void CsvReader::fail(const std::string& message) const { throw InputError(located(source_, record_line_, message)); }

void CsvReader::fail_reading(const std::string& message) const {
  throw InputError(located(source_, line_, message));
}

bool CsvReader::next(std::vector<std::string>& fields) {
  std::string text;
  while (impl_->done.empty()) {
    const LineRead got = read_line(in_, text, kMaxLineBytes);
    if (got == LineRead::too_long) {
      ++line_;
      fail_reading("line longer than 1 MiB: not a CSV file of shapes or configs");
    }
    if (got == LineRead::end) {
      if (in_.bad()) fail_reading("read error");
      if (csv_fini(&impl_->parser, Impl::on_field, Impl::on_row, impl_.get()) != 0) {
        // A quote left open runs to the end of the file: say where it opened, not where the file ends.
        if (impl_->quote_line > 0) {
          line_ = impl_->quote_line;
          fail_reading("malformed CSV: a quoted field opened on this line is never closed (a stray '\"'?)");
        }
        fail_reading(std::string("malformed CSV: ") + csv_strerror(csv_error(&impl_->parser)));
      }
      if (impl_->done.empty()) return false;
      break;
    }
    ++line_;
    bool first = false;
    if (impl_->first_line) {
      impl_->first_line = false;
      first = true;
      if (text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
    }
    if (first && text.size() >= 2 && text.compare(0, 2, "\x1f\x8b") == 0) {  // gzip's magic bytes
      // A .gz read decompressed and gzip again: compressed twice (the hint below did not fit: a fresh
      // user's find, 2026-12-06).
      const bool gz_name = source_.size() > 3 && source_.compare(source_.size() - 3, 3, ".gz") == 0;
      fail_reading(gz_name ? "gzip-compressed data inside the gzip file: compressed twice (decompress it once, "
                             "gunzip, and give the .gz of the CSV itself)"
                           : "gzip-compressed data, not a text CSV file (a file whose name ends in .gz is read "
                             "decompressed)");
    }
    if (text.find('\0') != std::string::npos) fail_reading("contains NUL bytes: not a text CSV file");
    if (!text.empty() && text.back() == '\r') text.pop_back();
    // A bare carriage return inside an unquoted line ends a row for the CSV parser, which would then
    // count the line's fields wrongly (an old Mac line end, or a CRLF file edited with an LF tool).
    if (text.find('\r') != std::string::npos && text.find('"') == std::string::npos)
      fail_reading("a carriage return inside the line (old Mac CR line ends, or a CRLF line joined to another?): "
                   "end lines with LF or CRLF");
    const bool inside_quotes = !impl_->fields.empty() || impl_->parser.pstate != 0;
    if (!inside_quotes) {
      std::size_t i = 0;
      while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      if (i == text.size() || text[i] == '#') continue;
      impl_->row_start = line_;
    }
    text.push_back('\n');
    impl_->scan(text);
    if (csv_parse(&impl_->parser, text.data(), text.size(), Impl::on_field, Impl::on_row, impl_.get()) !=
        text.size()) {
      // libcsv's strict mode refuses a quote inside an unquoted field, or text after a closing quote:
      // said in those words (its own, "error parsing data while strict checking enabled", told a user
      // nothing: a fresh user's find, 2026-12-04).
      if (csv_error(&impl_->parser) == CSV_EPARSE)
        fail_reading("malformed CSV: a '\"' inside a field that does not start with one, or text after a closing '\"' "
             "(quote the whole field and double the quotes in it: \"qwen3 \"\"30b\"\"\")");
      fail_reading(std::string("malformed CSV: ") + csv_strerror(csv_error(&impl_->parser)));
    }
    // Still inside a quoted field after the line's newline: a field spanning lines, or a stray quote.
    const bool open_now = impl_->parser.quoted != 0 && impl_->parser.pstate != 0;
    if (!open_now) impl_->quote_line = 0;
    else if (impl_->quote_line == 0) impl_->quote_line = line_;
  }
  fields = std::move(impl_->done.front());
  impl_->done.pop_front();
  record_line_ = impl_->done_start.front();
  impl_->done_start.pop_front();
  std::vector<bool> quoted;  // none when the scan and libcsv disagree on the rows (never for a valid file)
  if (!impl_->done_quoted.empty()) {
    quoted = std::move(impl_->done_quoted.front());
    impl_->done_quoted.pop_front();
  }
  // Whitespace inside quotes is data (RFC 4180: '" lead"' is a name with a space: it was trimmed, a
  // fresh user's find, 2026-12-04); around an unquoted field it is not.
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (i >= quoted.size() || !quoted[i]) fields[i] = trim(fields[i]);
  return true;
}

namespace {
std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string s;
  for (const auto& item : items) s += (s.empty() ? "" : separator) + item;
  return s;
}

// A field that reads as a number ("64", "-1.5", "2e-3"): no column is named so.
bool numeric_field(const std::string& s) {
  bool digit = false;
  for (char ch : s) {
    if (ch >= '0' && ch <= '9') digit = true;
    else if (ch != '+' && ch != '-' && ch != '.' && ch != 'e' && ch != 'E') return false;
  }
  return digit;
}
}  // namespace

CsvHeader CsvHeader::read(CsvReader& reader, const std::vector<std::string>& required,
                          const std::vector<std::pair<std::string, std::string>>& aliases,
                          const std::pair<std::string, std::string>& other_form) {
  CsvHeader h;
  std::vector<std::string> fields;
  // Lines read and none a row: comments and blank lines only ("empty file" said otherwise: a fresh
  // user's find, 2026-12-06).
  if (!reader.next(fields))
    reader.fail(reader.lines_read() > 0 ? "no header row: only comments and blank lines (expected a header row)"
                                  : "empty file: expected a header row");
  h.field_count_ = fields.size();
  h.source_ = reader.source();
  h.line_ = reader.line();
  // A first row of numbers only is data: the header is missing (its values would otherwise be taken
  // for column names, and the first repeated one called a duplicated column).
  if (std::any_of(fields.begin(), fields.end(), [](const std::string& f) { return !f.empty(); }) &&
      std::all_of(fields.begin(), fields.end(), [](const std::string& f) { return f.empty() || numeric_field(f); }))
    reader.fail("the header row is missing: the first row is data ('" + printable(joined(fields, ",")) +
                "'); expected column names first (required: " + joined(required, ",") + ")");
  // One column holding another separator: a semicolon- or tab-separated file (its header was offered
  // as a column to rename: a fresh user's find, 2026-12-05).
  if (fields.size() == 1 && fields[0].find_first_of(";\t|") != std::string::npos)
    reader.fail("no ',' in the header ('" + printable(fields[0]) +
                "'): columns are separated by commas (is the file semicolon- or tab-separated?)");
  for (std::size_t i = 0; i < fields.size(); ++i) {
    std::string name = fields[i];
    for (auto& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    h.names_.push_back(name);
    if (name.empty()) {
      // Between named columns only: trailing empty names are a spreadsheet's padding ("...,split_k,,").
      if (std::any_of(fields.begin() + static_cast<std::ptrdiff_t>(i) + 1, fields.end(),
                      [](const std::string& f) { return !f.empty(); }))
        h.unnamed_.push_back(static_cast<int>(i + 1));
      continue;
    }
    for (const auto& [alias, column] : aliases) {
      if (name == alias) name = column;
    }
    if (h.columns_.count(name))
      reader.fail("duplicated column '" + printable(name) + "' in the header" +
                  (name == fields[i] ? std::string() : " (given as '" + printable(fields[i]) + "')"));
    h.columns_[name] = static_cast<int>(i);
  }
  for (const auto& r : required) {
    if (!h.columns_.count(r)) {
      const bool other = !other_form.first.empty() && h.columns_.count(other_form.first);
      // A column that looks meant for it, named first: a long header's list was cut before it
      // (time_ms, us: a fresh user's find, 2026-12-04).
      std::string near;
      for (const auto& [name, index] : h.columns_) {
        (void)index;
        const bool unit_of_time = r == "ms" && (name == "us" || name == "s" || name == "ns" || name == "time_us" ||
                                                name == "time_s" || name == "seconds");
        // Not another required column (block_m holds an 'm'), nor a one-letter name inside a word
        // ('kernel' holds an 'n' and a 'k'): both were offered as the missing column.
        const bool required_column = std::find(required.begin(), required.end(), name) != required.end();
        const bool holds_it = r.size() > 1 && name != r && name.find(r) != std::string::npos;
        if (near.empty() && (unit_of_time || (holds_it && !required_column)))
          near = "; column '" + printable(name) + "' is there" +
                 (unit_of_time ? ": the times go in 'ms', in milliseconds" : ": rename it '" + r + "'?");
      }
      reader.fail("header lacks column '" + r + "' (required: " + joined(required, ",") + near +
                  "; got: " + printable(joined(fields, ",")) + ")" + (other ? ": " + other_form.second : ""));
    }
  }
  return h;
}

int CsvHeader::index(const std::string& name) const {
  auto it = columns_.find(name);
  return it == columns_.end() ? -1 : it->second;
}

std::vector<std::string> CsvHeader::unknown_column_warnings(const std::vector<std::string>& known,
                                                            const std::vector<std::string>& quiet) const {
  // At most kShown lines, then one that counts the rest (a header of 20,000 unknown columns gave
  // 20,000 warning lines: a fresh user's find, 2026-12-07).
  constexpr std::size_t kShown = 5;
  std::vector<std::string> out;
  std::size_t more = 0;
  std::string more_names;
  const auto add = [&](std::string message, const std::string& name) {
    if (out.size() < kShown) {
      out.push_back(located(source_, line_, message));
      return;
    }
    if (more++ < 3) more_names += (more_names.empty() ? "" : ", ") + name;
  };
  for (const auto& kv : columns_) {
    if (std::find(known.begin(), known.end(), kv.first) == known.end() &&
        std::find(quiet.begin(), quiet.end(), kv.first) == quiet.end())
      add("unknown column '" + printable(kv.first) + "' ignored (known: " + joined(known, ", ") + ")",
          "'" + printable(kv.first, 40) + "'");
  }
  for (const int column : unnamed_)
    add("column " + std::to_string(column) + " of the header has no name: its values are ignored (known: " +
            joined(known, ", ") + ")",
        "column " + std::to_string(column));
  if (more > 0)
    out.push_back(located(source_, line_,
                          std::to_string(more) + " more unknown or unnamed column" + (more == 1 ? "" : "s") +
                              " ignored (" + more_names + (more > 3 ? ", ..." : "") + ")"));
  return out;
}

std::string csv_text(const std::vector<std::string>& fields, int index, const std::string& fallback) {
  if (index < 0 || static_cast<std::size_t>(index) >= fields.size() || fields[index].empty()) return fallback;
  return fields[index];
}

namespace {
const std::string& field_or_fail(const CsvReader& r, const std::vector<std::string>& fields, int index,
                                 const char* name) {
  if (index < 0 || static_cast<std::size_t>(index) >= fields.size())
    r.fail(std::string("missing value for column '") + name + "' (row has " + std::to_string(fields.size()) +
           " fields)");
  if (fields[index].empty()) r.fail(std::string("column '") + name + "' is empty");
  return fields[index];
}
}  // namespace

std::int64_t csv_int(const CsvReader& r, const std::vector<std::string>& fields, int index, const char* name,
                     std::int64_t min_value, std::int64_t max_value) {
  const std::string& s = field_or_fail(r, fields, index, name);
  // A whole number written as a decimal (16.0, 1.0: pandas writes an int column holding a NaN so) or
  // in an exponent form (1e3) is that number, as in the YAML and JSON lists (text::whole_number; it
  // was "'1.0' is not a whole number" here only: a fresh user's find, 2026-12-04). Digits alone go
  // through the loop below, whose messages say more.
  std::int64_t v = 0;
  const bool decimal_form = s.find_first_of(".eE") != std::string::npos;
  const std::optional<std::int64_t> whole = decimal_form && s[0] != '+' ? text::whole_number(s) : std::nullopt;
  if (whole) {
    v = *whole;
  } else {
    // A whole number too large to hold (1e308) is out of range, as 3e9 is, not "not a whole number"
    // (a fresh user's find, 2026-12-04).
    if (decimal_form && text::whole_number_too_large(s))
      r.fail(std::string("column '") + name + "': " + printable(s) + " is outside " + std::to_string(min_value) + ".." +
             std::to_string(max_value));
    std::size_t i = 0;
    bool negative = false;
    if (s[0] == '-' || s[0] == '+') {
      negative = s[0] == '-';
      i = 1;
    }
    if (i == s.size()) r.fail(std::string("column '") + name + "': '" + printable(s) + "' is not a whole number");
    for (; i < s.size(); ++i) {
      if (s[i] < '0' || s[i] > '9')
        r.fail(std::string("column '") + name + "': '" + printable(s) + "' is not a whole number" +
               (s.find('#') != std::string::npos ? " (a CSV comment takes a whole line, starting with #)" : ""));
      if (v > (INT64_MAX - 9) / 10)
        r.fail(std::string("column '") + name + "': " + printable(s) + " is outside " + std::to_string(min_value) +
               ".." + std::to_string(max_value));
      v = v * 10 + (s[i] - '0');
    }
    if (negative) v = -v;
  }
  if (v < min_value || v > max_value)
    r.fail(std::string("column '") + name + "': " + s + " is outside " + std::to_string(min_value) + ".." +
           std::to_string(max_value));
  return v;
}

double csv_double(const CsvReader& r, const std::vector<std::string>& fields, int index, const char* name) {
  const std::string& s = field_or_fail(r, fields, index, name);
  // Decimal notation only: strtod alone also takes hexadecimal ("0x10" is 16), "inf" and leading blanks.
  const bool decimal = s.find_first_not_of("0123456789+-.eE") == std::string::npos;
  char* end = nullptr;
  const double v = decimal ? std::strtod(s.c_str(), &end) : 0.0;
  if (!decimal || end != s.c_str() + s.size() || !std::isfinite(v))
    r.fail(std::string("column '") + name + "': '" + printable(s) + "' is not a finite decimal number");
  return v;
}

bool CsvHeader::repeats_header(const std::vector<std::string>& fields) const {
  if (fields.size() != names_.size()) return false;
  bool named = false;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (names_[i].empty()) continue;
    if (fields[i].size() != names_[i].size()) return false;
    for (std::size_t j = 0; j < fields[i].size(); ++j)
      if (std::tolower(static_cast<unsigned char>(fields[i][j])) != names_[i][j]) return false;
    named = true;
  }
  return named;
}

std::size_t CsvHeader::value_under_padding(const std::vector<std::string>& fields) const {
  std::size_t named = names_.size();
  while (named > 0 && names_[named - 1].empty()) --named;
  for (std::size_t i = named; i < fields.size() && i < names_.size(); ++i)
    if (!fields[i].empty()) return i + 1;
  return 0;
}

void require_header_fields(const CsvReader& r, const CsvHeader& h, const std::vector<std::string>& fields) {
  if (fields.size() != h.size())
    r.fail("expected " + std::to_string(h.size()) + " fields as in the header, got " + std::to_string(fields.size()));
  // A value past the header's last name (its trailing commas): read as no column, it was dropped
  // unsaid, where one field too many is refused above (a fresh user's find, 2026-12-06).
  if (const std::size_t column = h.value_under_padding(fields); column > 0)
    r.fail("field " + std::to_string(column) + " ('" + printable(fields[column - 1]) +
           "') is under no column name (the header ends in empty names there): name its column or leave it empty");
  // Two files joined with cat: the second's header said "column 'm': 'm' is not a whole number" (a
  // fresh user's find, 2026-12-06).
  if (h.repeats_header(fields))
    r.fail("this row repeats the header (files joined with cat? give each file on its own)");
}

}  // namespace gemm_advisor
