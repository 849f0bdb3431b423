#!/usr/bin/env python3
"""A plan that times again every single-run row (reps = 1) of the committed measurement files whose time is
within 0.2 ms of its problem's best: the rows a one-off stall of the first timed run could have pushed past
the harness's 8x slow-tail rule (data/measurements/README.md, "Single-run rows re-timed").

    python3 tools/measure/make_reps1_plan.py [-o tools/measure/plans/plan-reps1.csv] [--sources SRC.json]

Writes the plan (harness.py's format, each config once) and a JSON map from each planned row's problem and
config to the (file, row index) pairs it came from, which tools/measure/apply_reps1.py uses to write the
new timings back. Pure Python (no GPU)."""
import argparse, csv, collections, glob, json, os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import plan_spec as ps  # noqa: E402
ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("-o", "--out", default=os.path.join(HERE, "plans", "plan-reps1.csv"))
ap.add_argument("--sources", default=os.path.join(HERE, "plans", "plan-reps1-sources.json"))
a = ap.parse_args()
D = os.path.join(HERE, "..", "..", "data", "measurements") + os.sep
files = sorted(f for f in glob.glob(D + 'h200-*.csv') + glob.glob(D + 'h200-*.csv.gz') if os.path.basename(f) != 'h200-triton-families.csv')
plan = []; seen = set(); src = collections.defaultdict(list)
PK = ('kernel','family','name','m','n','k','batch','dtype','layout','experts','top_k','gemm')
def pkey(r): return tuple((r.get(c) or '') for c in PK)
for f in files:
    with ps.open_csv(f) as fh:
        rows = list(csv.DictReader(fh))
    if not rows or 'reps' not in rows[0] or 'ms' not in rows[0]: continue
    best = collections.defaultdict(lambda: 9e9)
    for r in rows:
        if r.get('status') == 'ok' and r.get('kernel') not in (None, '', 'cublas', 'cublas-fp8-block'):
            best[pkey(r)] = min(best[pkey(r)], float(r['ms']))
    n = 0
    for i, r in enumerate(rows):
        if r.get('status') != 'ok' or r.get('reps') != '1' or r.get('kernel') in (None, '', 'cublas', 'cublas-fp8-block'): continue
        if float(r['ms']) - best[pkey(r)] >= 0.2: continue
        cfg = tuple((r.get(c) or '') for c in ('block_m','block_n','block_k','group_m','num_warps','num_stages','split_k'))
        key = pkey(r) + cfg
        src[json.dumps(key)].append((os.path.basename(f), i))
        n += 1
        if key in seen: continue
        seen.add(key); plan.append(r)
    if n: print(os.path.basename(f), n)
with open(a.out, 'w', newline='') as fo:
    w = csv.DictWriter(fo, fieldnames=ps.PLAN_COLUMNS, extrasaction='ignore'); w.writeheader(); w.writerows(plan)
json.dump(src, open(a.sources, 'w'))
print(len(plan), 'plan rows')
