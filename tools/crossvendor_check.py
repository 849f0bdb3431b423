#!/usr/bin/env python3
"""Compares the advisor's best-config prediction with public vendor-library measurements in
../shared/ref (read in place, never copied): XLA's GEMM table (cuBLAS on B200 and H100, bf16, batch 1)
and ROCm aiter's tuned bf16 GEMMs (gfx950 = MI350X/MI355X; compared on mi355x). A fixed random
sample of 25 shapes per GPU; prints each shape and how many land within +-25%.
These are the numbers in README, "Accuracy, measured" (known gaps).
Usage: tools/crossvendor_check.py BIN [REF_DIR]   (run from the repo root)"""
import csv
import json
import random
import subprocess
import sys

BIN = sys.argv[1]
REF = sys.argv[2] if len(sys.argv) > 2 else "../shared/ref/"


def predicted_tflops(hw, m, n, k):
    out = subprocess.run([BIN, "rank", f"{m}x{n}x{k}", "--hw", hw, "--top", "1", "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    c = json.loads(out)["configs"][0]
    return c["tflops"], c


points = []
for r in csv.DictReader(open(REF + "/xla-gemm-perf-b200-h100.csv")):
    if r["dtype"] == "bf16xbf16->bf16" and r["b"] == "1":
        hw = "b200" if "B200" in r["device"] else "h100"
        points.append((hw, int(r["m"]), int(r["n"]), int(r["k"]), float(r["flops_per_s"]) / 1e12))
for r in csv.DictReader(open(REF + "/aiter-bf16-tuned-gemm.csv")):
    if r["gfx"] == "gfx950":
        points.append(("mi355x", int(r["M"]), int(r["N"]), int(r["K"]), float(r["tflops"])))
random.seed(1)
by_hw = {}
for p in points:
    by_hw.setdefault(p[0], []).append(p)
for hw, pts in by_hw.items():
    sample = random.sample(pts, min(25, len(pts)))
    within = 0
    for (_, m, n, k, measured) in sorted(sample, key=lambda x: x[1] * x[2] * x[3]):
        pred, c = predicted_tflops(hw, m, n, k)
        ratio = pred / measured
        within += 0.75 <= ratio <= 1.25
        print(f"{hw} {m}x{n}x{k}: measured {measured:.1f} TFLOP/s, predicted {pred:.1f} ({ratio:.2f}x) "
              f"{c['block_m']}x{c['block_n']}x{c['block_k']}:{c['num_warps']}:{c['num_stages']} {c['bound']}")
    print(f"{hw}: {within} of {len(sample)} within +-25%")
