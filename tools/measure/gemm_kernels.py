"""Triton kernels of the `triton` target (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, num_warps, num_stages, SPLIT_K)
plus the compile worker used by sweep.py's process pool.

matmul: C[b] = A[b] @ B[b] for b in range(batch), every operand addressed through strides, so the
four layouts NN/NT/TN/TT are just stride choices. fp32 accumulation via tl.dot. SPLIT_K is a runtime
int: program_id(2) = batch_index*SPLIT_K + split_index, each split covers a contiguous K range of
cdiv(cdiv(K, SPLIT_K), BLOCK_K)*BLOCK_K elements. SPLIT_K == 1 stores C in the output dtype directly;
SPLIT_K > 1 stores fp32 partials into a [batch, SPLIT_K, M, N] workspace, summed and cast by
splitk_reduce_kernel.

Two JIT variants share one body:
  matmul_kernel        - Triton's default integer specialisation for M, N, K and all strides
                         (==1 becomes a constant, %16==0 is an alignment hint). Used by the sweep.
  matmul_kernel_nospec - do_not_specialize for M, N, K (strides still specialised); kept only to
                         show what it costs (see README: masks lose their 16-byte constancy).
SPLIT_K is never specialised, so one compile serves every split value. The batch strides ARE
specialised: an unspecialised batch stride makes the base pointer's alignment unknown, which turns
every load into a 2-byte scalar load (seen: ~110 TFLOP/s instead of ~600). For batch == 1 the
sweep passes batch strides of 0.
"""
import os
import sys
import time

import triton
import triton.language as tl


def _matmul_body(a_ptr, b_ptr, c_ptr, ws_ptr, M, N, K,
                 stride_ab, stride_am, stride_ak,
                 stride_bb, stride_bk, stride_bn,
                 stride_cb, stride_cm, stride_cn,
                 SPLIT_K,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                 GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    pid_z = tl.program_id(2)
    bid = pid_z // SPLIT_K
    sid = pid_z % SPLIT_K
    # grouped raster (GROUP_M swizzle)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = tl.minimum(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    # this split's K range
    k_chunk = tl.cdiv(tl.cdiv(K, SPLIT_K), BLOCK_K) * BLOCK_K
    k_start = tl.multiple_of(sid * k_chunk, BLOCK_K)
    k_iters = tl.cdiv(tl.minimum(K - k_start, k_chunk), BLOCK_K)

    offs_m = tl.max_contiguous(tl.multiple_of(pid_m * BLOCK_M + tl.arange(0, BLOCK_M), BLOCK_M), BLOCK_M)
    offs_n = tl.max_contiguous(tl.multiple_of(pid_n * BLOCK_N + tl.arange(0, BLOCK_N), BLOCK_N), BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    mask_m = offs_m < M
    mask_n = offs_n < N
    a_ptrs = (a_ptr + bid.to(tl.int64) * stride_ab
              + offs_m[:, None] * stride_am + (k_start + offs_k)[None, :] * stride_ak)
    b_ptrs = (b_ptr + bid.to(tl.int64) * stride_bb
              + (k_start + offs_k)[:, None] * stride_bk + offs_n[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for i in range(0, k_iters):
        k_rem = K - k_start - i * BLOCK_K
        a = tl.load(a_ptrs, mask=mask_m[:, None] & (offs_k[None, :] < k_rem), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_rem) & mask_n[None, :], other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    mask_c = mask_m[:, None] & mask_n[None, :]
    if SPLIT_K == 1:
        c_ptrs = (c_ptr + bid.to(tl.int64) * stride_cb
                  + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn)
        tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=mask_c)
    else:
        ws_base = (bid.to(tl.int64) * SPLIT_K + sid) * M * N
        w_ptrs = ws_ptr + ws_base + offs_m[:, None] * N + offs_n[None, :]
        tl.store(w_ptrs, acc, mask=mask_c)


_NEVER = ["SPLIT_K"]
matmul_kernel = triton.jit(do_not_specialize=_NEVER)(_matmul_body)
matmul_kernel_nospec = triton.jit(do_not_specialize=_NEVER + ["M", "N", "K"])(_matmul_body)
KERNELS = {"spec": matmul_kernel, "nospec": matmul_kernel_nospec}


@triton.jit(do_not_specialize=["MN", "TOTAL", "SPLIT_K"])
def splitk_reduce_kernel(ws_ptr, c_ptr, MN, TOTAL, SPLIT_K, BLOCK: tl.constexpr):
    """c[b, mn] = sum_s ws[b, s, mn] (c contiguous [batch, M, N], ws contiguous [batch, S, M, N])."""
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < TOTAL
    b = offs // MN
    r = offs - b * MN
    base = b * SPLIT_K * MN + r
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for s in range(0, SPLIT_K):
        acc += tl.load(ws_ptr + base + s * MN, mask=mask, other=0.0)
    tl.store(c_ptr + offs, acc.to(c_ptr.dtype.element_ty), mask=mask)


REDUCE_BLOCK = 1024


# ----------------------------------------------------------------------------------------------
# compile worker (runs in spawned processes; warms the shared on-disk Triton cache)
# ----------------------------------------------------------------------------------------------
def worker_init(nice=10):
    try:
        os.nice(nice)
    except OSError:
        pass
    import torch  # noqa: F401  (CUDA context is created lazily by Triton's driver)


def torch_dtypes(dt):
    """(operand dtype, output dtype) of a dtype name: fp8 is e4m3 with a bf16 output (the advisor's
    output_dtype), the 16-bit types output themselves."""
    import torch
    return {"bf16": (torch.bfloat16, torch.bfloat16), "fp16": (torch.float16, torch.float16),
            "fp8": (torch.float8_e4m3fn, torch.bfloat16)}[dt]


def compile_task(task):
    """task = (variant, dtype_name, ints, constexprs, num_warps, num_stages).
    ints = (M, N, K, stride_ab, stride_am, stride_ak, stride_bb, stride_bk, stride_bn,
            stride_cb, stride_cm, stride_cn, SPLIT_K): the real problem's values, so the
    specialisation key equals the one of the real launch. Returns (ok, error, shared_bytes, seconds)."""
    import torch
    variant, dt, ints, consts, w, s = task
    tdt, odt = torch_dtypes(dt)
    t0 = time.time()
    try:
        k = KERNELS[variant].warmup(tdt, tdt, odt, torch.float32, *ints, grid=(1,),
                                    num_warps=w, num_stages=s, **consts)
        shared = int(getattr(k.metadata, "shared", 0))
        return (True, "", shared, time.time() - t0)
    except Exception as e:  # compile failure is data, not a crash
        msg = f"{type(e).__name__}: {e}".replace("\n", " ")[:300]
        return (False, msg, 0, time.time() - t0)
