#pragma once
/// A GEMM problem: C[b] (M x N) = A[b] (M x K) * B[b] (K x N), for b in [0, batch).
#include <cstdint>
#include <string>
#include <string_view>

namespace gemm_advisor {

/// Input element type of A and B. The output type follows (see output_dtype).
enum class Dtype { fp32, fp16, bf16, fp8, fp6, fp4 };
constexpr int kDtypeCount = 6;

/// "fp32", "fp16", "bf16", "fp8", "fp6", "fp4".
std::string_view dtype_name(Dtype d);
/// Parses a dtype name (also accepts "f32", "float32", "half", "float16", "bfloat16", "e4m3").
/// Throws InputError naming the text when it is none of them.
Dtype parse_dtype(std::string_view text);
/// Bits per element of A and B (32, 16, 16, 8, 6, 4). Inline: the model's per-config checks use it.
constexpr int dtype_bits(Dtype d) {
  switch (d) {
    case Dtype::fp32: return 32;
    case Dtype::fp16:
    case Dtype::bf16: return 16;
    case Dtype::fp8: return 8;
    case Dtype::fp6: return 6;
    case Dtype::fp4: return 4;
  }
  return 16;
}
/// Element type written to C: fp32 for fp32 inputs, fp16 for fp16, bf16 otherwise.
Dtype output_dtype(Dtype d);

/// Storage of A and B, row-major: 'N' = stored as in the math (A is M x K, B is K x N),
/// 'T' = stored transposed (A as K x M, B as N x K). A PyTorch Linear (y = x W^T) is "NT".
struct Layout {
  bool a_transposed = false;
  bool b_transposed = true;
  std::string name() const;
};
/// Parses "NN", "NT", "TN" or "TT" (case-insensitive). Throws InputError otherwise.
Layout parse_layout(std::string_view text);

/// Largest M, N or K accepted: 2^31 - 1. Larger sizes are rejected with an InputError.
constexpr std::int64_t kMaxDim = 2147483647;
/// Largest batch accepted: 2^24.
constexpr std::int64_t kMaxBatch = 16777216;

struct GemmProblem {
  std::int64_t m = 0;      ///< rows of A and C
  std::int64_t n = 0;      ///< columns of B and C
  std::int64_t k = 0;      ///< reduction length
  std::int64_t batch = 1;  ///< independent GEMMs of the same shape
  Dtype dtype = Dtype::bf16;
  Layout layout;

  /// Useful floating-point operations: 2 * M * N * K * batch (as double: no overflow at the limits).
  double flops() const;
  /// Bytes every kernel must move at least: A and B read once, C written once.
  double compulsory_bytes() const;
  /// "MxNxK" or "MxNxKxB".
  std::string shape_text() const;
};

/// Parses "MxNxK" or "MxNxKxB" (decimal integers, 'x' or 'X' between them) into m, n, k, batch;
/// dtype and layout are left as given in `base`. Each dimension must be in [1, kMaxDim], batch in
/// [1, kMaxBatch]. Throws InputError with a message that quotes the text and says what is wrong.
GemmProblem parse_shape(std::string_view text, const GemmProblem& base = GemmProblem{});

/// Checks a problem built by hand (dimensions and batch in range). Throws InputError.
void validate_problem(const GemmProblem& problem);

}  // namespace gemm_advisor
