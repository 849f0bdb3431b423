#pragma once
/// The `triton-tutorial` target: Triton's tutorial matmul (python/tutorials/03-matrix-multiplication.py
/// of triton-lang/triton): BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, GROUP_SIZE_M, num_warps,
/// num_stages; offsets wrapped with % M and % N, only K masked, no split-K.
#include "gemm_advisor/model_params.hpp"
#include "gemm_advisor/target.hpp"

namespace gemm_advisor {

/// The target (`--target triton-tutorial`).
const Target& triton_tutorial_target();

/// Its free-parameter defaults (fitted on its own H200 data; README, "Accuracy").
const ModelParams& triton_tutorial_default_params();

}  // namespace gemm_advisor
