#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gemm_advisor/candidates.hpp"
#include "gemm_advisor/csv_reader.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/hardware.hpp"
#include "gemm_advisor/measurements.hpp"
#include "gemm_advisor/report.hpp"
#include "gemm_advisor/shape_list.hpp"
#include "test_util.hpp"

// Bad input to the readers: each gets one clear, printable line; nothing crashes, hangs or
// passes an empty or cut input off as a result. (The CLI's side: tests/bad_inputs/.)

using namespace gemm_advisor;
using test_util::read_all;

namespace {
bool one_printable_line(const std::string& s) {
  for (const char ch : s)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) return false;
  return !s.empty();
}
std::string toy_text() { return read_text_file(test_util::source_path("tests/data/toy.yaml")); }
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto pos = text.find(from);
  REQUIRE(pos != std::string::npos);
  return text.replace(pos, from.size(), to);
}
std::string profile_error(const std::string& yaml) {
  try {
    parse_profile(yaml, "p.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("dtype, layout and config texts drop surrounding blanks, as a shape's do", "[errors]") {
  // " fp16", " NT" and " 64x64x64:4:3 " were errors where " 64x64x64 " was a shape (a fresh user's find,
  // 2026-12-05); a blank inside one still is.
  CHECK(parse_dtype(" fp16\t") == Dtype::fp16);
  CHECK(parse_layout(" NN ").name() == "NN");
  CHECK(parse_tile_config(" 64x64x64:4:3 ") == parse_tile_config("64x64x64:4:3"));
  CHECK_THROWS_AS(parse_layout("N N"), InputError);
  // Two configs in one text: said so (it was "a 4th part after the block sizes is GROUP_M": a fresh
  // Python user's find, 2026-12-07).
  CHECK_THROWS_WITH(parse_tile_config("64x64x64:4:2\n128x128x64:8:3"),
                    Catch::Contains("a blank or line break inside it: one config an entry"));
  CHECK_THROWS_WITH(parse_tile_config("64x64x64:4:2 128x128x64:8:3"), Catch::Contains("a blank or line break inside it"));
}

TEST_CASE("an error message past 4096 bytes keeps its head and tail, cut between characters", "[errors]") {
  // A 5 MB path made a 5 MB error line (a fresh Python user's find, 2026-12-07).
  const std::string path = "/" + std::string(3000, 'a');
  std::string two_byte;
  for (int i = 0; i < 3000; ++i) two_byte += "\xc3\xa9";  // é, two bytes each: a cut may fall inside one
  const InputError e(path + two_byte + ": cannot open: File name too long");
  const std::string what = e.what();
  CHECK(what.size() <= kMaxMessageBytes + 64);
  CHECK(what.rfind(path.substr(0, 100), 0) == 0);                          // the head
  const std::string reason = "\xc3\xa9: cannot open: File name too long";
  CHECK(what.compare(what.size() - reason.size(), reason.size(), reason) == 0);  // the tail, with the reason
  CHECK_THAT(what, Catch::Contains(" bytes left out ...] "));
  CHECK(is_valid_utf8(what));
  // The count says how much: head 3072 bytes, tail the last 1024 (both moved back to a character's start).
  const std::size_t total = path.size() + two_byte.size() + std::string(": cannot open: File name too long").size();
  const std::size_t left = std::stoul(what.substr(what.find("[... ") + 5));
  CHECK(what.size() - std::string(" [... ").size() - std::to_string(left).size() -
            std::string(" bytes left out ...] ").size() + left ==
        total);
  // A short one is as given.
  CHECK(std::string(InputError("x: bad").what()) == "x: bad");
}

TEST_CASE("printable() escapes control and stray bytes, keeps visible UTF-8, and cuts long text", "[errors]") {
  CHECK(printable("64x64") == "64x64");
  CHECK(printable(std::string("a\nb\0c\x1b", 6)) == "a\\x0ab\\x00c\\x1b");
  // Visible UTF-8 as typed ("é", "64×64": escaped byte by byte before, a fresh user's find, 2026-12-05).
  CHECK(printable("\xc3\xa9") == "\xc3\xa9");
  CHECK(printable("64\xc3\x97" "64") == "64\xc3\x97" "64");
  // A stray byte, a C1 control (U+0085), a bidi override (U+202E) and a BOM stay escaped, byte by byte.
  CHECK(printable("a\xff" "b") == "a\\xffb");
  CHECK(printable("\xc2\x85") == "\\xc2\\x85");
  CHECK(printable("a\xe2\x80\xae" "b") == "a\\xe2\\x80\\xaeb");
  CHECK(printable("\xef\xbb\xbf" "x") == "\\xef\\xbb\\xbfx");
  CHECK(printable(std::string(100, 'x'), 10) == "xxxxxxxxxx...");
  // The cut counts characters and never splits one: 3 two-byte characters of 4.
  CHECK(printable("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 3) == "\xc3\xa9\xc3\xa9\xc3\xa9...");
}

TEST_CASE("escape_for_display() hides nothing: control bytes and invisible characters as \\xNN, uncut", "[errors]") {
  // A path with a right-to-left override (U+202E) reordered the rest of the error line on a terminal
  // (noticed 2026-12-05): messages and table names now escape what printable() escapes, whole.
  CHECK(escape_for_display("a\xe2\x80\xae" "b.csv") == "a\\xe2\\x80\\xaeb.csv");
  CHECK(escape_for_display("x\xe2\x80\x8by") == "x\\xe2\\x80\\x8by");  // zero-width space
  CHECK(escape_for_display("a\nb\x1b") == "a\\x0ab\\x1b");
  CHECK(escape_for_display("64\xc3\x97" "64 \xc3\xa9") == "64\xc3\x97" "64 \xc3\xa9");  // visible UTF-8 kept
  CHECK(escape_for_display("a\xff" "b") == "a\\xffb");  // not UTF-8: every byte past ASCII
  CHECK(escape_for_display(std::string(300, 'x')).size() == 300);  // never cut
  CHECK(located("r\xe2\x80\xae.csv", 3, "bad") == "r\\xe2\\x80\\xae.csv:3: bad");
}

TEST_CASE("an input without shapes is an error in every format", "[readers][errors]") {
  CHECK_THROWS_WITH(read_all("m,n,k\n", "h.csv"), Catch::Contains("h.csv: no shapes"));
  CHECK_THROWS_WITH(read_all("# nothing\nm,n,k\n# still nothing\n", "h.csv"), Catch::Contains("no shapes"));
  CHECK_THROWS_WITH(read_all("", "e.txt"), Catch::Contains("e.txt: no shapes"));
  CHECK_THROWS_WITH(read_all("# only a comment\n\n", "c.txt"), Catch::Contains("no shapes"));
  CHECK_THROWS_WITH(read_all("[]", "e.json"), Catch::Contains("e.json: no shapes"));
  CHECK_THROWS_WITH(read_all("shapes: []\n", "e.yaml"), Catch::Contains("no shapes"));
  // A sniffed input (stdin) with nothing to tell its format by needs no header: text lists have none.
  CHECK_THROWS_WITH(read_all("", "<stdin>"), Catch::Equals("<stdin>: empty input: no shapes"));
  CHECK_THROWS_WITH(read_all("\n  \n", "<stdin>"), Catch::Equals("<stdin>: empty input: no shapes"));
  CHECK_THROWS_WITH(read_all("# nothing\n", "<stdin>"), Catch::Equals("<stdin>: no shapes (only comments and blank lines)"));
  // Where the format says CSV, the header is what is missing.
  CHECK_THROWS_WITH(read_all("", "<stdin>", ShapeFormat::csv), Catch::Contains("expected a header row"));
}

TEST_CASE("an input that cannot be read is a read error, not an empty input", "[readers][errors]") {
  // What std::ifstream's buffer does on a failed read(2): it throws, and istream calls set badbit.
  struct FailingBuffer : std::streambuf {
    int_type underflow() override { throw std::ios_base::failure("read(2) failed"); }
  } buffer;
  std::istream in(&buffer);
  CHECK_THROWS_WITH(open_shape_reader(in, "<stdin>", ShapeFormat::automatic, GemmProblem{}),
                    Catch::Equals("<stdin>: read error"));
}

TEST_CASE("is_valid_utf8 takes well-formed UTF-8 only", "[errors]") {
  CHECK(is_valid_utf8(""));
  CHECK(is_valid_utf8("NVIDIA H200"));
  CHECK(is_valid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf"));  // e-acute, euro, emoji, U+10FFFF
  CHECK_FALSE(is_valid_utf8("NVIDIA \xff\xfe H200"));
  CHECK_FALSE(is_valid_utf8("\x80"));              // a continuation byte without a lead
  CHECK_FALSE(is_valid_utf8("\xc0\x80"));          // overlong NUL
  CHECK_FALSE(is_valid_utf8("\xe0\x80\xaf"));      // overlong '/'
  CHECK_FALSE(is_valid_utf8("\xed\xa0\x80"));      // a UTF-16 surrogate
  CHECK_FALSE(is_valid_utf8("\xf4\x90\x80\x80"));  // past U+10FFFF
  CHECK_FALSE(is_valid_utf8("\xe2\x82"));          // cut short
  CHECK_FALSE(is_valid_utf8("\xe2\x82x"));
  CHECK_THROWS_WITH(require_utf8("a\xff" "b", "'name'"), Catch::Equals("'name' must be valid UTF-8 text, got 'a\\xffb'"));
  CHECK_NOTHROW(require_utf8("caf\xc3\xa9", "'name'"));
}

TEST_CASE("names in shape lists must be valid UTF-8: they go into JSON as they are", "[readers][errors]") {
  const auto c = read_all("name,m,n,k\nbad\xffname,64,64,64\ngood,1,2,3\n", "b.csv");
  REQUIRE(c.size() == 2);
  CHECK(c[0].error == "b.csv:2: column 'name' must be valid UTF-8 text, got 'bad\\xffname'");
  CHECK(c[1].error.empty());
  const auto y = read_all("- {m: 1, n: 1, k: 1, name: \"a\xff" "b\"}\n", "b.yaml");
  CHECK(y.at(0).error == "b.yaml:1: 'name' must be valid UTF-8 text, got 'a\\xffb'");
  CHECK(read_all("name,m,n,k\ncaf\xc3\xa9,1,2,3\n", "ok.csv").at(0).name == "caf\xc3\xa9");
}

TEST_CASE("CSV fields: quoted where needed, control bytes written \\xNN, UTF-8 kept", "[report][errors]") {
  CHECK(csv_field("plain") == "plain");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  // A name with NUL and ESC made a CSV that the CSV readers (this tool's: "contains NUL bytes") refuse.
  CHECK(csv_field(std::string("a\0b\x1b[2J", 7)) == "a\\x00b\\x1b[2J");
  CHECK(csv_field("caf\xc3\xa9") == "caf\xc3\xa9");
}

TEST_CASE("a YAML shape list is one document with one top-level list", "[readers][errors]") {
  // A second document was dropped without a word: 1 shape ranked of 2, exit 0.
  CHECK_THROWS_WITH(read_all("- 64x64x64\n---\n- 128x128x128\n", "two.yaml"),
                    Catch::Contains("two.yaml:3: a second YAML document: a shape list is one document"));
  CHECK(read_all("- 64x64x64\n---\n", "end.yaml").size() == 1);  // an empty second document is fine
  // ... and so was a misspelled second list beside `shapes:`.
  CHECK_THROWS_WITH(read_all("shapes: [64x64x64]\nshapez: [128x128x128]\n", "typo.yaml"),
                    Catch::Contains("typo.yaml:2: unknown key 'shapez' (expected only 'shapes': a second list?)"));
  // A key beside `shapes:` that holds no list (a version, a model's name, an anchor's defaults) is
  // ignored with a warning at its line (it was an error: a fresh user's find, 2026-12-04).
  std::istringstream in("{\"shapes\": [\"64x64x64\"],\n \"extra\": 1}");
  auto reader = open_shape_reader(in, "x.json", ShapeFormat::automatic, GemmProblem{});
  ShapeEntry e;
  std::size_t shapes = 0;
  while (reader->next(e)) ++shapes;
  CHECK(shapes == 1);
  const std::vector<std::string> warnings = reader->warnings();
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "x.json:2: unknown key 'extra' ignored (only 'shapes' is read)");
}

TEST_CASE("whitespace inside a quoted CSV field is data, around an unquoted one it is not", "[readers]") {
  // RFC 4180; '" lead"' lost its space (a fresh user's find, 2026-12-04).
  const auto entries = read_all("name,m,n,k\n\" lead\",8,8,8\n  x  ,8,8,8\n\"a \"\"q\"\" , b \", 8 ,8,8\n", "q.csv");
  REQUIRE(entries.size() == 3);
  CHECK(entries[0].name == " lead");
  CHECK(entries[1].name == "x");
  CHECK(entries[2].name == "a \"q\" , b ");
  CHECK(entries[2].problem.n == 8);
}

TEST_CASE("a CSV record spanning lines is located at the line it begins on", "[readers][errors]") {
  // A quoted name over lines 2-3 with a bad k was reported at line 3, where the record ends (noticed
  // 2026-12-05): an editor shows the record at its first line. The record after it keeps its own line;
  // a quote never closed is still said where it opened.
  const auto entries = read_all("name,m,n,k\n\"two\nlines\",64,64,abc\nok,64,64,64\n", "s.csv");
  REQUIRE(entries.size() == 2);
  CHECK_THAT(entries[0].error, Catch::StartsWith("s.csv:2: column 'k'"));
  CHECK(entries[0].line == 2);
  CHECK(entries[1].error.empty());
  CHECK(entries[1].line == 4);
  CHECK_THROWS_WITH(read_all("name,m,n,k\nok,8,8,8\n\"open,8,8,8\nx,8,8,8\n", "o.csv"),
                    Catch::StartsWith("o.csv:3: malformed CSV: a quoted field opened on this line"));
}

TEST_CASE("a first line 'shapes:' is a YAML list whatever the source's name (stdin, no extension)", "[readers]") {
  // It was read as a CSV header lacking m (a fresh user's find, 2026-12-04); the line is given back
  // to the reader, so lines are counted from it.
  const auto entries = read_all("shapes:\n  - 16x4096x4096\n  - {m: 1, n: 2, k: 3}\n", "<stdin>");
  REQUIRE(entries.size() == 2);
  CHECK(entries[1].problem.k == 3);
  CHECK(entries[1].line == 3);
  // A CSV whose header starts with an 's' is still a CSV.
  const auto csv = read_all("size_note,m,n,k\nx,8,9,10\n", "<stdin>");
  REQUIRE(csv.size() == 1);
  CHECK(csv[0].problem.n == 9);
  CHECK(csv[0].line == 2);
}

TEST_CASE("lists nested deeper than yaml-cpp reads are said to be, not 'not valid JSON: bad file'", "[readers][errors]") {
  // Valid JSON, 1000 lists deep: yaml-cpp stops at about 500 with its message "bad file", which
  // came out as "deep.json:2: not valid JSON: bad file" (a line past the file's one line, too).
  // Flow nesting past 64 levels is refused before any parser builds it (2 MB of '[' took 284 MB: a
  // fresh CI reviewer's find, 2026-12-05), at its line; 64 levels are read.
  const std::string deep = std::string(1000, '[') + std::string(1000, ']') + "\n";
  CHECK_THROWS_WITH(read_all(deep, "deep.json"),
                    Catch::Equals("deep.json:1: lists or mappings nested deeper than 64 levels: not a shape list"));
  CHECK_THROWS_WITH(read_all("[\n" + std::string(64, '[') + std::string(64, ']') + "]\n", "deep.json"),
                    Catch::Contains("deep.json:2: lists or mappings nested deeper than 64 levels"));
  // Brackets inside quoted strings and comments are not nesting.
  CHECK_NOTHROW(read_all("- {m: 64, n: 64, k: 64, name: '" + std::string(100, '[') + "'} # " + std::string(100, '{') +
                             "\n- {m: 32, n: 32, k: 32, name: \"" + std::string(100, '{') + "\\\"\"}\n",
                         "quoted.yaml"));
  std::string block = "shapes:\n  ";  // block style too
  for (int i = 0; i < 1000; ++i) block += "- ";
  CHECK_THROWS_WITH(read_all(block + "1\n", "deep.yaml"), Catch::Contains("deep.yaml: lists or mappings nested too deep"));
  const std::string msg = profile_error("name: x\ncompute: " + deep);
  CHECK(msg == "p.yaml:2: lists or mappings nested deeper than 64 levels: not a profile");
  CHECK(one_printable_line(msg));
}

TEST_CASE("JSON output never throws on invalid UTF-8", "[report][errors]") {
  const nlohmann::json j = {{"display_name", "NVIDIA \xff\xfe H200"}};
  CHECK(json_text(j) == "{\"display_name\":\"NVIDIA \xef\xbf\xbd\xef\xbf\xbd H200\"}");
  CHECK(json_text(j, 2) == "{\n  \"display_name\": \"NVIDIA \xef\xbf\xbd\xef\xbf\xbd H200\"\n}");
  CHECK(json_text(nlohmann::json{{"ok", "caf\xc3\xa9"}}) == nlohmann::json{{"ok", "caf\xc3\xa9"}}.dump());
  nlohmann::ordered_json ordered;  // key order kept
  ordered["z"] = 1;
  ordered["a"] = "\xff";
  CHECK(json_text(ordered) == "{\"z\":1,\"a\":\"\xef\xbf\xbd\"}");
}

TEST_CASE("a header with unnamed columns counts them: trailing commas are fine", "[readers]") {
  const auto v = read_all("m,n,k,\n1,2,3,\n", "t.csv");
  REQUIRE(v.size() == 1);
  CHECK(v[0].error.empty());
  // Once, optional columns after an unnamed one were read past the end of the row.
  const auto w = read_all("m,n,k,,batch\n1,2,3,,4\n5,6,7,\n", "t.csv");
  REQUIRE(w.size() == 2);
  CHECK(w[0].problem.batch == 4);
  CHECK_THAT(w[1].error, Catch::Contains("expected 5 fields as in the header, got 4"));
  std::istringstream candidates("block_m,block_n,block_k,num_warps,num_stages,,split_k\n128,128,64,8,3,,4\n");
  CHECK(read_candidates(candidates, "c.csv").at(0).split_k == 4);
  std::istringstream short_row("block_m,block_n,block_k,num_warps,num_stages,,split_k\n128,128,64,8,3,\n");
  CHECK_THROWS_WITH(read_candidates(short_row, "c.csv"), Catch::Contains("c.csv:2: expected 7 fields"));
}

TEST_CASE("binary and endless inputs fail fast with one line", "[readers][errors]") {
  const std::string binary("m,n,k\n\x01\x02\x00\xff\n", 10);
  CHECK_THROWS_WITH(read_all(binary, "b.csv"), Catch::Contains("b.csv:2: contains NUL bytes"));
  CHECK_THROWS_WITH(read_all(std::string("1x2x3\n\0\0\0\n", 10), "b.txt"), Catch::Contains("b.txt:2: contains NUL bytes"));
  // JSON and JSON Lines name the NUL's line too (the file alone was named: an adversarial user's find,
  // 2026-12-07): line 3 here.
  const std::string jsonl("{\"m\": 1, \"n\": 1, \"k\": 1}\n{\"m\": 2, \"n\": 2, \"k\": 2}\n{\"m\": \0}\n", 59);
  CHECK_THROWS_WITH(read_all(jsonl, "b.jsonl"), Catch::Contains("b.jsonl:3: contains NUL bytes"));
  const std::string long_line = "m,n,k\n" + std::string(kMaxLineBytes + 10, '1');
  CHECK_THROWS_WITH(read_all(long_line, "l.csv"), Catch::Contains("l.csv:2: line longer than 1 MiB"));
  CHECK_THROWS_WITH(read_all(std::string(kMaxLineBytes + 10, '7'), "l.txt"), Catch::Contains("l.txt:1: line longer"));
  // A line of exactly the limit is fine.
  std::istringstream exact(std::string(kMaxLineBytes, 'a') + "\nb");
  std::string line;
  CHECK(read_line(exact, line, kMaxLineBytes) == LineRead::ok);
  CHECK(line.size() == kMaxLineBytes);
  CHECK(read_line(exact, line, kMaxLineBytes) == LineRead::ok);
  CHECK(line == "b");
  CHECK(read_line(exact, line, kMaxLineBytes) == LineRead::end);
}

TEST_CASE("messages quote bad text printably, on one line", "[readers][errors]") {
  const auto v = read_all("m,n,k\n\"6\n4\",1,1\n", "q.csv");
  REQUIRE(v.size() == 1);
  CHECK_THAT(v[0].error, Catch::Contains("'6\\x0a4' is not a whole number"));
  CHECK(one_printable_line(v[0].error));
  const auto t = read_all("64x64x64\x1b[2J\n", "t.txt");
  CHECK(one_printable_line(t.at(0).error));
  CHECK_THAT(t[0].error, Catch::Contains("\\x1b[2J"));
  const auto y = read_all("- {m: 1, n: 1, k: 1, name: \"a\\nb\"}\n", "y.yaml");
  CHECK_THAT(y.at(0).error, Catch::Contains("'name' must be one line"));
  CHECK_THROWS_WITH(parse_shape(std::string(500, '9') + "x1x1"), Catch::Contains("..."));
  try {
    parse_shape(std::string(500, '9') + "x1x1");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).size() < 300);
  }
}

TEST_CASE("YAML and JSON shape lists: wrong types, duplicates, overflow", "[readers][errors]") {
  CHECK_THAT(read_all("- {m: [1, 2], n: 1, k: 1}\n", "w.yaml").at(0).error,
             Catch::Contains("'m' must be a positive whole number, got a list"));
  // null is the default, as an empty CSV cell: m has none (json.dump of a None: a fresh user's find,
  // 2026-12-04), batch's is 1, dtype's and layout's the command's.
  CHECK_THAT(read_all("- {m: ~, n: 1, k: 1}\n", "w.yaml").at(0).error, Catch::Contains("missing 'm' (it is null)"));
  const auto nulls = read_all("[{\"m\": 2, \"n\": 3, \"k\": 4, \"batch\": null, \"dtype\": null, \"layout\": null}]", "n.json");
  REQUIRE(nulls.size() == 1);
  CHECK(nulls[0].error.empty());
  CHECK(nulls[0].problem.batch == 1);
  // Keys whatever their case, as CSV headers; whole numbers in an exponent form; one line's entries
  // told apart by their place in the list.
  const auto upper = read_all("[{\"M\": 1e3, \"N\": 2, \"K\": 3.0}, {\"m\": 1, \"n\": 1}]", "u.json");
  REQUIRE(upper.size() == 2);
  CHECK(upper[0].problem.m == 1000);
  CHECK(upper[0].problem.k == 3);
  CHECK(upper[1].error == "u.json:1: entry 2 of the list: missing 'k'");
  CHECK_THAT(read_all("- {m: 1, n: 1, k: 1, m: 2}\n", "d.yaml").at(0).error, Catch::Contains("duplicate key 'm'"));
  CHECK_THAT(read_all("[{\"m\": 1, \"n\": 1, \"k\": 1.5}]", "f.json").at(0).error,
             Catch::Contains("'k' must be a positive whole number, got '1.5'"));
  // A number beyond a double (nlohmann's out_of_range) is valid JSON: its entry is out of range, the
  // list's others are read (it sank the whole list: a fresh batch user's find, 2026-12-05); a whole
  // number past int64 or past 2^53 in exponent form says so too, not "not a whole number".
  const auto over = read_all("[{\"m\": 1e999, \"n\": 1, \"k\": 1}, {\"m\": 1e308, \"n\": 1, \"k\": 1},\n"
                             " {\"m\": 99999999999999999999, \"n\": 1, \"k\": 1}, {\"m\": 2, \"n\": 1, \"k\": 1}]",
                             "o.json");
  REQUIRE(over.size() == 4);
  CHECK(over[0].error == "o.json:1: entry 1 of the list: 'm' = 1e999 is outside 1..2147483647");
  CHECK(over[1].error == "o.json:1: entry 2 of the list: 'm' = 1e308 is outside 1..2147483647");
  CHECK(over[2].error == "o.json:2: entry 3 of the list: 'm' = 99999999999999999999 is outside 1..2147483647");
  CHECK(over[3].problem.m == 2);
  CHECK_THROWS_WITH(read_all("1e999", "o.json"), Catch::Contains("expected a list of shapes"));
  // The parser's own tag stays out, as the --from-hf reader has it (a lone surrogate showed
  // "[json.exception.parse_error.101]", a fresh user's find, 2026-12-03).
  CHECK_THROWS_WITH(read_all("[{\"m\": 1, \"n\": 1, \"k\": 1, \"dtype\": \"\\ud800\"}]", "s.json"),
                    Catch::Contains("s.json:1: not valid JSON: parse error") && !Catch::Contains("json.exception"));
}

TEST_CASE("candidates and measurements read from streams", "[readers]") {
  std::istringstream c("block_m,block_n,block_k,num_warps,num_stages\r\n64,64,32,4,4\r\n");
  const auto configs = read_candidates(c, "c.csv");
  REQUIRE(configs.size() == 1);
  CHECK(configs[0].num_stages == 4);
  std::istringstream header_only("block_m,block_n,block_k,num_warps,num_stages\n");
  CHECK_THROWS_WITH(read_candidates(header_only, "h.csv"), Catch::Contains("h.csv: no configs"));
  // Triton's spellings (the tutorial's and vLLM's BLOCK_SIZE_M, the masked kernel's BLOCK_M): a config
  // list copied from an autotune list reads as the same configs.
  std::istringstream tutorial("BLOCK_SIZE_M,BLOCK_SIZE_N,BLOCK_SIZE_K,GROUP_SIZE_M,num_warps,num_stages\n"
                              "128,64,32,16,8,3\n");
  const auto named = read_candidates(tutorial, "t.csv");
  REQUIRE(named.size() == 1);
  CHECK(named[0].block_m == 128);
  CHECK(named[0].block_n == 64);
  CHECK(named[0].block_k == 32);
  CHECK(named[0].group_m == 16);
  std::istringstream masked("BLOCK_M,BLOCK_N,BLOCK_K,SPLIT_K,num_warps,num_stages\n64,64,32,2,4,4\n");
  CHECK(read_candidates(masked, "m.csv").at(0).split_k == 2);
  std::istringstream twice("block_m,BLOCK_SIZE_M,block_n,block_k,num_warps,num_stages\n64,64,64,32,4,4\n");
  CHECK_THROWS_WITH(read_candidates(twice, "d.csv"),
                    Catch::Contains("d.csv:1: duplicated column 'block_m' in the header (given as 'BLOCK_SIZE_M')"));
  std::istringstream m("m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms,kernel\n"
                       "64,64,64,16,16,16,2,1,0.5,triton\n64,64,64,,,,,,0.25,cublas\n");
  const auto shapes = read_measurements(m, "m.csv");
  REQUIRE(shapes.size() == 1);
  CHECK(shapes[0].configs.size() == 1);
  CHECK(shapes[0].vendor_ms == 0.25);
  std::istringstream nan_time("m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms\n64,64,64,16,16,16,2,1,nan\n");
  CHECK_THROWS_WITH(read_measurements(nan_time, "n.csv"), Catch::Contains("n.csv:2: column 'ms': 'nan' is not a finite"));
  // Finite but beyond any one GEMM (kMaxMeasuredMs = 1e9 ms): scored, 1e308 printed an inf % of oracle.
  std::istringstream huge_time("m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms\n64,64,64,16,16,16,2,1,1e9\n"
                               "64,64,64,16,16,32,2,1,1.5e9\n");
  CHECK_THROWS_WITH(read_measurements(huge_time, "h.csv"), Catch::Contains("h.csv:3: column 'ms': 1.5e9 is above 1e9 ms"));
  // The candidates' lines, for messages about one config: a repeated config keeps its first line.
  std::istringstream lined("block_m,block_n,block_k,num_warps,num_stages\n# a comment\n64,64,32,4,4\n64,64,32,4,4\n"
                           "128,64,32,4,4\n");
  std::vector<long> lines;
  const auto listed = read_candidates(lined, "l.csv", nullptr, &lines);
  CHECK(listed.size() == 2);
  CHECK(lines == std::vector<long>{3, 5});
}

TEST_CASE("a measurement's GPU: the profile's, a MIG slice of it, or another card of the chip", "[readers]") {
  const std::string h200 = "NVIDIA H200 SXM 141GB";
  CHECK(gpu_matches_profile("NVIDIA H200", "h200", h200));
  // A user's own profile names its GPU's driver name under aliases: (it was refused: a fresh user's find).
  CHECK_FALSE(gpu_matches_profile("My Lab GPU X", "box1", "My Box"));
  CHECK(gpu_matches_profile("My Lab GPU X", "box1", "My Box", {"Other", "My Lab GPU X"}));
  CHECK_FALSE(gpu_matches_profile("My Lab GPU Y", "box1", "My Box", {"My Lab GPU X"}));
  CHECK(gpu_variant("NVIDIA H200", h200).empty());
  CHECK(gpu_variant("NVIDIA H200 MIG 3g.71gb", h200) == "MIG");  // as torch names a MIG instance
  CHECK(gpu_variant("NVIDIA H200 NVL", h200) == "NVL");
  CHECK(gpu_variant("NVIDIA H100 PCIe", "NVIDIA H100 SXM5 80GB") == "PCIe");
  CHECK(gpu_variant("NVIDIA H100 80GB HBM3", "NVIDIA H100 SXM5 80GB").empty());
  CHECK(gpu_variant("NVIDIA H100 SXM5 80GB", "NVIDIA H100 SXM5 80GB").empty());  // the profile's own form factor
  CHECK(gpu_variant("AMD Instinct MI300X", "AMD Instinct MI300X (gfx942)").empty());
  CHECK(gpu_variant("NVIDIA A100-SXM4-80GB", "NVIDIA A100 SXM4 80GB").empty());  // "sxm4", not "sxm": the same
  // The slice's share, as NVIDIA's MIG profile names give it (MIG User Guide, "Supported MIG Profiles").
  CHECK(mig_slice("NVIDIA H200 MIG 3g.71gb").sm_sevenths == 3);
  CHECK(mig_slice("NVIDIA H200 MIG 3g.71gb").memory_bytes == 71e9);
  CHECK(mig_slice("NVIDIA A100-SXM4-80GB MIG 1c.3g.40gb").sm_sevenths == 1);  // a compute instance of a 3g slice
  CHECK(mig_slice("NVIDIA A100-SXM4-80GB MIG 1c.3g.40gb").memory_bytes == 40e9);
  CHECK(mig_slice("MIG-3g.40gb").sm_sevenths == 3);
  CHECK(mig_slice("NVIDIA A100-SXM4-80GB").sm_sevenths == 0);  // no MIG word: the "80gb" is the card's
  CHECK(mig_slice("NVIDIA A100-SXM4-80GB").memory_bytes == 0);
  CHECK(mig_slice("NVIDIA H100 MIG 9g.1gb").sm_sevenths == 0);  // no such profile
}

TEST_CASE("profiles: wrong units get a hint, absurd integers are refused", "[hardware][errors]") {
  CHECK_THAT(profile_error(replaced(toy_text(), "clock_mhz: 1000", "clock_ghz: 1.0")),
             Catch::Contains("missing key 'compute.clock_mhz' (found 'compute.clock_ghz'"));
  CHECK_THAT(profile_error(replaced(toy_text(), "dram_latency_ns: 500", "dram_latency_us: 0.5")),
             Catch::Contains("(found 'memory.dram_latency_us'"));
  CHECK_THAT(profile_error(replaced(toy_text(), "max_num_stages: 6", "max_num_stages: 2000000000")),
             Catch::Contains("'triton.max_num_stages' = 2000000000 is larger than the most plausible 64"));
  // Triton keeps num_stages or num_stages - 1 operand buffers: an offset of 10 (one buffer for every
  // tile, which then never overflows shared memory) and a default stage count above the most the target
  // offers were accepted silently (a fresh user's find, 2026-12-03).
  CHECK_THAT(profile_error(replaced(toy_text(), "smem_stage_offset: 0", "smem_stage_offset: 10")),
             Catch::Contains("'triton.smem_stage_offset' = 10 is larger than the most plausible 1"));
  CHECK_THAT(profile_error(replaced(toy_text(), "smem_stage_offset: 0", "smem_stage_offset: 0\n  default_num_stages: 9")),
             Catch::Contains("'triton.default_num_stages' = 9 is more than 'triton.max_num_stages' = 6"));
  CHECK_THAT(profile_error(replaced(toy_text(), "smem_stage_offset: 0", "smem_stage_offset: 0\n  default_num_warps: 3")),
             Catch::Contains("'triton.default_num_warps' = 3 is not a power of two"));
  CHECK_THAT(profile_error(replaced(toy_text(), "smem_stage_offset: 0", "smem_stage_offset: 0\n  default_num_warps: 64")),
             Catch::Contains("'triton.default_num_warps' = 64 is larger than the most plausible 32"));
  CHECK_THAT(profile_error(replaced(toy_text(), "max_registers_per_thread: 255", "max_registers_per_thread: 2147483647")),
             Catch::Contains("larger than the most plausible"));
  // A 200,000-byte name is refused for its length (since 2026-12-07; it overflowed std::regex's stack
  // once); within the 256 bytes, an upper-case letter is named.
  CHECK_THAT(profile_error(replaced(toy_text(), "name: toy", "name: " + std::string(200000, 'a') + "B")),
             Catch::Contains("'name' is 200001 bytes long: at most 256"));
  CHECK_THAT(profile_error(replaced(toy_text(), "name: toy", "name: " + std::string(200, 'a') + "B")),
             Catch::Contains("'name' must use only lowercase letters"));
  CHECK_THAT(profile_error(replaced(toy_text(), "display_name: Toy GPU (round numbers for tests)",
                                    "display_name: \"two\\nlines\"")),
             Catch::Contains("'display_name' must be one line of text without control characters, got 'two\\x0alines'"));
  const std::string bad_escape = profile_error(replaced(toy_text(), "name: toy", "name: \"\\\x01\""));
  CHECK_THAT(bad_escape, Catch::Contains("not valid YAML"));
  CHECK(one_printable_line(bad_escape));
}

TEST_CASE("load_hardware hands back the warnings of a profile file", "[hardware]") {
  ProfileDiagnostics diag;
  const Profile hw = load_profile(test_util::source_path("tests/bad_inputs/profile-unknown-key.yaml"), &diag);
  CHECK(hw.hw.name == "toy");
  CHECK(diag.errors.empty());
  REQUIRE(diag.warnings.size() == 1);
  CHECK_THAT(diag.warnings[0], Catch::Contains("unknown key 'compute.tensor_core_generation' (ignored)"));
  CHECK_THROWS_WITH(read_text_file("/dev/zero", 1 << 20), Catch::Contains("/dev/zero: larger than 1 MiB"));
  // A regular file over the bound is refused by its size, before it is read (a 270 MB shape list was
  // read, then refused: a fresh user's find, 2026-12-06): a sparse 1 GiB file fails at once.
  const std::filesystem::path big = std::filesystem::temp_directory_path() / "gemm-advisor-sparse-list.txt";
  { std::ofstream(big.string()).put('\n'); }
  std::filesystem::resize_file(big, std::uintmax_t{1} << 30);
  CHECK_THROWS_WITH(read_text_file(big.string(), 1 << 20),
                    Catch::Contains("gemm-advisor-sparse-list.txt: larger than 1 MiB: more than this reader takes whole"));
  std::filesystem::remove(big);
}
