"""Sanity gate before a long sweep: the best triton config on 4096^3 bf16 must reach --min-tflops."""
import csv
import sys

path = sys.argv[1]
min_tf = float(sys.argv[2]) if len(sys.argv) > 2 else 350.0
best = {}
for r in csv.DictReader(open(path)):
    key = (r["m"], r["n"], r["k"], r["layout"], r["kernel"])
    if r["status"] == "ok" and r["ms"]:
        best[key] = min(best.get(key, 1e30), float(r["ms"]))
ok = True
for key, ms in sorted(best.items()):
    m, n, k = int(key[0]), int(key[1]), int(key[2])
    tf = 2.0 * m * n * k / (ms * 1e-3) / 1e12
    print(f"gate: {key[0]}x{key[1]}x{key[2]} {key[3]} {key[4]}: {ms:.4f} ms {tf:.0f} TFLOP/s")
    if key[4] == "triton" and tf < min_tf:
        ok = False
if not any(k[4] == "triton" for k in best):
    ok = False
print("gate:", "PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
