#!/usr/bin/env python3
"""What a GPU's DRAM and matrix units reach in practice: the two figures behind a profile's
efficiency.dram_bandwidth_fraction and efficiency.matrix_peak_fraction.

    python3 tools/measure/peaks.py --out peaks.csv [--reps 30]

Rows written (one per measurement; columns what, size, bytes, flops, time_s, rate, unit, sm_clock_mhz):
  copy        device-to-device copy (dst.copy_(src)) of 1 and 4 GiB: bytes read + written over the
              median time (the method of the H200 profile's 4.3 TB/s)
  read        a read-only pass: torch.sum of a float32 tensor of 1 and 4 GiB (bytes read over time)
  write       a write-only pass: tensor.fill_ of 1 and 4 GiB
  matmul      torch.matmul on random bf16 and fp16 operands, 4096^3 and 8192^3 (2MNK over time; cuBLAS)
  scaled_mm   torch._scaled_mm e4m3 x e4m3 -> bf16, unit scales, 8192^3 (the fp8 path), if accepted
Each is timed with CUDA events over `--reps` runs after 5 warm-up runs; the median is written. The SM
clock (nvidia-smi clocks.sm) is read right after each matmul, since the dense peaks assume a clock.
Written for this project; the copy method is the one the H200's profile cites.
"""
import argparse
import csv
import statistics
import subprocess

import torch


def sm_clock_mhz():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True, timeout=20).stdout.strip().splitlines()
        return int(out[0]) if out else -1
    except Exception:  # noqa: BLE001 - the clock is context, not a result
        return -1


def write_rows(path, rows):
    """Writes a list of same-keyed dicts as CSV (the header from the first); nothing when empty."""
    if not rows:
        return
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def median_time_s(fn, reps):
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) / 1e3)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--reps", type=int, default=30)
    a = ap.parse_args()
    rows = []

    def add(what, size, nbytes, flops, t, unit, clock=-1):
        rate = (nbytes if unit == "B/s" else flops) / t
        rows.append(dict(what=what, size=size, bytes=nbytes, flops=flops, time_s=f"{t:.6e}",
                         rate=f"{rate:.4e}", unit=unit, sm_clock_mhz=clock))
        print(f"{what:10s} {size:22s} {t * 1e3:9.3f} ms  {rate / 1e12:8.2f} T{unit}  clock {clock}", flush=True)

    for gib in (1, 4):
        n = gib << 30
        src = torch.empty(n, dtype=torch.uint8, device="cuda")
        src.random_(0, 255)
        dst = torch.empty_like(src)
        add("copy", f"{gib} GiB", 2 * n, 0, median_time_s(lambda: dst.copy_(src), a.reps), "B/s")
        f = src.view(torch.float32)
        add("read", f"{gib} GiB", n, 0, median_time_s(lambda: f.sum(), a.reps), "B/s")
        add("write", f"{gib} GiB", n, 0, median_time_s(lambda: dst.fill_(7), a.reps), "B/s")
        del src, dst, f
        torch.cuda.empty_cache()

    for dtype in (torch.bfloat16, torch.float16):
        for s in (4096, 8192):
            x = torch.randn(s, s, dtype=dtype, device="cuda")
            y = torch.randn(s, s, dtype=dtype, device="cuda")
            t = median_time_s(lambda: torch.matmul(x, y), a.reps)
            add("matmul", f"{str(dtype)[6:]} {s}^3 NN", 0, 2 * s ** 3, t, "FLOP/s", sm_clock_mhz())
            del x, y
    s = 8192
    try:
        x = torch.randn(s, s, device="cuda").to(torch.float8_e4m3fn)
        y = torch.randn(s, s, device="cuda").to(torch.float8_e4m3fn).t()   # column-major B, as cuBLASLt needs
        one = torch.ones((), device="cuda")
        t = median_time_s(lambda: torch._scaled_mm(x, y, scale_a=one, scale_b=one, out_dtype=torch.bfloat16),
                          a.reps)
        add("scaled_mm", f"e4m3 {s}^3 NT", 0, 2 * s ** 3, t, "FLOP/s", sm_clock_mhz())
    except Exception as e:  # noqa: BLE001 - reported, the other rows stand
        print(f"scaled_mm: not measured: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")

    write_rows(a.out, rows)


if __name__ == "__main__":
    main()
