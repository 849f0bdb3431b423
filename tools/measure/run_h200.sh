#!/bin/bash
# The exact command run on the H200 (device tool; $OUT is the folder whose files come back).
# Resumable: a second call on the same (still warm) machine continues from /tmp/st; on a fresh
# machine it continues from data/measurements/h200-triton-bf16.partial.csv if that exists.
export PYTHONUNBUFFERED=1
cd "$(dirname "$0")"
mkdir -p /tmp/st
MAXMIN=${MAXMIN:-7.0}
(date -u; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,clocks.mem --format=csv
 python3 -c "import torch,triton,sys;print('torch',torch.__version__,'cuda',torch.version.cuda,'triton',triton.__version__,'python',sys.version.split()[0])"
 nproc) > $OUT/env.txt 2>&1
if [ ! -f /tmp/st/gate.ok ]; then
  timeout 45 python3 sweep.py --shapes shapes-check.csv --configs configs-check.csv --out $OUT/check-spec.csv --jobs 6 --log $OUT/check.log > /dev/null 2>&1
  if ! python3 gate.py $OUT/check-spec.csv; then
    grep -E "compile_error|launch_error" $OUT/check.log | head -3
    echo "gate failed: retry without the scalar multiple_of hint"
    sed -i 's/k_start = tl.multiple_of(sid \* k_chunk, BLOCK_K)/k_start = sid * k_chunk/' gemm_kernels.py
    timeout 45 python3 sweep.py --shapes shapes-check.csv --configs configs-check.csv --out $OUT/check-spec.csv --jobs 6 --log $OUT/check.log > /dev/null 2>&1
    python3 gate.py $OUT/check-spec.csv || exit 3
  fi
  timeout 40 python3 sweep.py --shapes shapes-check.csv --configs configs-check.csv --variant nospec --out $OUT/check-nospec.csv --jobs 6 --log $OUT/check.log > /dev/null 2>&1
  python3 gate.py $OUT/check-nospec.csv 0 | grep triton
  touch /tmp/st/gate.ok
fi
RES=""
if [ -f /tmp/st/h200-triton-bf16.csv ]; then RES="--resume /tmp/st/h200-triton-bf16.csv"
elif [ -f ../../data/measurements/h200-triton-bf16.partial.csv ]; then RES="--resume ../../data/measurements/h200-triton-bf16.partial.csv"; fi
[ -f /tmp/st/h200-triton-bf16.log ] && cp /tmp/st/h200-triton-bf16.log $OUT/h200-triton-bf16.log
python3 sweep.py --shapes shapes-h200.csv --out $OUT/h200-triton-bf16.csv $RES --jobs 16 \
  --log $OUT/h200-triton-bf16.log --max-minutes $MAXMIN --hard-extra-minutes 0.5 2>&1 | grep -v '^#   compile_error'
cp $OUT/h200-triton-bf16.csv $OUT/h200-triton-bf16.log /tmp/st/
