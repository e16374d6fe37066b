#!/usr/bin/env bash
# run163 (session 19): programmatic dependent launch of the SM90 GEMMs (`griddepcontrol.wait` before any
# global access, `launch_dependents` after it; `cuLaunchKernelEx` with programmatic stream
# serialization): the GPU call tests (the new chained-calls test, both ways), memcheck on it, the FP8 call
# tests (the stream-K case at 2304x2304x2560 runs for the first time), then the A/B of the call with and
# without it (`bench_matmul --shape ... --dependent-launch-ab`) on the shapes below 1.00.
set -uo pipefail
OUT="${OUT:-/tmp/run163}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run163
s=$SECONDS; timeout 150 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
s=$SECONDS; timeout 100 gpu-bin/test-fp8_run --test-threads=1 > "$OUT/test-fp8_run.log" 2>&1
echo "test-fp8_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-fp8_run.log")"
grep -hE "FAILED|panicked" -A6 "$OUT/test-fp8_run.log" "$OUT/test-matmul_run.log" | head -20
s=$SECONDS; timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 gpu-bin/test-matmul_run --test-threads=1 chained > "$OUT/san-memcheck-chained.log" 2>&1
echo "memcheck chained rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-chained.log" | tail -1) $(grep -E '^test result' "$OUT/san-memcheck-chained.log")"
for shape in 1,16,8192,8192 1,128,8192,8192 1,256,2048,32768 1,2048,2048,2048 1,4096,4096,4096 1,1024,8192,8192 32,1024,1024,1024; do
  s=$SECONDS; timeout 60 gpu-bin/bench_matmul --shape $shape --dependent-launch-ab > "$OUT/ab-${shape//,/x}.log" 2>&1
  echo "ab $shape rc=$? $((SECONDS-s))s"; grep -E "^\| bf16|dependent" "$OUT/ab-${shape//,/x}.log" | cut -d'|' -f1-8 | sed 's/ (8 algos)//'
done
