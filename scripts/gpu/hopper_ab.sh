#!/usr/bin/env bash
# On the GPU machine: racecheck and exactness on `bench_hopper check tiny` (counting the checked lines of
# kernels whose names contain TAG), then the A/B `bench_hopper MODE`; logs under $OUT.
# Usage: OUT=... bash scripts/gpu/hopper_ab.sh MODE TAG   (used by gpu/logs/matmul/run160 and run161)
set -uo pipefail
: "${OUT:?OUT must name the log folder}"
mode="$1" tag="$2"
s=$SECONDS; timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 gpu-bin/bench_hopper check tiny > "$OUT/san-racecheck-tiny.log" 2>&1
echo "racecheck tiny rc=$? $((SECONDS-s))s: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/san-racecheck-tiny.log" | tail -1) $(grep -E 'check:' "$OUT/san-racecheck-tiny.log" | tail -1) ($(grep -c "$tag" "$OUT/san-racecheck-tiny.log") ${tag#_} lines)"
s=$SECONDS; timeout 200 gpu-bin/bench_hopper "$mode" > "$OUT/$mode.log" 2>&1; echo "$mode rc=$? $((SECONDS-s))s"
grep -vE "^device" "$OUT/$mode.log" | sed 's/cute_hgemm_bf16_bf16_//; s/ TFLOP\/s (/ (/; s/; grid.*//'
