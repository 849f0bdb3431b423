#pragma once
/// Which advisor wrote a result: its version, the commit it was built from, and a digest of what
/// its answers depend on besides the code (the shipped profiles and every target's model
/// parameters), so CI can tell two results apart and reproduce one.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace gemm_advisor {

/// The release version, "MAJOR.MINOR.PATCH".
const char* version();
/// The git commit of the source tree at build time (12 hex digits, "-dirty" with uncommitted
/// changes; "unknown" when built outside git).
const char* git_commit();
/// 16 hex digits: FNV-1a 64 over the embedded profiles' YAML text and every target's name and
/// default model parameters (printed with 17 significant digits). Computed once.
const std::string& model_digest();
/// 16 hex digits: FNV-1a 64 over `text` (a profile's YAML: Hardware::source_digest).
std::string text_digest(std::string_view text);
/// {"name": "gemm-advisor", "version", "commit", "model_digest"}: recorded in every JSON result.
nlohmann::json generator_json();
/// "gemm-advisor VERSION (commit C, model digest D)", as `--version` prints it.
std::string version_line();

}  // namespace gemm_advisor
