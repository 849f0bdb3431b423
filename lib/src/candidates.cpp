#include "gemm_advisor/candidates.hpp"

#include <fstream>
#include <map>

#include "gemm_advisor/csv_reader.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/hardware.hpp"

namespace gemm_advisor {

std::vector<TileConfig> read_candidates_file(const std::string& path, std::vector<std::string>* warnings,
                                             std::vector<long>* lines) {
  check_readable_file(path);  // uniform messages for missing files, directories, permissions
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open");
  return read_candidates(in, path, warnings, lines);
}

std::vector<TileConfig> read_candidates(std::istream& in, const std::string& source,
                                        std::vector<std::string>* warnings, std::vector<long>* lines) {
  CsvReader reader(in, source);
  const std::vector<std::string> required = {"block_m", "block_n", "block_k", "num_warps", "num_stages"};
  // Triton's spellings as well: the tutorial's and vLLM's BLOCK_SIZE_M, the masked kernel's BLOCK_M
  // (a config list copied from an autotune list or `--emit triton`; header names are matched in lower case).
  const CsvHeader h = CsvHeader::read(reader, required,
                                      {{"block_size_m", "block_m"}, {"block_size_n", "block_n"},
                                       {"block_size_k", "block_k"}, {"group_size_m", "group_m"}});
  if (warnings) {
    std::vector<std::string> known = required;
    known.insert(known.end(), {"group_m", "split_k"});
    *warnings = h.unknown_column_warnings(known);
  }
  const int ibm = h.index("block_m"), ibn = h.index("block_n"), ibk = h.index("block_k");
  const int iw = h.index("num_warps"), is = h.index("num_stages"), ig = h.index("group_m"), isk = h.index("split_k");
  std::vector<TileConfig> out;
  if (lines) lines->clear();
  std::map<TileConfig, long> line_of;  // a config listed twice is ranked once
  RepeatedRows repeated;
  std::vector<std::string> f;
  while (reader.next(f)) {
    require_header_fields(reader, h, f);
    TileConfig c;
    c.block_m = static_cast<int>(csv_int(reader, f, ibm, "block_m", 1, 65536));
    c.block_n = static_cast<int>(csv_int(reader, f, ibn, "block_n", 1, 65536));
    c.block_k = static_cast<int>(csv_int(reader, f, ibk, "block_k", 1, 65536));
    c.num_warps = static_cast<int>(csv_int(reader, f, iw, "num_warps", 1, 1024));
    c.num_stages = static_cast<int>(csv_int(reader, f, is, "num_stages", 1, 64));
    c.group_m = ig >= 0 && !f[ig].empty() ? static_cast<int>(csv_int(reader, f, ig, "group_m", 1, 65536)) : 8;
    c.split_k = isk >= 0 && !f[isk].empty() ? static_cast<int>(csv_int(reader, f, isk, "split_k", 1, 65536)) : 1;
    const auto [it, fresh] = line_of.emplace(c, reader.line());
    if (!fresh) {
      if (warnings && repeated.name_next())
        warnings->push_back(source + ":" + std::to_string(reader.line()) + ": config " + c.text() +
                            " is listed already (line " + std::to_string(it->second) + "): ranked once");
      continue;
    }
    out.push_back(c);
    if (lines) lines->push_back(reader.line());
  }
  if (out.empty()) throw InputError(source + ": no configs (only a header)");
  if (std::string more = repeated.summary(source, "listed again", "each ranked once"); warnings && !more.empty())
    warnings->push_back(std::move(more));
  return out;
}

}  // namespace gemm_advisor
