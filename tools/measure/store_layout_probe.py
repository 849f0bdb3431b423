#!/usr/bin/env python3
"""What Triton makes of the triton target's output store when the output row is not 16-byte aligned:
for 4096 x N x 16 NT with N = 4096 (rows of 8192 bytes) and N = 4095 (8190 bytes), and tiles from tall and
narrow (256x16) to short and wide (32x256), prints the layout the store runs in (the TTGIR's tt.store
operand layout, with its #blocked/#mma definition), the global stores in the SASS by width (STG.E.U16 one
bf16 element; STG.E.128 eight), and the registers. Compiles and launches once; no timing (the times are in
data/measurements/h100-store.csv).

    python3 tools/measure/store_layout_probe.py --out DIR     (writes DIR/store-layout.txt; needs cuobjdump)

Written 2026-12-06 (forty-second session), run in the forty-third on an H100 (data/measurements/h100-store-layout.txt). Its question
(data/measurements/README.md, "The unaligned one-step set, timed held out"): which layout Triton stores
a misaligned tile from, and whether tall tiles issue more store instructions or sectors than wide ones.
"""
import argparse, collections, os, re, sys
import torch, triton
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gemm_kernels  # noqa: E402
import nt_probe  # noqa: E402
import resource_probe  # noqa: E402  (sass_of)

TILES = ((256, 16, 4), (256, 16, 8), (128, 16, 4), (128, 32, 4), (64, 64, 4), (128, 64, 4), (64, 128, 4),
         (32, 256, 4), (128, 128, 4), (128, 128, 8), (16, 256, 2))

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
args = ap.parse_args()
os.makedirs(args.out, exist_ok=True)
lines = []
m, k = 4096, 16
for n in (4096, 4095):
    a, b = nt_probe.operands(m, n, k, "NT")
    c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    ws = torch.empty(1, device="cuda", dtype=torch.float32)
    for bm, bn, w in TILES:
        grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn), 1, 1)
        kern = gemm_kernels.matmul_kernel[grid](
            a, b, c, ws, m, n, k, 0, a.stride(0), a.stride(1), 0, b.stride(0), b.stride(1), 0, c.stride(0),
            c.stride(1), 1, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=16, GROUP_M=8, num_warps=w, num_stages=3)
        torch.cuda.synchronize()
        ttgir = kern.asm["ttgir"]
        defs = dict(re.findall(r"^(#\w+) = (#ttg\.\w+<.*>)$", ttgir, re.M))
        stores = [s for s in ttgir.splitlines() if "tt.store" in s]
        used = sorted(set(re.findall(r"#(?:blocked|mma|linear)\d*", " ".join(stores))))
        sass = resource_probe.sass_of(kern)
        ops = collections.Counter(re.findall(r"\b(STG\S*|STS\S*|LDS\S*|STSM\S*|STL\S*)", sass))
        lines.append(f"N={n} {bm}x{bn} w{w}: regs {kern.n_regs}; stores in {used} "
                     f"{ {u: defs.get(u, '?') for u in used} }; sass {dict(sorted(ops.items()))}")
        print(lines[-1], flush=True)
with open(os.path.join(args.out, "store-layout.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
