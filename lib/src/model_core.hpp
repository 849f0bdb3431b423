#pragma once
// The model core, written once for every target (a private header of the library: each target's
// .cpp includes it and instantiates estimate_terms with its own compile-time Rules, so the
// per-config loop has no virtual call and the mapping inlines into it).
//
// A target's Rules is a type with
//   template <bool kAligned> static bool map(const EstimateContext& ctx, const TileConfig& c, KernelShape& k);
// that fills the KernelShape of one config (kernel_shape.hpp): the tile and resource fields always,
// the rest only when it returns true (the kernel can run the config: the compiler accepts it and
// it launches), where kAligned says both operands are aligned (EstimateContext::a_aligned and
// b_aligned: the per-config loop is compiled for that case apart, target_impl.hpp); and
//   static constexpr bool kExtraStepWork;
// false when the kernel has no loads or math per K-step beyond its operands and the matrix
// product (extra_step_bytes, vector_ops and matrix_result_per_step are then never read: the terms
// cost the plain kernels nothing). The core then evaluates the Origami model over that shape in named stages:
// resources and occupancy, per-config geometry, and the wave (wave_terms), then the total.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "gemm_advisor/kernel_shape.hpp"
#include "gemm_advisor/model.hpp"

namespace gemm_advisor::core {

// Triton vectorises a load only when the contiguous dimension is divisible by 16 elements
// (kVectorDivisibility, problem.hpp), and then moves 16 bytes per thread per instruction.
constexpr double kVectorBytes = 16.0;
// A scalar register load moves 4 bytes (one 32-bit register) per thread per instruction.
constexpr double kScalarBytes = 4.0;
// The cache line both vendors' L1/L2 move and tag: 128 bytes (NVIDIA: CUDA C++ Best Practices Guide,
// "Coalesced Access to Global Memory", 128-byte lines of four 32-byte sectors; AMD CDNA 3: 128-byte
// L2 cache lines, CDNA 3 ISA guide / white paper).
constexpr double kLineBytes = 128.0;
// The DRAM sector: the unit NVIDIA's L2 tracks and writes to DRAM (CUDA C++ Best Practices Guide,
// "Coalesced Access to Global Memory": 32-byte sectors). An output row that is not a whole number
// of sectors shares a sector with its neighbour (Hardware::misaligned_store_fraction).
constexpr double kStoreSectorBytes = 32.0;

// The sectors a row segment of `segment_bytes` touches when rows start `row_bytes` apart, in bytes,
// over the segment's own bytes: >= 1, and exactly 1 where rows are whole sectors (row_bytes a multiple
// of 32). A misaligned row's segment starts at offsets k*g within its first sector, g = gcd of the row's
// and the segment's bytes modulo 32 and 32, each offset as often (the rows run through them; the tiles
// along N through the segment's own); a segment of 32q + r bytes at offset o touches q + ceil((o + r) /
// 32) sectors: q plus, over the 32/g offsets, none (r = 0 at offset 0), one where o + r <= 32, else two.
// A 256x16 bf16 tile of 4095-wide rows touches 1.94 sectors a 32-byte row; 32x256, 17 of 16. Measured
// (README "Known gaps", data/measurements/README.md, forty-second session): on our H100 the misaligned
// one-step launches write 1.6-2.0 TB/s of sectors touched, tall narrow and short wide tiles alike,
// where counted in output bytes 256x16 wrote half as fast as 32x256. Both arguments in bytes, > 0.
inline double store_sector_factor(double row_bytes, double segment_bytes) {
  const auto residue = [](double bytes) {
    return static_cast<unsigned>(static_cast<std::uint64_t>(bytes) % static_cast<std::uint64_t>(kStoreSectorBytes));
  };
  const unsigned row_residue = residue(row_bytes);
  if (row_residue == 0) return 1.0;
  const unsigned sector = static_cast<unsigned>(kStoreSectorBytes);
  const auto gcd = [](unsigned a, unsigned b) {
    while (b != 0) {
      const unsigned t = a % b;
      a = b;
      b = t;
    }
    return a;
  };
  const unsigned r = residue(segment_bytes);
  const unsigned step = gcd(gcd(row_residue, r == 0 ? sector : r), sector);
  const double offsets = sector / step;
  const double q = std::floor(segment_bytes / kStoreSectorBytes);
  // r = 0: offset 0 adds no sector, every other one adds one; else those with o <= 32 - r add one,
  // the rest two.
  const double extra = r == 0 ? (offsets - 1) / offsets
                              : (2 * offsets - (std::floor((sector - r) / static_cast<double>(step)) + 1)) / offsets;
  return (q + extra) * kStoreSectorBytes / segment_bytes;
}

// An operand tile contiguous along M or N copies faster when its rows span this many cache lines or
// more (ModelParams::mn_contiguous_fill_gain): with 4 the tutorial kernel's newest 49 shapes ranked
// 94.9% of oracle against 95.5% with 2 (its NN winners have BLOCK_N 128 in bf16, rows of two lines);
// rows of one line keep the fitted rate.
constexpr double kWideRowLines = 2.0;
// A spilled register is stored and reloaded once per K-step: two 4-byte transfers.
constexpr double kSpillTransfersPerStep = 2.0;
// Bytes of one 32-bit register or fp32 element.
constexpr double kFp32Bytes = 4.0;

// ceil and floor of non-negative values without a libm call (baseline x86-64 has no rounding
// instruction): this loop runs millions of times a second. Values from 2^52 up are integers already.
constexpr double kIntegralFrom = 4503599627370496.0;  // 2^52
inline double ceil_pos(double v) {
  if (!(v < kIntegralFrom)) return v;
  const double t = static_cast<double>(static_cast<std::int64_t>(v));
  return t < v ? t + 1.0 : t;
}
inline double floor_pos(double v) {
  if (!(v < kIntegralFrom)) return v;
  return static_cast<double>(static_cast<std::int64_t>(v));
}
// ceil(a / b) for a count a >= 1 and a finite b, without dividing when the quotient is at most 1
// (a tile count of a small shape, a wave on fewer tiles than CUs): exactly ceil_pos(a / b).
inline double ceil_div(double a, double b) { return a <= b ? 1.0 : ceil_pos(a / b); }
// min(1, a / b) for a >= 0 and a finite b > 0, without dividing when a >= b: exactly std::min.
inline double min_1_ratio(double a, double b) { return a >= b ? 1.0 : a / b; }
inline double round_up(double v, double to) { return ceil_pos(v / to) * to; }
// Below 2^53 the subtraction is exact; above it (up to 1e22 tiles at the limits) only fmod is.
constexpr double kExactSubtractionBelow = 9.0e15;

// The stages estimate_terms calls per config are always_inline: with its lone-wave pass
// (lone_block_wave_s) instantiated beside it, GCC's growth limits stopped inlining them into the hot
// path, and every estimate ran 13-17% slower (model_bench, 2026-12-06).

// Whether both operands are aligned: the case the per-config loop is compiled for apart (kAligned
// of estimate_terms; target_impl.hpp dispatches on it).
inline bool operands_aligned(const EstimateContext& ctx) { return ctx.a_aligned && ctx.b_aligned; }

// The terms of a block of num_warps warps (EstimateContext::WarpTerms), computed.
inline EstimateContext::WarpTerms warp_terms_of(const Hardware& hw, int num_warps) {
  EstimateContext::WarpTerms w;
  w.threads = static_cast<double>(num_warps) * hw.warp_size;
  w.register_cap = std::min<double>(hw.max_registers_per_thread, floor_pos(static_cast<double>(hw.registers_per_cu) / w.threads));
  w.warp_occupancy = floor_pos(static_cast<double>(hw.max_warps_per_cu) / num_warps);
  w.block_utilization = min_1_ratio(num_warps, hw.warps_to_feed_matrix_units);
  return w;
}
// ... read from the context's table where it has them (every count a Triton kernel allows), else
// computed into *scratch. A reference: the caller loads only the fields it uses.
__attribute__((always_inline)) inline const EstimateContext::WarpTerms& warp_terms(const EstimateContext& ctx, int num_warps,
                                                    EstimateContext::WarpTerms* scratch) {
  if (num_warps >= 1 && num_warps <= EstimateContext::kWarpTermsMax) return ctx.warp_terms[num_warps];
  *scratch = warp_terms_of(*ctx.hw, num_warps);
  return *scratch;
}

// Stage 1: registers, spills and occupancy (thread blocks resident per CU at once).
struct Residency {
  double threads = 0;               // threads per block
  double registers_per_thread = 0;  // what the compiler allocates (capped)
  double spilled_registers = 0;     // registers per thread beyond the cap (or the accumulators), spilled
  double spill_bytes_per_step = 0;  // registers beyond the cap, stored and reloaded every K-step
  // Unaligned operand elements a thread loads one after another in a K-step because the registers
  // to hold them in flight together are not there (0 when they fit).
  double serialized_loads = 0;
  double occupancy = 0;             // 0: no block fits on a CU
};

// Whether a block's accumulator tile fits its threads' registers beside the kernel's other registers
// (register_overhead_per_thread) under the register cap; where it does not, the whole tile spills.
__attribute__((always_inline)) inline bool accumulators_fit(const ModelParams& mp, double accumulator_registers, double register_cap) {
  return accumulator_registers + mp.register_overhead_per_thread <= register_cap;
}

__attribute__((always_inline)) inline Residency residency(const EstimateContext& ctx, const KernelShape& k, const EstimateContext::WarpTerms& warps) {
  const ModelParams& mp = ctx.params;
  Residency r;
  r.threads = warps.threads;
  // Unaligned operands are staged through registers, each element with its own scalar load. With
  // both aligned the term is +0 (EstimateContext::no_staged_registers): no division then.
  const double staged_per_thread =
      ctx.no_staged_registers && r.threads > 0
          ? 0.0
          : ((ctx.a_aligned ? 0.0 : k.a_staged_elements) + (ctx.b_aligned ? 0.0 : k.b_staged_elements)) / r.threads;
  const double staged_regs = mp.staged_registers_per_element * staged_per_thread;
  // Without a software pipeline (num_stages 1) nothing is copied asynchronously: the threads load
  // each K-step's tile of an aligned operand into registers too, in 16-byte vectors (kScalarBytes
  // of it a register), and store it to shared memory. Measured on our H200 (Triton 3.6, compile
  // only): in h200-resource-probe.csv the aligned 4096^3 NT configs at 1 stage take about that much
  // more than at 2 (128x128x128 with 4 warps: 255 registers and 36 spilled against 230 and none;
  // accumulators + vectors + 32 = 288), and in h200-worst-probe.csv the tutorial kernel's 256x32x256
  // with 8 warps on 1536x2999x2048 NN (B unaligned) spills 36 registers at 1 stage, where the count
  // without this term was 144 registers: the advisor picked it for that shape at 32% of the best.
  const double unpipelined_regs =
      k.num_stages == 1 ? ((ctx.a_aligned ? k.a_staged_elements : 0.0) + (ctx.b_aligned ? k.b_staged_elements : 0.0)) *
                              ctx.bytes_in / kScalarBytes / r.threads
                        : 0.0;
  // A pipelined loop keeps each aligned operand's copy addresses (one a 16-byte vector) for the whole
  // loop (ModelParams::copy_address_registers; 0 by default: no term).
  const double copy_regs =
      k.num_stages >= 2 && mp.copy_address_registers > 0
          ? mp.copy_address_registers *
                ((ctx.a_aligned ? k.a_staged_elements : 0.0) + (ctx.b_aligned ? k.b_staged_elements : 0.0)) *
                ctx.bytes_in / kVectorBytes / r.threads
          : 0.0;
  const double regs_needed =
      k.accumulator_registers + staged_regs + unpipelined_regs + copy_regs + mp.register_overhead_per_thread;
  // The compiler caps registers so that one block fits on a CU; beyond the cap they spill to local
  // memory, stored and reloaded every K-step.
  const double regs_cap = warps.register_cap;
  r.registers_per_thread = std::min(regs_cap, regs_needed);
  // What spills: the excess over the cap, and at least, when the accumulators themselves do not fit
  // beside the kernel's other registers, the whole accumulator tile, out and back every K-step (the
  // matrix instructions write it where it cannot stay). The excess counts the staged operand
  // elements too: a large unaligned tile stages more than the accumulator (128x256x256 with 4
  // warps: 2304 staged registers a thread beside 256 accumulators; it ran 35x slower than the
  // shape's best, data/measurements/h200-tutorial-b.csv).
  const double spilled = std::max(
      regs_needed - regs_cap, accumulators_fit(mp, k.accumulator_registers, regs_cap) ? 0.0 : k.accumulator_registers);
  r.spilled_registers = spilled;
  // Staged elements that do not fit the registers are not loaded together: the compiler issues them
  // one after another, each waiting for the one before (measured on our H200, the masked kernel on
  // 1000x1000x1000 NT, both operands unaligned, h200-triton-bf16.csv: 128x128x64 with 8 warps, 64
  // elements a thread at 255 registers, 9.4 us a K-step; 128x64x128 with 8 warps, 96 elements and
  // spills, 14.9 us; 128x64x64 with 4 warps, 96, 15.1 us: 0.147-0.157 us an element, the idle L2
  // latency; 128x64x64 with 8 warps, 48 elements in 221 registers, 1.9 us).
  r.serialized_loads = staged_per_thread > 0 && regs_needed > regs_cap ? staged_per_thread : 0.0;
  // Nothing spilled (the usual case) moves +0 bytes at any positive spill_bandwidth_fraction: no
  // division then (spilled is +0 there: std::max's 0.0, or accumulators, which are positive).
  r.spill_bytes_per_step = spilled == 0 && ctx.spill_fraction_positive
                               ? 0.0
                               : spilled * r.threads * kFp32Bytes * kSpillTransfersPerStep / mp.spill_bandwidth_fraction;
  return r;
}

__attribute__((always_inline)) inline double occupancy(const EstimateContext& ctx, const KernelShape& k, const EstimateContext::WarpTerms& warps,
                        const Residency& r) {
  const Hardware& hw = *ctx.hw;
  return std::min({static_cast<double>(hw.max_blocks_per_cu),
                   // Each resident block also holds the driver's reserve (1 KB on NVIDIA since sm_80).
                   floor_pos(static_cast<double>(hw.smem_per_cu_bytes) /
                             std::max(1.0, static_cast<double>(k.smem_bytes + hw.smem_reserved_per_block_bytes))),
                   warps.warp_occupancy,
                   floor_pos(static_cast<double>(hw.registers_per_cu) / (r.registers_per_thread * r.threads)),
                   k.tensor_memory_blocks});  // Blackwell: the accumulators sharing the tensor memory
}

// Stage 2: per-config quantities every wave uses.
struct TileGeometry {
  double tiles_per_batch, output_tiles;
  double tile_step_bytes;   // operand bytes one tile loads per K-step
  double tile_step_load_s;  // the CU's time to issue those loads at its fill rate
  double tile_step_async_s;  // ... of it, the aligned operands' asynchronous copies (async_copy_fill_fraction)
  double tile_step_wide_async_s;  // ... of that, the M- or N-contiguous wide-row operands' (mn_contiguous_fill_gain)
  double busiest_step_bytes;  // operand bytes the fullest tile loads in one of its full K-steps
};

// What loading `elements` of an unaligned operand element by element costs the CU's fill, in bytes of
// whole cache lines: a warp's load covers warp_size elements in runs of min(warp_size, run) contiguous
// ones (`run`: the tile's extent along the operand's contiguous dimension), and a run that starts
// anywhere in a line touches on average 1 + run bytes / line lines, each a line of the L1's
// throughput (about one line a cycle, the profile's fill rate). A 16-element run of bf16 (BLOCK_K 16
// in a K-contiguous operand) costs 10 bytes an element, a 32-element one 6.
__attribute__((always_inline)) inline double elementwise_line_bytes(const EstimateContext& ctx, double elements, double run) {
  const double per_run = std::min(static_cast<double>(ctx.hw->warp_size), run);
  return elements / per_run * (kLineBytes + per_run * ctx.bytes_in);
}

// What loading `elements` of an unaligned operand costs the CU's fill when the compiler lays a
// warp's lanes across the tile's rows (KernelShape::b_staged_across_rows): every lane reads its own
// line, and the L1 resolves such scattered lines at scattered_line_fraction of a line's fill time each.
__attribute__((always_inline)) inline double scattered_line_bytes(const EstimateContext& ctx, double elements) {
  return elements * (kLineBytes * ctx.params.scattered_line_fraction + ctx.bytes_in);
}

template <bool kExtraStepWork>
__attribute__((always_inline)) inline TileGeometry tile_geometry(const EstimateContext& ctx, const KernelShape& k, const Residency& r) {
  const Hardware& hw = *ctx.hw;
  TileGeometry g;
  g.tiles_per_batch = k.tiles_m * k.tiles_n;
  g.output_tiles = g.tiles_per_batch * ctx.batch;
  g.tile_step_bytes = (k.a_rows_loaded + k.b_cols_loaded) * k.k_depth * ctx.bytes_in;
  g.busiest_step_bytes = (k.a_rows_busiest + k.b_cols_busiest) * k.k_depth_busiest * ctx.bytes_in;
  const double async_rate = ctx.params.async_copy_fill_fraction;
  // An aligned operand is copied asynchronously in whole cache lines (the target counts them); an
  // unaligned one goes element by element through registers (elementwise_line_bytes, or
  // scattered_line_bytes where the warp's lanes walk its rows).
  // Spilled registers and other register loads (scales) move 4 bytes at a time, like scalar loads.
  // An operand contiguous along M or N whose tile rows span two lines or more copies faster
  // (ModelParams::mn_contiguous_fill_gain), never above the CU's own fill rate.
  const Layout& layout = ctx.layout;
  // Rows are counted in the lines they touch, so that a wider row never copies slower per line
  // (a row of 65 bf16 elements already touches two lines: issue #11's monotonicity): a row spans
  // kWideRowLines lines or more when its bytes exceed kWideRowLines - 1 lines.
  // Where the fitted rate is already the CU's fill rate (the AMD profiles) nothing is faster.
  const double wide_row_above = (kWideRowLines - 1.0) * kLineBytes;
  const double wide_rate = std::min(1.0, async_rate * ctx.params.mn_contiguous_fill_gain);
  const bool gain = wide_rate > async_rate;
  const bool a_wide = gain && layout.a_transposed && k.a_rows_busiest * ctx.bytes_in > wide_row_above;
  const bool b_wide = gain && !layout.b_transposed && k.b_cols_busiest * ctx.bytes_in > wide_row_above;
  const double a_lines = ctx.a_aligned ? k.a_line_bytes : 0.0;
  const double b_lines = ctx.b_aligned ? k.b_line_bytes : 0.0;
  double async_bytes, wide_async_bytes = 0.0;
  if (!a_wide && !b_wide) {  // NT, and tiles of one-line rows: one division, as before the layout term
    async_bytes = (a_lines + b_lines) / async_rate;
  } else {
    const double a_async = a_lines / (a_wide ? wide_rate : async_rate);
    const double b_async = b_lines / (b_wide ? wide_rate : async_rate);
    async_bytes = a_async + b_async;
    wide_async_bytes = (a_wide ? a_async : 0.0) + (b_wide ? b_async : 0.0);
  }
  double load_bytes =
      async_bytes +
      (ctx.a_aligned ? 0.0
                     : elementwise_line_bytes(ctx, k.a_rows_busiest * k.k_depth_busiest,
                                              layout.a_transposed ? k.a_rows_busiest : k.k_depth_busiest)) +
      (ctx.b_aligned               ? 0.0
       : k.b_staged_across_rows ? scattered_line_bytes(ctx, k.b_cols_busiest * k.k_depth_busiest)
                                : elementwise_line_bytes(ctx, k.b_cols_busiest * k.k_depth_busiest,
                                                         layout.b_transposed ? k.k_depth_busiest : k.b_cols_busiest)) +
      r.spill_bytes_per_step / std::min(1.0, kScalarBytes / kVectorBytes);
  if constexpr (kExtraStepWork) {
    g.tile_step_bytes += k.extra_step_bytes;
    g.busiest_step_bytes += k.extra_step_bytes;
    load_bytes += k.extra_step_bytes / std::min(1.0, kScalarBytes / kVectorBytes);
  }
  g.tile_step_load_s = load_bytes / hw.per_cu_load_bytes_per_s;
  g.tile_step_async_s = async_bytes / hw.per_cu_load_bytes_per_s;
  g.tile_step_wide_async_s = wide_async_bytes / hw.per_cu_load_bytes_per_s;
  return g;
}

// Distinct operand rows (in tiles) and columns touched by `tiles` consecutive thread blocks of a
// grouped raster (group_m rows, walking down a group's rows before moving a column).
__attribute__((always_inline)) inline void raster_footprint(double tiles, const KernelShape& k, double* rows, double* cols) {
  const double group = std::min(k.group_m, k.tiles_m);
  if (tiles <= group * k.tiles_n) {
    *rows = std::min(group, tiles);
    *cols = ceil_div(tiles, group);
  } else {
    *rows = std::min(k.tiles_m, ceil_div(tiles, k.tiles_n));
    *cols = k.tiles_n;
  }
}

// Distinct operand elements, per unit of K-depth, that the first `tiles` thread blocks of one grouped
// raster over every batch's tile rows touch, where the batches' rows follow one another in that
// raster (a fused-MoE layer: expert e's tiles_m padded block rows after expert e-1's, each expert
// with its own B). A's rows: every block row touched; B: the (batch, column) pairs touched, an
// expert's columns counted once however many of its rows a group covers. The first rows are taken
// from a batch's first (a wave's tiles start there at the launch). Per AMD XCD (x > 1) the strided
// subset is taken as compact, as the launch-ordered footprint does (wave_terms). Counting each batch
// reached as if the wave had covered it whole, as the launch-ordered case does, charged a wave
// spilling 3 tiles into a second expert that expert's whole footprint: a 10% larger layer came out
// 18% faster (tests/invariants_test.cpp).
__attribute__((always_inline)) inline double interleaved_footprint(double tiles, const KernelShape& k, double batches, double x, double* per_xcd) {
  const double rows_total = k.tiles_m * batches;
  const double group = std::min(k.group_m, rows_total);
  const double group_tiles = group * k.tiles_n;
  const double full_rows = tiles < group_tiles ? 0.0 : std::min(rows_total, floor_pos(tiles / group_tiles) * group);
  // The group under way: `rest` tiles, whole columns of its rows and a part column of its first rows.
  const double rest = std::max(0.0, tiles - full_rows * k.tiles_n);
  const double rest_rows = std::min(group, rest);
  const double whole_cols = rest < group ? 0.0 : floor_pos(rest / group);
  const double part_rows = rest - whole_cols * group;
  const double rows = std::min(rows_total, full_rows + rest_rows);
  // The batches the first r rows reach; those of the group under way not already reached by the
  // whole groups before it (whose batches have all their columns counted). tiles_m is an expert's
  // expected rows: each expert holds n = floor(tiles_m) or n + 1 block rows (uniform routing splits
  // the rows so; the tuner's and zipf's expectations spread about it), n + 1 with probability f =
  // tiles_m - n; the first r rows reach ceil(r / n) experts where they hold n, ceil(r / (n + 1))
  // where n + 1, weighted so. ceil(r / tiles_m) alone jumped where tiles_m crossed a whole number:
  // 1.998 block rows an expert had 2 rows reach 2 experts, 2.001 one, and a wave's weights read
  // twice or once (Llama-4-like up GEMM, tuner routing: 1811 us at 387 tokens, 1232 us at 388; a
  // fresh expert's find, 2026-12-05). Exact at a whole tiles_m, as before.
  const double rows_low = floor_pos(k.tiles_m), rows_high_share = k.tiles_m - rows_low;
  auto reached = [&](double r) {
    if (r <= 0) return 0.0;
    const double at_low = ceil_pos(r / std::max(1.0, rows_low));
    const double expected =
        rows_high_share > 0 ? (1 - rows_high_share) * at_low + rows_high_share * ceil_pos(r / (rows_low + 1)) : at_low;
    return std::min(batches, expected);
  };
  const double full_batches = reached(full_rows);
  const double pairs = full_batches * k.tiles_n + (reached(rows) - full_batches) * whole_cols +
                       (part_rows > 0 ? reached(std::min(rows_total, full_rows + part_rows)) - full_batches : 0.0);
  if (x > 1) {
    const double rows_x = std::max(1.0, ceil_div(rows, x));
    const double pairs_x = std::min(pairs, ceil_div(ceil_div(tiles, x), rows_x) * reached(rows_x));
    *per_xcd = rows_x * k.a_rows_unique + pairs_x * k.b_cols_unique;
  }
  return rows * k.a_rows_unique + pairs * k.b_cols_unique;
}

// The warps' per-step bookkeeping (barriers, waits, address arithmetic) of a CU running `per_cu`
// thread blocks: CTAs sharing a CU each pay their own, less the share the others' warps hide
// (coresident_overhead_overlap). For one block it is EstimateContext::k_step_overhead_s.
__attribute__((always_inline)) inline double step_overhead_s(const ModelParams& mp, const Hardware& hw, double per_cu) {
  return (1.0 + (1.0 - mp.coresident_overhead_overlap) * (per_cu - 1.0)) * mp.k_step_overhead_cycles / hw.clock_hz;
}

// Member initialisers, not `WaveTerms w{}`: the zeroing of the fields set anyway is then optimised
// out instead of clearing the whole record first.
struct WaveTerms {
  double time_s = 0, prefetch_s = 0, compute_step_s = 0, memory_step_s = 0, l2_step_s = 0, llc_step_s = 0,
         dram_step_s = 0, cu_load_step_s = 0, levels_step_s = 0, latency_step_s = 0, step_overhead_s = 0, vector_step_s = 0, store_s = 0,
         drain_step_s = 0, lone_warpgroup_step_s = 0,
         l2_hit_rate = 0, llc_hit_rate = 0, dram_bytes = 0, utilization = 0;
  Bound bound = Bound::compute;
};

// What every wave of one config shares besides the shape and the geometry (per-config constants).
struct WaveInputs {
  double k_steps;          // K-steps per thread block
  double overlap;          // share of the step overhead hidden under matrix work
  double in_flight_steps;  // loads in flight ahead of the math
  double block_utilization;  // the matrix units one block's warps can feed, 0..1
  double block_compute_s;  // one block's matrix work of a K-step at that utilization
  double serialized_load_s;  // a K-step's loads one after another (Residency::serialized_loads), s
  double latency_multiplier;  // loaded over idle latency: loaded_ or unpipelined_latency_multiplier
  double compulsory_share;  // the wave's share of the compulsory operand bytes of one K-step (A and B read once)
  double out_tile_bytes;   // bytes of one thread block's output, on average
  double out_busiest_bytes;  // ... of the fullest one
  double store_bytes_per_s;  // the DRAM rate of the output write (EstimateContext::out_store_bytes_per_s)
  double lone_warpgroup_step_s;  // added to each K-step: a lone warpgroup's wait (0 where none)
};

// Stage 3: one wave of `tiles` thread blocks: the per-K-step compute and memory times of the busiest
// CU, the prefetch and the store. `tail`: the partial last wave of a launch of several. Inlined
// (called twice, GCC would not): the lean path then computes only the terms that reach time_s, and
// neither call spills the terms to memory.
template <bool kExtraStepWork>
__attribute__((always_inline)) inline WaveTerms wave_terms(const EstimateContext& ctx, const KernelShape& k,
                                                           const TileGeometry& g, const WaveInputs& in, double tiles,
                                                           bool tail = false) {
  const Hardware& hw = *ctx.hw;
  const ModelParams& mp = ctx.params;
  WaveTerms w;
  const double active_cus = std::min(tiles, static_cast<double>(hw.cu_count));
  const double per_cu = ceil_div(tiles, hw.cu_count);  // tiles the busiest CU runs at once
  // Compute: the busiest CU advances each of its tiles one K-step.
  w.utilization = min_1_ratio(k.num_warps * per_cu, hw.warps_to_feed_matrix_units);
  // Where the CU's warps feed the matrix units as one block's do (one block per CU, or enough warps
  // in one), the quotient is in.block_compute_s's, already computed.
  const double tile_compute_s = w.utilization == in.block_utilization
                                    ? in.block_compute_s
                                    : k.matrix_flops / (ctx.cu_flops_per_s * w.utilization);
  const double block_compute_s = in.block_compute_s;
  // The warps' per-step bookkeeping partly hides under asynchronous matrix work
  // (k_step_overhead_overlap, model_params.hpp); CTAs sharing a CU each pay their own (step_overhead_s).
  w.step_overhead_s = per_cu == 1.0 ? ctx.k_step_overhead_s : step_overhead_s(mp, hw, per_cu);
  const double math_s = per_cu * tile_compute_s;
  w.compute_step_s = std::max(math_s, w.step_overhead_s) + (1.0 - in.overlap) * std::min(math_s, w.step_overhead_s);
  double work_s = math_s;  // what the bound compares with the overhead (issue-bound when less)
  if constexpr (kExtraStepWork) {
    // Per-step vector math (applying scales) on the CU's FP32 lanes. When it consumes the step's
    // matrix product, each thread block runs a chain, the product completing before it is scaled:
    // matrix work, vector work and overhead add up within a block. Blocks sharing a CU run their
    // chains independently, so one's scaling overlaps another's matrix work: the CU's step takes
    // the longest of its matrix units' total, its FP32 lanes' total, and one block's chain.
    const double tile_vector_s = k.vector_ops / (static_cast<double>(hw.vector_fp32_lanes_per_cu) * hw.clock_hz);
    w.vector_step_s = per_cu * tile_vector_s;
    const double chain_s = block_compute_s + tile_vector_s + ctx.k_step_overhead_s;
    if (k.matrix_result_per_step) {
      w.compute_step_s = std::max({math_s, w.vector_step_s, chain_s});
      // The overhead that counts is one block's, inside its chain (explain shows that one).
      w.step_overhead_s = ctx.k_step_overhead_s;
      work_s = chain_s >= std::max(math_s, w.vector_step_s) ? block_compute_s + tile_vector_s
                                                            : std::max(math_s, w.vector_step_s);
    } else {
      w.compute_step_s += w.vector_step_s;
    }
  }
  // Memory: which distinct operand bytes the wave's tiles touch per K-step. Blocks launch panel by
  // panel (a panel: one batch's tiles in one K split; another panel reads another batch or K range,
  // so its bytes are its own), so a wave runs whole panels and part of one more, and their
  // footprints add. Counting a partly run panel as whole made a wave of fewer tiles touch more
  // bytes, and a larger problem step faster (issue #11's invariant, tests/invariants_test.cpp).
  // Where one raster runs over every batch's rows (a fused-MoE layer's experts) a panel is a whole
  // split, its footprint interleaved_footprint's.
  const double panel_tiles = k.batches_in_launch_order ? g.tiles_per_batch : g.output_tiles;
  // One panel or less (the common case) needs no division.
  const double full_panels = tiles < panel_tiles    ? 0.0
                             : tiles == panel_tiles ? 1.0
                                                    : floor_pos(tiles / panel_tiles);
  const double rest = full_panels == 0.0 ? tiles : tiles - full_panels * panel_tiles;
  const double x = hw.xcd_count > 1 && tiles > 1 ? std::min<double>(hw.xcd_count, tiles) : 1.0;
  // Elements per unit of K-depth that the first `t` tiles of a panel touch, for the whole GPU and, on
  // AMD, per XCD (each XCD's L2 receives every x-th block: a strided subset's footprint).
  auto footprint = [&](double t, double* per_xcd) __attribute__((always_inline)) {
    if (!k.batches_in_launch_order) return interleaved_footprint(t, k, ctx.batch, x, per_xcd);
    const double batches = ceil_div(t, g.tiles_per_batch);
    const double per_batch = std::min(t, g.tiles_per_batch);
    double rows, cols;
    raster_footprint(per_batch, k, &rows, &cols);
    if (x > 1) {
      const double rows_x = std::max(1.0, ceil_div(rows, x));
      const double cols_x = std::min(cols, ceil_div(ceil_div(per_batch, x), rows_x));
      *per_xcd = batches * (rows_x * k.a_rows_unique + cols_x * k.b_cols_unique);
    }
    return batches * (rows * k.a_rows_unique + cols * k.b_cols_unique);
  };
  double full_x = 0, rest_x = 0;
  const double full_elems = full_panels > 0 ? footprint(panel_tiles, &full_x) : 0.0;
  const double rest_elems = rest > 0 ? footprint(rest, &rest_x) : 0.0;
  const double requested = tiles * g.tile_step_bytes;
  const double depth_bytes = k.k_depth * ctx.bytes_in;
  const double unique = std::min(requested, (full_panels * full_elems + rest_elems) * depth_bytes);
  // AMD: each XCD has its own L2 and receives every xcd_count-th block, so per L2 the footprint
  // is that of a strided subset; the shared LLC (MALL) then sees the union.
  double l2_miss = unique;
  if (x > 1) l2_miss = std::max(unique, std::min(requested, x * (full_panels * full_x + rest_x) * depth_bytes));
  // DRAM: the distinct bytes not kept in L2 (and the LLC) from earlier waves, and never less than
  // the wave's share of the compulsory bytes (every operand byte comes from DRAM once: the sum over
  // the waves is at least A and B, also when a partial last wave touches fewer panels).
  const double reuse = ctx.operand_reuse;
  const double share = in.compulsory_share;
  const double dram_step_bytes = std::max(share, (1.0 - reuse) * unique + reuse * std::min(unique, share));
  w.l2_hit_rate = 1.0 - l2_miss / requested;
  // Likewise a CU draws about its share of the L2 bandwidth (times the same headroom), and never
  // more than its own fill rate.
  const double l2_bw = std::min({hw.l2_bandwidth_bytes_per_s, active_cus * hw.per_cu_load_bytes_per_s,
                                 ctx.l2_headroom_bytes_per_s * active_cus / hw.cu_count});
  w.l2_step_s = requested / l2_bw;
  // Loads are issued by the resident warps, one scheduler per warp's sub-partition: too few warps
  // leave part of the CU's load issue idle, as they do its matrix units.
  double step_load_s = g.tile_step_load_s;
  if (tail && g.tile_step_async_s > 0 && mp.tail_wave_fill_relief > 0) {
    // The partial last wave of a launch of several: its few active CUs share the L2 bandwidth that
    // all of them shared in the waves before, so each copies faster than the fitted fill fraction
    // (async_copy_fill_fraction, about a CU's share of the L2 under a full wave: 0.3 x 120 B/cycle
    // against 8.9e12 / 132 / 1.98e9 = 34 B/cycle on the H200), up to its share of the L2 bandwidth,
    // and never above the CU's own fill rate. Measured (h200-tutorial-f.csv): 1024x4544x18176 runs
    // 128x128 tiles in 3 waves, the last of 24 blocks, in 355 us, 2.5 full waves' time at the fitted
    // fill, not 3. Applied to single-wave launches as well it cost the triton data 0.5 points of
    // oracle (its fill fraction was fitted on them); on the last wave alone, 0.1. How much of the
    // headroom a target's copies take: ModelParams::tail_wave_fill_relief.
    const double l2_share = hw.l2_bandwidth_bytes_per_s / (active_cus * hw.per_cu_load_bytes_per_s);
    const double fitted = mp.async_copy_fill_fraction;
    const double fill = fitted + mp.tail_wave_fill_relief * (std::max(fitted, std::min(1.0, l2_share)) - fitted);
    if (g.tile_step_wide_async_s == 0) {
      step_load_s -= g.tile_step_async_s * (1.0 - fitted / fill);
    } else {
      // A wide-row operand (mn_contiguous_fill_gain) speeds up in the same proportion, up to the
      // CU's own fill rate.
      const double wide = std::min(1.0, fitted * mp.mn_contiguous_fill_gain);
      const double relieved_s = (g.tile_step_async_s - g.tile_step_wide_async_s) * (fitted / fill) +
                                g.tile_step_wide_async_s * (wide / std::min(1.0, wide * fill / fitted));
      step_load_s -= g.tile_step_async_s - relieved_s;
    }
  }
  w.cu_load_step_s = w.utilization == 1.0 ? per_cu * step_load_s : per_cu * step_load_s / w.utilization;
  if (hw.llc_bytes > 0) {
    w.llc_step_s = l2_miss / hw.llc_bandwidth_bytes_per_s;
    w.llc_hit_rate = l2_miss > 0 ? std::max(0.0, 1.0 - dram_step_bytes / l2_miss) : 0.0;
  }
  // Few active CUs cannot keep enough misses in flight to saturate DRAM: each sustains about its
  // share of the bandwidth times a fitted headroom. A CU in a step with DRAM traffic waits, at
  // that rate, for the bytes of its fullest tiles: also for those another CU's miss fetches (a
  // merged miss holds the waiting CU's request slot as long as the first). Its share of the
  // wave's distinct bytes, as the first round had it, undercounts that, and made more CUs sharing
  // a panel step faster (issue #11: a fixed config must never predict a larger problem faster).
  const double dram_bw = ctx.dram_bytes_per_s;
  const double busiest_wait_bytes = dram_step_bytes > 0 ? per_cu * g.busiest_step_bytes : 0.0;
  w.dram_step_s = std::max(dram_step_bytes / dram_bw, busiest_wait_bytes / ctx.dram_cu_bytes_per_s);
  w.dram_bytes = dram_step_bytes * in.k_steps;
  // A K-step's loads are done when the slowest is: the step waits the latency of the farthest level
  // any of its bytes come from (the first touch of each new K-slice goes to DRAM, the wave's other
  // requests for it wait on that one), not a hit-rate-weighted average. An LLC hit (AMD MALL) is
  // taken halfway between an L2 hit and DRAM (an assumption: no MALL latency is published).
  const double wait_latency_s = dram_step_bytes > 0 ? hw.dram_latency_s
                                : l2_miss > 0      ? (hw.l2_latency_s + hw.dram_latency_s) / 2
                                                   : hw.l2_latency_s;
  double latency_s = wait_latency_s * in.latency_multiplier;
  const double slowest_level_s = std::max({w.l2_step_s, w.llc_step_s, w.dram_step_s, w.cu_load_step_s});
  const double bandwidth_s =
      slowest_level_s + (1.0 - mp.memory_level_overlap) *
                            (w.l2_step_s + w.llc_step_s + w.dram_step_s + w.cu_load_step_s - slowest_level_s);
  w.levels_step_s = bandwidth_s;
  // One block's pipelined load waits the latency and its transfer: behind the other co-resident
  // blocks' bytes too, less the share coresident_load_overlap says it does not queue behind
  // (model_params.hpp: a CU of per_cu blocks is a closed queue; 0 keeps the whole step's transfer).
  const double block_transfer_s =
      per_cu > 1.0 && mp.coresident_load_overlap > 0
          ? bandwidth_s * (1.0 - mp.coresident_load_overlap * (1.0 - 1.0 / per_cu))
          : bandwidth_s;
  if (mp.idle_latency_fraction < 1.0 && in.in_flight_steps >= 1) {
    // A queue's wait grows with its traffic (ModelParams::idle_latency_fraction): the load is the
    // busiest level's share of the step as the full multiplier times it.
    const double full_step_s = std::max({w.compute_step_s, bandwidth_s, (latency_s + block_transfer_s) / in.in_flight_steps});
    const double load = full_step_s > 0 ? bandwidth_s / full_step_s : 1.0;
    latency_s *= mp.idle_latency_fraction + (1.0 - mp.idle_latency_fraction) * load;
  }
  // Latency (Little's law): one K-step's loads take the loaded latency plus their transfer at the
  // CU's share of bandwidth; with s operand buffers, s-1 such loads are in flight ahead of the
  // math, so a step can go no faster than a load over s-1. With one buffer each step waits for
  // its own loads, then computes.
  // Loads issued one after another (register-bound staging of an operand left out of the pipeline):
  // each waits its own round trip.
  const double load_s = latency_s + bandwidth_s;
  w.latency_step_s = in.in_flight_steps >= 1 ? (latency_s + block_transfer_s) / in.in_flight_steps
                                             : std::max(load_s, in.serialized_load_s) + block_compute_s;
  w.memory_step_s = std::max(bandwidth_s, w.latency_step_s);
  w.bound = w.compute_step_s < w.memory_step_s ? Bound::memory
            : work_s >= w.step_overhead_s      ? Bound::compute
                                               : Bound::issue;
  // Serialized matrix instructions (KernelShape::serialized_matrix_instructions): the warps stall
  // on each, and issue the next stage's loads only after the last, so their dead time adds to the
  // step whichever side bounds it (measured: model_params.hpp, serialized_matrix_drain_cycles).
  w.drain_step_s = k.serialized_matrix_instructions * ctx.matrix_drain_s;
  w.lone_warpgroup_step_s = in.lone_warpgroup_step_s;
  const double added_step_s = w.drain_step_s + w.lone_warpgroup_step_s;
  const double step_s = std::max(w.compute_step_s, w.memory_step_s) + added_step_s;
  // Prefetch: the first K-step's loads, latency plus transfer. Each later step waits for the next
  // step's operands or its own work, whichever is longer; the last step has no loads left and takes
  // its work alone (charging it a whole step counted one step's transfer twice: 50% too much for
  // a K loop of two steps, the down GEMMs of vllm-fused-moe's block-fp8 layers, h200-fused-moe*.csv).
  // Store: the output tiles.
  // Without loads in flight the first step's loads are staged like every other step's, one after
  // another where the registers are short (a one-step kernel had none of that cost before).
  w.prefetch_s = in.in_flight_steps >= 1 ? load_s : std::max(load_s, in.serialized_load_s);
  w.store_s = hw.l2_latency_s + std::max(tiles * in.out_tile_bytes / in.store_bytes_per_s,
                                         per_cu * in.out_busiest_bytes / hw.per_cu_load_bytes_per_s);
  w.time_s = w.prefetch_s + (in.k_steps - 1) * step_s + w.compute_step_s + added_step_s + w.store_s;
  return w;
}

// One block's whole life alone on a CU (a wave of one block a CU) of config c, for the staggered
// waves (ModelParams::staggered_wave_fraction): estimate_terms's own stages again, up to that wave.
// Out of line and cold, given only the context and the config: a rare case kept off the estimate's
// hot path (inlined, or given the kernel's shape and terms, it cost every estimate 18-35%: they then
// live in memory). Defined after estimate_terms.
template <class Rules, bool kAligned>
[[gnu::noinline, gnu::cold]] double lone_block_wave_s(const EstimateContext& ctx, const TileConfig& c);

// A later wave, staggered: the larger of its throughput and a lone block's life, at most its
// lock-step time, `fraction` of the way (ModelParams::staggered_wave_fraction).
inline double staggered_wave_s(double lock_step_s, double throughput_s, double lone_s, double fraction) {
  return lock_step_s - fraction * std::max(0.0, lock_step_s - std::max(throughput_s, lone_s));
}

// What a wave's blocks take of the CU and the memory system however their phases interleave: the
// longer of its K-steps on the CU (each step's compute or transfer, whichever bounds it) and the
// DRAM's share (its output written at the store rate, after its loads' misses). Staggered blocks
// compute and load while others' stores drain: the two overlap (as their sum, the later waves of
// 64x128 tiles on 4096x14336x32 were predicted 62 us, measured 45; h100-onestep-check2.csv, held out:
// 89.2% -> 90.1% of oracle, median top-1 time error 13.8% -> 4.9%).
inline double wave_throughput_s(const WaveTerms& w, double k_steps, const Hardware& hw, double dram_bytes_per_s) {
  const double steps_s = k_steps * (std::max(w.compute_step_s, w.levels_step_s) + w.drain_step_s + w.lone_warpgroup_step_s);
  const double dram_s = (w.store_s - hw.l2_latency_s) + w.dram_bytes / dram_bytes_per_s;
  return std::max(steps_s, dram_s);
}

// The model for one config of target Rules, into *result: with kRecord, every term also goes into
// *record (the Estimate a report shows); without, only what ranking compares is computed (the
// ranker's lean path). The result is written in place, field by field: returning the 24-byte
// record by value made the caller's copy reload it with one wide load over three narrow stores, a
// store-forwarding stall per config that cost 8% of the ranker's time (perf, bench/model_bench.cpp).
// kAligned: the caller has checked ctx.a_aligned && ctx.b_aligned (passed on to Rules::map).
// kLoneWave: lone_block_wave_s's pass, which stops at the lone wave's time (in result->latency_s).
template <class Rules, bool kRecord, bool kAligned, bool kLoneWave = false>
void estimate_terms(const EstimateContext& ctx, const TileConfig& c, LatencyEstimate* result, Estimate* record) {
  LatencyEstimate& out = *result;
  out.feasible = false;
  out.arithmetic_intensity = 0;
  out.latency_s = std::numeric_limits<double>::infinity();
  if constexpr (kRecord) record->latency_s = out.latency_s;
  if (!ctx.rate) return;
  const Hardware& hw = *ctx.hw;
  const ModelParams& mp = ctx.params;

  KernelShape k;
  const bool feasible = Rules::template map<kAligned>(ctx, c, k);
  EstimateContext::WarpTerms scratch;
  const EstimateContext::WarpTerms& warps = warp_terms(ctx, k.num_warps, &scratch);
  const Residency r = residency(ctx, k, warps);
  if constexpr (kRecord) {
    record->a_aligned = ctx.a_aligned;
    record->b_aligned = ctx.b_aligned;
    record->smem_bytes = k.smem_bytes;
    record->registers_per_thread = r.registers_per_thread;
    record->spilled_registers_per_thread = r.spilled_registers;
    record->tensor_memory_bytes = k.tensor_memory_bytes;
    record->accumulator_in_tensor_memory = k.tensor_memory_bytes > 0 && k.accumulator_registers == 0;
  }
  if (!feasible) return;
  const double occ = occupancy(ctx, k, warps, r);
  if (occ < 1) return;

  const TileGeometry g = tile_geometry<Rules::kExtraStepWork>(ctx, k, r);
  const double bm = k.block_m, bn = k.block_n, bk = k.block_k;
  // Without a K split (the usual case) the quotient is k_blocks itself: no division.
  const double k_steps = k.split_k == 1 ? ceil_div(k.k_blocks, 1.0) : ceil_div(k.k_blocks, k.split_k);
  const double work_tiles = g.output_tiles * k.split_k;
  const double concurrent = hw.cu_count * occ;
  const double waves = ceil_div(work_tiles, concurrent);
  const double arithmetic_intensity = 2.0 * bm * bn * bk / ((bm * bk + bk * bn + bm * bn) * ctx.bytes_in);

  WaveInputs in;
  in.k_steps = k_steps;
  // Only an asynchronous matrix instruction (wgmma) lets the warps do their bookkeeping while it
  // runs; a synchronous one (mma.sync, MFMA) does not.
  in.overlap = k.async_matrix && !(Rules::kExtraStepWork && k.matrix_result_per_step) ? mp.k_step_overhead_overlap : 0.0;
  in.in_flight_steps = k.loads_in_flight;
  // One block's own matrix work, on the matrix units its warps can feed: what a chain within the
  // block waits for (a block of 2 warps on a CU needing 4 runs at half rate however many other
  // blocks share the CU, so more resident blocks never shorten it).
  in.block_utilization = warps.block_utilization;
  in.block_compute_s = k.matrix_flops / (ctx.cu_flops_per_s * in.block_utilization);
  // Register-bound staging: a fraction of an idle L2 round trip per element (the loads are few and
  // far between: serialized_load_latency_fraction); only where no loads are in flight (an operand
  // left out of the pipeline), the one case the compile probe and the H200 measured.
  in.serialized_load_s = r.serialized_loads * ctx.serialized_element_s;
  in.latency_multiplier = in.in_flight_steps >= 1 ? mp.loaded_latency_multiplier : mp.unpipelined_latency_multiplier;
  // The same in every wave: the compulsory operand bytes per thread block and K-step, the bytes of an
  // output tile.
  const double compulsory_tile_step = ctx.operand_bytes / (work_tiles * k_steps);
  in.out_tile_bytes = k.a_rows_unique * k.b_cols_unique * k.out_elem_bytes;
  in.out_busiest_bytes = k.out_rows_busiest * k.out_cols_busiest * k.out_elem_bytes;
  // Rows that are not whole sectors: the DRAM's rate of the sectors the tile's rows touch
  // (store_sector_factor), by block_n from the shape's table.
  {
    const bool fp32_rows = k.out_elem_bytes == kFp32Bytes;
    const auto bn_bits = static_cast<std::uint32_t>(bn);
    const double factor =
        (bn_bits & (bn_bits - 1)) == 0 && bn_bits >= 1 && bn_bits <= 512
            ? (fp32_rows ? ctx.fp32_store_sector_factor : ctx.out_store_sector_factor)[__builtin_ctz(bn_bits)]
            : gemm_advisor::store_sector_factor(ctx, bn, k.out_elem_bytes);  // a block_n off the table
    in.store_bytes_per_s = (fp32_rows ? ctx.fp32_store_bytes_per_s : ctx.out_store_bytes_per_s) / factor;
  }
  // A config whose CU holds one block of one warpgroup issuing wgmma (the asynchronous path with
  // register accumulators; Blackwell's tensor-memory one was not measured): nothing hides that
  // warpgroup's per-step waits (ModelParams::lone_warpgroup_step_cycles, measured on the H200 by
  // the config's occupancy, as here: a property of the config, not of a wave's blocks, so a larger
  // problem whose waves put two blocks on some CUs is not predicted faster for it).
  in.lone_warpgroup_step_s =
      k.async_matrix && k.accumulator_registers > 0 && occ * k.num_warps <= hw.warps_to_feed_matrix_units
          ? ctx.lone_warpgroup_step_s
          : 0.0;
  if constexpr (kLoneWave) {  // lone_block_wave_s: cu_count blocks, one a CU, each its share of the operands
    const double lone_tiles = static_cast<double>(hw.cu_count);
    in.compulsory_share = lone_tiles * compulsory_tile_step;
    out.latency_s = wave_terms<Rules::kExtraStepWork>(ctx, k, g, in, lone_tiles).time_s;
    return;
  }

  const double full_waves = waves - 1;
  double last_tiles =
      work_tiles < kExactSubtractionBelow ? work_tiles - full_waves * concurrent : std::fmod(work_tiles, concurrent);
  if (last_tiles <= 0) last_tiles = concurrent;
  constexpr bool kExtra = Rules::kExtraStepWork;
  const double first_tiles = std::min(work_tiles, concurrent);
  const bool partial_last = full_waves > 0 && last_tiles < concurrent;
  // Each wave's share of the compulsory bytes of a K-step: its tiles' shares, a full tile's each,
  // out of what the waves before it left, and never less than the average tile's (the last wave's
  // tiles read bytes of their own too, and wait for DRAM to do so). A full tile's share is at least
  // any tile's, so the waves' shares add up to at least the compulsory bytes. Charging every tile
  // the average share had a first wave of full tiles draw less DRAM per step when a larger M or N
  // added a thin tile to the launch, and the larger problem step faster (issue #11's invariant,
  // tests/invariants_test.cpp). One wave (the common case) takes all of them.
  in.compulsory_share = first_tiles * compulsory_tile_step;
  double last_share = in.compulsory_share;
  double last_out_tile_bytes = in.out_tile_bytes;
  if (full_waves > 0) {
    // A tile's share of A's bytes scales with its real rows, of B's with its real columns (those
    // it stores: a wrapped-offset kernel's loads past the edge re-read rows another tile owns),
    // each part at most the average part times the fullest tile's extent over the average extent.
    // The average tile's parts: its rows over the tiles sharing them (tiles_n), its columns over
    // tiles_m (both scaled by tiles_m x tiles_n here). Where one raster runs over every expert's
    // rows (fused MoE), an expert's weights are shared by that expert's row tiles only, which that
    // count does not know: the average stands.
    const double average_parts = k.a_rows_unique * k.tiles_m + k.b_cols_unique * k.tiles_n;
    const double fullest_parts = k.out_rows_busiest * k.tiles_m + k.out_cols_busiest * k.tiles_n;
    if (k.batches_in_launch_order && fullest_parts > average_parts) {
      const double all_bytes = compulsory_tile_step * work_tiles;
      const double full_tile_step = compulsory_tile_step * (fullest_parts / average_parts);
      in.compulsory_share = std::min(first_tiles * full_tile_step, all_bytes);
      last_share = std::max(last_tiles * compulsory_tile_step,
                            std::min(last_tiles * full_tile_step, all_bytes - full_waves * in.compulsory_share));
    } else {
      last_share = last_tiles * compulsory_tile_step;
    }
    // Likewise each wave's output: a full wave writes its tiles' bytes, a full tile's each, out of
    // the whole output, and the last wave what the others left, never less than its tiles at the
    // average. Every wave at the average tile had a larger N that added a thin column of tiles write
    // less a wave (the average shrinks, the wave's tile count stays), and, with staggered waves,
    // whose throughput is their write, predict a larger problem faster (9479x6891x6 fp32 NT on the
    // A100, 64x256x16:2:1: 194 us, 6923 columns 189 us; tests/invariants_test.cpp).
    if (k.batches_in_launch_order && in.out_busiest_bytes > in.out_tile_bytes) {
      const double average_out = in.out_tile_bytes;
      const double all_out = average_out * work_tiles;
      in.out_tile_bytes = std::min(in.out_busiest_bytes, all_out / first_tiles);
      last_out_tile_bytes =
          std::max(average_out, (all_out - full_waves * first_tiles * in.out_tile_bytes) / last_tiles);
    }
  }
  // Staggered waves (ModelParams::staggered_wave_fraction): after the first wave a CU's blocks of a
  // one-K-step tile start as slots free up, so one's load latency hides under another's work. Such a
  // wave takes no less than the larger of its throughput and one block's whole life alone on a CU (a
  // wave of one block a CU: its time is that life), and no more than in lock step. Only a full first
  // wave of two or more blocks a CU (then the lone wave's cu_count tiles are fewer than its), of a
  // tile whose loads are in flight or whose operands cannot be (an operand not 16-byte aligned: its
  // elements go through registers, as every load of a one-step tile must wait anyway). Not an
  // aligned tile that opts out of the pipeline (num_stages 1): staggered too, it picked 128x128x128
  // with 4 warps at one stage for 1024x1024x128 x32 NN (predicted 41 us, measured 60: its staging
  // registers), 94.2% -> 70.1% of oracle (h200-triton-more.csv; 2026-12-06).
  const bool staggered =
      __builtin_expect(mp.staggered_wave_fraction > 0 && full_waves > 0 && occ >= 2 && k_steps == 1 &&
                           (in.in_flight_steps >= 1 || (!kAligned && !operands_aligned(ctx))),
                       0);
  const double lone_s = staggered ? lone_block_wave_s<Rules, kAligned>(ctx, c) : 0.0;
  const WaveTerms first = wave_terms<kExtra>(ctx, k, g, in, first_tiles);
  in.compulsory_share = last_share;
  in.out_tile_bytes = last_out_tile_bytes;
  const WaveTerms last = partial_last ? wave_terms<kExtra>(ctx, k, g, in, last_tiles, true) : first;
  // A fused-MoE launch's tiles are an expectation over the routing (vllm_fused_moe.cpp), not a
  // whole number: a last wave of less than one block is a block that runs with that probability,
  // charged so (a whole wave for 0.0005 of a block made one token more predict 42% faster: a fresh
  // expert's find, 2026-12-04). Dense launches have whole tiles, so their last wave holds one or more.
  const double last_weight = partial_last && last_tiles < 1.0 ? last_tiles : 1.0;
  double total_s = mp.launch_overhead_s + (full_waves > 0 ? full_waves * first.time_s : 0.0) + last_weight * last.time_s;
  // The waves after the first, staggered (`staggered` above says when).
  double later_s = first.time_s, last_s = last.time_s, throughput_s = 0;
  if (staggered) {
    throughput_s = wave_throughput_s(first, k_steps, hw, ctx.dram_bytes_per_s);
    later_s = staggered_wave_s(first.time_s, throughput_s, lone_s, mp.staggered_wave_fraction);
    last_s = partial_last ? staggered_wave_s(last.time_s, wave_throughput_s(last, k_steps, hw, ctx.dram_bytes_per_s),
                                             lone_s, mp.staggered_wave_fraction)
                          : later_s;
    total_s = mp.launch_overhead_s + first.time_s + (full_waves - 1) * later_s + last_weight * last_s;
  }
  if constexpr (kRecord) record->dram_bytes = full_waves * first.dram_bytes + last_weight * last.dram_bytes;
  const double m = ctx.m, n = ctx.n, batch = ctx.batch;
  double split_k_reduce_s = 0;
  if (k.split_k > 1) {
    // Second kernel: read split_k fp32 partials, write the output once. Its loop over the splits
    // has a run-time trip count, so each iteration waits for its L2 hit (the partials were just
    // written and sit in L2: split_k_reduce_latency_multiplier idle L2 latencies, measured),
    // unless the bytes themselves take longer. Its output write
    // is the launch's output as the main kernel's would be: rows that are not whole 32-byte sectors
    // are written at the misaligned rate (out_store_bytes_per_s). The partials are only read here
    // (whole sectors are fetched, the bytes counted); their write, in the main kernel, takes the
    // fp32 rows' own rate there (fp32_store_bytes_per_s). (The output's bytes are scaled to DRAM-rate
    // bytes: aligned rows then give exactly the sum at the DRAM rate, bit for bit.)
    const double partial_bytes = k.split_k * m * n * batch * kFp32Bytes;
    const double out_bytes = m * n * batch * ctx.bytes_out;
    const double reduce_bandwidth_s =
        (partial_bytes + out_bytes * (ctx.dram_bytes_per_s / ctx.out_store_bytes_per_s)) / ctx.dram_bytes_per_s;
    const double reduce_latency_s = k.split_k * hw.l2_latency_s * mp.split_k_reduce_latency_multiplier;
    split_k_reduce_s = mp.split_k_reduce_launch_s + std::max(reduce_bandwidth_s, reduce_latency_s);
    if constexpr (kRecord) {
      record->dram_bytes += partial_bytes * 2 + out_bytes;
      record->split_k_partial_bytes = partial_bytes * 2;
      record->split_k_reduce_bandwidth_s = reduce_bandwidth_s;
      record->split_k_reduce_latency_s = reduce_latency_s;
      record->split_k_reduce_launch_s = mp.split_k_reduce_launch_s;
    }
    total_s += split_k_reduce_s;
  } else if constexpr (kRecord) {
    record->dram_bytes += m * n * batch * ctx.bytes_out;
  }

  out.feasible = true;
  out.latency_s = total_s;
  out.arithmetic_intensity = arithmetic_intensity;
  if constexpr (!kRecord) return;

  Estimate& e = *record;
  e.output_tiles = g.output_tiles;
  e.work_tiles = work_tiles;
  e.k_steps = k_steps;
  e.occupancy = static_cast<int>(occ);
  e.waves = waves;
  e.last_wave_efficiency = work_tiles / (waves * concurrent);
  e.last_wave_blocks = last_tiles;
  e.last_wave_fill = last_tiles / concurrent;
  e.padding_waste = 1.0 - (m * n * ctx.k) / (k.tiles_m * bm * k.tiles_n * bn * k.k_blocks * bk);
  e.arithmetic_intensity = arithmetic_intensity;
  e.split_k_reduce_s = split_k_reduce_s;
  e.launch_s = mp.launch_overhead_s;
  e.first_wave_s = first.time_s;
  e.later_wave_s = later_s;
  e.last_wave_s = last_s;
  e.lone_block_wave_s = lone_s;
  e.wave_throughput_s = throughput_s;
  e.feasible = true;
  e.latency_s = total_s;
  e.flops_per_s = ctx.flops / total_s;
  e.bound = first.bound;
  e.prefetch_s = first.prefetch_s;
  e.compute_step_s = first.compute_step_s;
  e.memory_step_s = first.memory_step_s;
  e.memory_levels_step_s = first.levels_step_s;
  e.l2_step_s = first.l2_step_s;
  e.llc_step_s = first.llc_step_s;
  e.dram_step_s = first.dram_step_s;
  e.dram_step_bytes = in.k_steps > 0 ? first.dram_bytes / in.k_steps : 0.0;
  e.step_overhead_overlap = in.overlap;
  e.cu_load_step_s = first.cu_load_step_s;
  e.latency_step_s = first.latency_step_s;
  e.step_overhead_s = first.step_overhead_s;
  e.vector_step_s = first.vector_step_s;
  e.matrix_drain_step_s = first.drain_step_s;
  e.lone_warpgroup_step_s = first.lone_warpgroup_step_s;
  e.store_s = first.store_s;
  e.l2_hit_rate = first.l2_hit_rate;
  e.llc_hit_rate = first.llc_hit_rate;
  e.matrix_unit_utilization = first.utilization;
}

template <class Rules, bool kAligned>
double lone_block_wave_s(const EstimateContext& ctx, const TileConfig& c) {
  LatencyEstimate lone;
  estimate_terms<Rules, false, kAligned, true>(ctx, c, &lone, nullptr);
  return lone.latency_s;
}

}  // namespace gemm_advisor::core
