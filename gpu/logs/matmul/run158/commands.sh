#!/usr/bin/env bash
# run158 (session 18): the autotuner's times of every alternative (`CUTE_AUTOTUNE_LOG`) at the table's
# shapes below 1.00, now that split-K's slices are summed in the GEMM (128x128 tiles in 2 slices read B
# once as 64x128 tiles do, with half the L2 traffic, at 128x8192x8192).
set -uo pipefail
OUT="${OUT:-/tmp/run158}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run158
for shape in 1,128,8192,8192 1,16,8192,8192 1,1024,8192,8192 1,4096,4096,4096 1,2048,2048,2048; do
  s=$SECONDS; CUTE_AUTOTUNE_LOG=1 timeout 150 gpu-bin/bench_matmul --tuned --shape $shape > "$OUT/tuned-${shape//,/x}.log" 2>&1
  echo "tuned $shape rc=$? $((SECONDS-s))s"; grep -E "^\| bf16" "$OUT/tuned-${shape//,/x}.log" | cut -c1-200
  grep -E "^cute autotune .* ms$" "$OUT/tuned-${shape//,/x}.log" | sort -g -k6 | head -10 | cut -d' ' -f5-6
done
