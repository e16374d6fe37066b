#!/usr/bin/env bash
# run175 (session 20): the short-M shapes' tiles (one wave of two tile rows sharing every B tile) alone and
# in 2-CTA clusters that multicast B to the pair: 16-bit 128x8192x8192 (64x128) and 256x8192x8192
# (128x128) against cublasGemmEx (`bench_hopper narrowclusters`), FP8 per-tensor 128x8192x8192
# (`bench_fp8 narrowclusters`).
set -uo pipefail
OUT="${OUT:-/tmp/run175}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run175
s=$SECONDS; timeout 150 gpu-bin/bench_hopper narrowclusters > "$OUT/bench_hopper.log" 2>&1
echo "bench_hopper rc=$? $((SECONDS-s))s"; cat "$OUT/bench_hopper.log"
s=$SECONDS; timeout 150 gpu-bin/bench_fp8 narrowclusters > "$OUT/bench_fp8.log" 2>&1
echo "bench_fp8 rc=$? $((SECONDS-s))s"; cat "$OUT/bench_fp8.log"
