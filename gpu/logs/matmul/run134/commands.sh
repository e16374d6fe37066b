#!/usr/bin/env bash
# (Dynamic tiles were not kept; the code measured here is dynamic-tiles.patch, against commit f44be00.)
# run134 (session 15): dynamic tiles (`HopperConfig::dynamic_tiles`: claimed from a global counter after the
# first, published with each job's first stage; cuBLASLt's kernels schedule this way). Exactness
# (`bench_hopper check small`, with four dynamic configurations), racecheck and memcheck on `check tiny`,
# then `bench_hopper dynamic`: static against dynamic, interleaved with cublasGemmEx on the sweep's shapes.
set -uo pipefail
OUT="${OUT:-/tmp/run134}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run134
s=$SECONDS; timeout 120 gpu-bin/bench_hopper check small > "$OUT/check-small.log" 2>&1
echo "check small rc=$? $((SECONDS-s))s: $(tail -1 "$OUT/check-small.log") ($(grep -c _dyn "$OUT/check-small.log") dynamic checks)"; grep -E "FAIL|wrong \(" "$OUT/check-small.log" | grep -v " 0 wrong" | head -5
s=$SECONDS; timeout 80 compute-sanitizer --tool racecheck --error-exitcode 9 gpu-bin/bench_hopper check tiny > "$OUT/san-racecheck-tiny.log" 2>&1
echo "racecheck tiny rc=$? $((SECONDS-s))s: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/san-racecheck-tiny.log" | tail -1) $(grep -E 'check:' "$OUT/san-racecheck-tiny.log" | tail -1)"
s=$SECONDS; timeout 80 compute-sanitizer --tool memcheck --error-exitcode 9 gpu-bin/bench_hopper check tiny > "$OUT/san-memcheck-tiny.log" 2>&1
echo "memcheck tiny rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-tiny.log" | tail -1) $(grep -E 'check:' "$OUT/san-memcheck-tiny.log" | tail -1)"
s=$SECONDS; timeout 200 gpu-bin/bench_hopper dynamic > "$OUT/dynamic.log" 2>&1
echo "dynamic rc=$? $((SECONDS-s))s"; grep -vE "^device" "$OUT/dynamic.log" | sed 's/ TFLOP\/s (/ (/; s/ of cuBLAS; grid [0-9]*;//; s/max rel diff/diff/'
