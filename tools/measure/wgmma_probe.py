#!/usr/bin/env python3
"""Compile-only probe: which configs does ptxas compile with serialized wgmma?

On Hopper a K-step issues BLOCK_K / 16 asynchronous matrix instructions (wgmma, HGMMA in SASS) and,
pipelined, waits once for all but the last group (`WARPGROUP.DEPBAR.LE gsb0, 0x1`). Where ptxas cannot
keep the asynchronous pipeline (it says "wgmma.mma_async instructions are serialized" when asked for
warnings), every HGMMA signals its own barrier and the warps wait for each to finish before issuing the
next (`WARPGROUP.DEPBAR.LE gsb0, 0x0` after each). nt_probe.py / nt_sass.py found that on the H200
(Triton 3.6): the tutorial kernel's 128x256x64 (8 warps) in NT is serialized and runs 10-11% slower than
our masked kernel's pipelined build of the same tile on 3072^3 and 2048x5120x3072
(data/measurements/h200-nt-probe.csv).

For each (kernel, layout, config) of the grid this compiles the kernel for an aligned 4096^3 bf16
problem (the specialisation of a real launch), disassembles the cubin with cuobjdump and records the
HGMMA count, how many of them signal the barrier (`gsb0`), and `serialized` = every HGMMA does (and
there are more than one). No kernel is timed.

    python3 tools/measure/wgmma_probe.py --out OUT.csv [--jobs 15] [--kernel NAME ...]

--kernel vllm-fp8-block probes vLLM's block-fp8 kernel (fp8 NT, 4096^3) over its tuner's values.
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

KERNELS = ["triton-tutorial", "triton"]
LAYOUTS = ["NN", "NT", "TN", "TT"]
BLOCKS = [64, 128, 256]
BLOCK_K = [32, 64, 128]
WARPS = [4, 8]
STAGES = [2, 3, 4]
# --kernel vllm-fp8-block: its tuner's values where the full instruction is issued (BLOCK_SIZE_M >= 64),
# fp8 NT only, BLOCK_SIZE_K dividing 128 (vLLM's space; tools/measure/space.py).
FP8_BLOCKS_M = [64, 128, 256]
FP8_BLOCKS_N = [32, 64, 128, 256]
FP8_BLOCK_K = [64, 128]
FP8_STAGES = [2, 3, 4, 5]
COLUMNS = ["kernel", "m", "n", "k", "dtype", "layout", "block_m", "block_n", "block_k", "num_warps", "num_stages",
           "ok", "n_regs", "n_spills", "shared_bytes", "hgmma", "hgmma_signalling", "serialized", "seconds", "error"]


def grid(kernels):
    out = []
    for kern in kernels:
        if kern == "vllm-fp8-block":
            out += [(kern, "NT", dict(block_m=bm, block_n=bn, block_k=bk, group_m=1, num_warps=w, num_stages=s,
                                      split_k=1))
                    for bm in FP8_BLOCKS_M for bn in FP8_BLOCKS_N for bk in FP8_BLOCK_K for w in WARPS
                    for s in FP8_STAGES]
        else:
            out += [(kern, lay, dict(block_m=bm, block_n=bn, block_k=bk, group_m=8, num_warps=w, num_stages=s,
                                     split_k=1))
                    for lay in LAYOUTS for bm in BLOCKS for bn in BLOCKS for bk in BLOCK_K for w in WARPS
                    for s in STAGES]
    return out


def probe(task):
    kernel, lay, c = task
    m = n = k = 4096
    row = dict(kernel=kernel, m=m, n=n, k=k, dtype="fp8" if kernel == "vllm-fp8-block" else "bf16", layout=lay,
               **{key: c[key] for key in ("block_m", "block_n", "block_k", "num_warps", "num_stages")})
    t0 = time.time()
    try:
        kern = resource_probe.compile_kernel(kernel, m, n, k, lay, c)
        sass = resource_probe.sass_of(kern)
        hgmma = re.findall(r"[HQ]GMMA\.\S+ [^;]*;", sass)  # QGMMA: the fp8 form
        signalling = sum(1 for h in hgmma if "gsb0" in h)
        row.update(ok=1, n_regs=int(kern.n_regs), n_spills=int(kern.n_spills),
                   shared_bytes=int(getattr(kern.metadata, "shared", 0)), hgmma=len(hgmma),
                   hgmma_signalling=signalling, serialized=int(len(hgmma) > 1 and signalling == len(hgmma)),
                   error="")
    except Exception as e:  # a refusal is data
        row.update(ok=0, error=f"{type(e).__name__}: {e}".replace("\n", " ")[:200])
    row["seconds"] = round(time.time() - t0, 2)
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) - 1))
    ap.add_argument("--max-minutes", type=float, default=8.0)
    ap.add_argument("--kernel", action="append", choices=KERNELS + ["vllm-fp8-block"],
                    help="kernels to probe (repeatable; default: the tutorial and our masked kernel)")
    a = ap.parse_args()
    resource_probe.run_probe("wgmma_probe", grid(a.kernel or KERNELS), probe, COLUMNS, a.out, a.jobs,
                             a.max_minutes)

if __name__ == "__main__":
    main()
