#include "gemm_advisor/problem.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gemm_advisor/error.hpp"
#include "gemm_advisor/moe.hpp"
#include "text.hpp"

namespace gemm_advisor {

std::string located(const std::string& source, long line, const std::string& message) {
  // A file name is the user's: a newline in it split the error over two lines (a fresh CI user's
  // find, 2026-12-04).
  // Invisible characters too: a bidi override in a path reordered the message on a terminal
  // (noticed 2026-12-05).
  const std::string where = escape_for_display(source);
  if (line > 0) return where + ":" + std::to_string(line) + ": " + message;
  return where + ": " + message;
}

namespace {

// `text` with each byte for which `escape(byte)` holds written "\xNN" (printable, escape_control).
template <class Escape>
std::string hex_escaped(std::string_view text, Escape escape) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size() + 8);
  for (char ch : text) {
    const auto u = static_cast<unsigned char>(ch);
    if (escape(u)) {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += ch;
    }
  }
  return out;
}

}  // namespace

// The length of the UTF-8 sequence at text[i] when it is well formed and a character safe to show
// in a message line; 0 otherwise (a stray byte, a C1 control, or an invisible character that moves
// or hides text: zero-width U+200B-U+200F, bidi controls U+202A-U+202E and U+2066-U+2069, line and
// paragraph separators U+2028/U+2029, BOM U+FEFF).
static std::size_t shown_utf8_length(std::string_view text, std::size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  const std::size_t length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 0;
  if (length == 0 || text.size() - i < length || !is_valid_utf8(text.substr(i, length))) return 0;
  std::uint32_t cp = lead & (length == 2 ? 0x1f : length == 3 ? 0x0f : 0x07);
  for (std::size_t j = 1; j < length; ++j) cp = (cp << 6) | (static_cast<unsigned char>(text[i + j]) & 0x3f);
  const bool hidden = cp < 0xa0 || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) ||
                      (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff;
  return hidden ? 0 : length;
}

std::string shortened_message(const std::string& message) {
  if (message.size() <= kMaxMessageBytes) return message;
  // A cut never splits a UTF-8 character: it moves back over continuation bytes.
  auto boundary = [&](std::size_t at) {
    while (at > 0 && at < message.size() && (static_cast<unsigned char>(message[at]) & 0xc0) == 0x80) --at;
    return at;
  };
  const std::size_t head = boundary(kMaxMessageBytes * 3 / 4);
  const std::size_t tail = boundary(message.size() - kMaxMessageBytes / 4);
  return message.substr(0, head) + " [... " + std::to_string(tail - head) + " bytes left out ...] " +
         message.substr(tail);
}

std::string printable(std::string_view text, std::size_t max_chars) {
  // Characters (not bytes) up to max_chars: printable ASCII and well-formed, visible UTF-8 as they
  // are (a user's "64×64×64" or "é" was shown as \xc3\x97...: a fresh user's find, 2026-12-05),
  // every other byte as \xNN.
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  std::size_t i = 0, chars = 0;
  for (; i < text.size() && chars < max_chars; ++chars) {
    const auto u = static_cast<unsigned char>(text[i]);
    if (u >= 0x20 && u < 0x7f) {
      out += text[i++];
    } else if (const std::size_t length = u >= 0x80 ? shown_utf8_length(text, i) : 0; length > 0) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
      ++i;
    }
  }
  if (i < text.size()) out += "...";
  return out;
}

std::string escape_control(std::string_view text, bool keep_line_breaks) {
  // Text that is not UTF-8 (a file name of Latin-1 bytes) has its bytes past ASCII escaped too: a raw
  // 0xFF reached the terminal (a fresh user's find, 2026-12-05).
  const bool utf8 = is_valid_utf8(text);
  return hex_escaped(text, [keep_line_breaks, utf8](unsigned char u) {
    const bool line_break = u == '\n' || u == '\r' || u == '\t';
    return (u < 0x20 && !(keep_line_breaks && line_break)) || u == 0x7f || (!utf8 && u >= 0x80);
  });
}

std::string escape_for_display(std::string_view text) {
  // Well-formed UTF-8: what printable() shows, never cut; otherwise every byte past ASCII escaped, as
  // escape_control writes text that is not UTF-8.
  return is_valid_utf8(text) ? printable(text, std::string_view::npos) : escape_control(text);
}

bool is_valid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    if (lead < 0x80) {
      ++i;
      continue;
    }
    // The length of the sequence, and the range of its second byte, which rules out overlong
    // forms (after E0, F0), surrogates (after ED) and code points past U+10FFFF (after F4).
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) {
      length = 2;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead == 0xe0) low = 0xa0;
      if (lead == 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead == 0xf0) low = 0x90;
      if (lead == 0xf4) high = 0x8f;
    } else {
      return false;  // a continuation byte without a lead, C0, C1 or F5..FF
    }
    if (text.size() - i < length) return false;
    const auto second = static_cast<unsigned char>(text[i + 1]);
    if (second < low || second > high) return false;
    for (std::size_t j = 2; j < length; ++j) {
      if ((static_cast<unsigned char>(text[i + j]) & 0xc0) != 0x80) return false;
    }
    i += length;
  }
  return true;
}

void require_utf8(std::string_view text, const std::string& what) {
  if (!is_valid_utf8(text)) throw InputError(what + " must be valid UTF-8 text, got '" + printable(text) + "'");
  if (std::any_of(text.begin(), text.end(), [](char ch) {
        const auto u = static_cast<unsigned char>(ch);
        return u < 0x20 || u == 0x7f;
      }))
    throw InputError(what + " holds a control character, '" + printable(text) + "': a name is one line of text");
}

std::string_view dtype_name(Dtype d) {
  switch (d) {
    case Dtype::fp32: return "fp32";
    case Dtype::fp16: return "fp16";
    case Dtype::bf16: return "bf16";
    case Dtype::fp8: return "fp8";
    case Dtype::fp6: return "fp6";
    case Dtype::fp4: return "fp4";
  }
  return "?";
}

using text::lower;

Dtype parse_dtype(std::string_view text) {
  // torch's names too, as str(tensor.dtype) prints them ("torch.float16", "torch.float8_e4m3fn"):
  // a torch user's spelling was "unknown dtype" (a fresh user's find, 2026-12-04).
  std::string t = lower(text::trim(text));  // blanks around it dropped, as a shape's are
  if (t.rfind("torch.", 0) == 0) t.erase(0, 6);
  if (t == "float8_e4m3fn" || t == "float8_e4m3fnuz" || t == "float8_e5m2" || t == "float8_e5m2fnuz") return Dtype::fp8;
  // Triton's, as str(tl.float8e4nv) prints them (triton/language/core.py: fp8e4nv and fp8e5 are OCP's
  // e4m3fn and e5m2, fp8e4b8 and fp8e5b16 AMD's FNUZ ones): "unknown dtype" though Triton dtypes
  // were said to be taken (a fresh user's find, 2026-12-05); torch's fp4 likewise.
  if (t == "fp8e4nv" || t == "fp8e5" || t == "fp8e4b8" || t == "fp8e5b16") return Dtype::fp8;
  if (t == "float4_e2m1fn_x2") return Dtype::fp4;
  if (t == "fp32" || t == "f32" || t == "float32" || t == "float" || t == "tf32") return Dtype::fp32;
  if (t == "fp16" || t == "f16" || t == "float16" || t == "half") return Dtype::fp16;
  if (t == "bf16" || t == "bfloat16") return Dtype::bf16;
  if (t == "fp8" || t == "f8" || t == "e4m3" || t == "e5m2" || t == "fp8e4m3" || t == "float8" || t == "fp8_w8a8")
    return Dtype::fp8;
  if (t == "fp6" || t == "e2m3" || t == "e3m2") return Dtype::fp6;
  if (t == "fp4" || t == "e2m1" || t == "mxfp4" || t == "nvfp4") return Dtype::fp4;  // both e2m1 elements (their scales are not modelled)
  // The fused-MoE target's own spellings too (its dtype error listed fp32, which it refuses, and not
  // fp8_w8a8, which it takes: a fresh user's find, 2026-12-04); integer types are not modelled.
  throw InputError("unknown dtype '" + printable(text) +
                   "' (expected fp32, fp16, bf16, fp8, fp6 or fp4; the vllm-fused-moe target takes bf16, fp16 or "
                   "fp8_w8a8" + (t.rfind("int", 0) == 0 ? std::string("; integer types are not modelled") : "") + ")");
}

Dtype output_dtype(Dtype d) {
  if (d == Dtype::fp32) return Dtype::fp32;
  if (d == Dtype::fp16) return Dtype::fp16;
  return Dtype::bf16;
}

std::string Layout::name() const {
  return std::string(1, a_transposed ? 'T' : 'N') + (b_transposed ? 'T' : 'N');
}

Layout parse_layout(std::string_view text) {
  // Surrounding blanks dropped, as a shape's are (" NT" was an unknown layout: a fresh user's find).
  const std::string t = lower(text::trim(text));
  if (t.size() == 2 && (t[0] == 'n' || t[0] == 't') && (t[1] == 'n' || t[1] == 't')) {
    return Layout{t[0] == 't', t[1] == 't'};
  }
  throw InputError("unknown layout '" + printable(text) + "' (expected NN, NT, TN or TT)");
}

std::string_view moe_gemm_name(MoeGemm g) {
  switch (g) {
    case MoeGemm::none: return "none";
    case MoeGemm::up: return "up";
    case MoeGemm::down: return "down";
    case MoeGemm::layer: return "layer";
  }
  return "?";
}

double GemmProblem::flops() const {
  const double md = static_cast<double>(m), nd = static_cast<double>(n), kd = static_cast<double>(k);
  if (is_moe()) {
    const double rows = md * static_cast<double>(moe.top_k);
    // A layer: up (2N x H) and down (H x N) over the same routed rows.
    return moe.gemm == MoeGemm::layer ? 6.0 * rows * nd * kd : 2.0 * rows * nd * kd;
  }
  return 2.0 * md * nd * kd * static_cast<double>(batch);
}

namespace {
// A, B and C's bytes; for a MoE GEMM the weights of the experts the routing hits (`all_experts`: of
// every expert), the distinct A rows and C ([M, top_k, N]); a layer sums its two GEMMs.
double problem_bytes(const GemmProblem& p, bool all_experts) {
  const double bits = dtype_bits(p.dtype);
  const double out_bits = dtype_bits(output_dtype(p.dtype));
  const double md = static_cast<double>(p.m), nd = static_cast<double>(p.n), kd = static_cast<double>(p.k);
  if (p.moe.gemm == MoeGemm::layer) {
    const std::array<GemmProblem, 2> g = moe_layer_gemms(p);
    return problem_bytes(g[0], all_experts) + problem_bytes(g[1], all_experts);
  }
  if (p.is_moe()) {
    const MoeRoutingTerms r = moe_routing_terms(p);
    const double experts = all_experts ? static_cast<double>(p.moe.experts) : r.active_experts;
    return ((experts * nd * kd + r.a_rows * kd) * bits + r.routed_rows * nd * out_bits) / 8.0;
  }
  return static_cast<double>(p.batch) * ((md * kd + kd * nd) * bits + md * nd * out_bits) / 8.0;
}
}  // namespace

double GemmProblem::compulsory_bytes() const { return problem_bytes(*this, false); }

double GemmProblem::resident_bytes() const { return problem_bytes(*this, true); }

std::string GemmProblem::shape_text() const {
  std::string s = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  if (batch != 1) s += "x" + std::to_string(batch);
  if (is_moe())
    s += "/E" + std::to_string(moe.experts) + "/top" + std::to_string(moe.top_k) + "/" + std::string(moe_gemm_name(moe.gemm));
  return s;
}

void validate_problem(const GemmProblem& p) {
  const char* names[] = {"M", "N", "K"};
  const std::int64_t dims[] = {p.m, p.n, p.k};
  for (int i = 0; i < 3; ++i) {
    if (dims[i] < 1)
      throw InputError(std::string(names[i]) + " must be at least 1, got " + std::to_string(dims[i]));
    if (dims[i] > kMaxDim)
      throw InputError(std::string(names[i]) + " = " + std::to_string(dims[i]) +
                       " exceeds the largest supported dimension 2147483647 (2^31-1)");
  }
  if (p.batch < 1) throw InputError("batch must be at least 1, got " + std::to_string(p.batch));
  if (static_cast<int>(p.dtype) < 0 || static_cast<int>(p.dtype) >= kDtypeCount)
    throw InputError("dtype " + std::to_string(static_cast<int>(p.dtype)) + " is none of the " +
                     std::to_string(kDtypeCount) + " Dtype values");
  if (p.batch > kMaxBatch)
    throw InputError("batch = " + std::to_string(p.batch) +
                     " exceeds the largest supported batch 16777216 (2^24)");
  if (!p.is_moe()) return;
  const MoeSpec& e = p.moe;
  if (e.experts < 1 || e.experts > kMaxExperts)
    throw InputError("experts = " + std::to_string(e.experts) + " is outside 1.." + std::to_string(kMaxExperts));
  if (e.top_k < 1 || e.top_k > e.experts)
    throw InputError("top_k = " + std::to_string(e.top_k) + " is outside 1..experts (" + std::to_string(e.experts) + ")");
  if (p.batch != 1) throw InputError("a MoE problem has batch 1 (the experts are its groups), got " + std::to_string(p.batch));
  if (p.moe.gemm == MoeGemm::layer && p.n > kMaxDim / 2)
    throw InputError("N = " + std::to_string(p.n) + ": the up GEMM's 2N exceeds the largest supported dimension");
  if (static_cast<double>(p.m) * static_cast<double>(e.top_k) > static_cast<double>(kMaxDim))
    throw InputError("M * top_k = " + std::to_string(p.m) + " * " + std::to_string(e.top_k) +
                     " routed rows exceed the largest supported dimension 2147483647");
  if (e.routing == MoeRouting::zipf && !(e.zipf_exponent >= kMinZipfExponent && e.zipf_exponent <= kMaxZipfExponent))
    throw InputError(fmt::format("routing zipf: the exponent must be in [{:g}, {:g}], got {:g}", kMinZipfExponent,
                                 kMaxZipfExponent, e.zipf_exponent));
  if (e.quant_block != 0) {
    if (p.dtype != Dtype::fp8)
      throw InputError("a block shape goes with fp8_w8a8 (dtype fp8), got " + std::string(dtype_name(p.dtype)));
    if (e.quant_block < 16 || e.quant_block > 1024 || (e.quant_block & (e.quant_block - 1)) != 0)
      throw InputError("block shape " + std::to_string(e.quant_block) + ": a power of two in [16, 1024] expected");
  }
}

GemmProblem parse_shape(std::string_view text, const GemmProblem& base) {
  // Surrounding whitespace is not part of the shape: a line read in Python ("16x4096x4096\n") or a
  // quoted argument (' 16x4096x4096 ') was refused where a text list's line is trimmed (a fresh
  // user's find, 2026-12-04).
  const std::string trimmed = text::trim(text);
  text = trimmed;
  // A pasted multiplication sign (U+00D7 ×, or * ⋅) for the 'x': said, since printable() shows × as
  // \xc3\x97, which hid it (a fresh user's find, 2026-12-04).
  const bool times_sign = text::has_times_sign(text);
  const std::string quoted = "shape '" + printable(text) + "'" +
                             (times_sign ? " (a multiplication sign where x goes)" : "");
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == 'x' || text[i] == 'X') {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  if (text.empty() || parts.size() < 3 || parts.size() > 4)
    throw InputError(quoted + ": expected MxNxK or MxNxKxB (e.g. 4096x4096x4096)");
  const char* names[] = {"M", "N", "K", "batch"};
  std::int64_t values[4] = {0, 0, 0, 1};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string_view part = parts[i];
    if (part.empty()) throw InputError(quoted + ": " + names[i] + " is empty");
    for (char ch : part) {
      if (ch < '0' || ch > '9')
        throw InputError(quoted + ": " + names[i] + " '" + printable(part) +
                         "' is not a positive whole number");
    }
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    const std::int64_t limit = i == 3 ? kMaxBatch : kMaxDim;
    if (ec == std::errc::result_out_of_range || v > limit)
      throw InputError(quoted + ": " + names[i] + " '" + printable(part) + "' exceeds the limit " +
                       std::to_string(limit));
    if (ec != std::errc() || ptr != part.data() + part.size())
      throw InputError(quoted + ": " + names[i] + " '" + printable(part) + "' is not a number");
    if (v < 1) throw InputError(quoted + ": " + names[i] + " must be at least 1, got 0");
    values[i] = v;
  }
  GemmProblem p = base;
  p.m = values[0];
  p.n = values[1];
  p.k = values[2];
  p.batch = values[3];
  return p;
}

}  // namespace gemm_advisor
