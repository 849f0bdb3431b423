#!/usr/bin/env python3
"""Compile-only probe of how Triton (and ptxas) stage an unaligned operand: per config, the registers, the
spills, and the shape of the K loop's element-wise loads in the SASS.

An unaligned operand (its contiguous dimension not a multiple of 8 elements of bf16) cannot be copied
asynchronously: each element is a scalar global load (LDG.E.U16) into a register, then a shared-memory
store (STS). Whether a K-step's loads are all in flight together or issued a few at a time, each batch
waiting for the one before, decides whether the step costs one load latency or many. This records, for
the K loop (the kernel's largest backward branch), the scalar loads it issues and the batches they come
in: a batch is a run of loads with no shared-memory store between them (a store of a loaded value waits
for it, so the next loads are issued only after the batch has arrived).

    python3 tools/measure/staging_probe.py --out OUT.csv [--jobs 15] [--max-minutes 8]
        [--tiles 16x16,64x128] [--block-k 16,32] [--warps 2] [--stages 1,3]

Grid: the tutorial kernel (tutorial_kernel.py) and our masked kernel (gemm_kernels.py) in bf16 on
1024x3001x2048 NN (B unaligned: odd N) and 1024x4096x2047 NT (both unaligned: odd K), BLOCK_M x BLOCK_N
in {16x64, 32x64, 64x64, 64x128, 128x64, 128x128, 256x64, 64x256, 128x256, 256x128}, BLOCK_K in
{32, 64, 128, 256}, num_warps {4, 8}, num_stages {1, 3}; configs whose unaligned operands stage more
than 128 elements a thread are left out (they spill whatever the batching, and compile for minutes).
Needs cuobjdump (CUDA toolkit) for the SASS.
"""
import argparse
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import resource_probe  # noqa: E402  (compile_kernel, sass_of, run_probe)

SHAPES = [("oddn-nn-b", 1024, 3001, 2048, "NN"), ("oddk-nt-both", 1024, 4096, 2047, "NT")]
TILES = [(16, 64), (32, 64), (64, 64), (64, 128), (128, 64), (128, 128), (256, 64), (64, 256), (128, 256),
         (256, 128)]
BLOCK_K = [32, 64, 128, 256]
WARPS = [4, 8]
STAGES = [1, 3]
KERNELS = ["triton-tutorial", "triton"]
MAX_STAGED_PER_THREAD = 128
COLUMNS = ["kernel", "signature", "m", "n", "k", "dtype", "layout", "block_m", "block_n", "block_k", "num_warps",
           "num_stages", "staged_per_thread", "ok", "n_regs", "n_spills", "loop_scalar_loads", "loop_batches",
           "largest_batch", "loop_vector_loads", "loop_async_copies", "loop_local_loads", "seconds", "error"]

_ADDR = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?);")
_BRA = re.compile(r"\bBRA\b.*?0x([0-9a-f]+)")


def staged_per_thread(sig, c):
    threads = 32 * c["num_warps"]
    bm, bn, bk = c["block_m"], c["block_n"], c["block_k"]
    return {"oddn-nn-b": bk * bn, "oddk-nt-both": bk * (bm + bn)}[sig] / threads


def k_loop(sass):
    """(start, end) addresses of the largest backward branch's body, or None."""
    instrs = [(int(a, 16), text) for a, text in _ADDR.findall(sass)]
    best = None
    for addr, text in instrs:
        m = _BRA.search(text)
        if m and int(m.group(1), 16) < addr:
            span = (int(m.group(1), 16), addr)
            if best is None or span[1] - span[0] > best[1] - best[0]:
                best = span
    return instrs, best


def loop_stats(sass):
    instrs, span = k_loop(sass)
    if span is None:
        return dict(loop_scalar_loads=0, loop_batches=0, largest_batch=0, loop_vector_loads=0,
                    loop_async_copies=0, loop_local_loads=0)
    scalar = batches = largest = run = vector = async_copies = local = 0
    for addr, text in instrs:
        if not span[0] <= addr <= span[1]:
            continue
        op = text.split()[0] if not text.startswith("@") else text.split()[1]
        if op.startswith("LDGSTS"):
            async_copies += 1
        elif op.startswith("LDG"):
            if ".U16" in op or ".S16" in op or ".U8" in op:
                scalar += 1
                run += 1
            else:
                vector += 1
        elif op.startswith("STS") and run:
            batches += 1
            largest = max(largest, run)
            run = 0
        elif op.startswith("LDL"):
            local += 1
    if run:
        batches += 1
        largest = max(largest, run)
    return dict(loop_scalar_loads=scalar, loop_batches=batches, largest_batch=largest, loop_vector_loads=vector,
                loop_async_copies=async_copies, loop_local_loads=local)


def grid(tiles=TILES, block_k=BLOCK_K, warps=WARPS, stages=STAGES):
    out = []
    for kernel in KERNELS:
        for sig, m, n, k, lay in SHAPES:
            for bm, bn in tiles:
                for bk in block_k:
                    for w in warps:
                        for s in stages:
                            c = dict(block_m=bm, block_n=bn, block_k=bk, group_m=8, num_warps=w, num_stages=s,
                                     split_k=1)
                            if staged_per_thread(sig, c) <= MAX_STAGED_PER_THREAD:
                                out.append((kernel, sig, m, n, k, lay, c))
    return out


def probe(task):
    kernel, sig, m, n, k, lay, c = task
    row = dict(kernel=kernel, signature=sig, m=m, n=n, k=k, dtype="bf16", layout=lay,
               staged_per_thread=staged_per_thread(sig, c),
               **{key: c[key] for key in ("block_m", "block_n", "block_k", "num_warps", "num_stages")})
    t0 = time.time()
    try:
        kern = resource_probe.compile_kernel(kernel, m, n, k, lay, c)
        sass = resource_probe.sass_of(kern)
        row.update(ok=1, n_regs=int(kern.n_regs), n_spills=int(kern.n_spills), error="", **loop_stats(sass))
    except Exception as e:  # a refusal is data
        row.update(ok=0, error=f"{type(e).__name__}: {e}".replace("\n", " ")[:200])
    row["seconds"] = round(time.time() - t0, 2)
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) - 1))
    ap.add_argument("--max-minutes", type=float, default=8.0)
    ints = lambda text: [int(v) for v in text.split(",")]  # noqa: E731
    ap.add_argument("--tiles", type=lambda text: [tuple(ints(t.replace("x", ","))) for t in text.split(",")],
                    default=TILES, help="BLOCK_MxBLOCK_N,... (default: the grid above)")
    ap.add_argument("--block-k", type=ints, default=BLOCK_K, help="comma-separated (default 32,64,128,256)")
    ap.add_argument("--warps", type=ints, default=WARPS, help="comma-separated (default 4,8)")
    ap.add_argument("--stages", type=ints, default=STAGES, help="comma-separated (default 1,3)")
    a = ap.parse_args()
    resource_probe.run_probe("staging_probe", grid(a.tiles, a.block_k, a.warps, a.stages), probe, COLUMNS, a.out,
                             a.jobs, a.max_minutes)


if __name__ == "__main__":
    main()
