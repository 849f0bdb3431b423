#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "gemm_advisor/error.hpp"
#include "gemm_advisor/hardware.hpp"
#include "gemm_advisor/model_params.hpp"
#include "gemm_advisor/moe.hpp"
#include "test_util.hpp"

using namespace gemm_advisor;

namespace {
std::string toy_text() { return read_text_file(test_util::source_path("tests/data/toy.yaml")); }
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto pos = text.find(from);
  REQUIRE(pos != std::string::npos);
  return text.replace(pos, from.size(), to);
}
}  // namespace

TEST_CASE("every shipped profile loads with no error and no warning", "[hardware]") {
  REQUIRE(embedded_profiles().size() >= 7);
  for (const auto& e : embedded_profiles()) {
    INFO("profile " << e.name);
    ProfileDiagnostics diag;
    const Profile hw = parse_profile(e.yaml, "embedded:" + std::string(e.name), &diag);
    CHECK(diag.errors.empty());
    for (const auto& w : diag.warnings) FAIL_CHECK(w);  // every number cites a source
    CHECK(hw.hw.name == e.name);
    CHECK(hw.hw.rate(Dtype::bf16) != nullptr);
    CHECK(hw.hw.smem_per_block_bytes <= hw.hw.smem_per_cu_bytes);
  }
}

TEST_CASE("shipped profiles reproduce the vendors' dense bf16 peaks", "[hardware]") {
  // Vendor datasheet figures, dense, no sparsity (DESIGN.md's table, checked against the vendors' pages;
  // MI325X: 1307.4 TFLOPS FP16/BF16, AMD ROCm blog 'Understanding Peak, Max-Achievable & Delivered
  // FLOPs', footnote 2, citing AMD's MI325X datasheet):
  const std::map<std::string, double> tflops = {{"mi350x", 2309.6}, {"mi355x", 2516.6}, {"mi300x", 1307.4},
                                                {"mi325x", 1307.4}, {"b200", 2250.0},   {"h100", 989.4},    {"h200", 989.4},
                                                {"a100", 312.0}};
  for (const auto& [name, peak] : tflops) {
    INFO(name);
    const Profile hw = load_profile(name);
    CHECK(hw.hw.peak_flops_per_s(Dtype::bf16) / 1e12 == Approx(peak).epsilon(0.01));
  }
}

TEST_CASE("dtype support follows the hardware", "[hardware]") {
  CHECK(load_profile("a100").hw.rate(Dtype::fp8) == nullptr);      // Ampere has no fp8 tensor cores
  CHECK(load_profile("h200").hw.rate(Dtype::fp8) != nullptr);
  CHECK(load_profile("mi350x").hw.rate(Dtype::fp4) != nullptr);    // CDNA4 MX fp4
  CHECK(load_profile("b200").hw.rate(Dtype::fp4) != nullptr);
  CHECK(load_profile("mi300x").hw.rate(Dtype::fp4) == nullptr);
}

TEST_CASE("unknown profile names list the known ones", "[hardware][errors]") {
  CHECK_THROWS_WITH(load_profile("rtx9090"), Catch::Contains("unknown hardware profile 'rtx9090'") &&
                                                  Catch::Contains("b200"));
  CHECK_THROWS_WITH(load_profile("/no/such/file.yaml"), Catch::Contains("/no/such/file.yaml: cannot open"));
  CHECK_THROWS_WITH(load_profile(test_util::source_path("tests")), Catch::Contains("is a directory"));
}

TEST_CASE("broken profiles give file:line errors", "[hardware][errors]") {
  const std::string good = toy_text();
  REQUIRE_NOTHROW(parse_profile(good, "toy.yaml"));
  // Line numbers: cu_count is on line 9 of tests/data/toy.yaml.
  CHECK_THROWS_WITH(parse_profile(replaced(good, "cu_count: 100", "cu_count: -4"), "bad.yaml"),
                    Catch::Contains("bad.yaml:9:") && Catch::Contains("compute.cu_count' must be positive"));
  CHECK_THROWS_WITH(parse_profile(replaced(good, "cu_count: 100", "cu_count: many"), "bad.yaml"),
                    Catch::Contains("bad.yaml:9:") && Catch::Contains("must be a number, got 'many'"));
  // An empty value is reported at its own line, not the next key's (yaml-cpp marks the null there).
  CHECK_THROWS_WITH(parse_profile(replaced(good, "cu_count: 100", "cu_count:"), "bad.yaml"),
                    Catch::Contains("bad.yaml:9:") && Catch::Contains("compute.cu_count' must be a number, got no value (null)"));
  // A list or a mapping is said as such (it was "must be a number" alone: a fresh user's find, 2026-12-06).
  CHECK_THROWS_WITH(parse_profile(replaced(good, "cu_count: 100", "cu_count: [100]"), "bad.yaml"),
                    Catch::Contains("bad.yaml:9:") && Catch::Contains("compute.cu_count' must be a number, got a list"));
  CHECK_THROWS_WITH(parse_profile(replaced(good, "cu_count: 100", "cu_count: {n: 100}"), "bad.yaml"),
                    Catch::Contains("compute.cu_count' must be a number, got a mapping"));
  CHECK_THROWS_WITH(parse_profile(replaced(good, "  cu_count: 100\n", ""), "bad.yaml"),
                    Catch::Contains("missing key 'compute.cu_count'"));
  CHECK_THROWS_WITH(parse_profile(replaced(good, "dram_bandwidth_bytes_per_s: 2.0e12", "dram_bandwidth_bytes_per_s: 0"), "bad.yaml"),
                    Catch::Contains("memory.dram_bandwidth_bytes_per_s' must be positive"));
  // A byte count is a whole number, and a value tagged !!int must be one (both were read as given).
  {
    ProfileDiagnostics diag;
    CHECK_THROWS_WITH(parse_profile(replaced(good, "cu_count: 100", "cu_count: !!int 100.5"), "bad.yaml", &diag),
                      Catch::Contains("bad.yaml:9:") && Catch::Contains("tagged !!int but is not a whole number"));
    CHECK(diag.errors.size() == 1);
  }
  CHECK_NOTHROW(parse_profile(replaced(good, "cu_count: 100", "cu_count: !!int 100"), "ok.yaml"));
  // YAML 1.2's integer spellings: 0o144 octal and 0x64 hexadecimal are 100; 0100 is decimal (YAML 1.2
  // has no leading-zero octal), as gemm-advisor's integer options read it.
  CHECK(parse_profile(replaced(good, "cu_count: 100", "cu_count: 0o144"), "ok.yaml").hw.cu_count == 100);
  CHECK(parse_profile(replaced(good, "cu_count: 100", "cu_count: 0x64"), "ok.yaml").hw.cu_count == 100);
  CHECK(parse_profile(replaced(good, "cu_count: 100", "cu_count: 0100"), "ok.yaml").hw.cu_count == 100);
  CHECK_THROWS_WITH(parse_profile(replaced(good, "cu_count: 100", "cu_count: 0o18"), "bad.yaml"),
                    Catch::Contains("must be a number, got '0o18'"));
  // strtod's hexadecimal fractions are no YAML number (0x1.9p+6 was read as 100).
  CHECK_THROWS_WITH(parse_profile(replaced(good, "cu_count: 100", "cu_count: 0x1.9p+6"), "bad.yaml"),
                    Catch::Contains("must be a decimal number or a hexadecimal integer, got '0x1.9p+6'"));
  CHECK_THROWS_WITH(parse_profile(replaced(good, "cu_count: 100", "cu_count: 0x19P2"), "bad.yaml"),
                    Catch::Contains("got '0x19P2'"));
  // A digit separator gets a hint; a key written as a list is one error, not also "missing key".
  CHECK_THROWS_WITH(parse_profile(replaced(good, "cu_count: 100", "cu_count: 1_00"), "bad.yaml"),
                    Catch::Contains("got '1_00' (YAML has no digit separators: write 100)"));
  {
    ProfileDiagnostics diag;
    CHECK_THROWS_WITH(parse_profile(replaced(good, "cu_count: 100", "[cu_count]: 100"), "bad.yaml", &diag),
                      Catch::Contains("bad.yaml:9:") && Catch::Contains("must be a name, got a list"));
    CHECK(diag.errors.size() == 1);
  }
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"l2_bytes: 50000000", "l2_bytes: 50000000.5"},
                                 {"dram_bytes: 80000000000", "dram_bytes: 80000000000.25"}}) {
    INFO(to);
    ProfileDiagnostics diag;
    CHECK_THROWS_WITH(parse_profile(replaced(good, from, to), "bad.yaml", &diag),
                      Catch::Contains("is a byte count and must be a whole number"));
    CHECK(diag.errors.size() == 1);
  }
  // The optional store rate of misaligned output rows (efficiency.misaligned_store_fraction): a
  // fraction in (0, 1]; absent, 1.
  CHECK(parse_profile(good, "toy.yaml").hw.misaligned_store_fraction == 1.0);
  const std::string efficiency = "efficiency:\n";
  CHECK(parse_profile(replaced(good, efficiency, efficiency + "  misaligned_store_fraction: 0.5\n"), "ok.yaml")
            .hw.misaligned_store_fraction == 0.5);
  CHECK_THROWS_WITH(parse_profile(replaced(good, efficiency, efficiency + "  misaligned_store_fraction: 2\n"), "bad.yaml"),
                    Catch::Contains("bad.yaml:") && Catch::Contains("misaligned_store_fraction' is a fraction"));
  CHECK_THROWS_WITH(parse_profile(replaced(good, efficiency, efficiency + "  misaligned_store_fraction: 0\n"), "bad.yaml"),
                    Catch::Contains("misaligned_store_fraction' must be positive"));
  // One bad value, one error (a fresh user's find: 1.5 also drew "outside the plausible range", 0
  // the same after "must be positive").
  for (const char* value : {"1.5", "0", "-1", "0.001"}) {
    INFO(value);
    ProfileDiagnostics diag;
    CHECK_THROWS(parse_profile(replaced(good, efficiency, efficiency + "  misaligned_store_fraction: " + value + "\n"),
                               "bad.yaml", &diag));
    CHECK(diag.errors.size() == 1);
  }
  // triton.misaligned_store_scratch_min_warps: a whole number of warps, 0 to 32; absent, 0.
  CHECK(parse_profile(good, "toy.yaml").triton.misaligned_store_scratch_min_warps == 0);
  const std::string triton_section = "triton:\n";
  REQUIRE(good.find(triton_section) != std::string::npos);
  CHECK(parse_profile(replaced(good, triton_section, triton_section + "  misaligned_store_scratch_min_warps: 8\n"), "ok.yaml")
            .triton.misaligned_store_scratch_min_warps == 8);
  for (const char* value : {"-1", "33", "4.5", "eight"}) {
    INFO(value);
    CHECK_THROWS_WITH(parse_profile(replaced(good, triton_section,
                                             triton_section + "  misaligned_store_scratch_min_warps: " + value + "\n"),
                                    "bad.yaml"),
                      Catch::Contains("bad.yaml:") && Catch::Contains("triton.misaligned_store_scratch_min_warps"));
  }
  CHECK_THROWS_WITH(parse_profile(replaced(good, "clock_mhz: 1000", "clock_mhz: .inf"), "bad.yaml"),
                    Catch::Contains("must be a number") || Catch::Contains("must be finite"));
  CHECK_THROWS_WITH(parse_profile(replaced(good, "smem_per_block_bytes: 232448", "smem_per_block_bytes: 300000"), "bad.yaml"),
                    Catch::Contains("exceeds 'compute.smem_per_cu_bytes'"));
  CHECK_THROWS_WITH(parse_profile(replaced(good, "vendor: nvidia", "vendor: intel"), "bad.yaml"),
                    Catch::Contains("'vendor' must be nvidia or amd"));
  CHECK_THROWS_WITH(parse_profile(replaced(good, "compute:\n", "compute:\n  cu_count: 7\n"), "bad.yaml"),
                    Catch::Contains("duplicate key 'compute.cu_count'"));
  CHECK_THROWS_WITH(parse_profile("name: [unclosed\n", "bad.yaml"), Catch::Contains("bad.yaml:") && Catch::Contains("not valid YAML"));
  CHECK_THROWS_WITH(parse_profile("- just\n- a list\n", "bad.yaml"), Catch::Contains("expected a YAML mapping"));
  // Values that parse but no GPU has (a unit slip): 1e-300 bytes/s, a 1e-3 MHz clock, 1000 XCDs on 100 CUs.
  CHECK_THROWS_WITH(parse_profile(replaced(good, "dram_bandwidth_bytes_per_s: 2.0e12", "dram_bandwidth_bytes_per_s: 1e-300"), "bad.yaml"),
                    Catch::Contains("outside the plausible range"));
  CHECK_THROWS_WITH(parse_profile(replaced(good, "clock_mhz: 1000", "clock_mhz: 0.001"), "bad.yaml"),
                    Catch::Contains("'compute.clock_mhz' = 0.001 is outside the plausible range"));
  CHECK_THROWS_WITH(parse_profile(replaced(good, "xcd_count: 1", "xcd_count: 1000"), "bad.yaml"),
                    Catch::Contains("'memory.xcd_count' = 1000 exceeds 'compute.cu_count' = 100 (each XCD holds at "
                                    "least one CU: check both)"));
  // A billion CUs passed `profiles validate` and ranked 16x16 tiles split 16 ways (a fresh user's find).
  CHECK_THROWS_WITH(parse_profile(replaced(good, "cu_count: 100", "cu_count: 1000000000"), "bad.yaml"),
                    Catch::Contains("'compute.cu_count' = 1000000000 is outside the plausible range [1, 100000]"));
  // matrix_units_per_cu had no range (1e9 validated: a fresh user's find, 2026-12-05); fewer warps to
  // feed the units than units is warned of.
  CHECK_THROWS_WITH(parse_profile(replaced(good, "matrix_units_per_cu: 4", "matrix_units_per_cu: 1000000000"), "bad.yaml"),
                    Catch::Contains("'compute.matrix_units_per_cu' = 1000000000 is outside the plausible range [1, 64]"));
  ProfileDiagnostics few_warps;
  (void)parse_profile(replaced(good, "warps_to_feed_matrix_units: 4", "warps_to_feed_matrix_units: 2"), "w.yaml", &few_warps);
  REQUIRE(few_warps.warnings.size() == 1);
  CHECK_THAT(few_warps.warnings[0], Catch::StartsWith("w.yaml:13: 'compute.warps_to_feed_matrix_units' (2) is below "
                                                      "'compute.matrix_units_per_cu' (4)"));
  CHECK_THROWS_WITH(parse_profile(replaced(good, "name: toy", "name: \"\""), "bad.yaml"),
                    Catch::Contains("'name' must not be empty"));
  CHECK_THROWS_WITH(parse_profile(replaced(good, "matrix_peak_fraction: 1.0", "matrix_peak_fraction: 80"), "bad.yaml"),
                    Catch::Contains("is a fraction and must be at most 1"));
}

TEST_CASE("unknown keys and unsourced numbers are warnings, not errors", "[hardware]") {
  std::string text = replaced(toy_text(), "compute:\n", "compute:\n  turbo_mode: 3\n");
  text = replaced(text, "  compute.cu_count: \"chosen for hand calculation\"\n", "");
  ProfileDiagnostics diag;
  REQUIRE_NOTHROW(parse_profile(text, "warn.yaml", &diag));
  REQUIRE(diag.warnings.size() == 2);
  CHECK_THAT(diag.warnings[0], Catch::Contains("warn.yaml:9:") && Catch::Contains("unknown key 'compute.turbo_mode'"));
  // At the unsourced key's own line (10: turbo_mode took line 9), not the `sources:` map's (a fresh
  // user's find, 2026-12-04).
  CHECK(diag.warnings[1] == "warn.yaml:10: 'compute.cu_count' has no entry in 'sources'");
}

TEST_CASE("a sources entry naming no key of the profile is a warning at its line", "[hardware]") {
  // A fresh user's find: a misspelt sources key was taken silently (line 41 of tests/data/toy.yaml
  // cites compute.cu_count; here it cites compute.cu_cout, so cu_count goes unsourced as well).
  const std::string text = replaced(toy_text(), "  compute.cu_count: \"chosen", "  compute.cu_cout: \"chosen");
  ProfileDiagnostics diag;
  REQUIRE_NOTHROW(parse_profile(text, "typo.yaml", &diag));
  REQUIRE(diag.warnings.size() == 2);
  CHECK(diag.warnings[0] == "typo.yaml:41: 'sources' entry 'compute.cu_cout' names no key of the profile "
                            "(keys are dotted paths from the top)");
  CHECK_THAT(diag.warnings[1], Catch::Contains("'compute.cu_count' has no entry in 'sources'"));
  // A path through a number (compute.cu_count.x) or to a section that is not there names no key either.
  for (const char* bad : {"compute.cu_count.x", "nosuch.cu_count"}) {
    ProfileDiagnostics d;
    parse_profile(replaced(toy_text(), "sources:\n", std::string("sources:\n  ") + bad + ": \"x\"\n"), "t.yaml", &d);
    REQUIRE(d.warnings.size() == 1);
    CHECK_THAT(d.warnings[0], Catch::Contains(std::string("'") + bad + "' names no key"));
  }
}

TEST_CASE("values no GPU of the profile's vendor has are said (a fresh user's finds, 2026-12-03)", "[hardware]") {
  const std::string good = toy_text();
  // More warps to feed the matrix units than a CU holds: no config could reach the peak (the model
  // predicted 3.5 TFLOP/s on an H200 profile with 1000): an error, at the line (13 of toy.yaml).
  CHECK_THROWS_WITH(parse_profile(replaced(good, "warps_to_feed_matrix_units: 4", "warps_to_feed_matrix_units: 65"), "bad.yaml"),
                    Catch::Contains("bad.yaml:13:") && Catch::Contains("exceeds 'compute.max_warps_per_cu' (64)"));
  // Warnings, each at its line: another vendor's architecture or ISA, chiplets on NVIDIA, instruction
  // sizes no matrix instruction has, a sources list instead of a mapping.
  const std::pair<std::string, std::string> cases[] = {
      {replaced(good, "arch: hopper", "arch: cdna3"), "x.yaml:6: 'arch' = 'cdna3' is not an nvidia architecture"},
      {replaced(good, "isa: sm_90", "isa: gfx942"), "x.yaml:7: 'isa' = 'gfx942' is not an nvidia ISA"},
      // An NVIDIA ISA no profile was written for (Volta's sm_70 passed unsaid until a fresh user's
      // second pass, 2026-12-03).
      {replaced(good, "isa: sm_90", "isa: sm_70"), "x.yaml:7: 'isa' = 'sm_70' is not an nvidia ISA the advisor knows"},
      // Both known, of different generations (passed unsaid: a fresh user's find, 2026-12-05).
      {replaced(good, "isa: sm_90", "isa: sm_80"), "x.yaml:7: 'isa' = 'sm_80' is not hopper's ISA (sm_90"},
      {replaced(good, "xcd_count: 1", "xcd_count: 5"), "x.yaml:30: 'memory.xcd_count' = 5 on an NVIDIA GPU"},
      {replaced(good, "bf16: {instruction_m: 16", "bf16: {instruction_m: 3"),
       "x.yaml:35: 'matrix.bf16.instruction_m' = 3 is not a power of two"},
      {replaced(good, "bf16: {instruction_m: 16, instruction_n: 8", "bf16: {instruction_m: 16, instruction_n: 12"),
       "x.yaml:35: 'matrix.bf16.instruction_n' = 12 is neither a power of two nor a multiple of 8"},
  };
  for (const auto& [text, warning] : cases) {
    INFO(warning);
    ProfileDiagnostics diag;
    REQUIRE_NOTHROW(parse_profile(text, "x.yaml", &diag));
    REQUIRE(diag.warnings.size() == 1);
    CHECK_THAT(diag.warnings[0], Catch::StartsWith(warning));
  }
  // wgmma's N of 24 (a multiple of 8) is a real instruction: no warning.
  ProfileDiagnostics ok;
  parse_profile(replaced(good, "bf16: {instruction_m: 16, instruction_n: 8", "bf16: {instruction_m: 16, instruction_n: 24"),
                "ok.yaml", &ok);
  CHECK(ok.warnings.empty());
  // A sources list: said at its own line (40), not at the top of the file.
  const std::string head = good.substr(0, good.find("\nsources:") + 1);
  ProfileDiagnostics list;
  REQUIRE_NOTHROW(parse_profile(head + "sources: [a, b]\n", "list.yaml", &list));
  REQUIRE(list.warnings.size() == 1);
  CHECK_THAT(list.warnings[0], Catch::StartsWith("list.yaml:40: 'sources' must be a mapping"));
}

TEST_CASE("units are converted once at the boundary", "[hardware]") {
  const Profile hw = test_util::toy();
  CHECK(hw.hw.clock_hz == Approx(1e9));
  CHECK(hw.hw.dram_latency_s == Approx(500e-9));
  CHECK(hw.hw.l2_latency_s == Approx(200e-9));                  // 200 cycles at 1 GHz
  CHECK(hw.hw.per_cu_load_bytes_per_s == Approx(128e9));       // 128 B/cycle at 1 GHz
  CHECK(hw.hw.peak_flops_per_s(Dtype::bf16) == Approx(102.4e12));  // 100 * 1024 * 1e9
}

TEST_CASE("model_parameters outside the range the model stays finite in are errors", "[hardware][errors]") {
  // A fresh user's finds: these loaded, and every prediction became infinite (a zero fill rate or
  // headroom divides by zero, a 1e308 s launch overflows the sum).
  const std::string good = toy_text() + "model_parameters:\n";
  auto with = [&](const std::string& line) { return parse_profile(good + "  " + line + "\n", "mp.yaml"); };
  CHECK_THROWS_WITH(with("async_copy_fill_fraction: 0"),
                    Catch::Contains("'model_parameters.async_copy_fill_fraction' = 0 is outside the plausible range"));
  CHECK_THROWS_WITH(with("dram_active_cu_headroom: 0"), Catch::Contains("outside the plausible range"));
  CHECK_THROWS_WITH(with("launch_overhead_s: 1e308"), Catch::Contains("outside the plausible range [0, 0.01]"));
  CHECK_THROWS_WITH(with("k_step_overhead_overlap: 1.5"), Catch::Contains("outside the plausible range [0, 1]"));
  CHECK_THROWS_WITH(with("narrow_tile_matrix_efficiency: 0"), Catch::Contains("outside the plausible range"));
  // One message per bad value, not a second "plausible range" line; a negative value is told the
  // parameter's range ("must be zero or positive" sent a user to 0, outside [0.001, 1] for
  // idle_latency_fraction: a fresh user's find, 2026-12-06).
  try {
    with("loaded_latency_multiplier: -1");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(), Catch::Contains("'model_parameters.loaded_latency_multiplier' = -1 is outside the plausible "
                                         "range [0, 1000]"));
  }
  CHECK_THROWS_WITH(with("idle_latency_fraction: -1"), Catch::Contains("= -1 is outside the plausible range [0.001, 1]"));
  ProfileDiagnostics diag;
  CHECK_THROWS(parse_profile(good + "  loaded_latency_multiplier: -1\n", "mp.yaml", &diag));
  CHECK(diag.errors.size() == 1);
  // Underflow is too close to zero, not "not finite" (nor "out of the range of a double": 1e-320 is a
  // subnormal double); overflow is out of range.
  CHECK_THROWS_WITH(with("near_tie_tolerance: 1e-320"), Catch::Contains("is too close to zero (under 2.2e-308"));
  CHECK_THROWS_WITH(with("k_step_overhead_cycles: 1e999"), Catch::Contains("must be finite") ||
                                                                Catch::Contains("is out of the range of a double"));
  // In range: taken.
  CHECK(test_util::params(with("k_step_overhead_cycles: 0")).k_step_overhead_cycles == 0.0);
  CHECK(test_util::params(with("k_step_overhead_overlap: 0.5")).k_step_overhead_overlap == 0.5);
}

TEST_CASE("profiles/SCHEMA.md lists every model parameter of the registry", "[hardware][docs]") {
  // A fresh user's find: tail_wave_fill_relief and lone_warpgroup_step_cycles were missing there.
  std::ifstream in(test_util::source_path("profiles/SCHEMA.md"));
  REQUIRE(in);
  const std::string schema((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const ModelParamInfo& p : kModelParamRegistry) {
    INFO(p.name);
    CHECK(schema.find("`" + std::string(p.name) + "`") != std::string::npos);
  }
}

TEST_CASE("a bad name or an empty matrix section gives one true message", "[hardware][errors]") {
  const std::string good = toy_text();
  ProfileDiagnostics diag;
  CHECK_THROWS(parse_profile(replaced(good, "name: toy", "name: \"toy\\e[31m\""), "bad.yaml", &diag));
  REQUIRE(diag.errors.size() == 1);  // not also "'name' must not be empty"
  CHECK_THAT(diag.errors[0], Catch::Contains("'name' must be one line of text"));
  // `matrix:` with no entries: the section is empty and needs a dtype (it said "must be a mapping"), and
  // no second message at line 0.
  const auto at = good.find("matrix:\n");
  REQUIRE(at != std::string::npos);
  const std::string no_matrix = good.substr(0, at) + "matrix:\n" + good.substr(good.find("triton:"));
  ProfileDiagnostics diag2;
  CHECK_THROWS(parse_profile(no_matrix, "bad.yaml", &diag2));
  REQUIRE(!diag2.errors.empty());
  CHECK_THAT(diag2.errors[0], Catch::Contains("section 'matrix' is empty: give at least one dtype's matrix rate"));
  for (const auto& error : diag2.errors) CHECK_THAT(error, !Catch::Contains("bad.yaml:0:"));
  // A model parameter at the top level is an error, and not also warned of as "unknown key (ignored)":
  // it is not ignored (a fresh user's find, 2026-12-06).
  ProfileDiagnostics diag3;
  CHECK_THROWS(parse_profile(good + "launch_overhead_s: 0.001\n", "bad.yaml", &diag3));
  REQUIRE(diag3.errors.size() == 1);
  CHECK_THAT(diag3.errors[0], Catch::Contains("'launch_overhead_s' is a model parameter: it goes under 'model_parameters:'"));
  for (const auto& w : diag3.warnings) CHECK_THAT(w, !Catch::Contains("(ignored)"));
  // warp_size has one bound, the plausible range's 128 (256 and 1025 were told two different ones).
  for (const char* size : {"256", "1025"}) {
    ProfileDiagnostics diag4;
    CHECK_THROWS(parse_profile(replaced(good, "warp_size: 32", std::string("warp_size: ") + size), "bad.yaml", &diag4));
    REQUIRE(!diag4.errors.empty());
    CHECK_THAT(diag4.errors[0], Catch::Contains("is larger than the most plausible 128"));
  }
}

TEST_CASE("an empty mapping is reported at its own key's line, not the next key's", "[hardware][errors]") {
  // yaml-cpp marks `key:` with nothing after it at the next token: an empty `model_parameters:` was
  // reported at the line below it (a fresh user's find, 2026-12-06). The expected line is counted here.
  const std::string good = toy_text();
  const long base = static_cast<long>(std::count(good.begin(), good.end(), '\n'));  // the toy ends with '\n'
  const struct {
    const char* tail;
    long key_line;  // 1-based within the tail
    const char* what;
  } cases[] = {
      {"model_parameters:\ntargets: {}\n", 1, "'model_parameters' must be a mapping"},
      {"targets:\n  triton:\n    model_parameters:\n\n# c\ncalibration: {}\n", 3,
       "'targets.triton.model_parameters' must be a mapping"},
      {"targets:\n  triton:\n\nfoo: 1\n", 2, "'targets.triton' must be a mapping"},
      {"targets:\n# c\nfoo: 1\n", 1, "'targets' must be a mapping of target names"},
      {"calibration:\nfoo: 1\n", 1, "'calibration' must be a mapping"},
  };
  for (const auto& c : cases) {
    INFO(c.tail);
    ProfileDiagnostics diag;
    CHECK_THROWS(parse_profile(good + c.tail, "e.yaml", &diag));
    REQUIRE(!diag.errors.empty());
    CHECK_THAT(diag.errors[0], Catch::StartsWith("e.yaml:" + std::to_string(base + c.key_line) + ": ") &&
                                   Catch::Contains(c.what));
  }
}

TEST_CASE("a calibrated overlay's fitted sizes are read, checked, and told of a shape outside them", "[hardware][calibrate]") {
  // calibration.fitted_shapes, as calibrate writes it (2026-12-07): an overlay fitted on skinny shapes
  // moved 4096^3 unsaid before (a fresh user's find, 2026-12-06). Expected ranges and messages by hand.
  const std::string good = toy_text();
  const long base = static_cast<long>(std::count(good.begin(), good.end(), '\n'));
  // The two sections' parameters, as calibrate writes them beside their ranges.
  const std::string cal = "targets:\n  triton:\n    model_parameters: {k_step_overhead_cycles: 500}\n"
                          "  vllm-fused-moe:\n    fp8_block:\n      model_parameters: {k_step_overhead_cycles: 2000}\n"
                          "calibration:\n  fitted_shapes:\n    triton: {m: [1, 16], n: [576, 7168], k: [512, 7168]}\n"
                          "    vllm-fused-moe.fp8_block: {m: [1, 512], n: [1536, 1536], k: [7168, 7168]}\n";
  const Profile p = parse_profile(good + cal, "o.yaml");
  REQUIRE(p.fitted_shapes.size() == 2);
  const FittedShapeRange& t = p.fitted_shapes.at("triton");
  CHECK((t.m_min == 1 && t.m_max == 16 && t.n_min == 576 && t.n_max == 7168 && t.k_min == 512 && t.k_max == 7168));
  GemmProblem inside;
  inside.m = 16, inside.n = 576, inside.k = 7168;  // each on a bound: inside
  CHECK(outside_fitted_shapes_warning(p, "triton", "", inside, "o.yaml").empty());
  GemmProblem big = inside;
  big.m = 4096, big.k = 100;
  CHECK(outside_fitted_shapes_warning(p, "triton", "", big, "o.yaml") ==
        "outside the shapes o.yaml's triton parameters were calibrated on: M 4096 (fitted 1-16), K 100 (fitted 512-7168); "
        "the fitted values are extrapolated here (calibrate on shapes like it for a fit to them)");
  // Only the section the problem runs with: another target's, or the target's other set, has no range.
  CHECK(outside_fitted_shapes_warning(p, "triton-tutorial", "", big, "o.yaml").empty());
  CHECK(outside_fitted_shapes_warning(p, "vllm-fused-moe", "", big, "o.yaml").empty());
  CHECK_THAT(outside_fitted_shapes_warning(p, "vllm-fused-moe", "fp8_block", big, "o.yaml"),
             Catch::StartsWith("outside the shapes o.yaml's vllm-fused-moe.fp8_block parameters were calibrated on: "
                               "M 4096 (fitted 1-512), N 576 (fitted 1536-1536), K 100 (fitted 7168-7168)"));
  // A fused-MoE launch is checked as its layer (tokens, per-rank intermediate, hidden): a layer of
  // intermediate 1536 and hidden 7168 at 64 tokens is inside, so are its up GEMM (N 3072, K 7168) and
  // down GEMM (N 7168, K 1536); the launches' own sizes against the range warned wrongly before (a
  // fresh user's find, 2026-12-07).
  GemmProblem layer;
  layer.m = 64, layer.n = 1536, layer.k = 7168;
  layer.moe.experts = 256, layer.moe.top_k = 8, layer.moe.gemm = MoeGemm::layer;
  for (const GemmProblem& q : {layer, moe_layer_gemms(layer)[0], moe_layer_gemms(layer)[1]}) {
    INFO(q.shape_text());
    CHECK(outside_fitted_shapes_warning(p, "vllm-fused-moe", "fp8_block", q, "o.yaml").empty());
  }
  GemmProblem wider = layer;
  wider.n = 3000;
  CHECK_THAT(outside_fitted_shapes_warning(p, "vllm-fused-moe", "fp8_block", moe_layer_gemms(wider)[1], "o.yaml"),
             Catch::Contains("calibrated on: intermediate (per rank) 3000 (fitted 1536-1536); the fitted values"));
  // A section no target runs with (a misspelt name, an unknown parameter set): a warning at its key.
  ProfileDiagnostics misspelt;
  (void)parse_profile(good + "calibration:\n  fitted_shapes:\n    trito: {m: [1, 2], n: [1, 2], k: [1, 2]}\n"
                             "    vllm-fused-moe.fp9: {m: [1, 2], n: [1, 2], k: [1, 2]}\n", "w.yaml", &misspelt);
  REQUIRE(misspelt.warnings.size() == 2);
  CHECK(misspelt.warnings[0] == "w.yaml:" + std::to_string(base + 3) + ": 'calibration.fitted_shapes.trito' names no "
                                "target's parameters (a target's name, or TARGET.SET of its parameter sets): its range "
                                "is never checked");
  CHECK_THAT(misspelt.warnings[1], Catch::StartsWith("w.yaml:" + std::to_string(base + 4) +
                                                     ": 'calibration.fitted_shapes.vllm-fused-moe.fp9' names no"));
  CHECK(parse_profile(good + cal, "o.yaml").fitted_shapes.size() == 2);  // the two real sections: no warning
  ProfileDiagnostics real;
  (void)parse_profile(good + cal, "o.yaml", &real);
  CHECK(real.warnings.empty());
  // A range for a section the profile gives no values for, and values with no range, are said; a
  // second entry of one section is an error (the last was taken, and calibrate wrote the stale one
  // back: a fresh user's find, 2026-12-07).
  ProfileDiagnostics crossed;
  (void)parse_profile(good + replaced(cal, "    triton: {m:", "    triton-tutorial: {m:"), "x.yaml", &crossed);
  REQUIRE(crossed.warnings.size() == 2);
  CHECK_THAT(crossed.warnings[0], Catch::Contains("'calibration.fitted_shapes.triton-tutorial': the profile gives no "
                                                  "model parameters for triton-tutorial"));
  CHECK_THAT(crossed.warnings[1], Catch::Contains("'calibration.fitted_shapes' has no entry for the model parameters of "
                                                  "triton: shapes ranked with them are never checked"));
  ProfileDiagnostics twice;
  CHECK_THROWS(parse_profile(good + cal + "    triton: {m: [1, 2], n: [1, 2], k: [1, 2]}\n", "d.yaml", &twice));
  REQUIRE(!twice.errors.empty());
  CHECK_THAT(twice.errors[0], Catch::EndsWith(": duplicate key 'calibration.fitted_shapes.triton'"));
  // The fit's dtypes, where recorded: another dtype is outside (bad lists: the table below).
  const Profile typed = parse_profile(replaced(good + cal, "k: [512, 7168]}", "k: [512, 7168], dtypes: [bf16, fp16]}"),
                                      "t.yaml");
  REQUIRE(typed.fitted_shapes.at("triton").dtypes == std::vector<Dtype>{Dtype::fp16, Dtype::bf16});
  GemmProblem fp8 = inside;
  fp8.dtype = Dtype::fp8;
  CHECK(outside_fitted_shapes_warning(typed, "triton", "", inside, "t.yaml").empty());  // bf16, the default
  CHECK_THAT(outside_fitted_shapes_warning(typed, "triton", "", fp8, "t.yaml"),
             Catch::Contains("calibrated on: dtype fp8 (fitted fp16, bf16); the fitted values are extrapolated"));
  // The fit's batch range and layouts, where recorded (since 2026-12-07; a NT batch-1 fit was applied
  // to TT at batch 512 unsaid): outside either is said after the sizes; without them (an earlier
  // overlay), no check. Names other than the standard ones, or one twice, are errors in each list.
  const Profile shaped = parse_profile(
      replaced(good + cal, "k: [512, 7168]}", "k: [512, 7168], batch: [1, 8], layouts: [NT, NN]}"), "s.yaml");
  const FittedShapeRange& sr = shaped.fitted_shapes.at("triton");
  CHECK((sr.batch_min == 1 && sr.batch_max == 8 && sr.layouts == std::vector<std::string>{"NN", "NT"}));
  CHECK((t.batch_max == 0 && t.layouts.empty()));  // not recorded
  GemmProblem batched = inside;  // the default layout, NT
  batched.batch = 8;
  CHECK(outside_fitted_shapes_warning(shaped, "triton", "", batched, "s.yaml").empty());
  batched.batch = 512;
  batched.layout = parse_layout("TT");
  CHECK_THAT(outside_fitted_shapes_warning(shaped, "triton", "", batched, "s.yaml"),
             Catch::Contains("calibrated on: batch 512 (fitted 1-8), layout TT (fitted NN, NT); the fitted values"));
  CHECK(outside_fitted_shapes_warning(p, "triton", "", batched, "o.yaml").empty());  // no batch or layouts recorded
  for (const auto& [extra, what] :
       {std::pair<const char*, const char*>{"dtypes: [bf16, float16]", "'float16' is not a dtype's standard name"},
        {"dtypes: [bf16, bf16]", "bf16 is listed twice"},
        {"dtypes: []", "must be a list of dtype names"},
        {"layouts: [NT, nt]", "'nt' is not a layout (NN, NT, TN or TT)"},
        {"layouts: [NT, NT]", "NT is listed twice"},
        {"layouts: []", "must be a list of layouts"},
        {"batch: [8, 1]", "'calibration.fitted_shapes.triton.batch': the least, 8, is more than the largest, 1"},
        {"batch: [0, 1]", "two whole numbers of at least 1"}}) {
    INFO(extra);
    ProfileDiagnostics d;
    CHECK_THROWS(parse_profile(replaced(good + cal, "k: [512, 7168]}", std::string("k: [512, 7168], ") + extra + "}"),
                               "s.yaml", &d));
    REQUIRE(!d.errors.empty());
    CHECK_THAT(d.errors[0], Catch::Contains(what));
  }
  // A shipped profile records none: never a warning.
  CHECK(outside_fitted_shapes_warning(parse_profile(good, "g.yaml"), "triton", "", big, "g.yaml").empty());
  // Ranges that cannot be: an error at the range's line (the toy's lines, then the section's third).
  const struct {
    const char* range;
    const char* what;
  } bad[] = {
      {"{m: [16, 1], n: [1, 2], k: [1, 2]}", "'calibration.fitted_shapes.triton.m': the least, 16, is more than the largest, 1"},
      {"{m: [0, 1], n: [1, 2], k: [1, 2]}", "'calibration.fitted_shapes.triton.m' must be [least, largest], two whole "
                                           "numbers of at least 1"},
      {"{m: [1.5, 2], n: [1, 2], k: [1, 2]}", "two whole numbers of at least 1"},
      {"{m: [1], n: [1, 2], k: [1, 2]}", "'calibration.fitted_shapes.triton.m' must be [least, largest], two whole numbers"},
      {"{n: [1, 2], k: [1, 2]}", "'calibration.fitted_shapes.triton' lacks 'm'"},
      {"[1, 2]", "'calibration.fitted_shapes.triton' must be a mapping {m: [least, largest]"},
  };
  for (const auto& c : bad) {
    INFO(c.range);
    ProfileDiagnostics diag;
    CHECK_THROWS(parse_profile(good + "calibration:\n  fitted_shapes:\n    triton: " + c.range + "\n", "e.yaml", &diag));
    REQUIRE(!diag.errors.empty());
    CHECK_THAT(diag.errors[0], Catch::StartsWith("e.yaml:" + std::to_string(base + 3) + ": ") && Catch::Contains(c.what));
  }
}

TEST_CASE("matrix rates out of the order every shipped GPU has are warned at the figure", "[hardware][errors]") {
  // A bf16 rate 10x the fp16 one validated unsaid (a fresh user's find, 2026-12-06). The toy's bf16 and
  // fp16 are 1024 each (line 35, 36); every shipped profile has bf16 = fp16 <= fp8 and fp32 <= fp16.
  const std::string good = toy_text();
  const std::string bf16 = "  bf16: {instruction_m: 16, instruction_n: 8, instruction_k: 16, flops_per_cycle_per_cu: 1024}";
  ProfileDiagnostics same;
  (void)parse_profile(good, "t.yaml", &same);
  CHECK(same.warnings.empty());
  ProfileDiagnostics tenfold;
  (void)parse_profile(replaced(good, bf16, replaced(bf16, "1024}", "10240}")), "t.yaml", &tenfold);
  REQUIRE(tenfold.warnings.size() == 1);
  CHECK(tenfold.warnings[0] == "t.yaml:35: 'matrix.bf16.flops_per_cycle_per_cu' (10240) differs from "
                               "'matrix.fp16.flops_per_cycle_per_cu' (1024), as no GPU shipped here has it: check the "
                               "figure and its unit");
  // fp8 below the 16-bit rate, and fp32 above it: each said at its own line (37, after fp16).
  for (const auto& [line, what] : {std::pair<std::string, std::string>{"  fp8: {instruction_m: 16, instruction_n: 8, "
                                                                       "instruction_k: 32, flops_per_cycle_per_cu: 512}",
                                                                       "'matrix.fp8.flops_per_cycle_per_cu' (512) is below"},
                                   {"  fp32: {instruction_m: 16, instruction_n: 8, instruction_k: 8, "
                                    "flops_per_cycle_per_cu: 2048, tf32: true}",
                                    "'matrix.fp32.flops_per_cycle_per_cu' (2048) is above"}}) {
    INFO(line);
    ProfileDiagnostics d;
    (void)parse_profile(replaced(good, bf16, bf16 + "\n" + line), "t.yaml", &d);
    REQUIRE(!d.warnings.empty());
    CHECK_THAT(d.warnings[0], Catch::StartsWith("t.yaml:36: " + what));
  }
}

TEST_CASE("a profile's memory hierarchy is in order, and its sources cite something", "[hardware][errors]") {
  // A fresh user's profile pass (2026-12-04): an L2 larger than the DRAM and a per-CU shared memory of
  // 100 (KB written as bytes) were taken; a cache slower than the DRAM, and citations that say nothing
  // (empty, null, a number) or are given twice, passed without a word.
  const std::string good = toy_text();
  CHECK_THROWS_WITH(parse_profile(replaced(good, "dram_bytes: 80000000000", "dram_bytes: 40000000"), "bad.yaml"),
                    Catch::Contains("bad.yaml:21: 'memory.l2_bytes' (50000000) exceeds 'memory.dram_bytes' (40000000)"));
  CHECK_THROWS_WITH(parse_profile(replaced(good, "smem_per_cu_bytes: 233472", "smem_per_cu_bytes: 100"), "bad.yaml"),
                    Catch::Contains("bad.yaml:18:") && Catch::Contains("compute.smem_per_cu_bytes"));
  // A byte count past 1e15 is printed in exponent form: 1e300 read as 1e38, its first 39 digits (a
  // fresh user's find, 2026-12-05).
  ProfileDiagnostics huge;
  CHECK_THROWS(parse_profile(replaced(good, "l2_bytes: 50000000", "l2_bytes: 1e300"), "huge.yaml", &huge));
  CHECK(std::any_of(huge.errors.begin(), huge.errors.end(), [](const std::string& e) {
    return e.find("'memory.l2_bytes' (1e+300) exceeds 'memory.dram_bytes' (80000000000)") != std::string::npos;
  }));
  ProfileDiagnostics slow;
  (void)parse_profile(replaced(good, "l2_bandwidth_bytes_per_s: 1.0e13", "l2_bandwidth_bytes_per_s: 1.0e11"), "slow.yaml",
                      &slow);
  REQUIRE(slow.warnings.size() == 1);
  CHECK_THAT(slow.warnings[0], Catch::StartsWith("slow.yaml:22: 'memory.l2_bandwidth_bytes_per_s' (1e+11 B/s) is below "
                                                 "'memory.dram_bandwidth_bytes_per_s'"));
  for (const char* citation : {"\"\"", "", "42"}) {
    INFO(citation);
    ProfileDiagnostics d;
    (void)parse_profile(replaced(good, "memory.l2_bytes: \"chosen\"", std::string("memory.l2_bytes: ") + citation), "c.yaml",
                        &d);
    REQUIRE(d.warnings.size() == 2);  // the entry cites nothing, and so the key has no source
    CHECK_THAT(d.warnings[0], Catch::Contains("c.yaml:52: 'sources' entry 'memory.l2_bytes' cites nothing"));
    CHECK_THAT(d.warnings[1], Catch::Contains("'memory.l2_bytes' has no entry in 'sources'"));
  }
  ProfileDiagnostics twice;
  (void)parse_profile(replaced(good, "memory.l2_bytes: \"chosen\"", "memory.l2_bytes: \"chosen\"\n  memory.l2_bytes: \"again\""),
                      "t.yaml", &twice);
  REQUIRE(twice.warnings.size() == 1);
  CHECK_THAT(twice.warnings[0], Catch::Contains("t.yaml:53: 'sources' entry 'memory.l2_bytes' is given again: keep one citation of it"));
}

TEST_CASE("a profile's slips are said where they are: a misspelt key, CR line ends, a dtype its arch lacks",
          "[hardware][errors]") {
  // A fresh user's profile pass (2026-12-04).
  const std::string good = toy_text();
  // clock_mzh on line 10: the error there (it named the section's first line) and called a misspelling
  // (it was "units are part of the key name" for any look-alike).
  CHECK_THROWS_WITH(parse_profile(replaced(good, "clock_mhz: 1000", "clock_mzh: 1000"), "typo.yaml"),
                    Catch::Contains("typo.yaml:10: missing key 'compute.clock_mhz' (found 'compute.clock_mzh': a "
                                    "misspelling of 'clock_mhz'?)"));
  CHECK_THROWS_WITH(parse_profile(replaced(good, "clock_mhz: 1000", "clock_ghz: 1.0"), "unit.yaml"),
                    Catch::Contains("unit.yaml:10:") && Catch::Contains("units are part of the key name"));
  // A key under the wrong section: said where it belongs (it read as unrelated: unknown + missing).
  const std::string latency = "  dram_latency_ns: 500\n";
  REQUIRE(good.find(latency) != std::string::npos);
  CHECK_THROWS_WITH(parse_profile(replaced(replaced(good, latency, ""), "compute:\n", "compute:\n" + latency), "s.yaml"),
                    Catch::Contains("missing key 'memory.dram_latency_ns' (found 'compute.dram_latency_ns': it belongs "
                                    "under 'memory:')"));
  std::string cr = good;
  std::replace(cr.begin(), cr.end(), '\n', '\r');
  CHECK_THROWS_WITH(parse_profile(cr, "cr.yaml"), Catch::Contains("its lines end in CR alone"));
  ProfileDiagnostics ampere;
  const std::string bf16 = "  bf16: {instruction_m: 16, instruction_n: 8, instruction_k: 16, flops_per_cycle_per_cu: 1024}\n";
  REQUIRE(good.find(bf16) != std::string::npos);
  const std::string with_fp8 =
      replaced(good, bf16, bf16 + "  fp8: {instruction_m: 16, instruction_n: 8, instruction_k: 32, flops_per_cycle_per_cu: 2048}\n");
  (void)parse_profile(replaced(replaced(with_fp8, "arch: hopper", "arch: ampere"), "isa: sm_90", "isa: sm_80"), "a.yaml",
                      &ampere);
  const bool fp8_said = std::any_of(ampere.warnings.begin(), ampere.warnings.end(), [](const std::string& w) {
    return w.find("'matrix.fp8': ampere (the profile's 'arch') has no fp8 matrix path") != std::string::npos;
  });
  CHECK(fp8_said);
}

TEST_CASE("an fp8 encoding the GPU does not compute is said", "[hardware]") {
  // ROCm's HIP "FP8 Numbers" table: gfx940-942 compute the FNUZ encodings only; NVIDIA's and gfx950's
  // fp8 is OCP's (torch.float8_e4m3fn, float8_e5m2). A fresh AMD user's find (2026-12-04): every
  // encoding was ranked as fp8 unsaid.
  const Profile mi300x = load_profile("mi300x"), mi355x = load_profile("mi355x"), h200 = load_profile("h200"),
                a100 = load_profile("a100");
  CHECK_THAT(dtype_format_warning("torch.float8_e4m3fn", mi300x.hw), Catch::Contains("computes FNUZ fp8 only"));
  CHECK_THAT(dtype_format_warning("float8_e5m2", mi300x.hw), Catch::Contains("computes FNUZ fp8 only"));
  CHECK(dtype_format_warning("torch.float8_e4m3fnuz", mi300x.hw).empty());
  CHECK_THAT(dtype_format_warning("torch.float8_e4m3fnuz", mi355x.hw), Catch::Contains("computes OCP fp8"));
  CHECK_THAT(dtype_format_warning("Float8_E5M2FNUZ", h200.hw), Catch::Contains("computes OCP fp8"));
  CHECK(dtype_format_warning("torch.float8_e4m3fn", h200.hw).empty());
  CHECK(dtype_format_warning("fp8", mi300x.hw).empty());  // no encoding named
  CHECK(dtype_format_warning("float8_e4m3fnuz", a100.hw).empty());  // no fp8 at all: require_dtype's error says it
}

TEST_CASE("a dtype the GPU or Triton does not have as asked is said", "[hardware]") {
  // A fresh expert's finds (2026-12-07): tf32 on the MI355X (CDNA 4 dropped XF32: profiles/mi355x.yaml)
  // ranked as fp32 unsaid; nvfp4 on AMD, whose fp4 is mxfp4; fp6, which tl.dot_scaled does not take
  // (triton/language/semantic.py: e2m1, e4m3, e5m2, bf16, fp16).
  const Profile mi355x = load_profile("mi355x"), mi300x = load_profile("mi300x"), h200 = load_profile("h200"),
                b200 = load_profile("b200");
  CHECK_THAT(dtype_format_warning("tf32", mi355x.hw), Catch::Contains("has no TF32 matrix path"));
  // gfx942 has XF32, but Triton-HIP's default is IEEE fp32 (HIPOptions' default_dot_input_precision),
  // the rate the profile gives fp32: a tf32 request is said to run up to 4x faster than ranked.
  CHECK_THAT(dtype_format_warning("tf32", mi300x.hw), Catch::Contains("XF32 path") && Catch::Contains("up to 4x faster"));
  CHECK(mi300x.hw.rate(Dtype::fp32)->flops_per_cycle_per_cu == 256);  // mfma_f32_16x16x4_f32: 163.4 TFLOP/s
  CHECK(dtype_format_warning("tf32", h200.hw).empty());
  CHECK(dtype_format_warning("fp32", mi355x.hw).empty());  // fp32 asked, fp32 ranked
  CHECK_THAT(dtype_format_warning("nvfp4", mi355x.hw), Catch::Contains("computes mxfp4"));
  CHECK(dtype_format_warning("nvfp4", b200.hw).empty());
  CHECK(dtype_format_warning("mxfp4", mi355x.hw).empty());
  CHECK_THAT(dtype_format_warning("fp6", b200.hw), Catch::Contains("not fp6"));
  CHECK_THAT(dtype_format_warning("E2M3", mi355x.hw), Catch::Contains("not fp6"));
}

TEST_CASE("an XCD count that does not divide the CUs is warned of", "[hardware][profile]") {
  // MI300X: 8 XCDs of 38 CUs (304); 7 divides nothing evenly (a fresh user's typo validated unsaid).
  const std::string mi300x = read_text_file(test_util::source_path("profiles/mi300x.yaml"));
  REQUIRE(mi300x.find("xcd_count: 8") != std::string::npos);
  ProfileDiagnostics ok, uneven;
  (void)parse_profile(mi300x, "mi300x.yaml", &ok);
  (void)parse_profile(replaced(mi300x, "xcd_count: 8", "xcd_count: 7"), "x7.yaml", &uneven);
  auto mentions = [](const ProfileDiagnostics& d) {
    return std::count_if(d.warnings.begin(), d.warnings.end(),
                         [](const std::string& w) { return w.find("does not divide compute.cu_count = 304") != std::string::npos; });
  };
  CHECK(mentions(ok) == 0);
  CHECK(mentions(uneven) == 1);
}

TEST_CASE("a profile file's name, display name and parameters are where they are read", "[hardware][errors]") {
  // Fresh users' finds, 2026-12-06. (1) A bidi override or zero-width character in display_name was
  // printed raw (validate, rank's title): kept escaped, with a warning.
  const std::string good = toy_text();
  ProfileDiagnostics diag;
  const Profile bidi = parse_profile(
      replaced(good, "display_name: Toy GPU (round numbers for tests)", "display_name: \"Toy \\u202eUPG\""), "b.yaml",
      &diag);
  CHECK(bidi.hw.display_name == "Toy \\xe2\\x80\\xaeUPG");
  CHECK(std::any_of(diag.warnings.begin(), diag.warnings.end(), [](const std::string& w) {
    return w.find("'display_name' holds invisible or bidi characters") != std::string::npos;
  }));
  // (2) A model parameter written straight under a target, or at the top level, not under its
  // model_parameters: an error (its value went unused with a warning).
  CHECK_THROWS_WITH(parse_profile(good + "targets:\n  triton:\n    k_step_overhead_cycles: 400\n", "t.yaml"),
                    Catch::Contains("t.yaml:") &&
                        Catch::Contains("'targets.triton.k_step_overhead_cycles' is a model parameter: it goes under "
                                        "'targets.triton.model_parameters:'"));
  CHECK_THROWS_WITH(parse_profile(good + "loaded_latency_multiplier: 4\n", "t.yaml"),
                    Catch::Contains("'loaded_latency_multiplier' is a model parameter: it goes under 'model_parameters:'"));
  // (3) A file that takes a shipped profile's name with other hardware is warned of (every output says
  // the shipped name); the shipped text itself, or an overlay of it (calibrate's), is not.
  const std::string h100 = read_text_file(test_util::source_path("profiles/h100.yaml"));
  const std::string dir = std::filesystem::temp_directory_path().string();
  const auto warned = [&](const std::string& text, const std::string& file) {
    const std::string path = dir + "/" + file;
    std::ofstream(path) << text;
    ProfileDiagnostics d;
    load_profile(path, &d);
    std::filesystem::remove(path);
    return std::any_of(d.warnings.begin(), d.warnings.end(), [](const std::string& w) {
      return w.find("'name: h100' is a shipped profile's name, but the hardware here differs") != std::string::npos;
    });
  };
  CHECK(warned(replaced(h100, "cu_count: 132", "cu_count: 114"), "gemm-advisor-test-pcie.yaml"));
  CHECK_FALSE(warned(h100, "gemm-advisor-test-same.yaml"));
  CHECK_FALSE(warned(h100 + "targets:\n  triton:\n    model_parameters:\n      loaded_latency_multiplier: 4\n",
                     "gemm-advisor-test-overlay.yaml"));
}

TEST_CASE("a profile's custom tags, long names and control bytes are errors that say so", "[hardware][errors]") {
  // A fresh AMD user's finds (2026-12-07): `clock_mhz: !foo 2100` was read as 2100 unsaid; a 2 MB
  // display_name passed and was echoed in every output; a NUL inside a value said "unknown escape
  // character: d". The toy's clock_mhz is on line 10, display_name on line 4, vendor on line 5.
  const std::string good = toy_text();
  const auto error_of = [](const std::string& text) {
    ProfileDiagnostics d;
    CHECK_THROWS(parse_profile(text, "p.yaml", &d));
    return d.errors.empty() ? std::string() : d.errors[0];
  };
  CHECK(error_of(replaced(good, "clock_mhz: 1000", "clock_mhz: !foo 1000")) ==
        "p.yaml:10: 'compute.clock_mhz' has the YAML tag '!foo', which no profile value takes (drop it)");
  CHECK_THAT(error_of(replaced(good, "vendor: nvidia", "vendor: !gpu nvidia")),
             Catch::StartsWith("p.yaml:5: 'vendor' has the YAML tag '!gpu'"));
  // YAML's own tags keep their meaning: !!int is a number, !!str text (an error for a number).
  CHECK(parse_profile(replaced(good, "clock_mhz: 1000", "clock_mhz: !!int 1000"), "p.yaml").hw.clock_hz == 1e9);
  CHECK_THAT(error_of(replaced(good, "clock_mhz: 1000", "clock_mhz: !!str 1000")), Catch::Contains("a quoted or !!str value is text"));
  // 256 bytes of a name are taken, 257 are not.
  const std::string long_name(257, 'X');
  CHECK(parse_profile(replaced(good, "display_name: Toy GPU (round numbers for tests)", "display_name: " + long_name.substr(1)),
                      "p.yaml")
            .hw.display_name.size() == 256);
  CHECK(error_of(replaced(good, "display_name: Toy GPU (round numbers for tests)", "display_name: " + long_name)) ==
        "p.yaml:4: 'display_name' is 257 bytes long: at most 256 (it names the GPU in every output)");
  CHECK_THAT(error_of(replaced(good, "name: toy\n", "name: toy\naliases: [\"" + long_name + "\"]\n")),
             Catch::Contains("an alias is 257 bytes long: at most 256"));
  // A NUL or another control byte in plain text: yaml-cpp's own message, and the byte and its line named.
  CHECK_THAT(error_of(replaced(good, "vendor: nvidia", std::string("vendor: nvi\0dia", 15))),
             Catch::StartsWith("p.yaml:5: not valid YAML: ") &&
                 Catch::EndsWith("(line 5 holds the control byte \\x00, which YAML text cannot)"));
  // A tab in the indentation is named as before (the first such line up to the error's).
  CHECK_THAT(error_of(replaced(good, "  clock_mhz: 1000", "\tclock_mhz: 1000")),
             Catch::EndsWith("(line 10 indents with a tab: YAML indents with spaces)"));
}

TEST_CASE("unknown GPU names: a near miss is suggested, a virtual function told how to rank", "[hardware][errors]") {
  // A fresh AMD user's finds (2026-12-07): --hw mi300 listed the names alone; "AMD Instinct MI300X VF"
  // (SR-IOV, as cloud VMs name it) was told it was another card with its own SM count.
  CHECK_THROWS_WITH(load_profile("mi300"), Catch::StartsWith("unknown hardware profile 'mi300': did you mean mi300x? (known: "));
  CHECK_THROWS_WITH(load_profile("zzz"), Catch::StartsWith("unknown hardware profile 'zzz' (known: "));
  CHECK_THROWS_WITH(load_profile("AMD Instinct MI300X VF"),
                    Catch::Contains("a virtual function of the AMD Instinct MI300X") &&
                        Catch::Contains("give --hw mi300x; where it is a partition, --hw mi300x --cu-count N with the CUs") &&
                        Catch::Contains("rocminfo's 'Compute Unit'"));
  // Another card of the chip keeps its advice, in its vendor's words (CU on AMD, SM on NVIDIA).
  CHECK_THROWS_WITH(load_profile("AMD Instinct MI300X Foo"), Catch::Contains("has its own CU count, clocks or memory"));
  CHECK_THROWS_WITH(load_profile("NVIDIA H100 PCIe"), Catch::Contains("has its own SM count, clocks or memory"));
}

TEST_CASE("a missing section is one error, without its citations' warnings", "[hardware][errors]") {
  // The toy without its memory: section (its 10 keys, lines 21-31, removed): ten "'sources' entry
  // 'memory.*' names no key" warnings came before "missing section 'memory'" (a fresh user's find,
  // left alone in the forty-seventh note, done 2026-12-07). A citation of a key that is missing from a
  // section that is there is still said.
  std::string text = toy_text();
  const std::size_t from = text.find("\nmemory:\n") + 1, to = text.find("\nefficiency:\n") + 1;
  REQUIRE((from > 0 && to > from));
  const std::string no_memory = text.substr(0, from) + text.substr(to);
  ProfileDiagnostics d;
  CHECK_THROWS(parse_profile(no_memory, "m.yaml", &d));
  REQUIRE(d.errors.size() == 1);
  CHECK(d.errors[0] == "m.yaml:3: missing section 'memory'");
  CHECK(d.warnings.empty());
  ProfileDiagnostics one;
  (void)parse_profile(replaced(text, "  memory.xcd_count:", "  memory.xcd_cnt: \"a typo\"\n  memory.xcd_count:"), "x.yaml",
                      &one);
  REQUIRE(one.warnings.size() == 1);
  CHECK_THAT(one.warnings[0], Catch::Contains("'sources' entry 'memory.xcd_cnt' names no key of the profile"));
}
