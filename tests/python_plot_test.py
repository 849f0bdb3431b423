#!/usr/bin/env python3
"""gemm_advisor.plot: roofline, heatmap and predicted-vs-measured figures render headless (Agg) to
PNG and SVG, hold what the advisor predicts (one point per candidate, one cell per (BLOCK_M,
BLOCK_N) at its best time, one point per evaluated shape), and `python3 -m gemm_advisor.plot`
writes them or fails with one error line. Exits 77 (ctest: skipped) without matplotlib.
Usage: python_plot_test.py PATH/TO/gemm-advisor PACKAGE_DIR (run from the repo root)."""
import json
import math
import os
import subprocess
import sys
import tempfile

import cli_harness

BIN = os.path.abspath(sys.argv[1])
PKG = os.path.abspath(sys.argv[2])
sys.path.insert(0, PKG)
os.environ.pop("DISPLAY", None)  # headless, as on CI
os.environ.pop("MPLBACKEND", None)
try:
    import matplotlib  # noqa: F401
except ImportError:
    print("matplotlib is not installed (Debian: python3-matplotlib): skipped")
    sys.exit(77)

import gemm_advisor as g  # noqa: E402
import gemm_advisor.plot as gp  # noqa: E402

TMP = cli_harness.temp_dir("gemm-advisor-plot-test-")
check = cli_harness.check
PNG = b"\x89PNG\r\n\x1a\n"


def is_png(path):
    with open(path, "rb") as f:
        data = f.read()
    return data.startswith(PNG) and len(data) > 10000 and data.endswith(b"IEND\xaeB`\x82")


def is_svg(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return text.lstrip().startswith("<?xml") and "<svg" in text and text.rstrip().endswith("</svg>") and len(text) > 10000


# roofline: one point per candidate, at (FLOPs / DRAM bytes, FLOPs / time), under the roofs.
shape = "4096x4096x4096"
ranked = g.ranking(shape, hw="h200", top=0)
fig = gp.roofline(shape, hw="h200")
ax = fig.axes[0]
points = [tuple(p) for coll in ax.collections for p in coll.get_offsets()]
flops = 2.0 * 4096 ** 3
want = [(flops / c["terms"]["dram_bytes"], flops / c["latency_s"]) for c in ranked["configs"]]
check("roofline: a point per candidate, plus the starred top", len(points) == len(want) + 1, (len(points), len(want)))
check("roofline: the points are the predictions", sorted(points[:-1]) == sorted(want) and
      points[-1] == want[0], points[-1])
peak = ranked["hardware"]["peak_tflops"] * 1e12
roof = ax.lines[0].get_ydata()
check("roofline: the compute roof is the dtype's peak", math.isclose(max(roof), peak, rel_tol=1e-9), (max(roof), peak))
h200 = g.load_profile("h200")
x, y = ax.lines[0].get_xdata(), ax.lines[0].get_ydata()
check("roofline: below the ridge the roof is intensity x DRAM bandwidth",
      math.isclose(y[0], x[0] * h200.dram_bandwidth_bytes_per_s, rel_tol=1e-9))
check("roofline: no point above the roofs (the model's DRAM bound holds)",
      all(py <= min(peak, px * h200.dram_bandwidth_bytes_per_s) * 1.0001 for px, py in want))
check("roofline: the title names the problem and the GPU", "4096x4096x4096 bf16 NT" in ax.get_title()
      and "H200" in ax.get_title(), ax.get_title())
# A partition (cu_count=, --cu-count: not taken, a fresh user's find): the roof is its CUs' share of the
# peak, 33 of 132 SMs a quarter of it (the DRAM stays the GPU's).
part = gp.roofline(shape, hw="h200", cu_count=33).axes[0]
check("roofline(cu_count=33): the compute roof is a quarter of the H200's peak",
      math.isclose(max(part.lines[0].get_ydata()), peak / 4, rel_tol=1e-9), max(part.lines[0].get_ydata()))
cu_png = os.path.join(TMP, "cu.png")
check("python3 -m gemm_advisor.plot heatmap --cu-count 33 draws", gp.main(["heatmap", shape, "--hw", "h200", "--cu-count",
                                                                          "33", "-o", cu_png]) == 0 and is_png(cu_png))
for ext, ok in ((".png", is_png), (".svg", is_svg)):
    path = os.path.join(TMP, "roofline" + ext)
    returned = gp.roofline("16x6144x4096", hw="b200", top=50, path=path)
    check(f"roofline(path=...{ext}): a valid, non-trivial file", ok(path), os.path.getsize(path))
    check(f"roofline(top=50): 50 candidates drawn", sum(len(c.get_offsets()) for c in returned.axes[0].collections)
          == 51)

# heatmap: a cell per (BLOCK_M, BLOCK_N) with its best time, the best cell outlined.
shape = "16x6144x4096"
fig = gp.heatmap(shape, hw="h200")
ax = fig.axes[0]
grid = ax.images[0].get_array()
best = {}
for c in g.rank(shape, hw="h200", top=0):
    best[(c["block_m"], c["block_n"])] = min(best.get((c["block_m"], c["block_n"]), math.inf), c["latency_s"] * 1e6)
rows = sorted({m for m, _ in best})
cols = sorted({n for _, n in best})
check("heatmap: rows are BLOCK_M, columns BLOCK_N", grid.shape == (len(rows), len(cols))
      and [t.get_text() for t in ax.get_xticklabels()] == [str(n) for n in cols], grid.shape)
check("heatmap: each cell is the best time of its tile (µs), blank where none",
      all((grid.mask[i][j] if (m, n) not in best else math.isclose(grid[i][j], best[(m, n)], rel_tol=1e-12))
          for i, m in enumerate(rows) for j, n in enumerate(cols)))
top = g.rank(shape, hw="h200", top=1)[0]
check("heatmap: the best cell is the top config's", math.isclose(grid.min(), top["latency_s"] * 1e6, rel_tol=1e-12)
      and f"at {top['block_m']}x{top['block_n']}" in ax.get_title(), ax.get_title())
for ext, ok in ((".png", is_png), (".svg", is_svg)):
    path = os.path.join(TMP, "heatmap" + ext)
    gp.heatmap("4096x4096x4096", hw="mi300x", path=path)
    check(f"heatmap(path=...{ext}): a valid, non-trivial file", ok(path), os.path.getsize(path))

# predicted_vs_measured: a point per shape of evaluate's JSON.
evaluation = os.path.join(TMP, "evaluation.json")
rc, out, err = cli_harness.run(BIN, "evaluate", "--hw", "h200", "--target", "triton-tutorial", "--measurements",
                               "data/measurements/h200-tutorial.csv", "--format", "json")
with open(evaluation, "w") as f:
    f.write(out)
data = json.loads(out)
fig = gp.predicted_vs_measured(evaluation)
pts = [tuple(p) for p in fig.axes[0].collections[0].get_offsets()]
check("scatter: a point per evaluated shape at (measured, predicted) ms", rc == 0 and sorted(pts) == sorted(
    (s["advisor_top1_ms"], s["predicted_top1_ms"]) for s in data["shapes"]) and len(pts) == len(data["shapes"]) > 10,
    (len(pts), len(data["shapes"])))
check("scatter: the title gives the aggregate", f"{data['aggregate']['geomean_pct_of_oracle']:.1f}% of oracle" in
      fig.axes[0].get_title(), fig.axes[0].get_title())
check("scatter: takes the loaded JSON too", len(gp.predicted_vs_measured(data).axes[0].collections[0].get_offsets())
      == len(pts))
for ext, ok in ((".png", is_png), (".svg", is_svg)):
    path = os.path.join(TMP, "scatter" + ext)
    gp.predicted_vs_measured(evaluation, path=path)
    check(f"predicted_vs_measured(path=...{ext}): a valid, non-trivial file", ok(path), os.path.getsize(path))

# Bad input: gemm_advisor.Error.
not_eval = os.path.join(TMP, "rank.json")
with open(not_eval, "w") as f:
    json.dump(g.ranking("64x64x64", hw="h200"), f)
garbage = os.path.join(TMP, "garbage.json")
with open(garbage, "w") as f:
    f.write("{not json")
for what, call in [("a rank result as evaluation", lambda: gp.predicted_vs_measured(not_eval)),
                   ("a file that is not JSON", lambda: gp.predicted_vs_measured(garbage)),
                   ("a missing file", lambda: gp.predicted_vs_measured(os.path.join(TMP, "none.json"))),
                   ("an unknown image format", lambda: gp.heatmap("64x64x64", hw="h200", path=os.path.join(TMP, "x.bmp"))),
                   ("a bad shape", lambda: gp.roofline("64x64", hw="h200")),
                   ("an unknown hw", lambda: gp.heatmap("64x64x64", hw="h900"))]:
    try:
        call()
        check(f"plot, {what}: gemm_advisor.Error", False, "no exception")
    except g.Error as e:
        check(f"plot, {what}: gemm_advisor.Error, one line", "\n" not in str(e), str(e))


# python3 -m gemm_advisor.plot
def plot_cli(*args):
    env = {**os.environ, "PYTHONPATH": PKG, "GEMM_ADVISOR_HW": "h200"}
    p = subprocess.run([sys.executable, "-m", "gemm_advisor.plot", *args], capture_output=True, text=True, env=env,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr


for kind, args, ext, ok in [("roofline", ["1024x1024x1024", "--hw", "a100"], ".png", is_png),
                            ("heatmap", ["1024x1024x1024"], ".svg", is_svg),
                            ("scatter", [evaluation], ".png", is_png)]:
    path = os.path.join(TMP, f"cli-{kind}{ext}")
    rc, out, err = plot_cli(kind, *args, "-o", path)
    check(f"python3 -m gemm_advisor.plot {kind} -o x{ext}: exit 0, the file", rc == 0 and out.strip() == path
          and os.path.exists(path) and ok(path), err)
rc, out, err = plot_cli("roofline", "64x64", "-o", os.path.join(TMP, "bad.png"))
check("python3 -m gemm_advisor.plot with a bad shape: exit 1, one error line",
      rc == 1 and err.count("\n") == 1 and err.startswith("gemm-advisor-plot: error: shape '64x64'"), err)
rc, out, err = plot_cli("roofline", "64x64x64", "-o", os.path.join(TMP, "bad.jpeg"))
check("python3 -m gemm_advisor.plot -o x.jpeg: exit 1, nothing written", rc == 1 and not os.path.exists(
    os.path.join(TMP, "bad.jpeg")), err)
# The advisor's warnings one line each, as the CLI prints them, and the fused-MoE target refused in the
# command's words (it printed "<frozen runpy>:88: AdvisorWarning: ..." and told a shell user to call
# gemm_advisor.moe_rank: a fresh Python user's find, 2026-12-07).
rc, out, err = plot_cli("heatmap", "2147483647x2147483647x2147483647", "-o", os.path.join(TMP, "big.png"))
check("python3 -m gemm_advisor.plot: an AdvisorWarning as one 'gemm-advisor-plot: warning:' line",
      rc == 0 and err.count("\n") == 1 and err.startswith("gemm-advisor-plot: warning: 2147483647x2147483647x2147483647: "
                                                          "A, B and C take") and "runpy" not in err, err)
rc, out, err = plot_cli("heatmap", "64x64x64", "--target", "vllm-fused-moe", "-o", os.path.join(TMP, "moe.png"))
check("python3 -m gemm_advisor.plot --target vllm-fused-moe: exit 1, said in the command's words",
      rc == 1 and err == "gemm-advisor-plot: error: target vllm-fused-moe ranks a MoE layer, which this command does not "
      "draw (it draws GEMMs)\n", err)
rc, out, err = plot_cli("bars", "64x64x64", "-o", os.path.join(TMP, "x.png"))
check("python3 -m gemm_advisor.plot with an unknown kind: a usage error (exit 2)", rc == 2, err)

# A fresh user's pass (2026-12-04): plots from threads (matplotlib's text layout is shared state: 4
# threads failed with its errors), non-finite evaluation numbers named, not matplotlib's errors.
from concurrent.futures import ThreadPoolExecutor  # noqa: E402
with ThreadPoolExecutor(4) as pool:
    paths = list(pool.map(lambda i: gp.roofline(f"{64 * (i + 1)}x4096x4096", hw="h200",
                                                path=os.path.join(TMP, f"thread{i}.png")) and
                          os.path.join(TMP, f"thread{i}.png"), range(8)))
check("roofline from 4 threads, 8 calls: every file written", all(os.path.getsize(p) > 0 for p in paths), paths)
try:
    gp.predicted_vs_measured({"shapes": [{"advisor_top1_ms": 1, "predicted_top1_ms": 2, "pct_of_oracle": float("nan")}]})
    err = ""
except g.Error as e:
    err = str(e)
check("predicted_vs_measured with a NaN: gemm_advisor.Error naming shapes[0]", "shapes[0]" in err and "finite" in err, err)

cli_harness.finish()
