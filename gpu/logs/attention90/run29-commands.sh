#!/usr/bin/env bash
# run29: O through shared memory and TMA for d = 64 (`--tma-o`: the plan stores O from the registers
# there) against the defaults, one process, d = 64 1k and 4k; twice (two processes).
set -uo pipefail
BIN=gpu-bin
OUT="${OUT:-/tmp/run29}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-run29
{
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
for i in 1 2; do
  s=$SECONDS
  timeout 100 "$BIN/bench_attention" --d 64 --tma-o 2> /tmp/bench$i.err
  echo "bench $i rc=$? $((SECONDS-s))s"
done
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log"
