#!/bin/bash
# The block-fp8 fused-MoE files written held out by model (README "Accuracy", the "held out" column):
# for each of the six block-fp8 models, fit the fp8_block parameter set on the other five (start:
# vllm-fp8-block's values, as data/fit/h200-fused-moe-fp8.txt gives them), then write that model's
# file with the fit. The 16-bit files are the shipped ones.
#     tools/moe_heldout_files.sh BUILD/apps/gemm-advisor/gemm-advisor OUTDIR
set -euo pipefail
B=${1:?usage: moe_heldout_files.sh GEMM_ADVISOR OUTDIR}; OUT=${2:?usage: moe_heldout_files.sh GEMM_ADVISOR OUTDIR}
D=data/measurements; W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
mkdir -p "$OUT"
{ cat profiles/h200.yaml; printf '%s\n' "targets:" "  vllm-fused-moe:" "    fp8_block:" "      model_parameters:" \
  "        {k_step_overhead_cycles: 481.4, k_step_overhead_overlap: 0.85, async_copy_fill_fraction: 0.45," \
  "         launch_overhead_s: 7.08e-6, l2_reuse_fraction: 0.5, narrow_tile_matrix_efficiency: 0.35," \
  "         loaded_latency_multiplier: 2.5, dram_active_cu_headroom: 11.2, near_tie_tolerance: 0, memory_level_overlap: 0.95}"
} > "$W/start.yaml"
"$B" batch examples/moe-models.csv --target vllm-fused-moe --hw h200 --routing tuner --emit vllm --out "$OUT" -q
for fam in deepseek-v3 kimi-k2 qwen3-30b-a3b-fp8 qwen3-235b-a22b-fp8 qwen3-coder-480b-fp8 qwen3-next-80b-fp8; do
  files=()
  for f in h200-fused-moe h200-fused-moe-check h200-fused-moe-check2 h200-fused-moe-fp8; do
    awk -F, -v fam="$fam" 'NR == 1 || $2 != fam' "$D/$f.csv" > "$W/$f.csv"; files+=("$W/$f.csv")
  done
  "$B" calibrate --hw "$W/start.yaml" --target vllm-fused-moe --param-set fp8_block --folds 5 --passes 2 \
    -o "$W/fit-$fam.yaml" --measurements "${files[@]}" > "$W/fit-$fam.txt"
  { echo "name,experts,top_k,hidden,intermediate,tp,dtype,block_shape"
    grep -h "^$fam," examples/moe-models.csv examples/moe-fp8-models.csv; } > "$W/list.csv"
  "$B" batch "$W/list.csv" --target vllm-fused-moe --hw "$W/fit-$fam.yaml" --routing tuner --emit vllm --out "$OUT" -q
  echo "$fam: fitted without it: $(grep 'changed' "$W/fit-$fam.txt" | awk '{printf "%s=%s ", $1, $4}')"
done
