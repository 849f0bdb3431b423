#include "gemm_advisor/profile.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <iomanip>
#include <sstream>
#include <sys/stat.h>

#include "gemm_advisor/error.hpp"
#include "gemm_advisor/target.hpp"
#include "gemm_advisor/version.hpp"
#include "text.hpp"
#include "yaml_document.hpp"

namespace gemm_advisor {

ModelParams Profile::params_for(std::string_view target, const ModelParams& defaults) const {
  ModelParams p = defaults;
  // An entry without its parameter (a Profile edited in code: find_model_param's null for an unknown
  // name) crashed here: said (a fresh consumer's find, 2026-12-05).
  auto set = [&](const ModelParamInfo* info, double value) {
    if (!info) throw InputError("profile " + hw.name + ": a model_parameters entry names no parameter (null)");
    p.*(info->field) = value;
  };
  for (const auto& [info, value] : model) set(info, value);
  if (const auto it = target_model.find(target); it != target_model.end()) {
    for (const auto& [info, value] : it->second) set(info, value);
  }
  return p;
}

namespace {

/// Longest name, display_name, vendor, arch, isa or alias a profile may give, in bytes: each is
/// printed in outputs' titles and columns (the shipped ones are under 50).
constexpr std::size_t kMaxProfileTextBytes = 256;


// Levenshtein distance (insertions, deletions, substitutions) of two short names.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The name of `names` nearest `key` by edit_distance if within 3 edits, else the one name that
// starts with `key` (a shortened name of 4 characters or more: `idle_latency_frac`), else "" (a
// "did you mean" suggestion); `skip` is never suggested.
template <class Names>
std::string nearest_name(const std::string& key, const Names& names, std::string_view skip = {}) {
  std::string nearest, extended;
  std::size_t best = std::string::npos, extensions = 0;
  for (const auto& name : names) {
    if (name == skip) continue;
    const std::string candidate(name);
    const std::size_t d = edit_distance(key, candidate);
    if (d < best) best = d, nearest = candidate;
    if (key.size() >= 4 && candidate.size() > key.size() && candidate.compare(0, key.size(), key) == 0)
      ++extensions, extended = candidate;
  }
  if (best <= 3) return nearest;
  return extensions == 1 ? extended : std::string();
}

// Largest whole number a profile key may hold (see ProfileReader::integer).
constexpr int kMaxProfileInteger = 1 << 30;

// Walks the YAML tree, collecting errors and warnings with file:line, and remembering every
// numeric key read so the `sources:` map can be checked against it.
class ProfileReader {
 public:
  ProfileReader(const std::string& source, ProfileDiagnostics& diag) : source_(source), diag_(diag) {}

  std::string where(const YAML::Node& n) const {
    return source_ + ":" + std::to_string(n.Mark().line + 1);
  }
  // One error per value: a later check of a value already reported (plausible() after fraction())
  // says nothing more about it.
  void error(const YAML::Node& n, const std::string& msg) {
    reported_.insert({n.Mark().line, n.Mark().column});
    diag_.errors.push_back(where(n) + ": " + msg);
  }
  bool reported(const YAML::Node& n) const { return reported_.count({n.Mark().line, n.Mark().column}) > 0; }
  // The node an error about map[key] points at: the value, or where the value is empty (`key:` with
  // nothing after it: yaml-cpp marks that null at the next token, a line too far), the key itself.
  static YAML::Node value_or_key(const YAML::Node& map, const std::string& key) {
    YAML::Node n = map[key];
    if (n && !n.IsNull()) return n;
    for (const auto& kv : map)
      if (kv.first.IsScalar() && kv.first.Scalar() == key) return kv.first;
    return n;
  }
  void warn(const YAML::Node& n, const std::string& msg) { diag_.warnings.push_back(where(n) + ": " + msg); }

  // The keys check_keys found unknown so far, by parent path ("compute", "matrix.bf16").
  const std::map<std::string, std::vector<std::string>>& unknown_keys() const { return unknown_keys_; }

  // Checks a mapping for duplicate and unknown keys; remembers the unknown ones for hints.
  void check_keys(const YAML::Node& map, const std::string& path, const std::set<std::string>& known) {
    std::set<std::string> seen;
    for (const auto& kv : map) {
      if (!kv.first.IsScalar()) {  // `[a, b]: 1` or `{a: 1}: 2` (a fresh user's find: "unknown key 'compute.'")
        error(kv.first, "a key of '" + (path.empty() ? std::string("the profile") : printable(path)) +
                            "' must be a name, got " +
                            (kv.first.IsSequence() ? "a list" : kv.first.IsMap() ? "a mapping" : "null"));
        // A key it meant is then missing: said once, here, not again as "missing key" (two errors
        // for one slip: a fresh user's find).
        maps_with_bad_keys_.insert({map.Mark().line, map.Mark().column});
        continue;
      }
      const std::string key = kv.first.Scalar();
      // The path and the key each through printable(), so that a long path never hides the key.
      const std::string full = path.empty() ? printable(key) : printable(path) + "." + printable(key);
      if (!seen.insert(key).second) error(kv.first, "duplicate key '" + full + "'");
      if (key == "<<" && !known.count(key)) {
        error(kv.first, kMergeKeyMessage);
        merged_paths_.insert(path);  // the keys it merged are cited under sources: not "no key" too
        maps_with_bad_keys_.insert({map.Mark().line, map.Mark().column});  // its keys are not "missing" too
        continue;
      }
      if (!known.empty() && !known.count(key)) {
        // A section of fitted values under a name nothing reads is an error, not the warning of other
        // unknown keys: every value in it would go unused and the ranking silently change (a fresh
        // user's find, 2026-12-05: `model_parameter:` ranked as the shipped profile with a warning).
        // Such a section is a misspelt `model_parameters` where that key belongs, or any key whose
        // mapping holds a `model_parameters:` (a parameter set under another target).
        std::string lower_key;
        for (const char ch : key)
          if (ch != '_' && ch != '-' && ch != ' ') lower_key += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        // A mapping whose every key names a model parameter is such a section under any name
        // (model_params:, parameters:: a second fresh user's find, 2026-12-05).
        bool parameter_names = kv.second.IsMap() && kv.second.size() > 0;
        if (parameter_names)
          for (const auto& entry : kv.second)
            parameter_names = parameter_names && entry.first.IsScalar() && find_model_param(entry.first.Scalar());
        const std::string where_they_go =
            "model parameters go under 'model_parameters:', at the top level or under 'targets: NAME:'";
        if (known.count("model_parameters") && edit_distance(lower_key, "modelparameters") <= 3) {
          error(kv.first, "unknown key '" + full + "': did you mean 'model_parameters'? (a misspelt section would "
                          "leave every value in it unused)");
        } else if (known.count("targets") && edit_distance(lower_key, "targets") <= 2 && kv.second.IsMap()) {
          // `Targets:` / `target:` at the top level: every target's fitted values went unused with a
          // warning (a fresh user's find, 2026-12-06).
          error(kv.first, "unknown key '" + full + "': did you mean 'targets'? (a misspelt section would leave every "
                          "value in it unused)");
        } else if (kv.second.IsMap() && kv.second["model_parameters"]) {
          // A misspelt parameter set (fp8_blocks for fp8_block) is named (a fresh user's find, 2026-12-06).
          const std::string nearest = nearest_name(key, known, "model_parameters");
          error(kv.first, "unknown key '" + full + "' holds model_parameters that nothing reads (" +
                              (!nearest.empty() ? "did you mean '" + printable(path) + "." + nearest + "'? " : std::string()) +
                              where_they_go + ")");
        } else if (parameter_names) {
          error(kv.first, "unknown key '" + full + "' holds model parameters that nothing reads (" + where_they_go + ")");
        } else if (!(find_model_param(key) && (path.empty() || path.rfind("targets.", 0) == 0))) {
          // A model parameter at the top level or under 'targets: NAME:' is not ignored but an error
          // (require_params_under_section); the warning said "ignored" before it (a fresh user's find,
          // 2026-12-06).
          warn(kv.first, "unknown key '" + full + "' (ignored)");
        }
        unknown_keys_[path].push_back(key);
      }
    }
  }

  // " (found 'compute.clock_ghz': ...)" when the map has an unknown key with the same stem as a
  // missing one (units are part of key names), else "".
  // `look_alike`, when given, gets the look-alike key's name when it is in the same mapping.
  std::string unit_hint(const std::string& path, std::string* look_alike = nullptr) const {
    static const char* const kUnits[] = {"_bytes_per_s", "_bytes_per_cycle", "_per_cu", "_bytes", "_cycles",
                                         "_mhz", "_ns", "_s"};
    const std::size_t dot = path.rfind('.');
    const std::string parent = dot == std::string::npos ? "" : path.substr(0, dot);
    const std::string key = dot == std::string::npos ? path : path.substr(dot + 1);
    std::string stem = key;
    for (const char* unit : kUnits) {
      const std::string u(unit);
      if (key.size() > u.size() && key.compare(key.size() - u.size(), u.size(), u) == 0) {
        stem = key.substr(0, key.size() - u.size());
        break;
      }
    }
    // The key itself under another section (dram_latency_ns under compute:): said so (it read as a
    // typo and a missing key, unrelated: a fresh user's find, 2026-12-04).
    for (const auto& [other, keys] : unknown_keys_)
      if (other != parent && std::find(keys.begin(), keys.end(), key) != keys.end())
        return " (found '" + printable((other.empty() ? "" : other + ".") + key) + "': it belongs under '" +
               (parent.empty() ? std::string("the top level") : printable(parent)) + ":'" + ")";
    const auto it = unknown_keys_.find(parent);
    if (it == unknown_keys_.end()) return "";
    for (const auto& k : it->second) {
      if (k.compare(0, stem.size(), stem) == 0) {
        // Another unit's suffix (clock_ghz for clock_mhz), or a misspelt one (clock_mzh): said as such
        // (a typo was told "units are part of the key name": a fresh user's find, 2026-12-04).
        const bool other_unit = std::any_of(std::begin(kUnits), std::end(kUnits), [&](const char* unit) {
          const std::string u(unit);
          return k.size() > u.size() && k.compare(k.size() - u.size(), u.size(), u) == 0;
        }) || k.find("_g") != std::string::npos || k.find("_k") != std::string::npos;
        if (look_alike) *look_alike = k;
        return " (found '" + printable((parent.empty() ? "" : parent + ".") + k) + "'" +
               (other_unit ? ": units are part of the key name, see profiles/SCHEMA.md)"
                           : ": a misspelling of '" + printable(key) + "'?)");
      }
    }
    return "";
  }

  YAML::Node section(const YAML::Node& root, const std::string& key) {
    YAML::Node n = root[key];
    if (!n) {
      error(root, "missing section '" + key + "'");
      missing_sections_.insert(key);
      return YAML::Node();
    }
    // An empty section (every line under it deleted) says so: "must be a mapping" hid the rule
    // (matrix: at least one dtype; a fresh user's find, 2026-12-06).
    if (n.IsNull()) {
      error(value_or_key(root, key), "section '" + key + "' is empty" +
                                         (key == "matrix" ? ": give at least one dtype's matrix rate (bf16: {...})"
                                                          : std::string()));
      return YAML::Node();
    }
    if (!n.IsMap()) {
      error(value_or_key(root, key), "'" + key + "' must be a mapping");
      return YAML::Node();
    }
    return n;
  }

  // A scalar with a tag of its own (`clock_mhz: !foo 2100`), not YAML's standard ones (!!int, !!str,
  // ...) nor none: an error at it, true (it was read as the plain value, unsaid: a fresh user's find,
  // 2026-12-07); no application tag means anything in a profile.
  bool custom_tag(const YAML::Node& n, const std::string& path) {
    const std::string& tag = n.Tag();
    if (tag.empty() || tag == "?" || tag == "!" || tag.rfind("tag:yaml.org,2002:", 0) == 0) return false;
    error(n, "'" + path + "' has the YAML tag '" + printable(tag, 80) + "', which no profile value takes (drop it)");
    return true;
  }

  std::string text(const YAML::Node& map, const std::string& key, const std::string& path) {
    YAML::Node n = map[key];
    if (!n) {
      error(map, "missing key '" + path + "'");
      return "";
    }
    if (!n.IsScalar()) {
      error(value_or_key(map, key), "'" + path + "' must be a string");
      return "";
    }
    if (custom_tag(n, path)) return "";
    for (const char ch : n.Scalar()) {
      if (static_cast<unsigned char>(ch) < 0x20) {
        error(n, "'" + path + "' must be one line of text without control characters, got '" + printable(n.Scalar()) + "'");
        return "";
      }
    }
    if (!is_valid_utf8(n.Scalar())) {
      error(n, "'" + path + "' must be valid UTF-8 text, got '" + printable(n.Scalar()) + "'");
      return "";
    }
    if (n.Scalar().find_first_not_of(" \t") == std::string::npos) {
      error(n, "'" + path + "' must not be empty");
      return "";
    }
    // A name is printed in every output's title and hardware column: a 2 MB display_name was echoed
    // whole by validate and each rank (a fresh user's find, 2026-12-07). The shipped ones are under 50.
    if (n.Scalar().size() > kMaxProfileTextBytes) {
      error(n, "'" + path + "' is " + std::to_string(n.Scalar().size()) + " bytes long: at most " +
                   std::to_string(kMaxProfileTextBytes) + " (it names the GPU in every output)");
      return "";
    }
    return n.Scalar();
  }

  // Reads a number; `allow_zero` for quantities that may be absent (LLC).
  double number(const YAML::Node& map, const std::string& key, const std::string& path,
                bool allow_zero = false, bool required = true) {
    if (!map || !map.IsMap()) return 0;
    YAML::Node n = map[key];
    if (!n) {
      if (required && !maps_with_bad_keys_.count({map.Mark().line, map.Mark().column})) {
        // At the look-alike key's line where there is one (the section's first line told nothing).
        // (Found by a lambda: assigning to a YAML::Node would write into the node it refers to.)
        std::string look_alike;
        const std::string hint = unit_hint(path, &look_alike);
        const YAML::Node at = [&]() -> YAML::Node {
          if (!look_alike.empty())
            for (const auto& kv : map)
              if (kv.first.IsScalar() && kv.first.Scalar() == look_alike) return kv.first;
          return map;
        }();
        error(at, "missing key '" + path + "'" + hint);
      }
      return 0;
    }
    numeric_keys_.insert(path);
    if (!n.IsScalar()) {
      // Said what was found (a null, a list or a mapping was "must be a number" alone, where a word
      // was quoted back: a fresh user's find, 2026-12-06).
      error(value_or_key(map, key), "'" + path + "' must be a number, got " +
                                        (n.IsSequence() ? "a list" : n.IsMap() ? "a mapping" : "no value (null)"));
      return 0;
    }
    if (custom_tag(n, path)) return 0;
    // A quoted scalar ("0.5") or one tagged !!str is text in YAML, whatever it spells (a fresh
    // user's find: such values were read as numbers).
    if (n.Tag() == "!" || n.Tag() == "tag:yaml.org,2002:str") {
      error(n, "'" + path + "' must be a number, got the string '" + printable(n.Scalar()) + "': a quoted or !!str value is text");
      return 0;
    }
    const std::string& s = n.Scalar();
    double v = 0;
    char* end = nullptr;
    errno = 0;
    v = std::strtod(s.c_str(), &end);
    // YAML 1.2's octal integer, 0o204, as its hexadecimal 0x84 (strtod's) is read (0o204 was "must be
    // a number" while 0x84 passed: a fresh user's find, 2026-12-05); 0204 is decimal, as YAML 1.2 has it.
    if (s.size() > 2 && s[0] == '0' && s[1] == 'o' && s.size() <= 22 &&
        s.find_first_not_of("01234567", 2) == std::string::npos) {
      v = static_cast<double>(std::strtoull(s.c_str() + 2, nullptr, 8));
      end = const_cast<char*>(s.c_str() + s.size());
    }
    if (s.empty() || end != s.c_str() + s.size()) {
      // YAML's own spellings of infinity and not-a-number (.inf, -.Inf, .NaN, ...) are numbers, not finite ones.
      std::string lower;
      for (char ch : s) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      const bool yaml_special = lower == ".nan" || lower == ".inf" || lower == "+.inf" || lower == "-.inf";
      // 1_000: YAML 1.2 (yaml-cpp) reads digit separators as text.
      std::string digits;
      for (char ch : s)
        if (ch != '_') digits += ch;
      char* digits_end = nullptr;
      const bool separators = s.find('_') != std::string::npos && !digits.empty() &&
                              (std::strtod(digits.c_str(), &digits_end), digits_end == digits.c_str() + digits.size());
      error(n, "'" + path + "' must be " + (yaml_special ? "finite" : "a number") + ", got '" + printable(s) + "'" +
                   (separators ? " (YAML has no digit separators: write " + digits + ")" : ""));
      return 0;
    }
    if (!std::isfinite(v)) {
      error(n, "'" + path + "' must be finite, got '" + printable(s) + "'");
      return 0;
    }
    // A hexadecimal integer (0x84) is a YAML 1.2 number; strtod's hexadecimal fractions and binary
    // exponents (0x1.ap+10) are not (one was read as 1664: a fresh user's find, 2026-12-06).
    if (const std::size_t x = s.find_first_of("xX"); x != std::string::npos && s.find_first_of(".pP", x) != std::string::npos) {
      error(n, "'" + path + "' must be a decimal number or a hexadecimal integer, got '" + printable(s) + "'");
      return 0;
    }
    if (errno == ERANGE) {  // finite but beyond what a double holds, too large or too close to zero
      // Too close to zero is said so: 4.9e-324 is a double, a subnormal one ("out of the range of a
      // double" was wrong for it: a fresh user's find, 2026-12-06).
      error(n, "'" + path + "' " +
                   (std::fabs(v) < 1.0 ? "is too close to zero (under 2.2e-308, a double's smallest normal number)"
                                       : "is out of the range of a double") +
                   ", got '" + printable(s) + "'");
      return 0;
    }
    if (v < 0 || (v == 0 && !allow_zero)) {
      error(n, "'" + path + "' must be " + (allow_zero ? "zero or positive" : "positive") + ", got " + printable(s));
      return 0;
    }
    // A value tagged !!int is a whole number in YAML (`!!int 0.8` was read as 0.8).
    if (n.Tag() == "tag:yaml.org,2002:int" && v != std::floor(v)) {
      error(n, "'" + path + "' is tagged !!int but is not a whole number, got " + printable(s));
      return 0;
    }
    return v;
  }

  // A byte count: a whole number (a capacity of 1.5 bytes was accepted), as large as a double holds
  // exactly (no int limit: HBM sizes exceed it).
  double byte_count(const YAML::Node& map, const std::string& key, const std::string& path, bool allow_zero = false,
                    bool required = true) {
    const double v = number(map, key, path, allow_zero, required);
    if (v != std::floor(v)) {
      error(map[key], "'" + path + "' is a byte count and must be a whole number, got " + printable(map[key].Scalar()));
      return 0;
    }
    return v;
  }

  // A whole number in [0 or 1, max_value]: the upper bounds keep the model's int arithmetic
  // (and its loops over stages) far from overflow; they are far above any real GPU.
  // A value that parsed but lies outside what any GPU has (a unit slip, a typo): an error naming
  // the plausible range, so the model never computes with 1e-300 bytes/s.
  void plausible(const YAML::Node& map, const std::string& key, const std::string& path, double lo, double hi,
                 bool zero_allowed = false) {
    if (!map || !map.IsMap() || !map[key] || !map[key].IsScalar() || reported(map[key])) return;
    char* end = nullptr;
    const std::string& text = map[key].Scalar();
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(v)) return;  // reported by number()
    if (zero_allowed && v == 0) return;
    if (v < lo || v > hi)
      error(map[key], "'" + path + "' = " + printable(text) + " is outside the plausible range [" + fmt_num(lo) +
                          ", " + fmt_num(hi) + "] (check its unit)");
  }
  static std::string fmt_num(double v) {
    std::ostringstream ss;
    ss << std::setprecision(12) << v;  // 16777216, not 1.67772e+07
    return ss.str();
  }

  int integer(const YAML::Node& map, const std::string& key, const std::string& path,
              bool allow_zero = false, int max_value = kMaxProfileInteger) {
    const double v = number(map, key, path, allow_zero);
    if (v != std::floor(v)) {
      error(map[key], "'" + path + "' must be a whole number, got " + printable(map[key].Scalar()));
      return 0;
    }
    if (v > max_value) {
      error(map[key], "'" + path + "' = " + printable(map[key].Scalar()) + " is larger than the most plausible " +
                          std::to_string(max_value));
      return 0;
    }
    return static_cast<int>(v);
  }

  double fraction(const YAML::Node& map, const std::string& key, const std::string& path,
                  bool allow_zero = false) {
    const double v = number(map, key, path, allow_zero);
    if (v > 1.0)
      error(map[key], "'" + path + "' is a fraction and must be at most 1, got " + printable(map[key].Scalar()));
    return v;
  }

  const std::set<std::string>& numeric_keys() const { return numeric_keys_; }
  /// Paths of the mappings that had a YAML merge key (an error): their merged keys are missing.
  const std::set<std::string>& merged_paths() const { return merged_paths_; }
  /// Whether section() said `key` is missing (its error stands for the keys under it).
  bool section_missing(const std::string& key) const { return missing_sections_.count(key) > 0; }

 private:
  std::string source_;
  ProfileDiagnostics& diag_;
  std::set<std::string> numeric_keys_;
  std::map<std::string, std::vector<std::string>> unknown_keys_;  // parent path -> unknown keys
  std::set<std::string> merged_paths_;  // paths of mappings with a YAML merge key (refused)
  std::set<std::string> missing_sections_;  // required sections section() said are missing
  std::set<std::pair<int, int>> reported_;                          // (line, column) of values with an error
  std::set<std::pair<int, int>> maps_with_bad_keys_;                // (line, column) of maps with a key that is no name
};

// The stages of parse_profile, one per section of the schema (profiles/SCHEMA.md), in file order.

void parse_identity(ProfileReader& r, const YAML::Node& root, Hardware& hw) {
  hw.name = r.text(root, "name", "name");
  hw.display_name = r.text(root, "display_name", "display_name");
  // Zero-width and bidi characters reorder or hide what a terminal shows: the name is kept escaped
  // (it was printed raw by `profiles validate` and rank's title: a fresh user's find, 2026-12-06).
  if (const std::string shown = escape_for_display(hw.display_name); shown != hw.display_name) {
    r.warn(root["display_name"], "'display_name' holds invisible or bidi characters: shown as " + shown);
    hw.display_name = shown;
  }
  hw.vendor = r.text(root, "vendor", "vendor");
  hw.arch = r.text(root, "arch", "arch");
  hw.isa = r.text(root, "isa", "isa");
  if (const YAML::Node a = root["aliases"]) {
    if (!a.IsSequence()) {
      r.error(a, "'aliases' must be a list of names, e.g. [\"NVIDIA H200\", \"H200\"]");
    } else {
      for (const auto& item : a) {
        if (!item.IsScalar() || item.Scalar().empty()) {
          r.error(item, "each alias must be a non-empty name");
          continue;
        }
        // An alias names the card in outputs (vLLM's file names, a measurement's gpu column): one line
        // of printable text, as name and display_name (control and bidirectional-override characters
        // went raw into --emit vllm's file names: a fresh user's find, 2026-12-07).
        const std::string& alias = item.Scalar();
        if (printable(alias, alias.size()) != alias)
          r.error(item, "each alias must be one line of printable text, got '" + printable(alias) + "'");
        else if (alias.size() > kMaxProfileTextBytes)
          r.error(item, "an alias is " + std::to_string(alias.size()) + " bytes long: at most " +
                            std::to_string(kMaxProfileTextBytes));
        else
          hw.aliases.push_back(alias);
      }
    }
  }
  // A plain loop, not std::regex: libstdc++'s regex recurses per character and overflows the
  // stack on a long enough name.
  const bool name_ok = std::all_of(hw.name.begin(), hw.name.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
  });
  // (text() has reported a blank one already: one error for one value.)
  if (root["name"] && root["name"].IsScalar() && root["name"].Scalar().empty() && !r.reported(root["name"]))
    r.error(root["name"], "'name' must not be empty");
  if (!hw.name.empty() && !name_ok)
    r.error(root["name"], "'name' must use only lowercase letters, digits, '-' and '_', got '" + printable(hw.name) + "'");
  if (!hw.vendor.empty() && hw.vendor != "nvidia" && hw.vendor != "amd")
    r.error(root["vendor"], "'vendor' must be nvidia or amd, got '" + printable(hw.vendor) + "'");
  // The model reads neither, but a profile that names another vendor's architecture or ISA is
  // most likely a copy edited halfway (profiles/SCHEMA.md lists the values).
  const bool nvidia = hw.vendor == "nvidia", amd = hw.vendor == "amd";
  const bool nv_arch = hw.arch == "ampere" || hw.arch == "hopper" || hw.arch == "blackwell";
  const bool amd_arch = hw.arch == "cdna3" || hw.arch == "cdna4";
  if (!hw.arch.empty() && (nvidia || amd) && !(nvidia ? nv_arch : amd_arch))
    r.warn(root["arch"], "'arch' = '" + printable(hw.arch) + "' is not an " + hw.vendor + " architecture the advisor knows (" +
                             (nvidia ? "ampere, hopper, blackwell" : "cdna3, cdna4") + ")");
  // The ISAs the profiles and their rules were written for (an sm_70 or gfx90a profile passed
  // unsaid, while an unknown arch was warned about).
  const bool nv_isa = hw.isa == "sm_80" || hw.isa == "sm_90" || hw.isa == "sm_100";
  const bool amd_isa = hw.isa == "gfx942" || hw.isa == "gfx950";
  if (!hw.isa.empty() && (nvidia || amd) && !(nvidia ? nv_isa : amd_isa))
    r.warn(root["isa"], "'isa' = '" + printable(hw.isa) + "' is not an " + hw.vendor + " ISA the advisor knows (" +
                            (nvidia ? "sm_80, sm_90, sm_100" : "gfx942, gfx950") + ")");
  // Both known but of different generations (isa sm_80 with arch hopper passed unsaid: a copy
  // edited halfway, a fresh user's find, 2026-12-05). The rules key on the arch (tensor memory on
  // blackwell, the dtypes each generation lacks), the emitters on the ISA.
  static constexpr std::pair<const char*, const char*> kIsaOf[] = {
      {"ampere", "sm_80"}, {"hopper", "sm_90"}, {"blackwell", "sm_100"}, {"cdna3", "gfx942"}, {"cdna4", "gfx950"}};
  for (const auto& [arch, isa] : kIsaOf)
    if (hw.arch == arch && (nvidia ? nv_arch && nv_isa : amd && amd_arch && amd_isa) && hw.isa != isa)
      r.warn(root["isa"], "'isa' = '" + hw.isa + "' is not " + arch + "'s ISA (" + isa + ", the profile's 'arch'): " +
                              "one of them is wrong");
}

void parse_compute(ProfileReader& r, const YAML::Node& c, Hardware& hw) {
  r.check_keys(c, "compute", {"cu_count", "active_cu_count", "clock_mhz", "warp_size", "vector_fp32_lanes_per_cu", "matrix_units_per_cu",
                              "warps_to_feed_matrix_units", "matrix_instruction_warps", "max_warps_per_cu", "max_blocks_per_cu",
                              "registers_per_cu", "max_registers_per_thread", "smem_per_cu_bytes",
                              "smem_per_block_bytes", "smem_reserved_per_block_bytes", "tensor_memory_bytes_per_cu"});
  hw.cu_count = hw.product_cu_count = r.integer(c, "cu_count", "compute.cu_count");
  // Validated (and its source checked) here, applied once the whole profile is read.
  if (c["active_cu_count"]) (void)r.integer(c, "active_cu_count", "compute.active_cu_count");
  hw.clock_hz = r.number(c, "clock_mhz", "compute.clock_mhz") * 1e6;
  // Bounded at the plausible range's top (below): one bound, where 256 and 1025 got two (a fresh
  // user's find, 2026-12-06).
  hw.warp_size = r.integer(c, "warp_size", "compute.warp_size", false, 128);
  if (c["vector_fp32_lanes_per_cu"])
    hw.vector_fp32_lanes_per_cu = r.integer(c, "vector_fp32_lanes_per_cu", "compute.vector_fp32_lanes_per_cu", false, 65536);
  hw.matrix_units_per_cu = r.integer(c, "matrix_units_per_cu", "compute.matrix_units_per_cu");
  hw.warps_to_feed_matrix_units = r.integer(c, "warps_to_feed_matrix_units", "compute.warps_to_feed_matrix_units");
  if (c["matrix_instruction_warps"])
    hw.matrix_instruction_warps = r.integer(c, "matrix_instruction_warps", "compute.matrix_instruction_warps");
  hw.max_warps_per_cu = r.integer(c, "max_warps_per_cu", "compute.max_warps_per_cu");
  hw.max_blocks_per_cu = r.integer(c, "max_blocks_per_cu", "compute.max_blocks_per_cu");
  hw.registers_per_cu = r.integer(c, "registers_per_cu", "compute.registers_per_cu");
  hw.max_registers_per_thread =
      r.integer(c, "max_registers_per_thread", "compute.max_registers_per_thread", false, 65536);
  hw.smem_per_cu_bytes = r.integer(c, "smem_per_cu_bytes", "compute.smem_per_cu_bytes");
  hw.smem_per_block_bytes = r.integer(c, "smem_per_block_bytes", "compute.smem_per_block_bytes");
  if (c["smem_reserved_per_block_bytes"])
    hw.smem_reserved_per_block_bytes =
        r.integer(c, "smem_reserved_per_block_bytes", "compute.smem_reserved_per_block_bytes", true, 1 << 20);
  if (c["tensor_memory_bytes_per_cu"])
    hw.tensor_memory_bytes_per_cu =
        r.integer(c, "tensor_memory_bytes_per_cu", "compute.tensor_memory_bytes_per_cu", true);
  // At least the smallest accumulator (128 lanes x 32 columns x 4 bytes = 16384; triton.hpp).
  r.plausible(c, "tensor_memory_bytes_per_cu", "compute.tensor_memory_bytes_per_cu", 16384, 1 << 24, true);
  if (hw.warps_to_feed_matrix_units > hw.max_warps_per_cu && hw.max_warps_per_cu > 0)
    r.error(c["warps_to_feed_matrix_units"], "'compute.warps_to_feed_matrix_units' (" +
                                                 std::to_string(hw.warps_to_feed_matrix_units) +
                                                 ") exceeds 'compute.max_warps_per_cu' (" +
                                                 std::to_string(hw.max_warps_per_cu) + "): no CU could feed its matrix units");
  if (hw.matrix_instruction_warps > hw.max_warps_per_cu && hw.max_warps_per_cu > 0)
    r.error(c["matrix_instruction_warps"], "'compute.matrix_instruction_warps' (" +
                                               std::to_string(hw.matrix_instruction_warps) + ") exceeds 'compute.max_warps_per_cu' (" +
                                               std::to_string(hw.max_warps_per_cu) + ")");
  if (hw.tensor_memory_bytes_per_cu > 0 && !c["matrix_instruction_warps"])
    r.warn(c["tensor_memory_bytes_per_cu"],
           "'compute.tensor_memory_bytes_per_cu' is set but 'compute.matrix_instruction_warps' is not: with its "
           "default 1 every config takes the tensor-memory instruction (Triton's tcgen05 needs 4 or 8 warps: 4)");
  // The largest GPUs have a few hundred CUs (MI355X 256, B200 148): a figure past 100,000 is a typo.
  r.plausible(c, "cu_count", "compute.cu_count", 1, 100000);
  r.plausible(c, "clock_mhz", "compute.clock_mhz", 100, 10000);
  r.plausible(c, "warp_size", "compute.warp_size", 16, 128);
  if (hw.warp_size > 0 && (hw.warp_size & (hw.warp_size - 1)) != 0)
    r.error(c["warp_size"], "compute.warp_size = " + std::to_string(hw.warp_size) +
                                " must be a power of two (32 on NVIDIA, 64 on AMD CDNA)");
  else if (hw.vendor == "nvidia" && hw.warp_size > 0 && hw.warp_size != 32)
    r.warn(c["warp_size"], "compute.warp_size = " + std::to_string(hw.warp_size) +
                               " on an NVIDIA profile: every NVIDIA GPU runs warps of 32 threads");
  r.plausible(c, "vector_fp32_lanes_per_cu", "compute.vector_fp32_lanes_per_cu", 8, 4096);
  // The model reads warps_to_feed_matrix_units; matrix_units_per_cu records the hardware it follows
  // from (one warp feeds one unit), checked so (1e9 units passed silently: a fresh user's find,
  // 2026-12-05).
  r.plausible(c, "matrix_units_per_cu", "compute.matrix_units_per_cu", 1, 64);
  r.plausible(c, "warps_to_feed_matrix_units", "compute.warps_to_feed_matrix_units", 1, 64);
  if (hw.matrix_units_per_cu >= 1 && hw.matrix_units_per_cu <= 64 && hw.warps_to_feed_matrix_units >= 1 &&
      hw.warps_to_feed_matrix_units < hw.matrix_units_per_cu)
    r.warn(c["warps_to_feed_matrix_units"],
           "'compute.warps_to_feed_matrix_units' (" + std::to_string(hw.warps_to_feed_matrix_units) +
               ") is below 'compute.matrix_units_per_cu' (" + std::to_string(hw.matrix_units_per_cu) +
               "): a warp issues to one matrix unit, so fewer warps leave units idle (the model reads the warps)");
  r.plausible(c, "max_warps_per_cu", "compute.max_warps_per_cu", 8, 1024);
  r.plausible(c, "registers_per_cu", "compute.registers_per_cu", 1024, 1 << 24);
  r.plausible(c, "max_registers_per_thread", "compute.max_registers_per_thread", 32, 4096);
  // One warp at the per-thread cap must fit in the register file (NVIDIA 255 x 32 = 8160 of 65536,
  // AMD CDNA 512 x 64 = 32768 of 131072); fewer made every config fit no block while validate
  // passed it (a fresh user's find, 2026-12-05).
  if (hw.registers_per_cu >= 1024 && hw.max_registers_per_thread >= 32 && hw.warp_size >= 16 &&
      hw.registers_per_cu < static_cast<std::int64_t>(hw.max_registers_per_thread) * hw.warp_size)
    r.error(c["registers_per_cu"], "'compute.registers_per_cu' (" + std::to_string(hw.registers_per_cu) +
                                       ") is less than one warp at 'compute.max_registers_per_thread' (" +
                                       std::to_string(hw.max_registers_per_thread) + " x " +
                                       std::to_string(hw.warp_size) + " threads)");
  r.plausible(c, "smem_per_block_bytes", "compute.smem_per_block_bytes", 1024, 1 << 24);
  // The per-CU figure in the same range as the per-block one: 100 (KB written as bytes) was taken, and
  // the error then blamed the per-block key's correct line (a fresh user's find, 2026-12-04).
  r.plausible(c, "smem_per_cu_bytes", "compute.smem_per_cu_bytes", 1024, 1 << 24);
  if (hw.smem_per_block_bytes > hw.smem_per_cu_bytes && hw.smem_per_cu_bytes >= 1024)
    r.error(c["smem_per_block_bytes"], "'compute.smem_per_block_bytes' (" +
            std::to_string(hw.smem_per_block_bytes) + ") exceeds 'compute.smem_per_cu_bytes' (" +
            std::to_string(hw.smem_per_cu_bytes) + ")");
  // A block of the largest size must fit beside the driver's reserve (NVIDIA: 227 KB + 1 KB = the
  // 228 KB of an sm_90 SM exactly); more left every config of that size with no resident block,
  // listed as infeasible while validate called the profile fine (a fresh user's find, 2026-12-05).
  else if (hw.smem_per_block_bytes + hw.smem_reserved_per_block_bytes > hw.smem_per_cu_bytes &&
           hw.smem_per_cu_bytes >= 1024 && c["smem_reserved_per_block_bytes"])
    r.error(c["smem_reserved_per_block_bytes"],
            "'compute.smem_reserved_per_block_bytes' (" + std::to_string(hw.smem_reserved_per_block_bytes) +
                ") plus 'compute.smem_per_block_bytes' (" + std::to_string(hw.smem_per_block_bytes) +
                ") exceeds 'compute.smem_per_cu_bytes' (" + std::to_string(hw.smem_per_cu_bytes) +
                "): a block of the largest size would not fit beside the reserve");
}

// A bandwidth for a message: 3 significant digits (1.64e+12).
std::string text_of(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// A byte count for a message, whole (50000000).
std::string bytes_text(double v) {
  // Whole bytes up to 1e15; past that in exponent form (1e300 printed as its first 39 digits read
  // as 1e38: a fresh user's find, 2026-12-05).
  char buf[40];
  std::snprintf(buf, sizeof buf, v < 1e15 ? "%.0f" : "%.6g", v);
  return buf;
}

void parse_memory(ProfileReader& r, const YAML::Node& m, Hardware& hw) {
  r.check_keys(m, "memory", {"l2_bytes", "l2_bandwidth_bytes_per_s", "l2_latency_cycles", "llc_bytes",
                             "llc_bandwidth_bytes_per_s", "dram_bytes", "dram_bandwidth_bytes_per_s",
                             "dram_latency_ns", "per_cu_load_bytes_per_cycle", "xcd_count"});
  hw.l2_bytes = r.byte_count(m, "l2_bytes", "memory.l2_bytes");
  hw.l2_bandwidth_bytes_per_s = r.number(m, "l2_bandwidth_bytes_per_s", "memory.l2_bandwidth_bytes_per_s");
  const double l2_latency_cycles = r.number(m, "l2_latency_cycles", "memory.l2_latency_cycles");
  hw.llc_bytes = r.byte_count(m, "llc_bytes", "memory.llc_bytes", true, false);
  hw.llc_bandwidth_bytes_per_s = r.number(m, "llc_bandwidth_bytes_per_s", "memory.llc_bandwidth_bytes_per_s", true, false);
  hw.dram_bytes = r.byte_count(m, "dram_bytes", "memory.dram_bytes");
  hw.dram_bandwidth_bytes_per_s = r.number(m, "dram_bandwidth_bytes_per_s", "memory.dram_bandwidth_bytes_per_s");
  hw.dram_latency_s = r.number(m, "dram_latency_ns", "memory.dram_latency_ns") * 1e-9;
  const double per_cu_bytes_per_cycle = r.number(m, "per_cu_load_bytes_per_cycle", "memory.per_cu_load_bytes_per_cycle");
  hw.xcd_count = r.integer(m, "xcd_count", "memory.xcd_count");
  for (const char* key : {"l2_bandwidth_bytes_per_s", "dram_bandwidth_bytes_per_s"})
    r.plausible(m, key, std::string("memory.") + key, 1e9, 1e16);
  r.plausible(m, "llc_bandwidth_bytes_per_s", "memory.llc_bandwidth_bytes_per_s", 1e9, 1e16, true);
  r.plausible(m, "l2_latency_cycles", "memory.l2_latency_cycles", 1, 1e5);
  r.plausible(m, "dram_latency_ns", "memory.dram_latency_ns", 1, 1e5);
  r.plausible(m, "per_cu_load_bytes_per_cycle", "memory.per_cu_load_bytes_per_cycle", 1, 1e5);
  r.plausible(m, "l2_bytes", "memory.l2_bytes", 1 << 16, 1e11);
  // DRAM capacity: 1 MB to 1 PB (the model reads it only for reporting; a unit slip is still an error).
  r.plausible(m, "dram_bytes", "memory.dram_bytes", 1e6, 1e15);
  r.plausible(m, "llc_bytes", "memory.llc_bytes", 1 << 16, 1e11, true);
  // More XCDs than CUs: one of the two is wrong, and which the range alone cannot say ("xcd_count = 8
  // is outside [1, 4] (check its unit)" blamed the XCDs for a cu_count of 4: a fresh user's find,
  // 2026-12-05).
  if (hw.cu_count > 0 && hw.xcd_count > hw.cu_count && m["xcd_count"])
    r.error(m["xcd_count"], "'memory.xcd_count' = " + std::to_string(hw.xcd_count) + " exceeds 'compute.cu_count' = " +
                                std::to_string(hw.cu_count) + " (each XCD holds at least one CU: check both)");
  else if (hw.cu_count > 0) r.plausible(m, "xcd_count", "memory.xcd_count", 1, hw.cu_count);
  if (hw.vendor == "nvidia" && hw.xcd_count > 1)
    r.warn(m["xcd_count"], "'memory.xcd_count' = " + std::to_string(hw.xcd_count) +
                               " on an NVIDIA GPU: it counts AMD's chiplets with a private L2 (1 on NVIDIA); the model "
                               "splits the L2 that many ways");
  // Each XCD holds the same number of CUs (MI300X: 8 x 38; MI355X: 8 x 32); an uneven split is a typo
  // (a fresh user's 7 on the MI300X validated unsaid, 2026-12-04).
  if (hw.xcd_count > 1 && hw.cu_count >= hw.xcd_count && hw.cu_count % hw.xcd_count != 0)
    r.warn(m["xcd_count"], "'memory.xcd_count' = " + std::to_string(hw.xcd_count) + " does not divide compute.cu_count = " +
                               std::to_string(hw.cu_count) + ": every XCD holds the same number of CUs");
  if (hw.clock_hz > 0) {
    hw.l2_latency_s = l2_latency_cycles / hw.clock_hz;
    hw.per_cu_load_bytes_per_s = per_cu_bytes_per_cycle * hw.clock_hz;
  }
  if (hw.llc_bytes > 0 && hw.llc_bandwidth_bytes_per_s <= 0)
    r.error(m, "'memory.llc_bytes' is set but 'memory.llc_bandwidth_bytes_per_s' is missing or zero");
  // The other half of the pair: a bandwidth without a capacity was taken as no LLC at all (SCHEMA.md
  // lets the llc_ keys out only when they are 0: a fresh user's find, 2026-12-05).
  if (hw.llc_bandwidth_bytes_per_s > 0 && hw.llc_bytes <= 0)
    r.error(m["llc_bandwidth_bytes_per_s"],
            "'memory.llc_bandwidth_bytes_per_s' is set but 'memory.llc_bytes' is missing or zero (an LLC needs both; 0 "
            "for both: none)");
  // The hierarchy's order (fresh users' finds, 2026-12-04: an L2 larger than the DRAM, or a cache
  // slower than the DRAM behind it, were taken, and such a cache made every prediction slower). A
  // capacity out of order is a slip (an error); a slow cache a warning: the model takes it as given.
  if (hw.dram_bytes > 0 && hw.l2_bytes > hw.dram_bytes)
    r.error(m["l2_bytes"], "'memory.l2_bytes' (" + bytes_text(hw.l2_bytes) + ") exceeds 'memory.dram_bytes' (" +
                               bytes_text(hw.dram_bytes) + "): a unit slip in one of them?");
  if (hw.llc_bytes > 0 && hw.dram_bytes > 0 && hw.llc_bytes > hw.dram_bytes)
    r.error(m["llc_bytes"], "'memory.llc_bytes' (" + bytes_text(hw.llc_bytes) + ") exceeds 'memory.dram_bytes' (" +
                                bytes_text(hw.dram_bytes) + "): a unit slip in one of them?");
  if (hw.llc_bytes > 0 && hw.llc_bytes < hw.l2_bytes)
    r.warn(m["llc_bytes"], "'memory.llc_bytes' (" + bytes_text(hw.llc_bytes) + ") is smaller than 'memory.l2_bytes' (" +
                               bytes_text(hw.l2_bytes) + "): the last-level cache sits behind the L2 and holds more");
  const auto slower_than_dram = [&](const char* key, double bandwidth) {
    if (bandwidth > 0 && hw.dram_bandwidth_bytes_per_s > 0 && bandwidth < hw.dram_bandwidth_bytes_per_s)
      r.warn(m[key], "'memory." + std::string(key) + "' (" + text_of(bandwidth) +
                         " B/s) is below 'memory.dram_bandwidth_bytes_per_s' (" + text_of(hw.dram_bandwidth_bytes_per_s) +
                         " B/s): a cache slower than the DRAM behind it makes every prediction through it slower");
  };
  slower_than_dram("l2_bandwidth_bytes_per_s", hw.l2_bandwidth_bytes_per_s);
  slower_than_dram("llc_bandwidth_bytes_per_s", hw.llc_bandwidth_bytes_per_s);
}

void parse_efficiency(ProfileReader& r, const YAML::Node& e, Hardware& hw) {
  r.check_keys(e, "efficiency", {"matrix_peak_fraction", "dram_bandwidth_fraction", "misaligned_store_fraction"});
  hw.matrix_peak_fraction = r.fraction(e, "matrix_peak_fraction", "efficiency.matrix_peak_fraction");
  hw.dram_bandwidth_fraction = r.fraction(e, "dram_bandwidth_fraction", "efficiency.dram_bandwidth_fraction");
  r.plausible(e, "matrix_peak_fraction", "efficiency.matrix_peak_fraction", 0.01, 1);
  r.plausible(e, "dram_bandwidth_fraction", "efficiency.dram_bandwidth_fraction", 0.01, 1);
  if (e && e.IsMap() && e["misaligned_store_fraction"]) {
    hw.misaligned_store_fraction =
        r.fraction(e, "misaligned_store_fraction", "efficiency.misaligned_store_fraction");
    r.plausible(e, "misaligned_store_fraction", "efficiency.misaligned_store_fraction", 0.01, 1);
  }
}

void parse_matrix(ProfileReader& r, const YAML::Node& mx, Hardware& hw) {
  r.check_keys(mx, "matrix", {"fp32", "fp16", "bf16", "fp8", "fp6", "fp4"});
  int count = 0;
  for (const auto& kv : mx) {
    const std::string key = kv.first.Scalar();
    Dtype d;
    try {
      d = parse_dtype(key);
    } catch (const InputError&) {
      continue;  // unknown dtype key: warned above
    }
    if (key != dtype_name(d)) continue;
    // A dtype the profile's own architecture has no matrix path for (an A100 copy given fp8 ranked
    // fp4 at 1247 TFLOP/s: a fresh user's find, 2026-12-04): Ampere has no fp8, fp6 or fp4 tensor
    // cores (the A100 whitepaper), Hopper and CDNA3 no fp6 or fp4 (the H100 whitepaper; AMD's CDNA3
    // ISA: fp8 only), Blackwell and CDNA4 all of them.
    const bool narrow = d == Dtype::fp8 || d == Dtype::fp6 || d == Dtype::fp4;
    const bool sub_byte = d == Dtype::fp6 || d == Dtype::fp4;
    if ((hw.arch == "ampere" && narrow) || ((hw.arch == "hopper" || hw.arch == "cdna3") && sub_byte))
      r.warn(kv.first, "'matrix." + key + "': " + hw.arch + " (the profile's 'arch') has no " + key +
                           " matrix path; ranking " + key + " on it describes no real GPU");
    const std::string base = "matrix." + key;
    const YAML::Node v = kv.second;
    if (!v.IsMap()) {
      r.error(v, "'" + base + "' must be a mapping");
      continue;
    }
    r.check_keys(v, base, {"instruction_m", "instruction_n", "instruction_k", "instruction_max_n",
                           "instruction_min_m", "flops_per_cycle_per_cu", "instruction_cycles", "tf32"});
    MatrixRate rate;
    rate.instruction_m = r.integer(v, "instruction_m", base + ".instruction_m");
    rate.instruction_n = r.integer(v, "instruction_n", base + ".instruction_n");
    rate.instruction_k = r.integer(v, "instruction_k", base + ".instruction_k");
    rate.instruction_max_n = v["instruction_max_n"] ? r.integer(v, "instruction_max_n", base + ".instruction_max_n")
                                                    : rate.instruction_n;
    rate.instruction_min_m = v["instruction_min_m"] ? r.integer(v, "instruction_min_m", base + ".instruction_min_m")
                                                    : rate.instruction_m;
    // The range first: a value outside it is a unit slip, better named as such than as a divisor.
    for (const char* dim : {"instruction_m", "instruction_n", "instruction_k", "instruction_max_n", "instruction_min_m"})
      r.plausible(v, dim, base + "." + dim, 1, 1024);
    if (rate.instruction_min_m > 0 && rate.instruction_m > 0 && rate.instruction_m % rate.instruction_min_m != 0 &&
        !r.reported(v["instruction_min_m"]) && !r.reported(v["instruction_m"]))
      r.error(v["instruction_min_m"], "'" + base + ".instruction_min_m' (" + std::to_string(rate.instruction_min_m) +
                                          ") must divide '" + base + ".instruction_m' (" +
                                          std::to_string(rate.instruction_m) + ")");
    if (v["instruction_max_n"] && rate.instruction_max_n < rate.instruction_n && !r.reported(v["instruction_max_n"]))
      r.error(v["instruction_max_n"], "'" + base + ".instruction_max_n' (" + std::to_string(rate.instruction_max_n) +
                                          ") is below '" + base + ".instruction_n' (" +
                                          std::to_string(rate.instruction_n) + ")");
    rate.flops_per_cycle_per_cu = r.number(v, "flops_per_cycle_per_cu", base + ".flops_per_cycle_per_cu");
    r.number(v, "instruction_cycles", base + ".instruction_cycles", false, false);
    // Every matrix instruction's M and K are powers of two (mma.sync, wgmma, tcgen05, MFMA), and
    // its N a power of two or a multiple of 8 (wgmma's n in 8..256 by 8).
    auto pow2 = [](std::int64_t x) { return x > 0 && (x & (x - 1)) == 0; };
    for (const auto& [dim, x] : {std::pair<const char*, std::int64_t>{"instruction_m", rate.instruction_m},
                                 {"instruction_k", rate.instruction_k}}) {
      if (v[dim] && !r.reported(v[dim]) && x > 0 && !pow2(x))
        r.warn(v[dim], "'" + base + "." + dim + "' = " + std::to_string(x) +
                           " is not a power of two, as every matrix instruction's is");
    }
    if (v["instruction_n"] && !r.reported(v["instruction_n"]) && rate.instruction_n > 0 &&
        !pow2(rate.instruction_n) && rate.instruction_n % 8 != 0)
      r.warn(v["instruction_n"], "'" + base + ".instruction_n' = " + std::to_string(rate.instruction_n) +
                                     " is neither a power of two nor a multiple of 8, as matrix instructions' are");
    r.plausible(v, "flops_per_cycle_per_cu", base + ".flops_per_cycle_per_cu", 1, 1e7);
    if (v["tf32"]) {
      if (!v["tf32"].IsScalar() || (v["tf32"].Scalar() != "true" && v["tf32"].Scalar() != "false"))
        r.error(v["tf32"], "'" + base + ".tf32' must be true or false");
      else
        rate.tf32 = v["tf32"].Scalar() == "true";
    }
    hw.matrix[static_cast<std::size_t>(d)] = rate;
    ++count;
  }
  if (count == 0 && mx.IsMap()) r.error(mx, "'matrix' lists no supported dtype (fp32, fp16, bf16, fp8, fp6, fp4)");
  // The rates against each other (a bf16 rate 10x the fp16 one validated: a fresh user's find,
  // 2026-12-06). Every GPU shipped here computes bf16 and fp16 at one rate, fp8 at least at it, and
  // fp32 (TF32/XF32 or true FP32) at most at it (their whitepapers, cited in the profiles): another
  // ratio is most likely a slip, warned at the figure.
  const auto rate_of = [&](Dtype d) {
    const std::optional<MatrixRate>& m = hw.matrix[static_cast<std::size_t>(d)];
    return m && m->flops_per_cycle_per_cu > 0 ? m->flops_per_cycle_per_cu : 0.0;
  };
  const double half = rate_of(Dtype::fp16);
  const auto compare = [&](Dtype d, const char* what, bool bad) {
    if (!bad) return;
    const YAML::Node entry = mx[std::string(dtype_name(d))];
    const YAML::Node at = entry && entry.IsMap() ? entry["flops_per_cycle_per_cu"] : YAML::Node();
    if (at && !r.reported(at))
      r.warn(at, "'matrix." + std::string(dtype_name(d)) + ".flops_per_cycle_per_cu' (" + ProfileReader::fmt_num(rate_of(d)) +
                     ") " + what + " 'matrix.fp16.flops_per_cycle_per_cu' (" + ProfileReader::fmt_num(half) +
                     "), as no GPU shipped here has it: check the figure and its unit");
  };
  if (half > 0) {
    const double bf = rate_of(Dtype::bf16), f8 = rate_of(Dtype::fp8), f32 = rate_of(Dtype::fp32);
    compare(Dtype::bf16, "differs from", bf > 0 && std::abs(bf - half) > 1e-9 * half);
    compare(Dtype::fp8, "is below", f8 > 0 && f8 < half * (1 - 1e-9));
    compare(Dtype::fp32, "is above", f32 > half * (1 + 1e-9));
  }
}

void parse_triton(ProfileReader& r, const YAML::Node& t, TritonSettings& triton) {
  r.check_keys(t, "triton",
               {"max_num_stages", "smem_stage_offset", "sync_mma_smem_stage_offset", "max_split_k", "min_pipelined_load_bits",
                "max_loads_in_flight", "default_num_stages", "default_num_warps", "misaligned_store_scratch_min_warps"});
  triton.max_num_stages = r.integer(t, "max_num_stages", "triton.max_num_stages", false, 64);
  // Operand buffers = num_stages - offset: Triton keeps num_stages (0) or num_stages - 1 (1), nothing
  // else (a larger offset made every tile fit with one buffer: a fresh user's find, 2026-12-03).
  triton.smem_stage_offset = r.integer(t, "smem_stage_offset", "triton.smem_stage_offset", true, 1);
  triton.sync_mma_smem_stage_offset =
      t["sync_mma_smem_stage_offset"]
          ? r.integer(t, "sync_mma_smem_stage_offset", "triton.sync_mma_smem_stage_offset", true, 1)
          : triton.smem_stage_offset;
  if (t["max_split_k"]) triton.max_split_k = r.integer(t, "max_split_k", "triton.max_split_k", false, 1 << 16);
  if (t["min_pipelined_load_bits"])
    triton.min_pipelined_load_bits = r.integer(t, "min_pipelined_load_bits", "triton.min_pipelined_load_bits", true, 1024);
  if (t["max_loads_in_flight"])
    triton.max_loads_in_flight = r.integer(t, "max_loads_in_flight", "triton.max_loads_in_flight", true, 64);
  if (t["default_num_stages"]) {
    triton.default_num_stages = r.integer(t, "default_num_stages", "triton.default_num_stages", true, 64);
    if (triton.default_num_stages > triton.max_num_stages && triton.max_num_stages > 0)
      r.error(t["default_num_stages"], "'triton.default_num_stages' = " + std::to_string(triton.default_num_stages) +
                                           " is more than 'triton.max_num_stages' = " +
                                           std::to_string(triton.max_num_stages));
  }
  if (t["default_num_warps"]) {
    triton.default_num_warps = r.integer(t, "default_num_warps", "triton.default_num_warps", true, 32);
    const int w = triton.default_num_warps;
    if (w > 0 && (w & (w - 1)) != 0)
      r.error(t["default_num_warps"], "'triton.default_num_warps' = " + std::to_string(w) +
                                          " is not a power of two, as Triton's num_warps must be");
  }
  if (t["misaligned_store_scratch_min_warps"])
    triton.misaligned_store_scratch_min_warps = r.integer(t, "misaligned_store_scratch_min_warps",
                                                          "triton.misaligned_store_scratch_min_warps", true, 32);
}


// A `model_parameters:` mapping at `path`: each key a registry entry (model_params.hpp), each value
// inside the entry's range.
// `parent`: the mapping holding it under `section_key` (an empty `model_parameters:` is reported at its own
// line, not at the next key's, where yaml-cpp marks the null: a fresh user's find, 2026-12-06).
void parse_model_parameters(ProfileReader& r, ProfileDiagnostics& diag, const YAML::Node& parent,
                            const std::string& section_key, const std::string& path, ModelParamValues& out) {
  const YAML::Node mp = parent[section_key];
  if (!mp.IsMap()) {
    r.error(ProfileReader::value_or_key(parent, section_key), "'" + path + "' must be a mapping");
    return;
  }
  std::set<std::string> keys;
  for (const ModelParamInfo& info : kModelParamRegistry) keys.insert(std::string(info.name));
  // A name the registry lacks is an error here, not the warning of other unknown keys: a misspelt
  // fitted parameter left the calibration's value unused with the run's exit 0 (a fresh H100 user's
  // find, 2026-12-05). The nearest registry name, by edit distance, is suggested.
  std::set<std::string> said = keys;  // and the unknown names, said here once, not again as unknown keys
  for (const auto& kv : mp) {
    if (!kv.first.IsScalar() || keys.count(kv.first.Scalar()) || kv.first.Scalar() == "<<") continue;
    const std::string key = kv.first.Scalar();
    said.insert(key);
    const std::string nearest = nearest_model_param(key);
    r.error(kv.first, "unknown model parameter '" + printable(path) + "." + printable(key) + "'" +
                          (!nearest.empty() ? " (did you mean '" + nearest + "'?)" : std::string()) +
                          ": the names are model_params.hpp's registry (gemm-advisor targets --format json)");
  }
  r.check_keys(mp, path, said);
  for (const ModelParamInfo& info : kModelParamRegistry) {
    const std::string key(info.name);
    if (!mp[key]) continue;
    const std::string full = path + "." + key;
    const std::size_t errors_before = diag.errors.size();
    // A negative number is told the parameter's range, as any other value outside it ("must be zero or
    // positive" sent a user to 0, which the range then refused: a fresh user's find, 2026-12-06).
    if (mp[key].IsScalar()) {
      const std::string& text = mp[key].Scalar();
      char* end = nullptr;
      const double parsed = std::strtod(text.c_str(), &end);
      if (!text.empty() && end == text.c_str() + text.size() && std::isfinite(parsed) && parsed < 0) {
        r.plausible(mp, key, full, info.min_value, info.max_value);
        continue;
      }
    }
    const double v = r.number(mp, key, full, true);
    if (diag.errors.size() != errors_before) continue;  // not a number: reported once
    // -0.0 is 0 (it printed as "-0 us" and went into calibrate's overlay as -0.0: a fresh user's find).
    if (v < info.min_value || v > info.max_value) r.plausible(mp, key, full, info.min_value, info.max_value);
    else out.emplace_back(&info, v == 0 ? 0.0 : v);
  }
}

// A model parameter's name as a key of `map` (at `path`), not under its `model_parameters:`: an error,
// since its value would go unused ("unknown key (ignored)", exit 0: a fresh user's find, 2026-12-06).
void require_params_under_section(ProfileReader& r, const YAML::Node& map, const std::string& path) {
  for (const auto& kv : map)
    if (kv.first.IsScalar() && find_model_param(kv.first.Scalar()))
      r.error(kv.first, "'" + printable(path.empty() ? kv.first.Scalar() : path + "." + kv.first.Scalar()) +
                            "' is a model parameter: it goes under '" +
                            printable(path.empty() ? std::string("model_parameters") : path + ".model_parameters") +
                            ":', where it is read");
}

// `targets:`: per target name, a mapping with an optional `model_parameters:`.
// `where`: where an error about `targets:` itself is reported (ProfileReader::value_or_key: its key
// where it is empty, yaml-cpp marking the null at the next token).
void parse_targets(ProfileReader& r, ProfileDiagnostics& diag, const YAML::Node& t, const YAML::Node& where,
                   Profile& profile) {
  if (!t.IsMap()) {
    r.error(where, "'targets' must be a mapping of target names");
    return;
  }
  std::set<std::string> seen;
  for (const auto& kv : t) {
    const std::string name = kv.first.IsScalar() ? kv.first.Scalar() : "";
    if (!seen.insert(name).second) {
      r.error(kv.first, "duplicate key 'targets." + printable(name) + "'");
      continue;
    }
    if (!find_target_or_null(name)) {
      r.error(kv.first, "unknown target '" + printable(name) + "' under 'targets' (known: " + target_names() + ")");
      continue;
    }
    const std::string path = "targets." + name;
    if (!kv.second.IsMap()) {
      r.error(ProfileReader::value_or_key(t, name), "'" + printable(path) + "' must be a mapping");
      continue;
    }
    const Target& target = *find_target_or_null(name);
    std::set<std::string> keys = {"model_parameters"};
    for (std::string_view v : target.param_variants()) keys.emplace(v);
    require_params_under_section(r, kv.second, path);
    r.check_keys(kv.second, path, keys);
    if (kv.second["model_parameters"])
      parse_model_parameters(r, diag, kv.second, "model_parameters", path + ".model_parameters",
                             profile.target_model[name]);
    // A parameter variant's own section (Target::param_variant): `targets: NAME: VARIANT: model_parameters:`.
    for (std::string_view v : target.param_variants()) {
      const YAML::Node section = kv.second[std::string(v)];
      if (!section) continue;
      const std::string vpath = path + "." + std::string(v);
      if (!section.IsMap()) {
        r.error(ProfileReader::value_or_key(kv.second, std::string(v)), "'" + printable(vpath) + "' must be a mapping");
        continue;
      }
      require_params_under_section(r, section, vpath);
      r.check_keys(section, vpath, {"model_parameters"});
      if (section["model_parameters"])
        parse_model_parameters(r, diag, section, "model_parameters", vpath + ".model_parameters",
                               profile.target_model[Target::param_key(name, v)]);
    }
  }
}

// Whether `path` ("compute.clock_mhz") names a node of the mapping `map`, one key per dotted part;
// if so and `key` is given, *key is the last part's key node (where the key is written).
bool has_dotted_path(const YAML::Node& map, std::string_view path, YAML::Node* key = nullptr) {
  if (!map.IsMap()) return false;
  const std::size_t dot = path.find('.');
  const std::string part(path.substr(0, dot));
  for (const auto& kv : map) {
    if (!kv.first.IsScalar() || kv.first.Scalar() != part) continue;
    if (dot != std::string_view::npos) return has_dotted_path(kv.second, path.substr(dot + 1), key);
    if (key) *key = kv.first;
    return true;
  }
  return false;
}

// Whether `name` is a parameter section a target runs with: a target's name, or TARGET.SET of one of
// its parameter sets (Target::param_variants).
bool known_param_section(const std::string& name) {
  const std::size_t dot = name.find('.');
  const Target* t = find_target_or_null(std::string_view(name).substr(0, dot));
  if (!t) return false;
  if (dot == std::string::npos) return true;
  const std::vector<std::string_view> sets = t->param_variants();
  return std::find(sets.begin(), sets.end(), name.substr(dot + 1)) != sets.end();
}

// The list `list` at `field` of names, each parsed by `parse` (nullopt: not one it takes) into `out`,
// each once, sorted: an error at the first that is not (`what_name`) or repeats, or at a list that is
// not one or is empty ("must be a list of `what_list`"); false then. For fitted_shapes' dtypes and
// layouts.
template <class T, class Parse, class Name>
bool read_unique_names(ProfileReader& r, const YAML::Node& list, const std::string& field, const std::string& what_list,
                       const std::string& what_name, Parse parse, Name name, std::vector<T>& out) {
  if (!list.IsSequence() || list.size() == 0) {
    r.error(list, "'" + field + "' must be a list of " + what_list);
    return false;
  }
  for (const YAML::Node& item : list) {
    const std::optional<T> v = item.IsScalar() ? parse(item.Scalar()) : std::nullopt;
    if (!v) {
      r.error(item, "'" + field + "': '" + (item.IsScalar() ? printable(item.Scalar()) : std::string("a non-scalar")) +
                        "' is not " + what_name);
      return false;
    }
    if (std::find(out.begin(), out.end(), *v) != out.end()) {
      r.error(item, "'" + field + "': " + name(*v) + " is listed twice");
      return false;
    }
    out.push_back(*v);
  }
  std::sort(out.begin(), out.end());
  return true;
}

// `calibration.fitted_shapes`: {SECTION: {m: [least, largest], n: [...], k: [...], batch: [...],
// dtypes: [...], layouts: [...]}} (batch, dtypes and layouts optional), each bound a positive whole
// number, least <= largest; SECTION a target's name, or TARGET.VARIANT. Errors at the offending line.
void parse_fitted_shapes(ProfileReader& r, const YAML::Node& shapes,
                         std::map<std::string, FittedShapeRange, std::less<>>& out) {
  const std::string path = "calibration.fitted_shapes";
  if (!shapes.IsMap()) {
    r.error(shapes, "'" + path + "' must be a mapping of a target's name to {m: [least, largest], n: ..., k: ...}");
    return;
  }
  std::set<std::string> seen;
  for (const auto& kv : shapes) {
    if (!kv.first.IsScalar() || kv.first.Scalar().empty()) {
      r.error(kv.first, "each key of '" + path + "' must be a target's name");
      continue;
    }
    const std::string name = kv.first.Scalar();
    // A second entry of one section was taken silently (the last), and a later calibrate wrote the
    // stale one back after its own (a fresh user's find, 2026-12-07).
    if (!seen.insert(name).second) {
      r.error(kv.first, "duplicate key '" + path + "." + printable(name) + "'");
      continue;
    }
    const std::string at = path + "." + printable(name);
    if (!kv.second.IsMap()) {
      r.error(kv.second, "'" + at + "' must be a mapping {m: [least, largest], n: [least, largest], k: [least, largest]}");
      continue;
    }
    r.check_keys(kv.second, at, {"m", "n", "k", "batch", "dtypes", "layouts"});
    // A section no target runs with would never be checked against a shape: said.
    if (!known_param_section(name))
      r.warn(kv.first, "'" + at + "' names no target's parameters (a target's name, or TARGET.SET of its parameter "
                       "sets): its range is never checked");
    FittedShapeRange range;
    bool ok = true;
    // M, N and K are required; batch optional (an overlay written before it was recorded).
    for (auto [key, lo, hi] : {std::tuple{"m", &range.m_min, &range.m_max}, std::tuple{"n", &range.n_min, &range.n_max},
                               std::tuple{"k", &range.k_min, &range.k_max},
                               std::tuple{"batch", &range.batch_min, &range.batch_max}}) {
      const YAML::Node bounds = kv.second[key];
      const std::string field = at + "." + key;
      if (!bounds) {
        if (std::string_view(key) == "batch") continue;
        r.error(kv.second, "'" + at + "' lacks '" + key + "' (its least and largest size: [least, largest])");
        ok = false;
        continue;
      }
      if (!bounds.IsSequence() || bounds.size() != 2 || !bounds[0].IsScalar() || !bounds[1].IsScalar()) {
        r.error(bounds, "'" + field + "' must be [least, largest], two whole numbers");
        ok = false;
        continue;
      }
      const std::optional<std::int64_t> a = text::whole_number(bounds[0].Scalar());
      const std::optional<std::int64_t> b = text::whole_number(bounds[1].Scalar());
      if (!a || !b || *a < 1 || *b < 1) {
        r.error(bounds, "'" + field + "' must be [least, largest], two whole numbers of at least 1");
        ok = false;
      } else if (*a > *b) {
        r.error(bounds, "'" + field + "': the least, " + std::to_string(*a) + ", is more than the largest, " +
                            std::to_string(*b));
        ok = false;
      } else {
        *lo = *a;
        *hi = *b;
      }
    }
    // Optional: the fit's input dtypes by their standard names, and its layouts as Layout::name()
    // writes them, each once.
    if (const YAML::Node dtypes = kv.second["dtypes"])
      ok = read_unique_names<Dtype>(
               r, dtypes, at + ".dtypes", "dtype names, e.g. [bf16, fp16]",
               "a dtype's standard name (fp32, fp16, bf16, fp8, fp6, fp4)",
               [](const std::string& t) -> std::optional<Dtype> {
                 try {
                   const Dtype d = parse_dtype(t);
                   if (dtype_name(d) == t) return d;
                 } catch (const InputError&) {
                 }
                 return std::nullopt;
               },
               [](Dtype d) { return std::string(dtype_name(d)); }, range.dtypes) &&
           ok;
    if (const YAML::Node layouts = kv.second["layouts"])
      ok = read_unique_names<std::string>(
               r, layouts, at + ".layouts", "layouts, e.g. [NN, NT]", "a layout (NN, NT, TN or TT)",
               [](const std::string& t) -> std::optional<std::string> {
                 if (t == "NN" || t == "NT" || t == "TN" || t == "TT") return t;
                 return std::nullopt;
               },
               [](const std::string& t) { return t; }, range.layouts) &&
           ok;
    if (ok) out[name] = range;
  }
}

// `calibration.fitted_shapes` against the parameters: a range of a section with no fitted values, and
// a section's values with no range, are said (a hand-edited range under another target's name told
// of extrapolation for a target running with its own values while the fitted one went unchecked: a
// fresh user's find, 2026-12-07).
void check_fitted_sections(ProfileReader& r, const YAML::Node& shapes, const Profile& profile) {
  for (const auto& kv : shapes) {
    if (!kv.first.IsScalar()) continue;
    const std::string name = kv.first.Scalar();
    if (profile.model.empty() && profile.target_model.find(name) == profile.target_model.end() &&
        known_param_section(name))
      r.warn(kv.first, "'calibration.fitted_shapes." + printable(name) + "': the profile gives no model parameters for " +
                           printable(name) + " ('targets: " + printable(name) + ": model_parameters:'): the range describes no fit");
  }
  for (const auto& [section, values] : profile.target_model)
    if (!values.empty() && !shapes[section])
      r.warn(shapes, "'calibration.fitted_shapes' has no entry for the model parameters of " + printable(section) +
                         ": shapes ranked with them are never checked against a fitted range");
}

// Parent path -> the keys a profile has there that the reader does not know (ProfileReader's).
using UnknownKeys = std::map<std::string, std::vector<std::string>>;

// `n` (at dotted `path`) as canonical text for figures_digest: mappings with their keys sorted and
// the keys the reader ignores (`unknown`) left out, numbers as the doubles they parse to (1830,
// 1830.0, 0x726, 0o3446 alike; -0 as 0), other scalars as written; comments and layout are not in a
// YAML::Node.
void canonical_text(const YAML::Node& n, const std::string& path, const UnknownKeys& unknown, std::string& out) {
  if (n.IsMap()) {
    const auto ignored = unknown.find(path);
    std::map<std::string, YAML::Node> sorted;
    for (const auto& kv : n) {
      if (!kv.first.IsScalar()) continue;
      const std::string& key = kv.first.Scalar();
      // What calibrate itself writes for a run: active_cu_count (said by calibrated_cu_count_warning)
      // and max_split_k (a search bound).
      if ((path == "compute" && key == "active_cu_count") || (path == "triton" && key == "max_split_k")) continue;
      if (ignored != unknown.end() &&
          std::find(ignored->second.begin(), ignored->second.end(), key) != ignored->second.end())
        continue;
      sorted.emplace(key, kv.second);
    }
    out += '{';
    for (const auto& [key, value] : sorted) {
      out += key;
      out += ':';
      canonical_text(value, path + "." + key, unknown, out);
      out += ';';
    }
    out += '}';
  } else if (n.IsSequence()) {
    out += '[';
    for (const YAML::Node& item : n) {
      canonical_text(item, path, unknown, out);
      out += ',';
    }
    out += ']';
  } else if (n.IsScalar()) {
    const std::string& t = n.Scalar();
    const char* c = t.c_str();
    char* end = nullptr;
    double v = std::strtod(c, &end);
    bool number = !t.empty() && end == c + t.size();
    // YAML 1.2's octal, 0o17 (the reader takes it as yaml-cpp does).
    const std::size_t sign = !t.empty() && (t[0] == '+' || t[0] == '-') ? 1 : 0;
    if (!number && t.size() > sign + 2 && t[sign] == '0' && t[sign + 1] == 'o') {
      const long long octal = std::strtoll(c + sign + 2, &end, 8);
      number = end == c + t.size();
      v = sign && t[0] == '-' ? -static_cast<double>(octal) : static_cast<double>(octal);
    }
    if (number) {
      char text[32];
      std::snprintf(text, sizeof text, "%.17g", v == 0 ? 0.0 : v);
      out += text;
    } else {
      out += '"' + t + '"';
    }
  } else {
    out += '~';
  }
}

// A digest of the figures a fit's model parameters depend on: `vendor`, `arch`, `isa` and the
// `compute`, `memory`, `efficiency`, matrix and triton sections, as canonical_text writes them
// (Profile::hardware_digest).
std::string figures_digest(const YAML::Node& root, const UnknownKeys& unknown) {
  std::string text;
  for (const char* key : {"vendor", "arch", "isa", "compute", "memory", "efficiency", "matrix", "triton"}) {
    text += key;
    text += '=';
    if (const YAML::Node n = root[key]) canonical_text(n, key, unknown, text);
    text += ';';
  }
  return text_digest(text);
}

// Whether `text` is a digest as text_digest writes it: 16 lowercase hex digits.
bool is_digest_text(const std::string& text) {
  return text.size() == 16 && std::all_of(text.begin(), text.end(), [](char ch) {
           return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f');
         });
}

// `calibration:`, the provenance `gemm-advisor calibrate` writes into an overlay (calibrate.cpp,
// calibrated_profile_yaml): a mapping of `target` (a name), `targets` (a list of names),
// `parameter_set` (a name) and `provenance` (a list of lines). A later calibrate on the overlay
// appends to it, so a hand-edited section of another shape is said here, at its line (it passed
// validation and then stopped calibrate with an internal error: a fresh user's find, 2026-12-05).
// `fitted_shapes` (a mapping of TARGET or TARGET.VARIANT to {m: [least, largest], n: ..., k: ...},
// positive whole numbers) into profile.fitted_shapes, checked against the parameters parsed before it
// (check_fitted_sections).
// `where`: where an error about `calibration:` itself is reported, as parse_targets's. `hardware_digest`
// (the figures' digest when the fit ran) against profile.hardware_digest: a warning where they differ
// and the profile has model parameters.
void parse_calibration(ProfileReader& r, const YAML::Node& cal, const YAML::Node& where, Profile& profile) {
  if (!cal.IsMap()) {
    r.error(where, "'calibration' must be a mapping (target, targets, parameter_set, fitted_shapes, provenance), as "
                   "calibrate writes it");
    return;
  }
  r.check_keys(cal, "calibration",
               {"target", "targets", "parameter_set", "fitted_shapes", "provenance", "hardware_digest"});
  // The figures the fit saw (calibrate writes their digest): a hand edit of them since, a latency or a
  // bandwidth, left the fitted values in force unsaid (noticed 2026-12-07, forty-ninth session).
  if (const YAML::Node digest = cal["hardware_digest"]) {
    const bool has_parameters = !profile.model.empty() || !profile.target_model.empty();
    if (!digest.IsScalar() || !is_digest_text(digest.Scalar()))
      r.error(digest, "'calibration.hardware_digest' must be the 16 hex digits calibrate wrote (a digest of the "
                      "figures its fit saw)");
    else if (digest.Scalar() != profile.hardware_digest && has_parameters)
      r.warn(digest, "the hardware figures (vendor, arch, isa, compute, memory, efficiency, matrix, triton) differ "
                     "from those this overlay's model parameters were fitted on (calibration.hardware_digest): the "
                     "fitted values may not hold for them; calibrate again on this file, or restore the figures");
  }
  if (const YAML::Node shapes = cal["fitted_shapes"]) {
    parse_fitted_shapes(r, shapes, profile.fitted_shapes);
    if (shapes.IsMap()) check_fitted_sections(r, shapes, profile);
  }
  // The target names calibrate recorded: a hand-edited one no target has said so (it passed
  // validation: a fresh user's find, 2026-12-07).
  const auto known_target = [&](const YAML::Node& n, const std::string& name, const std::string& path) {
    if (!name.empty() && !find_target_or_null(name))
      r.error(n, "'" + path + "' names no target: '" + printable(name, 80) + "' (targets: " + target_names() + ")");
  };
  for (const char* key : {"target", "parameter_set"}) {
    if (!cal[key]) continue;
    const std::string path = std::string("calibration.") + key;
    const std::string name = r.text(cal, key, path);
    if (key == std::string("target")) known_target(cal[key], name, path);
  }
  for (const char* key : {"targets", "provenance"}) {
    const YAML::Node list = cal[key];
    if (!list) continue;
    const std::string path = std::string("calibration.") + key;
    if (!list.IsSequence()) {
      r.error(list, "'" + path + "' must be a list of " + (key == std::string("targets") ? "names" : "lines"));
      continue;
    }
    for (const YAML::Node& item : list) {
      if (!item.IsScalar()) {
        r.error(item, "each entry of '" + path + "' must be one " +
                          (key == std::string("targets") ? "name" : "line of text"));
        break;
      }
      if (key == std::string("targets")) known_target(item, item.Scalar(), path);
      // "data: A, B (kernel K); families from F": the files A and B (Profile::calibration_data_files).
      const std::string& line = item.Scalar();
      if (key == std::string("provenance") && line.rfind("data: ", 0) == 0) {
        const std::string files = line.substr(6, line.find(" (kernel ") == std::string::npos
                                                     ? std::string::npos
                                                     : line.find(" (kernel ") - 6);
        for (std::size_t at = 0; at <= files.size();) {
          const std::size_t end = std::min(files.find(", ", at), files.size());
          if (end > at) profile.calibration_data_files.push_back(files.substr(at, end - at));
          at = end + 2;
        }
      }
    }
  }
}

// Every number should say where it came from.
void check_sources(ProfileReader& r, const YAML::Node& root) {
  const YAML::Node sources = root["sources"];
  if (sources && !sources.IsMap()) {
    r.warn(sources, "'sources' must be a mapping of field: source (e.g. memory.l2_bytes: \"whitepaper ...\"): "
                    "every number in a profile should cite its source");
    return;
  }
  if (!sources) {
    r.warn(root, "no 'sources' mapping: every number in a profile should cite its source");
    return;
  }
  std::set<std::string> cited;
  for (const auto& kv : sources) {
    // A citation is text that says something: an empty, null or numeric entry cites nothing, and
    // counted as one (a fresh user's find, 2026-12-04).
    const auto is_number = [](const std::string& t) {
      char* end = nullptr;
      (void)std::strtod(t.c_str(), &end);
      return !t.empty() && end == t.c_str() + t.size();
    };
    if (kv.first.IsScalar() && (!kv.second.IsScalar() || is_number(kv.second.Scalar()) ||
                                kv.second.Scalar().find_first_not_of(" \t") == std::string::npos)) {
      r.warn(kv.first, "'sources' entry '" + printable(kv.first.Scalar()) +
                           "' cites nothing (give the source as text: a datasheet, a paper, a measurement)");
      continue;
    }
    // Each copy after the first, at its line (three copies were each "given twice (the second is
    // read)": a fresh user's find, 2026-12-07).
    if (kv.first.IsScalar() && !cited.insert(kv.first.Scalar()).second)
      r.warn(kv.first, "'sources' entry '" + printable(kv.first.Scalar()) + "' is given again: keep one citation of it");
    // A key is cited by its dotted path from the top (compute.clock_mhz, matrix.bf16.flops_per_cycle_per_cu,
    // targets.triton.model_parameters.k_step_overhead_cycles): one that leads nowhere is a typo or a
    // key since renamed, and its number goes uncited.
    const bool under_merge = std::any_of(r.merged_paths().begin(), r.merged_paths().end(), [&](const std::string& m) {
      return kv.first.IsScalar() && kv.first.Scalar().rfind(m + ".", 0) == 0;
    });
    // Not under a required section that is missing: its error says so (ten such warnings came before
    // "missing section 'memory'": a fresh user's find, left alone in the forty-seventh note).
    const std::string& cited_path = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
    const bool section_missing = r.section_missing(cited_path.substr(0, cited_path.find('.')));
    if (kv.first.IsScalar() && !under_merge && !section_missing && !has_dotted_path(root, kv.first.Scalar()))
      r.warn(kv.first, "'sources' entry '" + printable(kv.first.Scalar()) +
                           "' names no key of the profile (keys are dotted paths from the top)");
  }
  for (const auto& key : r.numeric_keys()) {
    if (!cited.count(key) && key.rfind("model_parameters.", 0) != 0 && key.rfind("targets.", 0) != 0) {
      // At the key's own line (the `sources:` line told the user nothing: a fresh user's find, 2026-12-04).
      YAML::Node at = sources;
      has_dotted_path(root, key, &at);
      r.warn(at, "'" + key + "' has no entry in 'sources'");
    }
  }
}

}  // namespace

std::string nearest_model_param(std::string_view name) {
  // The registry's names are lower case: the key is matched in lower case.
  std::vector<std::string_view> names;
  for (const ModelParamInfo& p : kModelParamRegistry) names.push_back(p.name);
  return nearest_name(text::lower(name), names);
}

Profile parse_profile(std::string_view yaml_text, const std::string& source, ProfileDiagnostics* diagnostics) {
  ProfileDiagnostics local;
  ProfileDiagnostics& diag = diagnostics ? *diagnostics : local;
  YAML::Node root;
  try {
    // One document: a second (after `---`) would be ignored by a plain Load, silently.
    root = load_one_document(std::string(yaml_text), source, 0, "a profile");
  } catch (const InputError& e) {
    diag.errors.push_back(e.what());
    throw;
  } catch (const YAML::Exception& e) {
    // A tab in a line's indentation gives yaml-cpp's "illegal map value" or the like, with no word of
    // the tab (a fresh user's find, 2026-12-06), and a NUL byte "unknown escape character" (2026-12-07):
    // the cause is named (yaml_error_hint).
    const std::string tab_hint = yaml_error_hint(yaml_text, e.mark.line + 1);
    const std::string msg = located(source, e.mark.line + 1, "not valid YAML: " + printable(e.msg, 200) + tab_hint);
    diag.errors.push_back(msg);
    throw InputError(msg);
  }
  if (!root || !root.IsMap()) {
    // Lines ended by CR alone (an old Mac editor): YAML reads the whole file as one line, a comment
    // when it starts with one (said as "expected a mapping" alone: a fresh user's find, 2026-12-04).
    const bool cr_only = yaml_text.find('\r') != std::string_view::npos && yaml_text.find('\n') == std::string_view::npos;
    const std::string msg = located(source, 0, cr_only ? "not a hardware profile: its lines end in CR alone (an old Mac "
                                                         "line end), which YAML reads as one line: convert them to LF"
                                                       : "not a hardware profile: expected a YAML mapping at the top level");
    diag.errors.push_back(msg);
    throw InputError(msg);
  }

  // Parameters alone (`targets:` or `model_parameters:` and no GPU): a hand-made overlay of the kind
  // calibrate writes whole. One error saying so, not "missing key 'name'" and the rest (a fresh
  // user's find, 2026-12-06: SCHEMA's `targets:` example read as a file of its own).
  if (!root["name"] && !root["compute"] && !root["memory"] && (root["targets"] || root["model_parameters"])) {
    const std::string msg = located(source, 0,
                                    "not a whole profile: it has model parameters and no GPU; an overlay is a whole "
                                    "profile with `model_parameters:` or `targets:` added (start from a shipped one: "
                                    "gemm-advisor profiles show h200 > mine.yaml; calibrate -o writes one)");
    diag.errors.push_back(msg);
    throw InputError(msg);
  }
  ProfileReader r(source, diag);
  Profile profile;
  Hardware& hw = profile.hw;
  hw.source = source;
  hw.source_digest = text_digest(yaml_text);
  require_params_under_section(r, root, "");
  r.check_keys(root, "", {"name", "display_name", "aliases", "vendor", "arch", "isa", "compute", "memory", "efficiency",
                          "matrix", "triton", "sources", "model_parameters", "targets", "calibration", "notes"});
  parse_identity(r, root, hw);
  if (YAML::Node c = r.section(root, "compute")) parse_compute(r, c, hw);
  if (YAML::Node m = r.section(root, "memory")) parse_memory(r, m, hw);
  if (YAML::Node e = r.section(root, "efficiency")) parse_efficiency(r, e, hw);
  if (YAML::Node mx = r.section(root, "matrix")) parse_matrix(r, mx, hw);
  if (YAML::Node t = r.section(root, "triton")) parse_triton(r, t, profile.triton);
  if (root["model_parameters"]) parse_model_parameters(r, diag, root, "model_parameters", "model_parameters", profile.model);
  if (YAML::Node t = root["targets"]) parse_targets(r, diag, t, ProfileReader::value_or_key(root, "targets"), profile);
  // After every section the figures come from, so that the keys it ignores are known.
  profile.hardware_digest = figures_digest(root, r.unknown_keys());
  if (YAML::Node cal = root["calibration"]) parse_calibration(r, cal, ProfileReader::value_or_key(root, "calibration"), profile);
  check_sources(r, root);
  if (!diag.errors.empty()) throw InputError(diag.errors.front());
  // A partition's profile: the product's figures, and the CUs a kernel gets (use_cu_count).
  if (const YAML::Node c = root["compute"]; c && c.IsMap() && c["active_cu_count"]) {
    const int active = r.integer(c, "active_cu_count", "compute.active_cu_count");
    if (active > hw.cu_count)
      r.error(c["active_cu_count"], "'compute.active_cu_count' = " + std::to_string(active) +
                                        " is more than compute.cu_count = " + std::to_string(hw.cu_count));
    if (!diag.errors.empty()) throw InputError(diag.errors.front());
    use_cu_count(hw, active);
  }
  if (root["calibration"]) profile.calibrated_cu_count = hw.cu_count;
  return profile;
}

namespace {

// Lowercase letters and digits only: how GPU names are compared.
std::string name_key(std::string_view name) { return text::squeezed(name); }

}  // namespace

std::vector<std::pair<std::string, std::vector<std::string>>> profile_aliases() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> kAliases = [] {
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    std::map<std::string, int> isa_count;
    std::vector<Profile> loaded;
    for (const auto& e : embedded_profiles()) {
      loaded.push_back(parse_profile(e.yaml, "embedded:" + std::string(e.name)));
      ++isa_count[loaded.back().hw.isa];
    }
    for (const Profile& p : loaded) {
      std::vector<std::string> names = {p.hw.display_name};
      names.insert(names.end(), p.hw.aliases.begin(), p.hw.aliases.end());
      if (isa_count[p.hw.isa] == 1) names.push_back(p.hw.isa);
      out.emplace_back(p.hw.name, names);
    }
    return out;
  }();
  return kAliases;
}

std::string resolve_profile_name(std::string_view text) {
  // An AMD target as torch's gcnArchName and rocminfo print it carries its features:
  // "gfx942:sramecc+:xnack-" is gfx942.
  if (text.rfind("gfx", 0) == 0 && text.find(':') != std::string_view::npos) text = text.substr(0, text.find(':'));
  // Control characters, bytes that are no UTF-8 and invisible format characters (zero-width, bidi)
  // name no GPU: name_key drops them, and "h\xff100" was the h100 (a fresh MoE user's find,
  // 2026-12-05). printable() escapes exactly those.
  if (printable(std::string(text)) != text) return "";
  // Nor does a letter outside ASCII: name_key dropped it as a separator, and "h2\u00e900" or
  // "mi300x\u2122" were the h200 and the mi300x (a fresh user's find, 2026-12-06). nvidia-smi, rocm-smi
  // and torch name GPUs in ASCII.
  if (std::any_of(text.begin(), text.end(), [](char ch) { return static_cast<unsigned char>(ch) >= 0x80; })) return "";
  const std::string key = name_key(text);
  if (key.empty()) return "";
  std::vector<std::string> hits;
  for (const auto& [name, names] : profile_aliases()) {
    bool hit = name_key(name) == key;
    for (const std::string& a : names) hit = hit || name_key(a) == key;
    if (hit) hits.push_back(name);
  }
  // An ISA shared by several profiles (sm_90: h100, h200; gfx950: mi350x, mi355x) is not an alias
  // of any: say which it could be.
  if (hits.empty()) {
    for (const auto& e : embedded_profiles()) {
      const Profile p = parse_profile(e.yaml, "embedded:" + std::string(e.name));
      if (name_key(p.hw.isa) == key) hits.push_back(p.hw.name);
    }
    if (hits.size() == 1) return hits.front();
  }
  // A shortened spelling of a shipped GPU's own name ("H100 SXM", "NVIDIA H100", "h100-sxm5-80gb"):
  // its short name in it, and the whole of it within one of that profile's names (they were unknown
  // profiles: a fresh H100 user's find, 2026-12-05). A variant's name ("H100 PCIe") is not within.
  // Within: the letters and digits run together ("h100sxm" in "nvidiah100sxm580gb"), or each word of
  // it the start of a word of the name ("a100 80gb" in "NVIDIA A100 SXM4 80GB").
  if (hits.empty()) {
    const std::vector<std::string> given = text::words(text);
    for (const auto& [name, names] : profile_aliases()) {
      if (key.find(name_key(name)) == std::string::npos) continue;
      bool within = false;
      for (const std::string& a : names) {
        const std::vector<std::string> of_name = text::words(a);
        bool each = !given.empty();
        for (const std::string& g : given)
          each = each && std::any_of(of_name.begin(), of_name.end(),
                                     [&](const std::string& w) { return w.rfind(g, 0) == 0; });
        within = within || each || name_key(a).find(key) != std::string::npos;
      }
      if (within) hits.push_back(name);
    }
  }
  if (hits.size() > 1) {
    std::string list;
    for (const std::string& h : hits) list += (list.empty() ? "" : " or ") + h;
    throw InputError("hardware '" + printable(std::string(text)) + "' could be " + list + ": give one of them");
  }
  return hits.empty() ? "" : hits.front();
}

bool is_profile_path(std::string_view text) {
  return text.find('/') != std::string_view::npos ||
         (text.size() > 5 && text.compare(text.size() - 5, 5, ".yaml") == 0) ||
         (text.size() > 4 && text.compare(text.size() - 4, 4, ".yml") == 0);
}

std::string own_profile_advice(const std::string& shipped) {
  return "write its figures, and a name of its own, into a copy (gemm-advisor profiles show " + shipped +
         " > mine.yaml) and give that file as the profile (--hw mine.yaml; hw=\"mine.yaml\" in Python)";
}

// (profile.hpp) A profile file named as a shipped profile whose hardware differs from it: every output
// says the shipped name (batch's hardware column, --emit's device names), which reads as the real card (a
// copy edited for an H100 PCIe still said h100: a fresh user's find, 2026-12-06). A calibrate
// overlay keeps the hardware, and a file that keeps every alias of the shipped card and adds its own
// (its vLLM name, NVIDIA_H200, for a clock-locked H200) says it is that card: neither is warned of.
// Aliases of another card do not exempt it (an L40S's figures under 'name: h100' with L40S aliases
// wrote vLLM files for NVIDIA_H100_80GB_HBM3 unwarned: a fresh user's find, 2026-12-07).
void warn_shipped_name_taken(const Profile& profile, const std::string& path, ProfileDiagnostics* diagnostics) {
  if (!diagnostics) return;
  for (const auto& e : embedded_profiles()) {
    if (e.name != profile.hw.name) continue;
    const Hardware shipped = parse_profile(e.yaml, "embedded:" + std::string(e.name)).hw;
    const Hardware& h = profile.hw;
    const bool keeps_shipped_aliases =
        std::all_of(shipped.aliases.begin(), shipped.aliases.end(), [&](const std::string& a) {
          return std::find(h.aliases.begin(), h.aliases.end(), a) != h.aliases.end();
        });
    if (keeps_shipped_aliases && h.aliases.size() > shipped.aliases.size()) return;
    // The matrix rate per CU, not the peak: a partition of the card (compute.active_cu_count, which
    // calibrate --cu-count writes) is that card (calibrate's own output was warned of: a fresh user's
    // find, 2026-12-06).
    const auto same_rate = [&](Dtype d) {
      const MatrixRate* a = h.rate(d);
      const MatrixRate* b = shipped.rate(d);
      return (a == nullptr) == (b == nullptr) &&
             (a == nullptr || a->flops_per_cycle_per_cu == b->flops_per_cycle_per_cu);
    };
    const bool same = h.product_cu_count == shipped.product_cu_count && h.clock_hz == shipped.clock_hz &&
                      h.dram_bandwidth_bytes_per_s == shipped.dram_bandwidth_bytes_per_s &&
                      h.dram_bytes == shipped.dram_bytes && h.l2_bytes == shipped.l2_bytes &&
                      h.l2_bandwidth_bytes_per_s == shipped.l2_bandwidth_bytes_per_s &&
                      h.smem_per_cu_bytes == shipped.smem_per_cu_bytes && same_rate(Dtype::bf16) &&
                      same_rate(Dtype::fp8);
    if (!same)
      diagnostics->warnings.push_back(path + ": 'name: " + profile.hw.name + "' is a shipped profile's name, but the "
                                      "hardware here differs from it: outputs will say " + profile.hw.name +
                                      " (batch's hardware column, --emit's device names); give your GPU its own "
                                      "name, display_name and aliases");
    return;
  }
}

Profile load_profile(const std::string& name_or_path, ProfileDiagnostics* diagnostics) {
  // A file's text is read once: parsed, and kept in the diagnostics for a caller that keeps it.
  const auto parse_file = [&]() {
    std::string text = read_text_file(name_or_path);
    Profile profile = parse_profile(text, name_or_path, diagnostics);
    if (diagnostics) {
      diagnostics->file_text = std::move(text);
      warn_shipped_name_taken(profile, name_or_path, diagnostics);
    }
    return profile;
  };
  if (is_profile_path(name_or_path)) return parse_file();
  // Blanks around a name ("h200\n" from a file or a pipe) are dropped, as around a shape or dtype,
  // unless a file of that exact name is here (hw="h200\n" was an unknown profile while dtype="fp16 "
  // was taken: a fresh Python user's find, 2026-12-07).
  if (const std::string trimmed = text::trim(name_or_path); !trimmed.empty() && trimmed != name_or_path) {
    struct stat exact {};
    if (::stat(name_or_path.c_str(), &exact) != 0) return load_profile(trimmed, diagnostics);
  }
  std::string known;
  struct stat st {};
  const bool file_here = !name_or_path.empty() && ::stat(name_or_path.c_str(), &st) == 0;
  for (const auto& e : embedded_profiles()) {
    if (e.name == name_or_path) {
      // A shipped name wins over a file of that name here: said, since `profiles validate` and this
      // read different profiles unsaid (a fresh user's find, 2026-12-04).
      if (file_here && diagnostics)
        diagnostics->warnings.push_back("'" + name_or_path + "' is the shipped profile; the file " + name_or_path +
                                        " here is not read (give ./" + name_or_path + " to use it)");
      return parse_profile(e.yaml, "embedded:" + std::string(e.name), diagnostics);
    }
    known += (known.empty() ? "" : ", ") + std::string(e.name);
  }
  // A GPU as drivers name it ("NVIDIA H100 80GB HBM3", "gfx942"): a shipped profile's, which wins over
  // a file of that name here as the shipped name does, said alike (torch.cuda.get_device_name()'s
  // "NVIDIA H200" read a file of that name here, unsaid but for its hardware: a fresh Python user's
  // find, 2026-12-07).
  const std::string resolved = resolve_profile_name(name_or_path);
  if (!resolved.empty()) {
    if (file_here && diagnostics)
      diagnostics->warnings.push_back("'" + printable(name_or_path) + "' names the shipped profile " + resolved +
                                      "; the file " + printable(name_or_path) + " here is not read (give ./" +
                                      printable(name_or_path) + " to use it)");
    return load_profile(resolved, diagnostics);
  }
  // Not a shipped name: an existing file or directory of that name is what the user meant.
  if (file_here) return parse_file();
  // A profile file of that name with its ending left off ("h100pcie" beside h100pcie.yaml: a fresh
  // Python user's find, 2026-12-05).
  for (const char* ending : {".yaml", ".yml"}) {
    struct stat near_file {};
    const std::string with_ending = name_or_path + ending;
    if (!name_or_path.empty() && printable(name_or_path) == name_or_path && ::stat(with_ending.c_str(), &near_file) == 0 &&
        S_ISREG(near_file.st_mode))
      throw InputError("unknown hardware profile '" + name_or_path + "': did you mean the file " + with_ending +
                       " here? (give its name with the ending)");
  }
  // A variant of a shipped GPU ("NVIDIA H100 PCIe", "NVIDIA A100-SXM4-40GB", "NVIDIA H200 NVL") has
  // its own SM count, clocks or memory: say which shipped profile it is near and how to make its own
  // (only the names were listed: a fresh H100 user's find, 2026-12-05).
  const std::string key = printable(name_or_path) == name_or_path ? name_key(name_or_path) : std::string();
  const std::string lowered = text::lower(name_or_path);
  for (const auto& [name, names] : profile_aliases()) {
    const std::string chip = name_key(name);
    const std::size_t at = key.empty() ? std::string::npos : key.find(chip);
    // A digit right after the chip's name continues a model number (h2000, b2000: typos, not a card
    // of the chip: a fresh user's find, 2026-12-06); such a name gets the plain list below.
    // Told on the name as written where the chip's name is in it: "A100 80GB" squeezes to "a10080gb"
    // (a card of the chip was listed as unknown: a fresh user's find, 2026-12-07).
    const std::size_t written_at = lowered.find(text::lower(name));
    const bool digit_after =
        written_at != std::string::npos
            ? written_at + name.size() < lowered.size() &&
                  std::isdigit(static_cast<unsigned char>(lowered[written_at + name.size()]))
            : at != std::string::npos && at + chip.size() < key.size() &&
                  std::isdigit(static_cast<unsigned char>(key[at + chip.size()]));
    if (at == std::string::npos || digit_after) continue;
    // A virtual function (SR-IOV, "AMD Instinct MI300X VF" in cloud VMs) is the whole GPU on a host
    // of one VF a GPU and a partition on others: no alias, but said so (it was told it was another
    // card with its own SM count: a fresh user's find, 2026-12-07).
    const bool amd = load_profile(name).hw.vendor == "amd";  // for its words (CU or SM; rocminfo or torch)
    const std::string padded = " " + lowered + " ";
    if (padded.find(" vf ") != std::string::npos)
      throw InputError("unknown hardware profile '" + printable(name_or_path) + "': a virtual function of the " +
                       names.front() + ", as a VM names it: where it is the whole GPU (one VF a GPU), give --hw " +
                       name + "; where it is a partition, --hw " + name +
                       " --cu-count N with the " + (amd ? "CUs" : "SMs") + " the VM reports (" +
                       (amd ? "rocminfo's 'Compute Unit', " : "") +
                       "torch.cuda.get_device_properties(0).multi_processor_count)");
    throw InputError("unknown hardware profile '" + printable(name_or_path) + "': the shipped " + name + " is the " +
                     names.front() + "; another card of the chip has its own " +
                     (amd ? "CU" : "SM") + " count, clocks or memory: " + own_profile_advice(name) +
                     " (known: " + known + ")");
  }
  // A near miss of a shipped name ("mi300", "h20"): the nearest named first (a fresh user's find,
  // 2026-12-07: the list alone).
  std::vector<std::string_view> shipped;
  for (const auto& e : embedded_profiles()) shipped.push_back(e.name);
  const std::string near = printable(name_or_path) == name_or_path ? nearest_name(text::lower(name_or_path), shipped) : "";
  throw InputError("unknown hardware profile '" + printable(name_or_path) + "'" +
                   (near.empty() ? std::string() : ": did you mean " + near + "?") + " (known: " + known +
                   ", or a GPU name they list under `gemm-advisor profiles`; or give a path to a .yaml file)");
}

std::string calibrated_cu_count_warning(const Profile& profile, const std::string& source, std::string_view target) {
  // A fit to 66 of 132 SMs was used on all of them unsaid (a fresh user's find, 2026-12-04).
  if (profile.calibrated_cu_count <= 0 || profile.hw.cu_count == profile.calibrated_cu_count) return "";
  // Parameters of another target only: this target runs with its own, whatever CUs they were fitted on.
  if (!other_target_params_warning(profile, target, source).empty()) return "";
  return source + ": its model parameters were fitted on " + std::to_string(profile.calibrated_cu_count) +
         " CUs, ranking for " + std::to_string(profile.hw.cu_count) + ": calibrate with --cu-count " +
         std::to_string(profile.hw.cu_count) + " for a fit to these";
}

std::string outside_fitted_shapes_warning(const Profile& profile, std::string_view target, std::string_view variant,
                                          const GemmProblem& p, const std::string& source) {
  // An overlay fitted on ten skinny shapes moved 4096^3's ranking unsaid (a fresh user's find, 2026-12-06).
  if (profile.fitted_shapes.empty() || target.empty()) return "";
  const std::string section = Target::param_key(target, variant);
  const auto it = profile.fitted_shapes.find(section);
  if (it == profile.fitted_shapes.end()) return "";
  const FittedShapeRange& f = it->second;
  const FittedShapeRange s = fitted_sizes(p);
  // A fused-MoE launch's sizes are named as its layer's (fitted_sizes).
  const bool layer = p.is_moe();
  std::vector<std::string> outside;
  for (auto [dim, v, lo, hi] :
       {std::tuple{layer ? "tokens" : "M", s.m_min, f.m_min, f.m_max},
        std::tuple{layer ? "intermediate (per rank)" : "N", s.n_min, f.n_min, f.n_max},
        std::tuple{layer ? "hidden" : "K", s.k_min, f.k_min, f.k_max}})
    if (v < lo || v > hi)
      outside.push_back(std::string(dim) + " " + std::to_string(v) + " (fitted " + std::to_string(lo) + "-" +
                        std::to_string(hi) + ")");
  if (f.batch_max > 0 && (s.batch_min < f.batch_min || s.batch_min > f.batch_max))
    outside.push_back("batch " + std::to_string(s.batch_min) + " (fitted " + std::to_string(f.batch_min) + "-" +
                      std::to_string(f.batch_max) + ")");
  if (!f.layouts.empty() && std::find(f.layouts.begin(), f.layouts.end(), s.layouts.front()) == f.layouts.end()) {
    std::string fitted;
    for (const std::string& l : f.layouts) fitted += (fitted.empty() ? "" : ", ") + l;
    outside.push_back("layout " + s.layouts.front() + " (fitted " + fitted + ")");
  }
  if (!f.dtypes.empty() && std::find(f.dtypes.begin(), f.dtypes.end(), p.dtype) == f.dtypes.end()) {
    std::string fitted;
    for (const Dtype d : f.dtypes) fitted += (fitted.empty() ? "" : ", ") + std::string(dtype_name(d));
    outside.push_back("dtype " + std::string(dtype_name(p.dtype)) + " (fitted " + fitted + ")");
  }
  if (outside.empty()) return "";
  std::string sizes;
  for (std::size_t i = 0; i < outside.size(); ++i) sizes += (i ? ", " : "") + outside[i];
  return "outside the shapes " + source + "'s " + section + " parameters were calibrated on: " + sizes +
         "; the fitted values are extrapolated here (calibrate on shapes like it for a fit to them)";
}

std::string unused_param_set_warning(const Profile& profile, std::string_view target, std::string_view variant,
                                     const std::string& source) {
  // A fused-MoE overlay of the fp8_block set alone used on a bf16 layer ranked with the target's own
  // values, unsaid (a fresh user's find, 2026-12-06).
  if (target.empty() || !profile.model.empty()) return "";
  std::string wanted(target);
  if (!variant.empty()) wanted.append(".").append(variant);
  std::vector<std::string> sets;
  for (const auto& [key, values] : profile.target_model) {
    const std::string_view name = std::string_view(key).substr(0, key.find('.'));
    if (name != target) continue;
    if (key == wanted) return "";
    sets.push_back(key.find('.') == std::string::npos ? std::string("own") : "'" + key.substr(key.find('.') + 1) + "'");
  }
  if (sets.empty()) return "";
  std::string names;
  for (const std::string& s : sets) names += (names.empty() ? "" : ", ") + s;
  return source + ": model parameters for " + std::string(target) + "'s " + names + " set only: a problem here runs " +
         (variant.empty() ? std::string("the target's own set") : "the '" + std::string(variant) + "' set") +
         ", with its shipped values (calibrate " +
         (variant.empty() ? std::string("it on such problems") : "it with --param-set " + std::string(variant)) + ")";
}

std::string other_target_params_warning(const Profile& profile, std::string_view target, const std::string& source) {
  if (target.empty() || !profile.model.empty() || profile.target_model.empty()) return "";
  std::vector<std::string> others;
  bool covered = false;
  for (const auto& [key, values] : profile.target_model) {
    const std::string_view name = std::string_view(key).substr(0, key.find('.'));
    covered = covered || name == target;
    if (std::find(others.begin(), others.end(), name) == others.end()) others.emplace_back(name);
  }
  if (covered) return "";
  std::string names;
  for (const std::string& o : others) names += (names.empty() ? "" : ", ") + o;
  return source + ": model parameters for " + names + " only: target " + std::string(target) +
         " runs with its own (calibrate it, or give --target " + others.front() + ")";
}

}  // namespace gemm_advisor
