#!/usr/bin/env python3
"""How much of a GEMM's measured time is the measuring protocol: the harness's (a 256 MB L2 flush queued
before each run, CUDA events around the launch, what the model's times are fitted to) against XLA's
(`xla/tools/matmul_perf_table_gen.cc`: two argument sets alternated with no flush, the median kernel
duration its CUPTI kernel tracer records), which made the B200 and H100 figures the cross-vendor tests
compare with (`default_matmul_perf_table.txtpb`).

For the 27 bf16 NN shapes of XLA's table with M, N, K in {1024, 2048, 4096} (and 256^3, 512^3), times
torch.matmul (cuBLAS) four ways and writes one CSV row per (shape, protocol):

  event_flush   the harness's way: flush, then CUDA events around one launch (median)
  kernel_flush  the kernel's own duration (CUPTI, torch.profiler) of the same flushed runs
  event_warm    CUDA events, two argument sets alternated, no flush
  kernel_warm   XLA's way: the kernel durations of those warm, alternated runs (median)

and the same for an empty Triton kernel (shape `empty`). event_flush / kernel_warm is the factor between
a prediction of the harness's time and XLA's figure on this GPU.

    python3 tools/measure/protocol_probe.py --out DIR [--reps 50]     (on the GPU machine; writes DIR/protocol.csv)

Written 2026-12-06 (forty-third session).
"""
import argparse
import csv
import json
import os
import statistics
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--reps", type=int, default=50)
    a = ap.parse_args()
    import torch
    import triton
    from torch.profiler import ProfilerActivity, profile

    @triton.jit
    def empty_kernel(x_ptr):
        pass

    os.makedirs(a.out, exist_ok=True)
    dims = (1024, 2048, 4096)
    shapes = [(256, 256, 256), (512, 512, 512)] + [(m, n, k) for m in dims for n in dims for k in dims]
    flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    x = torch.zeros(16, device="cuda")
    gpu = torch.cuda.get_device_name()

    def kernel_durations_us(run, warm):
        """Median CUPTI duration (us) of the kernels `run` launches, excluding the flush's fill kernel."""
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for i in range(a.reps):
                if not warm:
                    flush.zero_()
                run(i)
            torch.cuda.synchronize()
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "trace.json")
            prof.export_chrome_trace(path)
            with open(path) as f:
                trace = json.load(f)
        durs = [e["dur"] for e in trace.get("traceEvents", [])
                if e.get("cat") == "kernel" and "fill" not in e.get("name", "").lower()
                and "elementwise" not in e.get("name", "").lower()]
        return statistics.median(durs) if durs else float("nan"), len(durs)

    def event_us(run, warm):
        ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(a.reps)]
        for i, (s, e) in enumerate(ev):
            if not warm:
                flush.zero_()
            s.record()
            run(i)
            e.record()
        torch.cuda.synchronize()
        return statistics.median(s.elapsed_time(e) * 1e3 for s, e in ev), a.reps

    rows = []
    cases = [("empty", lambda i: empty_kernel[(1,)](x))]
    for m, n, k in shapes:
        sets = [(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                 torch.randn(k, n, device="cuda", dtype=torch.bfloat16),
                 torch.empty(m, n, device="cuda", dtype=torch.bfloat16)) for _ in range(2)]
        cases.append((f"{m}x{n}x{k}", lambda i, sets=sets: torch.matmul(sets[i % 2][0], sets[i % 2][1],
                                                                       out=sets[i % 2][2])))
    for name, run in cases:
        for i in range(3):
            run(i)
        torch.cuda.synchronize()
        for proto, fn, warm in (("event_flush", event_us, False), ("kernel_flush", kernel_durations_us, False),
                                ("event_warm", event_us, True), ("kernel_warm", kernel_durations_us, True)):
            us, count = fn(run, warm)
            rows.append(dict(gpu=gpu, shape=name, protocol=proto, median_us=round(us, 3), n=count))
        print(name, *[f"{r['protocol']}={r['median_us']}" for r in rows[-4:]], flush=True)
    with open(os.path.join(a.out, "protocol.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
