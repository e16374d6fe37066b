#!/usr/bin/env bash
# run153 (session 17): the narrow (decode) tiles' pipeline depth (`bench_hopper narrowstages`: 8 stages, the
# plan's, and as many as fit), interleaved with cublasGemmEx, one process.
set -uo pipefail
OUT="${OUT:-/tmp/run153}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run153
s=$SECONDS; timeout 150 gpu-bin/bench_hopper narrowstages > "$OUT/narrowstages.log" 2>&1; echo "narrowstages rc=$? $((SECONDS-s))s"
grep -vE "^device" "$OUT/narrowstages.log" | sed 's/cute_hgemm_bf16_bf16_//; s/ TFLOP\/s (/ (/'
