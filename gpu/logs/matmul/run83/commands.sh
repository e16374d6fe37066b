#!/usr/bin/env bash
# run83 (session 8, H200): bench_matmul with cuBLASLt's best of 8 as the highest median of its algorithms (before:
# the median of each round's fastest, also printed, last column), 5 rounds; two processes.
set -uo pipefail
OUT="${OUT:-/tmp/run83}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run83
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
for i in 1 2; do
  s=$SECONDS
  timeout 250 gpu-bin/bench_matmul > "$OUT/bench_matmul-$i.log" 2>&1
  echo "bench_matmul $i rc=$? $((SECONDS-s))s"
done
cat "$OUT/gpu.txt"; grep -E "^\| (bf16|f16)" "$OUT/bench_matmul-1.log" | cut -d'|' -f2,3,5,6,8,12
