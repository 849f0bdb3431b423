"""The `triton-tutorial` target: Triton's tutorial matmul (python/tutorials/03-matrix-multiplication.py in
triton-lang/triton, read at commit 7649d87c), written after its algorithm:

  * 1-D grid of cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N) programs, grouped raster: groups of
    GROUP_SIZE_M row tiles, column-major inside a group, the last group smaller
    (pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m, pid_n = (pid % num_pid_in_group) //
    group_size_m);
  * row and column offsets wrapped with % M and % N, so the padded rows / columns of edge tiles load
    real rows / columns of other tiles (never out of bounds) and only K is masked (other=0);
  * fp32 accumulation through tl.dot(a, b, acc); the result cast to the output dtype (= the input dtype,
    bf16 or fp16) and stored with an M and N mask.

Parameters: BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K (constexpr), GROUP_SIZE_M, num_warps, num_stages.
Layouts NN/NT/TN/TT are stride choices (plan_spec.tutorial_strides: letters for row-major storage, 'N' =
A stored MxK / B stored KxN, 'T' = transposed storage). 2-D only (batch 1).

Departures from the tutorial, both deliberate:
  * GROUP_SIZE_M is a runtime int with do_not_specialize (the tutorial has it constexpr). It only changes
    the program-id mapping, and as a runtime value one binary serves every G, so compiles are not
    multiplied by the G values tried.
  * no ACTIVATION epilogue and no autotune decorator: the harness launches one config at a time. The
    tutorial's own CUDA autotune list is TUTORIAL_CONFIGS below (make_plans.py adds it to every shape).
M, N, K and the six strides keep Triton's default integer specialisation, as in the tutorial.
"""
import time

import triton
import triton.language as tl

import plan_spec

KERNEL = "triton-tutorial"

# get_cuda_autotune_config() of the tutorial (commit 7649d87c): (BM, BN, BK, GROUP_SIZE_M, num_warps, num_stages).
# The last eight are marked there "Good config for fp8 inputs".
TUTORIAL_CONFIGS = [
    (128, 256, 64, 8, 8, 3), (64, 256, 32, 8, 4, 4), (128, 128, 32, 8, 4, 4), (128, 64, 32, 8, 4, 4),
    (64, 128, 32, 8, 4, 4), (128, 32, 32, 8, 4, 4), (64, 32, 32, 8, 2, 5), (32, 64, 32, 8, 2, 5),
    (128, 256, 128, 8, 8, 3), (256, 128, 128, 8, 8, 3), (256, 64, 128, 8, 4, 4), (64, 256, 128, 8, 4, 4),
    (128, 128, 128, 8, 4, 4), (128, 64, 64, 8, 4, 4), (64, 128, 64, 8, 4, 4), (128, 32, 64, 8, 4, 4),
]


@triton.jit(do_not_specialize=["GROUP_SIZE_M"])
def tutorial_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                           stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                           GROUP_SIZE_M,
                           BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr):
    pid = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_SIZE_M)
    tiles_n = tl.cdiv(N, BLOCK_SIZE_N)
    per_group = GROUP_SIZE_M * tiles_n
    group = pid // per_group
    row0 = group * GROUP_SIZE_M
    rows_here = tl.minimum(tiles_m - row0, GROUP_SIZE_M)
    local = pid % per_group
    pid_m = row0 + local % rows_here
    pid_n = local // rows_here

    rm = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    rn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    rk = tl.arange(0, BLOCK_SIZE_K)
    a_tile = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_tile = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for kt in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        k_left = K - kt * BLOCK_SIZE_K
        a = tl.load(a_tile, mask=rk[None, :] < k_left, other=0.0)
        b = tl.load(b_tile, mask=rk[:, None] < k_left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_tile += BLOCK_SIZE_K * stride_ak
        b_tile += BLOCK_SIZE_K * stride_bk

    c = acc.to(c_ptr.dtype.element_ty)
    cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    tl.store(c_ptr + cm[:, None] * stride_cm + cn[None, :] * stride_cn, c,
             mask=(cm[:, None] < M) & (cn[None, :] < N))


TOL = {"bf16": 1e-2, "fp16": 5e-3}     # relative Frobenius error against the fp32 reference (as sweep.py)


def _dtype(name):
    import torch
    return {"bf16": torch.bfloat16, "fp16": torch.float16}[name]


def compile_task(payload):
    """Worker side: payload = (dtype, ints, consts, num_warps, num_stages) from plan_spec.compile_spec."""
    dt, ints, consts, w, s = payload
    tdt = _dtype(dt)
    t0 = time.time()
    k = tutorial_matmul_kernel.warmup(tdt, tdt, tdt, *ints, grid=(1,), num_warps=w, num_stages=s, **consts)
    return (True, "", int(getattr(k.metadata, "shared", 0)), time.time() - t0)


class Instance:
    """Inputs, output and reference of one problem. `out` is what the kernel writes, `ref` its fp32
    reference (torch.matmul of fp32 upcasts, TF32 off), `tol` the rel-error bound."""

    def __init__(self, p, seed):
        import torch
        if p["batch"] != 1:
            raise ValueError("triton-tutorial is 2-D: batch must be 1")
        if p["dtype"] not in TOL:
            raise ValueError(f"triton-tutorial: dtype {p['dtype']} (bf16 or fp16)")
        self.p = p
        m, n, k, lay = p["m"], p["n"], p["k"], p["layout"]
        dt = _dtype(p["dtype"])
        g = torch.Generator(device=plan_spec.device())
        g.manual_seed(seed)
        a_store = torch.randn((m, k) if lay[0] == "N" else (k, m), device=plan_spec.device(), generator=g).to(dt)
        b_store = torch.randn((k, n) if lay[1] == "N" else (n, k), device=plan_spec.device(), generator=g).to(dt)
        self.a = a_store if lay[0] == "N" else a_store.t()
        self.b = b_store if lay[1] == "N" else b_store.t()
        self.out = torch.empty((m, n), device=plan_spec.device(), dtype=dt)
        (sam, sak), (sbk, sbn), (scm, scn) = plan_spec.tutorial_strides(m, n, k, lay)
        assert self.a.stride() == (sam, sak) and self.b.stride() == (sbk, sbn) and self.out.stride() == (scm, scn)
        self.ref = torch.matmul(self.a.float(), self.b.float())
        self.tol = TOL[p["dtype"]]

    def launcher(self, cfg):
        """Loads the compiled kernel (disk-cache hit after the worker's warmup) and returns launch()."""
        p = self.p
        ints = [v for _name, v in plan_spec.tutorial_ints(p, cfg)]
        consts = plan_spec.tutorial_consts(p, cfg)
        grid = (triton.cdiv(p["m"], cfg["block_m"]) * triton.cdiv(p["n"], cfg["block_n"]),)
        args = (self.a, self.b, self.out, *ints)
        w, s = cfg["num_warps"], cfg["num_stages"]
        kern = tutorial_matmul_kernel
        kern.warmup(*args, grid=grid, num_warps=w, num_stages=s, **consts)._init_handles()

        def launch():
            kern[grid](*args, num_warps=w, num_stages=s, **consts)
        return launch

    def vendor(self):
        """[(kernel name, launch, output)]: cuBLAS through torch.matmul (a 2-D matmul)."""
        import torch
        out = torch.empty_like(self.out)
        a, b = self.a, self.b
        return [("cublas", lambda: torch.matmul(a, b, out=out), out)]
