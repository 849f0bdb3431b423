#!/usr/bin/env python3
"""Regression guard on measured accuracy: `evaluate` on the committed H200 sweeps
(data/measurements/h200-triton-bf16.csv and h200-triton-more.csv, 61 shapes) must not fall below
what the model reached when the fitted parameters landed (2026-11-30, second session): geomean
96.8% of oracle, worst shape 84.4%, median top-1 time error 6.3% (README, "Accuracy").
Margins of 0.5 points absorb rounding only.
Usage: accuracy_test.py PATH/TO/gemm-advisor (run from the repo root)."""
import json
import subprocess
import sys

GUARD = {"geomean_pct_of_oracle": 96.3, "worst_pct_of_oracle": 83.9}
MAX_MEDIAN_ERR_PCT = 6.8
FILES = ["data/measurements/h200-triton-bf16.csv", "data/measurements/h200-triton-more.csv"]

out = subprocess.run([sys.argv[1], "evaluate", "--hw", "h200", "--measurements", *FILES, "--format", "json"],
                     capture_output=True, text=True, check=True).stdout
agg = json.loads(out)["aggregate"]
failed = 0
for key, floor in GUARD.items():
    ok = agg[key] >= floor
    failed += not ok
    print(f"{'ok  ' if ok else 'FAIL'} {key} = {agg[key]:.2f} (guard >= {floor})")
ok = agg["median_abs_err_pct"] <= MAX_MEDIAN_ERR_PCT
failed += not ok
print(f"{'ok  ' if ok else 'FAIL'} median_abs_err_pct = {agg['median_abs_err_pct']:.2f} (guard <= {MAX_MEDIAN_ERR_PCT})")
ok = agg["shapes"] == 61
failed += not ok
print(f"{'ok  ' if ok else 'FAIL'} shapes = {agg['shapes']} (the committed sweeps have 45 + 16)")
print(f"{4 - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
