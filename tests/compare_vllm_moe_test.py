#!/usr/bin/env python3
"""tools/compare_vllm_moe.py end to end on a small typed-in table (same columns as the public
vllm_fused_moe_configs.csv, values made up for the test): file matching and skipping, the counts, the
ratios' sanity, the block-fp8 BLOCK_SIZE_K clamp, and a bad path's one-line error.
Usage: compare_vllm_moe_test.py PATH/TO/gemm-advisor"""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

import cli_harness

BIN = sys.argv[1]
TOOL = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools", "compare_vllm_moe.py")
TMP = cli_harness.temp_dir("gemm-advisor-compare-vllm-moe-test-")
check = cli_harness.check

COLS = ["device_name", "E", "N", "dtype", "block_shape", "backend", "M", "block_m", "block_n", "block_k", "group_m",
        "num_warps", "num_stages", "kpack", "matrix_instr_nonkdim", "waves_per_eu", "source_path",
        "file_last_commit_subject"]
H200 = "NVIDIA_H200"
ROWS = [
    # Mixtral-8x7B tp2 (E 8, N 14336 / 2): two M rows, matched
    (H200, 8, 7168, "", "", "", 1, 16, 32, 64, 1, 4, 4, "", "", "", "E=8,N=7168,device_name=NVIDIA_H200.json", "x"),
    (H200, 8, 7168, "", "", "", 64, 64, 128, 64, 16, 4, 3, "", "", "", "E=8,N=7168,device_name=NVIDIA_H200.json", "x"),
    # no public model has E 7: skipped, unknown (E, N)
    (H200, 7, 1234, "", "", "", 1, 16, 32, 64, 1, 4, 4, "", "", "", "E=7,N=1234,device_name=NVIDIA_H200.json", "x"),
    # not Triton: skipped
    (H200, 8, 7168, "", "", "flydsl", 1, "", "", "", "", "", "", "", "", "",
     "E=8,N=7168,device_name=NVIDIA_H200,backend=flydsl.json", "x"),
    # int8: skipped
    (H200, 8, 7168, "int8_w8a16", "", "", 1, 16, 32, 64, 1, 4, 4, "", "", "",
     "E=8,N=7168,device_name=NVIDIA_H200,dtype=int8_w8a16.json", "x"),
    # E 128, N 768: Qwen3-30B-A3B tp1 and Qwen3-235B-A22B tp2 (different H): the subject decides ...
    (H200, 128, 768, "", "", "", 16, 16, 64, 64, 1, 4, 3, "", "", "", "a/E=128,N=768,device_name=NVIDIA_H200.json",
     "[Model] Add Qwen/Qwen3-30B-A3B configs"),
    # ... and without a name in it the file is ambiguous: skipped
    (H200, 128, 768, "", "", "", 16, 16, 64, 64, 1, 4, 3, "", "", "", "b/E=128,N=768,device_name=NVIDIA_H200.json",
     "[Kernel] more configs"),
    # DeepSeek-V3 tp8, block fp8 with BLOCK_SIZE_K 256: ranked at 128, as vLLM launches it
    (H200, 256, 256, "fp8_w8a8", "[128,128]", "", 8, 16, 64, 256, 1, 4, 3, "", "", "",
     "E=256,N=256,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json", "x"),
]

table = os.path.join(TMP, "moe.csv")
with open(table, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(COLS)
    w.writerows(ROWS)


def tool(*args):
    p = subprocess.run([sys.executable, TOOL, BIN, "--vllm-configs", *args], capture_output=True, text=True,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr


rc, out, err = tool(table, "--hw", "h200", "--format", "json")
check("json: exit 0", rc == 0, err)
rep = json.loads(out)["devices"]["h200"] if rc == 0 else {}
check("7 files in the table for h200", rep.get("files") == 7, rep.get("files"))
check("3 files / 4 rows matched", (rep.get("matched_files"), rep.get("matched_rows")) == (3, 4),
      (rep.get("matched_files"), rep.get("matched_rows")))
skips = rep.get("skipped_files", {})
check("skipped: unknown (E, N), backend, int8 dtype, ambiguous: one each",
      skips == {"unknown (E, N)": 1, "backend flydsl": 1, "dtype int8_w8a16 block_shape -": 1, "ambiguous (E, N)": 1},
      skips)
check("every matched row compared (scored or infeasible), no errors",
      rep.get("scored", 0) + rep.get("infeasible", 0) == 4 and not rep.get("errors"), rep.get("errors"))
check("block fp8 BLOCK_SIZE_K 256 clamped to 128 once", rep.get("clamped_block_k") == 1, rep.get("clamped_block_k"))
check("the subject picked Qwen3-30B-A3B", "Qwen3-30B-A3B tp1" in rep.get("per_model", {}), rep.get("per_model"))
ratios = [d["ratio"] for d in rep.get("rows_detail", [])]
check("ratios finite and >= 0.5 (the tuned config cannot beat the top-1 by much: it is in the model's space)",
      ratios and all(math.isfinite(r) and r >= 0.5 for r in ratios), ratios)
check("geomean finite, fractions in [0, 1]",
      math.isfinite(rep.get("geomean_ratio", float("nan"))) and 0 <= rep.get("within_10pct_frac", -1) <= 1
      and 0 <= rep.get("same_tile_frac", -1) <= 1, rep)

rc, out, err = tool(table, "--hw", "h200")
check("table: exit 0 and an h200 line", rc == 0 and any(line.startswith("h200 ") for line in out.splitlines()),
      out + err)

rc, out, err = tool(table, "--hw", "h200", "--no-clamp", "--format", "json")
nc = json.loads(out)["devices"]["h200"] if rc == 0 else {}
check("--no-clamp: nothing clamped, the 256-deep block-fp8 config called infeasible",
      nc.get("clamped_block_k") == 0 and nc.get("infeasible") == 1, nc.get("infeasible_reasons"))

rc, out, err = tool(os.path.join(TMP, "missing.csv"), "--hw", "h200")
check("bad path: non-zero exit, one-line error, nothing on stdout",
      rc != 0 and len(err.strip().splitlines()) == 1 and err.startswith("compare_vllm_moe: error:") and not out,
      (rc, out, err))

cli_harness.finish()
