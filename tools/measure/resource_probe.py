#!/usr/bin/env python3
"""Compile-only resource probe: what Triton really allocates for a config, per alignment signature.

For each (kernel, shape, layout, config) of the probe grid this compiles the kernel with the real
problem's integers (the specialisation key of a real launch: the ==1 / %16 pattern of M, N, K and the
strides), loads it, and records what the compiler chose: shared memory bytes (metadata.shared), registers
per thread (n_regs) and spilled registers (n_spills), or the compile error. No kernel is timed.

Why: the advisor's resource rules for unaligned operands (an operand whose contiguous dimension is not a
multiple of 16 elements) are derived from Triton's pipeliner (AssignLatencies.cpp, isSmallLoad: a load
narrower than 32 bits is not pipelined, so it is not multi-buffered) and need checking against the
compiler on the GPU, as the aligned rules were (data/measurements/h200-triton-extra.csv, compile grid).

    python3 tools/measure/resource_probe.py --out OUT.csv [--jobs 15] [--quick]
    python3 tools/measure/resource_probe.py --only PLAN.csv --out OUT.csv   # the `triton` (bf16) and
                                                                           # `vllm-fp8-block` rows of a plan
                                                                           # (sweep.py's --only format),
                                                                           # each (shape, config) once

The grid: shapes of five alignment signatures (aligned NT; odd K in NT, both operands unaligned; odd K
in NN, A unaligned; odd N in NN, B unaligned; odd M in TN, A unaligned), for the tutorial kernel
(tutorial_kernel.py) and our masked kernel (gemm_kernels.py, SPLIT_K 1) in bf16, over
BLOCK_M x BLOCK_N in {16x64, 64x64, 64x128, 128x64, 128x128, 128x256, 256x128}, BLOCK_K in {32, 64, 128},
num_warps in {4, 8}, num_stages in {1, 2, 3, 4}.
"""
import argparse
import csv
import multiprocessing as mp
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import plan_spec  # noqa: E402  (pure Python)

SHAPES = [  # (signature, M, N, K, layout): which operand is unaligned
    ("aligned", 4096, 4096, 4096, "NT"),
    ("oddk-nt-both", 4096, 4096, 4095, "NT"),
    ("oddk-nn-a", 2048, 4096, 1001, "NN"),
    ("oddn-nn-b", 4096, 4095, 4096, "NN"),
    ("oddm-tn-a", 4095, 4096, 4096, "TN"),
]
TILES = [(16, 64), (64, 64), (64, 128), (128, 64), (128, 128), (128, 256), (256, 128)]
BLOCK_K = [32, 64, 128]
WARPS = [4, 8]
STAGES = [1, 2, 3, 4]
KERNELS = ["triton-tutorial", "triton"]
COLUMNS = ["kernel", "signature", "m", "n", "k", "dtype", "layout", "block_m", "block_n", "block_k", "num_warps",
           "num_stages", "ok", "shared_bytes", "n_regs", "n_spills", "seconds", "error"]


def grid(quick=False):
    out = []
    for kernel in KERNELS:
        for sig, m, n, k, lay in SHAPES:
            for bm, bn in TILES:
                for bk in BLOCK_K:
                    for w in WARPS:
                        for s in STAGES:
                            if quick and (bk != 64 or w != 8):
                                continue
                            out.append((kernel, sig, m, n, k, lay, dict(block_m=bm, block_n=bn, block_k=bk, group_m=8,
                                                                         num_warps=w, num_stages=s, split_k=1)))
    return out


def plan_grid(path):
    """The probe tasks of a plan or measurement CSV (kernel triton in bf16, or vllm-fp8-block; m, n, k,
    layout, block_m, block_n, block_k, num_warps, num_stages; split_k and group_m do not change what is
    compiled for registers: SPLIT_K is a runtime integer, GROUP_SIZE_M only the raster), each (kernel,
    shape, layout, config) once; the signature column says "plan"."""
    out, seen = [], set()
    with open(path) as f:
        for r in csv.DictReader(f):
            kernel = r.get("kernel") or "triton"
            if not ((kernel == "triton" and (r.get("dtype") or "bf16") == "bf16") or kernel == "vllm-fp8-block"):
                continue
            key = (kernel,) + tuple(int(r[c]) for c in ("m", "n", "k", "block_m", "block_n", "block_k", "num_warps",
                                                         "num_stages")) + (r["layout"] or "NT",)
            if key in seen:
                continue
            seen.add(key)
            kernel, m, n, k, bm, bn, bk, w, st, lay = key
            out.append((kernel, "plan", m, n, k, lay, dict(block_m=bm, block_n=bn, block_k=bk,
                                                           group_m=8 if kernel == "triton" else 32,
                                                           num_warps=w, num_stages=st, split_k=1)))
    return out


def init():
    try:
        os.nice(5)
    except OSError:
        pass
    import torch  # noqa: F401


def compile_kernel(kernel, m, n, k, lay, c):
    """Compile (and load) `kernel` for the bf16 problem m x n x k in layout `lay` (vllm-fp8-block: its own
    fp8 NT problem) with config c, as a real launch would specialise it; returns Triton's compiled kernel
    (n_regs, metadata, asm)."""
    import torch
    p = dict(kernel=kernel, m=m, n=n, k=k, batch=1, dtype="bf16", layout=lay)
    if kernel == "vllm-fp8-block":  # always A [M,K] and B [N,K] fp8 (NT), bf16 output, fp32 scales
        import fp8_block_kernel
        p["dtype"] = "fp8"
        ints = [v for _name, v in plan_spec.fp8_block_ints(p, c)]
        f8, f32 = torch.float8_e4m3fn, torch.float32
        kern = fp8_block_kernel.w8a8_block_fp8_kernel.warmup(
            f8, f8, torch.bfloat16, f32, f32, *ints, grid=(1,), num_warps=c["num_warps"],
            num_stages=c["num_stages"], **plan_spec.fp8_block_consts(p, c))
    elif kernel == "triton-tutorial":
        import tutorial_kernel
        ints = [v for _name, v in plan_spec.tutorial_ints(p, c)]
        kern = tutorial_kernel.tutorial_matmul_kernel.warmup(
            torch.bfloat16, torch.bfloat16, torch.bfloat16, *ints, grid=(1,), num_warps=c["num_warps"],
            num_stages=c["num_stages"], **plan_spec.tutorial_consts(p, c))
    else:
        import gemm_kernels
        _key, (_k, (variant, dt, ints, consts, w, s)) = plan_spec.triton_task(p, c)
        ints = ints[:-1] + (1,)  # SPLIT_K 1 (a runtime int: the same binary)
        kern = gemm_kernels.KERNELS[variant].warmup(torch.bfloat16, torch.bfloat16, torch.bfloat16,
                                                    torch.float32, *ints, grid=(1,), num_warps=w,
                                                    num_stages=s, **consts)
    kern._init_handles()
    return kern


def probe(task):
    kernel, sig, m, n, k, lay, c = task
    row = dict(kernel=kernel, signature=sig, m=m, n=n, k=k, dtype="fp8" if kernel == "vllm-fp8-block" else "bf16",
               layout=lay, **{
        key: c[key] for key in ("block_m", "block_n", "block_k", "num_warps", "num_stages")})
    t0 = time.time()
    try:
        kern = compile_kernel(kernel, m, n, k, lay, c)
        row.update(ok=1, shared_bytes=int(getattr(kern.metadata, "shared", 0)), n_regs=int(kern.n_regs),
                   n_spills=int(kern.n_spills), error="")
    except Exception as e:  # a refusal is data
        row.update(ok=0, shared_bytes="", n_regs="", n_spills="",
                   error=f"{type(e).__name__}: {e}".replace("\n", " ")[:200])
    row["seconds"] = round(time.time() - t0, 2)
    return row


def sass_of(kern):
    """The SASS text of a compiled kernel (compile_kernel's result): its cubin through cuobjdump -sass
    (CUDA toolkit); raises if cuobjdump fails."""
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(kern.asm["cubin"])
        f.flush()
        return subprocess.run(["cuobjdump", "-sass", f.name], capture_output=True, text=True, check=True).stdout


def run_probe(name, tasks, probe_fn, columns, out, jobs, max_minutes):
    """Runs probe_fn (a module-level function: one task -> one CSV row) over `tasks` in a spawned pool
    of `jobs` processes (each started by init()), writing the rows to `out` as they come, with progress
    every 100 rows; stops the pool after max_minutes and says how far it got."""
    t0 = time.time()
    done = 0
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns)
        w.writeheader()
        with mp.get_context("spawn").Pool(jobs, initializer=init) as pool:
            for row in pool.imap_unordered(probe_fn, tasks):
                w.writerow(row)
                done += 1
                if done % 100 == 0:
                    f.flush()
                    print(f"{name}: {done}/{len(tasks)} in {time.time() - t0:.0f} s", flush=True)
                if time.time() - t0 > max_minutes * 60:
                    print(f"{name}: time's up after {done}/{len(tasks)}", flush=True)
                    pool.terminate()
                    break
    print(f"{name}: {done} configs in {time.time() - t0:.0f} s -> {out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) - 1))
    ap.add_argument("--quick", action="store_true", help="BLOCK_K 64 and 8 warps only")
    ap.add_argument("--max-minutes", type=float, default=8.0)
    ap.add_argument("--only", help="probe the triton (bf16) and vllm-fp8-block rows of this plan or measurement CSV "
                                   "instead of the grid")
    a = ap.parse_args()
    tasks = plan_grid(a.only) if a.only else grid(a.quick)
    run_probe("resource_probe", tasks, probe, COLUMNS, a.out, a.jobs, a.max_minutes)

if __name__ == "__main__":
    main()
