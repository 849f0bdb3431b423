#!/usr/bin/env python3
"""Do two GPUs run the same config of the same problem in the same time? For every (shape, config)
timed on both (two measurement CSVs of one kernel, plain or .gz), the ratio of the first GPU's time
over the second's, grouped by how hard the config drives DRAM on the second GPU: its compulsory
bytes (A and B once at their input size, C once at 2 bytes an element) over its time, as a fraction
of --dram-bytes-per-s. Prints per group (M <= --max-m only, by default 64: decode and small-batch
layers) and num_stages the count, median and quartiles of the ratio.

A config far below the DRAM rate waits on load latency: if two GPUs' memories had different load
latencies, those rows would show it, whatever their bandwidths.

Found with it (2026-12-07, forty-ninth session; vllm-fp8-block, h100-fp8-block.csv.gz against
h200-fp8-block.csv.gz, Triton 3.6 on both): below 15% of the H200's 4.8 TB/s the H100 runs every
stage count in 0.990-0.995x the H200's time (8,217 pairs, quartiles within 2%), although a pointer
chase reads 343-352 ns on the H100 (h100-chase*.csv) and the H200 profile has 276; from 30% of the
rate up the H100 takes 1.14-1.28x (its 3.35 TB/s against 4.8).

Usage: tools/gpu_pairs.py FIRST.csv[.gz] SECOND.csv[.gz] [--kernel vllm-fp8-block]
           [--dram-bytes-per-s 4.8e12] [--max-m 64]
"""
import argparse
import collections
import csv
import gzip
import statistics

DTYPE_BYTES = {"fp8": 1, "fp16": 2, "bf16": 2, "fp32": 4}


def read_times(path, kernel):
    """{(m, n, k, batch, dtype, layout, config...): fastest ms} of one CSV's ok rows of `kernel`."""
    opener = gzip.open if path.endswith(".gz") else open
    times = {}
    with opener(path, "rt") as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            if r.get("kernel") != kernel or r.get("status", "ok") != "ok":
                continue
            key = (int(r["m"]), int(r["n"]), int(r["k"]), int(r.get("batch") or 1), r.get("dtype") or "bf16",
                   r.get("layout") or "NN", r["block_m"], r["block_n"], r["block_k"], r.get("group_m", ""),
                   r["num_warps"], r["num_stages"], r.get("split_k") or "1")
            times[key] = min(times.get(key, float("inf")), float(r["ms"]))
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("first")
    ap.add_argument("second")
    ap.add_argument("--kernel", default="vllm-fp8-block")
    ap.add_argument("--dram-bytes-per-s", type=float, default=4.8e12, help="the second GPU's DRAM rate")
    ap.add_argument("--max-m", type=int, default=64)
    a = ap.parse_args()
    first, second = read_times(a.first, a.kernel), read_times(a.second, a.kernel)
    groups = collections.defaultdict(list)
    for key in first.keys() & second.keys():
        m, n, k, batch, dtype = key[:5]
        if m > a.max_m:
            continue
        size = DTYPE_BYTES.get(dtype, 2)
        compulsory_bytes = batch * (size * (m * k + n * k) + 2 * m * n)
        fraction = compulsory_bytes / (second[key] * 1e-3) / a.dram_bytes_per_s
        band = next(b for b in (0.15, 0.3, 0.5, float("inf")) if fraction < b)
        groups[(band, int(key[11]))].append(first[key] / second[key])
    print(f"{a.kernel}, M <= {a.max_m}: time on {a.first} over time on {a.second}, same shape and config")
    print("DRAM use below  stages   pairs  median     p25     p75")
    for (band, stages), ratios in sorted(groups.items()):
        if len(ratios) < 10:
            continue
        q = statistics.quantiles(ratios, n=4)
        print(f"{band:>14} {stages:>7} {len(ratios):>7} {statistics.median(ratios):7.3f} {q[0]:7.3f} {q[2]:7.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
