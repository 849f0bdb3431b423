"""The `vllm-fused-moe` target: vLLM's `fused_moe_kernel` (vllm/model_executor/layers/fused_moe/fused_moe.py,
read at vllm-project/vllm 13cb3e44, with invoke_fused_moe_kernel, moe_align_block_size, fused_topk,
get_default_config and benchmarks/kernels/benchmark_moe.py), written after its algorithm.

One launch is one grouped GEMM over the experts: the rows of A are gathered through sorted_token_ids
(sorted by expert, each expert's count padded to a multiple of BLOCK_SIZE_M with the value
num_valid_tokens = M*top_k), each BLOCK_SIZE_M block belongs to one expert (expert_ids[block]), whose
weight matrix B[e] ([N, K], K contiguous) it multiplies:

  * grouped raster over cdiv(EM, BLOCK_SIZE_M) x cdiv(N, BLOCK_SIZE_N) tiles (GROUP_SIZE_M constexpr);
  * blocks at or past num_tokens_post_padded return at once; an expert id of -1 (expert parallelism:
    the expert is not on this rank; never the case here) writes zeros, as vLLM does;
  * A row of slot s is sorted_token_ids[s] // top_k; slots holding the padding value are masked rows;
    column offsets wrapped with % N; K masked; fp32 accumulation through tl.dot;
  * fp8_w8a8 with [128,128] block scales (use_fp8_w8a8, group_n = group_k = 128): per K step
    a_s = A_scale[row, k // 128] (per token and 128-wide group, masked rows 0) and
    b_s = B_scale[e, n // 128, k // 128], acc += tl.dot(a, b) * a_s[:, None] * b_s[None, :];
  * MUL_ROUTED_WEIGHT: acc *= topk_weights[slot token] (the second GEMM); cast to compute_type (bf16);
    the store goes to C row sorted_token_ids[s] (C is [M, top_k, N], row = t*top_k + j).

Left out of vLLM's kernel (never on our paths): the bias (HAS_BIAS), int8_w8a8 / int8_w8a16, the
per-channel and the per-tensor fp8 paths (per-tensor fp8: one scale for A, one per expert for B; the
block-quantised path is the one DeepSeek-V3 and the Qwen3 FP8 checkpoints use). SPLIT_K (always 1 in
vLLM) is not a parameter. Everything else, including what is constexpr and what is a specialised int,
is as in vLLM (plan_spec.moe_ints / moe_consts).

A layer = GEMM "up": hidden [M, H] x w1 [E, 2I, H] -> [M, top_k, 2I] (top_k = top_k, no routed weight),
then GEMM "down": act [M*top_k, I] x w2 [E, H, I] -> [M, top_k, H] with MUL_ROUTED_WEIGHT and top_k = 1
(vLLM's indexing for the second GEMM: the A row is the slot itself). The harness times the two apart,
each with the same config; the input of "down" is random data of the right shape, and the SiLU-and-mul
between them is not timed.

Routing, as vLLM's tuner (benchmark_moe.py) makes it: gating logits randn [M, E] (fp32), softmax, top-k,
renormalised (the tuner calls fused_topk(..., renormalize=True)); topk_weights fp32, topk_ids int32.
moe_align_block_size here is a torch version of vLLM's op (plan_spec.moe_align_list is the same on lists).
"""
import time

import triton
import triton.language as tl

import plan_spec

KERNEL = "vllm-fused-moe"
TOL = 1e-2        # bf16 output vs the fp32 reference (of the dequantised inputs for fp8)


@triton.jit
def fused_moe_kernel(a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, topk_weights_ptr,
                     sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr,
                     N, K, EM, num_valid_tokens,
                     stride_am, stride_ak, stride_be, stride_bk, stride_bn, stride_cm, stride_cn,
                     stride_asm, stride_ask, stride_bse, stride_bsk, stride_bsn,
                     group_n: tl.constexpr, group_k: tl.constexpr,
                     BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                     GROUP_SIZE_M: tl.constexpr, MUL_ROUTED_WEIGHT: tl.constexpr, top_k: tl.constexpr,
                     compute_type: tl.constexpr, use_fp8_w8a8: tl.constexpr):
    pid = tl.program_id(axis=0)
    tiles_m = tl.cdiv(EM, BLOCK_SIZE_M)
    tiles_n = tl.cdiv(N, BLOCK_SIZE_N)
    per_group = GROUP_SIZE_M * tiles_n
    group = pid // per_group
    row0 = group * GROUP_SIZE_M
    rows_here = tl.minimum(tiles_m - row0, GROUP_SIZE_M)
    local = pid % per_group
    pid_m = row0 + local % rows_here
    pid_n = local // rows_here

    padded_rows = tl.load(num_tokens_post_padded_ptr)
    if pid_m * BLOCK_SIZE_M >= padded_rows:
        return
    slot = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M).to(tl.int64)
    token = tl.load(sorted_token_ids_ptr + slot)
    row_ok = token < num_valid_tokens
    cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_tile = c_ptr + stride_cm * token[:, None] + stride_cn * cn[None, :]
    c_mask = row_ok[:, None] & (cn[None, :] < N)

    expert = tl.load(expert_ids_ptr + pid_m).to(tl.int64)
    if expert == -1:
        tl.store(c_tile, tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=compute_type), mask=c_mask)
        return

    rn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N).to(tl.int64)) % N
    rk = tl.arange(0, BLOCK_SIZE_K)
    a_tile = a_ptr + (token[:, None] // top_k * stride_am + rk[None, :] * stride_ak)
    b_tile = b_ptr + expert * stride_be + (rk[:, None] * stride_bk + rn[None, :] * stride_bn)
    if use_fp8_w8a8:
        as_rows = a_scale_ptr + (token // top_k) * stride_asm
        bs_cols = b_scale_ptr + expert * stride_bse + (rn // group_n) * stride_bsn

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for kt in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        k_left = K - kt * BLOCK_SIZE_K
        a = tl.load(a_tile, mask=row_ok[:, None] & (rk[None, :] < k_left), other=0.0)
        b = tl.load(b_tile, mask=rk[:, None] < k_left, other=0.0)
        if use_fp8_w8a8:
            kg = (kt * BLOCK_SIZE_K) // group_k
            a_s = tl.load(as_rows + kg * stride_ask, mask=row_ok, other=0.0)
            b_s = tl.load(bs_cols + kg * stride_bsk)
            acc += tl.dot(a, b) * a_s[:, None] * b_s[None, :]
        else:
            acc += tl.dot(a, b)
        a_tile += BLOCK_SIZE_K * stride_ak
        b_tile += BLOCK_SIZE_K * stride_bk

    if MUL_ROUTED_WEIGHT:
        wt = tl.load(topk_weights_ptr + token, mask=row_ok, other=0)
        acc = acc * wt[:, None]
    tl.store(c_tile, acc.to(compute_type), mask=c_mask)


def _consts(consts):
    """plan_spec's constexprs with compute_type as a Triton dtype."""
    d = dict(consts)
    d["compute_type"] = {"bf16": tl.bfloat16, "fp16": tl.float16}[d["compute_type"]]
    return d


def compile_task(payload):
    """Worker side: payload = (dtype, ints, consts, num_warps, num_stages) from plan_spec.compile_spec."""
    import torch
    dt, ints, consts, w, s = payload
    fp8 = dt == "fp8"
    op = torch.float8_e4m3fn if fp8 else torch.bfloat16
    sc = torch.float32 if fp8 else None
    t0 = time.time()
    k = fused_moe_kernel.warmup(op, op, torch.bfloat16, sc, sc, torch.float32, torch.int32, torch.int32,
                                torch.int32, *ints, grid=(1,), num_warps=w, num_stages=s, **_consts(consts))
    return (True, "", int(getattr(k.metadata, "shared", 0)), time.time() - t0)


def get_default_config(M, E, N, K, top_k, dtype, block_shape=None):
    """vLLM's get_default_config(M, E, N, K, topk, dtype, block_shape) for NVIDIA, in vLLM's key names;
    dtype is vLLM's string ("fp8_w8a8" or None). The logic is plan_spec.moe_default_config (pure Python,
    used by make_plans.py); for the bf16 branches vLLM gives no num_warps / num_stages and Triton's
    defaults (4, 3) apply, which is what is returned here."""
    c = plan_spec.moe_default_config(M, E, N, K, top_k, dtype, block_shape)
    return {"BLOCK_SIZE_M": c["block_m"], "BLOCK_SIZE_N": c["block_n"], "BLOCK_SIZE_K": c["block_k"],
            "GROUP_SIZE_M": c["group_m"], "num_warps": c["num_warps"], "num_stages": c["num_stages"]}


# ----------------------------------------------------------------------------------------------
# routing (torch)
# ----------------------------------------------------------------------------------------------
def route(m, num_experts, top_k, seed):
    """Gating logits randn [M, E] -> softmax -> top-k -> renormalised, as vLLM's tuner (fused_topk with
    renormalize=True). Returns (topk_weights fp32 [M, top_k], topk_ids int32 [M, top_k])."""
    import torch
    g = torch.Generator(device=plan_spec.device())
    g.manual_seed(seed)
    logits = torch.randn((m, num_experts), device=plan_spec.device(), generator=g, dtype=torch.float32)
    probs = torch.softmax(logits, dim=-1)
    w, ids = torch.topk(probs, top_k, dim=-1)
    w = w / w.sum(dim=-1, keepdim=True)
    return w.to(torch.float32).contiguous(), ids.to(torch.int32).contiguous()


def moe_align(topk_ids, num_experts, block_m):
    """torch version of vLLM's moe_align_block_size (no expert map, no pad_sorted_ids); the same result
    as plan_spec.moe_align_list: (sorted_token_ids int32, expert_ids int32, num_tokens_post_padded int32
    [1], num_tokens_post_padded as an int)."""
    import torch
    dev = topk_ids.device
    flat = topk_ids.reshape(-1).to(torch.int64)
    numel = flat.numel()
    size = plan_spec.moe_sorted_size(numel, num_experts, block_m)
    counts = torch.bincount(flat, minlength=num_experts)
    padded = (counts + block_m - 1) // block_m * block_m
    start_padded = torch.cumsum(padded, 0) - padded          # where each expert's rows start
    start_plain = torch.cumsum(counts, 0) - counts           # each expert's first index in the stable sort
    order = torch.sort(flat, stable=True).indices              # flat indices grouped by expert, ascending
    ex = flat[order]
    rank = torch.arange(numel, device=dev) - start_plain[ex]
    sorted_ids = torch.full((size,), numel, device=dev, dtype=torch.int32)
    sorted_ids[start_padded[ex] + rank] = order.to(torch.int32)
    post = int(padded.sum().item())
    expert_ids = torch.zeros((plan_spec.cdiv(size, block_m),), device=dev, dtype=torch.int32)
    blocks = torch.repeat_interleave(torch.arange(num_experts, device=dev, dtype=torch.int32), padded // block_m)
    expert_ids[:blocks.numel()] = blocks
    ntpp = torch.tensor([post], device=dev, dtype=torch.int32)
    return sorted_ids, expert_ids, ntpp, post


def routing_stats(topk_ids, num_experts, block_ms=(16, 32, 64, 128, 256)):
    """One log line: tokens per expert and the padded rows per BLOCK_SIZE_M."""
    import torch
    counts = torch.bincount(topk_ids.reshape(-1).to(torch.int64), minlength=num_experts).cpu().tolist()
    nz = sorted(c for c in counts)
    pads = {bm: sum(plan_spec.cdiv(c, bm) * bm for c in counts) for bm in block_ms}
    return (f"routed rows {sum(counts)}; tokens/expert min {nz[0]} median {nz[len(nz) // 2]} max {nz[-1]}; "
            f"experts without tokens {sum(1 for c in counts if c == 0)}/{num_experts}; padded rows "
            + " ".join(f"BM{bm}:{v}" for bm, v in pads.items()))


class Instance:
    def __init__(self, p, seed):
        import torch
        import fp8_block_kernel as fbk
        if p["dtype"] not in ("bf16", "fp8"):
            raise ValueError("vllm-fused-moe dtype: bf16, or fp8 (fp8_w8a8 with [128,128] block scales)")
        self.p = p
        m, e, t = p["m"], p["experts"], p["top_k"]
        a_rows, k, n, _topk_arg, self.mrw = plan_spec.moe_dims(p)
        self.fp8 = p["dtype"] == "fp8"
        # routing depends on (family, name, M) only, so the up and down problems of a layer share it
        rseed = _stable_seed(f"{p['family']}|{p['name']}|{m}|{e}|{t}")
        self.topk_weights, self.topk_ids = route(m, e, t, rseed)
        self.stats = routing_stats(self.topk_ids, e)
        g = torch.Generator(device=plan_spec.device())
        g.manual_seed(seed)
        if self.fp8:
            kb, nb = plan_spec.cdiv(k, plan_spec.FP8_GROUP), plan_spec.cdiv(n, plan_spec.FP8_GROUP)
            self.A = fbk.random_fp8((a_rows, k), g)
            self.A_scale = fbk.random_scales((a_rows, kb), g, 0.5 / 64, 1.5 / 64)
            self.B = fbk.random_fp8((e, n, k), g)
            self.B_scale = fbk.random_scales((e, nb, kb), g, 0.5 / 64, 1.5 / 64)
        else:
            self.A = torch.randn((a_rows, k), device=plan_spec.device(), generator=g, dtype=torch.bfloat16)
            self.B = torch.randn((e, n, k), device=plan_spec.device(), generator=g, dtype=torch.bfloat16)
            self.A_scale = self.B_scale = None
        self.out = torch.empty((m, t, n), device=plan_spec.device(), dtype=torch.bfloat16)
        self._align = {}
        self.ref = self._reference()
        self.tol = TOL

    def _reference(self):
        """fp32: row r = t*top_k + j of C is A[row_a] . B[e]^T (x topk_weights[r] for down), row_a = t for
        up and r for down; fp8 inputs dequantised with their scales first."""
        import torch
        import fp8_block_kernel as fbk
        p = self.p
        m, t = p["m"], p["top_k"]
        a_rows, k, n, topk_arg, mrw = plan_spec.moe_dims(p)
        flat = self.topk_ids.reshape(-1).to(torch.int64)
        slots = torch.arange(m * t, device=plan_spec.device())
        arow = slots // topk_arg
        a_all = fbk.dequant_rows(self.A, self.A_scale) if self.fp8 else self.A.float()
        ref = torch.empty((m * t, n), device=plan_spec.device(), dtype=torch.float32)
        for e in torch.unique(flat).tolist():
            rows = (flat == e).nonzero(as_tuple=True)[0]
            w = fbk.dequant_blocks(self.B[e], self.B_scale[e]) if self.fp8 else self.B[e].float()
            ref[rows] = torch.matmul(a_all[arow[rows]], w.t())
            del w
        if mrw:
            ref *= self.topk_weights.reshape(-1, 1)
        del a_all
        return ref.view(m, t, n)

    def align(self, block_m):
        if block_m not in self._align:
            self._align[block_m] = moe_align(self.topk_ids, self.p["experts"], block_m)
        return self._align[block_m]

    def launcher(self, cfg):
        p = self.p
        sorted_ids, expert_ids, ntpp, _post = self.align(cfg["block_m"])
        ints = plan_spec.moe_ints(p, cfg)
        d = dict(ints)
        assert sorted_ids.numel() == plan_spec.moe_sorted_size(p["m"] * p["top_k"], p["experts"], cfg["block_m"])
        assert d["EM"] <= sorted_ids.numel()
        assert (self.A.stride(0), self.A.stride(1)) == (d["stride_am"], d["stride_ak"])
        assert (self.B.stride(0), self.B.stride(2), self.B.stride(1)) == (d["stride_be"], d["stride_bk"], d["stride_bn"])
        assert (self.out.stride(1), self.out.stride(2)) == (d["stride_cm"], d["stride_cn"])
        if self.fp8:
            assert (self.A_scale.stride(0), self.A_scale.stride(1)) == (d["stride_asm"], d["stride_ask"])
            assert (self.B_scale.stride(0), self.B_scale.stride(2), self.B_scale.stride(1)) == \
                (d["stride_bse"], d["stride_bsk"], d["stride_bsn"])
        consts = _consts(plan_spec.moe_consts(p, cfg))
        grid = (triton.cdiv(d["EM"], cfg["block_m"]) * triton.cdiv(p["n"], cfg["block_n"]),)
        args = (self.A, self.B, self.out, self.A_scale, self.B_scale, self.topk_weights, sorted_ids, expert_ids,
                ntpp, *[v for _n, v in ints])
        w, s = cfg["num_warps"], cfg["num_stages"]
        kern = fused_moe_kernel
        kern.warmup(*args, grid=grid, num_warps=w, num_stages=s, **consts)._init_handles()

        def launch():
            kern[grid](*args, num_warps=w, num_stages=s, **consts)
        return launch

    def vendor(self):
        return []


def _stable_seed(text):
    import zlib
    return zlib.crc32(text.encode()) & 0x7FFFFFFF
