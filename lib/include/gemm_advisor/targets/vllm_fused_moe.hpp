#pragma once
/// The `vllm-fused-moe` target: vLLM's fused_moe_kernel (vllm/model_executor/layers/fused_moe/
/// fused_moe.py), the grouped GEMM that runs a MoE layer's experts: A rows gathered through the
/// sorted token ids (moe_align_block_size: each expert's rows padded to a multiple of BLOCK_SIZE_M,
/// padding rows masked), one expert's weights B[e] ([N, K], K contiguous) per BLOCK_SIZE_M block, N
/// offsets wrapped with % N, K masked; bf16/fp16, fp8_w8a8 per tensor (scales in the epilogue) or with
/// [128, 128] block scales (loaded and applied every K-step, as vllm-fp8-block); the routed weights
/// multiplied in the down GEMM's epilogue; no split-K. Problems are MoE problems (moe.hpp).
#include "gemm_advisor/model_params.hpp"
#include "gemm_advisor/target.hpp"

namespace gemm_advisor {

/// The target (`--target vllm-fused-moe`).
const Target& vllm_fused_moe_target();

/// Its free-parameter defaults (fitted on its own H200 data; README, "Accuracy").
const ModelParams& vllm_fused_moe_default_params();

/// vLLM's get_default_config (fused_moe.py) on NVIDIA, the config it runs without a tuned file:
/// fp8_w8a8 with [b, b] block scales: 64 x b x b, GROUP_SIZE_M 32, 4 warps, 3 stages; otherwise
/// M <= E: 16 x 32 x 64, GROUP_SIZE_M 1; else 64 x 64 x 32, GROUP_SIZE_M 8 (these two name no warps
/// or stages: Triton's defaults, 4 warps and 3 stages, apply). `p` is a MoE problem (M = its tokens).
TileConfig vllm_fused_moe_default_config(const GemmProblem& p);

}  // namespace gemm_advisor
