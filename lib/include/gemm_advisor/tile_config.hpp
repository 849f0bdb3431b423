#pragma once
/// One tile configuration of a tiled GEMM kernel (the `triton` target's parameters).
#include <string>
#include <string_view>

namespace gemm_advisor {

struct TileConfig {
  int block_m = 128;    ///< output tile rows (BLOCK_M)
  int block_n = 128;    ///< output tile columns (BLOCK_N)
  int block_k = 64;     ///< K-step depth (BLOCK_K)
  int group_m = 8;      ///< tile rows per raster group (GROUP_M)
  int num_warps = 8;    ///< warps per thread block
  int num_stages = 3;   ///< software-pipeline depth (operand buffers in shared memory)
  int split_k = 1;      ///< K split over this many thread blocks, partial sums reduced after

  /// "BMxBNxBK:WARPS:STAGES[:SPLITK]" (group_m shown only when not 8: "...:g4").
  std::string text() const;
  bool operator==(const TileConfig& o) const;
  /// Lexicographic order on (block_m, block_n, block_k, num_warps, num_stages, split_k, group_m):
  /// the last, deterministic tie-breaker of the ranking.
  bool operator<(const TileConfig& o) const;
};

/// The bounds of a config's numbers that parse_tile_config accepts (a --candidates file's): far above
/// any real kernel, far below int overflow. Block sizes, split_k and group_m; warps; stages.
inline constexpr int kMaxConfigSize = 65536;
inline constexpr int kMaxConfigWarps = 1024;
inline constexpr int kMaxConfigStages = 64;

/// Parses "BMxBNxBK:WARPS:STAGES[:SPLITK][:gGROUP_M]" (as `explain --config` takes it; text()'s
/// form, so every config round-trips). Numbers must be
/// positive integers within the bounds of a --candidates file (block sizes, split_k and group_m <=
/// kMaxConfigSize, warps <= kMaxConfigWarps, stages <= kMaxConfigStages); blanks around the text are
/// dropped, one inside it (a line break between two configs) is an error. Throws InputError quoting the text.
TileConfig parse_tile_config(std::string_view text);

}  // namespace gemm_advisor
