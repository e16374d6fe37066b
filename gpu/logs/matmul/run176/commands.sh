#!/usr/bin/env bash
# run176 (session 20): short-M shapes, the plan's one-consumer tiles against two cooperative consumers on
# the same CTA count (`bench_hopper shortm`), in two processes.
set -uo pipefail
OUT="${OUT:-/tmp/run176}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run176
s=$SECONDS; timeout 150 gpu-bin/bench_hopper shortm > "$OUT/bench_hopper.log" 2>&1; gpu-bin/bench_hopper shortm >> "$OUT/bench_hopper.log" 2>&1
echo "bench_hopper rc=$? $((SECONDS-s))s"; cat "$OUT/bench_hopper.log"
