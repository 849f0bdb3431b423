#include "gemm_advisor/triton_target.hpp"

#include <algorithm>
#include <charconv>
#include <tuple>

#include "gemm_advisor/error.hpp"

namespace gemm_advisor {

std::string TileConfig::text() const {
  std::string s = std::to_string(block_m) + "x" + std::to_string(block_n) + "x" + std::to_string(block_k) +
                  ":" + std::to_string(num_warps) + ":" + std::to_string(num_stages);
  if (split_k != 1) s += ":" + std::to_string(split_k);
  if (group_m != 8) s += ":g" + std::to_string(group_m);
  return s;
}

namespace {
auto key(const TileConfig& c) {
  return std::make_tuple(c.block_m, c.block_n, c.block_k, c.num_warps, c.num_stages, c.split_k, c.group_m);
}
std::int64_t next_pow2(std::int64_t v) {
  std::int64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}
}  // namespace

bool TileConfig::operator==(const TileConfig& o) const { return key(*this) == key(o); }
bool TileConfig::operator<(const TileConfig& o) const { return key(*this) < key(o); }

TileConfig parse_tile_config(std::string_view text) {
  const std::string quoted = "config '" + printable(text) + "'";
  const std::string help = " (expected BMxBNxBK:WARPS:STAGES[:SPLITK], e.g. 128x128x64:8:3)";
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == ':' || ((text[i] == 'x' || text[i] == 'X') && fields.size() < 2)) {
      fields.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  if (fields.size() < 5 || fields.size() > 6) throw InputError(quoted + help);
  int values[6] = {0, 0, 0, 0, 0, 1};
  for (std::size_t i = 0; i < fields.size(); ++i) {
    int v = 0;
    auto [ptr, ec] = std::from_chars(fields[i].data(), fields[i].data() + fields[i].size(), v);
    if (fields[i].empty() || ec != std::errc() || ptr != fields[i].data() + fields[i].size() || v < 1)
      throw InputError(quoted + ": '" + printable(fields[i]) + "' is not a positive whole number" + help);
    // The bounds of a --candidates file: far above any real kernel, far below int64 overflow.
    const int limit = i < 3 ? 65536 : i == 3 ? 1024 : i == 4 ? 64 : 65536;
    if (v > limit)
      throw InputError(quoted + ": '" + printable(fields[i]) + "' is larger than " + std::to_string(limit) + help);
    values[i] = v;
  }
  TileConfig c;
  c.block_m = values[0];
  c.block_n = values[1];
  c.block_k = values[2];
  c.num_warps = values[3];
  c.num_stages = values[4];
  c.split_k = values[5];
  return c;
}

namespace {
// The resource limits a config must meet, without building a message (the candidate loop's check).
TritonResourceCheck check_resources(const TileConfig& c, Dtype dtype, const Hardware& hw) {
  return triton_check_resources(triton_smem_bytes(c, dtype, hw), accumulator_registers_per_thread(c, hw), c.num_warps,
                                hw);
}
}  // namespace

bool triton_config_fits(const TileConfig& c, const GemmProblem& p, const Hardware& hw) {
  return triton_config_rules_ok(c, p, hw) && check_resources(c, p.dtype, hw) == TritonResourceCheck::ok;
}

std::string triton_infeasibility(const TileConfig& c, const GemmProblem& p, const Hardware& hw) {
  auto pow2 = [](const char* what, int v) -> std::string {
    if (v < 16 || v > 1024 || !is_pow2(v))
      return std::string(what) + " = " + std::to_string(v) + " must be a power of two in [16, 1024]";
    return "";
  };
  for (auto [what, v] : {std::pair<const char*, int>{"block_m", c.block_m}, {"block_n", c.block_n},
                         {"block_k", c.block_k}}) {
    if (auto e = pow2(what, v); !e.empty()) return e;
  }
  if (!is_pow2(c.num_warps) || c.num_warps > 32)
    return "num_warps = " + std::to_string(c.num_warps) + " must be a power of two in [1, 32]";
  if (c.num_stages < 1 || c.num_stages > hw.triton_max_num_stages)
    return "num_stages = " + std::to_string(c.num_stages) + " is outside 1.." +
           std::to_string(hw.triton_max_num_stages) + " for " + hw.name;
  if (c.split_k < 1 || c.split_k > 256) return "split_k = " + std::to_string(c.split_k) + " is outside 1..256";
  if (c.group_m < 1) return "group_m = " + std::to_string(c.group_m) + " must be at least 1";
  if (!hw.rate(p.dtype))
    return std::string("dtype ") + std::string(dtype_name(p.dtype)) + " has no matrix path on " + hw.name;
  if (static_cast<std::int64_t>(c.block_k) * dtype_bits(p.dtype) < 256)
    return "block_k = " + std::to_string(c.block_k) + " loads fewer than 32 bytes per row for " +
           std::string(dtype_name(p.dtype));
  switch (check_resources(c, p.dtype, hw)) {
    case TritonResourceCheck::smem:
      return "needs " + std::to_string(triton_smem_bytes(c, p.dtype, hw)) +
             " bytes of shared memory, more than the " + std::to_string(hw.smem_per_block_bytes) +
             " a block may use on " + hw.name;
    case TritonResourceCheck::too_many_accumulators:
      return "needs " + std::to_string(static_cast<long long>(accumulator_registers_per_thread(c, hw))) +
             " accumulator registers per thread, more than half of the " +
             std::to_string(hw.max_registers_per_thread) + " a thread may use";
    case TritonResourceCheck::too_few_accumulators:
      return "gives each thread fewer than 4 accumulators (block_m * block_n < 4 * num_warps * warp_size): "
             "a warp must own at least one MMA fragment";
    case TritonResourceCheck::too_many_threads:
      return "num_warps = " + std::to_string(c.num_warps) + " exceeds 1024 threads per block";
    case TritonResourceCheck::ok:
      break;
  }
  return "";
}

void triton_candidates(const GemmProblem& p, const Hardware& hw, std::vector<TileConfig>& out) {
  out.clear();
  if (!hw.rate(p.dtype)) return;
  static constexpr int kBlocks[] = {16, 32, 64, 128, 256};
  static constexpr int kWarps[] = {2, 4, 8};
  // Only when no config of kWarps fits (tiny shapes on 64-wide AMD wavefronts: a 16x16 tile gives
  // fewer than 4 accumulators per lane with 2 waves), a single warp keeps the shape answerable.
  static constexpr int kFallbackWarps[] = {1};
  static constexpr int kSplits[] = {1, 2, 4, 8, 16};
  const std::int64_t max_m = std::max<std::int64_t>(16, next_pow2(p.m));
  const std::int64_t max_n = std::max<std::int64_t>(16, next_pow2(p.n));
  const std::int64_t max_k = std::max<std::int64_t>(16, next_pow2(p.k));
  const int bits = dtype_bits(p.dtype);
  TileConfig c;
  c.group_m = 8;
  auto enumerate = [&](auto& warp_counts) {
  for (int bm : kBlocks) {
    if (bm > max_m) break;
    for (int bn : kBlocks) {
      if (bn > max_n) break;
      // In double: at the limits (M, N = 2^31-1, batch = 2^24) the product needs 78 bits.
      const double tiles = static_cast<double>((p.m + bm - 1) / bm) * static_cast<double>((p.n + bn - 1) / bn) *
                           static_cast<double>(p.batch);
      for (int bk : kBlocks) {
        if (bk > max_k) break;
        if (static_cast<std::int64_t>(bk) * bits < 256) continue;
        for (int w : warp_counts) {
          for (int s = 1; s <= hw.triton_max_num_stages; ++s) {
            c.block_m = bm;
            c.block_n = bn;
            c.block_k = bk;
            c.num_warps = w;
            c.num_stages = s;
            c.split_k = 1;
            // Sizes, warps and stages are legal by construction; only the resources can fail.
            if (check_resources(c, p.dtype, hw) != TritonResourceCheck::ok) continue;
            for (int sk : kSplits) {
              if (sk > 1 && !(tiles * sk <= 2.0 * hw.cu_count &&
                              p.k >= static_cast<std::int64_t>(sk) * std::max(bk, 256)))
                continue;
              c.split_k = sk;
              out.push_back(c);
            }
          }
        }
      }
    }
  }
  };
  enumerate(kWarps);
  if (out.empty()) enumerate(kFallbackWarps);
}

TileConfig triton_default_config() {
  TileConfig c;
  c.block_m = 128;
  c.block_n = 128;
  c.block_k = 64;
  c.num_warps = 8;
  c.num_stages = 3;
  c.group_m = 8;
  c.split_k = 1;
  return c;
}

}  // namespace gemm_advisor
