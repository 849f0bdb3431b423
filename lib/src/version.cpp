#include "gemm_advisor/version.hpp"

#include <cstdint>
#include <cstdio>

#include "gemm_advisor/model_params.hpp"
#include "gemm_advisor/profile.hpp"
#include "gemm_advisor/target.hpp"
#include "gemm_advisor_git_commit.hpp"  // generated at build time (cmake/git_commit.cmake)

namespace gemm_advisor {

const char* version() { return "0.2.0"; }

const char* git_commit() { return GEMM_ADVISOR_GIT_COMMIT; }

namespace {

// FNV-1a, 64 bits, over the texts added, as 16 hex digits.
class Fnv1a64 {
 public:
  void add(std::string_view text) {
    for (unsigned char ch : text) {
      h_ ^= ch;
      h_ *= 1099511628211ull;
    }
  }
  std::string hex() const {
    char out[17];
    std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h_));
    return out;
  }

 private:
  std::uint64_t h_ = 14695981039346656037ull;  // the offset basis
};

}  // namespace

std::string text_digest(std::string_view text) {
  Fnv1a64 d;
  d.add(text);
  return d.hex();
}

const std::string& model_digest() {
  static const std::string kDigest = [] {
    Fnv1a64 digest;
    for (const EmbeddedProfile& e : embedded_profiles()) {
      digest.add(e.name);
      digest.add(e.yaml);
    }
    char number[40];
    for (const Target* t : all_targets()) {
      digest.add(t->name());
      for (const ModelParamInfo& info : kModelParamRegistry) {
        std::snprintf(number, sizeof number, "%.17g", t->default_params().*(info.field));
        digest.add(info.name);
        digest.add(number);
      }
    }
    return digest.hex();
  }();
  return kDigest;
}

nlohmann::json generator_json() {
  return {{"name", "gemm-advisor"}, {"version", version()}, {"commit", git_commit()}, {"model_digest", model_digest()}};
}

std::string version_line() {
  return std::string("gemm-advisor ") + version() + " (commit " + git_commit() + ", model digest " + model_digest() +
         ")";
}

}  // namespace gemm_advisor
