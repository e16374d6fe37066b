#!/usr/bin/env bash
# run179 (session 20): `bench_hopper shortm` with more tiles (64x128 with the TMA-store epilogue at
# 128x8192x8192; the two-consumer 128x128 alone and in clusters at 1024x8192x8192), in two processes.
set -uo pipefail
OUT="${OUT:-/tmp/run179}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run179
s=$SECONDS; timeout 100 gpu-bin/bench_hopper shortm > "$OUT/bench_hopper.log" 2>&1; timeout 100 gpu-bin/bench_hopper shortm >> "$OUT/bench_hopper.log" 2>&1
echo "bench_hopper rc=$? $((SECONDS-s))s"; cat "$OUT/bench_hopper.log"
