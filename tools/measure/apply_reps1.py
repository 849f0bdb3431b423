#!/usr/bin/env python3
"""Writes the timings of a re-time of single-run rows (make_reps1_plan.py's plan, run with harness.py) back into
the measurement files they came from: each listed row's ms, reps, rel_err and status are replaced by the new
run's (a median of up to 10 runs where the config no longer trips the slow-tail rule). Other rows and the
files' line ends are left as they are.

    python3 tools/measure/apply_reps1.py --sources plans/plan-reps1-sources.json --retimed data/measurements/h200-remeasure-reps1.csv
"""
import argparse
import collections
import csv
import io
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import plan_spec as ps  # noqa: E402
PROBLEM = ("kernel", "family", "name", "m", "n", "k", "batch", "dtype", "layout", "experts", "top_k", "gemm")
CONFIG = ("block_m", "block_n", "block_k", "group_m", "num_warps", "num_stages", "split_k")


def norm(key):
    """A row's key with the name dropped where it has no family (the harness names such rows by their shape)."""
    key = list(key)
    if key[1] == "":
        key[2] = ""
    return tuple(key)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sources", required=True)
    ap.add_argument("--retimed", required=True)
    ap.add_argument("--data", default=os.path.join(HERE, "..", "..", "data", "measurements"))
    a = ap.parse_args()
    src = json.load(open(a.sources))
    new = {}
    with open(a.retimed) as f:
        for r in csv.DictReader(f):
            new[norm(tuple(r.get(c) or "" for c in PROBLEM + CONFIG))] = r
    edits = collections.defaultdict(dict)
    for k, locs in src.items():
        key = norm(tuple(json.loads(k)))
        if key not in new:
            raise SystemExit(f"apply_reps1: {a.retimed}: no row for {key}")
        for f, i in locs:
            edits[f][i] = new[key]
    for f, ed in sorted(edits.items()):
        path = os.path.join(a.data, f)
        with ps.open_csv(path) as fh:   # plain or .gz (h200-fp8-block.csv.gz since 2026-12-05)
            raw = fh.read()
        rd = csv.DictReader(io.StringIO(raw))
        rows = list(rd)
        for i, r in ed.items():
            for c in ("ms", "reps", "rel_err", "status"):
                rows[i][c] = r[c]
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=rd.fieldnames, lineterminator="\r\n" if "\r\n" in raw[:4096] else "\n")
        w.writeheader()
        w.writerows(rows)
        if path.endswith(".gz"):
            import gzip
            with gzip.open(path, "wt", newline="") as fh:
                fh.write(buf.getvalue())
        else:
            open(path, "w", newline="").write(buf.getvalue())
        print(f"{f}: {len(ed)} rows")


if __name__ == "__main__":
    main()
