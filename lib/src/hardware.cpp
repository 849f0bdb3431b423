#include "gemm_advisor/hardware.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

#include "gemm_advisor/error.hpp"
#include "text.hpp"

namespace gemm_advisor {


double Hardware::peak_flops_per_s(Dtype d) const {
  const MatrixRate* r = rate(d);
  return r ? cu_count * r->flops_per_cycle_per_cu * clock_hz : 0.0;
}

void use_cu_count(Hardware& hw, int cu_count) {
  const int product = hw.product_cu_count > 0 ? hw.product_cu_count : hw.cu_count;
  if (cu_count < 1 || cu_count > product)
    throw InputError("CU count " + std::to_string(cu_count) + " is outside 1.." + std::to_string(product) + " (" +
                     hw.name + " has " + std::to_string(product) + " CUs)");
  hw.product_cu_count = product;
  if (hw.product_display_name.empty()) hw.product_display_name = hw.display_name;
  if (hw.product_xcd_count == 0) hw.product_xcd_count = hw.xcd_count;
  hw.cu_count = cu_count;
  hw.xcd_count = std::min(hw.product_xcd_count, cu_count);
  hw.display_name = hw.product_display_name;
  if (cu_count != product)
    hw.display_name += " (" + std::to_string(cu_count) + " of " + std::to_string(product) + " CUs)";
}

std::string beyond_memory_warning(const GemmProblem& p, const Hardware& hw) {
  // Predicted as given, but said (131072^3 on an 80 GB A100 was predicted unsaid: a fresh user's find,
  // 2026-12-04; the Python module said nothing until 2026-12-06). A fused-MoE layer holds every
  // expert's weights, not only those its tokens reach (compulsory_bytes: a 4096-expert layer of 1.65 TB
  // warned at 4096 tokens, not at 1: a fresh user's find, 2026-12-06).
  const double bytes = p.resident_bytes();
  if (!(hw.dram_bytes > 0 && bytes > hw.dram_bytes)) return "";
  const auto gb = [](double b) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", b / 1e9);
    return std::string(text);
  };
  if (p.is_moe())
    return "the layer's weights (all " + std::to_string(p.moe.experts) + " experts), tokens and outputs take " +
           gb(bytes) + " GB, more than " + hw.name + "'s " + gb(hw.dram_bytes) + " GB of memory: no one GPU holds it";
  return "A, B and C take " + gb(bytes) + " GB, more than " + hw.name + "'s " + gb(hw.dram_bytes) +
         " GB of memory: no one GPU runs it as one GEMM";
}

std::string dtype_format_warning(std::string_view dtype_text, const Hardware& hw, bool* another_gpu) {
  std::string t = text::lower(dtype_text);
  if (t.rfind("torch.", 0) == 0) t.erase(0, 6);
  const bool gfx942 = hw.isa.rfind("gfx94", 0) == 0;
  // Rows of such a dtype could come from another GPU, where the GPU lacks what was asked; not where
  // no GPU has it (fp6 in Triton) or this one has it unmodelled (gfx942's XF32).
  if (another_gpu) *another_gpu = true;
  // A GPU without TF32 (CDNA 4 dropped XF32) runs a tf32 request as true fp32, at the fp32 rate.
  // gfx942 (CDNA 3) has XF32, but Triton-HIP computes fp32 dots in IEEE fp32 unless asked (HIPOptions:
  // default_dot_input_precision 'ieee'), and the profiles give fp32 that default's rate.
  if (t == "tf32" || t == "xf32")
    if (const MatrixRate* fp32 = hw.rate(Dtype::fp32); fp32 && !fp32->tf32) {
      if (!gfx942)
        return "dtype " + std::string(dtype_text) + ": " + hw.name + " (" + (hw.isa.empty() ? hw.arch : hw.isa) +
               ") has no TF32 matrix path: ranked as fp32 at its fp32 rate";
      if (another_gpu) *another_gpu = false;
      return "dtype " + std::string(dtype_text) + ": " + hw.name + "'s XF32 path (input_precision='tf32', 4x the IEEE " +
             "fp32 rate) is not modelled: ranked at the IEEE fp32 rate, Triton-HIP's default, so a kernel that asks " +
             "for tf32 may run up to 4x faster than predicted";
    }
  // nvfp4 (e2m1 in blocks of 16, fp8 scales) is NVIDIA's block format; AMD's fp4 is mxfp4.
  if (t == "nvfp4" && hw.vendor == "amd" && hw.rate(Dtype::fp4))
    return "dtype nvfp4 is NVIDIA's fp4 block format (e2m1 in blocks of 16 with fp8 scales); " + hw.name +
           " computes mxfp4 (blocks of 32, e8m0 scales): ranked as its fp4, the scales not modelled";
  // No Triton kernel takes fp6: tl.dot_scaled's operand formats are e2m1, e4m3, e5m2, bf16 and fp16
  // (triton/language/semantic.py, dot_scaled: "NYI" for the others); every target is a Triton kernel.
  if ((t == "fp6" || t == "e2m3" || t == "e3m2") && hw.rate(Dtype::fp6)) {
    if (another_gpu) *another_gpu = false;
    return "dtype " + std::string(dtype_text) + ": Triton's tl.dot_scaled takes e2m1, e4m3, e5m2, bf16 and fp16 " +
           "operands, not fp6: ranked on " + hw.name + "'s fp6 matrix path, which no Triton kernel reaches";
  }
  // torch's names and Triton's (fp8e4b8 and fp8e5b16 are FNUZ, fp8e4nv and fp8e5 OCP: triton/language/core.py).
  const bool fnuz = t == "float8_e4m3fnuz" || t == "float8_e5m2fnuz" || t == "fp8e4b8" || t == "fp8e5b16";
  const bool ocp = t == "float8_e4m3fn" || t == "float8_e5m2" || t == "fp8e4nv" || t == "fp8e5";
  if ((!fnuz && !ocp) || !hw.rate(Dtype::fp8)) return "";
  if (fnuz == gfx942) return "";
  return "dtype " + std::string(dtype_text) + " is " + (fnuz ? "the FNUZ fp8 encoding of CDNA 3 (gfx942)" : "an OCP fp8 encoding") +
         ", but " + hw.name + " (" + (hw.isa.empty() ? hw.arch : hw.isa) + ") computes " +
         (gfx942 ? "FNUZ fp8 only (float8_e4m3fnuz, float8_e5m2fnuz)" : "OCP fp8 (float8_e4m3fn, float8_e5m2)") +
         ": ranked as its fp8, but a kernel built for the other encoding converts it or is refused";
}

std::string peak_tflops_text(double peak_flops_per_s) {
  const double tflops = peak_flops_per_s / 1e12;
  char text[32];
  std::snprintf(text, sizeof text, tflops >= 100 ? "%.0f" : "%.3g", tflops);
  return text;
}

std::string profile_file_note(const Hardware& hw) {
  const bool from_file = !hw.source.empty() && hw.source.rfind("embedded:", 0) != 0;
  return from_file ? " [profile " + escape_for_display(hw.source) + "]" : std::string();
}

std::string hardware_heading(const Hardware& hw) { return hw.display_name + profile_file_note(hw); }

std::string hardware_label(const Hardware& hw) {
  if (hw.product_cu_count <= 0 || hw.cu_count == hw.product_cu_count) return hw.name;
  return hw.name + " (" + std::to_string(hw.cu_count) + " of " + std::to_string(hw.product_cu_count) + " CUs)";
}

void check_readable_file(const std::string& path) {
  // An empty argument ('' from an unset shell variable) printed ": cannot open: ..." with no name.
  if (path.empty()) throw InputError("'': an empty file name (an unset shell variable?)");
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw InputError(located(path, 0, std::string("cannot open: ") + std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) throw InputError(located(path, 0, "is a directory, expected a file"));
  // Permission only, without opening: opening a named pipe would wait for its writer, and a second
  // open by the reader that follows would then wait for another (batch on a FIFO hung that way).
  if (::access(path.c_str(), R_OK) != 0) throw InputError(located(path, 0, std::string("cannot open: ") + std::strerror(errno)));
}

std::string read_text_file(const std::string& path, std::size_t max_bytes) {
  check_readable_file(path);
  const auto too_large = [&] {
    return InputError(located(path, 0, "larger than " + std::to_string(max_bytes >> 20) +
                                           " MiB: more than this reader takes whole"));
  };
  // A regular file's size is known before it is read (a 270 MB list was read, 540 MB held, then
  // refused: a fresh user's find, 2026-12-06); a pipe or FIFO is counted as it comes.
  if (struct stat st {}; ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
                         static_cast<std::uint64_t>(st.st_size) > max_bytes)
    throw too_large();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(located(path, 0, std::string("cannot open: ") + std::strerror(errno)));
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes) throw too_large();
  }
  if (in.bad()) throw InputError(located(path, 0, "read error"));
  return text;
}

}  // namespace gemm_advisor
