"""The plan that checks gemm-advisor's fused-MoE config files on the GPU (plans/plan-moe-check.csv).

For each problem of plans/plan-moe.csv (6 models x 18 M x the up and down GEMMs) it lists, to be timed
in one run:
  * the config of each emitted file (`gemm-advisor batch examples/moe-models.csv --target vllm-fused-moe
    --hw h200 --emit vllm --out DIR`, once per routing: DIRS are given as ROUTING=DIR), for that M;
  * the layer's best config in the first run's measurements (data/measurements/h200-fused-moe.csv:
    the config with the least up + down time), as the same-run anchor of "the best measured", and
    the layer's best in each later run of the advisor's top configs (h200-fused-moe-groups.csv,
    h200-fused-moe-tiles.csv, -tiles-fp8.csv), where that is another config;
  * vLLM's default config (plan_spec.moe_default_config);
  * vLLM's shipped H200 tuned config for the nearest M, where vLLM ships a file for the (E, N, dtype)
    (../shared/ref/public/vllm_fused_moe_configs.csv, as make_plans.load_moe_tuned reads it).
Duplicates are kept once. Pure Python.

    python3 tools/measure/make_moe_check_plan.py [--out NAME] [--with-fp8] tuner=/tmp/emit-tuner uniform=/tmp/emit-uniform

--with-fp8 adds the block-fp8 models of make_plans.MOE_FP8_MODELS (examples/moe-fp8-models.csv: their
files must be in the same DIRS; their first run is data/measurements/h200-fused-moe-fp8.csv).

NAME (default plan-moe-check) names plans/NAME.csv; run it with `bash run_targets.sh moe-check [NAME]`.
"""
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import plan_spec as ps  # noqa: E402
import make_plans  # noqa: E402
sys.path.insert(0, os.path.dirname(HERE))
from compare_moe_check import layer_times  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
FIRST = os.path.join(ROOT, "data", "measurements", "h200-fused-moe.csv")
# The first run of the block-fp8 models of make_plans.MOE_FP8_MODELS (checked with --with-fp8).
FIRST_FP8 = os.path.join(ROOT, "data", "measurements", "h200-fused-moe-fp8.csv")
# Later runs of the advisor's own top configs: each one's layer best joins the anchors.
LATER = [os.path.join(ROOT, "data", "measurements", f"h200-fused-moe-{n}.csv") for n in ("groups", "tiles", "tiles-fp8")]
KEYS = ("block_m", "block_n", "block_k", "group_m", "num_warps", "num_stages")
VLLM_KEYS = ("BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M", "num_warps", "num_stages")


def file_name(e, n, dt):
    sel = ",dtype=fp8_w8a8,block_shape=[128,128]" if dt == "fp8" else ""
    return f"E={e},N={n},device_name=NVIDIA_H200{sel}.json"


def main(argv):
    name_out = "plan-moe-check"
    if argv[:1] == ["--out"]:
        name_out, argv = argv[1], argv[2:]
    with_fp8 = "--with-fp8" in argv
    argv = [a for a in argv if a != "--with-fp8"]
    dirs = [a.split("=", 1) for a in argv]
    if not dirs or any(len(d) != 2 for d in dirs):
        raise SystemExit(__doc__)
    # the layer bests of the first run and of each later run (compare_moe_check.layer_times: each
    # layer config's up + down time)
    def layer_bests(paths):
        times = {}
        for path in paths:
            for key, d in layer_times(path).items():
                times.setdefault(key, {}).update(d)
        return {k: min((t, c) for c, t in d.items())[1] for k, d in times.items() if d}

    best = layer_bests([FIRST, FIRST_FP8] if with_fp8 else [FIRST])
    later = [layer_bests([p]) for p in LATER if os.path.exists(p)]
    tuned = make_plans.load_moe_tuned()
    rows = []
    for family, e, topk, h, inter, tp, dt in make_plans.MOE_MODELS + (make_plans.MOE_FP8_MODELS if with_fp8 else []):
        n_rank = inter // tp
        emitted = {name: json.load(open(os.path.join(d, file_name(e, n_rank, dt)))) for name, d in dirs}
        for m in make_plans.MOE_M:
            name = f"tp{tp}.m{m}"
            d = ps.moe_default_config(m, e, n_rank, h, topk, "fp8_w8a8" if dt == "fp8" else None,
                                      [128, 128] if dt == "fp8" else None)
            cfgs = [tuple(int(emitted[nm][str(m)][k]) for k in VLLM_KEYS) for nm, _ in dirs]
            cfgs += [best[(family, name)], tuple(d[k] for k in KEYS)]
            cfgs += [b[(family, name)] for b in later if (family, name) in b]
            c = make_plans.tuned_moe_config(tuned.get((e, n_rank, dt), []), m, dt)
            if c is not None:
                cfgs.append(tuple(int(c[k]) for k in KEYS))
            seen = []
            for c in cfgs:
                if c not in seen:
                    seen.append(c)
            for gemm, n, k in (("up", 2 * n_rank, h), ("down", h, n_rank)):
                for c in seen:
                    rows.append(dict(kernel="vllm-fused-moe", family=family, name=name, m=m, n=n, k=k, batch=1,
                                     dtype=dt, layout="NT", experts=e, top_k=topk, gemm=gemm,
                                     **dict(zip(KEYS, c)), split_k=1))
    out = os.path.join(HERE, "plans", name_out + ".csv")
    cols = ["kernel", "family", "name", "m", "n", "k", "batch", "dtype", "layout", "experts", "top_k", "gemm",
            *KEYS, "split_k"]
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        w.writerows(rows)
    print(f"{out}: {len(rows)} rows")


if __name__ == "__main__":
    main(sys.argv[1:])
