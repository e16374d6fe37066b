#!/usr/bin/env bash
# run167 (session 19): the shipped code (dependent launch, the 64x128 tile without it): the GPU call
# tests, memcheck on the chained calls, racecheck and exactness on `bench_hopper check tiny`, then the
# GEMM table a second time with the A/B (`bench_matmul --dependent-launch-ab`; run166 the first).
set -uo pipefail
OUT="${OUT:-/tmp/run167}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run167
s=$SECONDS; timeout 150 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
grep -hE "FAILED|panicked" -A6 "$OUT/test-matmul_run.log" | head -10
s=$SECONDS; timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 gpu-bin/test-matmul_run --test-threads=1 chained > "$OUT/san-memcheck-chained.log" 2>&1
echo "memcheck chained rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-chained.log" | tail -1) $(grep -E '^test result' "$OUT/san-memcheck-chained.log")"
s=$SECONDS; timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 gpu-bin/bench_hopper check tiny > "$OUT/san-racecheck-tiny.log" 2>&1
echo "racecheck tiny rc=$? $((SECONDS-s))s: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/san-racecheck-tiny.log" | tail -1) $(grep -E 'check:' "$OUT/san-racecheck-tiny.log" | tail -1)"
s=$SECONDS; timeout 280 gpu-bin/bench_matmul --dependent-launch-ab > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|dependent|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f1-8 | sed 's/ (8 algos)//'
