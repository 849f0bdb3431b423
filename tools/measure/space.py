"""Candidate space of the `triton` target, exactly as the C++ advisor enumerates it.

Pure Python (no torch/triton import) so it can be run anywhere:

    python3 tools/measure/space.py 4096x4096x4096 [--dtype bf16] [--count]

prints the candidate list as CSV (block_m,block_n,block_k,group_m,num_warps,num_stages,split_k).

Rules (H200 defaults: 132 SMs, 232448 bytes of shared memory per block, 65536 registers per SM, at
most 255 a thread; what Triton 3.6 compiles there, measured: the compile grid of
data/measurements/h200-triton-extra.csv):
  * block_m in {16,32,64,128,256} with block_m <= max(16, next_pow2(M)); block_n likewise with N;
  * block_k in {16,32,64,128,256} with block_k <= max(16, next_pow2(K), the smallest power of two
    holding 256 bits) and block_k*elem_bits >= 256;
  * num_warps in {2,4,8}; num_stages in {1..6}; group_m = 8;
  * shared memory: buffers*(block_m*block_k + block_k*block_n)*elem_bytes <= smem_per_block, with
    buffers = num_stages for wgmma (block_m >= 64 and num_warps >= 4), max(1, num_stages - 1) for
    the mma.sync fallback; with `layout` given, an unaligned operand (contiguous dimension not a
    multiple of 16 elements) of 16-bit or 8-bit elements keeps one buffer (Triton's pipeliner leaves
    loads narrower than 32 bits out of the pipeline: the C++ triton_operand_pipelining; measured,
    data/measurements/h200-resource-probe.csv). Without `layout` (the plans measured before
    2026-12-02) every operand keeps `buffers`; with `layout` and N not a multiple of 16, configs of
    8 warps need bm*bn*4 bytes for the epilogue's fp32 layout conversion, if more (the C++
    triton_store_scratch_min_warps; measured, data/measurements/h200-triton-m.csv);
  * one wgmma's accumulator plus 32 registers within the thread's cap min(255, 65536 / threads)
    (warpgroups laid over M first: N = min(256, block_n / warpgroups along N));
  * split_k in {1, 2, 4, ..., 256}; split_k > 1 only when tiles <= 2*num_sms, K >= split_k*max(block_k, 256)
    and tiles*split_k <= 2*num_sms, or tiles*split_k <= 16*num_sms where K >= split_k*4096 (since
    2026-12-04); tiles = ceil(M/block_m)*ceil(N/block_n)*batch.
Enumeration order: block_m, block_n, block_k, num_warps, num_stages, split_k (each ascending).

The spaces of the other targets of harness.py are below candidate_space: tutorial_space
(`triton-tutorial`), fp8_block_space (`vllm-fp8-block`), fused_moe_space (`vllm-fused-moe`); each
docstring gives its rules and their source. `--target NAME` prints one of them (for vllm-fused-moe the
shape is ignored; give --dtype bf16 or fp8).
"""

BLOCK_SIZES = (16, 32, 64, 128, 256)
NUM_WARPS = (2, 4, 8)
NUM_STAGES = (1, 2, 3, 4, 5, 6)
SPLIT_KS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
GROUP_M = 8

H200_NUM_SMS = 132
H200_SMEM_PER_BLOCK = 232448
H200_REGISTERS_PER_SM = 65536
H200_MAX_REGISTERS_PER_THREAD = 255
WGMMA_M, WGMMA_MAX_N, WGMMA_WARPS, MMA_N = 64, 256, 4, 8
REGISTER_RESERVE = 32       # model_params.hpp register_overhead_per_thread
STORE_SCRATCH_MIN_WARPS = 8  # profiles/h200.yaml triton.misaligned_store_scratch_min_warps


def h200_compiles(bm, bn, bk, w, s, eb, smem_per_block=H200_SMEM_PER_BLOCK, pipelined=(True, True),
                  store_scratch=False):
    """Whether Triton 3.6 compiles and launches the config on the H200 (see the module docstring).
    pipelined: whether A and B are multi-buffered (operand_pipelining); store_scratch: N is not a
    multiple of 16, so from STORE_SCRATCH_MIN_WARPS warps the epilogue takes bm*bn*4 bytes."""
    full = bm >= WGMMA_M and w >= WGMMA_WARPS
    buffers = s if full else max(1, s - 1)
    a_buf, b_buf = (buffers if pipelined[0] else 1), (buffers if pipelined[1] else 1)
    smem = (a_buf * bm * bk + b_buf * bk * bn) * eb
    if store_scratch and w >= STORE_SCRATCH_MIN_WARPS:
        smem = max(smem, bm * bn * 4)
    if smem > smem_per_block or w * 32 > 1024:
        return False
    cap = min(H200_MAX_REGISTERS_PER_THREAD, H200_REGISTERS_PER_SM // (w * 32))
    if full:
        groups = w // WGMMA_WARPS
        along_m = max(1, min(groups, bm // WGMMA_M))
        n = min(WGMMA_MAX_N, max(MMA_N, bn // max(1, groups // along_m)))
        inst = WGMMA_M * n / (WGMMA_WARPS * 32)
    else:
        inst = WGMMA_M * MMA_N / 32
    return inst + REGISTER_RESERVE <= cap

ELEM_BYTES = {"bf16": 2, "fp16": 2, "fp32": 4, "fp8": 1, "fp8e4m3": 1}


def next_pow2(x):
    p = 1
    while p < x:
        p *= 2
    return p


def cdiv(a, b):
    return (a + b - 1) // b


MIN_PIPELINED_LOAD_BITS = 32  # profiles/h200.yaml triton.min_pipelined_load_bits


def operand_pipelining(m, n, k, layout, dtype="bf16"):
    """(A pipelined, B pipelined): an operand whose contiguous dimension (A: K, or M where A is stored
    K x M; B: N, or K where B is stored N x K) is not a multiple of 16 elements is loaded one element at a
    time, and Triton leaves such a load out of the software pipeline when the element is narrower than
    32 bits. layout None: both pipelined (the rule before 2026-12-02)."""
    if layout is None:
        return (True, True)
    narrow = 8 * ELEM_BYTES[dtype] < MIN_PIPELINED_LOAD_BITS
    a_aligned = (m if layout[0] == "T" else k) % 16 == 0
    b_aligned = (k if layout[1] == "T" else n) % 16 == 0
    return (a_aligned or not narrow, b_aligned or not narrow)


def candidate_space(m, n, k, batch=1, dtype="bf16", num_sms=H200_NUM_SMS,
                    smem_per_block=H200_SMEM_PER_BLOCK, layout=None):
    """Return the list of candidate configs (dicts) for one problem (layout: see operand_pipelining)."""
    eb = ELEM_BYTES[dtype]
    ebits = 8 * eb
    pipelined = operand_pipelining(m, n, k, layout, dtype)
    store_scratch = layout is not None and n % 16 != 0
    # BLOCK_K covers next_pow2(K) and at least the 256 bits a K-step must hold (as the C++ does).
    cap_m, cap_n, cap_k = max(16, next_pow2(m)), max(16, next_pow2(n)), max(16, next_pow2(k), next_pow2(-(-256 // ebits)))
    out = []
    for bm in BLOCK_SIZES:
        if bm > cap_m:
            continue
        for bn in BLOCK_SIZES:
            if bn > cap_n:
                continue
            for bk in BLOCK_SIZES:
                if bk > cap_k or bk * ebits < 256:
                    continue
                tiles = cdiv(m, bm) * cdiv(n, bn) * batch
                for w in NUM_WARPS:
                    for s in NUM_STAGES:
                        if not h200_compiles(bm, bn, bk, w, s, eb, smem_per_block, pipelined, store_scratch):
                            continue
                        for sk in SPLIT_KS:
                            if sk > 1 and not (tiles <= 2 * num_sms and k >= sk * max(bk, 256) and
                                               (tiles * sk <= 2 * num_sms or
                                                (tiles * sk <= 16 * num_sms and k >= sk * 4096))):
                                continue
                            out.append(dict(block_m=bm, block_n=bn, block_k=bk, group_m=GROUP_M,
                                            num_warps=w, num_stages=s, split_k=sk))
    return out


# ----------------------------------------------------------------------------------------------
# Spaces of the other targets (plan generation for harness.py; see README.md). Pure Python too.
# ----------------------------------------------------------------------------------------------
TUTORIAL_GROUP_M = 8


def tutorial_space(m, n, k, dtype="bf16", num_sms=H200_NUM_SMS, smem_per_block=H200_SMEM_PER_BLOCK, layout=None):
    """Space of the `triton-tutorial` kernel (tutorial_kernel.py): the `triton` space above for the same
    problem without split-K (split_k = 1 only: the tutorial kernel has none) and GROUP_SIZE_M = 8 (the
    tutorial's value). Same rules otherwise: tile caps by next_pow2, BLOCK_K*bits >= 256, the shared
    memory and register/warp filters. Same enumeration order."""
    out = []
    for c in candidate_space(m, n, k, 1, dtype, num_sms, smem_per_block, layout):
        if c["split_k"] == 1:
            c = dict(c, group_m=TUTORIAL_GROUP_M)
            out.append(c)
    return out


# vLLM benchmarks/kernels/benchmark_w8a8_block_fp8.py, get_configs_compute_bound() (read at
# vllm-project/vllm commit 07ed7ce7): loops num_stages, block_m, block_k, block_n, num_warps, group_size;
# the tuner then keeps the configs with block_k % BLOCK_SIZE_K == 0 (block_k = 128: both 64 and 128 stay).
FP8_BLOCK_STAGES = (2, 3, 4, 5)
FP8_BLOCK_BM = (16, 32, 64, 128, 256)
FP8_BLOCK_BK = (64, 128)
FP8_BLOCK_BN = (32, 64, 128, 256)
FP8_BLOCK_WARPS = (4, 8)
FP8_BLOCK_GROUP_M = (1, 16, 32, 64)
FP8_QUANT_BLOCK = 128        # group_n = group_k = 128 ([128, 128] block scales)


def smem_bytes(bm, bn, bk, stages, elem_bytes):
    """The shared-memory estimate used by every filter here: stages*(BM*BK + BK*BN)*elem_bytes."""
    return stages * (bm * bk + bk * bn) * elem_bytes


def collapse_group_m(m_rows, block_m, group_ms):
    """GROUP_SIZE_M values of `group_ms` (ascending) that give distinct program-id mappings for a grid of
    ceil(m_rows/block_m) row tiles: every G >= ceil(m_rows/block_m) gives the same mapping (one group
    spans all row tiles, so pid_m = pid % num_pid_m and pid_n = pid // num_pid_m), so of those only the
    smallest G of the list is kept. The G below that bound are all kept."""
    npm = max(1, -(-m_rows // block_m))
    out = []
    covered = False
    for g in sorted(group_ms):
        if g >= npm:
            if covered:
                continue
            covered = True
        out.append(g)
    return out


def fp8_block_keys(smem_per_block=H200_SMEM_PER_BLOCK):
    """The (block_m, block_n, block_k, num_warps, num_stages) combinations of vLLM's block-fp8 tuner
    space that fit the shared-memory filter (1 byte per fp8 element), in the tuner's loop order. These
    are the compile keys: GROUP_SIZE_M is a runtime argument of fp8_block_kernel.py."""
    out = []
    for s in FP8_BLOCK_STAGES:
        for bm in FP8_BLOCK_BM:
            for bk in FP8_BLOCK_BK:
                if FP8_QUANT_BLOCK % bk != 0:
                    continue
                for bn in FP8_BLOCK_BN:
                    for w in FP8_BLOCK_WARPS:
                        if smem_bytes(bm, bn, bk, s, 1) > smem_per_block:
                            continue
                        out.append((bm, bn, bk, w, s))
    return out


def fp8_block_space(m, n, k, keys=None, smem_per_block=H200_SMEM_PER_BLOCK):
    """Space of the `vllm-fp8-block` kernel (fp8_block_kernel.py) for C[M,N] = A[M,K]·B[N,K]^T with
    [128,128] block scales: vLLM's tuner space (benchmark_w8a8_block_fp8.py get_configs_compute_bound:
    num_stages {2,3,4,5}, BLOCK_SIZE_M {16,32,64,128,256}, BLOCK_SIZE_K {64,128}, BLOCK_SIZE_N
    {32,64,128,256}, num_warps {4,8}, GROUP_SIZE_M {1,16,32,64}; BLOCK_SIZE_K must divide 128), less
    the configs whose shared memory num_stages*(BM*BK + BK*BN) bytes passes smem_per_block, and with the
    GROUP_SIZE_M values that give the same program-id mapping collapsed (collapse_group_m: of the G >=
    ceil(M/BLOCK_SIZE_M) only the smallest is kept). The tuner does not cap tiles by the problem size,
    so neither does this space. `keys` restricts it to a subset of fp8_block_keys() (a plan's sample).
    n and k do not change the space; they are taken for symmetry with the other spaces."""
    if keys is None:
        keys = fp8_block_keys(smem_per_block)
    out = []
    for (bm, bn, bk, w, s) in keys:
        for g in collapse_group_m(m, bm, FP8_BLOCK_GROUP_M):
            out.append(dict(block_m=bm, block_n=bn, block_k=bk, group_m=g, num_warps=w, num_stages=s,
                            split_k=1))
    return out


# vLLM benchmarks/kernels/benchmark_moe.py, get_configs_compute_bound(use_fp16, block_quant_shape), the
# CUDA branch (read at vllm-project/vllm, the upstream version with get_rocm_tuning_space): BLOCK_SIZE_M
# {16,32,64,128,256}, BLOCK_SIZE_N {32,64,128,256}, BLOCK_SIZE_K {64,128,256}, GROUP_SIZE_M {1,16,32,64},
# num_warps {4,8}, num_stages {2,3,4,5} (1920 configs); with fp8 block quantization it drops every
# config with BLOCK_SIZE_K % block_k != 0 or BLOCK_SIZE_N % block_n != 0.
MOE_BM = (16, 32, 64, 128, 256)
MOE_BN = (32, 64, 128, 256)
MOE_BK = (64, 128, 256)
MOE_GROUP_M = (1, 16, 32, 64)
MOE_WARPS = (4, 8)
MOE_STAGES = (2, 3, 4, 5)


def fused_moe_space(dtype="bf16", block_shape=(128, 128), smem_per_block=H200_SMEM_PER_BLOCK):
    """Space of the `vllm-fused-moe` kernel (fused_moe_kernel.py): vLLM's NVIDIA tuner space (above),
    for dtype 'bf16' (16-bit operands) or 'fp8' (fp8_w8a8 with `block_shape` [block_n, block_k] scales:
    the tuner's divisibility rule, BLOCK_SIZE_K % block_k == 0 and BLOCK_SIZE_N % block_n == 0).
    Two additions of ours, both stated in README.md:
      * for fp8 BLOCK_SIZE_K is clamped to min(BLOCK_SIZE_K, block_n, block_k) as vLLM's
        invoke_fused_moe_kernel does before the launch, so BLOCK_SIZE_K = 256 runs the 128 kernel;
        the clamped duplicates are kept once;
      * the shared-memory filter num_stages*(BM*BK + BK*BN)*elem_bytes <= smem_per_block (elem_bytes
        2 for bf16, 1 for fp8; the tuner instead skips configs that raise OutOfResources).
    Enumeration order: the tuner's itertools.product order (BLOCK_SIZE_M, N, K, GROUP_SIZE_M,
    num_warps, num_stages)."""
    eb = 1 if dtype == "fp8" else 2
    out = []
    seen = set()
    for bm in MOE_BM:
        for bn in MOE_BN:
            for bk in MOE_BK:
                for g in MOE_GROUP_M:
                    for w in MOE_WARPS:
                        for s in MOE_STAGES:
                            bk_eff = bk
                            if dtype == "fp8":
                                bn_q, bk_q = block_shape
                                if bk % bk_q != 0 or bn % bn_q != 0:
                                    continue
                                bk_eff = min(bk, bn_q, bk_q)
                            if smem_bytes(bm, bn, bk_eff, s, eb) > smem_per_block:
                                continue
                            key = (bm, bn, bk_eff, g, w, s)
                            if key in seen:
                                continue
                            seen.add(key)
                            out.append(dict(block_m=bm, block_n=bn, block_k=bk_eff, group_m=g, num_warps=w,
                                            num_stages=s, split_k=1))
    return out


MAX_DIM = 2147483647   # the advisor's largest M, N or K (problem.hpp kMaxDim)
MAX_BATCH = 16777216   # and batch (kMaxBatch)


def _parse_shape(text):
    """[M, N, K, batch] of 'MxNxK' or 'MxNxKxB'; ValueError with the advisor's bounds otherwise."""
    parts = text.lower().split("x")
    if len(parts) not in (3, 4) or not all(p.isdigit() for p in parts):
        raise ValueError(f"shape '{text}': expected MxNxK or MxNxKxB of whole numbers")
    values = [int(p) for p in parts] + ([1] if len(parts) == 3 else [])
    for name, v, top in zip("MNKB", values, (MAX_DIM, MAX_DIM, MAX_DIM, MAX_BATCH)):
        if not 1 <= v <= top:
            raise ValueError(f"shape '{text}': {name} = {v} is outside 1..{top}")
    return values


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("shape", help="MxNxK or MxNxKxB")
    ap.add_argument("--dtype", default="bf16")
    ap.add_argument("--count", action="store_true", help="print only the number of candidates")
    ap.add_argument("--layout", default="NT", help="NN, NT, TN or TT (default NT, as the advisor's)")
    ap.add_argument("--target", default="triton",
                    choices=["triton", "triton-tutorial", "vllm-fp8-block", "vllm-fused-moe"])
    a = ap.parse_args()
    try:
        m, n, k, b = _parse_shape(a.shape)
    except ValueError as e:
        ap.error(str(e))  # one line and exit 2, as the advisor's usage errors (no traceback)
    if a.target == "triton":
        cfgs = candidate_space(m, n, k, b, a.dtype, layout=a.layout.upper())
    elif a.target == "triton-tutorial":
        cfgs = tutorial_space(m, n, k, a.dtype, layout=a.layout.upper())
    elif a.target == "vllm-fp8-block":
        cfgs = fp8_block_space(m, n, k)
    else:
        cfgs = fused_moe_space(a.dtype)
    if a.count:
        print(len(cfgs))
    else:
        cols = ["block_m", "block_n", "block_k", "group_m", "num_warps", "num_stages", "split_k"]
        print(",".join(cols))
        for c in cfgs:
            print(",".join(str(c[x]) for x in cols))
