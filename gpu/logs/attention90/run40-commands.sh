#!/usr/bin/env bash
# run40: the final defaults of 2026-11-27 (session 3): scripts/gpu/attention.sh tests sanitize, then the
# sweep (bench_attention --d256 --seq16k --per-tile) and torch SDPA in the same call. (STEPS: other attention.sh
# steps; CHECKS=0: no attention.sh call; BENCH_FLAGS: other bench_attention flags; RUN: the name of $OUT's default.
# Later runs call this script with them.)
set -uo pipefail
export OUT="${OUT:-/tmp/${RUN:-run40}}" CUTE_CACHE_DIR=${CUTE_CACHE_DIR:-/tmp/cute-cache-${RUN:-run40}}; mkdir -p "$OUT"
if [ "${CHECKS:-1}" = 1 ]; then
s=$SECONDS
bash scripts/gpu/attention.sh ${STEPS:-tests sanitize} > "$OUT/checks.log" 2>&1
echo "checks rc=$? $((SECONDS-s))s"; cat "$OUT/checks.log"
fi
{
s=$SECONDS
timeout 300 gpu-bin/bench_attention ${BENCH_FLAGS:---d256 --seq16k --per-tile} 2> "$OUT/bench.err"
echo "bench rc=$? $((SECONDS-s))s"
s=$SECONDS
(cd scripts/gpu && timeout 120 python3 torch_attention.py --rounds 5)
echo "torch rc=$? $((SECONDS-s))s"
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log"
