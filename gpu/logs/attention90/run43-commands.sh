#!/usr/bin/env bash
# run43: d = 256 short rows: O from the registers (--direct-o) so that a persistent CTA's next Q need not
# wait for the O store staged in Q's shared memory (no room for boxes of its own), against the defaults and
# --persistent, one process, 1k and 4k.
set -uo pipefail
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run43
OUT="${OUT:-/tmp/run43}"; mkdir -p "$OUT"
{
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
s=$SECONDS
timeout 300 gpu-bin/bench_attention --d 256 --direct-o --persistent 2> /tmp/bench.err
echo "bench rc=$? $((SECONDS-s))s"; tail -2 /tmp/bench.err
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log"
