#pragma once
// Shared pieces of the libFuzzer targets (tests/fuzz/fuzz_*.cpp): the invariants every target
// checks besides "no crash, no sanitizer report, no hang, no leak". A broken invariant aborts,
// which libFuzzer reports as a crash and the replay driver (replay_main.cpp) as a failed test.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "gemm_advisor/model.hpp"
#include "gemm_advisor/problem.hpp"
#include "gemm_advisor/profile.hpp"
#include "gemm_advisor/targets/triton.hpp"

namespace fuzz_util {

/// Aborts with a message when `ok` is false (kept in release builds, unlike assert).
inline void require(bool ok, const char* what, const std::string& detail = "") {
  if (ok) return;
  std::fprintf(stderr, "fuzz invariant broken: %s %s\n", what, detail.c_str());
  std::abort();
}

/// An error or warning message must be one printable line: no newline, no control byte.
inline void require_one_line(std::string_view message) {
  require(!message.empty(), "empty message");
  for (const char ch : message) {
    const auto u = static_cast<unsigned char>(ch);
    require(u >= 0x20 && u != 0x7f, "message is not one printable line:", std::string(message));
  }
}

/// A valid problem: dimensions and batch within the documented limits.
inline void require_valid(const gemm_advisor::GemmProblem& p) {
  require(p.m >= 1 && p.m <= gemm_advisor::kMaxDim, "M out of range");
  require(p.n >= 1 && p.n <= gemm_advisor::kMaxDim, "N out of range");
  require(p.k >= 1 && p.k <= gemm_advisor::kMaxDim, "K out of range");
  require(p.batch >= 1 && p.batch <= gemm_advisor::kMaxBatch, "batch out of range");
}

/// A feasible estimate is finite and positive; an infeasible one is +infinity. Never NaN.
inline void require_sane(const gemm_advisor::Estimate& e, const std::string& what) {
  require(!std::isnan(e.latency_s), "NaN latency:", what);
  if (!e.feasible) return;
  require(std::isfinite(e.latency_s) && e.latency_s > 0, "feasible estimate with a non-finite latency:", what);
  require(!std::isnan(e.flops_per_s) && e.flops_per_s >= 0, "bad FLOP/s:", what);
}

/// The shipped profiles the targets estimate with: one NVIDIA, one AMD (per-XCD L2, MALL).
inline const gemm_advisor::Profile& nvidia() {
  static const gemm_advisor::Profile profile = gemm_advisor::load_profile("h200");
  return profile;
}
inline const gemm_advisor::Profile& amd() {
  static const gemm_advisor::Profile profile = gemm_advisor::load_profile("mi350x");
  return profile;
}

/// One `triton` estimate, building the problem's context.
inline gemm_advisor::Estimate estimate(const gemm_advisor::GemmProblem& p, const gemm_advisor::Profile& profile,
                                       const gemm_advisor::TileConfig& c) {
  const gemm_advisor::Target& t = gemm_advisor::triton_target();
  return t.estimate(t.context(p, profile), c);
}

}  // namespace fuzz_util
