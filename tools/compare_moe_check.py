#!/usr/bin/env python3
"""Scores gemm-advisor's fused-MoE config files against the configs timed with them on the GPU.

    tools/compare_moe_check.py [--same-run] [--min-of-runs] CHECK.csv[,MORE.csv...] FIRST.csv[,FIRST2.csv] DIR[=LABEL] ...

CHECK.csv is a run of plans/plan-moe-check.csv (tools/measure/make_moe_check_plan.py: the files'
configs, the first run's layer best, vLLM's default and its shipped tuned config, timed together);
FIRST.csv the first run (data/measurements/h200-fused-moe.csv, 80-100 sampled configs per problem);
each DIR the files `batch --target vllm-fused-moe --emit vllm --out DIR` wrote for
examples/moe-models.csv. A layer's time is up + down with one config, as vLLM runs them. The best
measured layer config of a (model, M) is the fastest of both runs; % of best = that time / the
config's time (with --same-run: the fastest of the CHECK run alone, which re-times the first run's
best, so that the session's clock and thermal state cancel; with --min-of-runs, CHECK,MORE... are
repeated runs of the same plan and each config's time is its fastest over them, which drops the
single slow runs of one run). Prints per model and overall the geomean and worst for each file set, vLLM's default
and, where vLLM ships an H200 file for the (E, N, dtype), vLLM's tuned config.
"""
import csv
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "measure"))
import make_plans  # noqa: E402
import plan_spec as ps  # noqa: E402

KEYS = ("block_m", "block_n", "block_k", "group_m", "num_warps", "num_stages")
VLLM_KEYS = ("BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M", "num_warps", "num_stages")


def layer_times(path):
    t = {}
    for r in csv.DictReader(open(path)):
        if r["kernel"] != "vllm-fused-moe" or r["status"] != "ok":
            continue
        c = tuple(int(r[k]) for k in KEYS)
        t.setdefault((r["family"], r["name"]), {}).setdefault(c, {})[r["gemm"]] = float(r["ms"])
    return {k: {c: v["up"] + v["down"] for c, v in d.items() if "up" in v and "down" in v} for k, d in t.items()}


def geo(xs):
    return 100 * math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main(argv):
    same_run = "--same-run" in argv
    min_of_runs = "--min-of-runs" in argv
    argv = [a for a in argv if a not in ("--same-run", "--min-of-runs")]
    if len(argv) < 3:
        raise SystemExit(__doc__)
    # CHECK: the run of the files' configs (its times score them); MORE: other runs, whose layer times
    # only join the best measured.
    check_files = argv[0].split(",")
    check, first = layer_times(check_files[0]), {}
    for path in argv[1].split(","):  # FIRST[,FIRST_FP8]: the first runs
        for key, d in layer_times(path).items():
            first.setdefault(key, {}).update(d)
    for more in check_files[1:]:
        for key, d in layer_times(more).items():
            if min_of_runs:  # a repeat of the same plan: each config's fastest run
                for c, t in d.items():
                    check.setdefault(key, {})[c] = min(t, check.get(key, {}).get(c, t))
            else:
                first.setdefault(key + ("more",), {}).update(d)
    sets = [(a.split("=", 1) + [os.path.basename(a)])[:2] for a in argv[2:]]
    tuned = make_plans.load_moe_tuned()
    cols = [label for _d, label in sets] + ["vLLM default", "vLLM tuned H200"]
    score = {c: {} for c in cols}
    models = [m for m in make_plans.MOE_MODELS + make_plans.MOE_FP8_MODELS
              if any(k[0] == m[0] for k in check)]  # the models the check run measured
    for family, e, topk, h, inter, tp, dt in models:
        n = inter // tp
        sel = ",dtype=fp8_w8a8,block_shape=[128,128]" if dt == "fp8" else ""
        files = {label: json.load(open(os.path.join(d, f"E={e},N={n},device_name=NVIDIA_H200{sel}.json")))
                 for d, label in sets}
        for m in make_plans.MOE_M:
            key = (family, f"tp{tp}.m{m}")
            here = check.get(key, {})
            best = min(list(here.values()) + ([] if same_run else list(first.get(key, {}).values()) +
                                               list(first.get(key + ("more",), {}).values())))
            picks = {label: tuple(int(files[label][str(m)][k]) for k in VLLM_KEYS) for _d, label in sets}
            d = ps.moe_default_config(m, e, n, h, topk, "fp8_w8a8" if dt == "fp8" else None,
                                      [128, 128] if dt == "fp8" else None)
            picks["vLLM default"] = tuple(d[k] for k in KEYS)
            c = make_plans.tuned_moe_config(tuned.get((e, n, dt), []), m, dt)
            if c is not None:
                picks["vLLM tuned H200"] = tuple(int(c[k]) for k in KEYS)
            for label, c in picks.items():
                if c in here:
                    score[label].setdefault(family, []).append(best / here[c])
    print(f"{'model':<18}" + "".join(f"{c:>22}" for c in cols))
    for family, *_ in models:
        cells = []
        for c in cols:
            xs = score[c].get(family, [])
            cells.append(f"{geo(xs):6.1f}% / {100 * min(xs):5.1f}% ({len(xs):2d})" if xs else f"{'-':>22}")
        print(f"{family:<18}" + "".join(f"{x:>22}" for x in cells))
    groups = [("all", [m[0] for m in models])]
    six = [m[0] for m in make_plans.MOE_MODELS]
    if any(m[0] not in six for m in models):  # the block-fp8 models too: subtotals
        groups += [("moe-models.csv", [f for f in groups[0][1] if f in six]),
                   ("moe-fp8-models", [f for f in groups[0][1] if f not in six]),
                   ("all block fp8", [m[0] for m in models if m[6] == "fp8"])]
    for label, fams in groups:
        cells = []
        for c in cols:
            xs = [x for f in fams for x in score[c].get(f, [])]
            cells.append(f"{geo(xs):6.2f}% / {100 * min(xs):5.1f}% ({len(xs):3d})" if xs else "-")
        print(f"{label:<18}" + "".join(f"{x:>22}" for x in cells))
    print("cells: geomean / worst % of the best measured layer time per (model, M) (count of M values)")


if __name__ == "__main__":
    main(sys.argv[1:])
