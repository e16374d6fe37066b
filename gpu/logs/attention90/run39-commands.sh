#!/usr/bin/env bash
# run39: d = 256 non-causal at 1k keys now one CTA per tile (runs 35-38: persistent 3-4 % slower); the
# alternatives for the short causal rows: bench_attention --d256 --per-tile --persistent --consumers3
# --lpt 0 (3 consumers at d = 64; the dynamic scheduler without the LPT order), 1k and 4k, one process.
set -uo pipefail
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run39
OUT="${OUT:-/tmp/run39}"; mkdir -p "$OUT"
{
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
s=$SECONDS
timeout 300 gpu-bin/bench_attention --d256 --per-tile --persistent --consumers3 --lpt 0 2> /tmp/bench.err
echo "bench rc=$? $((SECONDS-s))s"; tail -2 /tmp/bench.err
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log"
