#!/usr/bin/env python3
"""Launch costs as the sweep's CUDA-event timing sees them (an L2 flush queued before each run) (sets launch_overhead_s and
split_k_reduce_launch_s of lib/include/gemm_advisor/model_params.hpp from measurement).

Prints, as CSV rows `what,median_us,p10_us,p90_us,n`:
  empty          one empty Triton kernel between two events (launch + ramp-up + event overhead)
  reduce_tiny    the split-K reduction kernel on 16 fp32 elements, alone
  gemm           a small GEMM (16x16 tile config, one thread block) alone
  gemm+reduce    the same GEMM followed by the tiny reduction in the same stream; minus `gemm`
                 = what a second, dependent kernel adds behind the first
With --reduce-sweep, instead: the split-K reduction kernel alone (its launch included) on SPLIT fp32
partials of E output elements each, the partials written just before it (in L2, as the GEMM leaves
them), rows `reduce_s{SPLIT}_e{E},...` for SPLIT in 2..64 and E from 130 to 4M. What it answers: how a
reduction's time grows with its split count at a given size. The model charges one loaded L2 latency
(loaded_latency_multiplier x the idle one, 0.67 us on the H200) a split; the data of 1x130x6868 TT
(split 8 against 16, h200-triton-extra.csv) fit the idle latency (0.16 us) a split if the model's GEMM
part of the two is right, and the split-2 row above (reduce_tiny) fits either (data/measurements/README.md, 2026-12-05).
Usage: python3 tools/measure/launch.py [--reps 200] [--reduce-sweep]   (on the GPU machine)"""
import argparse
import statistics
import sys
import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--reduce-sweep", action="store_true", help="time the split-K reduction over split counts and sizes")
    a = ap.parse_args()
    import torch
    import triton
    import triton.language as tl
    import gemm_kernels as gk

    @triton.jit
    def empty_kernel(x_ptr):
        pass

    x = torch.zeros(16, device="cuda", dtype=torch.float32)
    m = n = 16
    k = 256
    A = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    B = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
    C = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    ws = torch.empty(2 * m * n, device="cuda", dtype=torch.float32)
    kw = dict(BLOCK_M=16, BLOCK_N=16, BLOCK_K=64, GROUP_M=8, num_warps=2, num_stages=3)

    def gemm():
        gk.matmul_kernel[(1, 1, 1)](A, B, C, ws, m, n, k, 0, k, 1, 0, n, 1, 0, n, 1, 1, **kw)

    def reduce_tiny():
        gk.splitk_reduce_kernel[(1,)](ws, C, m * n, m * n, 2, BLOCK=gk.REDUCE_BLOCK)

    cases = {"empty": lambda: empty_kernel[(1,)](x), "reduce_tiny": reduce_tiny, "gemm": gemm,
             "gemm+reduce": lambda: (gemm(), reduce_tiny())}
    prepare = {}  # case -> what runs after the flush, untimed (the sweep's partials sit in L2)
    if a.reduce_sweep:
        cases, prepare = {}, {}
        for elements in (130, 1280, 16384, 262144, 4194304):
            out = torch.empty(elements, device="cuda", dtype=torch.bfloat16)
            for split in (2, 4, 8, 16, 32, 64):
                if split * elements * 4 > 512 * 1024 * 1024:
                    continue
                part = torch.ones(split * elements, device="cuda", dtype=torch.float32)
                grid = (triton.cdiv(elements, gk.REDUCE_BLOCK),)
                name = f"reduce_s{split}_e{elements}"
                # default arguments bind this iteration's tensors (a closure would see the last ones)
                cases[name] = lambda part=part, out=out, split=split, elements=elements, grid=grid: \
                    gk.splitk_reduce_kernel[grid](part, out, elements, elements, split, BLOCK=gk.REDUCE_BLOCK)
                prepare[name] = lambda part=part: part.add_(0.0)
    # As in sweep.py, a 256 MB L2 flush is queued before each timed run: the GPU is busy with it while
    # the host prepares the launch, so the host-side launch cost is hidden, as it is in the sweep.
    flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    for f in cases.values():  # compile and warm
        f()
    torch.cuda.synchronize()
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(a.reps)]
    print("what,median_us,p10_us,p90_us,n")
    for name, f in cases.items():
        for s, e in ev:
            flush.zero_()
            if name in prepare:
                prepare[name]()
            s.record()
            f()
            e.record()
        torch.cuda.synchronize()
        t = sorted(s.elapsed_time(e) * 1e3 for s, e in ev)
        print(f"{name},{statistics.median(t):.2f},{t[len(t) // 10]:.2f},{t[9 * len(t) // 10]:.2f},{len(t)}")


if __name__ == "__main__":
    main()
