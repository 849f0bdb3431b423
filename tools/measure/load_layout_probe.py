#!/usr/bin/env python3
"""Which register layout Triton gives the tutorial kernel's operand loads (TTGIR), per alignment signature.

For each signature of resource_probe.SHAPES this compiles the tutorial kernel (tutorial_kernel.py) with
128x64x128, 8 warps, 3 stages, and prints each tt.load of the K loop with its #blocked layout
(sizePerThread, threadsPerWarp, warpsPerCTA, order): whether a warp's 32 lanes walk the operand's
contiguous dimension (coalesced) or across its rows.

    python3 tools/measure/load_layout_probe.py > OUT.txt
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import resource_probe  # noqa: E402

SHAPES = resource_probe.SHAPES + [("oddn-nn-b-3001", 1024, 3001, 2048, "NN")]
for kernel in ("triton-tutorial", "triton"):
    for sig, m, n, k, lay in SHAPES:
        c = dict(block_m=128, block_n=64, block_k=128, group_m=8, num_warps=8, num_stages=3, split_k=1)
        kern = resource_probe.compile_kernel(kernel, m, n, k, lay, c)
        ttgir = kern.asm["ttgir"]
        layouts = dict(re.findall(r"^(#blocked\d*) = (#ttg\.blocked<.*?>)$", ttgir, re.M))
        print(f"== {kernel} {sig} {m}x{n}x{k} {lay}")
        for line in ttgir.splitlines():
            if "tt.load" in line:
                used = re.findall(r"#blocked\d*", line)
                print("   load:", "; ".join(f"{u} {layouts.get(u, '?')}" for u in dict.fromkeys(used)))
