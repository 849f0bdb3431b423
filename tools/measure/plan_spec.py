"""What harness.py and make_plans.py must agree on, in pure Python (no torch or triton import):

  * the plan / output CSV columns and the problem key (`problem_key`);
  * per kernel, the integer arguments of the launch in kernel order (their real values), which of them
    Triton specialises (`== 1` becomes a constant, `% 16 == 0` an alignment hint), and the constexprs.
    From these, `compile_spec` gives the compile key (kernel, dtype, ==1/%16 pattern of the specialised
    integers, constexprs, num_warps, num_stages), used to dedupe compiles, and the task that a compile
    worker runs (worker.py). The kernel files launch with exactly these integers, so the specialisation
    key of the worker's warmup equals that of the real launch;
  * the MoE routing arithmetic (`moe_sorted_size`, `moe_em`, `moe_align_list`: vLLM's
    moe_align_block_size on plain lists) and vLLM's default fused-MoE config (`moe_default_config`);
  * the per-config cost model (`estimate_problem_s`) used by the harness's --max-minutes rule and by
    make_plans.py's budget figures.

Run `python3 tools/measure/plan_spec.py` for the self-check (pure Python).
"""
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

KERNELS = ("triton", "triton-tutorial", "vllm-fp8-block", "vllm-fused-moe")
VENDOR_KERNELS = ("cublas", "cublas-fp8-block")

PROBLEM_FIELDS = ("kernel", "family", "name", "m", "n", "k", "batch", "dtype", "layout", "experts", "top_k", "gemm")
CONFIG_FIELDS = ("block_m", "block_n", "block_k", "group_m", "num_warps", "num_stages", "split_k")
PLAN_COLUMNS = list(PROBLEM_FIELDS) + list(CONFIG_FIELDS)
OUT_COLUMNS = PLAN_COLUMNS + ["ms", "reps", "rel_err", "status"]

FP8_GROUP = 128              # [128, 128] block scales (group_n = group_k = 128)
SMEM_PER_BLOCK = 232448      # H200


def cdiv(a, b):
    return -(-a // b)


def device():
    """The torch device of the measurements: "cuda"; MEASURE_DEVICE=cpu is for cpu_check.py only."""
    return os.environ.get("MEASURE_DEVICE", "cuda")


# ----------------------------------------------------------------------------------------------
# problems, configs, CSV
# ----------------------------------------------------------------------------------------------
def _int(v, default=0):
    v = (v or "").strip() if isinstance(v, str) else v
    if v in ("", None):
        return default
    return int(float(v))


def parse_problem(r):
    """A problem dict (typed) from a plan / output CSV row (a dict of strings)."""
    kernel = (r.get("kernel") or "").strip()
    moe = kernel == "vllm-fused-moe"
    m, n, k = _int(r.get("m")), _int(r.get("n")), _int(r.get("k"))
    p = dict(kernel=kernel, family=(r.get("family") or "").strip(), name=(r.get("name") or "").strip(),
             m=m, n=n, k=k, batch=_int(r.get("batch"), 1), dtype=(r.get("dtype") or "bf16").strip(),
             layout=(r.get("layout") or ("NT" if kernel in ("vllm-fp8-block", "vllm-fused-moe") else "NN")).strip().upper(),
             experts=_int(r.get("experts")) if moe else 0, top_k=_int(r.get("top_k")) if moe else 0,
             gemm=(r.get("gemm") or "").strip() if moe else "")
    if not p["name"]:
        p["name"] = f"{m}x{n}x{k}"
    return p


def parse_config(r):
    return dict(block_m=_int(r.get("block_m")), block_n=_int(r.get("block_n")), block_k=_int(r.get("block_k")),
                group_m=_int(r.get("group_m"), 8), num_warps=_int(r.get("num_warps"), 4),
                num_stages=_int(r.get("num_stages"), 3), split_k=_int(r.get("split_k"), 1))


def problem_key(p):
    return tuple(p[f] for f in PROBLEM_FIELDS)


def config_tuple(c):
    return tuple(c[f] for f in CONFIG_FIELDS)


def row_of(p, c):
    """One plan CSV row (dict of values) for problem p and config c; MoE columns empty elsewhere."""
    r = {f: p[f] for f in PROBLEM_FIELDS}
    if p["kernel"] != "vllm-fused-moe":
        r["experts"] = r["top_k"] = r["gemm"] = ""
    r.update({f: c[f] for f in CONFIG_FIELDS})
    return r


def open_csv(path):
    """A measurement or plan CSV opened for csv.reader: gzip-decompressed text when `path` ends in .gz
    (as gemm-advisor reads it: data/measurements/h200-fp8-block.csv.gz), else the plain file."""
    import gzip
    return gzip.open(path, "rt", newline="") if path.endswith(".gz") else open(path, newline="")


def read_plan(path):
    """[(problem, [config, ...]), ...] in plan order: a problem is the rows sharing problem_key; rows keep
    their order inside it. Blank lines and '#' comments are skipped."""
    with open_csv(path) as f:
        lines = [ln for ln in f if ln.strip() and not ln.lstrip().startswith("#")]
    order = []
    by_key = {}
    for r in csv.DictReader(lines):
        r = {(k or "").strip(): (v or "") for k, v in r.items() if k}
        p = parse_problem(r)
        if p["kernel"] not in KERNELS:
            raise ValueError(f"{path}: unknown kernel {p['kernel']!r} (known: {', '.join(KERNELS)})")
        key = problem_key(p)
        if key not in by_key:
            by_key[key] = (p, [])
            order.append(key)
        by_key[key][1].append(parse_config(r))
    return [by_key[k] for k in order]


def write_plan(path, problems):
    """problems: [(problem, [config, ...]), ...]."""
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=PLAN_COLUMNS)
        w.writeheader()
        for p, cfgs in problems:
            for c in cfgs:
                w.writerow(row_of(p, c))


def fmt_cfg(c):
    return (f"{c['block_m']}x{c['block_n']}x{c['block_k']} w{c['num_warps']} s{c['num_stages']}"
            f" g{c['group_m']}" + (f" sk{c['split_k']}" if c.get("split_k", 1) != 1 else ""))


def fmt_problem(p):
    s = f"{p['kernel']} {p['family']}/{p['name']} {p['m']}x{p['n']}x{p['k']}"
    if p["batch"] != 1:
        s += f"x{p['batch']}"
    s += f" {p['dtype']} {p['layout']}"
    if p["kernel"] == "vllm-fused-moe":
        s += f" E{p['experts']} top{p['top_k']} {p['gemm']}"
    return s


# ----------------------------------------------------------------------------------------------
# specialisation signatures
# ----------------------------------------------------------------------------------------------
def spec_sig(vals):
    """Triton's default integer specialisation: ==1 is a constant, %16==0 an alignment hint (0 counts
    as divisible, as in Triton)."""
    return "".join("1" if v == 1 else ("D" if v % 16 == 0 else "-") for v in vals)


def tutorial_strides(m, n, k, layout):
    """(stride_am, stride_ak), (stride_bk, stride_bn), (stride_cm, stride_cn) of the logical A (MxK),
    B (KxN), C (MxN) for row-major storage: 'N' = A stored MxK / B stored KxN, 'T' = transposed."""
    la, lb = layout[0], layout[1]
    a = (k, 1) if la == "N" else (1, m)
    b = (n, 1) if lb == "N" else (1, k)
    return a, b, (n, 1)


def tutorial_ints(p, c):
    (sam, sak), (sbk, sbn), (scm, scn) = tutorial_strides(p["m"], p["n"], p["k"], p["layout"])
    return [("M", p["m"]), ("N", p["n"]), ("K", p["k"]), ("stride_am", sam), ("stride_ak", sak),
            ("stride_bk", sbk), ("stride_bn", sbn), ("stride_cm", scm), ("stride_cn", scn),
            ("GROUP_SIZE_M", c["group_m"])]


TUTORIAL_NOSPEC = ("GROUP_SIZE_M",)


def tutorial_consts(p, c):
    return dict(BLOCK_SIZE_M=c["block_m"], BLOCK_SIZE_N=c["block_n"], BLOCK_SIZE_K=c["block_k"])


def fp8_block_ints(p, c):
    """vLLM's launch: A [M,K] fp8 row-major, B [N,K] fp8 row-major, C [M,N], As [M, ceil(K/128)] fp32,
    Bs [ceil(N/128), ceil(K/128)] fp32; strides passed as vLLM passes them: A.stride(-2), A.stride(-1),
    B.stride(1), B.stride(0), C.stride(-2), C.stride(-1), As.stride(-2), As.stride(-1), Bs.stride(1),
    Bs.stride(0)."""
    m, n, k = p["m"], p["n"], p["k"]
    kb = cdiv(k, FP8_GROUP)
    return [("M", m), ("N", n), ("K", k), ("group_n", FP8_GROUP), ("group_k", FP8_GROUP),
            ("stride_am", k), ("stride_ak", 1), ("stride_bk", 1), ("stride_bn", k),
            ("stride_cm", n), ("stride_cn", 1),
            ("stride_As_m", kb), ("stride_As_k", 1), ("stride_Bs_k", 1), ("stride_Bs_n", kb),
            ("GROUP_SIZE_M", c["group_m"])]


# The two K/128 scale strides and GROUP_SIZE_M are not specialised (they would multiply the compiles by
# the K/128 % 16 pattern / by the G values); the unit scale strides keep vLLM's specialisation (== 1).
FP8_BLOCK_NOSPEC = ("stride_As_m", "stride_Bs_n", "GROUP_SIZE_M")


def fp8_block_consts(p, c):
    return dict(BLOCK_SIZE_M=c["block_m"], BLOCK_SIZE_N=c["block_n"], BLOCK_SIZE_K=c["block_k"])


# ---- fused MoE -------------------------------------------------------------------------------
def moe_dims(p):
    """(a_rows, K, N_out, top_k_arg, mul_routed_weight) of one MoE GEMM as vLLM launches it:
    up:   A = hidden [M, H], B = w1 [E, 2I, H], C [M, top_k, 2I], top_k = top_k, no routed weight;
    down: A = act [M*top_k, I], B = w2 [E, H, I], C [M, top_k, H], top_k = 1, routed weight applied.
    The plan's n and k are that GEMM's N and K."""
    m, t = p["m"], p["top_k"]
    if p["gemm"] == "up":
        return m, p["k"], p["n"], t, False
    if p["gemm"] == "down":
        return m * t, p["k"], p["n"], 1, True
    raise ValueError(f"vllm-fused-moe: gemm must be 'up' or 'down', not {p['gemm']!r}")


def moe_sorted_size(numel, num_experts, block_m):
    """Length of sorted_token_ids in vLLM's moe_align_block_size: numel + E*(BM-1), tightened to
    numel*BM when numel < E (newer vLLM); no pad_sorted_ids."""
    size = numel + num_experts * (block_m - 1)
    if numel < num_experts:
        size = min(numel * block_m, size)
    return size


def moe_em(p, block_m):
    """EM as invoke_fused_moe_kernel computes it: sorted_token_ids.size(0), or
    min(that, A.size(0)*top_k*BLOCK_SIZE_M) when A.size(0) < BLOCK_SIZE_M."""
    a_rows, _k, _n, topk_arg, _mrw = moe_dims(p)
    em = moe_sorted_size(p["m"] * p["top_k"], p["experts"], block_m)
    if a_rows < block_m:
        em = min(em, a_rows * topk_arg * block_m)
    return em


def moe_block_k(p, c):
    """vLLM clamps BLOCK_SIZE_K to min(BLOCK_SIZE_K, block_n, block_k) for block-quantised launches."""
    return min(c["block_k"], FP8_GROUP) if p["dtype"] == "fp8" else c["block_k"]


def moe_ints(p, c):
    _a_rows, k, n, _topk_arg, _mrw = moe_dims(p)
    if p["dtype"] == "fp8":
        kb, nb = cdiv(k, FP8_GROUP), cdiv(n, FP8_GROUP)
        scales = [("stride_asm", kb), ("stride_ask", 1), ("stride_bse", nb * kb), ("stride_bsk", 1),
                  ("stride_bsn", kb)]
    else:
        scales = [("stride_asm", 0), ("stride_ask", 0), ("stride_bse", 0), ("stride_bsk", 0), ("stride_bsn", 0)]
    return ([("N", n), ("K", k), ("EM", moe_em(p, c["block_m"])), ("num_valid_tokens", p["m"] * p["top_k"]),
             ("stride_am", k), ("stride_ak", 1), ("stride_be", n * k), ("stride_bk", 1), ("stride_bn", k),
             ("stride_cm", n), ("stride_cn", 1)] + scales)


MOE_NOSPEC = ()


def moe_consts(p, c):
    _a, _k, _n, topk_arg, mrw = moe_dims(p)
    fp8 = p["dtype"] == "fp8"
    return dict(group_n=FP8_GROUP if fp8 else 0, group_k=FP8_GROUP if fp8 else 0,
                BLOCK_SIZE_M=c["block_m"], BLOCK_SIZE_N=c["block_n"], BLOCK_SIZE_K=moe_block_k(p, c),
                GROUP_SIZE_M=c["group_m"], MUL_ROUTED_WEIGHT=mrw, top_k=topk_arg, compute_type="bf16",
                use_fp8_w8a8=fp8)


# ---- the existing `triton` kernel (gemm_kernels.py, as sweep.py launches it) -----------------
def triton_task(p, c):
    import sweep  # pure Python at import time
    m, n, k, b = p["m"], p["n"], p["k"], p["batch"]
    strides = sweep.kernel_strides(m, n, k, b, p["layout"])
    key = ("triton",) + sweep.compile_key("spec", p["dtype"], m, n, k, strides, c)
    a, bb, cc = strides
    ints = (m, n, k, a[0], a[1], a[2], bb[0], bb[1], bb[2], cc[0], cc[1], cc[2], 2)
    consts = dict(BLOCK_M=c["block_m"], BLOCK_N=c["block_n"], BLOCK_K=c["block_k"], GROUP_M=c["group_m"])
    return key, ("triton", ("spec", p["dtype"], ints, consts, c["num_warps"], c["num_stages"]))


SPECS = {
    "triton-tutorial": (tutorial_ints, TUTORIAL_NOSPEC, tutorial_consts),
    "vllm-fp8-block": (fp8_block_ints, FP8_BLOCK_NOSPEC, fp8_block_consts),
    "vllm-fused-moe": (moe_ints, MOE_NOSPEC, moe_consts),
}


def kernel_ints(p, c):
    """[(name, value), ...]: the integer arguments of the launch, in kernel order."""
    return SPECS[p["kernel"]][0](p, c)


def kernel_consts(p, c):
    return SPECS[p["kernel"]][2](p, c)


def compile_spec(p, c):
    """(compile key, worker task) of config c on problem p. The key holds what makes a distinct binary:
    kernel, dtype, the ==1/%16 pattern of the specialised integers, the constexprs, num_warps and
    num_stages. The task is what worker.compile_task runs: (kernel, payload)."""
    if p["kernel"] == "triton":
        return triton_task(p, c)
    ints_f, nospec, consts_f = SPECS[p["kernel"]]
    ints = ints_f(p, c)
    consts = consts_f(p, c)
    sig = spec_sig([v for name, v in ints if name not in nospec])
    key = (p["kernel"], p["dtype"], sig, tuple(sorted(consts.items())), c["num_warps"], c["num_stages"])
    payload = (p["dtype"], tuple(v for _n, v in ints), consts, c["num_warps"], c["num_stages"])
    return key, (p["kernel"], payload)


# ----------------------------------------------------------------------------------------------
# MoE routing arithmetic, on plain lists (the torch version is in fused_moe_kernel.py)
# ----------------------------------------------------------------------------------------------
def moe_align_list(topk_ids_flat, num_experts, block_m):
    """vLLM's moe_align_block_size on a flat list of expert ids (token-major: index t*top_k + j).
    Returns (sorted_token_ids, expert_ids, num_tokens_post_padded):
      sorted_token_ids: per expert (ascending), its flat indices ascending, then padding up to a multiple
        of block_m with the value numel; the rest of the buffer (moe_sorted_size long) is numel too;
      expert_ids: the expert of each block_m block up to num_tokens_post_padded, 0 after it (those blocks
        are never read: the kernel returns before loading expert_ids there);
      num_tokens_post_padded: sum over experts of ceil(count/block_m)*block_m.
    (vLLM's CUDA op orders the indices inside an expert by atomics; the ascending order here is one of
    its possible outputs.)"""
    numel = len(topk_ids_flat)
    size = moe_sorted_size(numel, num_experts, block_m)
    buckets = [[] for _ in range(num_experts)]
    for i, e in enumerate(topk_ids_flat):
        if not 0 <= e < num_experts:
            raise ValueError(f"expert id {e} out of range [0, {num_experts})")
        buckets[e].append(i)
    sorted_ids = [numel] * size
    expert_ids = [0] * cdiv(size, block_m)
    pos = 0
    for e in range(num_experts):
        cnt = len(buckets[e])
        if cnt == 0:
            continue
        sorted_ids[pos:pos + cnt] = buckets[e]
        padded = cdiv(cnt, block_m) * block_m
        for blk in range(pos // block_m, (pos + padded) // block_m):
            expert_ids[blk] = e
        pos += padded
    assert pos <= size
    return sorted_ids, expert_ids, pos


def moe_default_config(M, E, N, K, topk, dtype, block_shape=None):
    """vLLM's get_default_config(M, E, N, K, topk, dtype, block_shape) for NVIDIA (fused_moe.py, read at
    vllm-project/vllm 13cb3e44 and 360ddd12): dtype is vLLM's string, "fp8_w8a8" or None (bf16/fp16).
      fp8_w8a8 with a block shape: 64 x block_n x block_k, GROUP_SIZE_M 32, num_warps 4, num_stages 3
        (2 on ROCm);
      otherwise M <= E: 16 x 32 x 64, GROUP_SIZE_M 1; else 64 x 64 x 32, GROUP_SIZE_M 8; these two give
        no num_warps / num_stages, so Triton's defaults apply (num_warps 4, num_stages 3 on CUDA).
    (The int4/int8 w*a16 branches and the batch-invariant mode are left out.) N, K and topk do not
    change the result; they are vLLM's signature. Returns our config dict."""
    if dtype == "fp8_w8a8" and block_shape is not None:
        return dict(block_m=64, block_n=block_shape[0], block_k=block_shape[1], group_m=32, num_warps=4,
                    num_stages=3, split_k=1)
    if M <= E:
        return dict(block_m=16, block_n=32, block_k=64, group_m=1, num_warps=4, num_stages=3, split_k=1)
    return dict(block_m=64, block_n=64, block_k=32, group_m=8, num_warps=4, num_stages=3, split_k=1)


# ----------------------------------------------------------------------------------------------
# cost model (seconds of device time)
# ----------------------------------------------------------------------------------------------
# Per timed config, as the harness times it (calibrated on the H200 bf16 sweep log, where e.g.
# 1065 configs of 16x4096x4096 took 1.7 s and 1545 of 8192^3 took 40.6 s): a fixed host cost, then
# (R + 2) kernel runs (one untimed, one checked, R repeats), each behind an ~85 us L2 flush, with
# R = clamp(floor(10 ms / t), 3, 10) and t the median config's time, taken as SPREAD x the ideal time.
HOST_PER_CONFIG_S = 0.35e-3
FLUSH_S = 0.085e-3
SPREAD = 3.0
PER_PROBLEM_S = 0.25          # inputs, reference, rows
COMPILES_PER_S = 12.0         # 15 workers on the H200 host (13/s measured with 16)


def ideal_s(p):
    """A roofline-ish lower bound of one kernel run (H200): max(flops / rate, bytes / 4 TB/s) + 4 us."""
    m, n, k, b = p["m"], p["n"], p["k"], p["batch"]
    if p["kernel"] == "vllm-fused-moe":
        a_rows, kk, nn, _t, _mrw = moe_dims(p)
        rows = p["m"] * p["top_k"]
        e = p["experts"]
        eb = 1 if p["dtype"] == "fp8" else 2
        hit = e * (1.0 - (1.0 - min(1.0, p["top_k"] / e)) ** p["m"])   # expected experts with tokens
        flops = 2.0 * rows * nn * kk
        byts = hit * nn * kk * eb + a_rows * kk * eb + rows * nn * 2
        rate = 800e12 if p["dtype"] == "fp8" else 700e12
        return max(flops / rate, byts / 4.0e12) + 6e-6
    eb = 1 if p["dtype"] == "fp8" else 2
    rate = 800e12 if p["dtype"] == "fp8" else 700e12
    return max(2.0 * m * n * k * b / rate, b * (eb * (m * k + k * n) + 2 * m * n) / 4.0e12) + 4e-6


def config_cost_s(t):
    r = min(10, max(3, int(0.010 / max(t, 1e-9))))
    return HOST_PER_CONFIG_S + (r + 2) * (t + FLUSH_S)


def estimate_problem_s(p, ncfg):
    """Device seconds to time ncfg configs of problem p (compile waits not included)."""
    return PER_PROBLEM_S + ncfg * config_cost_s(SPREAD * ideal_s(p))


# ----------------------------------------------------------------------------------------------
# self-check (pure Python)
# ----------------------------------------------------------------------------------------------
def _selfcheck():
    import random
    # vLLM's docstring example: topk_ids [[2,3,4],[1,2,4],[1,3,4],[1,2,3]], block 4, 4 experts ->
    # (with 0-based experts 0..4 here: use E = 5 so ids 1..4 are valid)
    ids = [2, 3, 4, 1, 2, 4, 1, 3, 4, 1, 2, 3]
    s, e, post = moe_align_list(ids, 5, 4)
    assert post == 16, post
    assert s[:16] == [3, 6, 9, 12, 0, 4, 10, 12, 1, 7, 11, 12, 2, 5, 8, 12], s[:16]
    assert e[:4] == [1, 2, 3, 4], e
    assert all(v == 12 for v in s[16:]) and len(s) == 12 + 5 * 3
    # random checks of the invariants
    rng = random.Random(7)
    for trial in range(300):
        E = rng.choice([1, 2, 8, 16, 60, 128, 256])
        topk = rng.choice([1, 2, 4, 8]) if E >= 8 else 1
        M = rng.choice([1, 2, 3, 5, 16, 33, 100, 257])
        BM = rng.choice([8, 16, 32, 64, 128, 256])
        flat = []
        for _t in range(M):
            flat += rng.sample(range(E), topk)
        numel = len(flat)
        s, e, post = moe_align_list(flat, E, BM)
        assert len(s) == moe_sorted_size(numel, E, BM)
        assert post % BM == 0 and post <= len(s)
        seen = sorted(v for v in s[:post] if v < numel)
        assert seen == list(range(numel)), "every (token, k) slot exactly once"
        assert all(v == numel for v in s[post:])
        for blk in range(post // BM):
            rows = [v for v in s[blk * BM:(blk + 1) * BM] if v < numel]
            assert rows, "no empty block below num_tokens_post_padded"
            assert all(flat[v] == e[blk] for v in rows), "a block holds one expert's rows"
        counts = [flat.count(x) for x in range(E)]
        assert post == sum(cdiv(c, BM) * BM for c in counts)
        # the grid bound: every block below post is inside cdiv(EM, BM) for both GEMMs
        for gemm in ("up", "down"):
            p = dict(kernel="vllm-fused-moe", m=M, n=256, k=128, batch=1, dtype="bf16", layout="NT",
                     experts=E, top_k=topk, gemm=gemm, family="", name="")
            em = moe_em(p, BM)
            assert em <= len(s)
            assert post <= cdiv(em, BM) * BM, (M, E, topk, BM, em, post)
    # group-m collapse
    from space import collapse_group_m, fp8_block_space
    assert collapse_group_m(1, 64, [1, 16, 32, 64]) == [1]
    assert collapse_group_m(256, 16, [1, 16, 32, 64]) == [1, 16]
    assert collapse_group_m(4096, 16, [1, 16, 32, 64]) == [1, 16, 32, 64]
    assert collapse_group_m(4096, 128, [1, 16, 32, 64]) == [1, 16, 32]

    # mapping equality behind the collapse (vLLM's raster: pid_m = first + pid % group_size_m)
    def mapping(npm, npn, g):
        out = []
        for pid in range(npm * npn):
            nig = g * npn
            gid = pid // nig
            first = gid * g
            gs = min(npm - first, g)
            out.append((first + pid % gs, (pid % nig) // gs))
        return out
    for npm in (1, 2, 5, 16, 17):
        for npn in (1, 3, 8):
            maps = {g: mapping(npm, npn, g) for g in (1, 16, 32, 64)}
            for g in (1, 16, 32, 64):
                assert sorted(maps[g]) == sorted((i, j) for i in range(npm) for j in range(npn))
                if g >= npm:
                    assert maps[g] == mapping(npm, npn, 10 ** 6)
    assert len(fp8_block_space(1, 7168, 7168)) == 312
    # default config
    assert moe_default_config(4, 8, 7168, 4096, 2, None)["block_m"] == 16
    assert moe_default_config(9, 8, 7168, 4096, 2, None)["block_m"] == 64
    assert moe_default_config(1, 256, 256, 7168, 8, "fp8_w8a8", [128, 128])["num_stages"] == 3
    # compile keys: GROUP_SIZE_M is runtime for the tutorial and fp8-block kernels
    pt = dict(kernel="triton-tutorial", family="", name="", m=512, n=4096, k=4096, batch=1, dtype="bf16",
              layout="NT", experts=0, top_k=0, gemm="")
    c1 = dict(block_m=128, block_n=128, block_k=64, group_m=8, num_warps=8, num_stages=3, split_k=1)
    c2 = dict(c1, group_m=1)
    assert compile_spec(pt, c1)[0] == compile_spec(pt, c2)[0]
    assert compile_spec(dict(pt, m=1), c1)[0] != compile_spec(pt, c1)[0]
    pf = dict(pt, kernel="vllm-fp8-block", dtype="fp8", k=7168)
    assert compile_spec(pf, c1)[0] == compile_spec(dict(pf, k=1536), c2)[0]  # K/128 strides unspecialised
    print("plan_spec self-check: OK")


if __name__ == "__main__":
    _selfcheck()
