#!/usr/bin/env bash
# run168 (session 19): the clustered cooperative 128x256 with its second consumer delayed 0 / 512 / 1024 /
# 2048 cycles at each tile's start (`bench_hopper stagger`), interleaved with cublasGemmEx.
set -uo pipefail
OUT="${OUT:-/tmp/run168}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run168
s=$SECONDS; timeout 200 gpu-bin/bench_hopper stagger > "$OUT/stagger.log" 2>&1; echo "stagger rc=$? $((SECONDS-s))s"
grep -vE "^device" "$OUT/stagger.log" | sed 's/cute_hgemm_bf16_bf16_//; s/ TFLOP\/s (/ (/; s/; grid.*//'
