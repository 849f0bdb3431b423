#pragma once
/// Fused-MoE problems (target `vllm-fused-moe`): what the routing of M tokens to E experts gives the
/// kernel (rows per expert, padded BLOCK_SIZE_M blocks, experts hit), the two GEMMs of a layer, and
/// MoE model lists (`batch --target vllm-fused-moe`: CSV, YAML or JSON; or a Hugging Face
/// config.json) with the names vLLM gives their tuned-config files.
///
/// vLLM's moe_align_block_size (vllm/model_executor/layers/fused_moe/moe_align_block_size.py and its
/// CUDA op) sorts the M * top_k routed rows by expert and pads each expert's count up to a multiple
/// of BLOCK_SIZE_M; fused_moe_kernel then runs one program per (padded block, BLOCK_SIZE_N tile),
/// each block multiplying its rows by its own expert's weights. The padding rows are masked loads
/// but full matrix work: the waste the model counts.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gemm_advisor/problem.hpp"

namespace gemm_advisor {

/// The routing of a MoE GEMM as the kernel sees it, for every power-of-two BLOCK_SIZE_M 8..1024
/// (index block_index(block_m), as EstimateContext::block_terms). Expected values under
/// MoeRouting::tuner (fractional), exact otherwise.
struct MoeRoutingTerms {
  double routed_rows = 0;      ///< M * top_k rows, over all experts
  double active_experts = 0;   ///< experts with at least one row
  double a_rows = 0;           ///< distinct rows of A the GEMM reads: M tokens (up), M * top_k (down)
  double busiest_expert_rows = 0;  ///< rows of the expert with the most
  std::array<double, 8> blocks{};        ///< BLOCK_SIZE_M blocks after padding, summed over the experts
  std::array<double, 8> busiest_rows{};  ///< rows of the fullest block: min(block_m, busiest_expert_rows)
};

/// The routing terms of a MoE problem (p.is_moe(); validated). Tuner routing sums the Binomial(M,
/// top_k / E) distribution of one expert's rows over its bulk (12 standard deviations each side),
/// so it costs O(sqrt(M)) per problem.
MoeRoutingTerms moe_routing_terms(const GemmProblem& p);

/// Experts whose weights a MoE problem reads (MoeRoutingTerms::active_experts).
double moe_active_experts(const GemmProblem& p);

/// The two GEMMs of a layer problem (gemm = layer: m tokens, n = N, k = H): {up (n = 2N, k = H),
/// down (n = H, k = N)}, routing and dtype as the layer's.
std::array<GemmProblem, 2> moe_layer_gemms(const GemmProblem& layer);

/// "uniform", "tuner" or "zipf:S" (S in [kMinZipfExponent, kMaxZipfExponent], e.g. zipf:1.2) into p.moe.routing and zipf_exponent.
/// Throws InputError quoting the text.
void parse_moe_routing(std::string_view text, MoeSpec& moe);
/// The text parse_moe_routing reads ("zipf:1.2").
std::string moe_routing_text(const MoeSpec& moe);

/// One MoE model as a model list gives it: the layer's experts and sizes before tensor parallelism.
struct MoeModel {
  std::string name;              ///< a label (the list's `name`, the config's model type); may be empty
  std::int64_t experts = 0;      ///< E (routed experts; shared experts run as a plain GEMM, not here)
  std::int64_t top_k = 0;        ///< experts per token
  std::int64_t hidden = 0;       ///< H
  std::int64_t intermediate = 0; ///< I, the expert's intermediate size (before tensor parallelism)
  std::int64_t tp = 1;           ///< tensor-parallel ranks: each holds N = I / tp of every expert
  Dtype dtype = Dtype::bf16;     ///< bf16, fp16, or fp8 (vLLM's fp8_w8a8)
  std::string dtype_text;        ///< the dtype as the list, config or --dtype wrote it ("" where defaulted), e.g.
                                 ///< "float8_e4m3fnuz": which encoding or format (dtype_format_warning)
  std::int64_t quant_block = 0;  ///< fp8 with [b, b] block scales: b; 0: per-tensor scales
  long line = 0;                 ///< where the list gives it (0: not from a list)
  long entry = 0;                ///< its place (1-based) in a JSON/YAML list whose entries share its line, as
                                 ///< json.dump writes a list on one line; 0 where the line alone places it
  std::string error;             ///< a bad list entry (read_moe_models with keep_bad): why, after its place

  /// N, the intermediate size per rank.
  std::int64_t n_per_rank() const { return intermediate / tp; }
  /// The layer problem for M tokens with a routing (MoeGemm::layer, layout NT).
  GemmProblem layer(std::int64_t tokens, const MoeSpec& routing) const;
};

/// Checks a model (sizes positive, top_k <= experts, tp divides the intermediate size, fp8 for a
/// block shape, 16-bit or fp8 dtype). Throws InputError with `where` ("file:line: ") first.
void validate_moe_model(const MoeModel& m, const std::string& where);

/// "bf16", "fp16", "fp8_w8a8" (also "fp8", "bfloat16", "float16"): the dtype; fp32 and narrower
/// than fp8 are refused (vLLM's fused_moe takes neither). Throws InputError.
Dtype parse_moe_dtype(std::string_view text);
/// "128x128", "[128,128]" or "[128, 128]": the block b of [b, b] scales (both equal: vLLM's tuned
/// files and its kernel use square groups); "" -> 0. Throws InputError.
std::int64_t parse_block_shape(std::string_view text);

/// Reads a model list: CSV with a header (experts, top_k, hidden, intermediate, and optional dtype
/// (bf16), tp (1), block_shape, name), or YAML / JSON (a list of mappings with those keys, or a
/// mapping with a `models:` list); the format from the extension, else sniffed; "-" reads standard
/// input (sniffed; messages name it "<stdin>"). Throws InputError
/// "path:line: ..." for a bad entry (every entry is checked: a model list is short) or an empty list.
/// A column or key it does not know is a warning ("path:line: unknown column 'X' ignored ..."),
/// into `warnings` when given. With `keep_bad`, a bad entry does not throw: it is returned in its
/// place with `error` set ("path:line: ..."; its other fields are not valid), so that a caller can
/// go on past it (batch --keep-going) or stop there; a list it cannot read at all still throws.
std::vector<MoeModel> read_moe_models(const std::string& path, std::vector<std::string>* warnings = nullptr,
                                      bool keep_bad = false);

/// A model from a Hugging Face config.json: experts from `num_local_experts`, `n_routed_experts` or
/// `num_experts`; top_k from `num_experts_per_tok` (or `experts_per_token`); `hidden_size`;
/// intermediate from `moe_intermediate_size`, else `intermediate_size`; a nested `text_config`
/// (Llama-4) is read instead when present. fp8 with `quantization_config.weight_block_size` [b, b]
/// when `quant_method` is fp8, else bf16 (fp16 for `torch_dtype` float16); `dtype_override` (non-empty:
/// the user's --dtype) wins; where it drops the config's fp8 quantisation, `warnings` (when given)
/// receives a line saying so. `path` "-" reads stdin (named "stdin" in errors). Throws InputError naming
/// the file and the missing key.
MoeModel moe_model_from_hf_config(const std::string& path, std::int64_t tp, const std::string& dtype_override = "",
                                  std::vector<std::string>* warnings = nullptr);

/// vLLM's dtype selector for a model: "fp8_w8a8" for fp8, "" for 16-bit (get_config_dtype_str).
std::string vllm_moe_dtype(const MoeModel& m);

/// The device name vLLM's fused-MoE files carry for a device named `device_name` (file-name form,
/// "NVIDIA_H200_NVL"): one file serves the H200 family, so a name with an "H200" part between
/// underscores is "NVIDIA_H200" (vLLM's get_config_file_name, fused_moe.py); others unchanged. The
/// block-fp8 GEMM's files keep the full name (get_w8a8_block_fp8_configs has no such rule).
std::string vllm_moe_device_name(const std::string& device_name);

/// "E={E},N={N},device_name={device}[,dtype=fp8_w8a8][,block_shape=[b,b]].json", exactly as vLLM's
/// get_config_file_name (fused_moe.py) names the file it looks for (the device through
/// vllm_moe_device_name).
std::string vllm_moe_config_file_name(std::int64_t experts, std::int64_t n, const std::string& device_name,
                                      const std::string& vllm_dtype, std::int64_t quant_block);

}  // namespace gemm_advisor
