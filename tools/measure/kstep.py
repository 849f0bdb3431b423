#!/usr/bin/env python3
"""Per-K-step cost of one tile config with one thread block per SM (the quantity the model's
compute_step_s / memory_step_s predict): for each config, a problem of exactly 132 output tiles
(M = 12 BLOCK_M, N = 11 BLOCK_N) is timed at two depths K1 < K2; the slope
(t(K2) - t(K1)) / ((K2 - K1) / BLOCK_K) is the time of one K-step, free of launch, prefetch and store.
Prints CSV rows `layout,block_m,block_n,block_k,num_warps,num_stages,k1,k2,ms1,ms2,step_ns,step_cycles_1980`.
Usage: python3 tools/measure/kstep.py   (on the GPU machine)"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

CONFIGS = [  # BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages
    (16, 16, 256, 2, 6), (16, 32, 256, 2, 6), (16, 64, 128, 4, 6), (32, 64, 128, 4, 4), (64, 64, 64, 4, 4),
    (64, 64, 128, 4, 5), (64, 128, 64, 4, 4), (128, 128, 32, 4, 4), (128, 128, 64, 8, 3), (128, 128, 128, 8, 3),
    (128, 256, 32, 8, 5), (128, 256, 64, 8, 4), (128, 256, 64, 8, 3), (256, 128, 32, 8, 5)]
K1, K2 = 2048, 8192


def main():
    import torch
    import gemm_kernels as gk
    from sweep import kernel_strides
    flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(10)]
    print("layout,block_m,block_n,block_k,num_warps,num_stages,k1,k2,ms1,ms2,step_ns,step_cycles_1980")
    for layout in ("NN", "NT"):
        for bm, bn, bk, w, s in CONFIGS:
            m, n = 12 * bm, 11 * bn
            ms = []
            for k in (K1, K2):
                (sab, sam, sak), (sbb, sbk, sbn), (scb, scm, scn) = kernel_strides(m, n, k, 1, layout)
                a = torch.randn((m, k) if layout[0] == "N" else (k, m), device="cuda", dtype=torch.bfloat16)
                b = torch.randn((k, n) if layout[1] == "N" else (n, k), device="cuda", dtype=torch.bfloat16)
                c = torch.empty((m, n), device="cuda", dtype=torch.bfloat16)
                grid = (132, 1, 1)
                args = (a, b, c, c, m, n, k, sab, sam, sak, sbb, sbk, sbn, scb, scm, scn, 1)
                kw = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, num_warps=w, num_stages=s)
                gk.matmul_kernel[grid](*args, **kw)
                for st, en in ev:
                    flush.zero_()
                    st.record()
                    gk.matmul_kernel[grid](*args, **kw)
                    en.record()
                torch.cuda.synchronize()
                ms.append(statistics.median(st.elapsed_time(en) for st, en in ev))
            step_s = (ms[1] - ms[0]) * 1e-3 / ((K2 - K1) / bk)
            print(f"{layout},{bm},{bn},{bk},{w},{s},{K1},{K2},{ms[0]:.5f},{ms[1]:.5f},{step_s * 1e9:.1f},"
                  f"{step_s * 1.98e9:.0f}", flush=True)


if __name__ == "__main__":
    main()
