#!/usr/bin/env python3
"""tools/gpu_pairs.py on two hand-made measurement CSVs (no GPU): pairs are matched by shape and
config, grouped by the DRAM use on the second GPU, and what is not a pair (another kernel, a failed
row, a larger M than --max-m) is left out.

Hand calculation for the rows below (1x4096x4096 fp8: A 4096 B + B 16,777,216 B + C 2 x 4096 B =
16,789,504 compulsory bytes): at 0.050 ms on the second GPU that is 0.336 TB/s, 0.07 of 4.8 TB/s
(the band below 0.15); at 0.005 ms 3.36 TB/s, 0.70 (the last band). Ten configs in each band, the
first GPU's times 0.99x and 1.30x of the second's.

Usage: gpu_pairs_test.py   (python3 only)"""
import csv
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "tools", "gpu_pairs.py")
sys.path.insert(0, HERE)
from cli_harness import check, finish  # noqa: E402

HEADER = ["m", "n", "k", "batch", "dtype", "layout", "kernel", "block_m", "block_n", "block_k", "group_m",
          "num_warps", "num_stages", "split_k", "ms", "status"]


def rows(scale_slow, scale_fast, m=1):
    """Twenty configs of one shape: ten at 0.050 ms x scale_slow, ten at 0.005 ms x scale_fast."""
    out = []
    for i in range(10):
        out.append([m, 4096, 4096, 1, "fp8", "NT", "vllm-fp8-block", 16, 16 * (i + 1), 128, 1, 4, 3, 1,
                    f"{0.050 * scale_slow:.6f}", "ok"])
        out.append([m, 4096, 4096, 1, "fp8", "NT", "vllm-fp8-block", 64, 16 * (i + 1), 128, 1, 4, 3, 1,
                    f"{0.005 * scale_fast:.6f}", "ok"])
    return out


def write(path, body):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(HEADER)
        w.writerows(body)


def table(out):
    """{(band, stages): (pairs, median)} from the tool's table."""
    found = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 6 and parts[1].isdigit():
            found[(parts[0], int(parts[1]))] = (int(parts[2]), float(parts[3]))
    return found


if __name__ == "__main__":
    d = tempfile.mkdtemp()
    first, second = os.path.join(d, "first.csv"), os.path.join(d, "second.csv")
    extra_first = [[1, 4096, 4096, 1, "fp8", "NT", "triton", 16, 16, 128, 1, 4, 3, 1, "9.0", "ok"],  # another kernel
                   [1, 4096, 4096, 1, "fp8", "NT", "vllm-fp8-block", 16, 16, 128, 1, 4, 4, 1, "9.0", "compile_error"]]
    extra_second = [[1, 4096, 4096, 1, "fp8", "NT", "triton", 16, 16, 128, 1, 4, 3, 1, "0.05", "ok"],
                    [1, 4096, 4096, 1, "fp8", "NT", "vllm-fp8-block", 16, 16, 128, 1, 4, 4, 1, "0.05", "ok"]]
    write(first, rows(0.99, 1.30) + rows(2.0, 2.0, m=128) + extra_first)
    write(second, rows(1.0, 1.0) + rows(1.0, 1.0, m=128) + extra_second)
    run = subprocess.run([sys.executable, TOOL, first, second], capture_output=True, text=True)
    check("gpu_pairs runs", run.returncode == 0, f"rc {run.returncode}: {run.stderr.strip()}")
    got = table(run.stdout)
    check("latency-bound band: 10 pairs at 0.99x", got.get(("0.15", 3)) == (10, 0.99), got)
    check("busiest band: 10 pairs at 1.30x", got.get(("inf", 3)) == (10, 1.3), got)
    check("only those two groups (the M = 128 rows, the triton rows, the failed row left out)", len(got) == 2, got)
    run = subprocess.run([sys.executable, TOOL, first, second, "--max-m", "128"], capture_output=True, text=True)
    got = table(run.stdout)
    # With M = 128 in: its rows (2.0x) join each band: 20 pairs, the median between 0.99 and 2.0.
    check("--max-m 128 takes the M = 128 pairs too",
          got.get(("0.15", 3), (0, 0))[0] == 20 and got.get(("inf", 3), (0, 0))[0] == 20, got)
    finish()
