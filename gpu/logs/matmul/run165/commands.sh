#!/usr/bin/env bash
# run165 (session 19): the whole GEMM table with programmatic dependent launch (the trigger once the
# producer has issued its last load, run164), each row with the A/B against the same call without it
# (`bench_matmul --dependent-launch-ab`), bf16 and f16, and the host cost.
set -uo pipefail
OUT="${OUT:-/tmp/run165}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run165
s=$SECONDS; timeout 280 gpu-bin/bench_matmul --dependent-launch-ab > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|dependent|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f1-8 | sed 's/ (8 algos)//'
