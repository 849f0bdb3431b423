// libFuzzer target: one shape-list reader (open_shape_reader), chosen at compile time with
// FUZZ_SHAPE_FORMAT = csv, yaml, json, text or automatic (sniffed, as for stdin). Every entry is
// either a valid problem or a one-line "source:line: ..." error; the first few valid ones are
// estimated.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_util.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/shape_list.hpp"
#include "gemm_advisor/targets/triton.hpp"

#ifndef FUZZ_SHAPE_FORMAT
#error "define FUZZ_SHAPE_FORMAT (csv, yaml, json, text or automatic)"
#endif

using namespace gemm_advisor;

namespace {
const char* source_name(ShapeFormat f) {
  switch (f) {
    case ShapeFormat::csv: return "fuzz.csv";
    case ShapeFormat::yaml: return "fuzz.yaml";
    case ShapeFormat::json: return "fuzz.json";
    case ShapeFormat::text: return "fuzz.txt";
    default: return "<stdin>";
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const ShapeFormat format = ShapeFormat::FUZZ_SHAPE_FORMAT;
  const std::string source = source_name(format);
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  GemmProblem defaults;
  defaults.dtype = Dtype::fp16;
  std::size_t entries = 0, estimated = 0;
  try {
    auto reader = open_shape_reader(in, source, format, defaults);
    ShapeEntry e;
    while (reader->next(e)) {
      ++entries;
      fuzz_util::require(e.line >= 1, "entry without a line number");
      if (!e.error.empty()) {
        fuzz_util::require_one_line(e.error);
        fuzz_util::require(e.error.rfind(source + ":", 0) == 0, "error does not name the source:", e.error);
        continue;
      }
      fuzz_util::require_valid(e.problem);
      validate_problem(e.problem);
      if (estimated++ < 4)
        fuzz_util::require_sane(fuzz_util::estimate(e.problem, fuzz_util::nvidia(), triton_default_config()),
                                e.problem.shape_text());
    }
    fuzz_util::require(entries > 0, "an input without shapes ended without an error");
  } catch (const InputError& err) {
    fuzz_util::require_one_line(err.what());
  }
  return 0;
}
