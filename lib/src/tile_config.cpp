#include "gemm_advisor/tile_config.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <tuple>
#include <vector>

#include "gemm_advisor/error.hpp"
#include "text.hpp"

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

TileConfig parse_tile_config(std::string_view given) {
  const std::string quoted = "config '" + printable(given) + "'";
  // Blanks around it dropped, as a shape's are (" 64x64x64:4:3 " was malformed: a fresh user's find).
  const std::string trimmed = text::trim(given);
  const std::string_view text = trimmed;
  const std::string help = " (expected BMxBNxBK:WARPS:STAGES[:SPLITK][:gGROUP_M], e.g. 128x128x64:8:3 or 64x128x128:4:2:g32)";
  // Two configs in one text ("64x64x64:4:2\n128x128x64:8:3") were told "a 4th part after the block
  // sizes is GROUP_M" (a fresh Python user's find, 2026-12-07).
  if (std::any_of(text.begin(), text.end(), [](char ch) { return std::isspace(static_cast<unsigned char>(ch)) != 0; }))
    throw InputError(quoted + ": a blank or line break inside it: one config an entry (a --candidates file: one a line)" +
                     help);
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == ':' || ((text[i] == 'x' || text[i] == 'X') && fields.size() < 2)) {
      fields.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  // A last field "gN" is GROUP_M (TileConfig::text writes it when it is not 8).
  std::string_view group;
  // 'G' too, as 'X' is taken for 'x' (":G8" was told to be written ":gG8": a fresh user's find).
  const bool has_group =
      fields.size() >= 6 && !fields.back().empty() && (fields.back()[0] == 'g' || fields.back()[0] == 'G');
  if (has_group) {
    group = fields.back().substr(1);
    fields.pop_back();
  }
  if (fields.size() > 6) {  // e.g. 128x128x64:4:3:2:g8:extra
    // Say what the likely slip is (the count alone, "4 parts, at most 4", read as a contradiction: a
    // fresh user's find): GROUP_M written without its g, or not last.
    for (std::size_t i = 3; i < fields.size(); ++i)
      if (!fields[i].empty() && (fields[i][0] == 'g' || fields[i][0] == 'G'))
        throw InputError(quoted + ": GROUP_M ('" + printable(fields[i]) + "') must be the last part" + help);
    if (!has_group && fields.size() == 7)
      throw InputError(quoted + ": a 4th part after the block sizes is GROUP_M, written with a g (':g" +
                       printable(fields.back()) + "')" + help);
    throw InputError(quoted + ": " + std::to_string(fields.size() - 3 + (has_group ? 1 : 0)) +
                     " ':' parts after the block sizes, at most 4" + help);
  }
  if (fields.size() < 5) {
    // A multiplication sign pasted from a document, or '*': name the slip (the shape parser does too).
    if (text::has_times_sign(text))
      throw InputError(quoted + ": block sizes are separated by the letter x, not a multiplication sign" + help);
    // Three block sizes and too few parts after them: say which are missing (it gave the form only).
    const std::string_view sizes = text.substr(0, text.find(':'));
    const auto xs = std::count_if(sizes.begin(), sizes.end(), [](char ch) { return ch == 'x' || ch == 'X'; });
    if (xs == 2 && (fields.size() == 3 || fields.size() == 4))
      throw InputError(quoted + ": missing " + (fields.size() == 3 ? "WARPS and STAGES" : "STAGES") + help);
    throw InputError(quoted + help);
  }
  // The bounds of a --candidates file: far above any real kernel, far below int64 overflow.
  auto number = [&](std::string_view field, int limit) {
    int v = 0;
    auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
    const bool digits = !field.empty() && std::all_of(field.begin(), field.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
    if (digits && ec == std::errc::result_out_of_range)  // 4294967424: a number, only too large
      throw InputError(quoted + ": '" + printable(field) + "' is larger than " + std::to_string(limit) + help);
    if (field.empty() || ec != std::errc() || ptr != field.data() + field.size() || v < 1)
      throw InputError(quoted + ": '" + printable(field) + "' is not a positive whole number" + help);
    if (v > limit) throw InputError(quoted + ": '" + printable(field) + "' is larger than " + std::to_string(limit) + help);
    return v;
  };
  int values[6] = {0, 0, 0, 0, 0, 1};
  for (std::size_t i = 0; i < fields.size(); ++i)
    values[i] = number(fields[i], i == 3 ? kMaxConfigWarps : i == 4 ? kMaxConfigStages : kMaxConfigSize);
  TileConfig c;
  c.block_m = values[0];
  c.block_n = values[1];
  c.block_k = values[2];
  c.num_warps = values[3];
  c.num_stages = values[4];
  c.split_k = values[5];
  if (has_group) c.group_m = number(group, kMaxConfigSize);
  return c;
}

}  // namespace gemm_advisor
