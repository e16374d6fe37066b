#!/usr/bin/env bash
# run48 (session 4): main with the O store's read-wait deferred. attention.sh tests sanitize; the sweep with
# --per-tile (as run40); d = 64 with O through TMA (--tma-o) against the direct stores; torch SDPA.
# O_FLAG: the d = 64 handle compared with the default (--tma-o here; run49 and run51 pass --direct-o).
set -uo pipefail
export OUT="${OUT:-/tmp/run48}" CUTE_CACHE_DIR=${CUTE_CACHE_DIR:-/tmp/cute-cache-run48}; mkdir -p "$OUT"
s=$SECONDS
bash scripts/gpu/attention.sh ${STEPS:-tests sanitize} > "$OUT/checks.log" 2>&1
echo "checks rc=$? $((SECONDS-s))s"; cat "$OUT/checks.log"
{
s=$SECONDS
timeout 200 gpu-bin/bench_attention --d256 --seq16k --per-tile 2> "$OUT/bench.err"
echo "bench rc=$? $((SECONDS-s))s"
O_FLAG="${O_FLAG:---tma-o}"
timeout 200 gpu-bin/bench_attention --d 64 "$O_FLAG" 2> "$OUT/bench${O_FLAG#-}.err"
echo "bench $O_FLAG rc=$?"
s=$SECONDS
(cd scripts/gpu && timeout 120 python3 torch_attention.py --rounds 5)
echo "torch rc=$? $((SECONDS-s))s"
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log"
