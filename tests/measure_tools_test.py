#!/usr/bin/env python3
"""The measurement harness's process handling, without a GPU (tools/measure/sweep.py's stop_pool, which
harness.py uses too): stopping a compile pool must also stop what its workers started. On the device,
ptxas processes the workers had started held the call's piped stdout open after the sweep exited, and
the call hung 90 s past the sweep's limit (data/measurements/README.md, 2026-12-05, h100-check-last.log).

Usage: measure_tools_test.py   (python3 only; no torch, no triton)"""
import concurrent.futures as cf
import multiprocessing as mp
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools", "measure"))
import sweep  # noqa: E402  (pure Python at import: torch is imported inside main)
from cli_harness import check, finish  # noqa: E402


def task(pid_dir):
    """A stand-in for a compile: a child process (ptxas's place) that outlives a terminated worker."""
    child = subprocess.Popen(["sleep", "60"])
    with open(os.path.join(pid_dir, f"{child.pid}.pid"), "w") as f:
        f.write(str(child.pid))
    child.wait()


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
    except OSError:
        return False


if __name__ == "__main__":
    pid_dir = tempfile.mkdtemp()
    pool = cf.ProcessPoolExecutor(max_workers=2, mp_context=mp.get_context("spawn"))
    for _ in range(4):
        pool.submit(task, pid_dir)
    deadline = time.time() + 30
    while len(os.listdir(pid_dir)) < 2 and time.time() < deadline:
        time.sleep(0.1)
    pids = [int(name.split(".")[0]) for name in os.listdir(pid_dir)]
    check("both workers started their child", len(pids) == 2, pids)
    # _descendants finds them from the workers' pids (what stop_pool kills)
    workers = [p.pid for p in pool._processes.values()]
    found = set(sweep._descendants(workers))
    check("the workers' children are their descendants", set(pids) <= found, f"{sorted(pids)} in {sorted(found)}")
    t0 = time.time()
    sweep.stop_pool(pool)
    time.sleep(0.5)
    gone = [p for p in pids if not alive(p)]
    check("stop_pool ended the workers' children (they would sleep 60 s)", len(gone) == len(pids),
          f"{len(gone)} of {len(pids)} in {time.time() - t0:.1f} s")
    check("stop_pool ended the workers", all(not alive(w) for w in workers), workers)
    finish()
