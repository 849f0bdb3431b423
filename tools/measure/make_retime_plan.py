#!/usr/bin/env python3
"""A plan that times again, for every shape of a measurement CSV, its fastest configs and the advisor's
top picks among the measured ones: a second run of the same rows, so that `evaluate` (which takes each
config at its fastest of the files it is given) sees fewer single slow runs, for every shape alike.

    python3 tools/measure/make_retime_plan.py BUILD/apps/gemm-advisor/gemm-advisor \\
        --measurements data/measurements/h200-tutorial-b.csv --target triton-tutorial --per 8 \\
        [--measurements ... --per 5 ...] -o tools/measure/plans/plan-retime-tut.csv

For each shape (M, N, K, batch, dtype, layout): the `per` fastest ok rows and the advisor's top `per`
(`rank --candidates` over the shape's measured configs, --hw h200), with `--distinct N` also the
advisor's first N distinct tiles (`rank --distinct`), each once. The plan keeps the rows' own columns (harness.py's
plan format). `h200-tutorial-retime.csv` was timed from the plan this wrote at commit 2093fc9:
--per 8 over h200-tutorial-b.csv and --per 5 over h200-tutorial.csv, in that order.
"""
import argparse
import collections
import csv
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import plan_spec as ps  # noqa: E402

def config_key(r):
    """The config of a measurement row (plan_spec's defaults for missing columns), as a tuple."""
    return ps.config_tuple(ps.parse_config(r))


def advisor_top(binary, target, rows, per, distinct, hw="h200"):
    """The advisor's top `per` (`rank --candidates` over the shape's measured configs, on profile `hw`; with
    `distinct`, `rank --distinct`: distinct tiles first), as config tuples."""
    first = rows[0]
    shape = f"{first['m']}x{first['n']}x{first['k']}"
    if first.get("batch", "1") not in ("", "1"):
        shape += f"x{first['batch']}"
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as tf:
        tf.write(",".join(ps.CONFIG_FIELDS) + "\n")
        for r in rows:
            tf.write(",".join(map(str, config_key(r))) + "\n")
    try:
        res = subprocess.run([binary, "rank", shape, "--hw", hw, "--target", target, "--layout", first["layout"],
                              "--dtype", first["dtype"], "--candidates", tf.name, "--top", str(per), "--format",
                              "json"] + (["--distinct"] if distinct else []),
                             capture_output=True, text=True, check=True)
    finally:
        os.unlink(tf.name)
    return [ps.config_tuple(c) for c in json.loads(res.stdout)["configs"]]


def picks(binary, target, rows, per, distinct=0, hw="h200", sample=0, seed=0):
    """The `per` fastest rows, the advisor's top `per` among them (ranked on profile `hw`), where
    `distinct` > 0 its first `distinct` distinct tiles, and where `sample` > 0 a seeded random `sample`
    of the shape's other rows (so that a re-time on another GPU does not look for its best only among
    this GPU's fastest), in that order, each once."""
    out = {}
    for r in sorted(rows, key=lambda r: float(r["ms"]))[:per]:
        out.setdefault(config_key(r), r)
    by_key = {config_key(r): r for r in rows}
    tops = advisor_top(binary, target, rows, per, False, hw)
    if distinct > 0:
        tops += advisor_top(binary, target, rows, distinct, True, hw)
    for k in tops:
        if k in by_key:
            out.setdefault(k, by_key[k])
    if sample > 0:
        rest = sorted(k for k in by_key if k not in out)
        for k in random.Random(seed).sample(rest, min(sample, len(rest))):
            out[k] = by_key[k]
    return list(out.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--measurements", action="append", required=True)
    ap.add_argument("--per", action="append", type=int, required=True, help="one per --measurements")
    ap.add_argument("--distinct", type=int, default=0,
                    help="also the advisor's first N distinct tiles (rank --distinct), for top-k distinct scores")
    ap.add_argument("--target", default="triton-tutorial")
    ap.add_argument("--hw", default="h200", help="the profile whose top picks are added (default h200)")
    ap.add_argument("--random", type=int, default=0,
                    help="also a seeded random N of each shape's other measured configs (seed --seed)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    if len(a.per) != len(a.measurements):
        ap.error("give one --per for each --measurements")
    plan = []
    for path, per in zip(a.measurements, a.per):
        shapes = collections.OrderedDict()
        with ps.open_csv(path) as f:   # plain or .gz
            for r in csv.DictReader(f):
                if r["kernel"] == a.target and r["status"] == "ok":
                    shapes.setdefault((r["m"], r["n"], r["k"], r.get("batch", "1"), r["dtype"], r["layout"]),
                                      []).append(r)
        for rows in shapes.values():
            plan.extend(picks(a.binary, a.target, rows, per, a.distinct, a.hw, a.random, a.seed))
    with open(a.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=ps.PLAN_COLUMNS, extrasaction="ignore")
        w.writeheader()
        w.writerows(plan)
    print(f"{len(plan)} rows -> {a.out}")


if __name__ == "__main__":
    main()
