// `gemm-advisor targets`: the kernels the advisor can rank configs for.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <sstream>

#include "cli.hpp"
#include "gemm_advisor/frontend.hpp"
#include "gemm_advisor/report.hpp"
#include "gemm_advisor/target.hpp"

namespace cli {

Registered register_targets(CLI::App& app) {
  struct Options {
    std::string format = "table";
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("targets", "List the kernels (--target NAME) with their parameters and source");
  cmd->add_option("--format", o->format, "table or json")->capture_default_str()->transform(CLI::IsMember({"table", "json"}, CLI::ignore_case));
  return {cmd, [o]() {
            using namespace gemm_advisor;
            std::ostringstream out;
            if (o->format == "json") {
              out << json_text(targets_json(), 2) << "\n";
              std::cout << out.str();
              return kExitOk;
            }
            for (const Target* t : all_targets()) {
              const TargetInfo& info = t->info();
              // Each tunable parameter by the kernel's name and by the config field the advisor
              // uses for it (--candidates columns, rank/batch CSV and JSON), then its values.
              out << fmt::format("{}{}\n  kernel:     {}\n  source:     {}\n  parameters: (kernel name, config field, values)\n",
                                 t == all_targets().front() ? "" : "\n", info.name, info.kernel, info.source);
              for (const TargetParameter& p : info.parameters)
                out << fmt::format("    {:<13} {:<11} {}\n", p.name, p.field, p.values);
            }
            std::cout << out.str();
            return kExitOk;
          }};
}

}  // namespace cli
