// The fused-MoE options of rank, explain and batch (`--target vllm-fused-moe`).
#include <charconv>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "cli.hpp"
#include "gemm_advisor/error.hpp"

namespace cli {

void add_moe_options(CLI::App* cmd, MoeOptions& o, bool layer) {
  if (layer) {
    o.options.push_back(cmd->add_option("--experts", o.experts, "vllm-fused-moe: experts E of the layer")
                            ->transform(whole_number_validator())->check(CLI::Range(std::int64_t{1}, gemm_advisor::kMaxExperts)));
    o.options.push_back(cmd->add_option("--top-k", o.top_k, "vllm-fused-moe: experts per token")
                            ->transform(whole_number_validator())->check(CLI::Range(std::int64_t{1}, gemm_advisor::kMaxExperts)));
    o.options.push_back(cmd->add_option("--hidden", o.hidden, "vllm-fused-moe: hidden size H")
                            ->transform(whole_number_validator())->check(CLI::Range(std::int64_t{1}, gemm_advisor::kMaxDim)));
    o.options.push_back(cmd->add_option("--intermediate", o.intermediate,
                                        "vllm-fused-moe: the expert's intermediate size I (N = I / tp per rank)")
                            ->transform(whole_number_validator())->check(CLI::Range(std::int64_t{1}, gemm_advisor::kMaxDim / 2)));
    o.options.push_back(cmd->add_option("--gemm", o.gemm,
                                        "vllm-fused-moe: layer (both launches, one config, as vLLM runs them), up or down")
                            ->capture_default_str()
                            ->transform(CLI::IsMember({"layer", "up", "down"}, CLI::ignore_case)));
    o.options.push_back(cmd->add_option("--block-shape", o.block_shape,
                                        "vllm-fused-moe, fp8: block-scale shape, e.g. 128x128 (default: per-tensor scales)")
                            ->check(non_empty_validator())
                            ->check(block_shape_validator()));
  }
  o.options.push_back(cmd->add_option("--from-hf", o.from_hf,
                                      "vllm-fused-moe: a Hugging Face config.json giving experts, top_k, hidden and "
                                      "intermediate (and fp8 block quantisation); - reads it from stdin")
                          ->check(non_empty_validator()));
  o.options.push_back(cmd->add_option("--tp", o.tp, "vllm-fused-moe: tensor-parallel size (N = I / tp)")
                          ->capture_default_str()
                          ->transform(whole_number_validator())->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20)));
  o.options.push_back(cmd->add_option("--routing", o.routing,
                                      "vllm-fused-moe: how tokens spread over experts: tuner (or random: random logits, as "
                                      "vLLM's benchmark_moe.py routes), uniform (perfectly balanced) or zipf:S "
                                      "(skewed, e.g. zipf:1.2)")
                          ->capture_default_str()
                          ->check(moe_routing_validator()));
}

bool moe_options_given(const MoeOptions& o) {
  for (const CLI::Option* opt : o.options) {
    if (opt->count() > 0) return true;
  }
  return false;
}

gemm_advisor::MoeSpec moe_routing(const MoeOptions& o) {
  gemm_advisor::MoeSpec spec;
  gemm_advisor::parse_moe_routing(o.routing, spec);
  return spec;
}

gemm_advisor::MoeModel moe_model(const CommonOptions& o) {
  using namespace gemm_advisor;
  const bool dtype_set = dtype_given(o);
  MoeModel m;
  if (!o.moe.from_hf.empty()) {
    if (o.moe.experts || o.moe.top_k || o.moe.hidden || o.moe.intermediate)
      throw UsageError("--from-hf gives experts, top_k, hidden and intermediate: drop --experts, --top-k, --hidden, "
                       "--intermediate");
    if (o.moe.from_hf == "-") {
      claim_stdin("--from-hf");
      // Both on stdin is a usage error before stdin is read (it was said only when stdin held a valid
      // config.json, else its parse error, exit 1: a fresh user's find, 2026-12-05).
      if (o.candidates == "-") claim_stdin("--candidates");
    }
    const std::string source = o.moe.from_hf == "-" ? "<stdin>" : o.moe.from_hf;  // as the reader names it
    // --dtype and --tp are the command line's: one the kernel cannot take, or a tp that does not
    // divide the config's intermediate size, is a usage error, as for --intermediate (they were
    // input errors, exit 1, here alone: a fresh user's find, 2026-12-05).
    if (dtype_set) {
      try {
        (void)parse_moe_dtype(o.dtype);
      } catch (const InputError& e) {
        throw UsageError(std::string("--dtype: ") + e.what());
      }
    }
    std::vector<std::string> warnings;
    m = moe_model_from_hf_config(o.moe.from_hf, 1, dtype_set ? o.dtype : "", &warnings);
    if (m.intermediate % o.moe.tp != 0)
      throw UsageError("--tp " + std::to_string(o.moe.tp) + " must divide " + source + "'s intermediate size " +
                       std::to_string(m.intermediate));
    m.tp = o.moe.tp;
    validate_moe_model(m, source + ": ");
    for (const std::string& w : warnings) spdlog::warn("{}", w);
    if (!dtype_set && m.dtype == Dtype::fp8) note_fp8_from(source);
  } else {
    std::string missing;
    for (auto [given, name] : {std::pair<bool, const char*>{o.moe.experts > 0, "--experts"},
                               {o.moe.top_k > 0, "--top-k"},
                               {o.moe.hidden > 0, "--hidden"},
                               {o.moe.intermediate > 0, "--intermediate"}}) {
      if (!given) missing += std::string(missing.empty() ? "" : ", ") + name;
    }
    if (!missing.empty())
      throw UsageError("the fused-MoE target needs the layer: give " + missing + " (or --from-hf config.json)");
    m.experts = o.moe.experts;
    m.top_k = o.moe.top_k;
    m.hidden = o.moe.hidden;
    m.intermediate = o.moe.intermediate;
    m.tp = o.moe.tp;
    m.dtype = parse_moe_dtype(dtype_set ? o.dtype : "bf16");
    if (dtype_set) m.dtype_text = o.dtype;
  }
  if (!o.moe.block_shape.empty()) {
    const std::int64_t given = parse_block_shape(o.moe.block_shape);
    // Over the checkpoint's own weight_block_size: said, as --dtype over its fp8 is (it ranked
    // another layer unsaid: a fresh user's find, 2026-12-06).
    if (!o.moe.from_hf.empty() && m.quant_block != 0 && given != m.quant_block)
      spdlog::warn("--block-shape {}x{} over {}'s weight_block_size [{}, {}]: the layer is ranked with the "
                   "option's blocks, which the checkpoint's scales are not", given, given,
                   o.moe.from_hf == "-" ? std::string("<stdin>") : o.moe.from_hf, m.quant_block, m.quant_block);
    m.quant_block = given;
  }
  try {
    validate_moe_model(m, "");
  } catch (const InputError& e) {
    // The layer from --experts, --top-k, --hidden, --intermediate, --tp, or a --block-shape given
    // to a 16-bit --from-hf model (the file's own values were checked as it was read): option
    // values that do not go together, a usage error as any bad option value.
    if (o.moe.from_hf.empty() || !o.moe.block_shape.empty())
      throw UsageError(std::string(e.what()) + (o.moe.from_hf.empty() ? "" : " (--block-shape with " + o.moe.from_hf + ")"));
    throw;
  }
  return m;
}

gemm_advisor::GemmProblem moe_problem(const std::string& tokens, const CommonOptions& o) {
  using namespace gemm_advisor;
  std::int64_t m = 0;
  const auto [ptr, ec] = std::from_chars(tokens.data(), tokens.data() + tokens.size(), m);
  const bool whole = !tokens.empty() && ptr == tokens.data() + tokens.size() &&
                     (ec == std::errc() || ec == std::errc::result_out_of_range);
  if (whole && (ec != std::errc() || m > kMaxDim))
    throw InputError("shape '" + printable(tokens) + "': M is above the largest, " + std::to_string(kMaxDim));
  if (!whole || m < 1)
    throw InputError("shape '" + printable(tokens) +
                     "': the fused-MoE target takes the token count M (a whole number of at least 1, e.g. 64); the "
                     "layer comes from --experts, --top-k, --hidden, --intermediate or --from-hf");
  GemmProblem p = moe_model(o).layer(m, moe_routing(o.moe));
  // A --layout the kernel cannot run is this problem's mismatch with the target, refused where every
  // other one is (Target::problem_error, through advise: a bad-input error, exit 1), as for
  // vllm-fp8-block.
  if (o.layout_option && o.layout_option->count() > 0) p.layout = parse_layout(o.layout);
  validate_problem(p);
  if (o.moe.gemm == "up") p = moe_layer_gemms(p)[0];
  if (o.moe.gemm == "down") p = moe_layer_gemms(p)[1];
  return p;
}

}  // namespace cli
