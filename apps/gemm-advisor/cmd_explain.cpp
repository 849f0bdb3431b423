// `gemm-advisor explain SHAPE`: every term of one estimate, with units.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <iostream>
#include <memory>
#include <sstream>

#include "cli.hpp"
#include "gemm_advisor/advise.hpp"
#include "gemm_advisor/error.hpp"
#include "gemm_advisor/frontend.hpp"
#include "gemm_advisor/moe.hpp"
#include "gemm_advisor/report.hpp"

namespace cli {

Registered register_explain(CLI::App& app) {
  struct Options {
    CommonOptions common;
    std::string shape;
    std::string config;
    std::string format = "table";
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("explain", "Show every term of the estimate for the top config or a given one");
  cmd->add_option("shape", o->shape, "MxNxK or MxNxKxB; --target vllm-fused-moe: the tokens M")->required();
  cmd->add_option("--hw", o->common.hw, "Hardware profile (a shipped name, a GPU name as nvidia-smi, rocm-smi or torch print it, or a YAML file; default: $GEMM_ADVISOR_HW, else the local GPU)")
      ->check(non_empty_validator());
  o->common.dtype_option =
      cmd->add_option("--dtype", o->common.dtype, "Input dtype (vllm-fused-moe: bf16, fp16, fp8_w8a8)")->capture_default_str()->check(dtype_validator());
  o->common.layout_option =
      cmd->add_option("--layout", o->common.layout, "NN, NT, TN or TT")->capture_default_str()->check(layout_validator());
  add_target_option(cmd, o->common.target);
  add_hardware_overrides(cmd, o->common.overrides);
  add_moe_options(cmd, o->common.moe, true);
  cmd->add_option("--config", o->config, "BMxBNxBK:WARPS:STAGES[:SPLITK][:gGROUP_M] (default: the advisor's top config)")
      ->check(non_empty_validator())
      ->check(tile_config_validator());
  cmd->add_option("--format", o->format, "table or json")
      ->capture_default_str()
      ->transform(CLI::IsMember({"table", "json"}, CLI::ignore_case));
  return {cmd, [o]() {
            using namespace gemm_advisor;
            const GemmProblem p = parse_problem(o->shape, o->common);
            const Profile profile = load_profile_logged(o->common.hw, o->common.overrides, o->common.target);
            warn_unused_param_set(profile, o->common.target, {p});
            warn_outside_fitted_shapes(profile, o->common.target, p);
            const Hardware& hw = profile.hw;
            const Target& target = find_target(o->common.target);
            // The dtype as the user spelled it, only where given: the target's own (vllm-fp8-block's
            // fp8) was told as "dtype bf16 (fp8)" from the option's default (a fresh user's find).
            require_dtype(hw, p.dtype, dtype_given(o->common) ? o->common.dtype : std::string());
            if (const std::string w = dtype_format_warning(o->common.dtype, hw); !w.empty()) spdlog::warn("{}", w);
            warn_beyond_memory(p, hw);
            TileConfig given;
            std::string chosen = "the advisor's top config";
            if (!o->config.empty()) {
              given = parse_tile_config(o->config);
              chosen = "given";
            }
            const RankedConfig r = explain_config(target, p, profile, o->config.empty() ? nullptr : &given);
            const TileConfig& c = r.config;
            const Estimate& e = r.estimate;
            std::ostringstream out;
            if (o->format == "json") {
              nlohmann::json j = explain_json(p, profile, target, r, !o->config.empty());
              add_fitted_shapes_note(j, profile, target, p);
              out << json_text(j, 2) << "\n";
            } else {
              // A MoE layer: each of its two launches on its own.
              const auto gemms = moe_layer_estimates(p, profile, target, c);
              const double peak = hw.peak_flops_per_s(p.dtype);
              // Past 1e9 us (a 2^31-sized shape) in exponent form, as rank prints it (20 digits then
              // ".000 us" read as precision the model does not have: a fresh user's find, 2026-12-05).
              // Past a second, the seconds beside (6087091.971 us was hard to read: a fresh user's find).
              auto us = [](double s) {
                // Under a nanosecond in three significant digits (0.000 us read as nothing at all).
                const std::string t = s * 1e6 < 1e9 && s * 1e6 >= 1e-3 ? fmt::format("{:.3f} us", s * 1e6)
                                                                        : fmt::format("{:.4g} us", s * 1e6);
                return s >= 1 ? t + fmt::format(" ({:.4g} s)", s) : t;
              };
              // Megabytes to 3 decimals; under 10 kB in bytes (1x1x1 printed "0.000 MB (compulsory 0.000 MB)");
              // from a petabyte on in 4 significant digits, as us() does past 1e9 us (2^31-cubed problems
              // printed 21 integer digits: a fresh user's find, 2026-12-07).
              auto mb = [](double bytes) {
                return bytes < 1e4    ? fmt::format("{:.0f} bytes", bytes)
                       : bytes < 1e15 ? fmt::format("{:.3f} MB", bytes / 1e6)
                                      : fmt::format("{:.4g} MB", bytes / 1e6);
              };
              const ModelParams params = target.problem_params(p, profile);
              // The rates the model used (the DRAM's, the output write's), read off its context, not
              // computed again here.
              const EstimateContext ctx = target.context(p, profile);
              auto line = [&](const std::string& k, const std::string& v) { out << fmt::format("  {:<30} {}\n", k, v); };
              // The output's dtype where it is not the input's (fp8 and narrower write bf16): the
              // compulsory bytes count it (a fresh user could not tell from the output).
              const Dtype out_dtype = output_dtype(p.dtype);
              const std::string written =
                  out_dtype == p.dtype ? "" : fmt::format(" (C written as {})", dtype_name(out_dtype));
              out << fmt::format("{} {}{} {} on {}: config {} ({})\n", p.shape_text(), dtype_name(p.dtype), written,
                                 p.layout.name(), hardware_heading(hw), c.text(), chosen);
              // A small partition's peak to 3 digits (7.5, printed as 7, made 5.3 TFLOP/s read as 76% of it
              // where it is 71%: a fresh user's find, 2026-12-06).
              line("predicted time", fmt::format("{} = {:.1f} TFLOP/s, {:.1f}% of {} TFLOP/s peak, {}-bound",
                                                 us(e.latency_s), e.flops_per_s / 1e12, 100 * e.flops_per_s / peak,
                                                 peak_tflops_text(peak), bound_name(e.bound)));
              // The floors no kernel beats, from the datasheet figures (a fresh user could not see the
              // margin): FLOPs at the peak, compulsory bytes at the DRAM's full bandwidth.
              const ProblemFloors floors = problem_floors(p, hw);
              line("floors", fmt::format("compute {} (the FLOPs at the peak), DRAM {} ({} compulsory at {:.2f} TB/s); "
                                         "predicted {:.2f}x the larger",
                                         us(floors.compute_s), us(floors.dram_s), mb(floors.compulsory_bytes),
                                         hw.dram_bandwidth_bytes_per_s / 1e12,
                                         e.latency_s / std::max(floors.compute_s, floors.dram_s)));
              // The terms of one launch; a MoE layer has two (up and down, one config), each shown
              // on its own: its per-tile figures cannot be summed.
              auto sections = [&](const Estimate& x, const std::string& title, double compulsory_bytes) {
                out << "tiles and waves" << title << "\n";
                line("output tiles", fmt::format("{:.0f}", x.output_tiles));
                line("thread blocks (x split_k)", fmt::format("{:.0f}", x.work_tiles));
                const std::string tensor_memory =
                    x.tensor_memory_bytes <= 0 ? ""
                    : x.accumulator_in_tensor_memory
                        ? fmt::format("{:.0f} bytes tensor memory (the accumulator), ", x.tensor_memory_bytes)
                        : fmt::format("{:.0f} bytes tensor memory (each step's product), ", x.tensor_memory_bytes);
                const std::string spilled =
                    x.spilled_registers_per_thread > 0
                        ? fmt::format(", {:.0f} spilled: stored and reloaded each K-step", x.spilled_registers_per_thread)
                        : "";
                line("occupancy", fmt::format("{} block{} per CU ({} bytes smem, {}~{:.0f} registers/thread{})", x.occupancy,
                                              x.occupancy == 1 ? "" : "s", x.smem_bytes, tensor_memory,
                                              x.registers_per_thread, spilled));
                // Every wave but the last runs cu_count * occupancy blocks; the last runs the rest.
                const double slots = static_cast<double>(hw.cu_count) * x.occupancy;
                // A share that rounds to 0.0% is not none: one block on 304 CUs x 32 slots said "0.0% full"
                // (a fresh user's find, 2026-12-06); such a share is "<0.1%".
                const auto pct = [](double fraction) {
                  return fraction > 0 && fraction < 0.0005 ? std::string("<0.1") : fmt::format("{:.1f}", 100 * fraction);
                };
                line("waves", fmt::format("{:.0f} over {} CUs; the last wave {}% full, {}% of all block slots busy",
                                          x.waves, hw.cu_count, pct(x.last_wave_blocks / slots),
                                          pct(x.last_wave_efficiency)));
                line("padding waste", fmt::format("{:.2f}% of the matrix work", 100 * x.padding_waste));
                // Origami's tie-break figure counts every element at the input's size (an fp8 output
                // tile is written as bf16: a fresh user's hand check found the figure off by that).
                line("arithmetic intensity", fmt::format("{:.1f} FLOP/byte of a tile-step (Origami's tie-break figure: the "
                                                         "K-step's A and B tiles and the output tile, each element at "
                                                         "the input's size)", x.arithmetic_intensity));
                out << "per tile (first wave)" << title << "\n";
                line("prefetch", us(x.prefetch_s));
                line("K-steps", fmt::format("{:.0f}", x.k_steps));
                // How the two parts add up (a fresh H100 user could not redo it without the overlap).
                const std::string compute_parts =
                    x.vector_step_s > 0 ? std::string()
                    : x.step_overhead_overlap > 0
                        ? fmt::format(": the longer of the matrix work and the overhead + {:.0f}% of the shorter, "
                                      "k_step_overhead_overlap {:.3g}",
                                      100 * (1 - x.step_overhead_overlap), x.step_overhead_overlap)
                        : ": the matrix work + the overhead (synchronous matrix instructions)";
                // "fed" is the share of the CU's matrix units this block's warps issue to, not useful
                // work: with padding it read as 100% busy on useful work (a fresh expert's find).
                const std::string padding =
                    x.padding_waste > 0.005 ? fmt::format(", {:.0f}% of the work padding", 100 * x.padding_waste) : "";
                line("compute per K-step", fmt::format("{} (matrix units fed by its warps {:.0f}%{}, issue overhead {}{}){}",
                                                       us(x.compute_step_s), 100 * x.matrix_unit_utilization, padding,
                                                       us(x.step_overhead_s), compute_parts,
                                                       x.bound == Bound::memory ? "" : "  <- bounds"));
                // Vector work of a step (the block scales of vllm-fp8-block and block-fp8 MoE), part of
                // the compute step: it was in the JSON only (a fresh user's find).
                if (x.vector_step_s > 0)
                  line("  block-scale math", us(x.vector_step_s) + " on the FP32 lanes, part of the compute step");
                line("memory per K-step", us(x.memory_step_s) + " (the larger of the levels together and the unhidden latency)" +
                                              (x.bound == Bound::memory ? "  <- bounds" : ""));
                line("  L2 bandwidth", us(x.l2_step_s));
                if (hw.llc_bytes > 0) line("  LLC (MALL) bandwidth", us(x.llc_step_s));
                // Which of its two terms the DRAM time is, with its bytes: they are what no earlier wave
                // left in L2, not the L2 misses of the hit rate below (a fresh H100 user's hand check
                // could not make the line from the hit rate).
                const double wave_dram_s = x.dram_step_bytes / ctx.dram_bytes_per_s;
                const std::string cu_term = fmt::format(
                    "the busiest CU's bytes at dram_active_cu_headroom {:.3g}x its 1/{} share of that rate",
                    params.dram_active_cu_headroom, hw.cu_count);
                line("  DRAM bandwidth",
                     us(x.dram_step_s) +
                         fmt::format(" ({} a K-step, what no earlier wave left in L2, at {:.0f}% of the {:.2f} TB/s "
                                     "datasheet figure (dram_bandwidth_fraction), {}; {})",
                                     mb(x.dram_step_bytes), 100 * hw.dram_bandwidth_fraction,
                                     hw.dram_bandwidth_bytes_per_s / 1e12, us(wave_dram_s),
                                     x.dram_step_s > wave_dram_s * (1 + 1e-9) ? cu_term + ", longer: " + us(x.dram_step_s)
                                                                               : cu_term + ", no longer"));
                line("  L2->CU fill", us(x.cu_load_step_s) +
                                          fmt::format(" (the busiest CU's operand bytes at its {:.0f} B/cycle, times the "
                                                      "target's fill fraction: async_copy_fill_fraction {:.3g} for "
                                                      "asynchronous copies{})",
                                                      hw.per_cu_load_bytes_per_s / hw.clock_hz,
                                                      params.async_copy_fill_fraction,
                                                      x.spilled_registers_per_thread > 0
                                                          ? "; the spilled registers' stores and reloads too"
                                                          : ""));
                line("  levels together", us(x.memory_levels_step_s) +
                                              fmt::format(" (the slowest + {:.0f}% of the others: memory_level_overlap {:.3g})",
                                                          100 * (1 - params.memory_level_overlap),
                                                          params.memory_level_overlap));
                // What the latency term is made of, with the parameters it takes (a fresh user could not
                // tell the latency depends on the step's load, 2026-12-06).
                line("  unhidden latency",
                     us(x.latency_step_s) +
                         (c.num_stages >= 2
                              ? fmt::format(" (a load's wait, loaded_latency_multiplier {:.3g} x the idle latency of the "
                                            "farthest level it reads{}, plus its transfer{}, over the K-steps of loads in "
                                            "flight; where none can be in flight, an operand out of the pipeline, "
                                            "unpipelined_latency_multiplier {:.3g})",
                                            params.loaded_latency_multiplier,
                                            params.idle_latency_fraction < 1
                                                ? fmt::format(" x ({:.3g} + {:.3g} x the levels' share of the step: "
                                                              "idle_latency_fraction {:.3g})",
                                                              params.idle_latency_fraction,
                                                              1 - params.idle_latency_fraction,
                                                              params.idle_latency_fraction)
                                                : std::string(),
                                            params.coresident_load_overlap > 0 && x.occupancy > 1
                                                ? fmt::format(" (the CU's levels, less {:.3g} of the other co-resident "
                                                              "blocks' share: coresident_load_overlap)",
                                                              params.coresident_load_overlap)
                                                : std::string(),
                                            params.unpipelined_latency_multiplier)
                              : fmt::format(" (num_stages 1: each step waits for its own loads, "
                                            "unpipelined_latency_multiplier {:.3g} x the idle latency)",
                                            params.unpipelined_latency_multiplier)));
                if (x.matrix_drain_step_s > 0)
                  line("serialized matrix drain", us(x.matrix_drain_step_s) + " per K-step, added to the step");
                if (x.lone_warpgroup_step_s > 0)
                  line("lone warpgroup wait",
                       us(x.lone_warpgroup_step_s) +
                           " per K-step, added to the step (the config's occupancy allows at most one block, of one "
                           "warpgroup, per CU; by occupancy, not the blocks a wave runs)");
                // Output rows that are not whole 32-byte sectors are written at misaligned_store_fraction
                // of the DRAM rate, by the GEMM and by the split-K reduction alike.
                // Their tiles count the sectors their rows touch (store_sector_factor).
                const bool misaligned_rows = ctx.out_store_bytes_per_s < ctx.dram_bytes_per_s;
                const double sectors =
                    store_sector_factor(ctx, c.block_n, c.split_k > 1 ? 4.0 : ctx.bytes_out);
                // Said wherever either applies: a profile without a measured fraction (the A100's, the
                // B200's) still counts the sectors, and the line said neither (a fresh user's find, 2026-12-06).
                const std::string sector_text =
                    sectors > 1 ? fmt::format("counting the {:.3g} bytes of sectors a row of this tile touches per byte "
                                              "it writes (its rows are not whole 32-byte sectors)",
                                              sectors)
                                : std::string();
                line("store", us(x.store_s) + fmt::format(" (one L2 latency, {}, + the wave's output tiles at the DRAM's "
                                                          "write rate{}, or the busiest CU's at its fill rate where longer)",
                                                          us(hw.l2_latency_s),
                                                          misaligned_rows
                                                              ? fmt::format(", {:.3g} of it for output rows that are not "
                                                                            "whole 32-byte sectors (misaligned_store_fraction){}",
                                                                            hw.misaligned_store_fraction,
                                                                            sectors > 1 ? ", " + sector_text : std::string())
                                                          : sectors > 1 ? ", " + sector_text
                                                                        : std::string()));
                const bool staggered = x.lone_block_wave_s > 0;
                const bool shorter_last = x.waves > 1 && x.last_wave_s != x.later_wave_s;
                line("wave", fmt::format("{} = prefetch + {:.0f} x step + last step + store{}", us(x.first_wave_s),
                                         std::max(0.0, x.k_steps - 1),
                                         shorter_last ? fmt::format("; the last wave {}", us(x.last_wave_s)) : ""));
                // Waves after the first, staggered (ModelParams::staggered_wave_fraction).
                if (staggered)
                  line("later waves",
                       fmt::format("{} each, staggered: a CU's blocks start as slots free up, so a wave takes the "
                                   "larger of its throughput ({}: the longer of its K-steps at their bound and its output's "
                                   "write after its loads' DRAM misses) and "
                                   "one block's life alone on a CU ({}), at most the lock step's {} "
                                   "(staggered_wave_fraction {:.3g} of the difference)",
                                   us(x.later_wave_s), us(x.wave_throughput_s), us(x.lone_block_wave_s),
                                   us(x.first_wave_s), params.staggered_wave_fraction));
                out << "total" << title << "\n";
                line("launch", us(x.launch_s));
                // Each wave's time written out, so that the line adds up: the first, the later full
                // ones, the last where it differs (it said "2 x 5.903 us, the last shorter" for
                // 5.903 + 3.905: a fresh user's find, 2026-12-06).
                std::string all_waves;
                if (x.waves <= 1) {
                  all_waves = fmt::format("1 x {}", us(x.first_wave_s));
                } else {
                  const double middle = x.waves - (shorter_last ? 2 : 1);
                  const bool first_alone = staggered || x.later_wave_s != x.first_wave_s;
                  all_waves = first_alone ? fmt::format("the first {}", us(x.first_wave_s)) : "";
                  const double full = first_alone ? middle : middle + 1;
                  if (full > 0)
                    all_waves += fmt::format("{}{:.0f} x {}{}", all_waves.empty() ? "" : " + ", full,
                                             us(first_alone ? x.later_wave_s : x.first_wave_s),
                                             staggered ? " (later waves)" : "");
                  if (shorter_last) all_waves += fmt::format(" + the last {}", us(x.last_wave_s));
                }
                line("all waves", fmt::format("{} ({})", us(x.latency_s - x.launch_s - x.split_k_reduce_s), all_waves));
                if (c.split_k > 1)
                  line("split-K reduction",
                       fmt::format("{} = launch {} (split_k_reduce_launch_s) + the larger of two: the partials read "
                                   "and C written at the DRAM's rate{}, {}; {} splits, each waiting for its L2 hit "
                                   "({}: split_k_reduce_latency_multiplier x the idle L2 latency), {}",
                                   us(x.split_k_reduce_s), us(x.split_k_reduce_launch_s),
                                   misaligned_rows
                                       ? fmt::format(" (C at {:.3g} of it: misaligned_store_fraction)",
                                                     hw.misaligned_store_fraction)
                                       : std::string(),
                                   us(x.split_k_reduce_bandwidth_s), c.split_k,
                                   us(x.split_k_reduce_latency_s / c.split_k), us(x.split_k_reduce_latency_s)));
                line("time", fmt::format("{} = launch + all waves{}", us(x.latency_s), c.split_k > 1 ? " + reduction" : ""));
                out << "memory hierarchy" << title << "\n";
                // The first wave's K-step: later waves may hit more (a fresh user's hand count over the
                // whole kernel's DRAM traffic did not match it).
                line("L2 hit rate", fmt::format("{:.1f}% (a K-step of the first wave)", 100 * x.l2_hit_rate));
                if (hw.llc_bytes > 0) line("LLC hit rate (of L2 misses)", fmt::format("{:.1f}%", 100 * x.llc_hit_rate));
                line("DRAM traffic", fmt::format("{} (compulsory {}{})", mb(x.dram_bytes), mb(compulsory_bytes),
                                                 x.split_k_partial_bytes > 0
                                                     ? fmt::format("; split-K's fp32 partials written and read, {}",
                                                                   mb(x.split_k_partial_bytes))
                                                     : ""));
              };
              if (gemms.empty()) {
                sections(e, "", p.compulsory_bytes());
              } else {
                for (const auto& [g, ge] : gemms)
                  sections(ge, fmt::format(", {} GEMM {}x{}x{}", moe_gemm_name(g.moe.gemm), g.m, g.n, g.k),
                           g.compulsory_bytes());
              }
              if (p.is_moe()) {
                const MoeRoutingTerms rt = moe_routing_terms(p);
                out << "fused MoE (" << moe_routing_text(p.moe) << " routing)\n";
                line("routed rows", fmt::format("{:.0f} = M {} x top_k {}, over {:.1f} of {} experts (busiest {:.1f} rows)",
                                                rt.routed_rows, p.m, p.moe.top_k, rt.active_experts, p.moe.experts,
                                                rt.busiest_expert_rows));
                const double blocks = rt.blocks[block_index(c.block_m)];
                line("padded rows", fmt::format("{:.0f} in {:.1f} blocks of {} ({:.1f}% padding)", blocks * c.block_m,
                                                blocks, c.block_m, 100 * (1 - rt.routed_rows / (blocks * c.block_m))));
                for (const auto& [g, ge] : gemms) {
                  line(fmt::format("{} GEMM {}x{}x{}", moe_gemm_name(g.moe.gemm), g.m, g.n, g.k),
                       fmt::format("{} = {:.1f} TFLOP/s, {}-bound, {:.0f} waves, {} DRAM", us(ge.latency_s),
                                   ge.flops_per_s / 1e12, bound_name(ge.bound), ge.waves, mb(ge.dram_bytes)));
                }
              }
            }
            std::cout << out.str();
            return kExitOk;
          }};
}

}  // namespace cli
