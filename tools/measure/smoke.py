#!/usr/bin/env python3
"""Smoke test of harness.py and the four kernels, for one short GPU call (well under 90 s).

For each kernel (triton, triton-tutorial, vllm-fp8-block, vllm-fused-moe in bf16 and fp8) 2-3 small
problems (M not a multiple of the block, an unaligned K for the tutorial, M = 1 for fp8-block, a MoE
problem with so few tokens that some experts get no rows) x 2-3 configs, and one mid-size problem per new
kernel for a TFLOP/s sanity figure, go through the harness itself
(harness.run: compile pool, load, launch, check against the reference, timing) with --vendor. Then:

  * a table, one line per plan row: PASS when status is ok, else FAIL (vendor rows are INFO);
  * moe_align_block_size: the torch version (fused_moe_kernel.moe_align) against plan_spec.moe_align_list
    on the routing of each MoE smoke problem, for BLOCK_SIZE_M 16, 64 and 256;
  * main-process compiles: a config whose load took over harness.SLOW_LOAD_S means the worker's
    warmup and the real launch have different specialisation keys (every config of the big runs would
    then compile in the main process): FAIL.
Exit status 0 only if all of these pass.

    python3 tools/measure/smoke.py [--out DIR] [--jobs N]
"""
import argparse
import csv
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import plan_spec as ps  # noqa: E402


def C(bm, bn, bk, w, s, g=8, sk=1):
    return dict(block_m=bm, block_n=bn, block_k=bk, group_m=g, num_warps=w, num_stages=s, split_k=sk)


def P(kernel, family, name, m, n, k, dtype, layout, batch=1, experts=0, top_k=0, gemm=""):
    return dict(kernel=kernel, family=family, name=name, m=m, n=n, k=k, batch=batch, dtype=dtype, layout=layout,
                experts=experts, top_k=top_k, gemm=gemm)


def smoke_plan():
    t = []
    # the existing masked kernel (gemm_kernels.py): unaligned NT with split-K, M = 1, batched TN
    t.append((P("triton", "smoke", "odd.127x4095x1023", 127, 4095, 1023, "bf16", "NT"),
              [C(64, 64, 64, 4, 3), C(32, 64, 64, 4, 2, sk=2)]))
    t.append((P("triton", "smoke", "m1.1x256x512", 1, 256, 512, "bf16", "NT"), [C(16, 32, 64, 2, 3), C(16, 64, 128, 4, 4)]))
    t.append((P("triton", "smoke", "batched.tn", 64, 96, 256, "bf16", "TN", batch=3), [C(32, 32, 64, 4, 3)]))
    # tutorial: unaligned M and K (NT), fp16 NN, TT with M not a multiple of the block
    t.append((P("triton-tutorial", "smoke", "odd.100x384x250", 100, 384, 250, "bf16", "NT"),
              [C(32, 64, 32, 4, 3), C(64, 64, 64, 4, 2, g=1), C(16, 32, 64, 2, 4)]))
    t.append((P("triton-tutorial", "smoke", "fp16.256x256x512.nn", 256, 256, 512, "fp16", "NN"),
              [C(128, 128, 64, 8, 3), C(64, 128, 32, 4, 4)]))
    t.append((P("triton-tutorial", "smoke", "tt.200x160x192", 200, 160, 192, "bf16", "TT"),
              [C(64, 64, 32, 4, 3), C(128, 32, 64, 4, 3, g=2)]))
    # fp8 block: M = 1, M not a multiple of the block, N and K not multiples of 128
    f8 = [C(64, 128, 128, 4, 2, g=32), C(16, 64, 64, 4, 3, g=1), C(32, 128, 128, 8, 4, g=16)]
    t.append((P("vllm-fp8-block", "smoke", "m1.1x512x1024", 1, 512, 1024, "fp8", "NT"), f8))
    t.append((P("vllm-fp8-block", "smoke", "m200.200x384x896", 200, 384, 896, "fp8", "NT"), f8))
    t.append((P("vllm-fp8-block", "smoke", "odd.33x300x1000", 33, 300, 1000, "fp8", "NT"), f8[:2]))
    # fused MoE bf16: 5 tokens over 8 experts (top-2: some experts get no rows), 70 tokens over 16 (top-4)
    mb = [C(16, 32, 64, 4, 3, g=1), C(64, 64, 32, 4, 3, g=8), C(32, 128, 128, 8, 2, g=16)]
    for gemm, n, k in (("up", 256, 512), ("down", 512, 128)):
        t.append((P("vllm-fused-moe", "smoke", "e8.m5", 5, n, k, "bf16", "NT", experts=8, top_k=2, gemm=gemm), mb))
    for gemm, n, k in (("up", 384, 256), ("down", 256, 192)):
        t.append((P("vllm-fused-moe", "smoke", "e16.m70", 70, n, k, "bf16", "NT", experts=16, top_k=4, gemm=gemm), mb[:2]))
    # fused MoE fp8 (block [128,128]): 3 tokens over 16 experts (top-2); the last config is one of vLLM's
    # shipped H200 configs with BLOCK_SIZE_M 8 (a tl.dot with M < 16: INFO only, Triton may refuse it)
    mf = [C(64, 128, 128, 4, 3, g=32), C(16, 128, 128, 4, 4, g=1), C(32, 256, 128, 8, 3, g=16), C(8, 32, 128, 4, 4, g=1)]
    for gemm, n, k in (("up", 256, 384), ("down", 384, 128)):
        t.append((P("vllm-fused-moe", "smoke", "e16.m3", 3, n, k, "fp8", "NT", experts=16, top_k=2, gemm=gemm), mf))
    # speed sanity (INFO: TFLOP/s of the best config), one mid-size problem per new kernel
    t.append((P("triton-tutorial", "smoke-perf", "2048x2048x2048.nt", 2048, 2048, 2048, "bf16", "NT"),
              [C(128, 128, 64, 8, 3), C(128, 256, 64, 8, 3)]))
    t.append((P("vllm-fp8-block", "smoke-perf", "1024x4096x4096", 1024, 4096, 4096, "fp8", "NT"),
              [C(64, 128, 128, 4, 2, g=32), C(128, 128, 128, 8, 3, g=16)]))
    for gemm, n, k in (("up", 2 * 1792, 4096), ("down", 4096, 1792)):
        t.append((P("vllm-fused-moe", "smoke-perf", "e8.m512", 512, n, k, "bf16", "NT", experts=8, top_k=2, gemm=gemm),
                  [C(64, 128, 64, 8, 3, g=16), C(128, 128, 64, 8, 4, g=16)]))
    if os.environ.get("SMOKE_SKIP_PERF"):       # cpu_check.py: minutes of emulation for a speed figure
        t = [x for x in t if x[0]["family"] != "smoke-perf"]
    return t


INFO_ONLY = {("e16.m3", 8)}          # (problem name, block_m): rows whose failure is reported, not counted


def flops(p):
    rows = p["m"] * p["top_k"] if p["kernel"] == "vllm-fused-moe" else p["m"] * p["batch"]
    return 2.0 * rows * p["n"] * p["k"]


def check_align():
    """torch moe_align vs the list version on the smoke MoE routings."""
    import fused_moe_kernel as fmk
    bad = []
    lines = []
    for m, e, topk in ((5, 8, 2), (70, 16, 4), (3, 16, 2), (300, 128, 8)):
        seed = fmk._stable_seed(f"smoke|align|{m}|{e}|{topk}")
        _w, ids = fmk.route(m, e, topk, seed)
        flat = ids.reshape(-1).tolist()
        for bm in (16, 64, 256):
            s_t, e_t, _nt, post_t = fmk.moe_align(ids, e, bm)
            s_l, e_l, post_l = ps.moe_align_list(flat, e, bm)
            ok = (s_t.tolist() == s_l and e_t.tolist() == e_l and post_t == post_l)
            lines.append(f"  align M={m} E={e} top{topk} BM={bm}: post-pad {post_t} rows, "
                         f"{sum(1 for x in range(e) if x not in set(flat))} experts without rows: {'PASS' if ok else 'FAIL'}")
            if not ok:
                bad.append((m, e, topk, bm))
    return bad, lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.environ.get("OUT", "/tmp/smoke"))
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) - 1))
    ap.add_argument("--max-minutes", type=float, default=2.5)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    t0 = time.time()
    plan = smoke_plan()
    plan_path = os.path.join(a.out, "smoke-plan.csv")
    out_path = os.path.join(a.out, "smoke.csv")
    log_path = os.path.join(a.out, "smoke.log")
    ps.write_plan(plan_path, plan)
    import harness
    args = harness.parse_args(["--plan", plan_path, "--out", out_path, "--log", log_path, "--jobs", str(a.jobs),
                               "--vendor", "--max-minutes", str(a.max_minutes), "--hard-extra-minutes", "0.5"])
    stats = harness.run(args)

    rows = list(csv.DictReader(open(out_path)))
    got = {}
    for r in rows:
        if r["kernel"] in ps.KERNELS:
            key = ps.problem_key(ps.parse_problem(r)) + ps.config_tuple(ps.parse_config(r))
            got[key] = r
    failures = 0
    lines = [f"{'verdict':7s} {'kernel':16s} {'problem':34s} {'config':26s} {'status':13s} {'rel_err':>10s} {'ms':>10s}"]
    for p, cfgs in plan:
        for c in cfgs:
            key = ps.problem_key(p) + ps.config_tuple(c)
            r = got.get(key)
            tag = p["name"] + (f" {p['gemm']}" if p["gemm"] else "")
            if r is None:
                failures += 1
                lines.append(f"{'FAIL':7s} {p['kernel']:16s} {tag:34s} {ps.fmt_cfg(c):26s} {'(no row)':13s}")
                continue
            ok = r["status"] == "ok"
            info = (p["name"], c["block_m"]) in INFO_ONLY
            failures += 0 if (ok or info) else 1
            verdict = "INFO" if info else ("PASS" if ok else "FAIL")
            extra = ""
            if p["family"] == "smoke-perf" and ok and r["ms"]:
                extra = f"  {flops(p) / (float(r['ms']) * 1e-3) / 1e12:.0f} TFLOP/s"
            lines.append(f"{verdict:7s} {p['kernel']:16s} {tag:34s} {ps.fmt_cfg(c):26s} "
                         f"{r['status']:13s} {r['rel_err']:>10s} {r['ms']:>10s}{extra}")
    for r in rows:
        if r["kernel"] in ps.VENDOR_KERNELS:
            lines.append(f"{'INFO':7s} {r['kernel']:16s} {r['name']:34s} {'':26s} {r['status']:13s} {r['rel_err']:>10s} {r['ms']:>10s}")
    bad_align, align_lines = check_align()
    failures += len(bad_align)
    lines += align_lines
    if stats.get("slow_loads"):
        failures += 1
        lines.append(f"FAIL    main-process compiles: {stats['slow_loads']} configs loaded slower than "
                     f"{harness.SLOW_LOAD_S}s (worker and launch specialisation keys differ?)")
    else:
        lines.append("PASS    no main-process compile (every config was a disk-cache hit after the worker's warmup)")
    lines.append(f"INFO    cublas-fp8-block: {stats.get('vendor_fp8_label') or 'torch._scaled_mm took none of the block-scale layouts (see smoke.log)'}")
    lines.append(f"{'PASS' if failures == 0 else 'FAIL'}: {failures} failure(s); {time.time() - t0:.0f}s")
    text = "\n".join(lines)
    print(text, flush=True)
    with open(os.path.join(a.out, "smoke.txt"), "w") as f:
        f.write(text + "\n")
    sys.stdout.flush()
    os._exit(0 if failures == 0 else 1)


if __name__ == "__main__":
    main()
