"""Candidate space of the `triton` target, exactly as the C++ advisor enumerates it.

Pure Python (no torch/triton import) so it can be run anywhere:

    python3 tools/measure/space.py 4096x4096x4096 [--dtype bf16] [--count]

prints the candidate list as CSV (block_m,block_n,block_k,group_m,num_warps,num_stages,split_k).

Rules (H200 defaults: 132 SMs, 232448 bytes of shared memory per block):
  * block_m in {16,32,64,128,256} with block_m <= max(16, next_pow2(M)); block_n likewise with N;
  * block_k in {16,32,64,128,256} with block_k <= max(16, next_pow2(K)) and block_k*elem_bits >= 256;
  * num_warps in {2,4,8}; num_stages in {1..6}; group_m = 8;
  * shared memory: num_stages*(block_m*block_k + block_k*block_n)*elem_bytes <= smem_per_block;
  * 128*num_warps <= block_m*block_n <= 4096*num_warps;
  * split_k in {1,2,4,8,16}; split_k > 1 only when tiles*split_k <= 2*num_sms and
    K >= split_k*max(block_k, 256), tiles = ceil(M/block_m)*ceil(N/block_n)*batch.
Enumeration order: block_m, block_n, block_k, num_warps, num_stages, split_k (each ascending).
"""

BLOCK_SIZES = (16, 32, 64, 128, 256)
NUM_WARPS = (2, 4, 8)
NUM_STAGES = (1, 2, 3, 4, 5, 6)
SPLIT_KS = (1, 2, 4, 8, 16)
GROUP_M = 8

H200_NUM_SMS = 132
H200_SMEM_PER_BLOCK = 232448

ELEM_BYTES = {"bf16": 2, "fp16": 2, "fp32": 4, "fp8": 1, "fp8e4m3": 1}


def next_pow2(x):
    p = 1
    while p < x:
        p *= 2
    return p


def cdiv(a, b):
    return (a + b - 1) // b


def candidate_space(m, n, k, batch=1, dtype="bf16", num_sms=H200_NUM_SMS,
                    smem_per_block=H200_SMEM_PER_BLOCK):
    """Return the list of candidate configs (dicts) for one problem."""
    eb = ELEM_BYTES[dtype]
    ebits = 8 * eb
    cap_m, cap_n, cap_k = max(16, next_pow2(m)), max(16, next_pow2(n)), max(16, next_pow2(k))
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
                    if not (128 * w <= bm * bn <= 4096 * w):
                        continue
                    for s in NUM_STAGES:
                        if s * (bm * bk + bk * bn) * eb > smem_per_block:
                            continue
                        for sk in SPLIT_KS:
                            if sk > 1 and not (tiles * sk <= 2 * num_sms and k >= sk * max(bk, 256)):
                                continue
                            out.append(dict(block_m=bm, block_n=bn, block_k=bk, group_m=GROUP_M,
                                            num_warps=w, num_stages=s, split_k=sk))
    return out


def _parse_shape(text):
    parts = [int(x) for x in text.lower().split("x")]
    if len(parts) == 3:
        parts.append(1)
    return parts


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("shape", help="MxNxK or MxNxKxB")
    ap.add_argument("--dtype", default="bf16")
    ap.add_argument("--count", action="store_true", help="print only the number of candidates")
    a = ap.parse_args()
    m, n, k, b = _parse_shape(a.shape)
    cfgs = candidate_space(m, n, k, b, a.dtype)
    if a.count:
        print(len(cfgs))
    else:
        cols = ["block_m", "block_n", "block_k", "group_m", "num_warps", "num_stages", "split_k"]
        print(",".join(cols))
        for c in cfgs:
            print(",".join(str(c[x]) for x in cols))
