#!/usr/bin/env python3
"""Does the model price blocks sharing a CU right? Pairs of configs of one shape with the same tile
(block_m x block_n x block_k) and warps but a different occupancy (blocks per CU, which the stage
count changes through shared memory), each timed on the GPU: for each pair, log(measured ratio) -
log(predicted ratio) of the higher-occupancy config over the lower. 0 everywhere is a model that
prices co-residency right; a negative median says the higher-occupancy configs run faster than the
model predicts against their one-block siblings.

Only GROUP_M 8, split_k 1, bf16, batch 1 rows, and pairs whose higher-occupancy config runs within 2x
of the shape's best. Prints, per (lower, higher) occupancy with at least 8 pairs, the count, mean,
median and quartiles.

Found with it (2026-12-03, Triton 3.6 on our H200): one block per CU against two, a median -0.135
(tutorial kernel, 1441 pairs) and -0.137 (masked kernel, 3934 pairs): the two-block config runs
about 13% faster than predicted against the one-block one, at every K-step count from 4 up.

Usage: tools/occupancy_pairs.py BUILD_DIR KERNEL CSV... (KERNEL: the `kernel` column and target name,
triton or triton-tutorial; BUILD_DIR holds python/gemm_advisor, the bindings)
"""
import collections
import csv
import math
import statistics
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.split("Usage: ")[1])
    sys.path.insert(0, sys.argv[1] + "/python")
    import gemm_advisor  # noqa: E402 (the bindings of the build given)

    kernel, files = sys.argv[2], sys.argv[3:]
    times = collections.defaultdict(dict)  # (m, n, k, layout) -> config -> fastest ms
    for path in files:
        with open(path) as f:
            for r in csv.DictReader(line for line in f if not line.startswith("#")):
                if r.get("kernel", "triton") != kernel or r.get("status", "ok") != "ok" or not r.get("ms"):
                    continue
                if r["dtype"] != "bf16" or r.get("batch", "1") not in ("1", "") or r["group_m"] != "8" or r["split_k"] != "1":
                    continue
                c = "%sx%sx%s:%s:%s" % (r["block_m"], r["block_n"], r["block_k"], r["num_warps"], r["num_stages"])
                shape = times[(r["m"], r["n"], r["k"], r["layout"])]
                shape[c] = min(float(r["ms"]), shape.get(c, math.inf))
    pairs = collections.defaultdict(list)
    for (m, n, k, layout), measured in times.items():
        ranked = gemm_advisor.rank("%sx%sx%s" % (m, n, k), hw="h200", layout=layout, target=kernel,
                                   candidates=[c + ":g8" for c in measured], top=0)
        best = min(measured.values())
        by_tile = collections.defaultdict(list)
        for r in ranked:
            c = "%dx%dx%d:%d:%d" % (r["block_m"], r["block_n"], r["block_k"], r["num_warps"], r["num_stages"])
            if c in measured:
                by_tile[c.rsplit(":", 1)[0]].append((r["terms"]["occupancy"], measured[c], r["latency_s"] * 1e3))
        for configs in by_tile.values():
            for hi in configs:
                for lo in configs:
                    if hi[0] > lo[0] >= 1 and hi[1] < 2 * best:
                        pairs[(lo[0], hi[0])].append(math.log(hi[1] / lo[1]) - math.log(hi[2] / lo[2]))
    print("occupancy lower->higher  pairs   mean  median    p25    p75  (log measured/predicted ratio)")
    for (lo, hi), v in sorted(pairs.items()):
        if len(v) >= 8:
            q = statistics.quantiles(v, n=4)
            print("%9d -> %-9d %6d %6.3f %7.3f %6.3f %6.3f" % (lo, hi, len(v), statistics.mean(v), statistics.median(v), q[0], q[2]))


if __name__ == "__main__":
    main()
