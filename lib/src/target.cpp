#include "gemm_advisor/target.hpp"

#include <stdexcept>

#include "gemm_advisor/error.hpp"
#include "gemm_advisor/targets/triton.hpp"
#include "gemm_advisor/targets/triton_tutorial.hpp"
#include "gemm_advisor/targets/vllm_fp8_block.hpp"
#include "gemm_advisor/targets/vllm_fused_moe.hpp"
#include "text.hpp"

namespace gemm_advisor {

int config_field(const TileConfig& c, std::string_view field) {
  if (field == "block_m") return c.block_m;
  if (field == "block_n") return c.block_n;
  if (field == "block_k") return c.block_k;
  if (field == "group_m") return c.group_m;
  if (field == "num_warps") return c.num_warps;
  if (field == "num_stages") return c.num_stages;
  if (field == "split_k") return c.split_k;
  throw std::invalid_argument("unknown TileConfig field '" + std::string(field) + "'");
}

bool target_has_field(const Target& t, std::string_view field) {
  const auto& params = t.info().parameters;
  return std::any_of(params.begin(), params.end(), [&](const TargetParameter& p) { return p.field == field; });
}

const std::vector<const Target*>& all_targets() {
  static const std::vector<const Target*> targets = {&triton_target(), &triton_tutorial_target(),
                                                     &vllm_fp8_block_target(), &vllm_fused_moe_target()};
  return targets;
}

const Target* find_target_or_null(std::string_view name) {
  for (const Target* t : all_targets()) {
    if (t->name() == name) return t;
  }
  return nullptr;
}

std::string target_names() {
  std::string names;
  for (const Target* t : all_targets()) names += (names.empty() ? "" : ", ") + std::string(t->name());
  return names;
}

const Target& find_target(std::string_view name) {
  // Blanks around the name (a shell variable's, a Python string's) dropped, as --hw's and a layout's
  // are (target="triton " was refused where layout="NN " was taken: a fresh user's find, 2026-12-07),
  // and any case taken, as the CLI's --target takes it ("TRITON" was unknown to the library).
  if (const Target* t = find_target_or_null(text::lower(text::trim(name)))) return *t;  // any case, as the CLI's
  throw InputError("unknown target '" + printable(name) + "' (known: " + target_names() + ")");
}

}  // namespace gemm_advisor
