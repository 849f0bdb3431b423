#!/usr/bin/env python3
"""GPU measurement harness for gemm-advisor's `triton` target.

For every shape in a shape list it times every candidate config of the `triton` target (the space of
tools/measure/space.py, identical to the C++ advisor's) plus torch.matmul (cuBLAS) as a reference, and
writes one CSV row per config:

    m,n,k,batch,dtype,layout,kernel,block_m,block_n,block_k,group_m,num_warps,num_stages,split_k,ms,reps,rel_err,status

Compilation runs in --jobs spawned worker processes that warm the shared on-disk Triton cache (each
compile uses the real problem's integer values, so the specialisation key matches the real launch);
timing runs in the main process, in the order compiles were queued, overlapping the two.

Usage:
    python3 tools/measure/sweep.py --shapes FILE --out CSV [--resume CSV] [--configs CSV] [--only CSV]
                                   [--dtype bf16] [--jobs 16] [--max-minutes N] [--log FILE]
See tools/measure/README.md.
"""
import argparse
import csv
import math
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from space import candidate_space, next_pow2  # noqa: E402

COLUMNS = ["m", "n", "k", "batch", "dtype", "layout", "kernel", "block_m", "block_n", "block_k", "group_m",
           "num_warps", "num_stages", "split_k", "ms", "reps", "rel_err", "status",
           "gpu"]  # the device as torch names it: evaluate and calibrate refuse another GPU's rows by it
TOL = {"bf16": 1e-2, "fp16": 5e-3, "fp8": 1e-2}  # fp8: the reference uses the same fp8 inputs
FLUSH_BYTES = 256 * 1024 * 1024      # > 2x the H200's 60 MB L2
REP_BUDGET_S = 0.010                 # GPU time budget for the repeats of one config
MAX_REPS, MIN_REPS = 10, 3
SLOW_FACTOR = 8.0                    # first run > 8x best so far: keep that one run only

_log_file = None


def log(msg=""):
    print(msg, flush=True)
    if _log_file is not None:
        _log_file.write(msg + "\n")
        _log_file.flush()


def shape_key(m, n, k, batch, dtype, layout):
    return (int(m), int(n), int(k), int(batch), str(dtype), str(layout).upper())


def read_shapes(path, default_dtype):
    shapes = []
    with open(path) as f:
        rows = [r for r in f if r.strip() and not r.lstrip().startswith("#")]
    for r in csv.DictReader(rows):
        r = {k.strip(): (v or "").strip() for k, v in r.items() if k}
        m, n, k = int(r["m"]), int(r["n"]), int(r["k"])
        batch = int(r.get("batch") or 1)
        dtype = r.get("dtype") or default_dtype
        layout = (r.get("layout") or "NN").upper()
        name = r.get("name") or f"{m}x{n}x{k}" + (f"x{batch}" if batch > 1 else "")
        shapes.append(dict(name=name, key=shape_key(m, n, k, batch, dtype, layout)))
    return shapes


def read_fixed_configs(path):
    cfgs = []
    with open(path) as f:
        for r in csv.DictReader(f):
            cfgs.append(dict(block_m=int(r["block_m"]), block_n=int(r["block_n"]), block_k=int(r["block_k"]),
                             group_m=int(r.get("group_m") or 8), num_warps=int(r["num_warps"]),
                             num_stages=int(r["num_stages"]), split_k=int(r.get("split_k") or 1)))
    return cfgs


def read_only_rows(path):
    """{shape key: [config, ...]} from the triton rows of a measurement CSV, in file order."""
    out = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            if r.get("kernel", "triton") != "triton":
                continue
            key = shape_key(r["m"], r["n"], r["k"], r.get("batch") or 1, r.get("dtype") or "bf16", r.get("layout") or "NN")
            out.setdefault(key, []).append(dict(
                block_m=int(r["block_m"]), block_n=int(r["block_n"]), block_k=int(r["block_k"]),
                group_m=int(r.get("group_m") or 8), num_warps=int(r["num_warps"]), num_stages=int(r["num_stages"]),
                split_k=int(r.get("split_k") or 1)))
    return out


def operand_strides(m, n, k, layout):
    """Strides (batch, row, col) of the logical A (MxK), B (KxN), C (MxN) for row-major storage."""
    la, lb = layout[0], layout[1]
    a = (m * k, k, 1) if la == "N" else (m * k, 1, m)      # 'T': A stored KxM
    b = (k * n, n, 1) if lb == "N" else (k * n, 1, k)      # 'T': B stored NxK
    c = (m * n, n, 1)
    return a, b, c


def kernel_strides(m, n, k, batch, layout):
    """Strides passed to the kernel: batch strides are 0 when batch == 1 (they are specialised)."""
    a, b, c = operand_strides(m, n, k, layout)
    if batch == 1:
        a, b, c = (0,) + a[1:], (0,) + b[1:], (0,) + c[1:]
    return a, b, c


def spec_sig(vals):
    return tuple("1" if v == 1 else ("D" if v % 16 == 0 else "-") for v in vals)


def compile_key(variant, dtype, m, n, k, strides, cfg):
    a, b, c = strides
    specialised = [a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]]
    if variant == "spec":
        specialised = [m, n, k] + specialised
    return (variant, dtype, spec_sig(specialised), cfg["block_m"], cfg["block_n"], cfg["block_k"],
            cfg["group_m"], cfg["num_warps"], cfg["num_stages"])


def timing_order(cfgs, m, n, k):
    """Queue/timing order: large effective tiles first so a good 'best so far' appears early."""
    def score(c):
        em, en = min(c["block_m"], next_pow2(m)), min(c["block_n"], next_pow2(n))
        return (-(em * en), abs(c["num_stages"] - 3), -c["num_warps"], -min(c["block_k"], 64), c["split_k"])
    return sorted(cfgs, key=score)


def fmt_cfg(c):
    return (f"{c['block_m']}x{c['block_n']}x{c['block_k']} w{c['num_warps']} s{c['num_stages']}"
            f" g{c['group_m']} sk{c['split_k']}")


def ideal_s(m, n, k, batch):
    return max(2.0 * m * n * k * batch / 700e12, 2.0 * batch * (m * k + k * n + m * n) / 4.0e12) + 4e-6


def estimate_shape_s(m, n, k, batch, ncfg):
    return ncfg * (2.5e-3 + 12 * ideal_s(m, n, k, batch))


# ----------------------------------------------------------------------------------------------
def _descendants(pids):
    """The pids of every live descendant of `pids` (Linux: read from /proc/*/stat); [] elsewhere."""
    children = {}
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return []
    for e in entries:
        try:
            with open(f"/proc/{e}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(e))
    out, todo = [], list(pids)
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def stop_pool(pool):
    """Stops a compile pool now: pending compiles cancelled, the workers terminated, and what they
    started (ptxas, which inherits the call's stdout) killed. Without the last step a compile still
    running held a piped stdout open after the sweep's exit, and the device call hung until it ended
    (2026-12-05: 90 s past the sweep's hard limit)."""
    import signal
    procs = list(getattr(pool, "_processes", {}).values() or [])
    kids = _descendants([p.pid for p in procs])
    try:
        pool.shutdown(wait=False, cancel_futures=True)
    except Exception:  # noqa: BLE001 - a broken pool is stopped below all the same
        pass
    for pid in kids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    for p in procs:
        try:
            if p.is_alive():
                p.terminate()
        except Exception:  # noqa: BLE001
            pass


def main():
    global _log_file
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shapes", default=None)
    ap.add_argument("--out", required=True)
    ap.add_argument("--resume", default=None, help="CSV of an earlier run: its complete shapes are copied, not re-run")
    ap.add_argument("--configs", default=None, help="fixed config list instead of the candidate space")
    ap.add_argument("--only", default=None,
                    help="measurement CSV: re-measure exactly its (shape, config) rows (--shapes is then ignored)")
    ap.add_argument("--dtype", default="bf16", help="default dtype for shapes without one")
    ap.add_argument("--jobs", type=int, default=16)
    ap.add_argument("--max-minutes", type=float, default=None)
    ap.add_argument("--hard-extra-minutes", type=float, default=1.5,
                    help="abort (and drop) the current shape this long after --max-minutes")
    ap.add_argument("--log", default=None)
    ap.add_argument("--variant", default="spec", choices=["spec", "nospec"])
    ap.add_argument("--limit-configs", type=int, default=0, help="testing: time only a random sample per shape")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    t_start = time.time()
    if args.log:
        _log_file = open(args.log, "a")

    import random
    import concurrent.futures as cf
    import multiprocessing as mp
    import torch
    import triton
    import gemm_kernels as gk

    dev = torch.cuda.get_device_properties(0)
    log(f"# sweep start {time.strftime('%Y-%m-%d %H:%M:%S %Z')}  gpu={dev.name} sms={dev.multi_processor_count} "
        f"l2={getattr(dev, 'L2_cache_size', 0)} torch={torch.__version__} cuda={torch.version.cuda} "
        f"triton={triton.__version__} python={sys.version.split()[0]}")
    log(f"# args: {' '.join(sys.argv[1:])}")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False

    only = read_only_rows(args.only) if args.only else None
    if only is None and not args.shapes:
        sys.exit("sweep.py: give --shapes or --only")
    shapes = [dict(name=f"{k[0]}x{k[1]}x{k[2]}", key=k) for k in only] if only else read_shapes(args.shapes, args.dtype)
    fixed = read_fixed_configs(args.configs) if args.configs else None

    # ---- resume
    done = set()
    resumed_rows = []
    if args.resume and os.path.exists(args.resume):
        with open(args.resume) as f:
            for r in csv.DictReader(f):
                resumed_rows.append(r)
                done.add(shape_key(r["m"], r["n"], r["k"], r.get("batch") or 1, r.get("dtype") or "bf16",
                                   r.get("layout") or "NN"))
        log(f"# resume: {len(resumed_rows)} rows, {len(done)} complete shapes from {args.resume}")
    out_f = open(args.out, "w", newline="")
    writer = csv.DictWriter(out_f, fieldnames=COLUMNS, extrasaction="ignore")
    writer.writeheader()
    for r in resumed_rows:
        writer.writerow(r)
    out_f.flush()

    todo = [s for s in shapes if s["key"] not in done]
    log(f"# shapes: {len(shapes)} in list, {len(todo)} to measure")

    # ---- configs per shape and the compile queue
    rng = random.Random(args.seed)
    plan = []
    for s in todo:
        m, n, k, batch, dtype, layout = s["key"]
        if only is not None:
            cfgs = only[s["key"]]
        else:
            cfgs = fixed if fixed is not None else candidate_space(m, n, k, batch, dtype)
        if args.limit_configs and len(cfgs) > args.limit_configs:
            cfgs = rng.sample(cfgs, args.limit_configs)
        plan.append((s, timing_order(cfgs, m, n, k)))

    ctx = mp.get_context("spawn")
    pool = cf.ProcessPoolExecutor(max_workers=args.jobs, mp_context=ctx, initializer=gk.worker_init)
    futures = {}
    t_pool = time.time()
    for s, cfgs in plan:
        m, n, k, batch, dtype, layout = s["key"]
        strides = kernel_strides(m, n, k, batch, layout)
        a, b, c = strides
        for cfg in cfgs:
            key = compile_key(args.variant, dtype, m, n, k, strides, cfg)
            if key in futures:
                continue
            ints = (m, n, k, a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2], 2)
            consts = dict(BLOCK_M=cfg["block_m"], BLOCK_N=cfg["block_n"], BLOCK_K=cfg["block_k"],
                          GROUP_M=cfg["group_m"])
            futures[key] = pool.submit(gk.compile_task, (args.variant, dtype, ints, consts,
                                                         cfg["num_warps"], cfg["num_stages"]))
    log(f"# compile queue: {len(futures)} distinct kernels, {args.jobs} workers")

    kern = gk.KERNELS[args.variant]
    flush_buf = torch.empty(FLUSH_BYTES, dtype=torch.int8, device="cuda")
    summary = []
    compile_errors_seen = 0
    limit_s = args.max_minutes * 60 if args.max_minutes else None
    # past this (seconds since t_start) the current shape is aborted and dropped, as harness.py's hard_s
    hard_s = limit_s + args.hard_extra_minutes * 60 if limit_s is not None else None
    stopped_early = False

    def time_fn(launch, reps, events):
        """reps timed runs, each preceded by an L2 flush; returns list of ms."""
        for r in range(reps):
            flush_buf.zero_()
            events[r][0].record()
            launch()
            events[r][1].record()
        torch.cuda.synchronize()
        return [events[r][0].elapsed_time(events[r][1]) for r in range(reps)]

    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(MAX_REPS)]

    for si, (s, cfgs) in enumerate(plan):
        try:
            m, n, k, batch, dtype, layout = s["key"]
            elapsed = time.time() - t_start
            if limit_s is not None and elapsed + estimate_shape_s(m, n, k, batch, len(cfgs)) > limit_s:
                log(f"# stop: {elapsed:.0f}s elapsed, next shape {s['name']} (~{estimate_shape_s(m, n, k, batch, len(cfgs)):.0f}s) "
                    f"would pass --max-minutes {args.max_minutes}")
                stopped_early = True
                break
            t_shape = time.time()
            tdt, odt = gk.torch_dtypes(dtype)
            strides = kernel_strides(m, n, k, batch, layout)
            (sab, sam, sak), (sbb, sbk, sbn), (scb, scm, scn) = strides
            torch.manual_seed(1234 + si)
            # storage per layout; logical views for the reference
            a_store = torch.randn((batch, m, k) if layout[0] == "N" else (batch, k, m), device="cuda").to(tdt)
            b_store = torch.randn((batch, k, n) if layout[1] == "N" else (batch, n, k), device="cuda").to(tdt)
            a_log = a_store if layout[0] == "N" else a_store.transpose(1, 2)
            b_log = b_store if layout[1] == "N" else b_store.transpose(1, 2)
            assert a_log.stride()[1:] == (sam, sak) and b_log.stride()[1:] == (sbk, sbn)
            assert batch == 1 or (a_log.stride()[0], b_log.stride()[0]) == (sab, sbb)
            c = torch.empty((batch, m, n), device="cuda", dtype=odt)
            ref = torch.matmul(a_log.float(), b_log.float())
            ref_norm = torch.linalg.vector_norm(ref).item()
            max_split = max(cf_["split_k"] for cf_ in cfgs)
            ws = torch.empty(max(1, (max_split if max_split > 1 else 0) * batch * m * n), device="cuda",
                             dtype=torch.float32)
            tol = TOL[dtype]

            def rel_err(out):
                return (torch.linalg.vector_norm(out.float() - ref).item() / ref_norm) if ref_norm > 0 else float("nan")

            rows = []
            base = dict(m=m, n=n, k=k, batch=batch, dtype=dtype, layout=layout)
            # -- cuBLAS reference (torch.matmul; for fp8 torch._scaled_mm with unit scales, which needs
            #    A row-major and B column-major: NT, batch 1 only)
            c_cublas = torch.empty_like(c)
            cub_launch = None
            if dtype == "fp8":
                if batch == 1 and layout == "NT":
                    one = torch.ones((), device="cuda", dtype=torch.float32)
                    a2, b2 = a_log[0], b_log[0]
                    cub_launch = lambda: c_cublas[0].copy_(
                        torch._scaled_mm(a2, b2, scale_a=one, scale_b=one, out_dtype=odt))
            elif batch == 1:   # plain 2-D matmul (cuBLAS gemm, not a batch-1 bmm)
                a2, b2, c2 = a_log[0], b_log[0], c_cublas[0]
                cub_launch = lambda: torch.matmul(a2, b2, out=c2)
            else:
                cub_launch = lambda: torch.matmul(a_log, b_log, out=c_cublas)
            cub_ms = float("nan")
            if cub_launch is not None:
                try:
                    c_cublas.fill_(float("nan"))
                    cub_launch()
                    torch.cuda.synchronize()
                    cub_err = rel_err(c_cublas)
                    t1 = time_fn(cub_launch, 1, events)[0]
                    reps = min(MAX_REPS, max(MIN_REPS, int(REP_BUDGET_S * 1e3 / max(t1, 1e-3))))
                    cub_ms = statistics.median(time_fn(cub_launch, reps, events))
                    rows.append(dict(base, kernel="cublas", block_m=0, block_n=0, block_k=0, group_m=0,
                                     num_warps=0, num_stages=0, split_k=1, ms=f"{cub_ms:.6f}", reps=reps,
                                     rel_err=f"{cub_err:.3e}", status="ok" if cub_err <= tol else "wrong"))
                except Exception as ex:  # no vendor row for this shape, the sweep goes on
                    log(f"#   no cuBLAS reference for {s['name']}: {type(ex).__name__}: {str(ex)[:200]}")
                    torch.cuda.synchronize()
            del c_cublas, cub_launch

            best = float("inf")
            best_cfg = None
            oks = []
            n_status = {}
            aborted = False
            wait_s = 0.0
            for cfg in cfgs:
                if hard_s is not None and time.time() - t_start > hard_s:
                    aborted = True
                    break
                bm, bn, bk, gm = cfg["block_m"], cfg["block_n"], cfg["block_k"], cfg["group_m"]
                w, st, sk = cfg["num_warps"], cfg["num_stages"], cfg["split_k"]
                row = dict(base, kernel="triton", block_m=bm, block_n=bn, block_k=bk, group_m=gm, num_warps=w,
                           num_stages=st, split_k=sk, ms="", reps=0, rel_err="", status="")
                key = compile_key(args.variant, dtype, m, n, k, strides, cfg)
                tw = time.time()
                # Wait for the compile at most 300 s, and never past the hard limit: a shape whose kernels
                # compile slowly (odd K and N, ~2 a second) once held a call 2 minutes past it, until the
                # device call's own timeout dropped every row (2026-12-05, odd.127x4095x1023 on an H100).
                wait_cap_s = 300.0
                if hard_s is not None:
                    wait_cap_s = min(wait_cap_s, max(0.0, t_start + hard_s - tw))
                try:
                    ok, err, _shared, _ct = futures[key].result(timeout=wait_cap_s)
                except cf.TimeoutError:
                    if hard_s is not None and time.time() - t_start > hard_s:
                        aborted = True
                        break
                    ok, err = False, "TimeoutError: no compile result in 300 s"
                except Exception as e:  # broken worker
                    ok, err = False, f"{type(e).__name__}: {e}"
                wait_s += time.time() - tw
                grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn), 1, batch * sk)
                mn = m * n
                total = batch * mn
                rgrid = (triton.cdiv(total, gk.REDUCE_BLOCK),)
                kargs = (a_store, b_store, c, ws, m, n, k, sab, sam, sak, sbb, sbk, sbn, scb, scm, scn, sk)
                kkw = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=gm, num_warps=w, num_stages=st)
                if ok:
                    try:  # load in this process (disk cache hit) so no launch below pays for it
                        ck = kern.warmup(*kargs, grid=grid, **kkw)
                        ck._init_handles()
                        if sk > 1:
                            gk.splitk_reduce_kernel.warmup(ws, c, mn, total, sk, BLOCK=gk.REDUCE_BLOCK,
                                                           grid=rgrid)._init_handles()
                    except Exception as e:
                        ok, err = False, f"{type(e).__name__}: {e}".replace("\n", " ")[:300]
                if not ok:
                    row["status"] = "compile_error"
                    compile_errors_seen += 1
                    if compile_errors_seen <= 40:
                        log(f"#   compile_error {fmt_cfg(cfg)}: {err}")
                    rows.append(row)
                    n_status["compile_error"] = n_status.get("compile_error", 0) + 1
                    continue

                if sk == 1:
                    def launch():
                        kern[grid](*kargs, **kkw)
                else:
                    def launch():
                        kern[grid](*kargs, **kkw)
                        gk.splitk_reduce_kernel[rgrid](ws, c, mn, total, sk, BLOCK=gk.REDUCE_BLOCK)
                try:
                    launch()                                   # untimed: the first launch of a kernel can pay
                    torch.cuda.synchronize()                   # a one-off cost (seen: ~80 us on 10 us kernels)
                    c.fill_(float("nan"))                      # poison: unwritten elements fail the check
                    t_first = time_fn(launch, 1, events)[0]  # flushed, timed; also the correctness run
                    e = rel_err(c)
                    if t_first > SLOW_FACTOR * best:
                        times = [t_first]
                    else:                                      # first run counts as the warm-up
                        r = min(MAX_REPS, max(MIN_REPS, int(REP_BUDGET_S * 1e3 / max(t_first, 1e-3))))
                        times = time_fn(launch, r, events)
                except Exception as ex:
                    row["status"] = "launch_error"
                    log(f"#   launch_error {fmt_cfg(cfg)}: {type(ex).__name__}: {str(ex)[:200]}")
                    rows.append(row)
                    n_status["launch_error"] = n_status.get("launch_error", 0) + 1
                    torch.cuda.synchronize()
                    continue
                ms = statistics.median(times)
                status = "ok" if (e == e and e <= tol) else "wrong"
                row.update(ms=f"{ms:.6f}", reps=len(times), rel_err=f"{e:.3e}", status=status)
                rows.append(row)
                n_status[status] = n_status.get(status, 0) + 1
                if status == "ok":
                    oks.append(ms)
                    if ms < best:
                        best, best_cfg = ms, cfg

            del a_store, b_store, a_log, b_log, c, ref, ws
            if aborted:
                log(f"# abort: hard limit reached inside {s['name']}; its rows are dropped (re-run with --resume)")
                stopped_early = True
                break
            for r in rows:
                writer.writerow(dict(r, gpu=dev.name))
            out_f.flush()
            os.fsync(out_f.fileno())
            el = time.time() - t_shape
            med = statistics.median(oks) if oks else float("nan")
            summary.append((s["name"], m, n, k, layout, len(cfgs), best, med, cub_ms, best_cfg, el))
            tflops = 2.0 * m * n * k * batch / (best * 1e-3) / 1e12 if best < float("inf") else 0.0
            log(f"[{si + 1}/{len(plan)}] {s['name']} {m}x{n}x{k}x{batch} {dtype} {layout}: {len(cfgs)} cfgs "
                f"{dict(sorted(n_status.items()))} best {best:.4f} ms ({tflops:.0f} TF/s) "
                f"{fmt_cfg(best_cfg) if best_cfg else '-'} | median {med:.4f} | cublas {cub_ms:.4f} ms "
                f"| {el:.1f}s (compile wait {wait_s:.1f}s) | total {time.time() - t_start:.0f}s")
        except Exception as ex:  # one broken shape must not end the sweep
            import traceback
            log(f"# shape {s['name']} failed: {type(ex).__name__}: {str(ex)[:300]}")
            log("# " + traceback.format_exc().replace(chr(10), chr(10) + "# ")[-1500:])
            try:
                torch.cuda.synchronize()
                torch.cuda.empty_cache()
            except Exception:
                log("# CUDA context unusable; stopping")
                stopped_early = True
                break

    # ---- compile statistics and shutdown
    done_f = [f for f in futures.values() if f.done() and not f.cancelled()]
    n_ok = sum(1 for f in done_f if f.exception() is None and f.result()[0])
    ctimes = [f.result()[3] for f in done_f if f.exception() is None]
    pool_wall = time.time() - t_pool
    log(f"# compile: {len(done_f)}/{len(futures)} kernels done ({n_ok} ok) in {pool_wall:.0f}s wall, "
        f"{len(done_f) / max(pool_wall, 1e-9):.1f} kernels/s; per-kernel compile s: "
        f"median {statistics.median(ctimes) if ctimes else float('nan'):.2f}, max {max(ctimes) if ctimes else float('nan'):.1f}")
    for f in futures.values():
        f.cancel()
    stop_pool(pool)

    # ---- final table
    log("")
    log(f"{'shape':30s} {'MxNxK':>20s} {'L':2s} {'cfgs':>5s} {'best_ms':>9s} {'median':>9s} {'med/best':>8s} "
        f"{'cublas':>9s} {'cub/best':>8s}  best config")
    for (name, m, n, k, layout, ncfg, best, med, cub, bc, el) in summary:
        log(f"{name:30s} {f'{m}x{n}x{k}':>20s} {layout:2s} {ncfg:5d} {best:9.4f} {med:9.4f} {med / best:8.2f} "
            f"{cub:9.4f} {cub / best:8.2f}  {fmt_cfg(bc) if bc else '-'}")
    remaining = len(plan) - len(summary)
    log(f"# done: {len(summary)} shapes measured this run, {remaining} left"
        f"{' (stopped early)' if stopped_early else ''}; {time.time() - t_start:.0f}s")
    out_f.close()
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
