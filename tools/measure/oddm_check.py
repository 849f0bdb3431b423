#!/usr/bin/env python3
"""Why did the tutorial kernel's first odd-M problem (777x1111x2223 bf16 NT, config 32x128x256 w4 s3)
stop the 2026-12-02 call with an illegal memory access (data/measurements/h200-tutorial-b.log)?

Each config runs in its own process (a fault poisons the CUDA context) with CUDA_LAUNCH_BLOCKING=1:
prints, per (shape, config), ok with the relative error against fp32, or the error.
    python3 tools/measure/oddm_check.py            (on the device; about a minute)"""
import os
import subprocess
import sys

CASES = [  # (m, n, k, layout), (block_m, block_n, block_k, warps, stages)
    ((777, 1111, 2223, "NT"), (32, 128, 256, 4, 3)),   # the failing launch
    ((777, 1111, 2223, "NT"), (32, 128, 256, 4, 1)),
    ((777, 1111, 2223, "NT"), (32, 128, 64, 4, 3)),
    ((777, 1111, 2223, "NT"), (128, 128, 64, 8, 3)),
    ((784, 1111, 2223, "NT"), (32, 128, 256, 4, 3)),   # M even (a multiple of 16)
    ((777, 1120, 2224, "NT"), (32, 128, 256, 4, 3)),   # N, K multiples of 16, M odd
    ((777, 1120, 2224, "NT"), (128, 128, 64, 8, 3)),
]


def one(case):
    import torch
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import tutorial_kernel as tk
    (m, n, k, lay), (bm, bn, bkk, w, s) = case
    p = dict(m=m, n=n, k=k, layout=lay, dtype="bf16", batch=1)
    cfg = dict(block_m=bm, block_n=bn, block_k=bkk, group_m=8, num_warps=w, num_stages=s, split_k=1)
    inst = tk.Instance(p, 0)
    inst.launcher(cfg)()
    torch.cuda.synchronize()
    err = ((inst.out.float() - inst.ref).norm() / inst.ref.norm()).item()
    print(f"ok rel_err {err:.2e}")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        one(eval(sys.argv[1]))
        sys.exit(0)
    env = dict(os.environ, CUDA_LAUNCH_BLOCKING="1")
    for case in CASES:
        r = subprocess.run([sys.executable, __file__, repr(case)], capture_output=True, text=True, env=env, timeout=300)
        last = (r.stdout.strip().splitlines() or [""])[-1]
        if r.returncode:
            errs = [l for l in (r.stderr or "").splitlines() if "Error" in l or "error" in l]
            last = "FAILED: " + (errs[-1] if errs else f"exit {r.returncode}")[:200]
        print(case, last, flush=True)
