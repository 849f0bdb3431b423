#pragma once
/// A user's fixed config list (`--candidates FILE`): CSV with columns
/// block_m,block_n,block_k,num_warps,num_stages and optional group_m (default 8), split_k (1).
#include <istream>
#include <string>
#include <vector>

#include "gemm_advisor/tile_config.hpp"

namespace gemm_advisor {

/// Reads the file ("-": stdin, named "<stdin>" in messages). Throws InputError "path:line: ..." for an unreadable file, a missing column,
/// a non-numeric or non-positive value, or a file with no configs. A config listed again is kept
/// once. `warnings`, when given, receives what the file has that the reader ignores, each
/// "path:line: message" (a column it does not know, such as a misspelled `splitk`, or a config
/// listed again), which a
/// caller should show: they do not stop the read. `lines`, when given, receives the line of each
/// returned config (same order), for messages about a config that name its place.
std::vector<TileConfig> read_candidates_file(const std::string& path, std::vector<std::string>* warnings = nullptr,
                                             std::vector<long>* lines = nullptr);

/// The same, from a stream; `source` names it in messages ("source:line: ...").
std::vector<TileConfig> read_candidates(std::istream& in, const std::string& source,
                                        std::vector<std::string>* warnings = nullptr,
                                        std::vector<long>* lines = nullptr);

}  // namespace gemm_advisor
