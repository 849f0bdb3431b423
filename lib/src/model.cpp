#include "gemm_advisor/model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gemm_advisor/triton_target.hpp"

namespace gemm_advisor {

const char* bound_name(Bound b) {
  switch (b) {
    case Bound::compute: return "compute";
    case Bound::memory: return "memory";
    case Bound::issue: return "issue";
  }
  return "?";
}

namespace {

// Triton vectorises a load only when the contiguous dimension is divisible by 16 elements, and then
// moves 16 bytes per thread per instruction.
constexpr std::int64_t kVectorDivisibility = 16;
constexpr double kVectorBytes = 16.0;
// The cache line both vendors' L1/L2 move and tag: 128 bytes (NVIDIA: CUDA C++ Best Practices Guide,
// "Coalesced Access to Global Memory", 128-byte lines of four 32-byte sectors; AMD CDNA 3: 128-byte
// L2 cache lines, CDNA 3 ISA guide / white paper).
constexpr double kLineBytes = 128.0;

// ceil and floor of non-negative values without a libm call (baseline x86-64 has no rounding
// instruction): this loop runs millions of times a second. Values from 2^52 up are integers already.
constexpr double kIntegralFrom = 4503599627370496.0;  // 2^52
double ceil_pos(double v) {
  if (!(v < kIntegralFrom)) return v;
  const double t = static_cast<double>(static_cast<std::int64_t>(v));
  return t < v ? t + 1.0 : t;
}
double floor_pos(double v) {
  if (!(v < kIntegralFrom)) return v;
  return static_cast<double>(static_cast<std::int64_t>(v));
}
// ceil(a / b) for a count a >= 1 and a finite b, without dividing when the quotient is at most 1
// (a tile count of a small shape, a wave on fewer tiles than CUs): exactly ceil_pos(a / b).
double ceil_div(double a, double b) { return a <= b ? 1.0 : ceil_pos(a / b); }
// min(1, a / b) for a >= 0 and a finite b > 0, without dividing when a >= b: exactly std::min.
double min_1_ratio(double a, double b) { return a >= b ? 1.0 : a / b; }
double round_up(double v, double to) { return ceil_pos(v / to) * to; }

// Per-problem, per-config quantities the wave evaluation needs; computed once per estimate.
struct TileGeometry {
  double tiles_m, tiles_n, tiles_per_batch, output_tiles;
  double m_eff, n_eff, k_eff;      // average rows, columns, K-depth actually loaded per tile-step
  double bytes_in, bytes_out;      // element sizes in bytes
  double tile_step_bytes;          // operand bytes one tile loads per K-step
  double tile_step_load_s;         // the CU's time to issue those loads at its fill rate
  double tile_step_flops;          // matrix work of one tile-step, padded to the instruction
  double group_m;
};

// Distinct operand rows (in tiles) and columns touched by `tiles` consecutive thread blocks of
// Triton's grouped raster (GROUP_M rows, walking down a group's rows before moving a column).
inline void raster_footprint(double tiles, const TileGeometry& g, double* rows, double* cols) {
  const double group = std::min(g.group_m, g.tiles_m);
  if (tiles <= group * g.tiles_n) {
    *rows = std::min(group, tiles);
    *cols = ceil_div(tiles, group);
  } else {
    *rows = std::min(g.tiles_m, ceil_div(tiles, g.tiles_n));
    *cols = g.tiles_n;
  }
}

// Member initialisers, not `WaveTerms w{}`: the zeroing of the fields set anyway is then optimised
// out instead of clearing the whole record first.
struct WaveTerms {
  double time_s = 0, prefetch_s = 0, compute_step_s = 0, memory_step_s = 0, l2_step_s = 0, llc_step_s = 0,
         dram_step_s = 0, cu_load_step_s = 0, latency_step_s = 0, step_overhead_s = 0, store_s = 0,
         l2_hit_rate = 0, llc_hit_rate = 0, dram_bytes = 0, utilization = 0;
  Bound bound = Bound::compute;
};

// The index of a power-of-two block size in [16, 1024] in EstimateContext::block_terms.
std::size_t block_index(int block) { return static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(block)) - 4); }

}  // namespace

EstimateContext make_estimate_context(const GemmProblem& p, const Hardware& hw) {
  EstimateContext ctx;
  ctx.problem = &p;
  ctx.hw = &hw;
  ctx.rate = hw.rate(p.dtype);
  const ModelParams& mp = hw.model;
  ctx.m = static_cast<double>(p.m);
  ctx.n = static_cast<double>(p.n);
  ctx.k = static_cast<double>(p.k);
  ctx.batch = static_cast<double>(p.batch);
  ctx.flops = p.flops();
  const double m = ctx.m, n = ctx.n, k = ctx.k, batch = ctx.batch;

  // Alignment: an operand whose contiguous dimension is not a multiple of 16 elements cannot be
  // loaded with 16-byte vectors (Triton specialises integer arguments on divisibility by 16,
  // triton/runtime/jit.py) nor copied asynchronously: it goes element by element through
  // registers, at elem_bytes/16 of the CU's fill rate, and the software pipeline is lost.
  const std::int64_t a_contiguous = p.layout.a_transposed ? p.m : p.k;
  const std::int64_t b_contiguous = p.layout.b_transposed ? p.k : p.n;
  ctx.a_aligned = a_contiguous % kVectorDivisibility == 0;
  ctx.b_aligned = b_contiguous % kVectorDivisibility == 0;
  ctx.bytes_in = dtype_bits(p.dtype) / 8.0;
  ctx.bytes_out = dtype_bits(output_dtype(p.dtype)) / 8.0;
  if (!ctx.rate) return ctx;

  // Tiles per dimension, the average extent a tile actually covers, and the block padded to the
  // matrix instruction, for every block size the Triton rules allow.
  const double sizes[3] = {m, n, k};
  const int instruction[3] = {ctx.rate->instruction_m, ctx.rate->instruction_n, ctx.rate->instruction_k};
  for (std::size_t d = 0; d < 3; ++d) {
    for (std::size_t i = 0; i < ctx.block_terms[d].size(); ++i) {
      const double block = static_cast<double>(16 << i);
      EstimateContext::BlockTerms& t = ctx.block_terms[d][i];
      t.blocks = ceil_div(sizes[d], block);
      t.extent = sizes[d] / t.blocks;
      t.padded = round_up(block, instruction[d]);
      t.row_line_bytes = round_up(t.extent * ctx.bytes_in, kLineBytes);
    }
  }

  // DRAM traffic over the whole kernel: each wave fetches the operand panels its tiles touch;
  // panels that fit in the reusable part of L2 (and the LLC) are fetched once.
  ctx.operand_bytes = batch * (m * k + k * n) * ctx.bytes_in;
  const double cache_bytes = hw.l2_bytes * mp.l2_reuse_fraction + hw.llc_bytes;
  ctx.operand_reuse = std::min(1.0, cache_bytes / ctx.operand_bytes);

  ctx.cu_flops_per_s = ctx.rate->flops_per_cycle_per_cu * hw.clock_hz * hw.matrix_peak_fraction;
  ctx.dram_bytes_per_s = hw.dram_bandwidth_bytes_per_s * hw.dram_bandwidth_fraction;
  return ctx;
}

namespace {

// The model, written once for both entry points: with kRecord, every term goes into *record (the
// Estimate a report shows); without, only what ranking compares is computed (estimate_latency).
template <bool kRecord>
LatencyEstimate estimate_terms(const EstimateContext& ctx, const TileConfig& c, Estimate* record) {
  LatencyEstimate out;
  out.latency_s = std::numeric_limits<double>::infinity();
  if constexpr (kRecord) record->latency_s = out.latency_s;
  const MatrixRate* rate = ctx.rate;
  if (!rate) return out;
  const GemmProblem& p = *ctx.problem;
  const Hardware& hw = *ctx.hw;
  const ModelParams& mp = hw.model;

  const double bm = c.block_m, bn = c.block_n, bk = c.block_k;
  const double m = ctx.m, n = ctx.n, k = ctx.k;
  const double batch = ctx.batch;
  const double split_k = c.split_k;
  const double clock = hw.clock_hz;

  // Resources and occupancy (thread blocks resident per CU at once).
  const std::int64_t smem_bytes = triton_smem_bytes(c, p.dtype, hw);
  const double threads = static_cast<double>(c.num_warps) * hw.warp_size;
  const double acc_regs = accumulator_registers_per_thread(c, hw);
  // Unaligned operands are staged through registers, each element with its own scalar load.
  const double staged_regs = mp.staged_registers_per_element *
                             ((ctx.a_aligned ? 0.0 : bm * bk) + (ctx.b_aligned ? 0.0 : bk * bn)) / threads;
  const double regs_needed = acc_regs + staged_regs + mp.register_overhead_per_thread;
  // The compiler caps registers so that one block fits on a CU; beyond the cap they spill to local
  // memory, stored and reloaded every K-step.
  const double regs_cap = std::min<double>(hw.max_registers_per_thread,
                                           floor_pos(static_cast<double>(hw.registers_per_cu) / threads));
  const double registers_per_thread = std::min(regs_cap, regs_needed);
  if constexpr (kRecord) {
    record->a_aligned = ctx.a_aligned;
    record->b_aligned = ctx.b_aligned;
    record->smem_bytes = smem_bytes;
    record->registers_per_thread = registers_per_thread;
  }
  const double spill_bytes_per_step = std::max(0.0, regs_needed - regs_cap) * threads * 4.0 * 2.0;
  if (!triton_config_rules_ok(c, p, hw) || !triton_resources_fit(smem_bytes, acc_regs, c.num_warps, hw)) return out;
  const double occ = std::min({static_cast<double>(hw.max_blocks_per_cu),
                               floor_pos(static_cast<double>(hw.smem_per_cu_bytes) / std::max(1.0, static_cast<double>(smem_bytes))),
                               floor_pos(static_cast<double>(hw.max_warps_per_cu) / c.num_warps),
                               floor_pos(static_cast<double>(hw.registers_per_cu) / (registers_per_thread * threads))});
  if (occ < 1) return out;

  // The rules passed: every block size is a power of two in [16, 1024].
  const EstimateContext::BlockTerms& tm = ctx.block_terms[0][block_index(c.block_m)];
  const EstimateContext::BlockTerms& tn = ctx.block_terms[1][block_index(c.block_n)];
  const EstimateContext::BlockTerms& tk = ctx.block_terms[2][block_index(c.block_k)];
  TileGeometry g;
  g.tiles_m = tm.blocks;
  g.tiles_n = tn.blocks;
  g.tiles_per_batch = g.tiles_m * g.tiles_n;
  g.output_tiles = g.tiles_per_batch * batch;
  g.group_m = c.group_m;
  const double k_blocks = tk.blocks;
  const double k_steps = ceil_div(k_blocks, split_k);
  g.m_eff = tm.extent;
  g.n_eff = tn.extent;
  g.k_eff = tk.extent;
  g.bytes_in = ctx.bytes_in;
  g.bytes_out = ctx.bytes_out;
  g.tile_step_bytes = (g.m_eff + g.n_eff) * g.k_eff * g.bytes_in;
  const double scalar_rate = std::min(1.0, g.bytes_in / kVectorBytes);
  // An aligned operand is copied asynchronously in whole cache lines: a tile row shorter than a line
  // (a K-contiguous operand with BLOCK_K * elem < 128 bytes) still costs a line's request slot.
  // An unaligned one goes element by element through registers, at elem_bytes/16 of the fill rate.
  // (Rows times the row's bytes rounded up to lines; the rounding is per block size, in the context.)
  const double a_lines = p.layout.a_transposed ? tk.extent * tm.row_line_bytes : tm.extent * tk.row_line_bytes;
  const double b_lines = p.layout.b_transposed ? tn.extent * tk.row_line_bytes : tk.extent * tn.row_line_bytes;
  const double async_rate = mp.async_copy_fill_fraction;
  // Spilled registers move through the load/store unit 4 bytes at a time, like scalar loads.
  g.tile_step_load_s = ((ctx.a_aligned ? a_lines / async_rate : g.m_eff * g.k_eff * g.bytes_in / scalar_rate) +
                        (ctx.b_aligned ? b_lines / async_rate : g.n_eff * g.k_eff * g.bytes_in / scalar_rate) +
                        spill_bytes_per_step / std::min(1.0, 4.0 / kVectorBytes)) /
                       hw.per_cu_load_bytes_per_s;
  // Matrix work per tile-step, padded to the instruction shape. A tile narrower than the
  // instruction's M, or too few warps to issue it (Hopper's wgmma needs a warpgroup of 4), runs a
  // narrower instruction at a documented efficiency instead.
  const bool full_instruction = bm >= rate->instruction_m && c.num_warps >= hw.matrix_instruction_warps;
  const double bm_work = full_instruction ? tm.padded : bm / mp.narrow_tile_matrix_efficiency;
  // Only an asynchronous matrix instruction (wgmma) lets the warps do their bookkeeping while it
  // runs; the narrower synchronous fallback (mma.sync) does not.
  const double overlap = full_instruction ? mp.k_step_overhead_overlap : 0.0;
  g.tile_step_flops = 2.0 * bm_work * tn.padded * tk.padded;

  const double work_tiles = g.output_tiles * split_k;
  const double concurrent = hw.cu_count * occ;
  const double waves = ceil_div(work_tiles, concurrent);
  const double arithmetic_intensity = 2.0 * bm * bn * bk / ((bm * bk + bk * bn + bm * bn) * g.bytes_in);

  const double operand_bytes = ctx.operand_bytes;
  const double reuse = ctx.operand_reuse;
  const double cu_rate = ctx.cu_flops_per_s;
  const double dram_bw = ctx.dram_bytes_per_s;
  // Loads issued ahead of the math: num_stages - 1 buffers' worth, none when an operand is unaligned.
  const double in_flight_steps =
      ctx.a_aligned && ctx.b_aligned ? c.num_stages - hw.triton_smem_stage_offset - 1 : 0.0;
  // The same in every wave: the compulsory operand bytes per K-step, the bytes of an output tile.
  const double compulsory_step = operand_bytes / (waves * k_steps);
  const double out_tile_bytes = g.m_eff * g.n_eff * (c.split_k > 1 ? 4.0 : g.bytes_out);

  // Inlined (called twice, GCC would not): the lean path then computes only the terms that reach
  // time_s, and neither call spills the terms to memory.
  auto wave = [&](double tiles) __attribute__((always_inline)) {
    WaveTerms w;
    const double active_cus = std::min(tiles, static_cast<double>(hw.cu_count));
    const double per_cu = ceil_div(tiles, hw.cu_count);  // tiles the busiest CU runs at once
    // Compute: the busiest CU advances each of its tiles one K-step.
    w.utilization = min_1_ratio(c.num_warps * per_cu, hw.warps_to_feed_matrix_units);
    const double tile_compute_s = g.tile_step_flops / (cu_rate * w.utilization);
    // The warps' per-step bookkeeping (barriers, waits, address arithmetic) partly hides under
    // asynchronous matrix work (k_step_overhead_overlap, model_params.hpp); CTAs sharing a CU each
    // pay their own.
    w.step_overhead_s = per_cu * mp.k_step_overhead_cycles / clock;
    const double math_s = per_cu * tile_compute_s;
    w.compute_step_s = std::max(math_s, w.step_overhead_s) +
                       (1.0 - overlap) * std::min(math_s, w.step_overhead_s);
    // Memory: which distinct operand bytes the wave's tiles touch per K-step.
    const double splits_in_flight = std::min(split_k, ceil_div(tiles, g.output_tiles));
    const double tiles_per_split = std::min(tiles, g.output_tiles);
    const double batches_in_flight = ceil_div(tiles_per_split, g.tiles_per_batch);
    const double tiles_per_batch = std::min(tiles_per_split, g.tiles_per_batch);
    double rows, cols;
    raster_footprint(tiles_per_batch, g, &rows, &cols);
    const double panels = splits_in_flight * batches_in_flight;
    const double requested = tiles * g.tile_step_bytes;
    const double unique = std::min(requested, panels * (rows * g.m_eff + cols * g.n_eff) * g.k_eff * g.bytes_in);
    // AMD: each XCD has its own L2 and receives every xcd_count-th block, so per L2 the footprint
    // is that of a strided subset; the shared LLC (MALL) then sees the union.
    double l2_miss = unique;
    if (hw.xcd_count > 1 && tiles > 1) {
      const double x = std::min<double>(hw.xcd_count, tiles);
      const double rows_x = std::max(1.0, ceil_div(rows, x));
      const double cols_x = std::min(cols, ceil_div(ceil_div(tiles_per_batch, x), rows_x));
      l2_miss = std::min(requested, x * panels * (rows_x * g.m_eff + cols_x * g.n_eff) * g.k_eff * g.bytes_in);
      l2_miss = std::max(l2_miss, unique);
    }
    const double dram_step_bytes = (1.0 - reuse) * unique + reuse * std::min(unique, compulsory_step);
    w.l2_hit_rate = 1.0 - l2_miss / requested;
    // Likewise a CU draws about its share of the L2 bandwidth (times the same headroom), and never
    // more than its own fill rate.
    const double l2_bw = std::min({hw.l2_bandwidth_bytes_per_s, active_cus * hw.per_cu_load_bytes_per_s,
                                   hw.l2_bandwidth_bytes_per_s * mp.dram_active_cu_headroom * active_cus / hw.cu_count});
    w.l2_step_s = requested / l2_bw;
    // Loads are issued by the resident warps, one scheduler per warp's sub-partition: too few warps
    // leave part of the CU's load issue idle, as they do its matrix units.
    w.cu_load_step_s = per_cu * g.tile_step_load_s / w.utilization;
    double miss_latency_s = hw.dram_latency_s;
    if (hw.llc_bytes > 0) {
      w.llc_step_s = l2_miss / hw.llc_bandwidth_bytes_per_s;
      w.llc_hit_rate = l2_miss > 0 ? 1.0 - dram_step_bytes / l2_miss : 0.0;
      miss_latency_s = w.llc_hit_rate * (hw.l2_latency_s + hw.dram_latency_s) / 2 +
                       (1.0 - w.llc_hit_rate) * hw.dram_latency_s;
    }
    // Few active CUs cannot keep enough misses in flight to saturate DRAM: each sustains about
    // its share of the bandwidth (times a fitted headroom).
    const double dram_bw_active = std::min(dram_bw, dram_bw * mp.dram_active_cu_headroom * active_cus / hw.cu_count);
    w.dram_step_s = dram_step_bytes / dram_bw_active;
    w.dram_bytes = dram_step_bytes * k_steps;
    const double latency_s = (w.l2_hit_rate * hw.l2_latency_s + (1.0 - w.l2_hit_rate) * miss_latency_s) *
                             mp.loaded_latency_multiplier;
    const double bandwidth_s = std::max({w.l2_step_s, w.llc_step_s, w.dram_step_s, w.cu_load_step_s});
    // Latency (Little's law): one K-step's loads take the loaded latency plus their transfer at the
    // CU's share of bandwidth; with s operand buffers, s-1 such loads are in flight ahead of the
    // math, so a step can go no faster than a load over s-1. With one buffer each step waits for
    // its own loads, then computes.
    const double load_s = latency_s + bandwidth_s;
    w.latency_step_s = in_flight_steps >= 1 ? load_s / in_flight_steps : load_s + tile_compute_s;
    w.memory_step_s = std::max(bandwidth_s, w.latency_step_s);
    w.bound = w.compute_step_s < w.memory_step_s ? Bound::memory
              : math_s >= w.step_overhead_s      ? Bound::compute
                                                 : Bound::issue;
    const double step_s = std::max(w.compute_step_s, w.memory_step_s);
    // Prefetch: the first K-step's loads, latency plus transfer. Store: the output tiles.
    w.prefetch_s = latency_s + bandwidth_s;
    w.store_s = hw.l2_latency_s + std::max(tiles * out_tile_bytes / dram_bw,
                                           per_cu * out_tile_bytes / hw.per_cu_load_bytes_per_s);
    w.time_s = w.prefetch_s + k_steps * step_s + w.store_s;
    return w;
  };

  const double full_waves = waves - 1;
  // Below 2^53 the subtraction is exact; above it (up to 1e22 tiles at the limits) only fmod is.
  double last_tiles = work_tiles < 9.0e15 ? work_tiles - full_waves * concurrent : std::fmod(work_tiles, concurrent);
  if (last_tiles <= 0) last_tiles = concurrent;
  const WaveTerms first = wave(std::min(work_tiles, concurrent));
  const WaveTerms last = full_waves > 0 && last_tiles < concurrent ? wave(last_tiles) : first;
  double total_s = mp.launch_overhead_s + (full_waves > 0 ? full_waves * first.time_s : 0.0) + last.time_s;
  if constexpr (kRecord) record->dram_bytes = full_waves * first.dram_bytes + last.dram_bytes;
  double split_k_reduce_s = 0;
  if (c.split_k > 1) {
    // Second kernel: read split_k fp32 partials, write the output once. Its loop over the splits
    // has a run-time trip count, so each iteration waits about one loaded L2 latency (the partials
    // were just written and sit in L2), unless the bytes themselves take longer.
    const double partial_bytes = split_k * m * n * batch * 4.0;
    const double out_bytes = m * n * batch * g.bytes_out;
    split_k_reduce_s = mp.split_k_reduce_launch_s +
                       std::max((partial_bytes + out_bytes) / dram_bw,
                                split_k * hw.l2_latency_s * mp.loaded_latency_multiplier);
    if constexpr (kRecord) record->dram_bytes += partial_bytes * 2 + out_bytes;
    total_s += split_k_reduce_s;
  } else if constexpr (kRecord) {
    record->dram_bytes += m * n * batch * g.bytes_out;
  }

  out.feasible = true;
  out.latency_s = total_s;
  out.arithmetic_intensity = arithmetic_intensity;
  if constexpr (!kRecord) return out;

  Estimate& e = *record;
  e.output_tiles = g.output_tiles;
  e.work_tiles = work_tiles;
  e.k_steps = k_steps;
  e.occupancy = static_cast<int>(occ);
  e.waves = waves;
  e.last_wave_efficiency = work_tiles / (waves * concurrent);
  e.last_wave_blocks = last_tiles;
  e.padding_waste = 1.0 - (m * n * k) / (g.tiles_m * bm * g.tiles_n * bn * k_blocks * bk);
  e.arithmetic_intensity = arithmetic_intensity;
  e.split_k_reduce_s = split_k_reduce_s;
  e.feasible = true;
  e.latency_s = total_s;
  e.flops_per_s = ctx.flops / total_s;
  e.bound = first.bound;
  e.prefetch_s = first.prefetch_s;
  e.compute_step_s = first.compute_step_s;
  e.memory_step_s = first.memory_step_s;
  e.l2_step_s = first.l2_step_s;
  e.llc_step_s = first.llc_step_s;
  e.dram_step_s = first.dram_step_s;
  e.cu_load_step_s = first.cu_load_step_s;
  e.latency_step_s = first.latency_step_s;
  e.step_overhead_s = first.step_overhead_s;
  e.store_s = first.store_s;
  e.l2_hit_rate = first.l2_hit_rate;
  e.llc_hit_rate = first.llc_hit_rate;
  e.matrix_unit_utilization = first.utilization;
  return out;
}

}  // namespace

Estimate estimate(const EstimateContext& ctx, const TileConfig& c) {
  Estimate e;
  estimate_terms<true>(ctx, c, &e);
  return e;
}

Estimate estimate(const GemmProblem& p, const Hardware& hw, const TileConfig& c) {
  return estimate(make_estimate_context(p, hw), c);
}

LatencyEstimate estimate_latency(const EstimateContext& ctx, const TileConfig& c) {
  return estimate_terms<false>(ctx, c, nullptr);
}

}  // namespace gemm_advisor
