#pragma once
/// Shape lists: the inputs of `batch`. Formats:
///  - CSV with a header: m,n,k and optional batch,dtype,layout,name (streamed);
///  - YAML or JSON: a list of mappings with the same keys (or a mapping with a `shapes:` list);
///  - text: one MxNxK[xB] per line.
/// Blank lines and '#' comments are allowed in CSV and text.
#include <istream>
#include <memory>
#include <string>
#include <vector>

#include "gemm_advisor/problem.hpp"

namespace gemm_advisor {

enum class ShapeFormat { automatic, csv, yaml, json, text };
/// "csv", "yaml", "json", "text" or "auto". Throws InputError otherwise.
ShapeFormat parse_shape_format(const std::string& text);

/// One shape of a list: either a problem, or an error for that entry (for --keep-going).
struct ShapeEntry {
  GemmProblem problem;
  std::string name;   ///< the `name` column, if any
  std::string dtype_text;  ///< the entry's own dtype as written ("" where the default applies), e.g.
                           ///< "float8_e4m3fnuz": which encoding or format (dtype_format_warning)
  long line = 0;      ///< line in the input (1-based; 0 when unknown)
  long entry = 0;     ///< its place (1-based) in a JSON/YAML list whose entries share its line (json.dump
                      ///< writes a list on one line); 0 where the line alone places it (entry_place)
  std::string error;  ///< non-empty: "source:line: what is wrong"; problem is then meaningless
};

/// Streams entries from a shape list. `defaults` gives dtype and layout for entries without them.
class ShapeReader {
 public:
  virtual ~ShapeReader() = default;
  /// Next entry; false at the end. A bad entry is returned with `error` set, and reading can go on.
  /// Errors that make the rest unreadable (bad header, malformed YAML, NUL bytes, a line over
  /// 1 MiB, YAML/JSON over 256 MiB) throw InputError, and so does reaching the end of an input
  /// that held no shape at all (empty, only a header or comments, an empty list).
  virtual bool next(ShapeEntry& entry) = 0;
  /// What the input has that the reader ignores (e.g. a CSV column it does not know, such as a
  /// misspelled `bacth`), each "source:line: message"; empty for most inputs.
  virtual std::vector<std::string> warnings() const { return {}; }
};

/// Opens a reader over `in` (which must outlive it). `source` names the input in messages
/// ("-" is shown as "<stdin>"). The format is taken from the name's extension (under a ".gz": the
/// caller decompresses, csv_reader.hpp's gzip_stream), else sniffed from
/// the first significant line; an input with none (empty, or only blank lines and comments) then
/// throws InputError "source: empty input: no shapes" (or "... only comments ..."), which needs no
/// header, whatever the format would have been.
std::unique_ptr<ShapeReader> open_shape_reader(std::istream& in, const std::string& source,
                                               ShapeFormat format, const GemmProblem& defaults);

}  // namespace gemm_advisor
