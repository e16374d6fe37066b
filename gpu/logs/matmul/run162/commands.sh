#!/usr/bin/env bash
# run162 (session 18): the ping-pong 128x192 (`HopperConfig::pingpong_wide`, the plan's tile for short K
# and per-tensor FP8's at 8192³ and 8192x14336x4096) now probes the next k-block's stage ahead: the second
# `bench_hopper probe` A/B (run161 the first), racecheck and exactness on `bench_hopper check tiny`, the
# FP8 and 16-bit GPU call tests.
set -uo pipefail
OUT="${OUT:-/tmp/run162}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run162
s=$SECONDS; timeout 200 gpu-bin/bench_hopper probe > "$OUT/probe.log" 2>&1; echo "probe rc=$? $((SECONDS-s))s"
grep -vE "^device" "$OUT/probe.log" | sed 's/cute_hgemm_bf16_bf16_//; s/ TFLOP\/s (/ (/; s/; grid.*//'
s=$SECONDS; timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 gpu-bin/bench_hopper check tiny > "$OUT/san-racecheck-tiny.log" 2>&1
echo "racecheck tiny rc=$? $((SECONDS-s))s: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/san-racecheck-tiny.log" | tail -1) $(grep -E 'check:' "$OUT/san-racecheck-tiny.log" | tail -1) ($(grep -c 128x192.*_pa "$OUT/san-racecheck-tiny.log") 128x192 pa lines)"
s=$SECONDS; timeout 100 gpu-bin/test-fp8_run --test-threads=1 > "$OUT/test-fp8_run.log" 2>&1
echo "test-fp8_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-fp8_run.log")"
s=$SECONDS; timeout 120 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
grep -hE "FAILED|panicked" -A6 "$OUT/test-fp8_run.log" "$OUT/test-matmul_run.log" | head -20
