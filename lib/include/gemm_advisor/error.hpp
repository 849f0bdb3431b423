#pragma once
/// Errors the library reports for bad input.
#include <stdexcept>
#include <cstddef>
#include <string>
#include <string_view>

namespace gemm_advisor {

/// `message` itself up to kMaxMessageBytes; beyond, its head and its tail (where a path's file name
/// and the reason are) around " [... N bytes left out ...] ", cut at UTF-8 character boundaries.
/// A 5 MB path made a 5 MB error line (a fresh Python user's find, 2026-12-07); shapes, names and
/// dtypes were cut to 64 characters already (printable()).
std::string shortened_message(const std::string& message);
inline constexpr std::size_t kMaxMessageBytes = 4096;

/// Bad input: a malformed shape, a broken profile, an unreadable file, an impossible value.
/// what() is one line that names the input, the place (file:line where there is one) and what is
/// wrong, ready to print after "error: " (at most about kMaxMessageBytes: shortened_message). The
/// CLI maps it to exit code 1.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message)
      : std::runtime_error(message.size() > kMaxMessageBytes ? shortened_message(message) : message) {}
};

/// Formats "source:line: message" (or "source: message" when line is 0).
std::string located(const std::string& source, long line, const std::string& message);

/// "entry N of the list: " for the N-th (1-based) entry of a JSON/YAML list whose entries share a
/// line (json.dump writes a list on one), to follow located()'s "source:line: "; "" for 0, where the
/// line alone places it (ShapeEntry::entry, MoeModel::entry).
inline std::string entry_place(long entry) {
  return entry > 0 ? "entry " + std::to_string(entry) + " of the list: " : std::string();
}

/// Whether two paths name one file: two existing names of one file (hard links too, by device and
/// inode), else weakly canonical paths compared (where either cannot be resolved, the texts): the
/// same file given twice on a command line.
bool same_file(const std::string& a, const std::string& b);

/// Makes input text safe to quote inside a one-line message: printable ASCII and well-formed UTF-8
/// characters that show (not C1 controls, zero-width or bidi controls, line separators or a BOM)
/// stay as they are, every other byte (newlines, escapes, NULs, stray bytes) becomes "\xNN", and text
/// longer than `max_chars` characters is cut with "..." appended, so a binary or hostile input can
/// never split, reorder or flood an error line.
std::string printable(std::string_view text, std::size_t max_chars = 64);

/// `text` with its ASCII control bytes (and DEL) written "\xNN", every other byte (UTF-8 text) as it
/// is, whatever its length (text that is not valid UTF-8 has its bytes past ASCII escaped too); with
/// `keep_line_breaks`, tab, newline and carriage return stay too. For whole messages and output
/// fields, where printable() would mangle UTF-8 and cut.
std::string escape_control(std::string_view text, bool keep_line_breaks = false);

/// `text` as escape_control writes it, and, in well-formed UTF-8, the characters printable() hides
/// too (C1 controls, zero-width and bidi controls, line separators, a BOM) written as their bytes
/// "\xNN", whatever its length: for text shown on a terminal (messages, a table's names), where a
/// bidi override would reorder what follows it.
std::string escape_for_display(std::string_view text);

/// True when `text` is well-formed UTF-8: no stray continuation bytes, overlong forms, surrogates
/// or code points past U+10FFFF (Unicode, Table 3-7). What is not can never be written into JSON.
bool is_valid_utf8(std::string_view text);

/// Throws InputError "WHAT must be valid UTF-8 text, got 'TEXT'" (TEXT through printable()) when
/// `text` is not well-formed UTF-8, or "WHAT holds a control character ..." when it has one (a byte
/// below 0x20 or 0x7f: a name goes into every output as it is, and CSV wrote a NUL as the text
/// "\x00"); `what` names the field, e.g. "column 'name'". Unlocated: the caller adds the place.
void require_utf8(std::string_view text, const std::string& what);

}  // namespace gemm_advisor
