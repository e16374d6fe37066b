#!/usr/bin/env bash
# run154 (session 17): split-K summed in the GEMM (`piece::split_sum`): the GPU call tests (split-K with
# the fused op, MN-major, column-major D, odd N; on handles summing in the GEMM and by a second kernel;
# narrow sides with K slices), memcheck and racecheck on the split-K and narrow tests, and the A/B against
# the second kernel (`bench_matmul --shape ... --split-k-ab`).
set -uo pipefail
OUT="${OUT:-/tmp/run154}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run154
s=$SECONDS; timeout 120 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
grep -E "FAILED|panicked" -A6 "$OUT/test-matmul_run.log" | head -20
for tool in memcheck racecheck; do
  s=$SECONDS; timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 gpu-bin/test-matmul_run --test-threads=1 split_k_slices narrow_sides > "$OUT/san-$tool.log" 2>&1
  echo "$tool rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-$tool.log" | tail -1) $(grep -E '^test result' "$OUT/san-$tool.log")"
done
for shape in 1,256,2048,32768 1,16,4096,4096 1,64,4096,8192 1,128,1024,16384; do
  s=$SECONDS; timeout 40 gpu-bin/bench_matmul --shape $shape --split-k-ab > "$OUT/ab-${shape//,/x}.log" 2>&1
  echo "ab $shape rc=$? $((SECONDS-s))s"; grep -E "^\| bf16|summed" "$OUT/ab-${shape//,/x}.log" | cut -c1-200
done
