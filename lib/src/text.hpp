#pragma once
// Small text helpers the readers share (a private header of the library).
#include <cctype>
#include <string>
#include <string_view>

namespace gemm_advisor::text {

/// `s` in ASCII lower case.
inline std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

/// `s` without leading and trailing white space.
inline std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

/// Whether `s` ends with `suffix` (case-sensitive).
inline bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// Whether `s` holds a multiplication sign pasted where an 'x' goes (U+00D7, U+22C5 or '*'): the
/// shape and config parsers name the slip (printable() shows the sign as \xNN bytes).
inline bool has_times_sign(std::string_view s) {
  return s.find("\xc3\x97") != std::string_view::npos || s.find("\xe2\x8b\x85") != std::string_view::npos ||
         s.find('*') != std::string_view::npos;
}

/// A JSON parser's message without nlohmann_json's "[json.exception.parse_error.101] " tag (the
/// position and what was read stay): what the readers put after "not valid JSON: ".
inline std::string json_error_message(std::string_view what) {
  const std::size_t at = what.find("] ");
  return std::string(what.rfind("[json.exception.", 0) == 0 && at != std::string_view::npos ? what.substr(at + 2) : what);
}

/// The 1-based line of `json_text` at which a parser's error `what` (json_error_message's text) points,
/// or 0: "parse error at line L, column C: ..." gives it; "number overflow parsing 'TOKEN'" (no
/// position) is found as TOKEN's first occurrence. So that the message starts "FILE:LINE:", as every
/// other input error does (it said "FILE: ... at line 2, column 11" or nothing: a fresh user's find).
inline long json_error_line(std::string_view json_text, std::string_view what) {
  if (const std::size_t at = what.find("at line "); at != std::string_view::npos) {
    long line = 0;
    for (std::size_t i = at + 8; i < what.size() && what[i] >= '0' && what[i] <= '9'; ++i) line = line * 10 + (what[i] - '0');
    return line;
  }
  const std::size_t open = what.find("parsing '");
  const std::size_t close = open == std::string_view::npos ? open : what.find('\'', open + 9);
  if (close == std::string_view::npos || close == open + 9) return 0;
  const std::size_t found = json_text.find(what.substr(open + 9, close - open - 9));
  if (found == std::string_view::npos) return 0;
  long line = 1;
  for (std::size_t i = 0; i < found; ++i) line += json_text[i] == '\n';
  return line;
}

}  // namespace gemm_advisor::text
