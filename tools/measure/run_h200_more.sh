#!/bin/bash
# The second H200 sweep (device tool; $OUT is the folder whose files come back): the shapes of
# shapes-h200-more-a.csv and -b.csv. With two GPUs (nvidia-h200-x2) the two lists run at once, one
# per GPU, each with its own compile pool; with one GPU, one after the other. Each list resumes from
# data/measurements/h200-more-{a,b}.partial.csv when that exists (a call that ran out of time).
export PYTHONUNBUFFERED=1
cd "$(dirname "$0")"
MAXMIN=${MAXMIN:-7.5}
(date -u; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,clocks.mem --format=csv
 python3 -c "import torch,triton,sys;print('torch',torch.__version__,'cuda',torch.version.cuda,'triton',triton.__version__,'python',sys.version.split()[0])"
 nproc) > $OUT/env-more.txt 2>&1
GPUS=$(nvidia-smi -L | wc -l)
JOBS=$(( $(nproc) / (GPUS > 1 ? 2 : 1) - 1 ))
sweep() {  # group gpu
  local res=""
  [ -f ../../data/measurements/h200-more-$1.partial.csv ] && res="--resume ../../data/measurements/h200-more-$1.partial.csv"
  CUDA_VISIBLE_DEVICES=$2 python3 sweep.py --shapes shapes-h200-more-$1.csv --out $OUT/h200-more-$1.csv $res \
    --jobs $JOBS --log $OUT/h200-more-$1.log --max-minutes $3 --hard-extra-minutes 0.5 2>&1 | grep -v '^#   compile_error'
}
if [ "$GPUS" -gt 1 ]; then
  sweep a 0 $MAXMIN > $OUT/stdout-a.txt & sweep b 1 $MAXMIN > $OUT/stdout-b.txt & wait
  tail -n 15 $OUT/stdout-a.txt $OUT/stdout-b.txt
else
  half=$(python3 -c "print($MAXMIN/2)")
  sweep a 0 $half; sweep b 0 $half
fi
