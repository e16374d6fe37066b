#!/usr/bin/env bash
# run155 (session 17): split-K summed in the GEMM with the slices' loads no longer fenced every 8 pairs
# (run154 read 0.74 of the second kernel at 256x2048x32768): the split-K and narrow GPU tests and the A/B.
set -uo pipefail
OUT="${OUT:-/tmp/run155}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run155
s=$SECONDS; timeout 60 gpu-bin/test-matmul_run --test-threads=1 split_k_slices narrow_sides > "$OUT/test-split.log" 2>&1
echo "tests rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-split.log")"
for shape in 1,256,2048,32768 1,16,4096,4096 1,64,4096,8192 1,128,1024,16384 1,1024,1024,65536; do
  s=$SECONDS; timeout 40 gpu-bin/bench_matmul --shape $shape --split-k-ab > "$OUT/ab-${shape//,/x}.log" 2>&1
  echo "ab $shape rc=$? $((SECONDS-s))s"; grep -E "^\| bf16|summed" "$OUT/ab-${shape//,/x}.log" | cut -c1-200
done
