#!/usr/bin/env bash
# run99 (session 10): stream-K with the whole tiles first (run 98 had the cut tiles first: 0.63-0.90 of
# whole tiles on long mainloops); the same checks as run 98, then bench_hopper streamk.
set -uo pipefail
OUT="${OUT:-/tmp/run99}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run99
s=$SECONDS; timeout 240 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
grep -E "FAILED|panicked" -A3 "$OUT/test-matmul_run.log" | head -12
s=$SECONDS; timeout 200 gpu-bin/bench_hopper check small > "$OUT/check-small.log" 2>&1
echo "check small rc=$? $((SECONDS-s))s: $(tail -1 "$OUT/check-small.log") ($(grep -c _sk "$OUT/check-small.log") stream-K checks)"; grep -E "FAIL|padding" "$OUT/check-small.log" | head -5
s=$SECONDS; timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 gpu-bin/test-matmul_run --test-threads=1 stream_k > "$OUT/san-memcheck-stream_k.log" 2>&1
echo "memcheck stream_k rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-stream_k.log" | tail -1) $(grep -E '^test result' "$OUT/san-memcheck-stream_k.log")"
s=$SECONDS; timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 gpu-bin/bench_hopper check tiny > "$OUT/san-racecheck-tiny.log" 2>&1
echo "racecheck tiny rc=$? $((SECONDS-s))s: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/san-racecheck-tiny.log" | tail -1) $(grep -E 'check:' "$OUT/san-racecheck-tiny.log" | tail -1)"
s=$SECONDS; timeout 200 gpu-bin/bench_hopper streamk > "$OUT/streamk.log" 2>&1
echo "streamk rc=$? $((SECONDS-s))s"; grep -v "^device" "$OUT/streamk.log" | sed 's/cute_hgemm_bf16_bf16_//; s/ TFLOP\/s//; s/max rel diff //'
