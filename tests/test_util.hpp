#pragma once
// Helpers shared by the unit tests.
#include <string>

#include "gemm_advisor/hardware.hpp"

namespace test_util {

/// The source tree's root (tests read profiles/ and tests/data/ from it).
inline std::string source_path(const std::string& rel) { return std::string(GEMM_ADVISOR_SOURCE_DIR) + "/" + rel; }

/// tests/data/toy.yaml: a GPU with round numbers (100 SMs, 1 GHz, 1024 FLOP/cycle/SM = 102.4 TFLOP/s,
/// 2 TB/s DRAM, 10 TB/s L2, 128 B/cycle per SM) for hand-computed expectations.
inline gemm_advisor::Hardware toy() { return gemm_advisor::load_hardware(source_path("tests/data/toy.yaml")); }

}  // namespace test_util
