// libFuzzer target: the measurement CSV reader (read_measurements), and `evaluate` on what it
// reads when that is small. Rows are grouped into valid problems; a row "ok" has a positive time.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_util.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/evaluate.hpp"
#include "gemm_advisor/measurements.hpp"

using namespace gemm_advisor;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::vector<MeasuredShape> shapes;
  try {
    shapes = read_measurements(in, "fuzz.csv");
  } catch (const InputError& e) {
    fuzz_util::require_one_line(e.what());
    return 0;
  }
  fuzz_util::require(!shapes.empty(), "no shapes and no error");
  std::size_t configs = 0;
  for (const auto& s : shapes) {
    fuzz_util::require_valid(s.problem);
    fuzz_util::require(s.vendor_ms >= 0 && std::isfinite(s.vendor_ms), "bad vendor time");
    for (const auto& mc : s.configs) {
      ++configs;
      fuzz_util::require(mc.line >= 2, "row line before the header");
      fuzz_util::require(std::isfinite(mc.ms) && (mc.status != "ok" || mc.ms > 0), "bad time for an ok row");
    }
  }
  // evaluate ranks each shape's whole candidate space: keep it to small inputs for speed.
  if (shapes.size() <= 3 && configs <= 64) {
    try {
      const Evaluation e = evaluate(shapes, fuzz_util::nvidia(), triton_target(), 5);
      // Spearman is NaN by design where it is undefined (one config, equal times): it must stay
      // within [-1, 1] otherwise, and the mean must be NaN only when no shape defines it.
      fuzz_util::require(!std::isnan(e.geomean_pct_of_oracle), "NaN in the evaluation");
      bool any_rho = false;
      for (const auto& s : e.shapes) {
        fuzz_util::require(std::isnan(s.spearman) || (s.spearman >= -1.0 - 1e-9 && s.spearman <= 1.0 + 1e-9),
                           "Spearman outside [-1, 1]");
        any_rho = any_rho || !std::isnan(s.spearman);
      }
      fuzz_util::require(std::isnan(e.spearman) != any_rho, "mean Spearman NaN although a shape defines it");
    } catch (const InputError& e) {
      fuzz_util::require_one_line(e.what());
    }
  }
  return 0;
}
