#include "gemm_advisor/report.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/version.hpp"
#include "gemm_advisor/moe.hpp"
#include "gemm_advisor/emit.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gemm_advisor {

namespace {
std::size_t shown(std::size_t top, std::size_t size) { return top == 0 ? size : std::min(top, size); }
double pct_of_peak(const Estimate& e, const GemmProblem& p, const Hardware& hw) {
  const double peak = hw.peak_flops_per_s(p.dtype);
  return peak > 0 ? 100.0 * e.flops_per_s / peak : 0.0;
}
}  // namespace

nlohmann::json estimate_json(const Estimate& e) {
  return {
      {"prefetch_s", e.prefetch_s},
      {"compute_step_s", e.compute_step_s},
      {"memory_step_s", e.memory_step_s},
      {"memory_levels_step_s", e.memory_levels_step_s},
      {"l2_step_s", e.l2_step_s},
      {"llc_step_s", e.llc_step_s},
      {"dram_step_s", e.dram_step_s},
      {"dram_step_bytes", e.dram_step_bytes},
      {"cu_load_step_s", e.cu_load_step_s},
      {"latency_step_s", e.latency_step_s},
      {"step_overhead_s", e.step_overhead_s},
      {"step_overhead_overlap", e.step_overhead_overlap},
      {"vector_step_s", e.vector_step_s},
      {"matrix_drain_step_s", e.matrix_drain_step_s},
      {"lone_warpgroup_step_s", e.lone_warpgroup_step_s},
      {"store_s", e.store_s},
      {"split_k_reduce_s", e.split_k_reduce_s},
      {"split_k_reduce_launch_s", e.split_k_reduce_launch_s},
      {"split_k_reduce_bandwidth_s", e.split_k_reduce_bandwidth_s},
      {"split_k_reduce_latency_s", e.split_k_reduce_latency_s},
      {"split_k_partial_bytes", e.split_k_partial_bytes},
      {"launch_s", e.launch_s},
      {"first_wave_s", e.first_wave_s},
      {"later_wave_s", e.later_wave_s},
      {"last_wave_s", e.last_wave_s},
      {"lone_block_wave_s", e.lone_block_wave_s},
      {"wave_throughput_s", e.wave_throughput_s},
      {"k_steps", e.k_steps},
      {"output_tiles", e.output_tiles},
      {"work_tiles", e.work_tiles},
      {"occupancy", e.occupancy},
      {"waves", e.waves},
      {"last_wave_efficiency", e.last_wave_efficiency},
      {"last_wave_blocks", e.last_wave_blocks},
      {"last_wave_fill", e.last_wave_fill},
      {"padding_waste", e.padding_waste},
      {"l2_hit_rate", e.l2_hit_rate},
      {"llc_hit_rate", e.llc_hit_rate},
      {"dram_bytes", e.dram_bytes},
      {"arithmetic_intensity_flop_per_byte", e.arithmetic_intensity},
      {"matrix_unit_utilization", e.matrix_unit_utilization},
      {"smem_bytes", e.smem_bytes},
      {"registers_per_thread", e.registers_per_thread},
      {"spilled_registers_per_thread", e.spilled_registers_per_thread},
      {"tensor_memory_bytes", e.tensor_memory_bytes},
      {"accumulator_in_tensor_memory", e.accumulator_in_tensor_memory},
  };
}

nlohmann::json ranked_config_json(const RankedConfig& r, std::size_t rank, const GemmProblem& p, const Hardware& hw) {
  const TileConfig& c = r.config;
  nlohmann::json j = {{"rank", rank},           {"block_m", c.block_m},       {"block_n", c.block_n},
                      {"block_k", c.block_k},   {"group_m", c.group_m},       {"num_warps", c.num_warps},
                      {"num_stages", c.num_stages}, {"split_k", c.split_k}, {"feasible", r.estimate.feasible}};
  if (!r.estimate.feasible) {
    j["rank"] = nullptr;
    j["reason"] = r.infeasible_reason;
    return j;
  }
  j["latency_s"] = r.estimate.latency_s;
  j["tflops"] = r.estimate.flops_per_s / 1e12;
  j["pct_of_peak"] = pct_of_peak(r.estimate, p, hw);
  j["bound"] = bound_name(r.estimate.bound);
  j["waves"] = r.estimate.waves;
  j["terms"] = estimate_json(r.estimate);
  return j;
}

void add_fitted_shapes_note(nlohmann::json& j, const Profile& profile, const Target& target, const GemmProblem& p) {
  if (profile.fitted_shapes.empty()) return;
  const std::string why =
      outside_fitted_shapes_warning(profile, target.name(), target.param_variant(p), p, profile.hw.source);
  if (!why.empty()) j["outside_fitted_shapes"] = escape_control(why);
}

nlohmann::json ranking_json(const GemmProblem& p, const Hardware& hw, const std::string& target,
                            const std::vector<RankedConfig>& ranked, std::size_t top, const std::string& name) {
  nlohmann::json configs = nlohmann::json::array();
  nlohmann::json infeasible = nlohmann::json::array();
  std::size_t rank = 0;
  for (const auto& r : ranked) {
    if (!r.estimate.feasible) {
      infeasible.push_back(ranked_config_json(r, 0, p, hw));
    } else if (top == 0 || rank < top) {
      configs.push_back(ranked_config_json(r, ++rank, p, hw));
    }
  }
  nlohmann::json j = {
      {"problem",
       {{"m", p.m}, {"n", p.n}, {"k", p.k}, {"batch", p.batch}, {"dtype", dtype_name(p.dtype)}, {"layout", p.layout.name()}}},
      {"hardware",
       {{"name", hw.name},
        {"display_name", hw.display_name},
        {"peak_tflops", hw.peak_flops_per_s(p.dtype) / 1e12},
        // The CUs ranked for (a --cu-count partition's, else the GPU's), as a field: it was only in
        // the display name's words (a fresh user's find, 2026-12-04).
        {"cu_count", hw.cu_count},
        {"profile", profile_source_text(hw)},
        {"profile_digest", hw.source_digest}}},
      {"target", target},
      {"configs", configs},
      {"generator", generator_json()},
  };
  if (!infeasible.empty()) j["infeasible"] = infeasible;
  if (!name.empty()) j["name"] = name;
  if (p.is_moe()) {
    const MoeRoutingTerms r = moe_routing_terms(p);
    j["problem"]["moe"] = {{"gemm", moe_gemm_name(p.moe.gemm)}, {"experts", p.moe.experts}, {"top_k", p.moe.top_k},
                           {"routing", moe_routing_text(p.moe)},
                           {"block_shape", p.moe.quant_block ? nlohmann::json::array({p.moe.quant_block, p.moe.quant_block})
                                                             : nlohmann::json(nullptr)},
                           {"routed_rows", r.routed_rows}, {"active_experts", r.active_experts}};
  }
  return j;
}

void write_ranking_table(std::ostream& out, const GemmProblem& p, const Hardware& hw,
                         const std::vector<RankedConfig>& ranked, std::size_t top, const std::string& name) {
  const double peak = hw.peak_flops_per_s(p.dtype);
  // The name comes from the user's list: control characters are shown escaped, not sent to the terminal;
  // UTF-8 text stays as it is, as in the CSV and JSON (printable() wrote "名前" as \xe5\x90...: a fresh
  // user's find, 2026-12-03).
  out << fmt::format("{}{} {} {} on {} (peak {} TFLOP/s)\n", name.empty() ? "" : escape_for_display(name) + ": ", p.shape_text(),
                     dtype_name(p.dtype), p.layout.name(), hardware_heading(hw), peak_tflops_text(peak));
  out << fmt::format("{:>4}  {:<14} {:>5} {:>6} {:>5} {:>7} {:>11} {:>8} {:>6}  {:<7} {:>6}\n", "rank", "block MxNxK",
                     "warps", "stages", "split", "group_m", "time_us", "TFLOP/s", "%peak", "bound", "waves");
  std::size_t rank = 0;
  const std::size_t limit = shown(top, ranked.size());
  for (const auto& r : ranked) {
    if (!r.estimate.feasible) {
      out << fmt::format("{:>4}  {:<14} {:>5} {:>6} {:>5} {:>7}  infeasible: {}\n", "-",
                         fmt::format("{}x{}x{}", r.config.block_m, r.config.block_n, r.config.block_k),
                         r.config.num_warps, r.config.num_stages, r.config.split_k, r.config.group_m,
                         r.infeasible_reason);
      continue;
    }
    if (rank >= limit) continue;
    ++rank;
    const Estimate& e = r.estimate;
    // Times past a column's width (days of work at the size limits) in exponent form.
    const double time_us = e.latency_s * 1e6;
    const std::string time_text = time_us < 1e10 ? fmt::format("{:.2f}", time_us) : fmt::format("{:.4g}", time_us);
    out << fmt::format("{:>4}  {:<14} {:>5} {:>6} {:>5} {:>7} {:>11} {:>8.1f} {:>6.1f}  {:<7} {:>6.0f}\n", rank,
                       fmt::format("{}x{}x{}", r.config.block_m, r.config.block_n, r.config.block_k),
                       r.config.num_warps, r.config.num_stages, r.config.split_k, r.config.group_m, time_text,
                       e.flops_per_s / 1e12, pct_of_peak(e, p, hw), bound_name(e.bound), e.waves);
  }
  if (rank == 0 && ranked.empty()) out << "  (no feasible config)\n";
}

std::string csv_field(const std::string& s) {
  // Control bytes (a shape list's name may hold any) are written \xNN, as the table writes them: a
  // raw NUL or ESC made the CSV one that the CSV readers, this tool's too, refuse.
  // UTF-8 text stays as it is.
  const std::string t = escape_control(s, true);
  // A leading '#' (a CSV reader takes the line for a comment) or a space at either end (trimmed when
  // read) is quoted too: batch's output read back lost such names, or the row (a fresh user's find,
  // 2026-12-06).
  const bool edge = !t.empty() && (t.front() == '#' || t.front() == ' ' || t.back() == ' ' || t.front() == '\t' ||
                                   t.back() == '\t');
  if (!edge && t.find_first_of(",\"\n\r") == std::string::npos) return t;
  std::string q = "\"";
  for (char ch : t) {
    if (ch == '"') q += '"';
    q += ch;
  }
  return q + "\"";
}

const std::vector<std::string>& ranking_csv_result_columns() {
  static const std::vector<std::string> kColumns = {
      "hardware", "target",     "rank",   "block_m",     "block_n", "block_k", "group_m",   "num_warps", "num_stages",
      "split_k",  "latency_us", "tflops", "pct_of_peak", "bound",   "waves",   "occupancy", "feasible",  "reason"};
  return kColumns;
}

const std::vector<std::string>& ranking_csv_problem_columns(bool moe) {
  static const std::vector<std::string> kDense = {"name", "m", "n", "k", "batch", "dtype", "layout"};
  static const std::vector<std::string> kMoe = [] {
    std::vector<std::string> c = kDense;
    c.insert(c.end(), {"experts", "top_k", "gemm", "block_shape", "routing"});
    return c;
  }();
  return moe ? kMoe : kDense;
}

void write_ranking_csv_header(std::ostream& out, bool moe) {
  for (const std::string& column : ranking_csv_problem_columns(moe)) out << column << ",";
  const std::vector<std::string>& result = ranking_csv_result_columns();
  for (std::size_t i = 0; i < result.size(); ++i) out << result[i] << (i + 1 < result.size() ? "," : "\n");
}

void write_ranking_csv_rows(std::ostream& out, const GemmProblem& p, const Hardware& hw, const std::string& target,
                            const std::vector<RankedConfig>& ranked, std::size_t top, const std::string& name) {
  const std::string moe =
      p.is_moe() ? fmt::format("{},{},{},{},{},", p.moe.experts, p.moe.top_k, moe_gemm_name(p.moe.gemm),
                               p.moe.quant_block ? fmt::format("{0}x{0}", p.moe.quant_block) : std::string(),
                               csv_field(moe_routing_text(p.moe)))
                 : std::string();
  const std::string prefix = fmt::format("{},{},{},{},{},{},{},{}{},{}", csv_field(name), p.m, p.n, p.k, p.batch,
                                         dtype_name(p.dtype), p.layout.name(), moe, hardware_label(hw),
                                         csv_field(target));
  std::size_t rank = 0;
  const std::size_t limit = shown(top, ranked.size());
  for (const auto& r : ranked) {
    const TileConfig& c = r.config;
    if (!r.estimate.feasible) {
      // No rank, then the config, six empty estimate columns, feasible 0 and the reason: as many
      // fields as the header (one more empty one put the reason in a 25th, unnamed column).
      out << fmt::format("{},,{},{},{},{},{},{},{},,,,,,,0,{}\n", prefix, c.block_m, c.block_n, c.block_k, c.group_m,
                         c.num_warps, c.num_stages, c.split_k, csv_field(r.infeasible_reason));
      continue;
    }
    if (rank >= limit) continue;
    ++rank;
    const Estimate& e = r.estimate;
    out << fmt::format("{},{},{},{},{},{},{},{},{},{:.4f},{:.2f},{:.2f},{},{:.0f},{},1,\n", prefix, rank, c.block_m,
                       c.block_n, c.block_k, c.group_m, c.num_warps, c.num_stages, c.split_k, e.latency_s * 1e6,
                       e.flops_per_s / 1e12, pct_of_peak(e, p, hw), bound_name(e.bound), e.waves, e.occupancy);
  }
}

}  // namespace gemm_advisor
