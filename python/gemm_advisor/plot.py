"""gemm_advisor.plot: figures of the advisor's predictions (needs matplotlib: Debian python3-matplotlib).

- :func:`roofline`: every candidate of a shape, achieved FLOP/s against arithmetic intensity
  (useful FLOPs per DRAM byte), under the GPU's compute and DRAM-bandwidth roofs (and L2's).
- :func:`heatmap`: the best predicted time over (BLOCK_M, BLOCK_N), every other parameter at its best.
- :func:`predicted_vs_measured`: per shape of a ``gemm-advisor evaluate --format json`` report,
  the predicted time of the advisor's top config against its measured time.

Each returns a ``matplotlib.figure.Figure`` drawn on the Agg canvas (no display needed) and, given
``path``, saves it there (.png, .svg or .pdf, from the suffix). From a shell::

    python3 -m gemm_advisor.plot roofline 4096x4096x4096 --hw h200 -o roofline.png
    python3 -m gemm_advisor.plot heatmap 16x6144x4096 --hw b200 -o heatmap.svg
    python3 -m gemm_advisor.plot scatter evaluation.json -o scatter.png
"""

import argparse
import functools
import json
import math
import os
import sys
import threading
import warnings

import gemm_advisor as _ga

__all__ = ["roofline", "heatmap", "predicted_vs_measured", "save", "main"]

_FORMATS = (".png", ".svg", ".pdf")
_BOUND_COLORS = {"compute": "tab:blue", "memory": "tab:orange", "issue": "tab:green"}


# matplotlib is not thread-safe (its text layout shares state): each plot function draws and saves
# under this lock, so that calls from threads run one after another (4 threads failed with
# matplotlib's own errors: a fresh user's find, 2026-12-04).
_DRAW_LOCK = threading.RLock()


def _locked(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with _DRAW_LOCK:
            return fn(*args, **kwargs)
    return wrapper


def _figure(width=7.0, height=5.0):
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as e:
        raise ImportError("gemm_advisor.plot needs matplotlib (Debian: apt-get install python3-matplotlib)") from e
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)  # headless: never a window, whatever backend matplotlib would pick
    return fig


@_locked
def save(fig, path):
    """Save a figure to ``path``; the format is the suffix's (.png, .svg, .pdf). Raises gemm_advisor.Error
    for another suffix or a file that cannot be written. Returns the path."""
    if not hasattr(fig, "savefig"):
        raise TypeError(f"save: fig must be a matplotlib Figure (what the plot functions return), not {type(fig).__name__}")
    if not isinstance(path, (str, os.PathLike)) or isinstance(path, bytes):
        raise TypeError(f"path must be text or an os.PathLike, not {type(path).__name__}")
    path = os.fspath(path)
    if isinstance(path, bytes):
        raise TypeError("path must be text or an os.PathLike of text, not bytes")
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in _FORMATS:
        raise _ga.Error(f"{path}: unknown image format '{suffix}' (use {', '.join(_FORMATS)})")
    try:
        fig.savefig(path, dpi=150 if suffix == ".png" else "figure")
    except OSError as e:
        raise _ga.Error(f"{path}: cannot write the figure: {e.strerror or e}") from None
    return path


def _number(v):
    """3 significant digits without exponents: 0.0123, 17.9, 215, 1300."""
    return f"{v:.3g}" if abs(v) < 1000 else f"{v:.0f}" if abs(v) < 1e6 else f"{v:.3g}"


def _title(result):
    p, hw = result["problem"], result["hardware"]
    batch = f"x{p['batch']}" if p["batch"] != 1 else ""
    return f"{p['m']}x{p['n']}x{p['k']}{batch} {p['dtype']} {p['layout']} on {hw['display_name']} ({result['target']})"


@_locked
def roofline(shape, hw=None, dtype=None, layout=None, target="triton", top=0, path=None, *, cu_count=None):
    """Roofline of a shape's candidate configs.

    x: arithmetic intensity, the problem's useful FLOPs (2*M*N*K*batch) over the config's predicted
    DRAM bytes (FLOP/byte); y: achieved FLOP/s (useful FLOPs over the predicted time). Lines: the
    dtype's datasheet peak (compute roof) and intensity times the DRAM bandwidth (and the L2
    bandwidth, dashed). Points are coloured by what bounds the config; the top config is starred.
    shape, hw, dtype, layout, target, cu_count as for gemm_advisor.rank (a partition's roof is its
    CUs' peak; memory stays the profile's); top: how many ranked configs to draw (0 = all). Returns
    the Figure (saved to ``path`` when given). Raises gemm_advisor.Error
    for bad input, ImportError without matplotlib.
    """
    fig = _figure()
    profile = _ga._profile_of(hw)
    result = _ga.ranking(shape, hw=profile, dtype=dtype, layout=layout, target=target, top=top, cu_count=cu_count)
    p = result["problem"]
    flops = 2.0 * p["m"] * p["n"] * p["k"] * p["batch"]
    peak = result["hardware"]["peak_tflops"] * 1e12
    dram = profile.dram_bandwidth_bytes_per_s
    l2 = profile.l2_bandwidth_bytes_per_s
    ax = fig.add_subplot()
    xs = []
    for bound, color in _BOUND_COLORS.items():
        pts = [(flops / c["terms"]["dram_bytes"], flops / c["latency_s"]) for c in result["configs"]
               if c["bound"] == bound and c["terms"]["dram_bytes"] > 0]
        if pts:
            ax.scatter([x for x, _ in pts], [y for _, y in pts], s=12, alpha=0.6, color=color,
                       label=f"{bound}-bound ({len(pts)})")
            xs += [x for x, _ in pts]
    best = result["configs"][0]
    bx, by = flops / best["terms"]["dram_bytes"], flops / best["latency_s"]
    ax.scatter([bx], [by], marker="*", s=180, color="black", zorder=3,
               label=f"top: {best['block_m']}x{best['block_n']}x{best['block_k']} "
                     f"w{best['num_warps']} s{best['num_stages']}, {best['tflops']:.0f} TFLOP/s")
    ridge = peak / dram
    lo = min(min(xs + [bx]), ridge) / 4
    hi = max(max(xs + [bx]), ridge) * 4
    steps = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    ax.plot(steps, [min(peak, x * dram) for x in steps], color="tab:red",
            label=f"roof: {peak / 1e12:.0f} TFLOP/s, DRAM {dram / 1e12:.2f} TB/s")
    if l2 > 0:
        ax.plot(steps, [min(peak, x * l2) for x in steps], color="tab:red", linestyle="--", linewidth=0.8,
                label=f"L2 {l2 / 1e12:.1f} TB/s")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (useful FLOP / predicted DRAM byte)")
    ax.set_ylabel("achieved FLOP/s (predicted)")
    ax.set_title(_title(result), fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    if path is not None:
        save(fig, path)
    return fig


@_locked
def heatmap(shape, hw=None, dtype=None, layout=None, target="triton", path=None, *, cu_count=None):
    """Best predicted time over (BLOCK_M, BLOCK_N) for one shape.

    Each cell is the fastest predicted time (microseconds) of the target's candidates with that
    BLOCK_M (rows) and BLOCK_N (columns), over every other parameter; blank cells have no
    candidate (larger than the problem, or nothing fits). The colour scale is logarithmic; the
    cell of the advisor's rank-1 config is outlined (in a near-tie the ranking's tie-breakers may
    put it on a cell a little slower than the fastest prediction, and the title then says so).
    Arguments as for :func:`roofline`. Returns the Figure (saved
    to ``path`` when given).
    """
    fig = _figure()
    result = _ga.ranking(shape, hw=hw, dtype=dtype, layout=layout, target=target, top=0, cu_count=cu_count)
    best = {}
    for c in result["configs"]:
        key = (c["block_m"], c["block_n"])
        best[key] = min(best.get(key, math.inf), c["latency_s"])
    rows = sorted({m for m, _ in best})
    cols = sorted({n for _, n in best})
    grid = [[best.get((m, n), math.nan) * 1e6 for n in cols] for m in rows]
    from matplotlib.colors import LogNorm
    values = [v for row in grid for v in row if not math.isnan(v)]
    ax = fig.add_subplot()
    image = ax.imshow(grid, origin="lower", cmap="viridis_r", aspect="auto",
                      norm=LogNorm(vmin=min(values), vmax=max(max(values), min(values) * 1.0001)))
    from matplotlib.ticker import FuncFormatter
    bar = fig.colorbar(image, ax=ax, label="best predicted time (µs)")
    plain = FuncFormatter(lambda v, _: _number(v))
    bar.ax.yaxis.set_major_formatter(plain)
    bar.ax.yaxis.set_minor_formatter(plain)
    ax.set_xticks(range(len(cols)), [str(n) for n in cols])
    ax.set_yticks(range(len(rows)), [str(m) for m in rows])
    ax.set_xlabel("BLOCK_N")
    ax.set_ylabel("BLOCK_M")
    if len(rows) * len(cols) <= 100:
        for i, row in enumerate(grid):
            for j, v in enumerate(row):
                if not math.isnan(v):
                    ax.text(j, i, _number(v), ha="center", va="center", fontsize=7,
                            color="white" if v > math.sqrt(min(values) * max(values)) else "black")
    top = result["configs"][0]
    i, j = rows.index(top["block_m"]), cols.index(top["block_n"])
    from matplotlib.patches import Rectangle
    ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="red", linewidth=2))
    fastest = min(best, key=best.get)
    note = "" if fastest == (top["block_m"], top["block_n"]) else (
        f" (fastest {_number(best[fastest] * 1e6)} µs at {fastest[0]}x{fastest[1]}, a near-tie)")
    ax.set_title(_title(result) + f"\nrank 1: {_number(top['latency_s'] * 1e6)} µs at {top['block_m']}x{top['block_n']}"
                 + note, fontsize=9)
    if path is not None:
        save(fig, path)
    return fig


def _evaluation(source):
    if isinstance(source, dict):
        return source, "evaluation"
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"evaluation must be a path or the loaded evaluate JSON (a dict), not {type(source).__name__}")
    path = os.fspath(source)
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise _ga.Error(f"{path}: cannot read: {e.strerror or e}") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise _ga.Error(f"{path}: not JSON ({e})") from None
    except RecursionError:
        raise _ga.Error(f"{path}: not an evaluate JSON result (nested too deeply to read)") from None
    return data, path


@_locked
def predicted_vs_measured(evaluation, path=None):
    """Predicted against measured time of the advisor's top config, one point per shape.

    evaluation: the path of ``gemm-advisor evaluate --format json`` output (or that JSON, loaded).
    x: the measured time of the advisor's top-1 config (``advisor_top1_ms``), y: its predicted time
    (``predicted_top1_ms``), both in ms on log axes, with y = x and ±25% lines; the colour is the
    shape's % of oracle (the measured best over the top-1's measured time). Returns the Figure
    (saved to ``path`` when given). Raises gemm_advisor.Error for a file that is not such output.
    """
    data, source = _evaluation(evaluation)
    shapes = data.get("shapes") if isinstance(data, dict) else None
    if not isinstance(shapes, list) or not shapes:
        raise _ga.Error(f"{source}: not `gemm-advisor evaluate --format json` output (no \"shapes\" list)")
    pts = []
    for i, s in enumerate(shapes):
        try:
            point = (float(s["advisor_top1_ms"]), float(s["predicted_top1_ms"]), float(s["pct_of_oracle"]))
        except (KeyError, TypeError, ValueError):
            raise _ga.Error(f"{source}: shapes[{i}] lacks advisor_top1_ms, predicted_top1_ms or pct_of_oracle") from None
        # NaN or infinity reached matplotlib, which raised its own errors (a fresh user's find, 2026-12-04).
        if not all(math.isfinite(v) for v in point):
            raise _ga.Error(f"{source}: shapes[{i}]: advisor_top1_ms, predicted_top1_ms and pct_of_oracle must be "
                            f"finite numbers, got {point}")
        pts.append(point)
    pts = [p for p in pts if p[0] > 0 and p[1] > 0]
    if not pts:
        raise _ga.Error(f"{source}: no shape with positive measured and predicted times")
    fig = _figure(6.0, 5.5)
    ax = fig.add_subplot()
    points = ax.scatter([p[0] for p in pts], [p[1] for p in pts], c=[p[2] for p in pts], cmap="RdYlGn",
                        vmin=min(50.0, min(p[2] for p in pts)), vmax=100.0, s=18, edgecolors="black",
                        linewidths=0.3)
    fig.colorbar(points, ax=ax, label="% of oracle (measured best / top-1 measured)")
    lo = min(min(p[0] for p in pts), min(p[1] for p in pts)) / 1.5
    hi = max(max(p[0] for p in pts), max(p[1] for p in pts)) * 1.5
    ax.plot([lo, hi], [lo, hi], color="black", linewidth=1, label="predicted = measured")
    for f, label in ((1.25, "±25%"), (0.75, None)):
        ax.plot([lo, hi], [lo * f, hi * f], color="gray", linestyle="--", linewidth=0.8, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("measured time of the advisor's top-1 (ms)")
    ax.set_ylabel("predicted time of the advisor's top-1 (ms)")
    agg = data.get("aggregate", {})
    hw = data.get("hardware", {})
    hw_name = hw.get("display_name", hw.get("name", "")) if isinstance(hw, dict) else str(hw)
    extra = ""
    if isinstance(agg, dict) and "geomean_pct_of_oracle" in agg:
        extra = f": geomean {agg['geomean_pct_of_oracle']:.1f}% of oracle"
        if "median_abs_err_pct" in agg:
            extra += f", median top-1 error {agg['median_abs_err_pct']:.1f}%"
    ax.set_title(f"{len(pts)} shapes, {data.get('target', '')} on {hw_name}{extra}", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    if path is not None:
        save(fig, path)
    return fig


def main(argv=None):
    """``python3 -m gemm_advisor.plot {roofline,heatmap,scatter} ... -o FILE``; returns the exit code
    (0, 1 for bad input with one error line on stderr, 2 for a usage error)."""
    parser = argparse.ArgumentParser(prog="python3 -m gemm_advisor.plot",
                                     description="Figures of gemm-advisor's predictions (PNG, SVG or PDF).")
    sub = parser.add_subparsers(dest="kind", required=True)
    for kind, helptext in (("roofline", "achieved FLOP/s against arithmetic intensity of a shape's candidates"),
                           ("heatmap", "best predicted time over (BLOCK_M, BLOCK_N)")):
        p = sub.add_parser(kind, help=helptext)
        p.add_argument("shape", help="MxNxK or MxNxKxB")
        p.add_argument("--hw", help="profile name, GPU name or YAML path (default: $GEMM_ADVISOR_HW, else the local GPU)")
        p.add_argument("--dtype")
        p.add_argument("--layout")
        p.add_argument("--target", default="triton")
        p.add_argument("--cu-count", type=int, help="CUs (SMs) the kernel may use, for a partition (as the CLI's)")
        if kind == "roofline":
            p.add_argument("--top", type=int, default=0, help="ranked configs to draw (0 = all)")
        p.add_argument("-o", "--output", required=True, help="image file: .png, .svg or .pdf")
    p = sub.add_parser("scatter", help="predicted against measured time from `gemm-advisor evaluate --format json`")
    p.add_argument("evaluation", help="the JSON file evaluate wrote")
    p.add_argument("-o", "--output", required=True, help="image file: .png, .svg or .pdf")
    args = parser.parse_args(argv)
    # The advisor's warnings as the CLI prints them, one line each: Python's default showed
    # "<frozen runpy>:88: AdvisorWarning: ..." (a fresh Python user's find, 2026-12-07).
    show = warnings.showwarning

    def one_line(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, _ga.AdvisorWarning):
            print(f"gemm-advisor-plot: warning: {message}", file=sys.stderr)
        else:
            show(message, category, filename, lineno, file, line)
    warnings.showwarning = one_line
    try:
        if os.path.splitext(args.output)[1].lower() not in _FORMATS:
            raise _ga.Error(f"{args.output}: unknown image format (use {', '.join(_FORMATS)})")
        if args.kind == "roofline":
            roofline(args.shape, hw=args.hw, dtype=args.dtype, layout=args.layout, target=args.target, top=args.top,
                     path=args.output, cu_count=args.cu_count)
        elif args.kind == "heatmap":
            heatmap(args.shape, hw=args.hw, dtype=args.dtype, layout=args.layout, target=args.target, path=args.output,
                    cu_count=args.cu_count)
        else:
            predicted_vs_measured(args.evaluation, path=args.output)
    except (_ga.Error, ImportError) as e:
        message = str(e)
        # The library's advice for Python callers, as the command's: --target vllm-fused-moe ranks a
        # MoE layer through moe_rank, which this command does not draw.
        if "call gemm_advisor.moe_rank" in message:
            message = "target vllm-fused-moe ranks a MoE layer, which this command does not draw (it draws GEMMs)"
        print(f"gemm-advisor-plot: error: {message}", file=sys.stderr)
        return 1
    finally:
        warnings.showwarning = show
    print(args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
