#!/usr/bin/env python3
"""Compile-only probe of chosen (shape, config) pairs of the masked and tutorial kernels: registers, spills and the
global-load instructions in the SASS (vector width), to check the advisor's operand-alignment rules on
the shapes where it misses (data/measurements/h200-worst-probe.csv, README there).

    python3 tools/measure/worst_probe.py --out OUT.csv"""
import argparse
import collections
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import resource_probe  # noqa: E402

TASKS = [  # (kernel, m, n, k, layout, block_m, block_n, block_k, num_warps, num_stages)
    ("triton", 1, 130, 6868, "TT", 16, 16, 256, 2, 5), ("triton", 1, 130, 6868, "TT", 16, 32, 128, 4, 3),
    ("triton", 1, 130, 6868, "TT", 16, 64, 256, 8, 5), ("triton", 1, 130, 6868, "TT", 16, 16, 128, 2, 3),
    ("triton", 1, 130, 6868, "NT", 16, 16, 256, 2, 5), ("triton", 16, 130, 6868, "TT", 16, 16, 256, 2, 5),
    ("triton", 65536, 1, 256, "NN", 128, 16, 128, 4, 1), ("triton", 65536, 1, 256, "NN", 256, 16, 128, 4, 1),
    ("triton", 65536, 16, 256, "NN", 128, 16, 128, 4, 1),
    ("triton", 10020, 2215, 12, "NN", 16, 256, 16, 4, 1), ("triton", 10020, 2215, 12, "NN", 128, 256, 16, 8, 3),
    ("triton", 1000, 1000, 1000, "NT", 128, 128, 64, 8, 3), ("triton", 1000, 1000, 1000, "NT", 128, 64, 64, 8, 3),
    ("triton-tutorial", 1536, 2999, 2048, "NN", 256, 32, 256, 8, 1),
    ("triton-tutorial", 1536, 2999, 2048, "NN", 256, 32, 256, 8, 2),
    ("triton-tutorial", 1536, 2999, 2048, "NN", 256, 32, 256, 4, 1),
    ("triton-tutorial", 1536, 2999, 2048, "NN", 128, 64, 256, 8, 1),
    ("triton-tutorial", 1536, 2999, 2048, "NN", 128, 64, 256, 4, 2),
    ("triton-tutorial", 1536, 2999, 2048, "NN", 64, 128, 256, 4, 2),
    ("triton-tutorial", 1536, 2999, 2048, "NN", 256, 32, 128, 4, 1),
    ("triton-tutorial", 1536, 2999, 2048, "NN", 256, 32, 128, 8, 2),
    ("triton-tutorial", 1536, 2999, 2048, "NN", 256, 32, 64, 4, 2),
    ("triton-tutorial", 1536, 2999, 2048, "NN", 128, 64, 128, 8, 2),
    ("triton-tutorial", 1536, 2999, 2048, "NN", 64, 64, 256, 4, 3),
    ("triton-tutorial", 1536, 2999, 2048, "NN", 128, 32, 256, 4, 2),
    ("triton-tutorial", 2048, 5003, 2048, "NN", 256, 32, 256, 8, 1),
    ("triton-tutorial", 2048, 5003, 2048, "NN", 256, 32, 256, 8, 2),
    ("triton-tutorial", 2048, 5003, 2048, "NN", 256, 32, 256, 4, 1),
    ("triton-tutorial", 2048, 5003, 2048, "NN", 128, 64, 256, 8, 1),
    ("triton-tutorial", 2048, 5003, 2048, "NN", 128, 64, 256, 4, 2),
    ("triton-tutorial", 2048, 5003, 2048, "NN", 64, 128, 256, 4, 2),
    ("triton-tutorial", 2048, 5003, 2048, "NN", 256, 32, 128, 4, 1),
    ("triton-tutorial", 2048, 5003, 2048, "NN", 256, 32, 128, 8, 2),
    ("triton-tutorial", 2048, 5003, 2048, "NN", 256, 32, 64, 4, 2),
    ("triton-tutorial", 2048, 5003, 2048, "NN", 128, 64, 128, 8, 2),
    ("triton-tutorial", 2048, 5003, 2048, "NN", 64, 64, 256, 4, 3),
    ("triton-tutorial", 2048, 5003, 2048, "NN", 128, 32, 256, 4, 2),
    ("triton", 1536, 2999, 2048, "NN", 256, 32, 256, 8, 1),
    ("triton", 1536, 2999, 2048, "NN", 256, 32, 256, 8, 2),
    ("triton", 1536, 2999, 2048, "NN", 256, 32, 256, 4, 1),
    ("triton", 1536, 2999, 2048, "NN", 128, 64, 256, 8, 1),
    ("triton", 1536, 2999, 2048, "NN", 128, 64, 256, 4, 2),
    ("triton", 1536, 2999, 2048, "NN", 64, 128, 256, 4, 2),
    ("triton", 1536, 2999, 2048, "NN", 256, 32, 128, 4, 1),
    ("triton", 1536, 2999, 2048, "NN", 256, 32, 128, 8, 2),
    ("triton", 1536, 2999, 2048, "NN", 256, 32, 64, 4, 2),
    ("triton", 1536, 2999, 2048, "NN", 128, 64, 128, 8, 2),
    ("triton", 1536, 2999, 2048, "NN", 64, 64, 256, 4, 3),
    ("triton", 1536, 2999, 2048, "NN", 128, 32, 256, 4, 2),
    ("triton", 2048, 5003, 2048, "NN", 256, 32, 256, 8, 1),
    ("triton", 2048, 5003, 2048, "NN", 256, 32, 256, 8, 2),
    ("triton", 2048, 5003, 2048, "NN", 256, 32, 256, 4, 1),
    ("triton", 2048, 5003, 2048, "NN", 128, 64, 256, 8, 1),
    ("triton", 2048, 5003, 2048, "NN", 128, 64, 256, 4, 2),
    ("triton", 2048, 5003, 2048, "NN", 64, 128, 256, 4, 2),
    ("triton", 2048, 5003, 2048, "NN", 256, 32, 128, 4, 1),
    ("triton", 2048, 5003, 2048, "NN", 256, 32, 128, 8, 2),
    ("triton", 2048, 5003, 2048, "NN", 256, 32, 64, 4, 2),
    ("triton", 2048, 5003, 2048, "NN", 128, 64, 128, 8, 2),
    ("triton", 2048, 5003, 2048, "NN", 64, 64, 256, 4, 3),
    ("triton", 2048, 5003, 2048, "NN", 128, 32, 256, 4, 2),
]
COLS = ["kernel", "m", "n", "k", "layout", "block_m", "block_n", "block_k", "num_warps", "num_stages", "ok", "n_regs",
        "n_spills", "shared_bytes", "ldg", "ldgsts", "lds", "error"]


def one(t):
    """Compiles one task of TASKS; returns its CSV row (ok 0 and the error where the compile fails)."""
    kernel, m, n, k, lay, bm, bn, bk, w, s = t
    row = dict(zip(COLS[:10], t))
    try:
        kern = resource_probe.compile_kernel(kernel, m, n, k, lay, dict(block_m=bm, block_n=bn, block_k=bk, group_m=8,
                                                                     num_warps=w, num_stages=s, split_k=1))
        sass = resource_probe.sass_of(kern)
        def ops(pattern):  # "OPCODE:count;..." of the SASS instructions matching pattern
            return ";".join(f"{a}:{b}" for a, b in sorted(collections.Counter(re.findall(pattern, sass)).items()))
        row.update(ok=1, n_regs=kern.n_regs, n_spills=kern.n_spills, shared_bytes=kern.metadata.shared,
                   ldg=ops(r"\b(LDG\.[A-Z0-9.]+)"), ldgsts=ops(r"\b(LDGSTS\.[A-Z0-9.]+)"), lds=ops(r"\b(LDS\.[A-Z0-9.]+|LDSM\.[A-Z0-9.]+)"), error="")
    except Exception as e:
        row.update(ok=0, error=f"{type(e).__name__}: {e}".replace("\n", " ")[:300])
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    resource_probe.run_probe("worst_probe", TASKS, one, COLS, a.out, 12, 6)

if __name__ == "__main__":
    main()
