#!/usr/bin/env python3
"""How fast Triton's pipelined operand copies (cp.async on Hopper) move L2-resident bytes into an SM,
with 1, 2, 4 or 8 thread blocks per SM: the per-block and per-SM fill rates and the whole GPU's L2
read rate that the model's async_copy_fill_fraction and l2_bandwidth_bytes_per_s stand for.

    python3 tools/measure/copy_probe.py --out copy-probe.csv

The kernel is a GEMM whose math is negligible: each block computes a [64, 16] tile, acc += A_tile @
B_tile over K in steps of BLOCK_K, with A [rows, K] and B [K, 16] in bf16. The dot makes Triton's
pipeliner copy both operands into shared memory asynchronously, num_stages - 1 steps ahead, as in
the GEMM kernels; a step's matrix work (64 x 16 x BLOCK_K) takes a tenth or less of its copy time.
A is 16 MiB (rows = 16 MiB / (K * 2)), so it stays in the 60 MiB L2 after the first pass; block b
reads row tile b % (rows / 64). Each config is timed with triton.testing.do_bench (median of its
runs, after warm-up). Reported per config: bytes copied (A and B tiles, every block, every step),
time, bytes per SM per cycle at the SM clock read from nvidia-smi (--clock-mhz overrides), the
aggregate rate, and the operand buffers a block keeps (num_stages of a step's bytes, the wgmma rule:
more launched blocks per SM than fit its shared memory run in waves). Written for this project after the public tutorial's pointer arithmetic.
"""
import argparse
import csv
import subprocess

import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(a_ptr, b_ptr, c_ptr, K, row_tiles, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr,
                BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    row0 = (pid % row_tiles) * BLOCK_M
    offs_m = row0 + tl.arange(0, BLOCK_M)
    offs_k = tl.arange(0, BLOCK_K)
    offs_n = tl.arange(0, BLOCK_N)
    a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * BLOCK_N + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, K, BLOCK_K):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * BLOCK_N
    c = c_ptr + pid * BLOCK_M * BLOCK_N + tl.arange(0, BLOCK_M)[:, None] * BLOCK_N + offs_n[None, :]
    tl.store(c, acc)


def sm_clock_mhz():
    out = subprocess.run(["nvidia-smi", "--query-gpu=clocks.max.sm", "--format=csv,noheader,nounits"],
                         capture_output=True, text=True).stdout.strip().splitlines()
    return float(out[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--clock-mhz", type=float, default=0)
    a = ap.parse_args()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    clock_hz = (a.clock_mhz or sm_clock_mhz()) * 1e6
    K = 8192
    BLOCK_M, BLOCK_N = 64, 16
    rows = (16 << 20) // (K * 2)
    A = torch.randn(rows, K, device="cuda", dtype=torch.bfloat16)
    B = torch.randn(K, BLOCK_N, device="cuda", dtype=torch.bfloat16)
    fields = ["block_m", "block_n", "block_k", "num_warps", "num_stages", "blocks_per_sm", "blocks", "k",
              "bytes", "ms", "bytes_per_sm_per_cycle", "tb_per_s", "buffer_bytes"]
    with open(a.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for block_k in (64, 128):
            for stages in (2, 3, 4):
                for per_sm in (1, 2, 4, 8):
                    blocks = sms * per_sm
                    C = torch.empty(blocks * BLOCK_M * BLOCK_N, device="cuda", dtype=torch.float32)
                    run = lambda: copy_kernel[(blocks,)](A, B, C, K, rows // BLOCK_M, BLOCK_M=BLOCK_M,
                                                         BLOCK_K=block_k, BLOCK_N=BLOCK_N, num_warps=4,
                                                         num_stages=stages)
                    run()
                    ms = triton.testing.do_bench(run, warmup=50, rep=200)
                    step_bytes = (BLOCK_M * block_k + block_k * BLOCK_N) * 2
                    total = blocks * (K // block_k) * step_bytes
                    per_sm_cycle = total / sms / (ms * 1e-3 * clock_hz)
                    row = dict(block_m=BLOCK_M, block_n=BLOCK_N, block_k=block_k, num_warps=4, num_stages=stages,
                               blocks_per_sm=per_sm, blocks=blocks, k=K, bytes=total, ms=round(ms, 6),
                               bytes_per_sm_per_cycle=round(per_sm_cycle, 2), tb_per_s=round(total / ms / 1e9, 3),
                               buffer_bytes=stages * step_bytes)
                    w.writerow(row)
                    f.flush()
                    print(row, flush=True)


if __name__ == "__main__":
    main()
