#!/usr/bin/env python3
"""Companion of nt_probe.py: the PTX and SASS of the tutorial-style probe kernel and of our masked kernel
for 3072^3 NT, 128x256x64 and 128x128x64 (8 warps, 3 stages), to see how their copies differ.

    python3 tools/measure/nt_sass.py --out DIR     (writes DIR/<kernel>-<tile>.{ptx,sass}; needs cuobjdump)
"""
import argparse, collections, os, re, sys
import torch, triton
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gemm_kernels  # noqa: E402
import nt_probe  # noqa: E402
import resource_probe  # noqa: E402  (sass_of)

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
args = ap.parse_args()
m = n = k = 3072
a, b = nt_probe.operands(m, n, k, "NT")
c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
ws = torch.empty(1, device="cuda", dtype=torch.float32)
for bm, bn in ((128, 256), (128, 128)):
    grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
    kerns = {
        "probe": nt_probe.probe_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                             c.stride(0), c.stride(1), 8, BM=bm, BN=bn, BK=64, WRAP=1, HINT=0,
                                             GCONST=0, MMASK=0, num_warps=8, num_stages=3),
        "masked": gemm_kernels.matmul_kernel[(grid[0], 1, 1)](
            a, b, c, ws, m, n, k, 0, a.stride(0), a.stride(1), 0, b.stride(0), b.stride(1), 0, c.stride(0),
            c.stride(1), 1, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=64, GROUP_M=8, num_warps=8, num_stages=3),
    }
    for name, kern in kerns.items():
        tag = f"{name}-{bm}x{bn}"
        with open(os.path.join(args.out, tag + ".ptx"), "w") as f:
            f.write(kern.asm["ptx"])
        sass = resource_probe.sass_of(kern)
        with open(os.path.join(args.out, tag + ".sass"), "w") as f:
            f.write(sass)
        ops = collections.Counter(re.findall(r"\b(LDGSTS\S*|LDG\S*|STG\S*|HGMMA\S*|BAR\S*|LDGDEPBAR\S*|DEPBAR\S*)", sass))
        print(tag, "regs", kern.n_regs, dict(sorted(ops.items())), flush=True)
