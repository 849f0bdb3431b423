#pragma once
/// The model's free parameters: every constant of the latency model that is not physics, and the
/// registry that names them (name, unit, allowed range, meaning), shared by the profile reader
/// (`model_parameters:`), `gemm-advisor calibrate`, and the documentation.
///
/// Each target has its own defaults (Target::default_params): the `triton` target's are the
/// values below, fitted with `gemm-advisor calibrate` on the H200 measurements of that kernel (263
/// shapes of 28 families, data/measurements/h200-triton-*.csv; report: data/fit/h200-triton.txt,
/// README "Accuracy"); other targets start from them and change what their own fit changed (their
/// definitions say which, and on what data). "Measured" values come from a dedicated
/// measurement, not a fit. A profile may override any of them, for every target
/// (`model_parameters:`) or for one (`targets: {NAME: {model_parameters: ...}}`).
#include <cstddef>
#include <string>
#include <string_view>

namespace gemm_advisor {

/// Free parameters of the latency model (estimate(), model.hpp). Units in each name or comment.
struct ModelParams {
  /// Issue and synchronisation cost of one K-step of one tile (barrier, async-copy and
  /// matrix-instruction waits, address arithmetic), in core cycles. Fitted: 566.4 (the first round's
  /// refit; held fixed since 2026-12-02 with k_step_overhead_overlap, as the per-K-step
  /// microbenchmark below pins the pair: refits that moved them ranked alike and took the big-tile
  /// predictions off, 8192^3 on the H200 at 61% of peak against 77% measured).
  double k_step_overhead_cycles = 566.4;
  /// Fraction of that overhead that hides under the matrix work of the same K-step when the matrix
  /// instruction is asynchronous (Hopper's wgmma: the warps go on with their bookkeeping while it
  /// runs): a step costs max(math, overhead) + (1 - overlap) * min(math, overhead). The narrow
  /// synchronous fallback (mma.sync, MFMA) never overlaps. Fitted: 0.85. The per-K-step
  /// microbenchmark (data/measurements/h200-kstep.csv) shows why it is not 0: a 128x256x32 tile
  /// takes 650 cycles per K-step at 512 cycles of matrix work, not 512 + 480 (566.4 and 0.85 give 643).
  double k_step_overhead_overlap = 0.85;
  /// Rate of the asynchronous global->shared copy (cp.async) as a fraction of the CU's measured
  /// register-load fill rate (per_cu_load_bytes_per_cycle); the copy is charged whole 128-byte lines
  /// (a 64-byte tile row costs a line). Measured: 0.35, the H200's cp.async ceiling (the copy probe,
  /// data/measurements/h200-copy-probe.csv: 41.5-42.9 bytes a cycle a SM with all SMs copying, of the
  /// 120 one SM takes through registers), with the profile's L2 bandwidth at the same probe's 11.2
  /// TB/s (2026-12-03). Fitted before, around the 8.9 TB/s of register loads: 0.3 (0.35 before
  /// 2026-12-02); at the measured L2 bandwidth the fit of the block-fp8 kernel lands on 0.35 as well
  /// (data/fit/h200-fp8-block.txt).
  double async_copy_fill_fraction = 0.35;
  /// Fixed cost of one kernel launch as seen by a timed kernel (launch + ramp-up + drain), in s.
  /// Measured: 3.07 us, the median of an empty kernel timed the harness's way
  /// (data/measurements/h200-launch.csv). Fitted values (6 us) ranked as well but doubled the
  /// predicted time of tiny problems (p90 top-1 error 63% against 27% over the 263 triton shapes).
  double launch_overhead_s = 3.07e-6;
  /// Fixed cost of the split-K reduction kernel, launched right behind the GEMM in the same stream:
  /// its launch overlaps the GEMM's run, so only the dependency gap, its ramp-up and its drain
  /// remain, in s. Measured, not fitted (data/measurements/h100-phase-probe.csv, part `split`,
  /// tools/measure/phase_probe.py, 2026-12-06, H100 SXM): over 102 (tile, split 2-64) pairs of the
  /// triton target's split-K decode shapes (1x130x6868 TT, 1x1280x5120 NT, 1x576x7168 NT; 130-1280
  /// outputs, the partials L2-resident), the pair GEMM + reduction takes 3.40 us + 0.245 us a split
  /// more than the GEMM alone (least squares, largest residual 1.2 us); the intercept is this
  /// figure, the slope split_k_reduce_latency_multiplier's. (The H200's one point,
  /// h200-launch.csv: 3.43 us at split 2, against 3.89 from this fit.)
  double split_k_reduce_launch_s = 3.4e-6;
  /// Wait of one iteration of the split-K reduction's loop over the splits (its trip count is a
  /// run-time value, so each iteration's load of the partials waits for its L2 hit), as a multiple of
  /// the profile's idle L2 latency. Measured, not fitted: the slope above, 0.245 us a split = 485
  /// cycles at 1980 MHz, over the H100's idle L2 latency of 288 cycles (profiles/h100.yaml) = 1.68.
  /// Before 2026-12-06 the reduction waited loaded_latency_multiplier (4.25) L2 latencies a split,
  /// 2.5x the measured 0.245 us.
  double split_k_reduce_latency_multiplier = 1.68;
  /// Fraction of the L2 that keeps operand panels between waves (the rest holds the working set of
  /// the wave itself and the output). Fitted: 1.0.
  double l2_reuse_fraction = 1.0;
  /// Matrix-unit efficiency of a tile whose rows fall short of the instruction's M, or of too few
  /// warps to issue it (the kernel falls back to a narrower instruction instead of padding).
  /// 0.3: the first round's fit (0.35 in the refit before 2026-12-02's loads-in-flight count for
  /// mma.sync tiles, triton_family::loads_in_flight). Refitted with that count it rose to 0.65, which
  /// scored 96.1% held out by family against 96.3% with 0.3 left unfitted, and picked mma.sync tiles
  /// of 32 rows on the tutorial kernel's small NT shapes that run 15-20% slower than 64-row wgmma
  /// ones (96.3% -> 95.1% on its first 52 shapes): data/fit/h200-triton.txt.
  double narrow_tile_matrix_efficiency = 0.3;
  /// Load-to-use latency of a GEMM's operand loads while the memory system is busy, as a multiple
  /// of the profile's idle (pointer-chase) L2/DRAM latencies. Fitted: 4.25 (about 0.67 us for an
  /// L2 hit and 1.17 us for a DRAM access on the H200, whose idle figures are 157 ns and 276 ns); 5
  /// before 2026-12-02's loads-in-flight count, which gives mma.sync tiles one more K-step of loads
  /// in flight.
  double loaded_latency_multiplier = 4.25;
  /// The loaded latency of a K-step whose memory levels are idle, as a fraction of
  /// loaded_latency_multiplier's: the multiplier a pipelined step waits is
  /// loaded_latency_multiplier x (f + (1 - f) x load), load = the step's busiest memory level's time
  /// over the step's time at the full multiplier (0..1). A queue's wait grows with the traffic it
  /// serves; 1 (the default) keeps one latency at every load, as the model had before 2026-12-06.
  double idle_latency_fraction = 1.0;
  /// Registers one element of an unaligned operand costs while it is staged through registers:
  /// its value and its own 64-bit address, plus the mask. Measured, not fitted: Triton 3.6's own
  /// register counts of our masked kernel on the H200 (tools/measure/resource_probe.py,
  /// data/measurements/h200-resource-probe.csv: 666 configs of four unaligned signatures; with a
  /// 32-register reserve, "accumulators + 3 per staged element + 32 > the cap" tells the 255-register
  /// or spilling configs from the others in 625 of 666). The first round's fit had 5.6: it stood in
  /// for the cost of register-bound staging, which the model now has (Residency::serialized_loads).
  double staged_registers_per_element = 3.0;
  /// L2 and DRAM bandwidth a CU can draw, as a multiple of its even share (bandwidth / cu_count):
  /// few active CUs cannot keep enough misses in flight to saturate either. Fitted: 16 (the
  /// block-fp8 kernel's data: 95.8% of oracle against 93.9% at 4; on the triton data 1-16 score
  /// within 0.1 point, and a low headroom slows full waves on GPUs whose DRAM is slow for their
  /// L2, the H100: 0.54x of XLA's cuBLAS figures at 2, see crossvendor_test.cpp).
  double dram_active_cu_headroom = 16.0;
  /// Registers per thread a Triton kernel uses besides accumulators and staged operands
  /// (addresses, loop counters, masks). Assumed, not measured; it only matters near the limits.
  double register_overhead_per_thread = 32.0;
  /// Registers per thread for each 16-byte vector of an aligned operand's K-step copy in a
  /// pipelined loop (num_stages >= 2): the copy's 64-bit address and its mask, which Triton keeps for
  /// the whole loop. A thread issues (block_m + block_n) x block_k x input bytes / 16 / threads such
  /// vectors a K-step. Measured, not fitted: Triton 3.6's register counts of our masked kernel on the
  /// H200 (h200-resource-probe.csv, the 102 aligned 4096^3 NT configs at 2-4 stages under the
  /// 255-register cap) are accumulators + 26 + 2.8 a vector (rms 7.9 registers, worst 18), where
  /// accumulators + 32 missed by rms 29, worst 72 (128x128x64 with 4 warps: 204 compiled, 160
  /// assumed: two blocks a CU, not three). 0 (the default) keeps the flat register_overhead_per_thread
  /// alone, as before 2026-12-06.
  double copy_address_registers = 0.0;
  /// Predicted times within this relative distance are a near-tie, broken by tile arithmetic
  /// intensity (Origami's tie-breaker). Fitted: 0.02.
  double near_tie_tolerance = 0.02;
  /// Rate of spilled registers' local-memory traffic as a fraction of the CU's fill rate
  /// (per_cu_load_bytes_per_cycle). When the accumulator tile itself no longer fits the registers
  /// (Triton compiles it, ptxas spills it: data/measurements/h200-triton-extra.csv, compile grid),
  /// the whole accumulator goes out to local memory and back every K-step. Fitted: 1 (the fit
  /// did not move it).
  double spill_bandwidth_fraction = 1.0;
  /// Share of the software pipeline an unaligned operand keeps where Triton pipelines it at all: its
  /// loads cannot be copied asynchronously and go through registers (loads in flight = this fraction
  /// of the aligned kernel's). Only AMD CDNA 4 pipelines such loads (triton.min_pipelined_load_bits 0);
  /// on NVIDIA and CDNA 3 they leave the pipeline altogether and this fraction does not apply. No
  /// measurement: 1 (the 0.3 fitted on the H200 before 2026-12-02 stood in for the lost pipeline).
  double unaligned_pipeline_fraction = 1.0;
  /// How far the memory levels of a K-step (L2 bandwidth, LLC, DRAM, the CU's fill) overlap: the
  /// step's transfer takes the slowest level plus (1 - overlap) times the others. 1: fully overlapped
  /// (the slowest alone). Fitted per target (DRAM-heavy rasters of vLLM's block-fp8 kernel, GROUP_SIZE_M
  /// 1 against 16, run 1.5x slower where L2 and fill alone would be equal: h200-fp8-block.csv.gz).
  /// Fitted: 1 for the triton target (0.95 before 2026-12-02; vllm-fp8-block keeps 0.95).
  double memory_level_overlap = 1.0;
  /// Share of each co-resident thread block's per-step overhead that hides under the other blocks of
  /// its CU: a CU running b blocks pays k_step_overhead_cycles x (1 + (1 - this) x (b - 1)) per
  /// step. 0: the blocks' bookkeeping queues behind each other (each pays its own); 1: it is waiting
  /// (barriers, load and instruction latencies), which the other blocks' warps fill, so the CU pays
  /// one block's. 0 here, the first round's form, which triton-tutorial and vllm-fp8-block keep (the
  /// tutorial's data held out by family 96.3% with 0, 96.2% with 0.5; the block-fp8 kernel's chain
  /// pays one block's overhead anyway). The triton target takes 0.5 (triton.cpp: fitted, 97.11% ->
  /// 97.23% held out by family). vllm-fused-moe's 16-bit decode tiles run 4-8 blocks of 16 rows per
  /// CU: there 1 (h200-fused-moe*.csv; data/fit/h200-fused-moe.txt).
  double coresident_overhead_overlap = 0.0;
  /// Share of the other co-resident thread blocks' transfers that one block's pipelined load does
  /// not wait behind. A CU running b blocks, each with s - 1 K-steps of loads in flight, is a closed
  /// queue (Little's law; the asymptotic bounds of mean-value analysis, Lazowska et al., "Quantitative
  /// System Performance", 1984, ch. 5): b (s - 1) loads cycle through a delay (the loaded latency L)
  /// and the CU's fill (T for all b blocks' bytes of a step, T / b for one block's), so a CU step
  /// takes max(T, (L + T / b) / (s - 1)). 0 (the default, the model before 2026-12-07): each
  /// block's load waits L + T, as if it queued behind every other block's bytes; 1: it waits its own
  /// T / b. Measured (h200-fp8-block.csv.gz): 16x32x128 with 4 warps runs 2048x7168x2048 at 12
  /// blocks a CU in 444 / 455 / 456 us at 2 / 3 / 4 stages; with 0 the model predicts 593 / 365 /
  /// 354 us (the second stage halving an L + T of 1.93 us), with 1 the step is the CU's fill at
  /// every stage count. vllm-fp8-block takes 1 (vllm_fp8_block.cpp: decided out of sample on random
  /// H200 and H100 shapes, 2026-12-07); the others keep 0 (vllm-fused-moe: untested, and it lowers that
  /// kernel's measured figures).
  double coresident_load_overlap = 0.0;
  /// Wait of each staged element of an unaligned operand when the registers to hold a K-step's
  /// staged elements together are not there (Residency::serialized_loads: accumulators, staged
  /// elements and the reserve over the register cap), as a fraction of the profile's idle L2 latency:
  /// the compiler issues such loads a few at a time, each group waiting for the last. Fitted: 1 for
  /// the masked kernel (measured on our H200 with 8 warps: 0.147-0.157 us an element at 255
  /// registers, 1000x1000x1000 NT, h200-triton-bf16.csv, against 0.157 us idle L2 latency);
  /// the tutorial kernel's own value in triton_tutorial.cpp.
  double serialized_load_latency_fraction = 1.0;
  /// Load-to-use latency of a K-step that issues its own loads and waits for them (no loads in flight
  /// ahead of it: num_stages 1, or an operand left out of the software pipeline), as a multiple of the
  /// idle (pointer-chase) latency. Such kernels are latency-bound far below the memory system's
  /// bandwidth, so their loads queue less than a pipelined kernel's (loaded_latency_multiplier).
  /// Derived, 4: the masked kernel's 128x64x64 with 8 warps on the two both-operands-unaligned
  /// shapes (1000x1000x1000 and 4097x4097x511 NT, h200-triton-bf16.csv / -more.csv; 48 elements a
  /// thread in 221 registers, Triton 3.6, h200-resource-probe.csv) takes 1.5-1.9 us a K-step: less
  /// its element-wise loads (384 runs of 32 elements, 74 KB of cache lines at the fill rate, 0.31 us)
  /// and its matrix work (0.17 us), 1.0-1.4 us of latency, 3.7-5.1 times the idle DRAM latency.
  double unpipelined_latency_multiplier = 4.0;
  /// Dead time of one matrix instruction that the compiler issued serialized (each wgmma waits for
  /// its own completion before the next is issued: KernelShape::serialized_matrix_instructions), in
  /// core cycles: a K-step of such instructions takes this much longer per instruction, whatever
  /// bounds it (the warps stall, and the next stage's loads are issued only after the step's last
  /// instruction completes). Measured, not fitted: Triton 3.6 on our H200 compiles the tutorial
  /// kernel's 128x256x64 with 8 warps in NT with every HGMMA waiting for itself, our masked kernel
  /// pipelined (tools/measure/nt_sass.py; h200-wgmma-probe.csv); the serialized build takes 77-112 ns
  /// more per K-step of 4 instructions on 3072^3, 2048x5120x3072 and 4096^3 NT at 3 and 4 stages
  /// (h200-nt-probe.csv): 38-56 cycles an instruction at the 1.98 GHz the H200 ran at; 50.
  double serialized_matrix_drain_cycles = 50.0;
  /// How much faster than async_copy_fill_fraction a CU of a launch's partial last wave copies its
  /// operands, as a share of the headroom its few active CUs leave: 0, none (each copies at the
  /// fitted fraction, as in a full wave); 1, up to the CU's share of the L2 bandwidth among the
  /// wave's active CUs, never above the CU's own fill rate (model_core.hpp, wave_terms). The fitted
  /// fraction is about a CU's share of the L2 under a full wave (0.3 x 120 B/cycle against 8.9e12 /
  /// 132 / 1.98e9 = 34 B/cycle on the H200). 1 for the dense Triton targets: the tutorial kernel's
  /// 100 shapes held out by family 95.1% -> 95.9% of oracle (the later sets d-f, never fitted on,
  /// 94.5% -> 96.5%, worst 77.8% -> 77.8%; h200-tutorial-f.csv: 1024x4544x18176's 128x128 tiles run
  /// 3 waves, the last of 24 blocks, in 355 us, 2.5 full waves at the fitted fill), the masked
  /// kernel's 263 96.3% -> 96.2%. vllm-fused-moe keeps 0 (its files, timed twice each way in one run:
  /// 96.72% of the best with 0 against 96.59% with 1, h200-fused-moe-check13/14.csv).
  double tail_wave_fill_relief = 1.0;
  /// Cycles every K-step of a tile on the asynchronous matrix path (wgmma) takes longer when the
  /// config's occupancy allows at most one block per CU and that block is one warpgroup (num_warps x
  /// occupancy <= warps_to_feed_matrix_units; by occupancy, not by the blocks a wave actually runs):
  /// no second warpgroup's work hides the block's per-step waits. Measured, not fitted, on the
  /// `triton` kernel (h200-triton-*.csv): the same config with 4 and with 8 warps, predicted alike,
  /// one block per CU, block_m >= 64, 708 pairs: the 4-warp one takes a median 107 cycles a K-step
  /// longer (p25 4, p75 175; with two blocks per CU 24, with three or more none); 128x128x64 at 4 and
  /// 5 stages, 1.12x the time of 8 warps, was predicted alike, so ties went to 4 warps. The tutorial
  /// kernel does not show it (257 such pairs, median -14 cycles, h200-tutorial*.csv), nor vLLM's
  /// block-fp8 kernel (4 warps faster): 0 there, and for vllm-fused-moe (which starts from the
  /// block-fp8 kernel's values). Which kernel difference causes it is not known
  /// (the masked kernel ANDs an M or N mask with the K mask on every element it loads).
  double lone_warpgroup_step_cycles = 107.0;
  /// How much faster than async_copy_fill_fraction an operand tile is copied whose contiguous
  /// dimension is M or N (not K: the B of an NN or TN GEMM, the A of a TN or TT one) and whose rows
  /// span at least two cache lines (model_core.hpp, kWideRowLines), never above the CU's own fill
  /// rate; 1, no faster. Measured, then chosen on the H200: the same Triton config runs 1.1-1.35x
  /// faster in NN than in NT (h200-triton-*.csv, the layout family), and on a step bound by the
  /// copies of two equal operands that is what a 1.5x faster copy of one of them gives (2 / (1 +
  /// 1/1.5) = 1.2x); 1.5 to 3 rank alike. With it the masked kernel's Whisper-medium fc2 (1500x1024x4096
  /// fp16 NN, h200-triton-i.csv) goes from 75.4% to 86.6% of oracle, 32 x 1024x1024x128 NN from 93.5%
  /// to 96.1%, 16x16384x8192 NN down from 99.5% to 95.8%, the other 298 of the 301 alike (96.34% ->
  /// 96.38%); the tutorial kernel's 1500x3072x1024 and 1024x5120x1280 NN (h200-tutorial-i.csv, -j.csv,
  /// on which the threshold was chosen) from 80.4% and 80.7% to 90.0% and 92.0%, its other 158 alike.
  /// Rows of one line (BLOCK_N 64 in bf16) keep the fitted rate. A refit of the triton target's six
  /// usual parameters with it scored no better held out (96.3-96.4%). The kernels of vllm-fp8-block and
  /// vllm-fused-moe read K-contiguous operands only.
  double mn_contiguous_fill_gain = 1.5;
  /// Fill time of one element of an unaligned operand whose warp lanes each read a different row
  /// (KernelShape::b_staged_across_rows: one scattered cache line per element), as a fraction of a
  /// whole line at the CU's fill rate: 1 would be one line a cycle. Measured, not fitted, on our
  /// H200 with the tutorial kernel, whose odd-N B loads Triton 3.6 lays out that way
  /// (tools/measure/load_layout_probe.py): over the 904 configs of its five odd-N NN shapes in
  /// h200-tutorial*.csv (no register spill, two waves or more), the time of a wave's K-step against
  /// the scattered 32-lane loads its CUs issue, the A copies and the matrix work (least squares) gives
  /// 15.9 cycles a load at the 1.98 GHz the H200 ran at, 8.0 ns: 0.41 of a line each at the profile's
  /// fill rate (120 B/cycle at 1.83 GHz); the median of the per-config ratios, 20.6 cycles, 0.53; 0.5.
  /// Where lanes walk the contiguous dimension the cost is elementwise_line_bytes's.
  double scattered_line_fraction = 0.5;
  /// L2 hit rate below which a tile's stage variants predicted exactly alike (a compute- or
  /// issue-bound step hides each variant's memory time) are ordered by their memory step, shortest
  /// first: the step streams its operands from DRAM, where the loaded latency runs longer than the
  /// fitted multiple (decode layers on the H200: about 2.6 us against the model's 1.5, README
  /// "Known gaps"), so the variant with more slack is the safer pick. 0 turns the rule off. Chosen
  /// on the H200 data (2026-12-04): 0.5; 0.2 to 0.9 rank the triton data within 0.02 points, and
  /// applied at every hit rate (1) the tutorial kernel's sets n-q lose 0.07.
  double slack_tie_max_l2_hit_rate = 0.5;
  /// Share of the lock-step excess that the waves after the first shed in a launch of one-K-step
  /// tiles with pipelined loads (or operands that cannot be) and two or more blocks per CU. The model
  /// runs a wave's blocks in lock step (all load, then all compute, then all store, the CU's blocks
  /// sharing each phase); after the first wave the blocks of a CU start as slots free up, so one block's load latency
  /// hides under another's work and a wave takes no less than the larger of its throughput (the
  /// longer of its K-steps at the bound of their compute and memory levels and its output's write
  /// after its loads' DRAM misses: the CU's work and the DRAM's overlap) and a lone block's whole
  /// life (one block a CU), and no more than in lock step: 1 charges that, 0 the lock step
  /// (model_core.hpp). Designed on our H100 (h100-onestep-aligned.csv: six aligned one-step
  /// launches, the lock step predicted 64x64 to 64x256 tiles +30% to +147% slow; 89.3% -> 93.6% of
  /// oracle, median top-1 time error 33% -> 9.5%, with its re-time) and h100-onestep-check.csv
  /// (seven more, 87.0% -> 93.0%, 38.8% -> 6.7%; the throughput as a sum of the two, 89.1% and
  /// 6.1%, before the overlap was read off one of its shapes); held out, six more committed before
  /// they were timed (h100-onestep-check2.csv, 2026-12-06): 86.1% -> 90.1% of oracle, worst 76.8%
  /// -> 79.2%, median top-1 time error 44.1% -> 4.9% (89.2% and 13.8% with the sum). The H200's 343
  /// triton shapes rank alike with it (97.1%), the tutorial's data too. Limited to one-step tiles:
  /// without the limit 4097x4097x511 NT went 99.7% -> 83.0%, and multi-step launches such as
  /// 1024x1024x128 x32 NN 94.2% -> 89.7%. Since 2026-12-06 (forty-first session) also one-step tiles
  /// whose operands cannot be pipelined (an operand not 16-byte aligned, loaded through registers):
  /// the H200's 262 held out by family (five refitted per fold) 97.4% / 77.8% -> 97.5% / 85.8% of
  /// oracle (10020x2215x12 NN 77.8% -> 95.5%, 16384x512x13 NN 90.0% -> 98.3%), h100-store.csv 82.3% ->
  /// 84.7% (its picks predicted ~30% fast: the misaligned epilogue's registers, README "Known
  /// gaps"); its held-out test, tools/measure/shapes-unaligned-onestep-check.csv, committed before it
  /// and timed on an H100 the next session (h100-unaligned-onestep-check.csv): 83.9% -> 90.6% of
  /// oracle, nine shapes of ten better, the worst 78.6% -> 49.9% (a 256x16 tile picked whose
  /// misaligned rows write at half the rate the model gives them; README "Known gaps").
  /// Not aligned tiles at num_stages 1 (model_core.hpp says why). 0 here, 1 for the two Triton GEMM
  /// targets; the vLLM targets' K loops are long (no one-step launch measured).
  double staggered_wave_fraction = 0.0;
};

/// One entry of the registry: a free parameter, its unit and the range in which the model stays
/// finite and meaningful (a profile value outside it is an error; calibrate searches inside it).
struct ModelParamInfo {
  std::string_view name;       ///< the key under `model_parameters:` (the field's name)
  std::string_view unit;       ///< "cycles", "s", "fraction", "multiple", "registers"
  double min_value;            ///< smallest allowed value
  double max_value;            ///< largest allowed value
  double ModelParams::*field;  ///< where the value lives
  std::string_view meaning;    ///< one line for `gemm-advisor targets --params` and the docs
  /// Whether calibrate fits it unless --params names others: false for the measured or assumed ones
  bool fit_by_default = true;
  /// Whether only a kernel with split-K uses it (calibrate warns when it is fitted for one without)
  bool split_k_only = false;
};

/// Every free parameter, in a fixed order (the order of ModelParams' fields).
constexpr ModelParamInfo kModelParamRegistry[] = {
    {"k_step_overhead_cycles", "cycles", 0, 1e5, &ModelParams::k_step_overhead_cycles,
     "issue and synchronisation cost of one K-step of one tile"},
    {"k_step_overhead_overlap", "fraction", 0, 1, &ModelParams::k_step_overhead_overlap,
     "share of the per-step overhead hidden under asynchronous matrix work"},
    {"async_copy_fill_fraction", "fraction", 1e-3, 1, &ModelParams::async_copy_fill_fraction,
     "asynchronous global->shared copy rate over the CU's register-load fill rate"},
    {"launch_overhead_s", "s", 0, 1e-2, &ModelParams::launch_overhead_s, "fixed cost of one kernel launch"},
    {"split_k_reduce_launch_s", "s", 0, 1e-2, &ModelParams::split_k_reduce_launch_s,
     "fixed cost of the split-K reduction kernel behind the GEMM", /*fit_by_default=*/false, /*split_k_only=*/true},
    {"split_k_reduce_latency_multiplier", "multiple", 0, 1e3, &ModelParams::split_k_reduce_latency_multiplier,
     "wait of one split of the split-K reduction's loop, over the idle L2 latency", /*fit_by_default=*/false,
     /*split_k_only=*/true},
    {"l2_reuse_fraction", "fraction", 0, 1, &ModelParams::l2_reuse_fraction,
     "share of the L2 keeping operand panels between waves"},
    {"narrow_tile_matrix_efficiency", "fraction", 1e-3, 1, &ModelParams::narrow_tile_matrix_efficiency,
     "matrix efficiency of tiles or warp counts too small for the full instruction"},
    {"loaded_latency_multiplier", "multiple", 0, 1e3, &ModelParams::loaded_latency_multiplier,
     "loaded memory latency over the idle pointer-chase latency"},
    {"idle_latency_fraction", "fraction", 1e-3, 1, &ModelParams::idle_latency_fraction,
     "a K-step's loaded latency with its memory levels idle, over loaded_latency_multiplier's",
     /*fit_by_default=*/false},
    {"staged_registers_per_element", "registers", 0, 1e3, &ModelParams::staged_registers_per_element,
     "registers per element of an unaligned operand staged through registers"},
    {"dram_active_cu_headroom", "multiple", 1e-3, 1e3, &ModelParams::dram_active_cu_headroom,
     "L2/DRAM bandwidth one CU can draw over its even share"},
    // At most 255: no more registers than NVIDIA gives a thread (beyond, every config was infeasible
    // while the value passed as plausible: a fresh user's find, 2026-12-06).
    {"register_overhead_per_thread", "registers", 0, 255, &ModelParams::register_overhead_per_thread,
     "registers a thread uses besides accumulators and staged operands", /*fit_by_default=*/false},
    {"copy_address_registers", "registers", 0, 64, &ModelParams::copy_address_registers,
     "registers a thread keeps per 16-byte vector of an aligned operand's pipelined K-step copy",
     /*fit_by_default=*/false},
    {"near_tie_tolerance", "fraction", 0, 1, &ModelParams::near_tie_tolerance,
     "relative distance within which predictions are a near-tie"},
    {"spill_bandwidth_fraction", "fraction", 1e-3, 1, &ModelParams::spill_bandwidth_fraction,
     "local-memory (spill) traffic rate over the CU's fill rate"},
    {"unaligned_pipeline_fraction", "fraction", 0, 1, &ModelParams::unaligned_pipeline_fraction,
     "share of the software pipeline an unaligned operand keeps"},
    {"memory_level_overlap", "fraction", 0, 1, &ModelParams::memory_level_overlap,
     "degree of overlap of a K-step's memory levels (L2, LLC, DRAM, fill)"},
    {"coresident_overhead_overlap", "fraction", 0, 1, &ModelParams::coresident_overhead_overlap,
     "share of co-resident blocks' per-step overhead hidden under each other"},
    {"coresident_load_overlap", "fraction", 0, 1, &ModelParams::coresident_load_overlap,
     "share of the other co-resident blocks' transfers a block's pipelined load does not wait behind",
     /*fit_by_default=*/false},
    {"serialized_load_latency_fraction", "fraction", 0, 1, &ModelParams::serialized_load_latency_fraction,
     "wait per staged element, over the idle L2 latency, when the staged elements exceed the registers"},
    {"unpipelined_latency_multiplier", "multiple", 0, 1e3, &ModelParams::unpipelined_latency_multiplier,
     "load latency of a K-step with no loads in flight ahead, over the idle latency"},
    {"serialized_matrix_drain_cycles", "cycles", 0, 1e5, &ModelParams::serialized_matrix_drain_cycles,
     "dead time of one matrix instruction the compiler issues serialized (waiting for itself)"},
    {"tail_wave_fill_relief", "fraction", 0, 1, &ModelParams::tail_wave_fill_relief,
     "share of a partial last wave's L2 headroom its CUs' operand copies take up"},
    {"lone_warpgroup_step_cycles", "cycles", 0, 1e5, &ModelParams::lone_warpgroup_step_cycles,
     "wait added to each K-step of a one-warpgroup wgmma tile whose config's occupancy is one block per CU"},
    {"mn_contiguous_fill_gain", "multiple", 1, 16, &ModelParams::mn_contiguous_fill_gain,
     "copy rate of an M- or N-contiguous operand tile with rows of two lines or more, over the fitted one"},
    {"scattered_line_fraction", "fraction", 1e-3, 1, &ModelParams::scattered_line_fraction,
     "fill time of an unaligned element read by its own lane from its own row, over a whole line's"},
    {"slack_tie_max_l2_hit_rate", "fraction", 0, 1, &ModelParams::slack_tie_max_l2_hit_rate,
     "L2 hit rate below which one tile's exactly tied stage variants go shortest memory step first"},
    {"staggered_wave_fraction", "fraction", 0, 1, &ModelParams::staggered_wave_fraction,
     "share of the lock-step excess shed by the waves after the first of one-step tiles sharing a CU",
     /*fit_by_default=*/false},
};

/// The registry name nearest `name` (edit distance, case ignored) if within 3 edits, else "": a
/// suggestion for a misspelt parameter (profile overlays, calibrate --params).
std::string nearest_model_param(std::string_view name);

/// The registry entry named `name`, or nullptr.
constexpr const ModelParamInfo* find_model_param(std::string_view name) {
  for (const ModelParamInfo& p : kModelParamRegistry) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

}  // namespace gemm_advisor
