#pragma once
// Reading a YAML (or JSON) list file as exactly one document, with its top-level keys checked.
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "gemm_advisor/error.hpp"

namespace gemm_advisor {

/// A plainer cause of a yaml-cpp error at 1-based line `error_line` of `text`, where one is found on
/// the lines up to it: " (line N indents with a tab: YAML indents with spaces)" for the first line
/// whose indentation holds a tab (yaml-cpp says "illegal map value" or the like), else " (line N holds
/// the control byte \xHH, which YAML text cannot)" for the first byte below 0x20 other than a tab,
/// CR or LF, or DEL (a NUL inside a value was "unknown escape character: d"); else "". Errors are
/// otherwise unchanged: the hint is appended to yaml-cpp's message. `first_line` is added to the line
/// numbers named (text that starts further down a stream), as load_one_document's.
inline std::string yaml_error_hint(std::string_view text, long error_line, long first_line = 0) {
  long line_no = 1;
  std::size_t start = 0;
  std::string control;
  while (start < text.size() && line_no <= error_line) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    const std::size_t indent = line.find_first_not_of(" \t");
    if (indent != std::string_view::npos && line[indent] != '#' && line.substr(0, indent).find('\t') != std::string_view::npos)
      return " (line " + std::to_string(line_no + first_line) + " indents with a tab: YAML indents with spaces)";
    for (std::size_t i = 0; control.empty() && i < line.size(); ++i) {
      const auto c = static_cast<unsigned char>(line[i]);
      if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)  // printable() writes it as \xHH
        control = " (line " + std::to_string(line_no + first_line) + " holds the control byte " +
                  printable(line.substr(i, 1)) + ", which YAML text cannot)";
    }
    start = end + 1;
    ++line_no;
  }
  return control;
}

/// Deepest nesting of flow lists and mappings ([ ], { }) a list or profile may have; the files the
/// advisor reads have 4 at most.
constexpr int kMaxFlowNesting = 64;

/// Throws InputError "source:line: lists or mappings nested deeper than 64 levels: not `what`" when
/// `text` opens more than kMaxFlowNesting flow collections ('[' or '{' outside quoted strings and
/// comments) at once; says nothing otherwise. Run before any parser: yaml-cpp and nlohmann build
/// every level first, 2 MB of '[' took 284 MB (a fresh CI reviewer's find, 2026-12-05). Block
/// (indented) nesting is left to yaml-cpp's own depth limit. `first_line` as load_one_document's.
inline void check_flow_nesting(const std::string& text, const std::string& source, long first_line,
                               const std::string& what) {
  int depth = 0;
  long line = 1;
  char quote = 0;  // the open quoted string's quote character, 0 outside one
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == '\n') ++line;
    if (quote) {
      if (quote == '"' && ch == '\\') ++i;  // an escape: the next character is the string's
      else if (ch == quote && quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') ++i;  // YAML's ''
      else if (ch == quote) quote = 0;
      continue;
    }
    if (ch == '"' || ch == '\'') {
      quote = ch;
    } else if (ch == '#' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n')) {
      const std::size_t end = text.find('\n', i);
      i = (end == std::string::npos ? text.size() : end) - 1;
    } else if (ch == '[' || ch == '{') {
      if (++depth > kMaxFlowNesting)
        throw InputError(located(source, line + first_line,
                                 "lists or mappings nested deeper than " + std::to_string(kMaxFlowNesting) +
                                     " levels: not " + what));
    } else if ((ch == ']' || ch == '}') && depth > 0) {
      --depth;
    }
  }
}

/// The one YAML document of `text` (a Null node when there is none). A second document (after `---`)
/// throws InputError "source:line: a second YAML document: `what` is one document (drop the '---')"
/// (or, without a '---' or '...' line, "a second top-level YAML value: `what` is one YAML list ..."):
/// a plain YAML::Load read the first and dropped the rest without a word (a shape list's later
/// shapes were never ranked, and the run said it had ranked them all). `first_line` is added to the
/// line numbers (text that starts further down a stream). Lists and mappings nested deeper than
/// yaml-cpp's limit throw InputError "source: lists or mappings nested too deep ...: not `what`"
/// (yaml-cpp's own message, "bad file", was passed on as "not valid JSON: bad file" for valid JSON).
/// Any other YAML::Exception passes through. `second_value_message`, when not empty, replaces the
/// second top-level value's message after its location (a reader that knows what such text is).
inline YAML::Node load_one_document(const std::string& text, const std::string& source, long first_line,
                                    const std::string& what, const std::string& second_value_message = {}) {
  check_flow_nesting(text, source, first_line, what);
  std::vector<YAML::Node> documents;
  try {
    documents = YAML::LoadAll(text);
  } catch (const YAML::DeepRecursion&) {
    // No line: yaml-cpp marks where its scanner had read to (the end of a one-line JSON file).
    throw InputError(source + ": lists or mappings nested too deep (yaml-cpp stops at about 500 levels): not " +
                     what);
  }
  if (documents.size() > 1 && !documents[1].IsNull()) {
    // Without a document marker (a line starting '---' or '...'), yaml-cpp starts a new document at a
    // second top-level value: plain lines with a comment between them (a fresh user's text list
    // named .yaml) were told to drop a '---' they did not have.
    bool marker = false;
    for (std::size_t at = 0; at < text.size() && !marker;) {
      marker = text.compare(at, 3, "---") == 0 || text.compare(at, 3, "...") == 0;
      const std::size_t end = text.find('\n', at);
      at = end == std::string::npos ? text.size() : end + 1;
    }
    throw InputError(located(source, documents[1].Mark().line + 1 + first_line,
                             marker                          ? "a second YAML document: " + what + " is one document (drop the '---')"
                             : !second_value_message.empty() ? second_value_message
                                                             : "a second top-level YAML value: " + what +
                                                                   " is one YAML list (write each entry as '- ...'; plain lines are a "
                                                                   "text list, read as such from a .txt file or with --input-format text)"));
  }
  return documents.empty() ? YAML::Node() : documents.front();
}

/// The list under `key` of a mapping root ({"shapes": [...]}), or `root` itself when it is not a
/// mapping with that key. Another key of such a mapping whose value is a list throws InputError
/// "source:line: unknown key 'NAME' (expected only 'KEY')": a misspelled second list was dropped
/// without a word; so does a second KEY ("duplicate key 'KEY'"). One whose value is not a list (a version, a model name, a YAML anchor's
/// defaults) is ignored with a warning "source:line: unknown key 'NAME' ignored ..." in `warnings`
/// (it was an error: a fresh user's find, 2026-12-04); without `warnings`, an error as well.
inline YAML::Node list_under(const YAML::Node& root, const std::string& key, const std::string& source,
                             long first_line, std::vector<std::string>* warnings = nullptr) {
  if (!root.IsMap() || !root[key]) return root;
  bool seen = false;
  for (const auto& kv : root) {
    const std::string name = kv.first.IsScalar() ? kv.first.Scalar() : "";
    const long line = kv.first.Mark().line + 1 + first_line;
    if (name == key) {
      // yaml-cpp keeps both and root[key] is the first: the second list's entries were dropped
      // without a word (a fresh user's find, 2026-12-05).
      if (seen) throw InputError(located(source, line, "duplicate key '" + key + "' (one list: merge them)"));
      seen = true;
      continue;
    }
    if (warnings && !kv.second.IsSequence()) {
      warnings->push_back(located(source, line, "unknown key '" + printable(name) + "' ignored (only '" + key +
                                                    "' is read)"));
      continue;
    }
    throw InputError(located(source, line, "unknown key '" + printable(name) + "' (expected only '" + key + "'" +
                                               (kv.second.IsSequence() ? ": a second list?" : "") + ")"));
  }
  return root[key];
}

/// Whether entry `i` of the list `list` shares its line with a neighbour (json.dump writes a whole
/// list on one line): its place in the list then goes into a message too (entry_place), as a line
/// alone does not find the bad one of 1000.
inline bool entry_shares_line(const YAML::Node& list, std::size_t i) {
  const int row = list[i].Mark().line;
  return (i > 0 && list[i - 1].Mark().line == row) || (i + 1 < list.size() && list[i + 1].Mark().line == row);
}

/// What a YAML merge key ('<<: *anchor', YAML 1.1) gets: yaml-cpp reads it as a key named '<<', so
/// the merged keys were "unknown key '<<'" and then missing (a fresh user's find, 2026-12-04).
inline constexpr char kMergeKeyMessage[] =
    "a YAML merge key ('<<: *anchor') is not supported (it is read as a key named '<<'): write the keys out; "
    "plain anchors and aliases (&name, *name) work";

}  // namespace gemm_advisor
