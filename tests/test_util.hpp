#pragma once
// Helpers shared by the unit tests.
#include <stdlib.h>  // mkdtemp

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gemm_advisor/profile.hpp"
#include "gemm_advisor/ranker.hpp"
#include "gemm_advisor/shape_list.hpp"
#include "gemm_advisor/tile_config.hpp"
#include "gemm_advisor/targets/triton.hpp"

namespace test_util {

/// A fresh directory under the system's temporary directory, removed at the end of the test.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "gemm-advisor-test-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

/// The source tree's root (tests read profiles/ and tests/data/ from it).
inline std::string source_path(const std::string& rel) { return std::string(GEMM_ADVISOR_SOURCE_DIR) + "/" + rel; }

/// tests/data/toy.yaml: a GPU with round numbers (100 SMs, 1 GHz, 1024 FLOP/cycle/SM = 102.4 TFLOP/s,
/// 2 TB/s DRAM, 10 TB/s L2, 128 B/cycle per SM) for hand-computed expectations.
inline gemm_advisor::Profile toy() { return gemm_advisor::load_profile(source_path("tests/data/toy.yaml")); }

/// The profile file `rel` (a path under the source tree) with `appended` YAML after it (an overlay's
/// sections: `model_parameters:`, `targets:`), parsed as `name`. Throws what parse_profile throws.
inline gemm_advisor::Profile profile_with(const std::string& rel, const std::string& appended, const std::string& name) {
  std::ifstream in(source_path(rel));
  if (!in) throw std::runtime_error("cannot read " + rel);
  const std::string yaml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return gemm_advisor::parse_profile(yaml + appended, name);
}

/// The `triton` target's model parameters on a profile (its defaults and the profile's overrides).
inline gemm_advisor::ModelParams params(const gemm_advisor::Profile& profile) {
  const gemm_advisor::Target& t = gemm_advisor::triton_target();
  return profile.params_for(t.name(), t.default_params());
}

/// One `triton` estimate, building the problem's context (the tests' one-off form).
inline gemm_advisor::Estimate estimate(const gemm_advisor::GemmProblem& p, const gemm_advisor::Profile& profile,
                                       const gemm_advisor::TileConfig& c) {
  const gemm_advisor::Target& t = gemm_advisor::triton_target();
  return t.estimate(t.context(p, profile), c);
}

/// A tile config from its fields (no checks: tests build infeasible ones on purpose).
inline gemm_advisor::TileConfig cfg(int bm, int bn, int bk, int warps, int stages, int split_k = 1, int group_m = 8) {
  gemm_advisor::TileConfig c;
  c.block_m = bm;
  c.block_n = bn;
  c.block_k = bk;
  c.num_warps = warps;
  c.num_stages = stages;
  c.split_k = split_k;
  c.group_m = group_m;
  return c;
}

/// The problem's whole `triton` candidate space, ranked (rank_configs; `top` as there: 0 = all).
inline std::vector<gemm_advisor::RankedConfig> rank_space(const gemm_advisor::GemmProblem& p,
                                                          const gemm_advisor::Profile& profile, std::size_t top = 0) {
  std::vector<gemm_advisor::TileConfig> cands;
  gemm_advisor::triton_candidates(p, profile, cands);
  std::vector<gemm_advisor::RankedConfig> ranked;
  gemm_advisor::rank_configs(gemm_advisor::triton_target(), p, profile, cands, ranked, top);
  return ranked;
}

/// Every entry a shape reader yields for `text` (named `source` in messages).
inline std::vector<gemm_advisor::ShapeEntry> read_all(
    const std::string& text, const std::string& source,
    gemm_advisor::ShapeFormat format = gemm_advisor::ShapeFormat::automatic) {
  std::istringstream in(text);
  auto reader = gemm_advisor::open_shape_reader(in, source, format, gemm_advisor::GemmProblem{});
  std::vector<gemm_advisor::ShapeEntry> out;
  gemm_advisor::ShapeEntry e;
  while (reader->next(e)) out.push_back(e);
  return out;
}

}  // namespace test_util
