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

/// A JSON parser's message without nlohmann_json's "[json.exception.parse_error.101] " tag (the
/// position and what was read stay): what the readers put after "not valid JSON: ".
inline std::string json_error_message(std::string_view what) {
  const std::size_t at = what.find("] ");
  return std::string(what.rfind("[json.exception.", 0) == 0 && at != std::string_view::npos ? what.substr(at + 2) : what);
}

}  // namespace gemm_advisor::text
