#!/usr/bin/env bash
# run108 (session 11): the second settled stream-K A/B (run 105 the first), now with stream-K in 2-CTA
# clusters beside it (128x256, the plan's kernel for 8192³ and 8192x4096x14336).
set -uo pipefail
OUT="${OUT:-/tmp/run108}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run108
s=$SECONDS; timeout 150 gpu-bin/bench_hopper streamk > "$OUT/streamk.log" 2>&1
echo "streamk rc=$? $((SECONDS-s))s"; grep -vE "^device" "$OUT/streamk.log" | sed 's/cute_hgemm_bf16_bf16_//; s/ TFLOP\/s//g; s/ of cuBLAS; grid 1[0-9]*//'
