#!/bin/bash
# The device command for the new targets (harness.py + plans/):
#     bash tools/measure/run_targets.sh MODE      MODE = smoke | fp8 | tutorial | moe | all-b | triton-more
#   smoke     smoke.py (all four kernels, small problems; about a minute)
#   fp8       plans/plan-fp8-block.csv  -> $OUT/fp8.csv, $OUT/fp8.log
#   tutorial  plans/plan-tutorial.csv   -> $OUT/tutorial.csv, $OUT/tutorial.log
#   moe       plans/plan-moe.csv        -> $OUT/moe.csv, $OUT/moe.log
#   moe-check plans/plan-moe-check.csv  -> $OUT/moe-check.csv (make_moe_check_plan.py: the emitted files)
#   all-b     tutorial, then moe in the time left
#   fp8-h100  plans/plan-fp8-block-h100.csv (make_plans.py --only fp8-h100) -> $OUT/fp8-h100.csv, .log
#   triton-more  plans/plan-triton-more.csv (make_triton_plan.py) -> $OUT/triton-more.csv, .log
# $OUT (the folder whose files come back; at most 8 files) also gets env.txt. The call must end within
# 9.5 minutes of wall time (the per-call limit is 10): --max-minutes defaults to what is left of that after
# this script's own start-up, the harness's --hard-extra-minutes (0.5) and its shut-down; MAXMIN overrides
# it (for all-b: MAXMIN is the tutorial's share, default 4.8, and moe gets what is left).
# VENDOR=0 leaves out the vendor reference rows (cublas, cublas-fp8-block).
# Resumable: a later call continues from /tmp/tm/<name>.csv (same warm machine) or, on a fresh machine,
# from tools/measure/plans/partial-<name>.csv if that exists (copy an earlier $OUT/<name>.csv there).
set -u
MODE=${1:?usage: run_targets.sh smoke|fp8|tutorial|moe|all-b}
T0=$(date +%s)
export PYTHONUNBUFFERED=1
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/tm
JOBS=$(( $(nproc) - 1 ))
[ "$JOBS" -lt 1 ] && JOBS=1
HARD=0.5
VENDOR_FLAG="--vendor"; [ "${VENDOR:-1}" = "0" ] && VENDOR_FLAG=""   # VENDOR=0: no vendor reference rows
END_MIN=9.5          # the whole call ends by then
TAIL_MIN=0.3         # pool shut-down, final table, copies

(date -u; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,clocks.mem --format=csv
 python3 -c "import torch,triton,sys;print('torch',torch.__version__,'cuda',torch.version.cuda,'triton',triton.__version__,'python',sys.version.split()[0])"
 echo "nproc $(nproc) jobs $JOBS"; free -g; df -h /tmp | tail -1) > "$OUT/env.txt" 2>&1

left_min() {  # minutes left for a harness run started now: END - elapsed - hard extra - tail
  python3 -c "import time; print(round($END_MIN - (time.time() - $T0) / 60 - $HARD - $TAIL_MIN, 2))"
}

run_plan() {  # name plan max_minutes
  local name=$1 plan=$2 maxmin=$3 res=""
  if python3 -c "import sys; sys.exit(0 if float('$maxmin') >= 0.5 else 1)"; then :; else
    echo "run_targets: no time left for $name ($maxmin min)"; return 0
  fi
  if [ -f "/tmp/tm/$name.csv" ]; then res="--resume /tmp/tm/$name.csv"
  elif [ -f "plans/partial-$name.csv" ]; then res="--resume plans/partial-$name.csv"; fi
  [ -f "/tmp/tm/$name.log" ] && cp "/tmp/tm/$name.log" "$OUT/$name.log"
  echo "run_targets: $name: plans/$plan, --max-minutes $maxmin, $JOBS jobs ${res}"
  python3 harness.py --plan "plans/$plan" --out "$OUT/$name.csv" $res --jobs "$JOBS" --log "$OUT/$name.log" \
    --max-minutes "$maxmin" --hard-extra-minutes "$HARD" $VENDOR_FLAG 2>&1 | grep -v '^#   compile_error'
  cp "$OUT/$name.csv" "$OUT/$name.log" /tmp/tm/ 2>/dev/null
  return 0
}

case "$MODE" in
  smoke)
    timeout 170 python3 smoke.py --out "$OUT" --jobs "$JOBS"
    exit $? ;;
  fp8)      run_plan fp8 plan-fp8-block.csv "${MAXMIN:-$(left_min)}" ;;
  tutorial) run_plan tutorial plan-tutorial.csv "${MAXMIN:-$(left_min)}" ;;
  moe)      run_plan moe plan-moe.csv "${MAXMIN:-$(left_min)}" ;;
  moe-check) P=${2:-plan-moe-check}; run_plan "${P#plan-}" "$P.csv" "${MAXMIN:-$(left_min)}" ;;
  fp8-h100) run_plan fp8-h100 plan-fp8-block-h100.csv "${MAXMIN:-$(left_min)}" ;;
  triton-more) run_plan triton-more plan-triton-more.csv "${MAXMIN:-$(left_min)}" ;;
  all-b)
    run_plan tutorial plan-tutorial.csv "${MAXMIN:-4.8}"
    run_plan moe plan-moe.csv "$(left_min)" ;;
  *) echo "run_targets: unknown mode $MODE (smoke|fp8|tutorial|moe|all-b)"; exit 2 ;;
esac
echo "run_targets: $MODE done in $(( $(date +%s) - T0 ))s"
