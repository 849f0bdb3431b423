#!/usr/bin/env python3
"""Where the time of the `triton` target's kernel goes on the shapes the model misses (issue #12's worst):
the split-K GEMM and its reduction timed apart, and one-step launches with their loads or their store
switched off.

    python3 tools/measure/phase_probe.py --out OUT.csv [--reps 60]      (on the GPU machine)

Two parts, timed as sweep.py times (a 256 MB L2 flush queued before each run, CUDA events around the
launch, the median of --reps runs):

  split   1x130x6868 TT, 1x1280x5120 NT, 1x576x7168 NT bf16 (the split-K shapes of the 262), a few tiles
          each at split 1-64; rows `gemm` (gemm_kernels.matmul_kernel alone, writing its fp32 partials),
          `reduce` (splitk_reduce_kernel alone, the partials left in L2 by an untimed GEMM run after the
          flush, as the pair leaves them) and `both` (the pair, as the sweep times it). What it answers:
          whether a split costs the reduction one loaded L2 latency (the model: split x 4.25 x 0.157 us)
          or the idle one, and how the GEMM part falls with the split.
  phase   one-step launches (K <= BLOCK_K) of the store-bound shapes the model misses (10020x2215x12 NN
          and set m's), the same tile at 2, 4 and 8 warps; a copy of the kernel whose loads and store are
          predicated on runtime flags: `full` (both on: matches the sweep's kernel, timed too as `sweep`),
          `noload` (the loads predicated off: no operand traffic), `nostore` (the store predicated off),
          `neither`. What it answers: whether the 8- and 2-warp tiles' extra time is in their loads, their
          store or neither (data/measurements/README.md, thirty-sixth session: 10-30% over 4 warps).
  epilogue  the same store-bound launches, and twins whose output row stride is a multiple of 16
          elements (Triton then vectorises the store), through three kernels: `sweep` (matmul_kernel,
          SPLIT_K a run-time value), `sweepspec` (the same body with SPLIT_K specialised: the split-K
          store path compiled out) and `full` (the stripped copy above); each row also gives the
          compiled kernel's registers, spills, shared memory and its SASS counts of global stores and
          of all instructions (columns n_regs, n_spills, shared_bytes, sass_stores, sass_instructions).
          What it answers: why the sweep's kernel runs these launches 7-19 us slower than the
          stripped copy (H100 run of the phase part, 2026-12-06), and what an output row stride that
          is not a multiple of 16 costs.

  storecost  what storing an output whose N is not a multiple of 16 costs by itself: twin NT shapes
          whose K is a multiple of 16 (both operands' loads vectorised alike), N = 16q + r against 16q
          (Triton then stores one element an instruction against 8), one-step (K 16), few-step (K 64)
          and long-K (K 512, 768) launches, tiles at 1 to 6 blocks a SM, through the sweep's kernel
          (matmul_kernel, as measured); with the compiled facts of `epilogue`. What it answers: the
          per-element store's cost per tile, whether co-resident blocks hide it, and whether a long
          K loop hides it (issue #12: the store-bound class; data/measurements/README.md).

Columns: part,name,m,n,k,dtype,layout,block_m,block_n,block_k,group_m,num_warps,num_stages,split_k,
variant,median_us,p10_us,p90_us,reps,gpu
"""
import argparse
import csv
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

SPLIT_CASES = [  # (name, m, n, k, layout, configs (block_m, block_n, block_k, num_warps, num_stages), splits)
    ("skinny.1x130x6868.tt", 1, 130, 6868, "TT",
     [(16, 16, 256, 2, 5), (16, 16, 256, 4, 3), (16, 32, 128, 4, 3), (16, 32, 128, 4, 1), (16, 64, 128, 4, 2),
      (16, 32, 256, 4, 1), (16, 16, 128, 2, 3)], (1, 2, 4, 8, 16, 32, 64)),
    ("decode.1x1280x5120.nt", 1, 1280, 5120, "NT",
     [(16, 64, 128, 4, 5), (16, 32, 256, 4, 6), (16, 32, 256, 4, 4), (16, 32, 256, 2, 4), (16, 64, 256, 4, 5),
      (16, 128, 64, 4, 4), (16, 16, 256, 2, 6)],
     (1, 2, 4, 8, 16, 32)),
    ("decode.1x576x7168.nt", 1, 576, 7168, "NT",
     [(16, 32, 128, 4, 6), (16, 32, 256, 4, 6), (16, 64, 128, 4, 4)], (1, 2, 4, 8, 16, 32)),
]
PHASE_CASES = [  # (name, m, n, k, layout, dtype, configs)
    ("store.10020x2215x12.nn", 10020, 2215, 12, "NN", "bf16",
     [(16, 256, 16, 4, 1), (16, 256, 16, 2, 1), (16, 256, 16, 8, 1), (64, 64, 16, 4, 3), (64, 64, 16, 8, 3),
      (64, 64, 16, 2, 3), (64, 128, 16, 4, 3), (64, 128, 16, 8, 3), (64, 128, 16, 2, 3), (128, 256, 16, 8, 3),
      (128, 256, 16, 4, 3), (128, 128, 16, 4, 2), (128, 128, 16, 8, 2), (32, 128, 16, 2, 1), (32, 128, 16, 4, 1)]),
    ("store.10020x2216x12.nn", 10020, 2216, 12, "NN", "bf16",  # the same with 16-byte aligned output rows
     [(16, 256, 16, 4, 1), (64, 64, 16, 4, 3), (64, 128, 16, 4, 3), (64, 128, 16, 8, 3), (64, 128, 16, 2, 3),
      (128, 256, 16, 8, 3)]),
    ("m.3000x777x40.nn", 3000, 777, 40, "NN", "fp16",
     [(64, 128, 64, 8, 3), (64, 128, 64, 4, 3), (64, 128, 16, 4, 3), (64, 64, 64, 4, 3), (64, 64, 64, 8, 3)]),
    ("m.20000x1023x32.nt", 20000, 1023, 32, "NT", "bf16",
     [(64, 128, 32, 2, 3), (64, 128, 32, 4, 3), (64, 128, 32, 8, 3), (64, 64, 32, 4, 3), (64, 64, 32, 2, 3)]),
    ("m.8192x3001x24.nn", 8192, 3001, 24, "NN", "bf16",
     [(128, 64, 32, 4, 3), (128, 64, 32, 8, 3), (64, 64, 32, 4, 3), (64, 128, 32, 4, 3), (64, 128, 32, 8, 3)]),
]
GROUP_M = 8
FLUSH_BYTES = 256 * 1024 * 1024
COLUMNS = ["part", "name", "m", "n", "k", "dtype", "layout", "block_m", "block_n", "block_k", "group_m",
           "num_warps", "num_stages", "split_k", "variant", "median_us", "p10_us", "p90_us", "reps", "gpu",
           "n_regs", "n_spills", "shared_bytes", "sass_stores", "sass_instructions"]
EPILOGUE_CASES = [  # (name, m, n, k, layout, dtype, configs): the phase part's store-bound shapes and twins
    ("store.10020x2215x12.nn", 10020, 2215, 12, "NN", "bf16",
     [(16, 256, 16, 4, 1), (16, 256, 16, 8, 1), (64, 128, 16, 2, 3), (64, 128, 16, 4, 3), (64, 128, 16, 8, 3),
      (128, 256, 16, 8, 3), (128, 128, 16, 4, 2), (64, 64, 16, 4, 3), (32, 128, 16, 4, 1)]),
    ("store.10020x2224x12.nn", 10020, 2224, 12, "NN", "bf16",
     [(16, 256, 16, 4, 1), (16, 256, 16, 8, 1), (64, 128, 16, 2, 3), (64, 128, 16, 4, 3), (64, 128, 16, 8, 3),
      (128, 256, 16, 8, 3), (128, 128, 16, 4, 2), (64, 64, 16, 4, 3), (32, 128, 16, 4, 1)]),
    ("m.20000x1023x32.nt", 20000, 1023, 32, "NT", "bf16",
     [(64, 128, 32, 2, 3), (64, 128, 32, 4, 3), (64, 128, 32, 8, 3), (64, 64, 32, 4, 3), (128, 128, 32, 8, 3)]),
    ("m.20000x1024x32.nt", 20000, 1024, 32, "NT", "bf16",
     [(64, 128, 32, 2, 3), (64, 128, 32, 4, 3), (64, 128, 32, 8, 3), (64, 64, 32, 4, 3), (128, 128, 32, 8, 3)]),
    ("big.4096x4096x4096.nn", 4096, 4096, 4096, "NN", "bf16",  # a compute-bound control
     [(128, 256, 64, 8, 3), (128, 128, 64, 4, 3)]),
]

STORECOST_CASES = [  # (name, m, (misaligned n, aligned twin n), k, configs): NT, bf16
    ("onestep", 10020, (2215, 2224), 16,
     [(16, 256, 16, 4, 1), (16, 256, 16, 8, 1), (32, 128, 16, 4, 1), (64, 64, 16, 4, 3), (64, 128, 16, 2, 3),
      (64, 128, 16, 4, 3), (64, 128, 16, 8, 3), (128, 64, 16, 4, 3), (128, 128, 16, 4, 2), (128, 128, 16, 8, 2),
      (128, 256, 16, 8, 3), (256, 128, 16, 8, 3), (64, 256, 16, 4, 3)]),
    ("fewstep", 2048, (2049, 2048), 64,
     [(128, 128, 64, 4, 3), (128, 256, 64, 8, 3), (64, 128, 64, 4, 3), (64, 64, 64, 4, 3)]),
    ("longk", 4096, (4097, 4096), 512,
     [(128, 128, 32, 8, 4), (64, 128, 32, 4, 3), (128, 256, 64, 8, 3), (128, 128, 64, 4, 3), (64, 64, 64, 4, 3)]),
    ("lmhead", 448, (51865, 51872), 768,
     [(128, 256, 64, 8, 4), (128, 128, 64, 4, 3), (64, 256, 64, 8, 3), (64, 128, 64, 4, 3)]),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--reps", type=int, default=60)
    ap.add_argument("--parts", default="split,phase")
    a = ap.parse_args()
    import torch
    import triton
    import triton.language as tl
    import gemm_kernels as gk
    from sweep import kernel_strides

    @triton.jit(do_not_specialize=["LOAD_ON", "STORE_ON"])
    def phase_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                     stride_cn, LOAD_ON, STORE_ON, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
        # gemm_kernels._matmul_body at batch 1 and split 1, its loads and store predicated on runtime flags
        pid = tl.program_id(0)
        num_pid_m = tl.cdiv(M, BLOCK_M)
        num_pid_n = tl.cdiv(N, BLOCK_N)
        num_pid_in_group = GROUP_M * num_pid_n
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * GROUP_M
        group_size_m = tl.minimum(num_pid_m - first_pid_m, GROUP_M)
        pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
        pid_n = (pid % num_pid_in_group) // group_size_m
        offs_m = tl.max_contiguous(tl.multiple_of(pid_m * BLOCK_M + tl.arange(0, BLOCK_M), BLOCK_M), BLOCK_M)
        offs_n = tl.max_contiguous(tl.multiple_of(pid_n * BLOCK_N + tl.arange(0, BLOCK_N), BLOCK_N), BLOCK_N)
        offs_k = tl.arange(0, BLOCK_K)
        mask_m = (offs_m < M) & (LOAD_ON != 0)
        mask_n = (offs_n < N) & (LOAD_ON != 0)
        a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
        b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for i in range(0, tl.cdiv(K, BLOCK_K)):
            k_rem = K - i * BLOCK_K
            a = tl.load(a_ptrs, mask=mask_m[:, None] & (offs_k[None, :] < k_rem), other=0.0)
            b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_rem) & mask_n[None, :], other=0.0)
            acc = tl.dot(a, b, acc)
            a_ptrs += BLOCK_K * stride_ak
            b_ptrs += BLOCK_K * stride_bk
        mask_c = (offs_m[:, None] < M) & (offs_n[None, :] < N) & (STORE_ON != 0)
        c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
        tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=mask_c)

    gpu = torch.cuda.get_device_name()
    flush = torch.empty(FLUSH_BYTES, dtype=torch.int8, device="cuda")
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(a.reps)]

    def time_us(launch, prepare=None):
        launch()  # warm (the first launch of a kernel can pay a one-off cost)
        torch.cuda.synchronize()
        for s, e in ev:
            flush.zero_()
            if prepare is not None:
                prepare()
            s.record()
            launch()
            e.record()
        torch.cuda.synchronize()
        t = sorted(s.elapsed_time(e) * 1e3 for s, e in ev)
        return statistics.median(t), t[len(t) // 10], t[9 * len(t) // 10], len(t)

    out = open(a.out, "w", newline="")
    w = csv.DictWriter(out, fieldnames=COLUMNS)
    w.writeheader()

    def emit(part, name, m, n, k, dtype, layout, cfg, split, variant, t, facts=None):
        bm, bn, bk, nw, ns = cfg
        w.writerow(dict(part=part, name=name, m=m, n=n, k=k, dtype=dtype, layout=layout, block_m=bm, block_n=bn,
                        block_k=bk, group_m=GROUP_M, num_warps=nw, num_stages=ns, split_k=split, variant=variant,
                        median_us=f"{t[0]:.2f}", p10_us=f"{t[1]:.2f}", p90_us=f"{t[2]:.2f}", reps=t[3], gpu=gpu,
                        **(facts or {})))
        out.flush()
        print(part, name, cfg, split, variant, f"{t[0]:.2f}", facts or "", flush=True)

    def compiled_facts(kern):
        """Registers, spills, shared memory and SASS store/instruction counts of a launch's kernel."""
        facts = dict(n_regs=int(kern.n_regs), n_spills=int(kern.n_spills),
                     shared_bytes=int(getattr(kern.metadata, "shared", 0)))
        try:
            import re
            from resource_probe import sass_of
            sass = sass_of(kern)
            facts["sass_stores"] = len(re.findall(r"\bSTG\S*", sass))
            facts["sass_instructions"] = len(re.findall(r"/\*[0-9a-f]{4,}\*/\s+[A-Z@]", sass))
        except Exception as ex:  # no cuobjdump: the counts stay empty
            print(f"# sass: {type(ex).__name__}: {str(ex)[:120]}", flush=True)
        return facts

    parts = a.parts.split(",")
    if "split" in parts:
        for name, m, n, k, layout, cfgs, splits in SPLIT_CASES:
            (sab, sam, sak), (sbb, sbk, sbn), (scb, scm, scn) = kernel_strides(m, n, k, 1, layout)
            A = torch.randn((m, k) if layout[0] == "N" else (k, m), device="cuda").to(torch.bfloat16)
            B = torch.randn((k, n) if layout[1] == "N" else (n, k), device="cuda").to(torch.bfloat16)
            C = torch.empty((m, n), device="cuda", dtype=torch.bfloat16)
            ws = torch.empty(max(splits) * m * n, device="cuda", dtype=torch.float32)
            for cfg in cfgs:
                bm, bn, bk, nw, ns = cfg
                for sk in splits:
                    if triton.cdiv(k, sk) < bk // 2 and sk > 1:
                        continue  # splits of less than half a K-step: empty ones
                    grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn), 1, sk)
                    rgrid = (triton.cdiv(m * n, gk.REDUCE_BLOCK),)
                    kw = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=GROUP_M, num_warps=nw, num_stages=ns)
                    args = (A, B, C, ws, m, n, k, sab, sam, sak, sbb, sbk, sbn, scb, scm, scn, sk)

                    def gemm(args=args, grid=grid, kw=kw):
                        gk.matmul_kernel[grid](*args, **kw)

                    def reduce(sk=sk, rgrid=rgrid):
                        gk.splitk_reduce_kernel[rgrid](ws, C, m * n, m * n, sk, BLOCK=gk.REDUCE_BLOCK)
                    try:
                        emit("split", name, m, n, k, "bf16", layout, cfg, sk, "gemm", time_us(gemm))
                        if sk > 1:
                            emit("split", name, m, n, k, "bf16", layout, cfg, sk, "reduce", time_us(reduce, gemm))
                            emit("split", name, m, n, k, "bf16", layout, cfg, sk, "both",
                                 time_us(lambda: (gemm(), reduce())))
                    except Exception as ex:  # a config that fails is recorded by its absence, the probe goes on
                        print(f"# {name} {cfg} split {sk}: {type(ex).__name__}: {str(ex)[:200]}", flush=True)
                        torch.cuda.synchronize()
    def one_step_problem(m, n, k, layout, dtype):
        """The strides and operands of a one-launch problem (split 1: a one-element workspace)."""
        dt = {"bf16": torch.bfloat16, "fp16": torch.float16}[dtype]
        strides = kernel_strides(m, n, k, 1, layout)
        A = torch.randn((m, k) if layout[0] == "N" else (k, m), device="cuda").to(dt)
        B = torch.randn((k, n) if layout[1] == "N" else (n, k), device="cuda").to(dt)
        return strides, A, B, torch.empty((m, n), device="cuda", dtype=dt), torch.empty(1, device="cuda")

    def launch_of(m, n, cfg):
        """The 1-D grid and the launch keywords of a config (block_m, block_n, block_k, warps, stages)."""
        bm, bn, bk, nw, ns = cfg
        return ((triton.cdiv(m, bm) * triton.cdiv(n, bn),),
                dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=GROUP_M, num_warps=nw, num_stages=ns))

    if "phase" in parts:
        for name, m, n, k, layout, dtype, cfgs in PHASE_CASES:
            ((sab, sam, sak), (sbb, sbk, sbn), (scb, scm, scn)), A, B, C, ws = one_step_problem(m, n, k, layout, dtype)
            for cfg in cfgs:
                grid, kw = launch_of(m, n, cfg)
                try:
                    emit("phase", name, m, n, k, dtype, layout, cfg, 1, "sweep", time_us(
                        lambda: gk.matmul_kernel[grid + (1,)](A, B, C, ws, m, n, k, sab, sam, sak, sbb, sbk, sbn,
                                                              scb, scm, scn, 1, **kw)))
                    for variant, lo, so in (("full", 1, 1), ("noload", 0, 1), ("nostore", 1, 0), ("neither", 0, 0)):
                        emit("phase", name, m, n, k, dtype, layout, cfg, 1, variant, time_us(
                            lambda lo=lo, so=so: phase_kernel[grid](A, B, C, m, n, k, sam, sak, sbk, sbn, scm, scn,
                                                                    lo, so, **kw)))
                except Exception as ex:
                    print(f"# {name} {cfg}: {type(ex).__name__}: {str(ex)[:200]}", flush=True)
                    torch.cuda.synchronize()
    if "epilogue" in parts:
        spec_kernel = triton.jit(gk._matmul_body)  # SPLIT_K == 1 specialised: the split-K path compiled out
        for name, m, n, k, layout, dtype, cfgs in EPILOGUE_CASES:
            ((sab, sam, sak), (sbb, sbk, sbn), (scb, scm, scn)), A, B, C, ws = one_step_problem(m, n, k, layout, dtype)
            for cfg in cfgs:
                grid, kw = launch_of(m, n, cfg)
                sargs = (A, B, C, ws, m, n, k, sab, sam, sak, sbb, sbk, sbn, scb, scm, scn, 1)
                launches = {
                    "sweep": lambda: gk.matmul_kernel[grid + (1,)](*sargs, **kw),
                    "sweepspec": lambda: spec_kernel[grid + (1,)](*sargs, **kw),
                    "full": lambda: phase_kernel[grid](A, B, C, m, n, k, sam, sak, sbk, sbn, scm, scn, 1, 1, **kw),
                }
                for variant, launch in launches.items():
                    try:
                        facts = compiled_facts(launch())
                        emit("epilogue", name, m, n, k, dtype, layout, cfg, 1, variant, time_us(launch), facts)
                    except Exception as ex:
                        print(f"# {name} {cfg} {variant}: {type(ex).__name__}: {str(ex)[:200]}", flush=True)
                        torch.cuda.synchronize()
    if "storecost" in parts:
        for name, m, twins, k, cfgs in STORECOST_CASES:
            for n in twins:
                ((sab, sam, sak), (sbb, sbk, sbn), (scb, scm, scn)), A, B, C, ws = one_step_problem(m, n, k, "NT",
                                                                                                     "bf16")
                for cfg in cfgs:
                    grid, kw = launch_of(m, n, cfg)
                    sargs = (A, B, C, ws, m, n, k, sab, sam, sak, sbb, sbk, sbn, scb, scm, scn, 1)

                    def launch(sargs=sargs, grid=grid, kw=kw):
                        return gk.matmul_kernel[grid + (1,)](*sargs, **kw)
                    try:
                        facts = compiled_facts(launch())
                        emit("storecost", f"{name}.{m}x{n}x{k}.nt", m, n, k, "bf16", "NT", cfg, 1, "sweep",
                             time_us(launch), facts)
                    except Exception as ex:
                        print(f"# {name} {n} {cfg}: {type(ex).__name__}: {str(ex)[:200]}", flush=True)
                        torch.cuda.synchronize()
    out.close()


if __name__ == "__main__":
    main()
