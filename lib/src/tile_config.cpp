#include "gemm_advisor/tile_config.hpp"

#include <charconv>
#include <tuple>
#include <vector>

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

}  // namespace gemm_advisor
