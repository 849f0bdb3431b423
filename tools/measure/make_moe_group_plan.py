#!/usr/bin/env python3
"""The plan that measures GROUP_SIZE_M on the fused-MoE kernel's best tiles (plans/plan-moe-groups.csv).

The first run (plan-moe.csv) samples 80 of the tuner space per 16-bit problem, so a tile is rarely
timed at more than one GROUP_SIZE_M, and a fit on it cannot see the grouped raster's effect (which
matters where a wave's weight columns no longer fit the L2: Mixtral-8x7B at prefill M runs 128x256
tiles 12-19% faster with GROUP_SIZE_M 16-64 than with 1). For each 16-bit model of
make_plans.MOE_MODELS, each of vLLM's 18 M and both GEMMs, this plan times the advisor's first
DISTINCT distinct (BLOCK_SIZE_M, N, K, num_warps, num_stages) of the layer ranking, each at every
GROUP_SIZE_M of the tuner space (1, 16, 32, 64). Pure Python apart from the ranking calls.

    python3 tools/measure/make_moe_group_plan.py BUILD/apps/gemm-advisor/gemm-advisor [--distinct 6]

Run it with `bash run_targets.sh moe-check plan-moe-groups`.

--tiles counts distinct tiles (BLOCK_SIZE_M, N, K) instead, each at its best-ranked num_warps and
num_stages; --groups 1,32 times fewer GROUP_SIZE_M values; --with-fp8 adds the block-fp8 models (the
DeepSeek-V3 layers of MOE_MODELS and MOE_FP8_MODELS); --out names the plan. `--tiles --distinct 8
--groups 1,32 --with-fp8` makes the "top tiles" plan (6336 rows, about 90 s of device time): what the
current model ranks first, timed, so that a refit sees the configs it over-rates (the 16-bit files'
misses are mostly BLOCK_SIZE_N 256 x BLOCK_SIZE_K 64 at decode M: README "Accuracy"). Run 2026-12-01: data/measurements/h200-fused-moe-tiles*.csv.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_plans  # noqa: E402
import plan_spec as ps  # noqa: E402

GROUPS = (1, 16, 32, 64)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("--distinct", type=int, default=6)
    ap.add_argument("--tiles", action="store_true", help="distinct (BLOCK_SIZE_M, N, K), not whole configs")
    ap.add_argument("--groups", default=",".join(map(str, GROUPS)))
    ap.add_argument("--with-fp8", action="store_true")
    ap.add_argument("--out", default=os.path.join(HERE, "plans", "plan-moe-groups.csv"))
    a = ap.parse_args()
    groups = [int(g) for g in a.groups.split(",")]
    problems = []
    for family, e, topk, h, inter, tp, dt in make_plans.MOE_MODELS + (make_plans.MOE_FP8_MODELS if a.with_fp8 else []):
        if dt == "fp8" and not a.with_fp8:
            continue
        n_rank = inter // tp
        for m in make_plans.MOE_M:
            out = subprocess.run([a.binary, "rank", str(m), "--target", "vllm-fused-moe", "--hw", "h200", "--experts",
                                  str(e), "--top-k", str(topk), "--hidden", str(h), "--intermediate", str(inter),
                                  "--tp", str(tp), "--dtype", "fp8_w8a8" if dt == "fp8" else dt, "--routing", "tuner",
                                  "--top", "400", "--format", "json"]
                                 + (["--block-shape", "128x128"] if dt == "fp8" else []),
                                 capture_output=True, text=True, check=True).stdout
            tiles, keys = [], []
            for c in json.loads(out)["configs"]:
                t = (c["block_m"], c["block_n"], c["block_k"], c["num_warps"], c["num_stages"])
                key = t[:3] if a.tiles else t
                if key not in keys:
                    keys.append(key)
                    tiles.append(t)
                if len(tiles) == a.distinct:
                    break
            cfgs = [dict(block_m=bm, block_n=bn, block_k=bk, group_m=g, num_warps=w, num_stages=s, split_k=1)
                    for bm, bn, bk, w, s in tiles for g in groups]
            for gemm, n, k in (("up", 2 * n_rank, h), ("down", h, n_rank)):
                problems.append((make_plans.problem("vllm-fused-moe", family, f"tp{tp}.m{m}", m, n, k, dt, "NT", e,
                                                    topk, gemm), cfgs))
    ps.write_plan(a.out, problems)
    print(f"{a.out}: {len(problems)} problems, {sum(len(c) for _, c in problems)} rows")


if __name__ == "__main__":
    main()
