#!/usr/bin/python3
"""CPU check of harness.py and the kernels, without a GPU. Triton is replaced by the CPU emulator in
cpu_check/triton (kernels run program by program in numpy; loads and stores are bounds-checked) and
torch.cuda by stand-ins (events on the host clock), so this checks what the kernels compute and which
addresses they touch, the harness's control flow (compile pool, dedupe, timing loop, rows, resume,
--max-minutes) and the agreement of the worker's and the launch's specialisation keys; not speed, and
not Triton's own compile rules (a config Triton rejects still runs here).

    /usr/bin/python3 tools/measure/cpu_check.py smoke    # smoke.py's plan (15 s; --with-perf: 6 min)
    /usr/bin/python3 tools/measure/cpu_check.py plans    # real problems from plans/*.csv, 3 configs each (minutes)
    /usr/bin/python3 tools/measure/cpu_check.py resume   # --limit-problems, --resume and --max-minutes
run_targets.sh itself runs on the emulator too:
    PATH=/usr/bin:$PATH PYTHONPATH=tools/measure/cpu_check MEASURE_DEVICE=cpu EMU_CACHE=/tmp/emu \
        OUT=/tmp/out bash tools/measure/run_targets.sh smoke
Needs numpy and a CPU torch (Debian: apt-get install python3-torch python3-numpy; /usr/bin/python3).
"""
import argparse
import csv
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def setup():
    for module, package in (("numpy", "python3-numpy"), ("torch", "python3-torch")):
        try:
            __import__(module)
        except ImportError:  # one line, not a traceback (a fresh user ran it without torch)
            sys.exit(f"cpu_check.py: needs {module} (Debian: apt-get install {package}; run it with /usr/bin/python3)")
    os.environ["MEASURE_DEVICE"] = "cpu"
    os.environ.setdefault("EMU_CACHE", tempfile.mkdtemp(prefix="emu-cache-"))
    emu = os.path.join(HERE, "cpu_check")
    sys.path.insert(0, emu)
    sys.path.insert(1, HERE)
    os.environ["PYTHONPATH"] = emu + (os.pathsep + os.environ["PYTHONPATH"] if os.environ.get("PYTHONPATH") else "")
    import emu_site
    emu_site.patch()
    import triton
    assert triton.__version__ == "emulator", triton.__file__
    import harness
    harness.FLUSH_BYTES = 1 << 16


# real problems of the generated plans that fit this machine (memory, emulation time)
PLAN_PICKS = [
    ("plan-tutorial.csv", "qwen2.5-7b", "qkv.m1"),
    ("plan-tutorial.csv", "mistral-nemo-12b", "o.m8"),
    ("plan-tutorial.csv", "unaligned", "odd.777x1111x2223"),
    ("plan-tutorial.csv", "dlrm", "top2.b2048"),
    ("plan-fp8-block.csv", "deepseek-v3", "kv_a_proj_with_mqa.m1"),
    ("plan-fp8-block.csv", "deepseek-v3-tp8", "kv_b_proj.m8"),
    ("plan-moe.csv", "mixtral-8x7b", "tp2.m1"),
    ("plan-moe.csv", "qwen3-30b-a3b", "tp1.m24"),
    ("plan-moe.csv", "llama-4-scout", "tp4.m2"),
    ("plan-moe.csv", "gpt-oss-120b", "tp2.m1"),
    ("plan-moe.csv", "deepseek-v3", "tp8.m1"),
]


def pick_plan(out_dir, ncfg=3):
    import plan_spec as ps
    picked = []
    for fname, family, name in PLAN_PICKS:
        for p, cfgs in ps.read_plan(os.path.join(HERE, "plans", fname)):
            if p["family"] == family and p["name"] == name:
                # the first configs (large tiles), the last one, and the tuned / default rows (appended last)
                sel = cfgs[:ncfg - 1] + cfgs[-1:]
                picked.append((p, sel))
    path = os.path.join(out_dir, "cpu-plan.csv")
    ps.write_plan(path, picked)
    return path, picked


def run_harness(argv):
    import harness
    return harness.run(harness.parse_args(argv))


def check_rows(out_csv, plan, vendor_ok=True):
    import plan_spec as ps
    rows = list(csv.DictReader(open(out_csv)))
    bad = [r for r in rows if r["kernel"] in ps.KERNELS and r["status"] != "ok"]
    n_plan = sum(len(c) for _p, c in plan)
    n_rows = sum(1 for r in rows if r["kernel"] in ps.KERNELS)
    return rows, bad, n_plan, n_rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", nargs="?", default="smoke", choices=["smoke", "plans", "resume"])
    ap.add_argument("--out", default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--with-perf", action="store_true", help="smoke: keep smoke.py's speed problems (6 minutes here)")
    a = ap.parse_args()
    out = a.out or tempfile.mkdtemp(prefix=f"cpu-check-{a.what}-")
    os.makedirs(out, exist_ok=True)
    setup()
    print(f"cpu_check {a.what}: emulator cache {os.environ['EMU_CACHE']}, output {out}", flush=True)
    if a.what == "smoke":
        if not a.with_perf:
            os.environ["SMOKE_SKIP_PERF"] = "1"
        import smoke
        sys.argv = ["smoke.py", "--out", out, "--jobs", str(a.jobs), "--max-minutes", "30"]
        smoke.main()       # exits
    if a.what == "plans":
        path, plan = pick_plan(out)
        st = run_harness(["--plan", path, "--out", os.path.join(out, "cpu-plan-out.csv"), "--log",
                          os.path.join(out, "cpu-plan.log"), "--jobs", str(a.jobs), "--vendor"])
        rows, bad, n_plan, n_rows = check_rows(os.path.join(out, "cpu-plan-out.csv"), plan)
        for r in rows:
            print(f"  {r['kernel']:16s} {r['family']:16s} {r['name']:26s} {r['gemm']:4s} {r['block_m']:>3s}x{r['block_n']:>3s}x"
                  f"{r['block_k']:>3s} w{r['num_warps']} s{r['num_stages']} g{r['group_m']:>2s} {r['status']:13s} {r['rel_err']}")
        ok = not bad and n_rows == n_plan and not st["slow_loads"]
        print(f"cpu_check plans: {n_rows}/{n_plan} rows, {len(bad)} not ok, main-process compiles {st['slow_loads']}: "
              f"{'PASS' if ok else 'FAIL'}", flush=True)
        os._exit(0 if ok else 1)
    if a.what == "resume":
        import smoke
        import plan_spec as ps
        plan = smoke.smoke_plan()
        path = os.path.join(out, "plan.csv")
        ps.write_plan(path, plan)
        first = os.path.join(out, "first.csv")
        st1 = run_harness(["--plan", path, "--out", first, "--jobs", str(a.jobs), "--limit-problems", "4",
                           "--log", os.path.join(out, "resume.log")])
        second = os.path.join(out, "second.csv")
        st2 = run_harness(["--plan", path, "--out", second, "--jobs", str(a.jobs), "--resume", first,
                           "--log", os.path.join(out, "resume.log")])
        third = os.path.join(out, "third.csv")
        st3 = run_harness(["--plan", path, "--out", third, "--jobs", str(a.jobs), "--max-minutes", "0.01",
                           "--hard-extra-minutes", "0", "--log", os.path.join(out, "resume.log")])
        _r1, b1, _n, n1 = check_rows(first, plan)
        _r2, b2, n_plan, n2 = check_rows(second, plan)
        _r3, _b3, _n3, n3 = check_rows(third, plan)
        keys2 = [tuple(r[c] for c in ps.OUT_COLUMNS[:19]) for r in _r2 if r["kernel"] in ps.KERNELS]
        ok = (st1["completed"] == 4 and st2["completed"] == len(plan) - 4 and n2 == n_plan and len(set(keys2)) == n2
              and not b1 and not b2 and st3["stopped"] and n3 < n_plan)
        print(f"cpu_check resume: first run {n1} rows ({st1['completed']} problems), resumed run {n2}/{n_plan} rows "
              f"({st2['completed']} new problems, {len(set(keys2))} distinct), --max-minutes 0.01 run: stopped={st3['stopped']} "
              f"with {n3} rows: {'PASS' if ok else 'FAIL'}", flush=True)
        os._exit(0 if ok else 1)


if __name__ == "__main__":
    main()
