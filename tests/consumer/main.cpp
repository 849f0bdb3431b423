// consumer SHAPE PROFILE: the top config of the triton target for SHAPE on PROFILE (a shipped name,
// or a file name under the installed share/gemm-advisor/profiles), as one line of rank JSON;
// exit 1 with one error line for bad input. Built against an installed gemm-advisor.
#include <gemm_advisor/advise.hpp>
#include <gemm_advisor/error.hpp>
#include <gemm_advisor/frontend.hpp>
#include <gemm_advisor/report.hpp>

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: consumer SHAPE PROFILE\n";
    return 2;
  }
  try {
    std::string hw = argv[2];
    if (hw.size() > 5 && hw.compare(hw.size() - 5, 5, ".yaml") == 0) hw = std::string(GEMM_ADVISOR_PROFILES_DIR) + "/" + hw;
    const gemm_advisor::Profile profile = gemm_advisor::load_profile(hw);
    const gemm_advisor::Target& target = gemm_advisor::find_target("triton");
    const gemm_advisor::GemmProblem p =
        gemm_advisor::parse_shape(argv[1], gemm_advisor::problem_defaults_for(target.info(), "", ""));
    std::vector<gemm_advisor::TileConfig> space;
    std::vector<gemm_advisor::RankedConfig> ranked;
    gemm_advisor::advise(target, p, profile, nullptr, 1, space, ranked);
    gemm_advisor::require_feasible(ranked, p, profile.hw);
    std::cout << gemm_advisor::json_text(gemm_advisor::ranking_json(p, profile.hw, "triton", ranked, 1)) << "\n";
  } catch (const gemm_advisor::InputError& e) {
    std::cerr << "consumer: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
