#!/usr/bin/env bash
# final8 skinny: the autotuner on the small-output shapes (16 and 128 rows, long K) on whatever card comes,
# every candidate's time logged: what the heuristic's read model misses where HBM is faster (H200).
set -uo pipefail
BIN=gpu-bin
OUT="${OUT:-/tmp/final8}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-final8s CUTE_AUTOTUNE_LOG=1
{
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit,memory.total --format=csv
s=$SECONDS
timeout 300 "$BIN/bench_matmul" --tuned --skinny
echo "bench_matmul --tuned --skinny rc=$? $((SECONDS-s))s"
cat /tmp/cute-cache-final8s/autotune.tsv 2>/dev/null | head -30
} > "$OUT/skinny.log" 2>&1
grep -vE "^\s*$" "$OUT/skinny.log" | tail -60
