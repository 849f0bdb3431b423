#!/usr/bin/env python3
"""End-to-end tests of the fused-MoE target (`--target vllm-fused-moe`): rank and explain of one
layer, `batch --emit vllm` writing vLLM's tuned-config files as vLLM names and reads them (fused_moe.py
get_config_file_name; benchmark_moe.py's M grid and keys), --from-hf, and bad input.
Usage: moe_cli_test.py PATH/TO/gemm-advisor (run from the repo root)."""
import json
import os
import re
import sys
import tempfile

import cli_harness

BIN = sys.argv[1]
TMP = tempfile.mkdtemp(prefix="gemm-advisor-moe-test-")
check = cli_harness.check
# benchmark_moe.py's default batch sizes and the keys of its files.
VLLM_M = [1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1024, 1536, 2048, 3072, 4096]
KEYS = ["BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M", "num_warps", "num_stages"]
QWEN = ["--target", "vllm-fused-moe", "--experts", "128", "--top-k", "8", "--hidden", "2048", "--intermediate", "768"]


def run(*args):
    return cli_harness.run(BIN, *args, timeout=300)


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


# rank: a layer, JSON with the MoE description; the layer's time is up + down (explain shows each).
rc, out, err = run("rank", "64", *QWEN, "--hw", "h200", "--format", "json", "--top", "3")
check("rank a MoE layer: exit 0", rc == 0, err)
j = json.loads(out) if rc == 0 else {}
moe = j.get("problem", {}).get("moe", {})
check("rank JSON describes the layer", moe.get("gemm") == "layer" and moe.get("experts") == 128 and
      moe.get("routed_rows") == 512 and j["problem"]["n"] == 768 and j["problem"]["k"] == 2048, json.dumps(moe))
top = j["configs"][0] if rc == 0 else {}
rc, out, err = run("explain", "64", *QWEN, "--hw", "h200", "--format", "json",
                   "--config", f"{top['block_m']}x{top['block_n']}x{top['block_k']}:{top['num_warps']}:"
                   f"{top['num_stages']}:1:g{top['group_m']}")
e = json.loads(out) if rc == 0 else {}
gemms = e.get("gemms", [])
check("explain lists the up and down GEMMs", [g["gemm"] for g in gemms] == ["up", "down"] and
      gemms[0]["n"] == 1536 and gemms[1]["k"] == 768, out[:300] + err)
check("the layer's time is the sum of its GEMMs'",
      gemms and abs(sum(g["latency_s"] for g in gemms) - e["configs"][0]["latency_s"]) < 1e-12, out[:300])
rc, out, err = run("explain", "64", *QWEN, "--hw", "h200")
check("explain's table shows the routing and the padding", rc == 0 and "routed rows" in out and
      "512 = M 64 x top_k 8" in out and "padded rows" in out and "up GEMM 64x1536x2048" in out, out + err)

# batch --emit vllm: one file per (E, N, dtype), named as vLLM looks for it, every M of the grid.
outdir = os.path.join(TMP, "h200")
rc, out, err = run("batch", "examples/moe-models.csv", "--target", "vllm-fused-moe", "--hw", "h200", "--emit", "vllm",
                   "--out", outdir)
check("batch --emit vllm: exit 0", rc == 0, err)
names = sorted(os.listdir(outdir)) if os.path.isdir(outdir) else []
expected = sorted(["E=8,N=7168,device_name=NVIDIA_H200.json", "E=128,N=768,device_name=NVIDIA_H200.json",
                   "E=128,N=384,device_name=NVIDIA_H200.json", "E=256,N=256,device_name=NVIDIA_H200,dtype=fp8_w8a8,"
                   "block_shape=[128,128].json", "E=16,N=2048,device_name=NVIDIA_H200.json",
                   "E=128,N=1440,device_name=NVIDIA_H200.json", "gemm-advisor-generator.json"])
check("the six files (N = intermediate / tp) and the sidecar", names == expected, str(names))
for name in names:
    if name.startswith("gemm-advisor"):
        continue
    cfgs = json.load(open(os.path.join(outdir, name)))
    check(f"{name}: the tuner's M keys, in order", list(cfgs) == [str(m) for m in VLLM_M], str(list(cfgs)))
    ok = all(list(c) == KEYS and c["BLOCK_SIZE_K"] in (64, 128, 256) and c["num_warps"] in (4, 8) and
             2 <= c["num_stages"] <= 5 and c["BLOCK_SIZE_M"] in (8, 16, 32, 64, 128, 256) for c in cfgs.values())
    check(f"{name}: vLLM's keys, values in the tuner's space", ok, json.dumps(cfgs)[:200])
    if "fp8" in name:
        check(f"{name}: block fp8 runs BLOCK_SIZE_K 128", all(c["BLOCK_SIZE_K"] == 128 for c in cfgs.values()))
side = json.load(open(os.path.join(outdir, "gemm-advisor-generator.json")))
check("the sidecar names the advisor, target and routing", side.get("target") == "vllm-fused-moe" and
      side.get("routing") == "uniform" and side.get("name") == "gemm-advisor", json.dumps(side))

# AMD: the ROCm launch keys, and AMD's device name; --m-values.
outdir = os.path.join(TMP, "mi300x")
rc, out, err = run("batch", "examples/moe-models.csv", "--target", "vllm-fused-moe", "--hw", "mi300x", "--emit", "vllm",
                   "--out", outdir, "--m-values", "1,64")
f = os.path.join(outdir, "E=8,N=7168,device_name=AMD_Instinct_MI300X.json")
cfgs = json.load(open(f)) if os.path.exists(f) else {}
check("mi300x: --m-values keys and the ROCm keys", list(cfgs) == ["1", "64"] and
      all({"kpack", "matrix_instr_nonkdim", "waves_per_eu"} <= set(c) for c in cfgs.values()), out + err)

# --from-hf: a config.json (Mixtral-8x7B's figures: 8 experts, top-2, hidden 4096, intermediate 14336).
hf = write("config.json", json.dumps({"model_type": "mixtral", "num_local_experts": 8, "num_experts_per_tok": 2,
                                      "hidden_size": 4096, "intermediate_size": 14336, "torch_dtype": "bfloat16"}))
rc, out, err = run("batch", "--from-hf", hf, "--tp", "2", "--target", "vllm-fused-moe", "--hw", "h200",
                   "--m-values", "16", "--format", "jsonl")
line = json.loads(out.splitlines()[0]) if rc == 0 and out else {}
check("batch --from-hf ranks the model's layer", line.get("problem", {}).get("n") == 7168 and
      line.get("name") == "mixtral/m16", out[:200] + err)
rc, out, err = run("rank", "16", "--target", "vllm-fused-moe", "--from-hf", hf, "--hw", "h200", "--routing", "zipf:1.2")
check("rank --from-hf with skewed routing", rc == 0 and "/E8/top2/layer" in out, err)

# Bad input: one line on stderr, non-zero exit, nothing written.
bad = [
    (("rank", "64", "--target", "vllm-fused-moe", "--experts", "8", "--hw", "h200"), 1,
     "give --top-k, --hidden, --intermediate"),
    (("rank", "4096x4096x4096", "--experts", "8", "--hw", "h200"), 1, "go with --target vllm-fused-moe"),
    (("rank", "64x64x64", *QWEN, "--hw", "h200"), 1, "the token count M"),
    (("rank", "64", *QWEN, "--hw", "h200", "--routing", "zipf:0"), 2, "(0, 16]"),
    (("rank", "64", "--target", "vllm-fused-moe", "--experts", "8", "--top-k", "9", "--hidden", "64",
      "--intermediate", "64", "--hw", "h200"), 1, "top_k = 9"),
    (("rank", "64", *QWEN, "--hw", "h200", "--block-shape", "128x128"), 1, "fp8"),
    (("batch", write("bad.csv", "experts,top_k,hidden,intermediate,tp\n8,2,4096,14336,3\n"), "--target",
      "vllm-fused-moe", "--hw", "h200"), 1, "bad.csv:2: tp = 3"),
    (("batch", write("m.csv", "experts,top_k,hidden,intermediate\n8,2,4096,14336\n"), "--target", "vllm-fused-moe",
      "--hw", "h200", "--emit", "vllm"), 2, "--out DIR"),
    (("batch", "--from-hf", write("dense.json", '{"hidden_size": 4096}'), "--target", "vllm-fused-moe", "--hw", "h200"),
     1, "no expert count"),
    (("batch", "--from-hf", hf, "--hw", "h200"), 2, "go with --target vllm-fused-moe"),
    (("batch", "--from-hf", write("float.json", '{"num_local_experts": 8.5, "num_experts_per_tok": 2, "hidden_size": 64, '
                                                '"intermediate_size": 64}'), "--target", "vllm-fused-moe", "--hw", "h200"),
     1, "num_local_experts = 8.5 is not a whole number"),
    (("batch", "--from-hf", write("two.json", '{"num_local_experts": 8, "n_routed_experts": 16, "num_experts_per_tok": 2, '
                                              '"hidden_size": 64, "intermediate_size": 64}'), "--target", "vllm-fused-moe",
      "--hw", "h200"), 1, "disagree"),
    (("batch", "--from-hf", write("wbs.json", '{"num_local_experts": 8, "num_experts_per_tok": 2, "hidden_size": 64, '
                                              '"intermediate_size": 64, "quantization_config": {"quant_method": "fp8", '
                                              '"weight_block_size": "128x128"}}'), "--target", "vllm-fused-moe",
      "--hw", "h200"), 1, "weight_block_size must be [b, b]"),
    (("evaluate", "--target", "vllm-fused-moe", "--hw", "h200", "--measurements",
      write("uponly.csv", "kernel,family,name,m,n,k,dtype,layout,experts,top_k,gemm,block_m,block_n,block_k,group_m,"
                          "num_warps,num_stages,ms\nvllm-fused-moe,q,m2,2,1536,2048,bf16,NT,128,8,up,16,64,64,1,4,3,0.04\n")),
     1, "give --per-gemm"),
]
for args, code, words in bad:
    rc, out, err = run(*args)
    lines = [x for x in err.splitlines() if x.strip()]
    check(f"bad input {' '.join(args[:2])} ... -> exit {code}: {words}",
          rc == code and len(lines) == 1 and words in err and "Traceback" not in err and not out.strip(),
          f"rc {rc} out {out[:200]!r} err {err!r}")
# A model list's unknown column is a warning; a bad model stops the run after the files before it.
rc, out, err = run("batch", write("extra.csv", "experts,top_k,hidden,intermediate,splitk\n8,2,4096,14336,1\n"), "--target",
                   "vllm-fused-moe", "--hw", "h200", "--m-values", "16")
check("an unknown model-list column is a warning, exit 0", rc == 0 and "unknown column 'splitk' ignored" in err, err)
outdir = os.path.join(TMP, "a100")
rc, out, err = run("batch", "examples/moe-models.csv", "--target", "vllm-fused-moe", "--hw", "a100", "--emit", "vllm",
                   "--out", outdir, "--m-values", "1,64")
written = sorted(os.listdir(outdir)) if os.path.isdir(outdir) else []
check("a100 stops at DeepSeek-V3's fp8 (line 8), writing the three files before it",
      rc == 1 and "moe-models.csv:8:" in err and len([w for w in written if w.startswith("E=")]) == 3 and
      "E=8,N=7168,device_name=NVIDIA_A100-SXM4-80GB.json" in written, f"{written} {err}")

# The shipped files were measured: on the H200 they are the configs of h200-fused-moe-check3.csv
# (tools/measure/make_moe_check_plan.py, timed with the first run's best, vLLM's default and vLLM's
# tuned files). Scored against the fastest config of that run, per (model, M), as the tool does.
emitted = os.path.join(TMP, "tuner")
rc, out, err = run("batch", "examples/moe-models.csv", "--target", "vllm-fused-moe", "--hw", "h200", "--routing", "tuner",
                   "--emit", "vllm", "--out", emitted, "-q")
uniform = os.path.join(TMP, "h200")
import subprocess  # noqa: E402
score = subprocess.run([sys.executable, "tools/compare_moe_check.py", "--same-run",
                        "data/measurements/h200-fused-moe-check3.csv", "data/measurements/h200-fused-moe.csv",
                        emitted + "=tuner", uniform + "=uniform"], capture_output=True, text=True)
row = [x for x in score.stdout.splitlines() if x.startswith("all")]
cells = row[0].split() if row else []
# "all  94.7% /  74.0% (108)  92.7% / ..." -> [tuner geo, tuner worst, count, uniform ..., default ..., tuned ...]
nums = [float(x) for x in re.findall(r"[0-9.]+", " ".join(cells[1:]))]
check("every (model, M) config of the files was measured (108)", len(nums) >= 12 and nums[2] == 108 and nums[5] == 108,
      score.stdout + score.stderr)
if len(nums) >= 12:
    # 2026-12-01: tuner routing 94.7% / 74.0%, uniform 92.7% / 71.2%, vLLM default 74.8% / 39.3%.
    check(f"the files reach {nums[0]}% of the run's best (>= 94.5)", nums[0] >= 94.5)
    check(f"uniform-routing files {nums[3]}% (>= 92.5)", nums[3] >= 92.5)
    check(f"both beat vLLM's default ({nums[6]}%) by 15 points", min(nums[0], nums[3]) >= nums[6] + 15)
cli_harness.finish()
