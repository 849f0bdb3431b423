#!/usr/bin/env python3
"""Writes tools/measure/plans/plan-triton-more.csv: more H200 training data for the `triton` target
(issue "Calibrate and generalize"), and the compile-and-launch grid (issue "Physics and feasibility").

    python3 tools/measure/make_triton_plan.py --bin build/apps/gemm-advisor/gemm-advisor

Shapes (each tagged with its family = the model or generator):
  * the linear layers of public model configs (config.json values, as quoted in make_plans.py and
    below) at decode and prefill M: Llama-3-8B, Llama-3-70B, Llama-3.1-405B, Qwen2.5-7B, Qwen2.5-72B,
    Mistral-7B, Mistral-Nemo-12B, Phi-3-mini, Gemma-2-9B, DeepSeek-V3 (attention, bf16), GPT-2 (XL),
    BERT-large, ViT-L/16, Whisper-large-v3, SD-1.5 UNet attention, T5-XXL; layout NT (y = x W^T);
  * recsys: DLRM-DCNv2 and HSTU-like layers, NN;
  * log-uniform random shapes (M, N, K in [1, 16384], any residue: unaligned sizes come with them),
    in all four layouts; batched GEMMs (attention-like, batch 8..64); squares in all four layouts;
  * dtypes bf16, fp16 and fp8 (fp8 NT only: Hopper's fp8 wgmma takes K-major operands).
None of the shapes is in the earlier H200 sweeps (tools/measure/shapes-h200*.csv).

Configs per shape, because the full space (~1,500 per shape) does not fit the device time left:
  * the current model's top 10 (`gemm-advisor batch --top 10`, the triton target as committed);
  * the fixed default 128x128x64 w8 s3;
  * one seeded global random subset of the (BM, BN, BK, warps, stages, split_k) space, about 40 per
    shape after the shape's own space rules, shared by all shapes so compiles are shared.
So each shape's "measured best" is the best of that sample, not of the whole space (README says so).

The compile grid: 4096x4096x4096 bf16 NT, every BLOCK_M, BLOCK_N in {16..256}, BLOCK_K in {32, 64, 128},
num_warps in {1, 2, 4, 8, 16}, num_stages 3 (375 configs, family `compile-grid`): which compile and
launch on Triton 3.6, against what the advisor calls infeasible.
"""
import argparse
import csv
import io
import math
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_plans as mp  # noqa: E402
import plan_spec as ps  # noqa: E402
import space  # noqa: E402

# (family, layer, N, K): hidden sizes and projections from the public config.json files.
MODELS = [
    # Llama-3-8B: hidden 4096, 32 heads, 8 kv, intermediate 14336 (gate+up fused 28672)
    ("llama3-8b", "qkv", 6144, 4096), ("llama3-8b", "gate_up", 28672, 4096), ("llama3-8b", "down", 4096, 14336),
    # Llama-3-70B: hidden 8192, 64 heads, 8 kv, intermediate 28672
    ("llama3-70b", "qkv", 10240, 8192), ("llama3-70b", "o", 8192, 8192), ("llama3-70b", "down", 8192, 28672),
    # Llama-3.1-405B: hidden 16384, 128 heads, 8 kv (qkv 16384 + 2*1024), intermediate 53248 (tp8 shards)
    ("llama3.1-405b", "qkv.tp8", 2304, 16384), ("llama3.1-405b", "gate_up.tp8", 13312, 16384),
    ("llama3.1-405b", "down.tp8", 16384, 6656),
    # Qwen2.5-72B: hidden 8192, 64 heads, 8 kv, intermediate 29568
    ("qwen2.5-72b", "qkv", 10240, 8192), ("qwen2.5-72b", "gate_up", 59136, 8192), ("qwen2.5-72b", "down", 8192, 29568),
    # Mistral-7B: hidden 4096, 32 heads, 8 kv, intermediate 14336; vocab 32000
    ("mistral-7b", "o", 4096, 4096), ("mistral-7b", "lm_head", 32000, 4096),
    # Phi-3-mini: hidden 3072, intermediate 8192 (gate+up 16384)
    ("phi3-mini", "gate_up", 16384, 3072), ("phi3-mini", "down", 3072, 8192),
    # Gemma-2-9B: hidden 3584, 16 heads x 256, 8 kv, intermediate 14336
    ("gemma2-9b", "qkv", 8192, 3584), ("gemma2-9b", "gate_up", 28672, 3584), ("gemma2-9b", "down", 3584, 14336),
    # DeepSeek-V3 attention in bf16: q_b 1536 -> 128 * 192 = 24576, o_proj 16384 -> 7168, kv_a 7168 -> 576
    ("deepseek-v3-bf16", "q_b", 24576, 1536), ("deepseek-v3-bf16", "o", 7168, 16384),
    ("deepseek-v3-bf16", "kv_a", 576, 7168),
    # GPT-2 XL: hidden 1600, qkv 4800, mlp 6400
    ("gpt2-xl", "qkv", 4800, 1600), ("gpt2-xl", "fc", 6400, 1600), ("gpt2-xl", "proj", 1600, 6400),
    # BERT-large: hidden 1024, intermediate 4096
    ("bert-large", "qkv", 3072, 1024), ("bert-large", "fc", 4096, 1024), ("bert-large", "proj", 1024, 4096),
    # ViT-L/16: hidden 1024, mlp 4096 (M = batch * 197 tokens)
    ("vit-l16", "qkv", 3072, 1024), ("vit-l16", "fc", 4096, 1024),
    # Whisper-large-v3: d_model 1280, ffn 5120
    ("whisper-large", "qkv", 3840, 1280), ("whisper-large", "fc", 5120, 1280), ("whisper-large", "proj", 1280, 5120),
    # Stable Diffusion 1.5 UNet attention at 64x64 latents: 320 channels, ff 1280 (GEGLU 2560)
    ("sd15-unet", "attn_qkv.320", 960, 320), ("sd15-unet", "ff_geglu.320", 2560, 320), ("sd15-unet", "ff_out.320", 320, 1280),
    # T5-XXL: d_model 4096, d_ff 10240, 64 heads x 64
    ("t5-xxl", "qkv", 12288, 4096), ("t5-xxl", "ff_in", 10240, 4096), ("t5-xxl", "ff_out", 4096, 10240),
]
M_DECODE = [1, 8, 32]
M_PREFILL = [512, 3000, 8192]
# M for the vision and diffusion families: batch * tokens (ViT 197 tokens a 224px image; SD 4096 latents)
M_SPECIAL = {"vit-l16": [197 * 8, 197 * 64], "sd15-unet": [4096 * 2, 4096 * 8]}

RECSYS = [  # (family, layer, M, N, K, layout)
    ("dlrm", "bottom1.b16384", 16384, 512, 13, "NN"), ("dlrm", "dcn_down.b16384", 16384, 512, 3456, "NN"),
    ("dlrm", "top2.b65536", 65536, 512, 1024, "NN"), ("dlrm", "top4.b65536", 65536, 1, 256, "NN"),
    ("hstu", "uvqk.d256.t65536", 65536, 1024, 256, "NN"), ("hstu", "out.d256.t65536", 65536, 256, 256, "NN"),
    ("hstu", "uvqk.d768.t32768", 32768, 3072, 768, "NT"),
]
BATCHED = [  # (family, layer, M, N, K, batch, layout): attention-like score and value products
    ("batched", "scores.h32.s1024.d128", 1024, 1024, 128, 32, "NT"), ("batched", "values.h32.s1024.d128", 1024, 128, 1024, 32, "NN"),
    ("batched", "scores.h16.s2048.d64", 2048, 2048, 64, 16, "NT"), ("batched", "values.h64.s512.d64", 512, 64, 512, 64, "NN"),
    ("batched", "experts.e8.m256", 256, 4096, 4096, 8, "NT"), ("batched", "experts.e16.m64", 64, 2048, 5120, 16, "NT"),
]
LAYOUTS = ["NN", "NT", "TN", "TT"]
N_RANDOM = 44
RANDOM_SUBSET = 0.045  # of the triton space's config keys: about 40-70 per shape after its own rules
DEFAULT = dict(block_m=128, block_n=128, block_k=64, group_m=8, num_warps=8, num_stages=3, split_k=1)


def shapes(seed=13):
    out = []
    rng = random.Random(seed)
    for fam, layer, n, k in MODELS:
        ms = M_SPECIAL.get(fam, M_DECODE[:2] + M_PREFILL[1:])
        for m in ms:
            dtype = "bf16"
            if fam in ("llama3-8b", "qwen2.5-72b", "mistral-7b") and m >= 512:
                dtype = "fp8"
            if fam in ("gpt2-xl", "bert-large", "whisper-large") and m >= 512:
                dtype = "fp16"
            out.append((fam, f"{layer}.m{m}", m, n, k, 1, dtype, "NT"))
    for fam, layer, m, n, k, lay in RECSYS:
        out.append((fam, layer, m, n, k, 1, "bf16", lay))
    for fam, layer, m, n, k, b, lay in BATCHED:
        out.append((fam, layer, m, n, k, b, "bf16", lay))
    for s in (1024, 2048, 5120):
        for lay in LAYOUTS:
            out.append(("square", f"{s}.{lay.lower()}", s, s, s, 1, "bf16" if s != 2048 else "fp16", lay))
    existing = {(x[2], x[3], x[4]) for x in out}
    measured = set()
    for f in ("shapes-h200.csv", "shapes-h200-more-a.csv", "shapes-h200-more-b.csv", "shapes-h200-fp8.csv"):
        for r in csv.DictReader(l for l in open(os.path.join(HERE, f)) if l.strip() and not l.startswith("#")):
            measured.add((int(r["m"]), int(r["n"]), int(r["k"])))
    i = 0
    while i < N_RANDOM:
        m, n, k = (max(1, int(round(math.exp(rng.uniform(0, math.log(16384)))))) for _ in range(3))
        if (m, n, k) in existing or (m, n, k) in measured or m * n * k > 2 ** 36:
            continue
        existing.add((m, n, k))
        out.append(("random-loguniform", f"r{i}", m, n, k, 1, "bf16", LAYOUTS[i % 4]))
        i += 1
    return [s for s in out if (s[2], s[3], s[4]) not in measured]


def model_top(binary, shape_list, top=10):
    """{name: [config, ...]} of the advisor's top `top` per shape (triton target, h200)."""
    text = "name,m,n,k,batch,dtype,layout\n" + "".join(
        f"{fam}/{name},{m},{n},{k},{b},{dt},{lay}\n" for fam, name, m, n, k, b, dt, lay in shape_list)
    res = subprocess.run([binary, "batch", "-", "--hw", "h200", "--top", str(top), "--format", "csv", "--quiet"],
                         input=text, capture_output=True, text=True, check=True)
    out = {}
    for r in csv.DictReader(io.StringIO(res.stdout)):
        out.setdefault(r["name"], []).append(dict(block_m=int(r["block_m"]), block_n=int(r["block_n"]),
                                                  block_k=int(r["block_k"]), group_m=int(r["group_m"]),
                                                  num_warps=int(r["num_warps"]), num_stages=int(r["num_stages"]),
                                                  split_k=int(r["split_k"])))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="gemm-advisor binary (for the model's top 10)")
    ap.add_argument("--out", default=os.path.join(HERE, "plans", "plan-triton-more.csv"))
    a = ap.parse_args()
    shape_list = shapes()
    tops = model_top(a.bin, shape_list)
    rng = random.Random(17)
    problems = []
    for fam, name, m, n, k, b, dt, lay in shape_list:
        full = space.candidate_space(m, n, k, b, dt)
        keyset = {ps.config_tuple(c) for c in full}
        # the global subset: a config key is in it by a hash of the key, so every shape draws the same keys
        cfgs = [c for c in full if (hash(ps.config_tuple(c)) % 10007) / 10007.0 < RANDOM_SUBSET]
        for c in tops.get(f"{fam}/{name}", []):
            mp.add_unique(cfgs, c)
        if ps.config_tuple(DEFAULT) in keyset:
            mp.add_unique(cfgs, DEFAULT)
        p = mp.problem("triton", fam, name, m, n, k, dt, lay)
        p["batch"] = b
        problems.append((p, mp.order_for_timing(cfgs, m, n)))
    # the compile-and-launch grid
    grid = []
    for bm in (16, 32, 64, 128, 256):
        for bn in (16, 32, 64, 128, 256):
            for bk in (32, 64, 128):
                for w in (1, 2, 4, 8, 16):
                    grid.append(dict(block_m=bm, block_n=bn, block_k=bk, group_m=8, num_warps=w, num_stages=3,
                                     split_k=1))
    # The grid first, then the shapes in a seeded random order: a run stopped by its time limit still
    # leaves a sample of every family.
    rng.shuffle(problems)
    problems.insert(0, (mp.problem("triton", "compile-grid", "grid.4096", 4096, 4096, 4096, "bf16", "NT"), grid))
    ps.write_plan(a.out, problems)
    mp.stats("triton-more", problems, 7.0)
    fams = sorted({p["family"] for p, _c in problems})
    print(f"{len(fams)} families: {', '.join(fams)}")


if __name__ == "__main__":
    main()
