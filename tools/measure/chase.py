#!/usr/bin/env python3
"""Load-to-use latency of the L2 and of DRAM, by pointer chase: one thread follows a random cyclic
chain of 128-byte-spaced int64 indices, each load's address the previous load's value, so loads
cannot overlap; time per hop = latency. Loads use cache_modifier ".cg" (cached in L2, not L1).

    python3 tools/measure/chase.py --out chase.csv

Per buffer size: a random cyclic permutation of its 128-byte slots. L2 sizes (2-24 MB, under the
L2): a full pass first, so every slot is in L2, then timed hops continue along the chain. DRAM sizes
(256 MB, 2 GiB): the timed hops continue the chain from where the previous run stopped and never
revisit a slot (fewer hops than slots), after 512 MB written to evict the buffer's own initialising
writes, so every load misses the L2. DRAM sizes run two chains (column `chain`): `random`, one
permutation of every slot, so nearly every hop also lands on another 2 MiB page than the last and
may miss the TLB; `page-local`, the 2 MiB pages in random order and each page's slots in random
order within it, so the ~61,000 hops of a run touch a handful of pages and the time is the DRAM's
without the TLB's misses, as a GEMM's loads see it (a tile's rows are contiguous). Time per hop is the slope
between runs of N and 2N hops (CUDA events, median of 5 each), which removes the launch. Cycles at
the SM clock read from nvidia-smi during the runs. Written for this project; the method is the
usual one (e.g. Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking").
"""
import argparse
import statistics

import torch
import triton
import triton.language as tl

from peaks import sm_clock_mhz, write_rows  # same folder: run as tools/measure/chase.py


@triton.jit
def chase_kernel(ptr, start_ptr, out_ptr, n_hops):
    p = tl.load(start_ptr)
    for _ in range(n_hops):
        p = tl.load(ptr + p, cache_modifier=".cg")
    tl.store(out_ptr, p)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    stride = 16  # int64 elements = 128 bytes
    rows = []
    page_slots = (2 << 20) // 128  # slots of a 2 MiB page
    plan = [(2, "L2", "random"), (8, "L2", "random"), (24, "L2", "random")]
    plan += [(mb, "DRAM", chain) for mb in (256, 2048) for chain in ("random", "page-local")]
    for size_mb, level, chain in plan:
        try:
            slots = size_mb * (1 << 20) // 128
            if chain == "random":
                perm = torch.randperm(slots, device="cuda")
            else:  # pages in random order, each page's slots in random order within it
                pages = slots // page_slots
                within = torch.argsort(torch.rand(pages, page_slots, device="cuda"), dim=1)
                perm = (torch.randperm(pages, device="cuda")[:, None] * page_slots + within).reshape(-1)
            buf = torch.zeros(slots * stride, dtype=torch.int64, device="cuda")
            buf[perm * stride] = torch.roll(perm, -1) * stride
            cur = torch.zeros(1, dtype=torch.int64, device="cuda")
            cur[0] = perm[0] * stride
            out = torch.zeros(1, dtype=torch.int64, device="cuda")

            def run(hops):
                chase_kernel[(1,)](buf, cur, out, hops, num_warps=1)
                cur.copy_(out)

            flush = torch.empty(512 << 20, dtype=torch.uint8, device="cuda")
            flush.zero_()   # the buffer's initialising writes leave up to an L2 of it resident: evict them
            del flush
            n = 4096 if level == "DRAM" else 16384
            run(slots if level == "L2" else 64)   # compile; for L2 sizes, a full pass over every slot
            torch.cuda.synchronize()
            times = {}
            clocks = []
            for hops in (n, 2 * n):
                ts = []
                for _ in range(5):
                    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    e0.record()
                    run(hops)
                    e1.record()
                    e1.synchronize()
                    ts.append(e0.elapsed_time(e1) * 1e6)  # ns
                times[hops] = statistics.median(ts)
                clocks.append(sm_clock_mhz())
            ns = (times[2 * n] - times[n]) / n
            clock = max(clocks)
            rows.append(dict(level=level, chain=chain, size_mb=size_mb, hops=n, ns_per_hop=f"{ns:.1f}",
                             cycles_at_clock=f"{ns * clock / 1e3:.0f}", cycles_at_1980=f"{ns * 1.98:.0f}",
                             sm_clock_mhz=clock))
            print(rows[-1], flush=True)
            del buf, perm
            torch.cuda.empty_cache()
        except Exception as e:  # noqa: BLE001 - one size failing keeps the others
            print(f"chase: {size_mb} MB {chain}: {type(e).__name__}: {str(e)[:300]}", flush=True)
    write_rows(a.out, rows)


if __name__ == "__main__":
    main()
