#!/usr/bin/env bash
# run51 (session 4): the binary of run49 in a second call: attention.sh tests, the sweep with --per-tile, d = 64
# against --direct-o, torch SDPA (STEPS=tests).
set -uo pipefail
export OUT="${OUT:-/tmp/run51}" CUTE_CACHE_DIR=${CUTE_CACHE_DIR:-/tmp/cute-cache-run51}; mkdir -p "$OUT"
s=$SECONDS
bash scripts/gpu/attention.sh ${STEPS:-tests sanitize} > "$OUT/checks.log" 2>&1
echo "checks rc=$? $((SECONDS-s))s"; cat "$OUT/checks.log"
{
s=$SECONDS
timeout 200 gpu-bin/bench_attention --d256 --seq16k --per-tile 2> "$OUT/bench.err"
echo "bench rc=$? $((SECONDS-s))s"
timeout 200 gpu-bin/bench_attention --d 64 --direct-o 2> "$OUT/bench-direct-o.err"
echo "bench direct-o rc=$?"
s=$SECONDS
(cd scripts/gpu && timeout 120 python3 torch_attention.py --rounds 5)
echo "torch rc=$? $((SECONDS-s))s"
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log"
