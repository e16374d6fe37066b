#!/usr/bin/env bash
# run98 (session 10, stream-K): test-matmul_run (stream_k_against_the_reference and the rest), the
# exactness checks of bench_hopper (stream-K configs included), memcheck of the stream-K call test,
# racecheck of the tiny checks (130x130x128 cut over 3 CTAs), then bench_hopper streamk (same tiles
# with and without stream-K, interleaved with cublasGemmEx).
set -uo pipefail
OUT="${OUT:-/tmp/run98}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run98
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
s=$SECONDS; timeout 240 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
grep -E "FAILED|panicked" -A3 "$OUT/test-matmul_run.log" | head -12
s=$SECONDS; timeout 200 gpu-bin/bench_hopper check small > "$OUT/check-small.log" 2>&1
echo "check small rc=$? $((SECONDS-s))s: $(tail -1 "$OUT/check-small.log")"; grep -E "FAIL|padding" "$OUT/check-small.log" | head -5
grep -c "_sk" "$OUT/check-small.log"
s=$SECONDS; timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 gpu-bin/test-matmul_run --test-threads=1 stream_k > "$OUT/san-memcheck-stream_k.log" 2>&1
echo "memcheck stream_k rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-stream_k.log" | tail -1) $(grep -E '^test result' "$OUT/san-memcheck-stream_k.log")"
s=$SECONDS; timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 gpu-bin/bench_hopper check tiny > "$OUT/san-racecheck-tiny.log" 2>&1
echo "racecheck tiny rc=$? $((SECONDS-s))s: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/san-racecheck-tiny.log" | tail -1) $(grep -E 'check:' "$OUT/san-racecheck-tiny.log" | tail -1)"
s=$SECONDS; timeout 200 gpu-bin/bench_hopper streamk > "$OUT/streamk.log" 2>&1
echo "streamk rc=$? $((SECONDS-s))s"; grep -v "^device" "$OUT/streamk.log" | sed 's/cute_hgemm_bf16_bf16_//'
