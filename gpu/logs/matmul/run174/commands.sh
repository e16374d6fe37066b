#!/usr/bin/env bash
# run174 (session 20): attention with / without programmatic dependent launch again, with an A/A control
# (a second default handle) and 10 rounds, on the whole sweep (`bench_attention --d256 --seq16k
# --serialized --control --rounds 10`, one process).
set -uo pipefail
OUT="${OUT:-/tmp/run174}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run174
s=$SECONDS; timeout 400 gpu-bin/bench_attention --d256 --seq16k --serialized --control --rounds 10 > "$OUT/bench_attention.log" 2> "$OUT/bench_attention.err"
echo "bench_attention rc=$? $((SECONDS-s))s"; cat "$OUT/bench_attention.log"
