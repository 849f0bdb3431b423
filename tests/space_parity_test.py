#!/usr/bin/env python3
"""The measurement harness (tools/measure/space.py) and the C++ `triton` target must enumerate the
same candidate space on the H200, or `evaluate` would score configs the advisor never proposes.
Usage: space_parity_test.py PATH/TO/gemm-advisor (run from the repo root)."""
import csv
import io
import subprocess
import sys

sys.path.insert(0, "tools/measure")
import space  # noqa: E402

BIN = sys.argv[1]
failed = 0
shapes = ["8192x8192x8192", "1x4096x4096", "127x4095x1023", "128x128x65536", "16x6144x4096", "65536x256x512",
          "1x1x1", "4097x4097x511", "8192x3001x24"]
# NT and NN: odd K leaves both operands unaligned in NT and only A in NN, odd N only B in NN (the
# unaligned operand keeps one shared-memory buffer, space.operand_pipelining).
cases = [(s, lay) for s in shapes for lay in ("NT", "NN")]
for s, lay in cases:
    m, n, k = map(int, s.split("x"))
    py = {(c["block_m"], c["block_n"], c["block_k"], c["num_warps"], c["num_stages"], c["split_k"])
          for c in space.candidate_space(m, n, k, layout=lay)}
    out = subprocess.run([BIN, "rank", s, "--hw", "h200", "--layout", lay, "--top", "0", "--format", "csv"],
                         capture_output=True, text=True, check=True).stdout
    cpp = {tuple(int(r[c]) for c in ("block_m", "block_n", "block_k", "num_warps", "num_stages", "split_k"))
           for r in csv.DictReader(io.StringIO(out))}
    if py != cpp or not py:
        failed += 1
        print(f"FAIL {s} {lay}: python {len(py)} configs, C++ {len(cpp)}; only in python {sorted(py - cpp)[:5]}, "
              f"only in C++ {sorted(cpp - py)[:5]}")
# Shapes the advisor rejects, space.py rejects too: one usage line, exit 2 (it printed tracebacks for
# 'abc' and '4096x4096', and counted candidates for M = 0 and M = 99999999999: a fresh user's find).
for bad, says in (("abc", "expected MxNxK or MxNxKxB"), ("4096x4096", "expected MxNxK or MxNxKxB"),
                  ("0x1x1", "M = 0 is outside 1..2147483647"), ("99999999999x2x2", "M = 99999999999 is outside")):
    r = subprocess.run([sys.executable, space.__file__, bad, "--count"], capture_output=True, text=True)
    ok = r.returncode == 2 and not r.stdout and says in r.stderr and "Traceback" not in r.stderr
    cpp = subprocess.run([BIN, "rank", bad, "--hw", "h200"], capture_output=True, text=True)
    ok = ok and cpp.returncode != 0
    if not ok:
        failed += 1
        print(f"FAIL space.py {bad}: rc {r.returncode}, stderr {r.stderr[-200:]!r}; the advisor's rc {cpp.returncode}")
    cases.append((bad, "bad"))
print(f"{len(cases) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
