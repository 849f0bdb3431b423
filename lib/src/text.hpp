#pragma once
// Small text helpers the readers share (a private header of the library).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

/// The runs of ASCII letters and digits of a name, lower case, in order: "NVIDIA H200 MIG 3g.71gb"
/// -> nvidia, h200, mig, 3g, 71gb. How GPU names are compared (profile names, the gpu column).
inline std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::string w;
  for (const char ch : s) {
    if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) w += ch;
    else if (ch >= 'A' && ch <= 'Z') w += static_cast<char>(ch - 'A' + 'a');
    else if (!w.empty()) out.push_back(std::exchange(w, std::string()));
  }
  if (!w.empty()) out.push_back(std::move(w));
  return out;
}

/// The words of `s` run together: "NVIDIA H100 80GB HBM3" -> nvidiah10080gbhbm3.
inline std::string squeezed(std::string_view s) {
  std::string out;
  for (const std::string& w : words(s)) out += w;
  return out;
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

/// The whole number `s` writes, in any of the spellings the list formats' writers use for one: digits
/// (an optional '-'), a decimal with only zeros after its point (4096.0: pandas' floats, json.dumps
/// of a float), an exponent form of a whole number (1e3, 4.096e3: JSON numbers). nullopt for
/// anything else (64.5, 1e-3, inf, nan, 0x10, text, surrounding spaces) and for a magnitude past
/// 2^53 written as a decimal (a double holds whole numbers exactly only that far). Whether the
/// number is whole is read from its digits, not from the double it rounds to (16.000000000000001
/// rounds to 16 and was taken as 16: a fresh user's find, 2026-12-05).
inline std::optional<std::int64_t> whole_number(std::string_view s) {
  std::int64_t v = 0;
  if (const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      !s.empty() && ec == std::errc() && ptr == s.data() + s.size())
    return v;
  double d = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), d, std::chars_format::general);
  constexpr double kExactLimit = 9007199254740992.0;  // 2^53
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(d) || std::trunc(d) != d ||
      std::abs(d) > kExactLimit)
    return std::nullopt;
  // The digits (sign, exponent and point dropped) and where the point falls among them once the
  // exponent has moved it: every digit after it must be 0.
  const std::size_t e_at = s.find_first_of("eE");
  const std::string_view mantissa = s.substr(0, e_at);
  long exponent = 0;
  if (e_at != std::string_view::npos) {
    std::string_view ex = s.substr(e_at + 1);
    if (!ex.empty() && ex[0] == '+') ex.remove_prefix(1);
    if (std::from_chars(ex.data(), ex.data() + ex.size(), exponent).ec != std::errc()) return std::nullopt;
  }
  std::string digits;
  long point = -1;
  for (const char ch : mantissa) {
    if (ch == '.') point = static_cast<long>(digits.size());
    else if (ch >= '0' && ch <= '9') digits += ch;
  }
  if (point < 0) point = static_cast<long>(digits.size());
  point += exponent;
  for (long i = std::max(0L, point); i < static_cast<long>(digits.size()); ++i)
    if (digits[static_cast<std::size_t>(i)] != '0') return std::nullopt;
  return static_cast<std::int64_t>(d);
}

/// Whether `s` writes a whole number whole_number cannot hold: digits (an optional sign) past int64,
/// or a decimal or exponent form past 2^53 or past a double's range (1e400). The readers report
/// those as out of range, as they do 3e9, not as "not a whole number" (fresh users' finds,
/// 2026-12-04 and 2026-12-05). False for anything else, whole_number's numbers included.
inline bool whole_number_too_large(std::string_view s) {
  std::string_view body = s;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) body.remove_prefix(1);
  if (body.empty()) return false;
  if (body.find_first_not_of("0123456789") == std::string_view::npos) return !whole_number(s);
  double d = 0;
  const auto [ptr, ec] = std::from_chars(body.data(), body.data() + body.size(), d, std::chars_format::general);
  if (ptr != body.data() + body.size()) return false;
  if (ec == std::errc::result_out_of_range) {
    // Out of a double's range either way: past it (1e400) or below its smallest (1e-400, not whole).
    const std::size_t e_at = body.find_first_of("eE");
    return e_at != std::string_view::npos && e_at + 1 < body.size() && body[e_at + 1] != '-';
  }
  return ec == std::errc() && std::isfinite(d) && std::trunc(d) == d && d > 9007199254740992.0;
}

}  // namespace gemm_advisor::text
