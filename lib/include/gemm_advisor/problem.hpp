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

/// Elements a contiguous run must be a multiple of for a Triton kernel to load an operand in 16-byte
/// vectors: Triton specialises integer arguments (sizes, strides) on divisibility by 16
/// (triton/runtime/jit.py), so an operand whose contiguous dimension is not a multiple of 16 elements
/// has only element alignment proven and is loaded one element per thread at a time.
constexpr std::int64_t kVectorDivisibility = 16;
/// Whether A's / B's contiguous dimension (A: K, or M where A is stored K x M; B: N, or K where B
/// is stored N x K) is a multiple of kVectorDivisibility elements (the operand is "aligned").
inline bool a_vector_aligned(std::int64_t m, std::int64_t k, const Layout& layout) {
  return (layout.a_transposed ? m : k) % kVectorDivisibility == 0;
}
inline bool b_vector_aligned(std::int64_t n, std::int64_t k, const Layout& layout) {
  return (layout.b_transposed ? k : n) % kVectorDivisibility == 0;
}

/// The layout a Triton kernel compiles for `p`: p.layout, except that A stored K x M with M = 1 is
/// walked along K (as A stored M x K), and B stored K x N with N = 1 along K (as B stored N x K).
/// Triton specialises integer arguments equal to 1 as constants (triton/runtime/jit.py), so at M = 1
/// both of A's strides (stride_am = 1, stride_ak = M = 1) are 1 and its K range has known contiguity:
/// the compile probe of 1x130x6868 (data/measurements/h200-worst-probe.csv) finds TT and NT
/// compiled alike (16x16x256 w2 s5: 255 registers, 128 scalar LDG.E.U16, the same LDS/LDSM). The
/// operand's alignment stays the stored layout's (a_vector_aligned: a row starts at each m, so such
/// an A is unaligned, as the probe's scalar loads show).
inline Layout compiled_layout(const Layout& layout, std::int64_t m, std::int64_t n) {
  Layout out = layout;
  if (m == 1) out.a_transposed = false;
  if (n == 1) out.b_transposed = true;
  return out;
}

/// Largest M, N or K accepted: 2^31 - 1. Larger sizes are rejected with an InputError.
constexpr std::int64_t kMaxDim = 2147483647;
/// Largest batch accepted: 2^24.
constexpr std::int64_t kMaxBatch = 16777216;

/// Which GEMM of a fused-MoE layer a problem is. vLLM's fused_moe runs one layer as two launches of
/// fused_moe_kernel (vllm/model_executor/layers/fused_moe/fused_moe.py), both with the same config:
///  - up:    hidden [M, H] (rows gathered per expert) x w1 [E, 2N, H] -> [M, top_k, 2N]: the problem's
///           m = M tokens, n = 2N, k = H;
///  - down:  act [M * top_k, N] x w2 [E, H, N] -> [M, top_k, H], routed weights applied: m = M, n = H, k = N;
///  - layer: both, one config: m = M, n = N (the intermediate size per tensor-parallel rank), k = H.
/// none: a plain GEMM.
enum class MoeGemm : std::uint8_t { none, up, down, layer };
/// "none", "up", "down", "layer".
std::string_view moe_gemm_name(MoeGemm g);

/// How the M * top_k routed rows spread over the experts (moe.hpp computes what follows):
///  - uniform: as evenly as integers allow (floor or ceil of M * top_k / E rows per expert; with
///    fewer rows than experts, one row each on M * top_k experts);
///  - tuner:   as vLLM's tuner routes (benchmarks/kernels/benchmark_moe.py: softmax of random
///    normal gating logits, then top-k): every expert's row count is Binomial(M, top_k / E), and the
///    model takes its expectation (of the padded blocks, the busiest block, the experts hit);
///  - zipf:    skewed: expert e (0-based) draws a share proportional to 1 / (e + 1)^s of the rows,
///    s = zipf_exponent, at most M rows each (a token visits an expert once).
enum class MoeRouting : std::uint8_t { uniform, tuner, zipf };

/// A fused-MoE problem's routing and quantisation (all zero / none for a plain GEMM).
struct MoeSpec {
  std::int64_t experts = 0;  ///< E, the experts of the layer on this rank; 0: not a MoE problem
  std::int64_t top_k = 0;    ///< experts each token is routed to
  MoeGemm gemm = MoeGemm::none;
  MoeRouting routing = MoeRouting::uniform;
  double zipf_exponent = 0;      ///< routing zipf only: s > 0
  std::int64_t quant_block = 0;  ///< fp8_w8a8 with [b, b] block scales: b (128); 0: per-tensor scales (or none)
};

/// Largest number of experts accepted (vLLM's largest public model has 384).
constexpr std::int64_t kMaxExperts = 65536;

/// The zipf routing exponents accepted: S in [kMinZipfExponent, kMaxZipfExponent]. Input bounds, not
/// physics: below 0.001 the largest and smallest shares differ by at most 1.1% over 65536 experts
/// (1 / (e + 1)^S = exp(-S ln(e + 1)), ln 65537 = 11.1); above 16 the first expert takes every row it
/// can at any expert count.
constexpr double kMinZipfExponent = 0.001;
constexpr double kMaxZipfExponent = 16;

struct GemmProblem {
  std::int64_t m = 0;      ///< rows of A and C
  std::int64_t n = 0;      ///< columns of B and C
  std::int64_t k = 0;      ///< reduction length
  std::int64_t batch = 1;  ///< independent GEMMs of the same shape
  Dtype dtype = Dtype::bf16;
  Layout layout;
  MoeSpec moe;  ///< a fused-MoE problem when moe.gemm != MoeGemm::none (then batch is 1, layout NT)

  bool is_moe() const { return moe.gemm != MoeGemm::none; }
  /// Useful floating-point operations: 2 * M * N * K * batch (as double: no overflow at the limits);
  /// for a MoE GEMM 2 * (M * top_k) * N * K, for a layer the sum of its two GEMMs (6 * M * top_k * N * K).
  double flops() const;
  /// Bytes every kernel must move at least: A and B read once, C written once; for a MoE GEMM the
  /// weights of the experts the routing hits (moe_active_experts), the distinct A rows and C.
  double compulsory_bytes() const;
  /// Bytes the GPU must hold for the problem: compulsory_bytes, except that a MoE GEMM holds the
  /// weights of all its experts, not only of those the routing hits (beyond_memory_warning).
  double resident_bytes() const;
  /// "MxNxK" or "MxNxKxB"; a MoE problem adds "/E{experts}/top{top_k}/{gemm}", e.g. 64x768x2048/E128/top8/layer.
  std::string shape_text() const;
};

/// Parses "MxNxK" or "MxNxKxB" (decimal integers, 'x' or 'X' between them) into m, n, k, batch;
/// dtype and layout are left as given in `base`; surrounding whitespace is ignored. Each dimension must be in [1, kMaxDim], batch in
/// [1, kMaxBatch]. Throws InputError with a message that quotes the text and says what is wrong.
GemmProblem parse_shape(std::string_view text, const GemmProblem& base = GemmProblem{});

/// Checks a problem built by hand (dimensions and batch in range; for a MoE problem experts in
/// [1, kMaxExperts], top_k in [1, experts], batch 1, a zipf exponent in [kMinZipfExponent, kMaxZipfExponent], quant_block 0 or a
/// power of two in [16, 1024] with fp8). Throws InputError.
void validate_problem(const GemmProblem& problem);

}  // namespace gemm_advisor
