#!/usr/bin/env python3
"""Why is the tutorial kernel's 128x256 tile slow in NT? A diagnostic, run once on the device.

The committed data show Triton's tutorial kernel running 128x256x64 (8 warps, 3 stages) 1.05-1.7x
slower than 128x128x64 on aligned NT shapes (both operands K-contiguous), while our masked kernel runs
the same tile as fast or faster (h200-tutorial*.csv against h200-triton-*.csv; compile resources alike,
h200-resource-probe.csv). The two kernels differ in three places; this times each difference alone:

  wrap   row / column offsets wrapped with % M and % N (the tutorial) or not;
  hint   tl.max_contiguous(tl.multiple_of(offsets, BLOCK), BLOCK) on those offsets (our kernel) or not;
  gconst GROUP_SIZE_M a constexpr (our kernel) or a runtime int (the tutorial as measured here);
  mmask  the loads masked on M and N as well as K (our kernel) or on K only (the tutorial).

    python3 tools/measure/nt_probe.py --out DIR

Writes DIR/nt-probe.csv (variant, shape, layout, config, median ms of do_bench, TFLOP/s, registers,
shared bytes) and DIR/*.ttgir of the 128x256 NT binaries of the tutorial and of our kernel.
"""
import argparse
import csv
import os
import sys

import torch
import triton
import triton.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gemm_kernels  # noqa: E402


@triton.jit
def probe_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                 stride_cn, group_rt, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                 WRAP: tl.constexpr, HINT: tl.constexpr, GCONST: tl.constexpr, MMASK: tl.constexpr):
    pid = tl.program_id(axis=0)
    G = GCONST if GCONST > 0 else group_rt
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    per_group = G * tiles_n
    group = pid // per_group
    row0 = group * G
    rows_here = tl.minimum(tiles_m - row0, G)
    local = pid % per_group
    pid_m = row0 + local % rows_here
    pid_n = local // rows_here
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    if WRAP:
        rm = rm % M
        rn = rn % N
    if HINT:
        rm = tl.max_contiguous(tl.multiple_of(rm, BM), BM)
        rn = tl.max_contiguous(tl.multiple_of(rn, BN), BN)
    rk = tl.arange(0, BK)
    a_tile = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_tile = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for kt in range(0, tl.cdiv(K, BK)):
        k_left = K - kt * BK
        if MMASK:
            a = tl.load(a_tile, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
            b = tl.load(b_tile, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        else:
            a = tl.load(a_tile, mask=rk[None, :] < k_left, other=0.0)
            b = tl.load(b_tile, mask=rk[:, None] < k_left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_tile += BK * stride_ak
        b_tile += BK * stride_bk
    c = acc.to(c_ptr.dtype.element_ty)
    cm = pid_m * BM + tl.arange(0, BM)
    cn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + cm[:, None] * stride_cm + cn[None, :] * stride_cn, c,
             mask=(cm[:, None] < M) & (cn[None, :] < N))


VARIANTS = {  # name: (WRAP, HINT, GCONST, MMASK)
    "tutorial": (1, 0, 0, 0),
    "tutorial+hint": (1, 1, 0, 0),
    "tutorial+gconst": (1, 0, 8, 0),
    "nowrap": (0, 0, 0, 0),
    "nowrap+hint": (0, 1, 0, 0),
    "nowrap+hint+gconst+mmask": (0, 1, 8, 1),
}
CONFIGS = [(128, 256, 64, 8, 3), (128, 128, 64, 8, 3), (128, 128, 64, 4, 3), (64, 256, 64, 4, 3),
           (256, 128, 64, 8, 3), (128, 256, 64, 8, 4)]
SHAPES = [(4096, 4096, 4096, "NT"), (3072, 3072, 3072, "NT"), (2048, 5120, 3072, "NT"),
          (4096, 4096, 4096, "NN"), (4096, 4096, 4096, "TN")]


def operands(m, n, k, layout):
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
    if layout[0] == "T":
        a = a.t().contiguous().t()
    if layout[1] == "T":
        b = b.t().contiguous().t()
    return a, b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for m, n, k, lay in SHAPES:
        a, b = operands(m, n, k, lay)
        c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        ref = (a.float() @ b.float())
        for bm, bn, bk, w, s in CONFIGS:
            grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
            runs = {}
            for name, (wrap, hint, gconst, mmask) in VARIANTS.items():
                def fn():
                    return probe_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                                              b.stride(1), c.stride(0), c.stride(1), 8, BM=bm, BN=bn,
                                              BK=bk, WRAP=wrap, HINT=hint, GCONST=gconst, MMASK=mmask,
                                              num_warps=w, num_stages=s)
                kern = fn()
                runs[name] = (fn, kern)
            ws = torch.empty(1, device="cuda", dtype=torch.float32)

            def masked():
                return gemm_kernels.matmul_kernel[(triton.cdiv(m, bm) * triton.cdiv(n, bn), 1, 1)](
                    a, b, c, ws, m, n, k, 0, a.stride(0), a.stride(1), 0, b.stride(0), b.stride(1),
                    0, c.stride(0), c.stride(1), 1, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8,
                    num_warps=w, num_stages=s)
            runs["masked(gemm_kernels)"] = (masked, masked())
            for rep in range(2):  # two interleaved passes: the spread is the noise
                for name, (fn, kern) in runs.items():
                    fn()
                    torch.cuda.synchronize()
                    err = ((c.float() - ref).norm() / ref.norm()).item()
                    ms = triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median")
                    rows.append(dict(variant=name, m=m, n=n, k=k, layout=lay, block_m=bm, block_n=bn,
                                     block_k=bk, num_warps=w, num_stages=s, rep=rep, ms=round(ms, 6),
                                     tflops=round(2 * m * n * k / ms / 1e9, 1), rel_err="%.2e" % err,
                                     n_regs=kern.n_regs, n_spills=kern.n_spills,
                                     shared_bytes=kern.metadata.shared))
                    if rep == 0 and lay == "NT" and (m, n, k) == (4096, 4096, 4096) and (bm, bn) == (128, 256) \
                            and s == 3 and name in ("tutorial", "masked(gemm_kernels)", "nowrap+hint"):
                        tag = name.split("(")[0].replace("+", "_")
                        with open(os.path.join(args.out, tag + ".ttgir"), "w") as f:
                            f.write(kern.asm["ttgir"])
            r = [x for x in rows if (x["m"], x["n"], x["k"], x["layout"], x["block_m"], x["block_n"],
                                     x["num_warps"], x["num_stages"]) == (m, n, k, lay, bm, bn, w, s)]
            print(f"{m}x{n}x{k} {lay} {bm}x{bn}x{bk} w{w} s{s}: " +
                  "  ".join(f"{x['variant']}={x['tflops']}" for x in r if x["rep"] == 1), flush=True)
    with open(os.path.join(args.out, "nt-probe.csv"), "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=list(rows[0]))
        wr.writeheader()
        wr.writerows(rows)


if __name__ == "__main__":
    main()
