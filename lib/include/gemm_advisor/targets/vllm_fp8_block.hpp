#pragma once
/// The `vllm-fp8-block` target: vLLM's block-scaled w8a8 fp8 GEMM (`_w8a8_triton_block_scaled_mm`,
/// vllm/model_executor/layers/quantization/utils/fp8_utils.py): fp8 e4m3 A [M, K] with one fp32
/// scale per token and 128-wide K group, fp8 B [N, K] with one per 128x128 block, bf16 output,
/// offsets wrapped with % M and % N, the scales loaded and applied every K-step, no split-K.
/// Problems are fp8, layout NT, batch 1.
#include "gemm_advisor/model_params.hpp"
#include "gemm_advisor/target.hpp"

namespace gemm_advisor {

/// The quantization block, [block_n, block_k] = [128, 128]: the block shape of DeepSeek-V3-style
/// FP8 checkpoints and the only one vLLM ships tuned files for (`...,block_shape=[128,128].json`).
constexpr int kVllmFp8QuantBlock = 128;

/// The target (`--target vllm-fp8-block`; `batch --emit vllm` ranks with it).
const Target& vllm_fp8_block_target();

/// Its free-parameter defaults (fitted on its own H200 data; README, "Accuracy").
const ModelParams& vllm_fp8_block_default_params();

/// vLLM's config when no tuned file exists for the (N, K, device): 64x128x128, GROUP_SIZE_M 32,
/// 4 warps, 2 stages (fp8_utils.py, w8a8_triton_block_scaled_mm).
TileConfig vllm_fp8_block_default_config();

}  // namespace gemm_advisor
