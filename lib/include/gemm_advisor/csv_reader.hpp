#pragma once
/// Streaming CSV records (RFC 4180, through Debian's libcsv) with line numbers for messages.
#include <cstdint>
#include <istream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace gemm_advisor {

/// Reads records one at a time from a stream. Skips blank lines and lines whose first
/// non-space character is '#'. Strips a UTF-8 byte-order mark and CR of CRLF endings.
/// Errors (malformed quoting, NUL bytes, over-long lines) throw InputError "source:line: ...".
class CsvReader {
 public:
  /// `first_line`: lines already consumed from `in` before it (for line numbers).
  CsvReader(std::istream& in, std::string source, long first_line = 0);
  ~CsvReader();
  CsvReader(const CsvReader&) = delete;
  CsvReader& operator=(const CsvReader&) = delete;

  /// Fills `fields` with the next record; false at the end of input.
  bool next(std::vector<std::string>& fields);
  /// The line on which the last record returned begins (1-based): a quoted field spanning lines
  /// is reported where its record starts, where an editor shows the record.
  long line() const { return record_line_; }
  /// The lines read so far, comments and blank lines too (0 for an empty input).
  long lines_read() const { return line_; }
  const std::string& source() const { return source_; }
  /// Throws InputError located at the line the last record returned begins on.
  [[noreturn]] void fail(const std::string& message) const;

 private:
  // A reading error (malformed quoting, NUL bytes, an over-long line): located at the line read.
  [[noreturn]] void fail_reading(const std::string& message) const;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::istream& in_;
  std::string source_;
  long line_ = 0;         // the last line read
  long record_line_ = 0;  // the line the last record returned begins on
};

/// A header row: column name -> index. Names are trimmed and lower-cased.
class CsvHeader {
 public:
  /// Reads the first record as the header. Throws InputError (file:line) when the input is empty,
  /// the first record is numbers only (data: the header is missing), a column is duplicated, or a
  /// required column is missing. Unknown columns are kept, unused.
  /// `aliases` (alias, column) pairs, lower case: a header column named an alias counts as that column
  /// (e.g. Triton's {"block_size_m", "block_m"}); a column given under two of its names is duplicated.
  /// `other_form` (column, words): a header that lacks a required column but has that column is the
  /// other kind of list, and the error ends with the words (what to give instead).
  static CsvHeader read(CsvReader& reader, const std::vector<std::string>& required,
                        const std::vector<std::pair<std::string, std::string>>& aliases = {},
                        const std::pair<std::string, std::string>& other_form = {});
  /// Column index, or -1 when absent.
  int index(const std::string& name) const;
  /// Fields in the header row, unnamed (empty) ones included: every data row must have as many.
  std::size_t size() const { return field_count_; }
  /// One warning "source:line: unknown column 'NAME' ignored (known: ...)" per named column that is
  /// not in `known` (e.g. a misspelled `bacth` or `splitk`), located at the header row, in the
  /// order of the names; empty when every column is known. `quiet`: columns taken without a word
  /// and not listed among the known (vLLM's ROCm keys in a candidates file). For the caller to show,
  /// not to stop on. A column without a name between named ones is warned of too ("column N of the
  /// header has no name": a status column whose name was lost passed every failed row as timed,
  /// unsaid); trailing empty names (a spreadsheet's padding) are not.
  std::vector<std::string> unknown_column_warnings(const std::vector<std::string>& known,
                                                   const std::vector<std::string>& quiet = {}) const;
  /// Whether a data row repeats the header row (each named column's field is its name, case
  /// ignored): two files joined with `cat`, the second's header inside the data.
  bool repeats_header(const std::vector<std::string>& fields) const;
  /// The 1-based position of the first non-empty field of a data row under the header's trailing
  /// empty names (a spreadsheet's padding, which no warning names), or 0: a value there would be
  /// dropped unsaid.
  std::size_t value_under_padding(const std::vector<std::string>& fields) const;

 private:
  std::map<std::string, int> columns_;
  std::vector<std::string> names_;  // the header row's fields, lower case (before aliases)
  std::vector<int> unnamed_;  // 1-based positions of the header's empty names before its last name
  std::size_t field_count_ = 0;
  std::string source_;  // where the header row is, for the warnings
  long line_ = 0;
};

/// Throws InputError "source:line: expected N fields as in the header, got M" (located at the
/// reader's current record) unless `fields` has as many as the header, and one saying so where the
/// row repeats the header (CsvHeader::repeats_header).
void require_header_fields(const CsvReader& r, const CsvHeader& h, const std::vector<std::string>& fields);

/// Outcome of read_line.
enum class LineRead { ok, end, too_long };

/// Reads one line (without its '\n') into `line`, never holding more than `max_bytes` of it:
/// a longer line stops the read and returns too_long, so a binary file or a stream without
/// newlines (/dev/zero) cannot exhaust memory. `end` when no byte was left.
LineRead read_line(std::istream& in, std::string& line, std::size_t max_bytes);

/// Longest line the CSV and text readers accept (1 MiB).
constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

/// Repeated rows (a config listed or measured again) named one by one in warnings; past these, one
/// warning counts the rest (a list appended to itself gave one warning per row).
constexpr std::size_t kRepeatsNamed = 5;

/// The repeated rows of one input: the first kRepeatsNamed get a warning each, the rest one count.
class RepeatedRows {
 public:
  /// Call once per repeated row: true while the row gets its own warning.
  bool name_next() { return ++count_ <= kRepeatsNamed; }
  /// "SOURCE: N more configs WHAT after the 5 above (CONSEQUENCE)" for the rows not named, or ""
  /// when every one was.
  std::string summary(const std::string& source, const std::string& what, const std::string& consequence) const {
    if (count_ <= kRepeatsNamed) return "";
    const std::size_t more = count_ - kRepeatsNamed;
    return source + ": " + std::to_string(more) + (more == 1 ? " more config " : " more configs ") + what +
           " after the " + std::to_string(kRepeatsNamed) + " above (" + consequence + ")";
  }

 private:
  std::size_t count_ = 0;
};

/// Largest input read whole (YAML and JSON shape lists, model lists: 256 MiB).
constexpr std::size_t kMaxWholeInputBytes = std::size_t{256} << 20;

/// Reads all of `in`, never holding more than `max_bytes` (kMaxWholeInputBytes unless given): past
/// that it throws InputError "SOURCE: larger than N MiB: WHY" (so /dev/zero cannot exhaust memory);
/// a read error throws "SOURCE: read error".
std::string read_whole_input(std::istream& in, const std::string& source, const std::string& why,
                             std::size_t max_bytes = kMaxWholeInputBytes);

/// Whether `path` names a gzip file for open_csv_file: its name ends in ".gz" (any case: ".GZ").
bool is_gzip_path(const std::string& path);

/// Opens the CSV file `path` for CsvReader: read as it is, or, when `path` ends in ".gz", as the
/// stream of its decompressed bytes (zlib; one gzip member after another, zero padding after the
/// last allowed; streamed, so memory does not grow with the file). Errors throw InputError naming
/// `path`: "cannot open"; for ".gz", from the first read on: not gzip data, corrupt or truncated data
/// (zlib's message), bytes after the gzip data that are not another member (with their offset).
std::unique_ptr<std::istream> open_csv_file(const std::string& path);

/// The decompressed bytes of the gzip data `compressed` gives (not owned: it must outlive the
/// stream), as open_csv_file reads a ".gz" file: streamed, members one after another, zero padding
/// after the last allowed. Errors throw InputError naming `source` from the first read on (not gzip
/// data, corrupt or truncated data, bytes after the gzip data); the source buffer's own exceptions
/// pass through. `batch` reads gzipped shape lists (a .gz name, or data starting with gzip's magic
/// byte) through it.
std::unique_ptr<std::istream> gzip_stream(std::streambuf* compressed, const std::string& source);

/// `text`, a list read whole from `source` (a fused-MoE model list, Python's read_shapes), decompressed
/// when it is gzip data: its first bytes are gzip's magic bytes, or `named_gzip` (its name ends in
/// .gz, when the caller read the file as it is). Else `text` itself. At most kMaxWholeInputBytes
/// decompressed ("SOURCE: larger than ...: WHY"); gzip_stream's errors otherwise.
std::string gunzip_whole(std::string text, const std::string& source, const std::string& why, bool named_gzip = false);

/// `path` without a ".gz" ending (is_gzip_path), the name a gzipped list's format is told by
/// (shapes.csv.gz: CSV); `path` itself otherwise.
std::string name_under_gzip(const std::string& path);

/// Field helpers: each throws InputError "source:line: column 'NAME': ..." on bad text.
std::int64_t csv_int(const CsvReader& r, const std::vector<std::string>& fields, int index,
                     const char* name, std::int64_t min_value, std::int64_t max_value);
double csv_double(const CsvReader& r, const std::vector<std::string>& fields, int index, const char* name);
/// The trimmed field, or `fallback` when the column is absent or the field is empty.
std::string csv_text(const std::vector<std::string>& fields, int index, const std::string& fallback);

}  // namespace gemm_advisor
