#!/usr/bin/env bash
# run109 (session 11): the call's GPU tests with the autotuner's settled samples (tuner_ms); the second
# settled FP8 A/B of stream-K and clusters (run 107 the first).
set -uo pipefail
OUT="${OUT:-/tmp/run109}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run109
s=$SECONDS; timeout 100 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
grep -E "FAILED|panicked" -A3 "$OUT/test-matmul_run.log" | head -12
s=$SECONDS; timeout 100 gpu-bin/bench_fp8 streamk > "$OUT/fp8-streamk.log" 2>&1
echo "fp8 streamk rc=$? $((SECONDS-s))s"; grep sweep "$OUT/fp8-streamk.log" | sed 's/cute_hgemm_e4m3_bf16_//; s/ TFLOP\/s//'
