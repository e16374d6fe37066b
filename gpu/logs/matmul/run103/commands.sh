#!/usr/bin/env bash
# run103 (session 10): the plan's stream-K rule with the k-block term (no stream-K for the 32 x 1024³
# batch): the stream-K call test, bench_matmul (the second table), and the batch with whole tiles
# against stream-K in one process (twice).
set -uo pipefail
OUT="${OUT:-/tmp/run103}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run103
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
s=$SECONDS; timeout 100 gpu-bin/test-matmul_run --test-threads=1 stream_k > "$OUT/test-matmul_run-stream_k.log" 2>&1
echo "test stream_k rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run-stream_k.log")"
grep -E "panicked" -A2 "$OUT/test-matmul_run-stream_k.log" | head -6
s=$SECONDS; timeout 300 gpu-bin/bench_matmul > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f2-8,12 | sed 's/ (8 algos)//'
for i in 1 2; do
  timeout 60 gpu-bin/bench_matmul --stream-k-ab --shape 32,1024,1024,1024 > "$OUT/batch-ab-$i.log" 2>&1
  grep -E "^\| bf16|stream-K /" "$OUT/batch-ab-$i.log" | cut -d'|' -f2-8
done
