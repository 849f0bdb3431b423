#!/usr/bin/env python3
"""A plan that tests a model change out of sample: random shapes on which two versions of the advisor
(two profiles, e.g. the shipped one and an overlay holding a parameter's value before a change) pick
different top-1 configs, with each version's top configs and first distinct tiles to be timed.

    python3 tools/measure/make_disagree_plan.py BUILD/apps/gemm-advisor/gemm-advisor \\
        --before BEFORE.yaml --after h200 --count 24 --seed 28 \\
        --shapes-out tools/measure/shapes-h200-NAME.csv -o tools/measure/NAME-plan.csv

The pool: `--pool` random shapes (seeded) of the classes the triton data has: log-uniform M, N, K
(M from 1, N and K from 16, up to 16384), a quarter of them batched (batch 2-64, dims up to 2048),
bf16 mostly, fp16 and fp8 an eighth each, the four layouts alike; with `--pool-kind fp8-block`, vLLM's
block-fp8 linear layers instead (fp8 NT, M from 1 to 4096, N and K multiples of 128 from 512 to 32768). Each is ranked by both versions
(`batch --top T --distinct`); a shape is kept when the two top-1 configs differ, in pool order, until
`--count`. The plan has, per kept shape, each version's first `--distinct` distinct tiles (at the
configs `rank --distinct` lists) and its top `--per` configs (`rank`), each config once, for the
`--kernel` kernel (harness.py's plan format). The shapes file names each shape NAME.i.
"""
import argparse
import csv
import io
import math
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import plan_spec as ps  # noqa: E402

SHAPE_FIELDS = ("m", "n", "k", "batch", "dtype", "layout")


def log_uniform(rng, lo, hi):
    """An integer drawn log-uniformly from [lo, hi]."""
    return int(round(math.exp(rng.uniform(math.log(lo), math.log(hi)))))


def pool(count, seed):
    """`count` random shapes (dicts of SHAPE_FIELDS), reproducible from `seed`."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        batched = rng.random() < 0.25
        top = 2048 if batched else 16384
        u = rng.random()
        dtype = "fp16" if u < 0.125 else "fp8" if u < 0.25 else "bf16"
        out.append({"m": log_uniform(rng, 1, top), "n": log_uniform(rng, 16, top), "k": log_uniform(rng, 16, top),
                    "batch": log_uniform(rng, 2, 64) if batched else 1, "dtype": dtype,
                    "layout": rng.choice(("NN", "NT", "TN", "TT"))})
    return out


def fp8_block_pool(count, seed):
    """`count` random shapes of vLLM's block-fp8 linear layers (dicts of SHAPE_FIELDS): M log-uniform
    from 1 to 4096, N and K log-uniform from 512 to 32768 rounded to the 128-wide scale blocks, fp8 NT
    (the layout the kernel runs: weights K-contiguous), reproducible from `seed`."""
    rng = random.Random(seed)
    return [{"m": log_uniform(rng, 1, 4096), "n": 128 * max(4, round(log_uniform(rng, 512, 32768) / 128)),
             "k": 128 * max(4, round(log_uniform(rng, 512, 32768) / 128)), "batch": 1, "dtype": "fp8",
             "layout": "NT"} for _ in range(count)]


def ranked(binary, hw, target, shapes, top, distinct):
    """Per shape (in order), the configs `batch --top top` lists (with --distinct: distinct tiles
    first), as config tuples."""
    text = ",".join(SHAPE_FIELDS) + "\n" + "".join(",".join(str(s[f]) for f in SHAPE_FIELDS) + "\n" for s in shapes)
    args = [binary, "batch", "-", "--hw", hw, "--target", target, "--top", str(top), "--format", "csv", "-q"]
    res = subprocess.run(args + (["--distinct"] if distinct else []), input=text, capture_output=True, text=True,
                         check=True)
    per_shape = {}
    for r in csv.DictReader(io.StringIO(res.stdout)):
        key = tuple(str(r[f]) for f in SHAPE_FIELDS)
        per_shape.setdefault(key, []).append(ps.config_tuple(ps.parse_config(r)))
    return [per_shape.get(tuple(str(s[f]) for f in SHAPE_FIELDS), []) for s in shapes]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("--before", required=True, help="profile (name or YAML) of the advisor before the change")
    ap.add_argument("--after", required=True, help="profile of the advisor after it")
    ap.add_argument("--target", default="triton")
    ap.add_argument("--kernel", default="triton", help="the plan's kernel column")
    ap.add_argument("--name", default="disagree", help="family and name prefix of the shapes")
    ap.add_argument("--pool", type=int, default=4000)
    ap.add_argument("--pool-kind", choices=("triton", "fp8-block"), default="triton",
                    help="the random shapes' class: the triton data's (default) or vLLM's block-fp8 layers'")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=24)
    ap.add_argument("--per", type=int, default=6, help="each version's top configs to time")
    ap.add_argument("--distinct", type=int, default=5, help="each version's first distinct tiles to time")
    ap.add_argument("--shapes-out", required=True)
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()

    shapes = pool(a.pool, a.seed) if a.pool_kind == "triton" else fp8_block_pool(a.pool, a.seed)
    top_before = ranked(a.binary, a.before, a.target, shapes, a.per, False)
    top_after = ranked(a.binary, a.after, a.target, shapes, a.per, False)
    kept = [i for i, s in enumerate(shapes) if top_before[i] and top_after[i] and top_before[i][0] != top_after[i][0]]
    differ = len(kept)
    kept = kept[:a.count]
    if not kept:
        sys.exit("no shape of the pool has different top-1 configs")
    chosen = [shapes[i] for i in kept]
    dist_before = ranked(a.binary, a.before, a.target, chosen, a.distinct, True)
    dist_after = ranked(a.binary, a.after, a.target, chosen, a.distinct, True)
    with open(a.shapes_out, "w", newline="") as f:
        f.write(f"# The first {len(kept)} of the {differ} of {a.pool} random shapes (seed {a.seed}) whose top-1 differs "
                f"between --before {a.before} and --after {a.after} ({a.target}); make_disagree_plan.py\n")
        w = csv.writer(f)
        w.writerow(("name",) + SHAPE_FIELDS)
        for j, s in enumerate(chosen):
            w.writerow((f"{a.name}.{j}",) + tuple(s[f] for f in SHAPE_FIELDS))
    rows = 0
    with open(a.out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(ps.PLAN_COLUMNS)
        for j, s in enumerate(chosen):
            i = kept[j]
            seen = []
            for c in top_before[i][:1] + top_after[i][:1] + dist_before[j] + dist_after[j] + top_before[i] + top_after[i]:
                if c not in seen:
                    seen.append(c)
            for c in seen:
                w.writerow([a.kernel, a.name, f"{a.name}.{j}", s["m"], s["n"], s["k"], s["batch"], s["dtype"],
                            s["layout"], "", "", ""] + list(c))
                rows += 1
    print(f"{differ} shapes of {a.pool} differ, {len(kept)} kept; {rows} configs in {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
