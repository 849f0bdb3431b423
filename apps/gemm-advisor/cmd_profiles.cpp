// `gemm-advisor profiles [show NAME | validate FILE]`: the hardware profiles.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli.hpp"
#include "gemm_advisor/csv_reader.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/frontend.hpp"
#include "gemm_advisor/report.hpp"
#include "gemm_advisor/targets/triton.hpp"

namespace cli {

Registered register_profiles(CLI::App& app) {
  struct Options {
    std::string show_name;
    std::vector<std::string> validate_paths;
    std::string format = "table";
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("profiles", "List the shipped hardware profiles, show one, or validate a file");
  cmd->add_option("--format", o->format, "table or json (for the list)")
      ->capture_default_str()
      ->transform(CLI::IsMember({"table", "json"}, CLI::ignore_case));
  // `profiles list`, as `targets`' users and other tools spell it (it exited 2, "unexpected argument:
  // list": a fresh user's find, 2026-12-05); the same as `profiles`.
  CLI::App* list = cmd->add_subcommand("list", "List the shipped hardware profiles (the same as `profiles` alone)");
  list->add_option("--format", o->format, "table or json")->transform(CLI::IsMember({"table", "json"}, CLI::ignore_case));
  CLI::App* show = cmd->add_subcommand("show", "Print a profile's YAML (a shipped name, a GPU name as --hw takes it, or a file)");
  show->add_option("name", o->show_name, "Profile name, GPU name or path")->required();
  CLI::App* validate = cmd->add_subcommand("validate", "Check a profile file and say what is wrong");
  validate->add_option("file", o->validate_paths,
                       "Profile YAML file(s) (or a shipped profile's name, as --hw takes it); each is checked, the exit "
                       "code is 1 when any is bad")
      ->required();

  // A profile's warnings, through the logger (--quiet hides them, as everywhere: validate wrote them
  // to stderr itself), the first kShown and a count of the rest (a sources: map of typos gave 44
  // lines, a large file 200,043: a fresh user's find, 2026-12-04).
  // What `show` and `validate` ask of a name: a file (or directory) of that name here, and a shipped
  // profile's exact name.
  auto exists_here = [](const std::string& name) {
    struct stat st {};
    return ::stat(name.c_str(), &st) == 0;
  };
  auto is_shipped_name = [](const std::string& name) {
    const auto& shipped = gemm_advisor::embedded_profiles();
    return std::any_of(shipped.begin(), shipped.end(), [&](const auto& e) { return e.name == name; });
  };
  auto warn_capped = [](const std::vector<std::string>& warnings) {
    constexpr std::size_t kShown = 20;
    for (std::size_t i = 0; i < warnings.size() && i < kShown; ++i) spdlog::warn("{}", warnings[i]);
    if (warnings.size() > kShown) spdlog::warn("... and {} more warnings of this profile", warnings.size() - kShown);
  };
  return {cmd, [o, show, validate, warn_capped, exists_here, is_shipped_name]() {
            using namespace gemm_advisor;
            if ((show->parsed() || validate->parsed()) && o->format != "table")
              throw cli::UsageError(std::string("--format ") + o->format + " is for the list: `profiles " +
                                    (show->parsed() ? "show` prints the profile's YAML" : "validate` prints one line") +
                                    " (gemm-advisor rank ... --format json names the hardware in its JSON)");
            if (show->parsed()) {
              // A shipped name or a GPU name as --hw takes it ("AMD Instinct MI325X", NVIDIA_H200),
              // unless a file of that name is meant (a path, or a name that is a file here).
              // In --hw's order (load_profile): a shipped name over a file of that name here (warned
              // there), a file over a GPU name.
              const bool file_here = exists_here(o->show_name), shipped_name = is_shipped_name(o->show_name);
              if (shipped_name && file_here)
                spdlog::warn("'{}' is the shipped profile; the file {} here is not read (give ./{} to show it)",
                             o->show_name, o->show_name, o->show_name);
              const std::string shipped = is_profile_path(o->show_name) || (file_here && !shipped_name)
                                              ? std::string()
                                              : resolve_profile_name(o->show_name);
              for (const auto& e : embedded_profiles()) {
                if (e.name == o->show_name || (!shipped.empty() && e.name == shipped)) {
                  std::cout << e.yaml;
                  return kExitOk;
                }
              }
              (void)load_profile_logged(o->show_name);  // a path, or an error listing names
              std::cout << read_text_file(o->show_name);
              return kExitOk;
            }
            // One file (`given`: a path, or a profile name as --hw takes it), returning its exit code.
            auto validate_one = [&](const std::string& given) -> int {
              ProfileDiagnostics diag;
              // A file is what validate is for: a file of that name here is read, also where the name
              // is a shipped profile's, and then it says that --hw NAME loads the shipped one (validate
              // read the file while --hw loaded the shipped profile unsaid; reading the shipped one
              // instead passed a broken file as "ok": two fresh users' finds, 2026-12-04). Without a
              // file: a shipped name, or a GPU name as --hw and show take it ("NVIDIA H200").
              std::string text, source = given;
              const bool from_stdin = given == "-";
              const bool file_here = !from_stdin && exists_here(given);
              const bool shipped_name = !from_stdin && is_shipped_name(given);
              const bool path = from_stdin || is_profile_path(given);
              const std::string shipped = path || file_here ? std::string()
                                          : shipped_name    ? given
                                                            : resolve_profile_name(given);
              for (const auto& e : embedded_profiles()) {
                if (!shipped.empty() && e.name == shipped) {
                  text = std::string(e.yaml);
                  source = "embedded:" + std::string(e.name);
                }
              }
              if (file_here && !path) {
                // ... and a GPU name of a shipped profile alike (load_profile takes the shipped one).
                const std::string named = shipped_name ? given : resolve_profile_name(given);
                if (!named.empty())
                  diag.warnings.push_back("the file " + printable(given) + " is validated, but --hw " + printable(given) +
                                          " loads the shipped profile " + (shipped_name ? "of that name" : named) +
                                          " (give --hw ./" + printable(given) + " to use the file)");
              }
              // '-': the profile from stdin, as the shape and model lists read it (it was "-: cannot
              // open": a fresh user's find, 2026-12-05).
              if (from_stdin) {
                claim_stdin("the profile");
                source = "<stdin>";
                text = read_whole_input(std::cin, source, "a profile is read whole");
              } else if (source == given) {
                text = read_text_file(given);
              }
              Profile profile;
              try {
                profile = parse_profile(text, source, &diag);
              } catch (const InputError&) {
                warn_capped(diag.warnings);
                // In the file's order ("FILE:LINE: ..."; the checks run by kind, so a range error at
                // line 115 came after an unknown key at 116: a fresh user's find, 2026-12-07); those
                // without a line first, as found.
                const auto line_of = [&source](const std::string& e) -> long {
                  if (e.compare(0, source.size() + 1, source + ":") != 0) return 0;
                  return std::strtol(e.c_str() + source.size() + 1, nullptr, 10);
                };
                std::stable_sort(diag.errors.begin(), diag.errors.end(),
                                 [&](const std::string& a, const std::string& b) { return line_of(a) < line_of(b); });
                for (const auto& e : diag.errors) std::cerr << "gemm-advisor: error: " << e << "\n";
                return kExitBadInput;
              }
              // A file (or stdin), as --hw warns of it (rank warned where validate said 0 warnings: a
              // fresh user's find, 2026-12-06).
              if (source.rfind("embedded:", 0) != 0) warn_shipped_name_taken(profile, source, &diag);
              const Hardware& hw = profile.hw;
              // What some targets need and the profile may leave out: said here, where the user
              // checks it (validate said "ok", then every vllm-fp8-block rank failed: a fresh user's
              // find, 2026-12-05).
              if (hw.vector_fp32_lanes_per_cu <= 0)
                diag.warnings.push_back(source + ": no compute.vector_fp32_lanes_per_cu: vllm-fp8-block and "
                                                 "vllm-fused-moe's block-scaled fp8 layers cannot rank on it (their "
                                                 "per-step scale math runs on those lanes)");
              if (!hw.rate(Dtype::fp8))
                diag.warnings.push_back(source + ": no matrix.fp8 entry: vllm-fp8-block and fp8 (fp8_w8a8) fused-MoE "
                                                 "layers cannot rank on it");
              // The peak of bf16 (the default --dtype), or, where the profile has no bf16 path, of
              // the 16-bit one if there is (fp16: what bf16 users would give instead), else the
              // first dtype it has, saying so (a fresh user's find: "0.0 bf16 TFLOP/s peak").
              int pick = hw.rate(Dtype::bf16) ? static_cast<int>(Dtype::bf16) : -1;
              for (int d = 0; d < kDtypeCount && !hw.rate(Dtype::bf16); ++d)
                if (hw.rate(static_cast<Dtype>(d)) && (pick < 0 || static_cast<Dtype>(d) == Dtype::fp16)) pick = d;
              // The probe of whether any config can run: the triton target's space for a large square
              // of a dtype (none without a matrix rate). no_config: "" where some config can, else
              // "e.g. CONFIG: the limit the default config breaks".
              const auto probe_of = [](Dtype d) {
                GemmProblem probe;
                probe.m = probe.n = probe.k = 4096;
                probe.dtype = d;
                return probe;
              };
              const auto no_config = [&](const GemmProblem& probe) -> std::string {
                std::vector<TileConfig> space;
                if (hw.rate(probe.dtype)) triton_target().candidates(probe, profile, space);
                if (!space.empty()) return "";
                return "e.g. " + triton_default_config().text() + ": " +
                       triton_infeasibility(triton_default_config(), probe, profile);
              };
              // Each other dtype with a matrix rate: one no config can run in is warned of (a profile
              // whose shared memory left fp32 no config validated as ok: a fresh user's find,
              // 2026-12-06).
              for (int d = 0; d < kDtypeCount; ++d) {
                const GemmProblem probe = probe_of(static_cast<Dtype>(d));
                if (d == pick || !hw.rate(probe.dtype)) continue;
                if (const std::string why = no_config(probe); !why.empty())
                  diag.warnings.push_back(fmt::format("{}: no config of the triton target can run in {} ({}, {}): --dtype {} "
                                                      "fails on it", source, dtype_name(probe.dtype), probe.shape_text(),
                                                      why, dtype_name(probe.dtype)));
              }
              warn_capped(diag.warnings);
              std::string peak;
              if (pick >= 0) {
                const Dtype shown = static_cast<Dtype>(pick);
                peak = shown == Dtype::bf16
                           ? fmt::format("{:.1f} bf16 TFLOP/s peak", hw.peak_flops_per_s(Dtype::bf16) / 1e12)
                           : fmt::format("{:.1f} {} TFLOP/s peak, no bf16 (the default --dtype: give --dtype {})",
                                         hw.peak_flops_per_s(shown) / 1e12, dtype_name(shown), dtype_name(shown));
              }
              // A profile on which no config can run is not ok (registers_per_cu: 1024 validated, then
              // every rank failed: a fresh user's find, 2026-12-04): the probe in the dtype the peak
              // names (bf16 where none).
              const GemmProblem probe = probe_of(pick >= 0 ? static_cast<Dtype>(pick) : Dtype::bf16);
              if (const std::string why = no_config(probe); !why.empty()) {
                std::cerr << "gemm-advisor: error: " << source << ": no config of the triton target can run on it ("
                          << probe.shape_text() << " " << dtype_name(probe.dtype) << ", " << why
                          << "): check compute.registers_per_cu, smem_per_block_bytes and the matrix entries\n";
                return kExitBadInput;
              }
              std::cout << fmt::format("{}: ok: {} ({}), {} {}s, {}, {} warning(s)\n", given, hw.name,
                                       hw.display_name, hw.cu_count, hw.vendor == "amd" ? "CU" : "SM", peak,
                                       diag.warnings.size());
              return kExitOk;
            };
            if (validate->parsed()) {
              // Several files: each checked, a bad one said and the rest still checked (`validate a.yaml
              // b.yaml` was "unexpected arguments": a fresh user's find, 2026-12-05).
              if (std::count(o->validate_paths.begin(), o->validate_paths.end(), "-") > 1)
                throw cli::UsageError("profiles validate: '-' is given twice: stdin holds one profile");
              int code = kExitOk;
              for (const std::string& given : o->validate_paths) {
                try {
                  code = std::max(code, validate_one(given));
                } catch (const InputError& e) {
                  if (o->validate_paths.size() == 1) throw;
                  std::cerr << "gemm-advisor: error: " << escape_for_display(e.what()) << "\n";
                  code = std::max(code, static_cast<int>(kExitBadInput));
                }
              }
              return code;
            }
            std::ostringstream out;
            if (o->format == "json") {
              out << gemm_advisor::json_text(profiles_json(), 2) << "\n";
              std::cout << out.str();
              return kExitOk;
            }
            // L2 in MiB, as CUDA reports it and the datasheets' "40 MB" mean (decimal MB printed the
            // A100's as 42: a fresh user's find, 2026-12-05).
            out << fmt::format("{:<8} {:<34} {:<7} {:>7} {:>12} {:>10} {:>9}  {}\n", "name", "display_name", "vendor",
                               "CUs/SMs", "bf16 TFLOP/s", "DRAM TB/s", "L2 MiB", "--hw also takes");
            for (const auto& e : embedded_profiles()) {
              const Hardware hw = parse_profile(e.yaml, "embedded:" + std::string(e.name)).hw;
              std::vector<std::string> aliases;
              for (const auto& [name, names] : profile_aliases())
                if (name == hw.name) aliases.assign(names.begin() + 1, names.end());  // [0] is the display name
              out << fmt::format("{:<8} {:<34} {:<7} {:>7} {:>12.1f} {:>10.2f} {:>9.0f}  {}\n", hw.name, hw.display_name,
                                 hw.vendor, hw.cu_count, hw.peak_flops_per_s(Dtype::bf16) / 1e12,
                                 hw.dram_bandwidth_bytes_per_s / 1e12, hw.l2_bytes / 1048576.0, fmt::join(aliases, "; "));
            }
            std::cout << out.str();
            return kExitOk;
          }};
}

}  // namespace cli
