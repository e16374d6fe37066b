#!/usr/bin/env bash
# run141 (session 16): compute-sanitizer racecheck and memcheck on `bench_hopper check tiny` (every checked
# configuration, the clustered narrow tile and its stream-K variant included).
set -uo pipefail
OUT="${OUT:-/tmp/run141}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run141
s=$SECONDS; timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 gpu-bin/bench_hopper check tiny > "$OUT/san-racecheck-tiny.log" 2>&1
echo "racecheck tiny rc=$? $((SECONDS-s))s: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/san-racecheck-tiny.log" | tail -1) $(grep -E 'check:' "$OUT/san-racecheck-tiny.log" | tail -1) ($(grep -c 64x16x64 "$OUT/san-racecheck-tiny.log") narrow lines)"
s=$SECONDS; timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 gpu-bin/bench_hopper check tiny > "$OUT/san-memcheck-tiny.log" 2>&1
echo "memcheck tiny rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-tiny.log" | tail -1) $(grep -E 'check:' "$OUT/san-memcheck-tiny.log" | tail -1)"
