#include <catch2/catch.hpp>

#include <sstream>

#include "gemm_advisor/candidates.hpp"
#include "gemm_advisor/csv_reader.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/shape_list.hpp"
#include "test_util.hpp"

using namespace gemm_advisor;
using test_util::read_all;


TEST_CASE("CSV shape lists: header, optional columns, comments, CRLF, BOM", "[readers]") {
  const auto v = read_all("\xEF\xBB\xBFname,m,n,k,batch,dtype,layout\r\n# comment\r\n\r\nqkv,16,6144,4096,1,bf16,NT\r\n"
                          "\"o, proj\",1,4096,4096,,fp16,NN\r\n",
                          "shapes.csv");
  REQUIRE(v.size() == 2);
  CHECK(v[0].error.empty());
  CHECK(v[0].name == "qkv");
  CHECK(v[0].problem.n == 6144);
  CHECK(v[0].line == 4);
  CHECK(v[1].name == "o, proj");
  CHECK(v[1].problem.batch == 1);
  CHECK(v[1].problem.dtype == Dtype::fp16);
  CHECK(v[1].problem.layout.name() == "NN");
}

TEST_CASE("bad CSV rows carry file:line and do not stop the reader", "[readers][errors]") {
  const auto v = read_all("m,n,k\n1,2,3\n0,2,3\nx,2,3\n4,5,6,7\n4,5,6\n", "s.csv");
  REQUIRE(v.size() == 5);
  CHECK(v[0].error.empty());
  CHECK_THAT(v[1].error, Catch::Contains("s.csv:3:") && Catch::Contains("column 'm': 0 is outside 1.."));
  CHECK_THAT(v[2].error, Catch::Contains("s.csv:4:") && Catch::Contains("'x' is not a whole number"));
  CHECK_THAT(v[3].error, Catch::Contains("s.csv:5:") && Catch::Contains("expected 3 fields"));
  CHECK(v[4].error.empty());
}

TEST_CASE("CSV header problems are fatal with the line", "[readers][errors]") {
  CHECK_THROWS_WITH(read_all("", "e.csv", ShapeFormat::csv), Catch::Contains("e.csv") && Catch::Contains("empty file"));
  CHECK_THROWS_WITH(read_all("m,n\n1,2\n", "h.csv"), Catch::Contains("h.csv:1:") && Catch::Contains("lacks column 'k'"));
  CHECK_THROWS_WITH(read_all("m,n,k,m\n1,2,3,4\n", "d.csv"), Catch::Contains("duplicated column 'm'"));
  // No header at all (a fresh user's candidates file): said so, not "duplicated column '64'".
  CHECK_THROWS_WITH(read_all("64,64,64\n128,128,128\n", "n.csv"),
                    Catch::StartsWith("n.csv:1: the header row is missing: the first row is data ('64,64,64')") &&
                        Catch::Contains("required: m,n,k"));
  CHECK_THROWS_WITH(read_all("m,n,k\n1,2,\"3\n", "q.csv"), Catch::Contains("malformed CSV"));
  // A stray quote swallows the rest of the file: the error names the line where it opened (2), not
  // the last line (4).
  CHECK_THROWS_WITH(read_all("m,n,k\n\"1,2,3\n4,5,6\n7,8,9\n", "q.csv"),
                    Catch::Contains("q.csv:2: malformed CSV: a quoted field opened on this line is never closed"));
  CHECK_THROWS_WITH(read_all(std::string("m,n,k\n1,2\0,3\n", 14), "b.csv"), Catch::Contains("NUL bytes"));
}

TEST_CASE("text, YAML and JSON shape lists", "[readers]") {
  const auto t = read_all("# decode\n1x4096x4096\n\n  16x4096x4096x2  # batched\nabc\n", "s.txt");
  REQUIRE(t.size() == 3);
  CHECK(t[1].problem.batch == 2);
  CHECK(t[1].line == 4);
  CHECK_THAT(t[2].error, Catch::Contains("s.txt:5:"));
  const auto y = read_all("- {m: 1, n: 2, k: 3}\n- {m: 4, n: 5, k: 6, batch: 2, dtype: fp16, name: x}\n- {m: 0, n: 1, k: 1}\n", "s.yaml");
  REQUIRE(y.size() == 3);
  CHECK(y[1].problem.dtype == Dtype::fp16);
  CHECK(y[1].name == "x");
  CHECK_THAT(y[2].error, Catch::Contains("s.yaml:3:") && Catch::Contains("'m' = 0 is outside"));
  const auto j = read_all("[{\"m\": 8, \"n\": 16, \"k\": 32}, \"1x2x3\"]", "s.json");
  REQUIRE(j.size() == 2);
  CHECK(j[0].problem.k == 32);
  CHECK(j[1].problem.n == 2);
  CHECK_THROWS_WITH(read_all("[{\"m\": 8,", "bad.json"), Catch::Contains("bad.json:1: not valid JSON"));
  // Sniffed formats (stdin has no extension).
  CHECK(read_all("m,n,k\n1,2,3\n", "<stdin>")[0].problem.k == 3);
  CHECK(read_all("# c\n7x8x9\n", "<stdin>")[0].problem.m == 7);
  CHECK(read_all("[{\"m\": 1, \"n\": 1, \"k\": 5}]", "<stdin>")[0].problem.k == 5);
}

TEST_CASE("candidates files", "[readers]") {
  const std::string dir = test_util::source_path("tests/data/");
  const auto c = read_candidates_file(dir + "candidates.csv");
  REQUIRE(c.size() == 3);
  CHECK(c[0].block_m == 128);
  CHECK(c[0].group_m == 8);
  CHECK(c[2].split_k == 4);
  CHECK_THROWS_WITH(read_candidates_file(dir + "nope.csv"), Catch::Contains("nope.csv: cannot open"));
  CHECK_THROWS_WITH(read_candidates_file(dir), Catch::Contains("is a directory"));
}

TEST_CASE("unknown CSV columns are reported as warnings, with the header's line", "[readers]") {
  std::istringstream in("# shapes\nm,n,k,bacth\n16,4096,4096,8\n");
  auto reader = open_shape_reader(in, "typo.csv", ShapeFormat::csv, GemmProblem{});
  REQUIRE(reader->warnings().size() == 1);
  CHECK_THAT(reader->warnings()[0], Catch::Contains("typo.csv:2:") && Catch::Contains("unknown column 'bacth'"));
  ShapeEntry e;
  REQUIRE(reader->next(e));
  CHECK(e.problem.batch == 1);  // the misspelled column is not read as batch
  std::istringstream known("name,m,n,k,batch,dtype,layout\nx,1,2,3,1,bf16,NT\n");
  CHECK(open_shape_reader(known, "ok.csv", ShapeFormat::csv, GemmProblem{})->warnings().empty());
}

TEST_CASE("unknown keys of YAML and JSON shape entries are warnings too, once per key at its first line", "[readers]") {
  // They were an error on every entry, where a CSV column is a warning (a fresh user's find, 2026-12-04).
  std::istringstream yaml("- {m: 16, n: 4096, k: 4096, bacth: 8}\n- {m: 32, n: 64, k: 64, bacth: 2}\n");
  auto reader = open_shape_reader(yaml, "typo.yaml", ShapeFormat::yaml, GemmProblem{});
  REQUIRE(reader->warnings().size() == 1);
  CHECK(reader->warnings()[0] ==
        "typo.yaml:1: unknown key 'bacth' ignored (expected m, n, k, batch, dtype, layout, name)");
  ShapeEntry e;
  REQUIRE(reader->next(e));
  CHECK(e.error.empty());
  CHECK(e.problem.batch == 1);  // the misspelled key is not read as batch
  REQUIRE(reader->next(e));
  CHECK((e.error.empty() && e.problem.m == 32));
  std::istringstream json("[{\"m\": 1, \"n\": 2, \"k\": 3, \"note\": \"x\"}]");
  auto jr = open_shape_reader(json, "n.json", ShapeFormat::json, GemmProblem{});
  REQUIRE(jr->warnings().size() == 1);
  CHECK_THAT(jr->warnings()[0], Catch::Contains("n.json:1: unknown key 'note' ignored"));
}

TEST_CASE("unknown columns of a candidates CSV are warnings too, not silently dropped", "[readers]") {
  std::istringstream in("# my kernels\nblock_m,block_n,block_k,num_warps,num_stages,splitk\n64,64,32,4,3,4\n");
  std::vector<std::string> warnings;
  const auto configs = read_candidates(in, "c.csv", &warnings);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "c.csv:2: unknown column 'splitk' ignored (known: block_m, block_n, block_k, num_warps, "
                       "num_stages, group_m, split_k)");
  CHECK(configs.at(0).split_k == 1);  // the misspelled column is not read as split_k
  std::istringstream known("block_m,block_n,block_k,num_warps,num_stages,group_m,split_k,,\n64,64,32,4,3,8,2,,\n");
  warnings = {"stale"};
  read_candidates(known, "ok.csv", &warnings);
  CHECK(warnings.empty());
  // A name lost between two others (a status column emptied by a careless edit: a fresh user's find,
  // 2026-12-05) is said; the trailing padding above is not.
  std::istringstream gap("block_m,block_n,block_k,,num_warps,num_stages\n64,64,32,x,4,3\n");
  read_candidates(gap, "gap.csv", &warnings);
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::StartsWith("gap.csv:1: column 4 of the header has no name: its values are ignored"));
}

namespace {
// A stream buffer over `text` that counts the bytes handed out and can refuse to seek (a pipe).
class CountingBuf : public std::stringbuf {
 public:
  CountingBuf(const std::string& text, bool seekable) : std::stringbuf(text), seekable_(seekable) {}
  std::size_t handed_out = 0;

 protected:
  std::streamsize xsgetn(char* s, std::streamsize n) override {
    const std::streamsize got = std::stringbuf::xsgetn(s, n);
    handed_out += static_cast<std::size_t>(got);
    return got;
  }
  pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode which) override {
    return seekable_ ? std::stringbuf::seekoff(off, dir, which) : pos_type(off_type(-1));
  }
  pos_type seekpos(pos_type pos, std::ios_base::openmode which) override {
    return seekable_ ? std::stringbuf::seekpos(pos, which) : pos_type(off_type(-1));
  }

 private:
  bool seekable_;
};
}  // namespace

TEST_CASE("read_whole_input refuses a seekable input past its bound before reading it", "[readers][errors]") {
  // A 308 MB JSON list was read whole, 532 MB held, before "larger than 256 MiB" (a fresh user's
  // find, 2026-12-07). Bound here 1000 bytes; the inputs are 1001 and 1000 bytes.
  const std::string over(1001, 'x'), at(1000, 'y');
  CountingBuf seekable(over, true);
  std::istream a(&seekable);
  CHECK_THROWS_WITH(read_whole_input(a, "big.json", "read whole", 1000), "big.json: larger than 0 MiB: read whole");
  CHECK(seekable.handed_out == 0);  // told by its size: nothing read
  // A pipe is counted as it comes: refused once past the bound, having read no more than a buffer past it.
  CountingBuf pipe(over, false);
  std::istream b(&pipe);
  CHECK_THROWS_WITH(read_whole_input(b, "-", "read whole", 1000), "-: larger than 0 MiB: read whole");
  CHECK(pipe.handed_out == 1001);
  // At the bound: whole, either way, and from where the stream stands (a sniffed prefix consumed).
  for (const bool seek : {true, false}) {
    CountingBuf buf("##" + at, seek);
    std::istream in(&buf);
    in.ignore(2);
    CHECK(read_whole_input(in, "ok.json", "read whole", 1000) == at);
  }
}
