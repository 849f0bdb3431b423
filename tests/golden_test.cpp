// Golden rankings: a hash of the full ranking (every config in rank order, every field of its
// estimate bit for bit, the reason of every infeasible config) over shapes x profiles x dtypes x
// layouts, for the `triton` target, compared with tests/data/golden-rankings.txt.
//
// The golden file was written by this test (GEMM_ADVISOR_WRITE_GOLDEN=path) from the model as it
// stood before the target refactor (issue "Kernels as targets"), so the refactor is proved to
// change nothing. A later, deliberate model change rewrites the file in the commit that explains it.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gemm_advisor/hardware.hpp"
#include "gemm_advisor/ranker.hpp"
#include "gemm_advisor/targets/triton.hpp"
#include "test_util.hpp"

using namespace gemm_advisor;

namespace {

// FNV-1a, 64 bits (http://www.isthe.com/chongo/tech/comp/fnv/): a fixed, portable hash of bytes.
struct Fnv1a {
  std::uint64_t h = 14695981039346656037ull;
  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) {
      h ^= b[i];
      h *= 1099511628211ull;
    }
  }
  void f64(double v) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    bytes(&bits, sizeof bits);
  }
  void i64(std::int64_t v) { bytes(&v, sizeof v); }
  void text(const std::string& s) {
    i64(static_cast<std::int64_t>(s.size()));
    bytes(s.data(), s.size());
  }
};

void hash_estimate(Fnv1a& f, const Estimate& e) {
  f.i64(e.feasible);
  f.i64(static_cast<std::int64_t>(e.bound));
  f.i64(e.occupancy);
  f.i64(e.smem_bytes);
  f.i64(e.a_aligned);
  f.i64(e.b_aligned);
  for (double v : {e.latency_s, e.flops_per_s, e.output_tiles, e.work_tiles, e.k_steps, e.waves,
                   e.last_wave_efficiency, e.last_wave_blocks, e.padding_waste, e.prefetch_s, e.compute_step_s,
                   e.memory_step_s, e.l2_step_s, e.dram_step_s, e.cu_load_step_s, e.latency_step_s,
                   e.step_overhead_s, e.store_s, e.split_k_reduce_s, e.llc_step_s, e.l2_hit_rate, e.llc_hit_rate,
                   e.dram_bytes, e.arithmetic_intensity, e.matrix_unit_utilization, e.registers_per_thread})
    f.f64(v);
}

void hash_ranking(Fnv1a& f, const std::vector<RankedConfig>& ranked) {
  f.i64(static_cast<std::int64_t>(ranked.size()));
  for (const RankedConfig& r : ranked) {
    const TileConfig& c = r.config;
    for (int v : {c.block_m, c.block_n, c.block_k, c.group_m, c.num_warps, c.num_stages, c.split_k}) f.i64(v);
    hash_estimate(f, r.estimate);
    f.text(r.infeasible_reason);
  }
}

// Configs outside any candidate space (given with --candidates): infeasible ones and edge cases.
std::vector<TileConfig> odd_configs() {
  using test_util::cfg;
  return {cfg(512, 512, 256, 8, 3), cfg(16, 16, 16, 1, 1), cfg(256, 256, 128, 8, 6), cfg(64, 64, 64, 4, 2, 64),
          cfg(128, 128, 64, 16, 2), cfg(32, 32, 48, 4, 3), cfg(128, 128, 64, 8, 3, 1, 1), cfg(16, 256, 256, 2, 1)};
}

const char* const kShapes[] = {"1x4096x4096",  "16x6144x4096",    "128x128x65536", "4096x4096x4096", "8192x8192x8192",
                               "1000x1000x1000", "2048x1024x479", "65536x128x128", "8x37888x3584",   "4096x256x7168",
                               "1x128256x4096", "512x512x512x8",  "13x7x5",        "8192x512x13",    "100000x2048x512",
                               "3x5000x70000"};
const char* const kLayouts[] = {"NN", "NT", "TN", "TT"};

// "profile dtype layout shape" -> hash, over every combination the profile supports.
std::map<std::string, std::uint64_t> compute_hashes() {
  std::map<std::string, std::uint64_t> out;
  const std::vector<TileConfig> odd = odd_configs();
  for (const EmbeddedProfile& prof : embedded_profiles()) {
    const Profile hw = load_profile(std::string(prof.name));
    for (int d = 0; d < kDtypeCount; ++d) {
      const Dtype dtype = static_cast<Dtype>(d);
      if (!hw.hw.rate(dtype)) continue;
      for (const char* layout : kLayouts) {
        for (const char* shape : kShapes) {
          GemmProblem base;
          base.dtype = dtype;
          base.layout = parse_layout(layout);
          const GemmProblem p = parse_shape(shape, base);
          Fnv1a f;
          std::vector<TileConfig> cands;
          triton_candidates(p, hw, cands);
          std::vector<RankedConfig> ranked;
          rank_configs(triton_target(), p, hw, cands, ranked, 0);  // --top 0: every record
          hash_ranking(f, ranked);
          rank_configs(triton_target(), p, hw, cands, ranked, 5);  // --top 5: the lean path, then the few in full
          hash_ranking(f, ranked);
          rank_configs(triton_target(), p, hw, odd, ranked, 0);  // --candidates: infeasible ones with reasons
          hash_ranking(f, ranked);
          out[std::string(prof.name) + " " + std::string(dtype_name(dtype)) + " " + layout + " " + shape] = f.h;
        }
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("triton rankings match the golden hashes bit for bit", "[golden]") {
  const std::map<std::string, std::uint64_t> hashes = compute_hashes();
  if (const char* path = std::getenv("GEMM_ADVISOR_WRITE_GOLDEN")) {
    std::ofstream out(path);
    out << "# profile dtype layout shape fnv1a64 (tests/golden_test.cpp)\n";
    for (const auto& [key, h] : hashes) out << key << " " << std::hex << h << std::dec << "\n";
    WARN("golden file written to " << path);
    return;
  }
  std::ifstream in(test_util::source_path("tests/data/golden-rankings.txt"));
  REQUIRE(in);
  std::map<std::string, std::uint64_t> golden;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t cut = line.rfind(' ');
    golden[line.substr(0, cut)] = std::stoull(line.substr(cut + 1), nullptr, 16);
  }
  CHECK(golden.size() == hashes.size());
  std::size_t differing = 0;
  for (const auto& [key, h] : hashes) {
    const auto it = golden.find(key);
    if (it == golden.end() || it->second != h) {
      if (++differing <= 20) UNSCOPED_INFO("differs: " << key);
    }
  }
  CHECK(differing == 0);
}
