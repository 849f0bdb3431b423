#include "gemm_advisor/candidates.hpp"

#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <sstream>
#include <string_view>

#include "gemm_advisor/csv_reader.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/hardware.hpp"
#include "gemm_advisor/report.hpp"

namespace gemm_advisor {

std::vector<TileConfig> read_candidates_file(const std::string& path, std::vector<std::string>* warnings,
                                             std::vector<long>* lines) {
  // "-" reads stdin, as shape lists and --from-hf do (it was "-: cannot open": a fresh user's find).
  if (path == "-") return read_candidates(std::cin, "<stdin>", warnings, lines);
  check_readable_file(path);  // uniform messages for missing files, directories, permissions
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open");
  return read_candidates(in, path, warnings, lines);
}

namespace {

// The configs of a candidates file, in file order, each once: a config listed again is warned of
// (the first few by line, then a count) and ranked once. Both forms of the file collect through it.
class CandidateCollector {
 public:
  CandidateCollector(const std::string& source, std::vector<std::string>* warnings, std::vector<long>* lines)
      : source_(source), warnings_(warnings), lines_(lines) {
    if (lines_) lines_->clear();
  }
  void add(const TileConfig& c, long line) {
    const auto [it, fresh] = line_of_.emplace(c, line);
    if (!fresh) {
      if (warnings_ && repeated_.name_next())
        warnings_->push_back(source_ + ":" + std::to_string(line) + ": config " + c.text() + " is listed already (line " +
                             std::to_string(it->second) + "): ranked once");
      return;
    }
    out_.push_back(c);
    if (lines_) lines_->push_back(line);
  }
  // The configs; throws InputError "source: `none`" when there are none.
  std::vector<TileConfig> finish(const std::string& none) {
    if (out_.empty()) throw InputError(source_ + ": " + none);
    if (std::string more = repeated_.summary(source_, "listed again", "each ranked once"); warnings_ && !more.empty())
      warnings_->push_back(std::move(more));
    return std::move(out_);
  }

 private:
  const std::string& source_;
  std::vector<std::string>* warnings_;
  std::vector<long>* lines_;
  std::vector<TileConfig> out_;
  std::map<TileConfig, long> line_of_;
  RepeatedRows repeated_;
};

// A candidates file of config texts, one a line ("128x128x64:8:3", as rank prints them and --config
// takes them); blank lines and '#' comments skipped, also at the end of a line ("128x128x64:8:3  # ours").
std::vector<TileConfig> read_config_text_lines(const std::string& text, const std::string& source,
                                               std::vector<std::string>* warnings, std::vector<long>* lines) {
  CandidateCollector configs(source, warnings, lines);
  std::istringstream in(text);
  std::string line;
  long number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (const std::size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    const std::size_t last = line.find_last_not_of(" \t");
    TileConfig c;
    try {
      c = parse_tile_config(std::string_view(line).substr(first, last - first + 1));
    } catch (const InputError& e) {
      throw InputError(source + ":" + std::to_string(number) + ": " + e.what());
    }
    configs.add(c, number);
  }
  return configs.finish("no configs");
}

}  // namespace

std::vector<TileConfig> read_candidates(std::istream& in, const std::string& source,
                                        std::vector<std::string>* warnings, std::vector<long>* lines) {
  // Small files: read whole, to tell the form. JSON got CSV parser jargon ("malformed CSV: error
  // parsing data while strict checking enabled"), a list of config texts "lacks column 'block_m'"
  // (a fresh user's finds, 2026-12-04).
  // Bounded: /dev/zero or an endless `yes` grew to gigabytes and ended "out of memory", naming no
  // input (a fresh CI user's find, 2026-12-05). 16 MiB is some 800,000 config lines, far past any
  // kernel's space.
  constexpr std::size_t kMaxCandidatesBytes = std::size_t{16} << 20;
  std::string text = read_whole_input(in, source, "a --candidates list is read whole", kMaxCandidatesBytes);
  // Gzip data (a .gz name, or gzip's magic bytes under any name or on stdin) is read decompressed,
  // as batch reads its lists: it was parsed as text, "compressed twice" for a list compressed once
  // and its bytes blamed on a multiplication sign (a fresh user's find, 2026-12-06).
  text = gunzip_whole(std::move(text), source, "a --candidates list is read whole", is_gzip_path(source));
  // A spreadsheet's or Windows editor's UTF-8 byte order mark is not part of the first line.
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
  const std::size_t start = text.find_first_not_of(" \t\r\n");
  if (start != std::string::npos && (text[start] == '[' || text[start] == '{'))
    throw InputError(source + ": looks like JSON: --candidates takes a CSV with a header (block_m,block_n,block_k,"
                              "num_warps,num_stages[,group_m,split_k], or Triton's BLOCK_SIZE_M... names) or one config "
                              "a line (128x128x64:8:3)");
  // The first line that is not blank or a '#' comment tells the form.
  std::size_t at = start;
  while (at != std::string::npos && text[at] == '#') {
    const std::size_t eol = text.find('\n', at);
    at = eol == std::string::npos ? std::string::npos : text.find_first_not_of(" \t\r\n", eol);
  }
  // Nothing but blanks and comments: say so in the words of both forms (the CSV reader's "expected a
  // header row" told a list of config texts what it lacked in the other form's terms).
  if (at == std::string::npos)
    throw InputError(source + ": no configs: the file is empty or only comments (expected a CSV with a header row, "
                              "or one config a line such as 128x128x64:8:3)");
  // A line with a ':' and no ',' is a config text, whatever separates its block sizes ('x', or a
  // pasted 'x' or '*' that parse_tile_config names).
  const std::size_t end = text.find('\n', at);
  const std::string_view first(text.data() + at, (end == std::string::npos ? text.size() : end) - at);
  if (first.find(':') != std::string_view::npos && first.find(',') == std::string_view::npos)
    return read_config_text_lines(text, source, warnings, lines);
  std::istringstream csv(text);
  CsvReader reader(csv, source);
  const std::vector<std::string> required = {"block_m", "block_n", "block_k", "num_warps", "num_stages"};
  // Triton's spellings as well: the tutorial's and vLLM's BLOCK_SIZE_M, the masked kernel's BLOCK_M
  // (a config list copied from an autotune list or `--emit triton`; header names are matched in lower case).
  const CsvHeader h = CsvHeader::read(reader, required,
                                      {{"block_size_m", "block_m"}, {"block_size_n", "block_n"},
                                       {"block_size_k", "block_k"}, {"group_size_m", "group_m"}});
  if (warnings) {
    std::vector<std::string> known = required;
    known.insert(known.end(), {"group_m", "split_k"});
    // The ROCm launch keys of vLLM's AMD config files are taken without a word (not ranked), and so
    // are the other columns of gemm-advisor's own ranking CSV (`rank --format csv` read back as
    // candidates gave 18 warnings, which --strict refused: a fresh user's find, 2026-12-06).
    std::vector<std::string> quiet = ranking_csv_problem_columns(/*moe=*/true);
    const std::vector<std::string>& result = ranking_csv_result_columns();
    quiet.insert(quiet.end(), result.begin(), result.end());
    quiet.insert(quiet.end(), {"waves_per_eu", "matrix_instr_nonkdim", "kpack"});
    *warnings = h.unknown_column_warnings(known, quiet);
  }
  const int ibm = h.index("block_m"), ibn = h.index("block_n"), ibk = h.index("block_k");
  const int iw = h.index("num_warps"), is = h.index("num_stages"), ig = h.index("group_m"), isk = h.index("split_k");
  CandidateCollector configs(source, warnings, lines);
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
    configs.add(c, reader.line());
  }
  return configs.finish("no configs (only a header)");
}

}  // namespace gemm_advisor
