#!/usr/bin/env bash
# Runs every libFuzzer target of BUILD_DIR (built by `make fuzz`) for SECONDS each, one after the
# other, and prints executions and findings per target.
#   tests/fuzz/run.sh BUILD_DIR [SECONDS] [TARGET...]
# Corpora grow under BUILD_DIR/corpus/NAME (seeded from tests/fuzz/seeds/NAME, examples/,
# profiles/, tests/data/, tests/fuzz/regressions/NAME); crashing inputs land in
# BUILD_DIR/artifacts/NAME/. Once a crash is fixed, copy its input to
# tests/fuzz/regressions/NAME/ so ctest replays it. Exit 1 when any target found something.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:?usage: tests/fuzz/run.sh BUILD_DIR [SECONDS] [TARGET...]}
seconds=${2:-60}
shift $(( $# >= 2 ? 2 : 1 ))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(shape shape_list_csv shape_list_yaml shape_list_json shape_list_text shape_list_auto profile candidates
           measurements)
fi

seed() {  # seed NAME: the seed inputs of a target (files or folders)
  local name=$1
  echo tests/fuzz/seeds/"$name"
  [ -d tests/fuzz/regressions/"$name" ] && echo tests/fuzz/regressions/"$name"
  case $name in
    profile) echo profiles tests/data/toy.yaml ;;
    shape_list_csv | shape_list_auto) echo examples ;;
    candidates) echo tests/data/candidates.csv ;;
    measurements) echo tests/data/tiny-measurements.csv ;;
  esac
}

# ASan: leaks fatal; UBSan: already fatal (-fno-sanitize-recover=undefined), with a stack.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
summary=$build/fuzz-summary.txt
printf '%-18s %10s %8s %9s %s\n' target seconds execs exec/s findings | tee "$summary"
status=0
for name in "${targets[@]}"; do
  bin=$build/tests/fuzz/fuzz_$name
  [ -x "$bin" ] || { echo "no fuzzer $bin: run make fuzz" >&2; exit 2; }
  corpus=$build/corpus/$name
  artifacts=$build/artifacts/$name
  mkdir -p "$corpus" "$artifacts"
  for s in $(seed "$name"); do
    if [ -d "$s" ]; then find "$s" -maxdepth 1 -type f -size -64k -exec cp -f {} "$corpus"/ \; ; else cp -f "$s" "$corpus"/; fi
  done
  dict=()
  [ -f tests/fuzz/$name.dict ] && dict=(-dict=tests/fuzz/$name.dict)
  log=$build/fuzz-$name.log
  "$bin" "$corpus" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -artifact_prefix="$artifacts"/ -print_final_stats=1 >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  found=$(find "$artifacts" -type f | wc -l)
  if [ $rc -ne 0 ] || [ "$found" -gt 0 ]; then
    status=1
    what="$found input(s) in $artifacts (exit $rc; see $log)"
  else
    what=none
  fi
  printf '%-18s %10s %8s %9s %s\n' "$name" "$seconds" "${execs:-?}" "${rate:-?}" "$what" | tee -a "$summary"
done
exit $status
