#!/usr/bin/env python3
"""Regression guard on measured accuracy: `evaluate` of each target on its committed H200 (and H100) data must
not fall below what the shipped parameters reached when they landed (2026-12-01, issue #11 refit).

These are in-sample figures (the parameters were fitted on the same rows), a guard against
regressions, not an accuracy claim: the held-out figures (cross-validation by shape family) are in
data/fit/h200-*.txt and README "Accuracy". Margins of 0.3-0.5 points absorb rounding only.
Usage: accuracy_test.py PATH/TO/gemm-advisor (run from the repo root)."""
import json
import subprocess
import sys

D = "data/measurements/"
# target: (files, shapes, geomean floor, worst floor, median error ceiling, p90 error ceiling)
# Reached 2026-12-02 after unaligned operands left the software pipeline and their element-wise loads
# were counted in cache lines (triton_operand_pipelining, register-bound staging, measured staged
# registers, elementwise_line_bytes, the triton refit of data/fit/h200-triton.txt): triton 96.11 /
# 76.37 / 11.0 / 22.3 on 263 shapes (95.88 / 78.14 / 10.9 / 21.7 before); triton-tutorial 97.18 /
# 89.71 / 17.7 / 47.3 on its first 41 (95.29 / 76.40 / 17.5 / 39.5 before); vllm-fp8-block 96.44 /
# 77.49 / 12.1 / 26.0 on 156 (unchanged). The tutorial kernel's serialized wgmma (2026-12-02, later:
# NT/TT, BLOCK_SIZE_N 256, 8 warps; serialized_matrix_drain_cycles) moved one pick of the 41, 8192x4096x1024
# NT from 128x256x64:8:3 (89.7%) to 128x128x64:8:5 (88.7%): 97.16 / 88.72 / 18.0 / 47.3 there.
# The first K-step of an unpipelined kernel waits for its serialized staging (2026-12-02, later): triton
# 96.21 / 78.14 / 10.9 / 22.1.
# mma.sync tiles keep num_stages - 1 loads in flight, not num_stages - 2 (triton_family::loads_in_flight,
# 2026-12-02, last), with the triton refit (loaded latency 5 -> 4.25, narrow-tile efficiency 0.35 ->
# 0.3) and the fused-MoE block-fp8 refit: triton 96.27 / 78.14 / 11.1 / 23.8; tutorial 41: 97.48 /
# 89.71 / 16.7 / 36.7; 11: 84.20 / 32.59 / 24.4 / 60.3 (16x288x5760 NT's pick, the same config, now
# predicted 26% off, 5% before); 52: 96.33 / 80.79 / 17.2 / 37.7; 17: 92.31 / 67.93 / 7.4 / 23.3;
# 9: 97.15 / 90.61 / 4.5 / 7.8; fused-MoE 108: 96.49 / 87.00 / 5.8 / 16.9, 90: 97.77 / 84.98 / 6.1 /
# 20.0; vllm-fp8-block refitted on its first 156 problems and the 35 of h200-fp8-block-e.csv (measured
# after the count, on which the earlier values scored 93.6%): 96.72 / 77.49 / 11.4 / 27.0 on the 156,
# 96.60 / 76.16 / 10.1 / 28.3 on the 35.
# A partial last wave's CUs copy faster than a full wave's (model_params.hpp, tail_wave_fill_relief;
# 2026-12-02, later; not for vllm-fused-moe): triton 96.20 / 78.14 / 11.3 / 23.8; tutorial 41: 97.48 /
# 89.71 / 15.6 / 36.3; 52: 96.33 / 80.79 / 15.7 / 36.3; 17: 93.53 / 72.55 / 7.5 / 22.9; 9: 97.15 /
# 90.61 / 4.6 / 7.9; 10: 95.25 / 77.83 / 11.9 / 21.9 (its picks better, their times less well
# predicted: the median error ceiling follows); the 12 of h200-tutorial-f.csv, measured before the
# change and held out from it: 97.14 / 88.97 / 12.0 / 18.4 (93.7 / 79.8 / 7.7 / 18.4 before).
# The masked kernel's lone-warpgroup wait (model_params.hpp, lone_warpgroup_step_cycles, measured) and
# the misaligned output-row store rate (profiles/h200.yaml, efficiency.misaligned_store_fraction,
# measured; 2026-12-02, thirteenth session): triton 96.42 / 78.14 / 10.9 / 23.7 on the 263; the 29
# of h200-triton-h.csv with its re-time, measured after both: 96.69 / 82.95 / 10.0 / 23.7 (96.3 /
# 80.2 / 10.7 / 23.7 with the model before them); the other targets unchanged.
# The ranking's stage preference (2026-12-03, triton.default_num_stages 3: within a near-tie of one
# arithmetic intensity, num_stages nearest Triton's default first, no longer fewest first): triton
# 96.61 / 76.77 / 10.6 / 23.6 on the 263 (1x130x6868 TT's pick 16x32x128 w4 at 3 stages, 76.8%, at 1
# stage 78.2%) and 96.50 / 82.95 / 10.9 / 23.7 on the 29; tutorial -c 94.73 / 72.41 / 7.5 / 23.7, -l
# 96.28 / 86.91 / 9.1 / 31.0 (chosen with -l in view: no longer held out); the rest alike or better.
# The measured cp.async rates (2026-12-03, eighteenth session): the H200 profile's L2 bandwidth is the
# asynchronous copies' 11.2 TB/s (h200-copy-probe.csv; 8.9 TB/s of register loads before) and the copy
# fill fraction their measured 0.35 for triton, triton-tutorial and vllm-fp8-block (0.3, 0.3 and the
# fitted 0.55 before): triton 96.48 / 76.77 / 10.9 / 23.7 on the 263 (held out by family 96.5%, as
# the shipped fit), 96.75 / 82.95 / 11.2 / 25.7 on the 29; tutorial 41: 96.88 / 86.87 / 4.9 / 26.7
# (97.48 / 89.71 / 15.4 / 34.6 before), 52: 95.83 / 80.79 / 10.1 / 26.9, c 95.38, d 98.22, e 95.63
# / 88.48 / 13.4 / 23.3, f 97.34 / 91.17 / 8.8 / 20.4, g 95.82 / 78.62 / 4.6 / 12.4, h 96.24 / 83.54
# / 5.6 / 12.8, k 95.12 / 82.00 / 7.8 / 15.7, l 96.84 / 91.20 / 8.7 / 26.4, m 94.34 / 77.87 / 5.1 /
# 23.8 (all 176 of a-k 95.73% -> 95.96%, median top-1 error 10.9% -> 6.7%); vllm-fp8-block 96.47 /
# 77.49 / 10.2 / 25.1 on the 156 (held out by family 96.4%, 96.1% for the shipped fit), 96.35 /
# 76.24 / 10.0 / 28.7 on the 35; vllm-fused-moe unchanged (96.54 / 87.00 / 5.4 / 16.1).
GUARDS = [
    # Since the split-K reduction's measured cost (2026-12-06, thirty-eighth session: 3.4 us + 1.68 idle
    # L2 latencies a split, model_params.hpp; 1.7 us + 4.25 before): 97.12 / 69.74 / 10.7 / 23.0. The
    # worst is one slow run: 1x1280x5120 NT's 16x32x256 w4 s4 split 4, the new pick, at 20.46 us, which
    # its re-time (h200-retime-split.csv, next guard) puts at 15.26.
    ("triton", [D + f for f in ("h200-triton-bf16.csv", "h200-triton-fp8.csv", "h200-triton-more.csv",
                                "h200-triton-extra.csv")], 262, 96.9, 69.4, 11.2, 24.0),
    # 262 since 2026-12-05: h200-triton-extra.csv's unnamed 4096^3 bf16 NT is the named one of an
    # earlier file, one problem (a re-time without family and name was a second shape: a fresh user's
    # find); 97.19 / 76.77 / 10.7 / 23.0 both ways.
    # The same 263 with their re-time (h200-retime-tri.csv, 2026-12-03, twenty-first session: each
    # shape's 6 fastest, the advisor's top 6 and its first 5 distinct tiles timed again, each config
    # at its faster time): 96.69 / 78.95 / 10.1 / 23.1 with the shipped model; 96.82 / 78.95 / 10.1 /
    # 23.0 since exact ties of a tile streaming from DRAM go shortest memory step first (2026-12-04,
    # ModelParams::slack_tie_max_l2_hit_rate), the 29 of set h 96.75 -> 96.88; 97.02 / 78.95 / 9.9 /
    # 23.0 with near-ties' num_warps nearest Triton's default 4 (triton.default_num_warps), set h 97.20.
    # With co-resident blocks hiding half of each other's per-step overhead (triton.cpp, 2026-12-04,
    # twenty-eighth session): 97.41 / 78.95 / 10.0 / 23.0 (97.22 the day before); the first runs alone
    # (the guard above) 97.20 / 76.77 / 10.7 / 23.0 (97.01).
    # With the split-K shapes' second re-time (h200-retime-split.csv, 2026-12-06, thirty-eighth session:
    # 1x1280x5120, 1x576x7168, 1x130x6868, 10020x2215x12, 12x773x764; each shape's 8 fastest, the
    # advisor's top 8 and first 5 distinct tiles) and the reduction's measured cost: 97.4 / 77.8; the
    # worst 10020x2215x12, whose best re-timed 37.7 -> 37.1 us (1x130x6868 79.9% -> 90.7%).
    ("triton", [D + f for f in ("h200-triton-bf16.csv", "h200-triton-fp8.csv", "h200-triton-more.csv",
                                "h200-triton-extra.csv", "h200-retime-tri.csv", "h200-retime-split.csv")],
     262, 97.1, 77.5, 10.4, 23.5),
    # With the one-step shapes' picks timed on the H200 (h200-retime-unaligned.csv, 2026-12-07,
    # forty-sixth session): 97.46 / 84.11 / 10.0 / 22.7; the worst is 10020x2215x12 NN, its pick 64x128x16
    # w4 s3 at 44.1 us against the best 37.1 us.
    ("triton", [D + f for f in ("h200-triton-bf16.csv", "h200-triton-fp8.csv", "h200-triton-more.csv",
                                "h200-triton-extra.csv", "h200-retime-tri.csv", "h200-retime-split.csv",
                                "h200-retime-unaligned.csv")],
     262, 97.2, 83.8, 10.3, 23.0),
    ("triton", [D + "h200-triton-h.csv", D + "h200-triton-h-retime.csv"], 29, 96.9, 82.6, 11.5, 26.0),
    # The 8 shapes of h200-triton-k.csv with their re-time (2026-12-03, twenty-first session: six families
    # new to the data, full space, measured with the shipped model, never fitted on): 96.01 / 88.88 / 8.7 / 14.8.
    ("triton", [D + "h200-triton-k.csv", D + "h200-triton-k-retime.csv"], 8, 95.7, 88.5, 9.0, 15.1),
    # The 11 shapes of h200-triton-l.csv with their re-time (2026-12-04, twenty-second session: nine
    # families new to the data, full space, measured after that session's ranking rules, never fitted on):
    # 98.45 / 95.73 / 7.1 / 21.8 (97.60 / 86.98 without the rules); 98.45 / 95.73 / 7.1 / 22.7 with the
    # triton target's co-resident overhead overlap of 0.5 (2026-12-04, twenty-eighth session: no pick
    # moves; one shape's top-1 time, the p90 of 11, predicted 0.9 points further off).
    ("triton", [D + "h200-triton-l.csv", D + "h200-triton-l-retime.csv"], 11, 98.1, 95.4, 7.4, 23.0),
    # The 11 shapes of h200-triton-m.csv with their re-time (2026-12-04, twenty-third session: six families
    # new to the data, every one with N not a multiple of 16, full space, measured with the shipped model,
    # never fitted on): 88.69 / 78.62 / 11.5 / 25.1. 91.25 / 78.62 / 9.0 / 25.7 since a misaligned row's
    # tile is written as the sectors it touches (2026-12-06, forty-second session; 90.10 / 78.62 / 11.1 /
    # 25.1 the day before): 12000x2504x16 TN and 6000x1999x8 NN pick better, one pick's time further off.
    ("triton", [D + "h200-triton-m.csv", D + "h200-triton-m-retime.csv"], 11, 90.9, 78.3, 9.3, 26.0),
    ("triton-tutorial", [D + "h200-tutorial.csv"], 41, 96.5, 86.5, 5.2, 27.0),
    # ... and on the 11 shapes measured 2026-12-02 (h200-tutorial-b.csv, measured after the first
    # round's model choices): 84.20 / 32.59 / 16.0 / 59.4 (81.66 / 32.62 / 33.1 / 45.4 before); the
    # worst is one slow run, which the re-time of the 52 shapes drops (below).
    ("triton-tutorial", [D + "h200-tutorial-b.csv"], 11, 83.8, 32.3, 24.7, 61.6),
    # All 52, each config at its fastest of the first runs and the re-time (h200-tutorial-retime.csv):
    # 96.09 / 80.79 / 18.3 / 46.6 (96.11 / 80.79 / 17.8 / 46.6 before the serialized wgmma). The model
    # choices of 2026-12-02 saw these 52 shapes.
    ("triton-tutorial", [D + f for f in ("h200-tutorial.csv", "h200-tutorial-b.csv", "h200-tutorial-retime.csv")],
     52, 95.5, 80.5, 10.4, 27.2),
    # The 17 shapes measured after the unaligned-operand model was final (h200-tutorial-c.csv,
    # 2026-12-02): 91.63 / 67.93 / 7.8 / 23.3 with the serialized wgmma, 88.58 / 67.93 / 15.7 / 23.3
    # before it (the model before that day's changes: 88.8 / 67.9 / 13.2 / 25.0). Their misses prompted
    # the wgmma probe, so they are no longer a clean held-out test (README "Accuracy").
    # The scattered-lane rule for odd-N B (model_params.hpp, scattered_line_fraction; 2026-12-03) moved
    # 2048x5003x2048 NN's pick from 256x128x64:8:1 (84.9%) to 256x64x128:8:1 (67.9%; the same tile at 3
    # stages, predicted alike, ran 97.7%): 92.31 / 67.93 / 7.4 / 21.5 (93.53 / 72.55 before).
    ("triton-tutorial", [D + "h200-tutorial-c.csv"], 17, 95.0, 72.1, 7.7, 22.6),
    # The 9 shapes measured after the serialized wgmma entered the model (h200-tutorial-d.csv, 2026-12-02,
    # held out): 97.20 / 90.64 / 4.3 / 8.0 (the model before it: 88.9 / 81.3 / 14.9 / 16.9).
    ("triton-tutorial", [D + "h200-tutorial-d.csv"], 9, 97.9, 92.8, 4.8, 5.5),
    # The 10 shapes measured after the loads-in-flight count (h200-tutorial-e.csv, 2026-12-02, held
    # out): 93.22 / 77.79 / 9.4 / 21.9 (the model before the count: 92.7 / 79.8 / 11.6 / 25.9).
    ("triton-tutorial", [D + "h200-tutorial-e.csv"], 10, 95.3, 88.1, 13.7, 23.6),
    # The 12 shapes of h200-tutorial-f.csv (2026-12-02, the sixth set: measured before the tail-wave
    # relief, which their misses prompted): 97.14 / 88.97 / 12.0 / 18.4.
    ("triton-tutorial", [D + "h200-tutorial-f.csv"], 12, 97.0, 90.8, 9.1, 20.7),
    # The 11 of h200-tutorial-g.csv (2026-12-02, the seventh set, measured after the tail-wave fill,
    # held out from it): 94.82 / 78.63 / 9.6 / 22.2 (92.8 / 78.6 / 4.2 / 22.2 without the fill).
    ("triton-tutorial", [D + "h200-tutorial-g.csv"], 11, 95.5, 78.3, 4.9, 12.7),
    # The 16 of h200-tutorial-h.csv (2026-12-02, thirteenth session, the eighth set, measured with the
    # model of the seventh, held out): 96.56 / 83.54 / 5.3 / 13.2.
    ("triton-tutorial", [D + "h200-tutorial-h.csv"], 16, 95.9, 83.2, 5.9, 13.1),
    # The 17 of h200-tutorial-l.csv with their re-time (2026-12-03, sixteenth session, the twelfth set:
    # measured after the scattered-lane rule, held out from it): 93.91 / 68.76 / 7.9 / 22.2 (the model
    # without the rule picks alike, 93.9 / 68.8, its odd-N shapes' top-1 times 45% and 31% off, 5.6% and
    # 21% with it).
    # The 16 of h200-tutorial-k.csv with their re-time (2026-12-03, fifteenth session, held out when
    # measured): 87.1 / 32.4 until the unpipelined registers (model_core.hpp, residency: at num_stages 1
    # an aligned operand's tile passes through registers; 2026-12-03, eighteenth session, prompted by
    # its 1024x3001x2048 NN), 93.49 / 80.59 / 8.5 / 17.9 since.
    ("triton-tutorial", [D + "h200-tutorial-k.csv", D + "h200-retime-k.csv"], 16, 94.8, 81.7, 8.1, 16.0),
    ("triton-tutorial", [D + "h200-tutorial-l.csv", D + "h200-retime-l.csv"], 17, 96.5, 90.9, 9.0, 26.7),
    # The 16 shapes of h200-tutorial-m.csv (2026-12-03: 6 measured in the sixteenth session, 10 in
    # the seventeenth; held out from the scattered-lane rule and the stage preference), with its
    # re-time h200-retime-m.csv: 91.62 / 77.87 / 8.8 / 32.6 (without the re-time 91.50 / 77.99 / 8.8 /
    # 31.4; the first 6 alone 92.73 / 80.12 / 6.6 / 22.3).
    ("triton-tutorial", [D + "h200-tutorial-m.csv", D + "h200-retime-m.csv"], 16, 94.0, 77.6, 5.4, 24.1),
    # The 14 shapes of h200-tutorial-n.csv with their re-time (2026-12-03, eighteenth session: measured
    # after the unpipelined registers and the measured cp.async rates, held out from both): 97.61 /
    # 90.06 / 14.0 / 25.7 (the model with the registers but the old rates: 98.6 / 90.1 / 17.9 / 27.8).
    ("triton-tutorial", [D + "h200-tutorial-n.csv", D + "h200-retime-n.csv"], 14, 97.3, 89.7, 14.3, 26.0),
    # The 14 of h200-tutorial-o.csv (2026-12-03, eighteenth session, measured right after set n with the
    # same model, held out; no re-time): 96.80 / 91.92 / 3.5 / 12.6 (the model with the old L2 and fill
    # figures: 98.9 / 93.3 / 17.1 / 23.9).
    ("triton-tutorial", [D + "h200-tutorial-o.csv"], 14, 96.5, 91.6, 3.8, 12.9),
    # The 18 of h200-tutorial-p.csv with their re-time (2026-12-03, nineteenth session, measured with the
    # model of sets n and o, unchanged since; held out): 96.48 / 83.48 / 8.0 / 18.7.
    ("triton-tutorial", [D + "h200-tutorial-p.csv", D + "h200-retime-p.csv"], 18, 96.2, 83.2, 8.3, 19.0),
    # The 14 of h200-tutorial-q.csv with their re-time (2026-12-03, nineteenth session, measured with the
    # same model; held out): 98.60 / 91.78 / 6.1 / 14.1.
    ("triton-tutorial", [D + "h200-tutorial-q.csv", D + "h200-retime-q.csv"], 14, 98.3, 91.5, 6.4, 14.4),
    # Since coresident_load_overlap 1 (vllm_fp8_block.cpp, 2026-12-07, forty-sixth session; the other values
    # fitted at 0, not refitted): the 156 96.7 / 77.5 / 10.3 / 25.0; the 35 96.9 / 76.2 / 13.2 / 27.6; the 156
    # with their re-time 96.8 / 77.0 / 10.9 / 25.4.
    ("vllm-fp8-block", [D + "h200-fp8-block.csv.gz"], 156, 96.2, 77.0, 10.6, 25.4),
    # The 35 of h200-fp8-block-e.csv: 96.99 / 76.24 / 10.05 / 28.4 until 2026-12-06 (forty-third session), when
    # the latency's load dependence (vllm_fp8_block.cpp, idle_latency_fraction) gave 97.32 / 76.24 / 12.77 / 28.3:
    # better picks, the decode top-1s (16x32x128 w4 s5 at N >= 4096) predicted 2-3 points faster than
    # before, where they already ran 10-30% slower than predicted.
    ("vllm-fp8-block", [D + "h200-fp8-block-e.csv"], 35, 96.6, 75.9, 13.5, 29.0),
    # The 156 with their re-time (h200-retime-fp8.csv, 2026-12-03, twenty-first session: each problem's 6
    # fastest, the advisor's top 6 and its first 5 distinct tiles timed again): 96.61 / 76.99 / 10.1 / 25.7.
    # Since tiles past M's next power of two rank after the others (ranker.cpp, 2026-12-07, fifty-first
    # session; the tuner's space times BLOCK_SIZE_M up to 256 at M = 1): the 156 96.72 -> 96.82 / 77.5 /
    # 10.33 -> 10.54, with the re-time 96.76 -> 96.86 / 77.0 / 10.87 -> 11.21 (picks better measured, their
    # predicted times a little further off); the tutorial's sets c 95.38 -> 95.61 and p 96.48 -> 96.58.
    ("vllm-fp8-block", [D + "h200-fp8-block.csv.gz", D + "h200-retime-fp8.csv"], 156, 96.5, 76.7, 11.5, 26.0),
    # vllm-fused-moe: 96.50 / 87.32 / 8.3 / 20.2 on the 108 layers (up + down, one config) of the
    # first run: 16-bit layers on the fit of data/fit/h200-fused-moe.txt, DeepSeek-V3's block-fp8
    # ones on data/fit/h200-fused-moe-fp8.txt; 97.63 / 80.27 / 13.6 / 32.4 on the 90 layers of the
    # five other block-fp8 models (h200-fused-moe-fp8.csv). The fp8_block refit with the tiles run
    # (loaded latency 3.5 -> 7) ranks better held out and doubled the block-fp8 layers' median time
    # error (7.7% -> 13.6%): the guard follows it.
    # 2026-12-05, a wave's experts reached counted smoothly (model_core.hpp, interleaved_footprint): the
    # first run's 108 layers 96.53 -> 96.68 / 87.00 / median error 5.4 -> 6.0 / 16.1; the other 90
    # 97.77 -> 97.83 / 87.88 / 6.1 -> 5.8: the ranking better on both, the level error up on one.
    ("vllm-fused-moe", [D + "h200-fused-moe.csv"], 108, 96.2, 86.7, 6.2, 16.4),
    ("vllm-fused-moe", [D + "h200-fused-moe-fp8.csv"], 90, 97.4, 84.6, 6.4, 20.4),
    # Another GPU (an entry's first element names the profile; h200 where none): the H100 (2026-12-05,
    # thirty-fourth session), never fitted on. 11 shapes of shapes-h200.csv over the whole space
    # (h100-check.csv): 96.29 / 91.13 / 7.9 / 20.7 under profiles/h100.yaml with the H200's parameters;
    # 97.59 / 95.39 / 6.7 / 21.9 since the profile's DRAM latency, DRAM fraction and L2 rate are the
    # H100's own, measured (2026-12-05, thirty-fifth session; 343 ns where it took the H200's 276).
    # Since the split-K reduction's measured cost (2026-12-06): the same picks, median error 6.7 -> 10.9%
    # (of 11: 128x128x65536's split-16 pick 4.9% -> 11.0% fast, its reduction now as measured and its GEMM
    # part short; 512x576x7168's split 4 13.9% -> 10.9%).
    ("h100", "triton", [D + "h100-check.csv"], 11, 97.3, 95.0, 11.2, 22.2),
    # The store plan's 7 shapes (h100-store.csv): 80.11 / 70.15 / 25.7 / 34.6 with the H100's measured
    # misaligned store fraction 0.74 (37.0 / 42.0 error without it, the same picks): a known gap
    # (README), guarded so that it does not widen. 80.11 / 70.15 / 23.7 / 35.4 with the measured latency.
    # 81.84 / 70.15 / 23.7 / 30.9 since the staggered waves (2026-12-06); 82.3 / 70.15 / 18.5 / 30.9
    # since their throughput is the longer of the CU's work and the DRAM's. 84.69 / 70.53 / 38.6 / 44.0
    # since the one-step tiles whose operands cannot be pipelined run staggered too (2026-12-06,
    # forty-first session): the picks better on four of the seven, the level error doubled, all on
    # the misaligned output rows of unaligned operands (10020x2215x12, 10020x2216x12, 10020x2215x64 and
    # 2216x64, 8192x1023x32 NN: the picks predicted 28-32% fast; README "Known gaps"). 84.28 / 70.48 /
    # 35.2 / 38.4 since a misaligned row's tile is written as the sectors it touches (2026-12-06,
    # forty-second session; the H100's fraction 0.74 -> 0.8 on sectors): 10020x2215x12 picks 64x128x16
    # w4 (80.4%, 81.5% before), 4096x4095x16 NT 64x256x16 w4 (93.4%, 95.5%).
    ("h100", "triton", [D + "h100-store.csv"], 7, 84.0, 70.2, 35.5, 38.8),
    # Aligned one-step launches (2026-12-06, fortieth session): the six of h100-onestep-aligned.csv (with
    # its re-time of a 244 us glitch), on which the staggered waves (model_params.hpp,
    # staggered_wave_fraction) were designed, 89.3 / 83.8 / 33.1 / 49.1 in lock step, 93.6 / 87.2 / 9.5 /
    # 12.9 with them; h100-onestep-check.csv, committed before it was timed, 87.0 / 71.2 / 38.8 / 57.4 in
    # lock step, 93.0 / 84.3 / 6.7 / 10.9 with them; held out from both versions, h100-onestep-check2.csv:
    # 86.1 / 76.8 / 44.1 / 57.5 in lock step, 90.1 / 79.2 / 4.9 / 16.7 with them. The design set since each
    # full wave's output counts at a full tile's bytes (2026-12-06, forty-first session): 95.77 / 87.49 /
    # 10.9 / 14.2 (20000x1024x32 TT 87.2% -> 100%, its first wave no longer storing the average tile).
    ("h100", "triton", [D + "h100-onestep-aligned.csv", D + "h100-onestep-aligned-retime.csv"], 6, 95.5, 87.2, 11.2,
     14.5),
    ("h100", "triton", [D + "h100-onestep-check.csv"], 7, 92.7, 84.0, 7.0, 11.3),
    ("h100", "triton", [D + "h100-onestep-check2.csv"], 6, 89.8, 78.9, 5.2, 17.1),
    # Unaligned one-step launches, committed before they were timed (h100-unaligned-onestep-check.csv,
    # 2026-12-06, forty-second session; the held-out test of the forty-first session's staggered waves
    # for tiles that cannot pipeline): 83.94 / 78.59 / 9.7 / 27.5 before that change, 90.59 / 49.87 /
    # 10.1 / 21.9 with it. The worst, 16000x2500x7 fp16 TN, picked 256x16x16 w4 (predicted 42.6 us,
    # measured 87.5). Since a misaligned row's tile is written as the 32-byte sectors it touches (the
    # same session, designed on this set and h100-store.csv's 4096x4095 pair, so no longer held out):
    # 95.83 / 87.57 / 9.1 / 14.9 (16000x2500x7 TN 128x128x16 w4, 87.6%; 256x16 predicted 65 us).
    ("h100", "triton", [D + "h100-unaligned-onestep-check.csv"], 10, 95.5, 87.3, 9.4, 15.3),
    # The sector count's held-out test, its first three shapes (h100-sector-check.csv, 2026-12-06,
    # forty-second session; committed before timing): 75.88 / 67.80 / 38.4 / 47.8 before it, 79.87 /
    # 78.95 / 37.2 / 37.2 with it. All twelve (the other nine timed 2026-12-06, forty-third session):
    # 81.63 / 67.80 / 33.7 / 52.1 before it, 82.62 / 69.76 / 29.5 / 43.5 with it. The class stays weak
    # (README "Known gaps"): guarded so that it does not widen.
    ("h100", "triton", [D + "h100-sector-check.csv"], 12, 82.3, 69.5, 29.8, 43.8),
    # vllm-fp8-block on the H100 (h100-fp8-block.csv.gz, 2026-12-05, thirty-fifth session): the 12
    # (N, K) of the H200's set at 6 M values, whole tuner space, never fitted on: 96.91 / 77.19 / 11.3 /
    # 23.1 (the same with the H100's public DRAM figures and the H200's latency: 96.6 / 77.2 / 9.8 / 26.4).
    # Read gzipped: the reader's .gz path is on this guard's way too.
    ("h100", "vllm-fp8-block", [D + "h100-fp8-block.csv.gz"], 72, 96.6, 76.9, 11.6, 23.4),
    # The out-of-sample test of coresident_load_overlap (2026-12-07, forty-sixth session; plans committed
    # before timing): random block-fp8 shapes whose top-1 differs between the value 0 and 1. At 0: H200 60 shapes 95.50 / 74.59 / 16.0 / 38.8 (96.6 / 80.8 at 1), H100 30 shapes
    # 96.10 / 84.20 / 9.4 / 22.8 (97.4 / 78.3 at 1); guarded so that the figures a later change is
    # compared with stay as committed. Taken (2026-12-07, forty-sixth session): H200 96.62 / 80.83 / 17.3 /
    # 36.7, H100 97.38 / 78.26 / 9.8 / 26.6.
    ("vllm-fp8-block", [D + "h200-clo.csv"], 60, 96.3, 80.5, 17.6, 37.0),
    ("h100", "vllm-fp8-block", [D + "h100-clo.csv"], 30, 97.1, 78.0, 10.1, 26.9),
    # Two larger held-out sets on the H100 (2026-12-07, fifty-second session; data/measurements/README.md,
    # "Two held-out sets on the H100"): the H200's triton sets h-n, 82 shapes, and the tutorial's sets p
    # and q, 32 shapes, each with a subset of the space (the H200's fastest, the h100 profile's top picks
    # and distinct tiles, a random sample) timed on an H100 with the model as it stood: 95.99 / 69.10 /
    # 7.98 / 21.67 and 97.26 / 82.86 / 10.26 / 19.25.
    ("h100", "triton", [D + "h100-triton-check.csv"], 82, 95.7, 68.8, 8.3, 22.0),
    ("h100", "triton-tutorial", [D + "h100-tutorial-check.csv"], 32, 97.0, 82.6, 10.6, 19.6),
]

failed = checks = 0


def check(ok, what):
    global failed, checks
    checks += 1
    failed += not ok
    print(f"{'ok  ' if ok else 'FAIL'} {what}")


for guard in GUARDS:
    hw, (target, files, shapes, geo, worst, median, p90) = ("h200", guard) if len(guard) == 7 else (guard[0], guard[1:])
    out = subprocess.run([sys.argv[1], "evaluate", "--hw", hw, "--target", target, "--measurements", *files,
                          "--format", "json"], capture_output=True, text=True, check=True).stdout
    agg = json.loads(out)["aggregate"]
    target = target if hw == "h200" else f"{target} on {hw}"
    check(agg["shapes"] == shapes, f"{target}: shapes = {agg['shapes']} (the committed data has {shapes})")
    check(agg["geomean_pct_of_oracle"] >= geo, f"{target}: geomean = {agg['geomean_pct_of_oracle']:.2f} (>= {geo})")
    check(agg["worst_pct_of_oracle"] >= worst, f"{target}: worst = {agg['worst_pct_of_oracle']:.2f} (>= {worst})")
    check(agg["median_abs_err_pct"] <= median,
          f"{target}: median top-1 error = {agg['median_abs_err_pct']:.2f}% (<= {median})")
    check(agg["p90_abs_err_pct"] <= p90, f"{target}: p90 top-1 error = {agg['p90_abs_err_pct']:.2f}% (<= {p90})")
    if files == [D + "h200-fused-moe.csv"]:
        check(agg["default_geomean_pct_of_oracle"] < agg["geomean_pct_of_oracle"] - 15,
              f"{target}: vLLM's default config {agg['default_geomean_pct_of_oracle']:.1f}% well below the advisor")
    check(agg["infeasible_but_ran"] == 0, f"{target}: configs that ran but are called infeasible = "
                                          f"{agg['infeasible_but_ran']} (== 0)")
print(f"{checks - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
