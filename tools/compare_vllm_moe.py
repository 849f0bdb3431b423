#!/usr/bin/env python3
"""How does the vllm-fused-moe model score vLLM's own tuned fused-MoE configs against its own top-1?

For every Triton file vLLM ships for a device (vllm_fused_moe_configs.csv, the public reference table;
read at run time, never copied into this project) and every M row of it, two rank calls:
  - `rank M --candidates CSV` holding only the tuned config: its predicted layer time (up + down
    launches, one config, as vLLM runs them), or the model's reason for calling it infeasible;
  - `rank M --top 1`: the advisor's own pick over the target's space.
Per device: ratio = tuned predicted time / top-1 predicted time (>= 1: the model thinks its pick is at
least as fast), the share of rows where the tuned config is within 10% of the top-1 (ratio <= 1.10),
the geomean ratio, the tuned configs called infeasible (model errors: vLLM ran them) with their
reasons, and the share of rows where the top-1 has the tuned config's BLOCK_SIZE_M/N/K.

File names give E and N (the per-rank intermediate size) but not the hidden size H nor top_k, so a
file is matched to the public models of MODELS below by (E, N = I / tp, tp in 1, 2, 4, 8). A file is
skipped (and counted) when no model matches; when models with different (H, top_k) match
(ambiguous, e.g. Qwen3-30B-A3B tp1 and Qwen3-235B-A22B tp2 both give E=128, N=768) unless the file's
last commit subject names one of them; when that subject names only other models or says EP (expert
parallel: E is then the local expert count, the name no longer gives the model); and when a
[128,128]-block fp8 file matches only models without a block-fp8 checkpoint. Kept: dtype '' or bf16
(bf16), fp8_w8a8 per tensor (no block_shape) or with block_shape [128,128]; int8/int4/float8 and
backend (flydsl) rows are skipped. Under block fp8 BLOCK_SIZE_K is clamped to 128 as vLLM does at
launch (invoke_fused_moe_kernel: min(BLOCK_SIZE_K, min(block_shape))). AMD rows carry kpack,
matrix_instr_nonkdim and waves_per_eu, which the model does not take: only the Triton core config
is ranked (num_stages blank -> 2, Triton's AMD default).

Usage: tools/compare_vllm_moe.py BUILD/apps/gemm-advisor/gemm-advisor \
           [--vllm-configs ../shared/ref/public/vllm_fused_moe_configs.csv] [--hw h200,mi300x] \
           [--routing uniform|tuner] [--ambiguous skip|each] [--format table|json] [--list-files]
"""
import argparse
import csv
import json
import math
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CSV = os.path.join(REPO, "..", "shared", "ref", "public", "vllm_fused_moe_configs.csv")
# advisor profile -> vLLM device_name (file names), as lib/src/emit.cpp's kVllmDeviceNames spells them.
DEVICE = {"b200": "NVIDIA_B200", "h100": "NVIDIA_H100_80GB_HBM3", "h200": "NVIDIA_H200",
          "mi300x": "AMD_Instinct_MI300X", "mi325x": "AMD_Instinct_MI325X"}
TPS = (1, 2, 4, 8)
FP8_GROUP = 128

# Public MoE models: (name, E routed experts, top_k, hidden H, expert intermediate I, block-fp8
# checkpoint, subject hints). Figures from each model's Hugging Face config.json (num_local_experts /
# n_routed_experts / num_experts, num_experts_per_tok, hidden_size, intermediate_size or
# moe_intermediate_size). Hints: lower-case alphanumeric substrings naming the model in a commit
# subject (normalised the same way). Only models whose figures we are sure of.
MODELS = [
    # mistralai/Mixtral-8x7B-v0.1: num_local_experts 8, num_experts_per_tok 2, hidden 4096, intermediate 14336
    ("Mixtral-8x7B", 8, 2, 4096, 14336, False, ("mixtral",)),
    # mistralai/Mixtral-8x22B-v0.1: 8 experts, top 2, hidden 6144, intermediate 16384
    ("Mixtral-8x22B", 8, 2, 6144, 16384, False, ("mixtral",)),
    # Qwen/Qwen3-30B-A3B: num_experts 128, top 8, hidden 2048, moe_intermediate_size 768 (FP8: 128x128 blocks)
    ("Qwen3-30B-A3B", 128, 8, 2048, 768, True, ("qwen330b", "30ba3b", "qwen3moe", "qwen3thinking")),
    # Qwen/Qwen3-235B-A22B: num_experts 128, top 8, hidden 4096, moe_intermediate_size 1536 (FP8: 128x128 blocks)
    ("Qwen3-235B-A22B", 128, 8, 4096, 1536, True, ("235b", "qwen3moe", "qwen3thinking")),
    # Qwen/Qwen3-Coder-480B-A35B-Instruct: num_experts 160, top 8, hidden 6144, moe_intermediate_size 2560
    ("Qwen3-Coder-480B-A35B", 160, 8, 6144, 2560, True, ("qwen3coder", "480b")),
    # Qwen/Qwen3-Next-80B-A3B-Instruct: num_experts 512, top 10, hidden 2048, moe_intermediate_size 512
    ("Qwen3-Next-80B-A3B", 512, 10, 2048, 512, True, ("qwen3next",)),
    # Qwen/Qwen2-57B-A14B: num_experts 64, top 8, hidden 3584, moe_intermediate_size 2560
    ("Qwen2-57B-A14B", 64, 8, 3584, 2560, False, ("qwen2moe", "qwen257b")),
    # Qwen/Qwen1.5-MoE-A2.7B: num_experts 60, top 4, hidden 2048, moe_intermediate_size 1408
    ("Qwen1.5-MoE-A2.7B", 60, 4, 2048, 1408, False, ("qwen15", "qwenmoe", "qwen2moe")),
    # deepseek-ai/DeepSeek-V3 (and R1): n_routed_experts 256, top 8, hidden 7168, moe_intermediate_size 2048,
    # fp8 weights with weight_block_size [128, 128]
    ("DeepSeek-V3/R1", 256, 8, 7168, 2048, True, ("deepseekv3", "deepseekr1", "dsv3")),
    # deepseek-ai/DeepSeek-V2: n_routed_experts 160, top 6, hidden 5120, moe_intermediate_size 1536
    ("DeepSeek-V2", 160, 6, 5120, 1536, False, ("deepseekv2",)),
    # deepseek-ai/DeepSeek-V2-Lite: n_routed_experts 64, top 6, hidden 2048, moe_intermediate_size 1408
    # (deepseek-moe-16b has the same figures)
    ("DeepSeek-V2-Lite", 64, 6, 2048, 1408, False, ("deepseekv2lite", "deepseekv2", "deepseekmoe")),
    # zai-org/GLM-4.5 (GLM-4.6 alike): n_routed_experts 160, top 8, hidden 5120, moe_intermediate_size 1536
    ("GLM-4.5/4.6", 160, 8, 5120, 1536, False, ("glm45", "glm46")),
    # zai-org/GLM-4.5-Air (GLM-4.5V's language model alike): n_routed_experts 128, top 8, hidden 4096,
    # moe_intermediate_size 1408
    ("GLM-4.5-Air", 128, 8, 4096, 1408, False, ("glm45air", "glm45v")),
    # meta-llama/Llama-4-Scout-17B-16E: num_local_experts 16, top 1, hidden 5120, intermediate_size 8192
    ("Llama-4-Scout", 16, 1, 5120, 8192, False, ("llama4", "scout")),
    # meta-llama/Llama-4-Maverick-17B-128E: num_local_experts 128, top 1, hidden 5120, intermediate_size 8192
    ("Llama-4-Maverick", 128, 1, 5120, 8192, False, ("llama4", "maverick")),
    # openai/gpt-oss-120b: num_local_experts 128, experts_per_token 4, hidden 2880, intermediate 2880
    ("gpt-oss-120b", 128, 4, 2880, 2880, False, ("gptoss",)),
    # openai/gpt-oss-20b: num_local_experts 32, experts_per_token 4, hidden 2880, intermediate 2880
    ("gpt-oss-20b", 32, 4, 2880, 2880, False, ("gptoss",)),
    # databricks/dbrx-base: moe_num_experts 16, moe_top_k 4, d_model 6144, ffn_hidden_size 10752
    ("DBRX", 16, 4, 6144, 10752, False, ("dbrx",)),
    # microsoft/Phi-3.5-MoE-instruct: num_local_experts 16, top 2, hidden 4096, intermediate 6400
    ("Phi-3.5-MoE", 16, 2, 4096, 6400, False, ("phi35", "phi3")),
    # ai21labs/Jamba-v0.1 (Jamba-1.5-Mini alike): num_experts 16, top 2, hidden 4096, intermediate 14336
    ("Jamba-v0.1", 16, 2, 4096, 14336, False, ("jamba",)),
    # moonshotai/Kimi-K2-Instruct: n_routed_experts 384, top 8, hidden 7168, moe_intermediate_size 2048,
    # fp8 weights with weight_block_size [128, 128]
    ("Kimi-K2", 384, 8, 7168, 2048, True, ("kimi",)),
]
# Models we have no figures for: a subject naming one of these, and none of MODELS' matches, skips the file.
OTHER_HINTS = ("nemotron", "granite", "lfm2", "mistral", "ministral", "hunyuan", "ernie", "minimax", "glm",
               "deepseek", "qwen", "llama")


def norm(s):
    return re.sub(r"[^a-z0-9]", "", s.lower())


def err(msg):
    print(f"compare_vllm_moe: error: {msg}", file=sys.stderr)
    sys.exit(1)


def file_dtype(r):
    """('bf16' | 'fp8' | 'fp8-block', None) or (None, skip reason)."""
    bs = r["block_shape"].replace(" ", "")
    dt = r["dtype"]
    if dt in ("", "bf16") and bs == "":
        return "bf16", None
    if dt == "fp8_w8a8" and bs == "":
        return "fp8", None
    if dt == "fp8_w8a8" and bs == "[128,128]":
        return "fp8-block", None
    return None, f"dtype {dt or 'bf16'} block_shape {bs or '-'}"


def match_models(e, n, dtype, subject, ambiguous):
    """([(model, H, top_k, tp), ...] to score, None) or ([], skip category)."""
    cands = []
    for name, me, topk, h, inter, fp8b, hints in MODELS:
        for tp in TPS:
            if me == e and inter % tp == 0 and inter // tp == n:
                cands.append((name, h, topk, tp, fp8b, hints))
    if not cands:
        return [], "unknown (E, N)"
    if dtype == "fp8-block":
        cands = [c for c in cands if c[4]]
        if not cands:
            return [], "block fp8, model has no block-fp8 checkpoint"
    if re.search(r"\bEP\d*\b|expert.parallel", subject, re.I):
        return [], "expert parallel (subject)"
    s = norm(subject)
    named = [c for c in cands if any(hint in s for hint in c[5])]
    all_hints = [h for m in MODELS for h in m[6]] + list(OTHER_HINTS)
    if named:
        cands = named
    elif any(h in s for h in all_hints):
        return [], "subject names another model"
    shapes = {(c[1], c[2]) for c in cands}
    if len(shapes) > 1 and ambiguous == "skip":
        return [], "ambiguous (E, N)"
    seen, out = set(), []
    for c in cands:  # one per distinct (H, top_k); names of the same shape joined
        if (c[1], c[2]) in seen:
            continue
        seen.add((c[1], c[2]))
        names = "+".join(sorted({f"{d[0]} tp{d[3]}" for d in cands if (d[1], d[2]) == (c[1], c[2])}))
        out.append((names, c[1], c[2]))
    return out, None


def tuned_config(r, dtype, clamp=True):
    c = {k: int(r[k]) for k in ("block_m", "block_n", "block_k", "num_warps", "group_m")}
    c["num_stages"] = int(r["num_stages"]) if r["num_stages"] else 2
    clamped = clamp and dtype == "fp8-block" and c["block_k"] > FP8_GROUP
    if clamped:
        c["block_k"] = FP8_GROUP
    return c, clamped


def rank_args(a, task):
    hw, m, h, topk, e, n, dtype = task["hw"], task["m"], task["h"], task["top_k"], task["e"], task["n"], task["dtype"]
    args = [a.binary, "rank", str(m), "--target", "vllm-fused-moe", "--hw", hw, "--experts", str(e), "--top-k",
            str(topk), "--hidden", str(h), "--intermediate", str(n), "--tp", "1", "--routing", a.routing,
            "--format", "json", "-q"]
    if dtype != "bf16":
        args += ["--dtype", "fp8_w8a8"]
    if dtype == "fp8-block":
        args += ["--block-shape", "128x128"]
    return args


def score(job):
    """One (file, M, model): the tuned config's predicted time (or infeasible reason) and the top-1."""
    a, task = job
    c = task["cfg"]
    base = rank_args(a, task)
    out = dict(task)
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
        f.write("block_m,block_n,block_k,num_warps,num_stages,group_m,split_k\n")
        f.write(f"{c['block_m']},{c['block_n']},{c['block_k']},{c['num_warps']},{c['num_stages']},{c['group_m']},1\n")
        path = f.name
    try:
        t = subprocess.run(base + ["--candidates", path, "--top", "0"], capture_output=True, text=True)
    finally:
        os.unlink(path)
    top = subprocess.run(base + ["--top", "1"], capture_output=True, text=True)
    if top.returncode:
        out["error"] = "top-1: " + (top.stderr.strip().splitlines() or ["exit %d" % top.returncode])[-1]
        return out
    best = json.loads(top.stdout)["configs"][0]
    out["top1"] = {k: best[k] for k in ("block_m", "block_n", "block_k", "num_warps", "num_stages", "group_m")}
    out["top1_s"] = best["latency_s"]
    if t.returncode == 0:
        d = json.loads(t.stdout)
        if d["configs"]:
            out["tuned_s"] = d["configs"][0]["latency_s"]
        else:
            out["infeasible"] = d["infeasible"][0]["reason"]
    else:
        msg = t.stderr.strip()
        mm = re.search(r"no feasible config for \S+ on \S+: (.*)", msg)
        if mm:
            out["infeasible"] = mm.group(1).strip()
        else:
            out["error"] = "candidates: " + (msg.splitlines() or ["exit %d" % t.returncode])[-1]
    return out


def reason_kind(reason):
    """The reason with its numbers blanked, so the same limit groups together."""
    return re.sub(r"\d+", "#", reason)


def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--vllm-configs", default=DEFAULT_CSV, help="vllm_fused_moe_configs.csv (public reference table)")
    ap.add_argument("--hw", default="b200,h100,h200,mi300x,mi325x", help="advisor profiles, comma-separated")
    ap.add_argument("--routing", default="uniform", help="rank --routing (uniform, tuner, zipf:S)")
    ap.add_argument("--ambiguous", choices=("skip", "each"), default="skip",
                    help="files several models match: skip them, or score once per model")
    ap.add_argument("--format", choices=("table", "json"), default="table")
    ap.add_argument("--list-files", action="store_true", help="print each file's match or skip reason")
    ap.add_argument("--no-clamp", action="store_true",
                    help="rank block-fp8 rows' BLOCK_SIZE_K as the file has it (vLLM clamps it to 128 at launch)")
    ap.add_argument("--worst", type=int, default=3, help="rows with the largest ratio printed per device")
    ap.add_argument("--jobs", type=int, default=2, help="rank calls in parallel (pool size)")
    a = ap.parse_args()

    if not (os.path.isfile(a.binary) and os.access(a.binary, os.X_OK)):
        err(f"{a.binary}: not an executable")
    try:
        with open(a.vllm_configs, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        err(f"cannot read {a.vllm_configs}: {e.strerror}")
    need = {"device_name", "E", "N", "dtype", "block_shape", "backend", "M", "block_m", "block_n", "block_k",
            "group_m", "num_warps", "num_stages"}
    if not rows or need - set(rows[0]):
        err(f"{a.vllm_configs}: not a vLLM fused-MoE config table (needs columns {', '.join(sorted(need))})")
    profiles = subprocess.run([a.binary, "profiles"], capture_output=True, text=True).stdout
    known = {line.split()[0] for line in profiles.splitlines()[1:] if line.strip()}

    devices, skipped_hw, tasks = [], [], []
    report = {}
    for hw in [x.strip() for x in a.hw.split(",") if x.strip()]:
        if hw not in DEVICE:
            err(f"--hw {hw}: no vLLM device name known for it (known: {', '.join(DEVICE)})")
        if hw not in known:
            skipped_hw.append(hw)
            continue
        devices.append(hw)
        files = {}  # source_path -> rows
        for r in rows:
            if r["device_name"] == DEVICE[hw]:
                files.setdefault(r.get("source_path") or (r["E"], r["N"], r["dtype"], r["block_shape"], r["backend"]),
                                 []).append(r)
        rep = {"files": 0, "rows": 0, "skipped_files": {}, "skipped_rows": 0, "matched_files": 0, "matched_rows": 0,
               "clamped_block_k": 0, "file_list": []}
        for key, frows in sorted(files.items(), key=lambda kv: (int(kv[1][0]["E"]), int(kv[1][0]["N"]), str(kv[0]))):
            r0 = frows[0]
            rep["files"] += 1
            rep["rows"] += len(frows)
            name = os.path.basename(r0.get("source_path", "")) or str(key)
            if r0["backend"]:
                why, models = f"backend {r0['backend']}", []
            else:
                dtype, why = file_dtype(r0)
                models = []
                if dtype:
                    models, why = match_models(int(r0["E"]), int(r0["N"]), dtype, r0.get("file_last_commit_subject", ""),
                                               a.ambiguous)
            if why:
                rep["skipped_files"][why] = rep["skipped_files"].get(why, 0) + 1
                rep["skipped_rows"] += len(frows)
                rep["file_list"].append((name, "skipped: " + why))
                continue
            rep["matched_files"] += 1
            rep["matched_rows"] += len(frows)
            rep["file_list"].append((name, "; ".join(f"{m} (H {h}, top_k {k})" for m, h, k in models)))
            for model, h, topk in models:
                for r in frows:
                    cfg, clamped = tuned_config(r, dtype, not a.no_clamp)
                    rep["clamped_block_k"] += clamped
                    tasks.append({"hw": hw, "file": name, "model": model, "e": int(r["E"]), "n": int(r["N"]), "h": h,
                                  "top_k": topk, "dtype": dtype, "m": int(r["M"]), "cfg": cfg})
        report[hw] = rep

    with multiprocessing.Pool(max(1, a.jobs)) as pool:
        results = pool.map(score, [(a, t) for t in tasks], chunksize=4)

    for hw in devices:
        rep = report[hw]
        res = [x for x in results if x["hw"] == hw]
        scored = [x for x in res if "tuned_s" in x]
        ratios = [x["tuned_s"] / x["top1_s"] for x in scored]
        same = [x for x in scored + [y for y in res if "infeasible" in y]
                if all(x["top1"][k] == x["cfg"][k] for k in ("block_m", "block_n", "block_k"))]
        compared = len(scored) + sum("infeasible" in x for x in res)
        reasons = {}
        for x in res:
            if "infeasible" in x:
                k = reason_kind(x["infeasible"])
                reasons.setdefault(k, {"count": 0, "example": x["infeasible"], "files": set()})
                reasons[k]["count"] += 1
                reasons[k]["files"].add(x["file"])
        rep.update({
            "scored": len(ratios),
            "infeasible": sum("infeasible" in x for x in res),
            "errors": [f"{x['file']} M={x['m']}: {x['error']}" for x in res if "error" in x],
            "within_10pct": sum(r <= 1.10 for r in ratios),
            "within_10pct_frac": (sum(r <= 1.10 for r in ratios) / len(ratios)) if ratios else float("nan"),
            "geomean_ratio": geo(ratios),
            "min_ratio": min(ratios) if ratios else float("nan"),
            "max_ratio": max(ratios) if ratios else float("nan"),
            "tuned_faster": sum(r < 1.0 - 1e-9 for r in ratios),
            "same_tile": len(same),
            "same_tile_frac": len(same) / compared if compared else float("nan"),
            "infeasible_reasons": [{"reason": k, "count": v["count"], "example": v["example"],
                                    "files": sorted(v["files"])} for k, v in
                                   sorted(reasons.items(), key=lambda kv: -kv[1]["count"])],
            "per_model": {},
            "rows_detail": sorted(({"file": x["file"], "model": x["model"], "m": x["m"], "tuned": x["cfg"],
                                    "top1": x["top1"], "tuned_s": x["tuned_s"], "top1_s": x["top1_s"],
                                    "ratio": x["tuned_s"] / x["top1_s"]} for x in scored),
                                  key=lambda d: -d["ratio"]),
        })
        for model in sorted({x["model"] for x in res}):
            rs = [x["tuned_s"] / x["top1_s"] for x in scored if x["model"] == model]
            rep["per_model"][model] = {"rows": sum(1 for x in res if x["model"] == model), "scored": len(rs),
                                       "within_10pct": sum(r <= 1.10 for r in rs), "geomean_ratio": geo(rs)}

    if a.format == "json":
        print(json.dumps({"routing": a.routing, "ambiguous": a.ambiguous, "no_profile": skipped_hw,
                          "devices": {hw: report[hw] for hw in devices}}, indent=2, sort_keys=True))
        return 1 if any(report[hw]["errors"] for hw in devices) else 0

    print(f"vLLM tuned fused-MoE configs ({a.vllm_configs}) scored by gemm-advisor's vllm-fused-moe model, "
          f"routing {a.routing}; ratio = tuned config's predicted layer time / the advisor top-1's")
    for hw in skipped_hw:
        print(f"{hw}: no advisor profile ({DEVICE[hw]} skipped)")
    hdr = (f"{'device':8s} {'files':>5s} {'match':>5s} {'rows':>5s} {'scored':>6s} {'infeas':>6s} {'<=1.10':>7s} "
           f"{'geomean':>7s} {'min':>5s} {'max':>6s} {'<1':>4s} {'same MNK':>8s}")
    print(hdr)
    for hw in devices:
        r = report[hw]
        print(f"{hw:8s} {r['files']:5d} {r['matched_files']:5d} {r['matched_rows']:5d} {r['scored']:6d} "
              f"{r['infeasible']:6d} {100 * r['within_10pct_frac']:6.0f}% {r['geomean_ratio']:7.2f} "
              f"{r['min_ratio']:5.2f} {r['max_ratio']:6.2f} {r['tuned_faster']:4d} {100 * r['same_tile_frac']:7.0f}%")
    print("  files: the device's files in the table; match: files scored (rows: their M rows); <=1.10: share of "
          "scored rows within 10% of the top-1; <1: rows where the tuned config is predicted faster than the "
          "top-1; same MNK: top-1 has the tuned BLOCK_SIZE_M/N/K (over scored + infeasible rows)")
    for hw in devices:
        r = report[hw]
        skips = ", ".join(f"{k} {v}" for k, v in sorted(r["skipped_files"].items(), key=lambda kv: -kv[1]))
        print(f"\n{hw}: {r['matched_files']} files / {r['matched_rows']} rows matched, "
              f"{r['files'] - r['matched_files']} files / {r['skipped_rows']} rows skipped ({skips or 'none'})"
              + (f"; block_k clamped to 128 on {r['clamped_block_k']} block-fp8 rows" if r["clamped_block_k"] else ""))
        for model, s in r["per_model"].items():
            print(f"  {model:40s} rows {s['rows']:3d} scored {s['scored']:3d} within 10% {s['within_10pct']:3d} "
                  f"geomean {s['geomean_ratio']:.2f}")
        for d in r["rows_detail"][:a.worst] + [d for d in r["rows_detail"] if d["ratio"] < 1 - 1e-9]:
            t, b = d["tuned"], d["top1"]
            print(f"  ratio {d['ratio']:5.2f}  {d['file']} M={d['m']} ({d['model']}): tuned "
                  f"{t['block_m']}x{t['block_n']}x{t['block_k']} w{t['num_warps']} s{t['num_stages']} g{t['group_m']}"
                  f" {1e6 * d['tuned_s']:.1f} us, top-1 {b['block_m']}x{b['block_n']}x{b['block_k']} w{b['num_warps']}"
                  f" s{b['num_stages']} g{b['group_m']} {1e6 * d['top1_s']:.1f} us")
        for x in r["infeasible_reasons"]:
            print(f"  infeasible x{x['count']}: {x['example']}  [{', '.join(x['files'])}]")
        for e in r["errors"]:
            print(f"  error: {e}")
        if a.list_files:
            for name, what in r["file_list"]:
                print(f"    {name}: {what}")
    return 1 if any(report[hw]["errors"] for hw in devices) else 0


if __name__ == "__main__":
    sys.exit(main())
