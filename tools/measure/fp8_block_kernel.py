"""The `vllm-fp8-block` target: vLLM's block-scaled w8a8 fp8 GEMM (`_w8a8_triton_block_scaled_mm` in
vllm/model_executor/layers/quantization/utils/fp8_utils.py, read at vllm-project/vllm 007d5005; the same
kernel is SGLang's `_w8a8_block_fp8_matmul`), written after its algorithm:

    C[M, N] (bf16) = sum_k A[M, K] (fp8 e4m3, row-major) . B[N, K]^T (fp8 e4m3, row-major)
                     x As[m, k // 128] x Bs[n // 128, k // 128]

  * As fp32 [M, ceil(K/128)]: one scale per token and 128-wide K group; Bs fp32 [ceil(N/128),
    ceil(K/128)]: one per 128x128 block (group_n = group_k = 128);
  * grouped raster with vLLM's mapping (pid_m = first_pid_m + pid % group_size_m, pid_n =
    (pid % num_pid_in_group) // group_size_m);
  * row / column offsets wrapped with % M and % N; only K masked;
  * each K step loads a_s (BLOCK_SIZE_M values, one per row) and b_s (BLOCK_SIZE_N values gathered by
    offs_bn // group_n) and does acc += tl.dot(a, b) * a_s[:, None] * b_s[None, :], so BLOCK_SIZE_K
    must divide 128 (one scale group per step);
  * the fp32 accumulator cast to C's dtype, masked store.
Strides are passed exactly as vLLM passes them: A.stride(-2), A.stride(-1), B.stride(1), B.stride(0),
C.stride(-2), C.stride(-1), As.stride(-2), As.stride(-1), Bs.stride(1), Bs.stride(0) (plan_spec.fp8_block_ints).

Parameters: BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K (constexpr, as in vLLM), GROUP_SIZE_M, num_warps,
num_stages. Departures from vLLM (specialisation only; the arithmetic is the same):
  * GROUP_SIZE_M is a runtime int with do_not_specialize (constexpr in vLLM): it only changes the
    program-id mapping, and one binary then serves every G;
  * the two K/128 scale strides (As.stride(-2), Bs.stride(0)) are do_not_specialize: specialised they
    would multiply the compiles by the ceil(K/128) % 16 pattern. The unit scale strides, M, N, K,
    group_n, group_k and the operand strides keep Triton's default specialisation, as in vLLM.

Default configs when no tuned file exists (read from the public sources):
  * vLLM  w8a8_triton_block_scaled_mm: BLOCK_SIZE_M 64, BLOCK_SIZE_N 128 (block_n), BLOCK_SIZE_K 128
    (block_k), GROUP_SIZE_M 32, num_warps 4, num_stages 2 (fp8_utils.py, vllm-project/vllm 007d5005);
  * SGLang w8a8_block_fp8_matmul_triton: the same but num_stages 3 (python/sglang/srt/layers/quantization/
    fp8_kernel.py, sgl-project/sglang 008601fa).
With a tuned file vLLM takes configs[min(keys, key=lambda x: abs(x - M))].
"""
import time

import triton
import triton.language as tl

import plan_spec

KERNEL = "vllm-fp8-block"
VLLM_DEFAULT = dict(block_m=64, block_n=128, block_k=128, group_m=32, num_warps=4, num_stages=2, split_k=1)
SGLANG_DEFAULT = dict(block_m=64, block_n=128, block_k=128, group_m=32, num_warps=4, num_stages=3, split_k=1)
TOL = 1e-2   # rel. Frobenius error of the bf16 output against the fp32 product of the dequantised inputs


@triton.jit(do_not_specialize=["stride_As_m", "stride_Bs_n", "GROUP_SIZE_M"])
def w8a8_block_fp8_kernel(A, B, C, As, Bs, M, N, K, group_n, group_k,
                          stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                          stride_As_m, stride_As_k, stride_Bs_k, stride_Bs_n,
                          GROUP_SIZE_M,
                          BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr):
    pid = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_SIZE_M)
    tiles_n = tl.cdiv(N, BLOCK_SIZE_N)
    per_group = GROUP_SIZE_M * tiles_n
    group = pid // per_group
    row0 = group * GROUP_SIZE_M
    rows_here = tl.minimum(tiles_m - row0, GROUP_SIZE_M)
    pid_m = row0 + pid % rows_here
    pid_n = (pid % per_group) // rows_here

    rm = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    rn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    rk = tl.arange(0, BLOCK_SIZE_K)
    a_tile = A + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_tile = B + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    as_rows = As + rm * stride_As_m
    bs_cols = Bs + (rn // group_n) * stride_Bs_n

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for kt in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        k_left = K - kt * BLOCK_SIZE_K
        a = tl.load(a_tile, mask=rk[None, :] < k_left, other=0.0)
        b = tl.load(b_tile, mask=rk[:, None] < k_left, other=0.0)
        kg = (kt * BLOCK_SIZE_K) // group_k
        a_s = tl.load(as_rows + kg * stride_As_k)
        b_s = tl.load(bs_cols + kg * stride_Bs_k)
        acc += tl.dot(a, b) * a_s[:, None] * b_s[None, :]
        a_tile += BLOCK_SIZE_K * stride_ak
        b_tile += BLOCK_SIZE_K * stride_bk

    c = acc.to(C.dtype.element_ty)
    cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    tl.store(C + cm[:, None] * stride_cm + cn[None, :] * stride_cn, c, mask=(cm[:, None] < M) & (cn[None, :] < N))


def compile_task(payload):
    """Worker side: payload = (dtype, ints, consts, num_warps, num_stages) from plan_spec.compile_spec."""
    import torch
    _dt, ints, consts, w, s = payload
    f8, f32 = torch.float8_e4m3fn, torch.float32
    t0 = time.time()
    k = w8a8_block_fp8_kernel.warmup(f8, f8, torch.bfloat16, f32, f32, *ints, grid=(1,), num_warps=w,
                                     num_stages=s, **consts)
    return (True, "", int(getattr(k.metadata, "shared", 0)), time.time() - t0)


def random_fp8(shape, gen, scale=32.0):
    """fp8 e4m3 data that is never all zeros: randn * scale, clamped to +-448, cast."""
    import torch
    x = torch.randn(shape, device=plan_spec.device(), generator=gen, dtype=torch.float32) * scale
    return x.clamp_(-448.0, 448.0).to(torch.float8_e4m3fn)


def random_scales(shape, gen, lo, hi):
    import torch
    return (torch.rand(shape, device=plan_spec.device(), generator=gen, dtype=torch.float32) * (hi - lo) + lo).contiguous()


def dequant_rows(x, s, group=plan_spec.FP8_GROUP):
    """x fp8 [R, K], s fp32 [R, ceil(K/group)]: x * s per (row, K group), in fp32."""
    k = x.shape[-1]
    return x.float() * s.repeat_interleave(group, dim=-1)[..., :k]


def dequant_blocks(x, s, group=plan_spec.FP8_GROUP):
    """x fp8 [..., R, K], s fp32 [..., ceil(R/group), ceil(K/group)]: x * s per 128x128 block, in fp32."""
    r, k = x.shape[-2], x.shape[-1]
    se = s.repeat_interleave(group, dim=-2)[..., :r, :].repeat_interleave(group, dim=-1)[..., :k]
    return x.float() * se


class Instance:
    def __init__(self, p, seed):
        import torch
        if p["batch"] != 1 or p["layout"] != "NT" or p["dtype"] != "fp8":
            raise ValueError("vllm-fp8-block problems are batch 1, layout NT, dtype fp8")
        self.p = p
        m, n, k = p["m"], p["n"], p["k"]
        g = torch.Generator(device=plan_spec.device())
        g.manual_seed(seed)
        kb, nb = plan_spec.cdiv(k, plan_spec.FP8_GROUP), plan_spec.cdiv(n, plan_spec.FP8_GROUP)
        self.A = random_fp8((m, k), g)
        self.B = random_fp8((n, k), g)
        self.As = random_scales((m, kb), g, 0.5 / 64, 1.5 / 64)
        self.Bs = random_scales((nb, kb), g, 0.5 / 64, 1.5 / 64)
        self.out = torch.empty((m, n), device=plan_spec.device(), dtype=torch.bfloat16)
        ints = dict(plan_spec.fp8_block_ints(p, VLLM_DEFAULT))
        assert (self.A.stride(-2), self.A.stride(-1), self.B.stride(1), self.B.stride(0)) == \
            (ints["stride_am"], ints["stride_ak"], ints["stride_bk"], ints["stride_bn"])
        assert (self.out.stride(-2), self.out.stride(-1)) == (ints["stride_cm"], ints["stride_cn"])
        assert (self.As.stride(-2), self.As.stride(-1), self.Bs.stride(1), self.Bs.stride(0)) == \
            (ints["stride_As_m"], ints["stride_As_k"], ints["stride_Bs_k"], ints["stride_Bs_n"])
        a_deq = dequant_rows(self.A, self.As)
        b_deq = dequant_blocks(self.B, self.Bs)
        self.ref = torch.matmul(a_deq, b_deq.t())
        del a_deq, b_deq
        self.tol = TOL

    def launcher(self, cfg):
        p = self.p
        if plan_spec.FP8_GROUP % cfg["block_k"] != 0:
            raise ValueError(f"BLOCK_SIZE_K {cfg['block_k']} must divide {plan_spec.FP8_GROUP}")
        ints = [v for _name, v in plan_spec.fp8_block_ints(p, cfg)]
        consts = plan_spec.fp8_block_consts(p, cfg)
        grid = (triton.cdiv(p["m"], cfg["block_m"]) * triton.cdiv(p["n"], cfg["block_n"]),)
        args = (self.A, self.B, self.out, self.As, self.Bs, *ints)
        w, s = cfg["num_warps"], cfg["num_stages"]
        kern = w8a8_block_fp8_kernel
        kern.warmup(*args, grid=grid, num_warps=w, num_stages=s, **consts)._init_handles()

        def launch():
            kern[grid](*args, num_warps=w, num_stages=s, **consts)
        return launch

    def vendor_candidates(self):
        """Ways to ask torch._scaled_mm (cuBLAS) for 1x128 (A) x 128x128 (B) block scaling. Which scale
        layout a torch version accepts differs, so the harness tries these in turn and keeps the first that
        runs and passes the check. Each is (label, launch, out). Every scale tensor is a view into a buffer
        with 4096 floats of slack behind it, so a layout that torch accepts but reads differently cannot
        read outside an allocation (a wrong layout then shows as status=wrong, not as a crash)."""
        import torch
        m = self.p["m"]
        a, b = self.A, self.B.t()                     # b: [K, N] column-major, as _scaled_mm wants
        out = torch.empty_like(self.out)

        def view(src, strides):
            rows, cols = src.shape
            need = (rows - 1) * strides[0] + (cols - 1) * strides[1] + 1
            buf = torch.ones(need + 4096, device=plan_spec.device(), dtype=torch.float32)
            t = buf.as_strided((rows, cols), strides)
            t.copy_(src)
            return t
        kb = self.As.shape[1]
        bst = self.Bs.t()                              # [Kb, Nb]
        nb = bst.shape[1]
        r4 = lambda x: (x + 3) // 4 * 4               # noqa: E731
        sa_outer = view(self.As, (1, r4(m)))          # [M, Kb], M-major, leading dim padded to 4
        sa_outer1 = view(self.As, (1, m))             # [M, Kb], M-major
        sa_row = view(self.As, (kb, 1))               # [M, Kb] row-major
        sb_kn_pad = view(bst, (r4(nb), 1))            # [Kb, Nb] row-major, leading dim padded to 4
        sb_kn_colmajor = view(bst, (1, kb))           # [Kb, Nb] view of Bs [Nb, Kb] row-major
        sb_nk = view(self.Bs, (kb, 1))                # [Nb, Kb] row-major
        cands = [
            ("As[M,Kb] M-major pad4, Bs[Kb,Nb] pad4", sa_outer, sb_kn_pad),
            ("As[M,Kb] M-major pad4, Bs^T view", sa_outer, sb_kn_colmajor),
            ("As[M,Kb] M-major, Bs[Kb,Nb] pad4", sa_outer1, sb_kn_pad),
            ("As[M,Kb] M-major pad4, Bs[Nb,Kb]", sa_outer, sb_nk),
            ("As[M,Kb] row-major, Bs[Kb,Nb] pad4", sa_row, sb_kn_pad),
            ("As[M,Kb] row-major, Bs[Nb,Kb]", sa_row, sb_nk),
        ]
        out_list = []
        for label, sa, sb in cands:
            def launch(sa=sa, sb=sb):
                torch._scaled_mm(a, b, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16, out=out)
            out_list.append(("_scaled_mm " + label, launch, out))

        def launch_copy(sa=sa_outer, sb=sb_kn_pad):
            out.copy_(torch._scaled_mm(a, b, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16))
        out_list.append(("_scaled_mm (no out=) " + cands[0][0], launch_copy, out))
        fn = getattr(torch.nn.functional, "scaled_mm", None)
        st = getattr(torch.nn.functional, "ScalingType", None)
        if fn is not None and st is not None and hasattr(st, "BlockWise1x128") and hasattr(st, "BlockWise128x128"):
            for label, sa, sb in cands[:3]:
                def launch_f(sa=sa, sb=sb):
                    out.copy_(fn(a, b, sa, st.BlockWise1x128, sb, st.BlockWise128x128, output_dtype=torch.bfloat16))
                out_list.append(("F.scaled_mm " + label, launch_f, out))
        return out_list
