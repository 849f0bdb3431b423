#include <catch2/catch.hpp>

#include "gemm_advisor/error.hpp"
#include "gemm_advisor/problem.hpp"

using namespace gemm_advisor;

TEST_CASE("parse_shape reads MxNxK and MxNxKxB", "[problem]") {
  const GemmProblem p = parse_shape("4096x1024x512");
  CHECK(p.m == 4096);
  CHECK(p.n == 1024);
  CHECK(p.k == 512);
  CHECK(p.batch == 1);
  const GemmProblem q = parse_shape("2X3X4X5");
  CHECK(q.batch == 5);
  CHECK(q.shape_text() == "2x3x4x5");
}

TEST_CASE("parse_shape accepts the limits and rejects beyond them", "[problem][limits]") {
  const GemmProblem p = parse_shape("2147483647x2147483647x2147483647x16777216");
  CHECK(p.m == kMaxDim);
  CHECK(p.batch == kMaxBatch);
  // 2MNK*batch at the limits is ~1.6e35: finite in double.
  CHECK(p.flops() == Approx(2.0 * 2147483647.0 * 2147483647.0 * 2147483647.0 * 16777216.0));
  CHECK_THROWS_WITH(parse_shape("2147483648x1x1"), Catch::Contains("exceeds the limit"));
  CHECK_THROWS_WITH(parse_shape("1x1x1x16777217"), Catch::Contains("exceeds the limit"));
  CHECK_THROWS_WITH(parse_shape("99999999999999999999999x1x1"), Catch::Contains("exceeds the limit"));
}

TEST_CASE("parse_shape rejects malformed shapes with a message naming the text", "[problem][errors]") {
  CHECK_THROWS_WITH(parse_shape("4096x0x4096"), Catch::Contains("'4096x0x4096'") && Catch::Contains("at least 1"));
  CHECK_THROWS_WITH(parse_shape("abc"), Catch::Contains("expected MxNxK"));
  CHECK_THROWS_WITH(parse_shape("-1x2x3"), Catch::Contains("not a positive whole number"));
  CHECK_THROWS_WITH(parse_shape("1e20x1x1"), Catch::Contains("not a positive whole number"));
  CHECK_THROWS_WITH(parse_shape("4096x4096"), Catch::Contains("expected MxNxK"));
  CHECK_THROWS_WITH(parse_shape("1x2x3x4x5"), Catch::Contains("expected MxNxK"));
  CHECK_THROWS_WITH(parse_shape("1xx3"), Catch::Contains("N is empty"));
  CHECK_THROWS_WITH(parse_shape(""), Catch::Contains("expected MxNxK"));
  CHECK_THROWS_WITH(parse_shape("1.5x2x3"), Catch::Contains("not a positive whole number"));
}

TEST_CASE("dtype and layout names", "[problem]") {
  CHECK(parse_dtype("bfloat16") == Dtype::bf16);
  CHECK(parse_dtype("FP8") == Dtype::fp8);
  CHECK(dtype_bits(Dtype::fp4) == 4);
  CHECK(output_dtype(Dtype::fp8) == Dtype::bf16);
  CHECK_THROWS_WITH(parse_dtype("int3"), Catch::Contains("unknown dtype 'int3'"));
  const Layout l = parse_layout("tn");
  CHECK(l.a_transposed);
  CHECK_FALSE(l.b_transposed);
  CHECK(l.name() == "TN");
  CHECK_THROWS_WITH(parse_layout("NX"), Catch::Contains("unknown layout"));
}

TEST_CASE("compulsory bytes count A, B once and C once", "[problem]") {
  // Hand calculation: 1x4096x4096 bf16: A 4096*2 + B 4096*4096*2 + C 4096*2 = 33,570,816 bytes.
  const GemmProblem p = parse_shape("1x4096x4096");
  CHECK(p.compulsory_bytes() == Approx(33570816.0));
}
