#!/usr/bin/env bash
# Times the gemm-advisor CLI (README, "Speed"). Usage: bench/run.sh BIN WORKDIR
#   1. `batch` over 100,000 generated LLM shapes, full candidate space, --top 1, output to /dev/null:
#      wall time, shapes/s, peak RSS;
#   2. peak RSS of `batch` over 1,000,000 generated shapes, as a text list, a JSON list and JSON Lines (with a fixed 3-config --candidates list so
#      that it takes seconds, not minutes: the memory that could grow with the list is the reader,
#      the pipeline and the writer, which every run goes through), and over 1,000 for comparison;
#   3. wall time of one `gemm-advisor rank` process (hyperfine when installed, else 50 runs).
# Generated shape lists go under WORKDIR (build-bench/ from `make bench`), never into the tree.
set -euo pipefail

BIN=${1:?usage: bench/run.sh BIN WORKDIR}
WORK=${2:?usage: bench/run.sh BIN WORKDIR}
HW=${BENCH_HW:-h200}
RANK_RUNS=50
mkdir -p "$WORK"
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench/run.sh: $TIME is missing (Debian package 'time'; make bench installs it)" >&2; exit 1; }

# Shape lists: real LLM (N, K) pairs (DESIGN.md, "Shapes and layouts") with M from decode to
# prefill, batch 1, in a fixed pseudo-random order (same list on every run).
generate() {  # generate COUNT FILE
  [ -s "$2" ] && [ "$(wc -l < "$2")" -eq "$1" ] && return 0
  awk -v count="$1" 'BEGIN {
    split("1 2 4 8 16 32 64 128 256 512 1024 2048 4096 8192 16384", ms, " ");
    split("6144:4096 4096:4096 28672:4096 4096:14336 10240:8192 8192:8192 57344:8192 8192:28672 128256:8192 1536:7168 576:7168 7168:16384", nks, " ");
    seed = 12345;
    for (i = 0; i < count; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648; m = ms[1 + seed % 15];
      seed = (seed * 1103515245 + 12345) % 2147483648; split(nks[1 + seed % 12], nk, ":");
      printf "%sx%sx%s\n", m, nk[1], nk[2];
    }
  }' > "$2"
}
generate 1000 "$WORK/shapes-1k.txt"
generate 100000 "$WORK/shapes-100k.txt"
generate 1000000 "$WORK/shapes-1m.txt"
printf 'block_m,block_n,block_k,num_warps,num_stages\n128,128,64,8,3\n64,128,64,4,4\n16,64,128,4,3\n' > "$WORK/three-configs.csv"

calc() { awk "BEGIN { print $1 }"; }  # floating-point arithmetic without bc

# timed LABEL CMD...: runs CMD with stdout to /dev/null; sets WALL_S, CPU_S (user + system) and RSS_KB.
# CPU_S divided by the cores is what the wall time would be on an otherwise idle machine: on a
# shared one (other builds running) the wall time alone overstates.
timed() {
  local label=$1 user_s sys_s
  shift
  "$TIME" -f '%e %M %U %S' -o "$WORK/time.out" "$@" > /dev/null
  read -r WALL_S RSS_KB user_s sys_s < "$WORK/time.out"
  CPU_S=$(calc "$user_s + $sys_s")
  printf '%-54s %7.2f s wall %7.2f s CPU %6.1f MB peak RSS\n' "$label" "$WALL_S" "$CPU_S" "$(calc "$RSS_KB / 1024")"
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
echo "== gemm-advisor CLI on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), --hw $HW"
timed "batch, 100,000 shapes, full space, --top 1, csv" \
  "$BIN" batch "$WORK/shapes-100k.txt" --hw "$HW" --top 1 --format csv --quiet
printf '    -> %.0f shapes/s; %.1f s of CPU per core, %.0f shapes/s if the %d cores were idle (target: 100,000 shapes in <= 10 s)\n' \
  "$(calc "100000 / $WALL_S")" "$(calc "$CPU_S / $(nproc)")" "$(calc "100000 * $(nproc) / $CPU_S")" "$(nproc)"
echo "    (load average before: $LOAD_BEFORE; after: $(cut -d' ' -f1-3 /proc/loadavg))"
timed "batch, 1,000 shapes, 3 given configs (RSS baseline)" \
  "$BIN" batch "$WORK/shapes-1k.txt" --hw "$HW" --candidates "$WORK/three-configs.csv" --format csv --quiet
RSS_1K=$RSS_KB
timed "batch, 1,000,000 shapes, 3 given configs" \
  "$BIN" batch "$WORK/shapes-1m.txt" --hw "$HW" --candidates "$WORK/three-configs.csv" --format csv --quiet
printf '    -> peak RSS %.1f MB for 1,000,000 shapes vs %.1f MB for 1,000 (target: <= 100 MB)\n' \
  "$(calc "$RSS_KB / 1024")" "$(calc "$RSS_1K / 1024")"
# list_rss FILE WHAT: peak RSS of `batch` over the million as FILE (made by the caller), 3 given configs.
list_rss() {
  timed "batch, 1,000,000 shapes as $2, 3 given configs" \
    "$BIN" batch "$1" --hw "$HW" --candidates "$WORK/three-configs.csv" --format csv --quiet
  printf '    -> peak RSS %.1f MB for %.1f MB of %s, 1,000,000 shapes\n' \
    "$(calc "$RSS_KB / 1024")" "$(calc "$(stat -c %s "$1") / 1048576")" "$2"
}
# The same million as a JSON list of mappings (json.dump's form, one line): read entry by entry
# since 2026-12-05 (its text plus 24 bytes a shape; about 3.5 KB a shape when it was parsed whole).
[ -s "$WORK/shapes-1m.json" ] || awk -F x 'BEGIN { printf "[" } { printf "%s{\"m\": %s, \"n\": %s, \"k\": %s}", (NR > 1 ? ", " : ""), $1, $2, $3 } END { print "]" }' \
  "$WORK/shapes-1m.txt" > "$WORK/shapes-1m.json"
list_rss "$WORK/shapes-1m.json" "a JSON list"
# ... and as JSON Lines (one mapping a line, `batch --format jsonl`'s form): its lines counted before
# their spans are kept (grown by doubling until 2026-12-07: 89.2 MB).
[ -s "$WORK/shapes-1m.jsonl" ] || awk -F x '{ printf "{\"m\": %s, \"n\": %s, \"k\": %s}\n", $1, $2, $3 }' \
  "$WORK/shapes-1m.txt" > "$WORK/shapes-1m.jsonl"
list_rss "$WORK/shapes-1m.jsonl" "JSON Lines"

echo "== one 'gemm-advisor rank 4096x4096x4096 --hw $HW' process (target: < 20 ms)"
if command -v hyperfine > /dev/null; then
  hyperfine --shell=none --warmup 5 --runs "$RANK_RUNS" --style basic \
    "$BIN rank 4096x4096x4096 --hw $HW" 2>&1 | grep -E 'Time|Range'
else
  start_ns=$(date +%s%N)
  for _ in $(seq "$RANK_RUNS"); do "$BIN" rank 4096x4096x4096 --hw "$HW" > /dev/null; done
  end_ns=$(date +%s%N)
  printf '  mean over %d runs: %.1f ms (hyperfine not installed)\n' "$RANK_RUNS" \
    "$(calc "($end_ns - $start_ns) / $RANK_RUNS / 1000000")"
fi
