#!/usr/bin/env bash
# run27: run26 again on whatever machine comes: the defaults (bench_attention --d256 --seq16k, with
# `--no-tails`: d = 64 without the tail tiles), torch SDPA (cuDNN, FA2) on the same
# machine.
set -uo pipefail
BIN=gpu-bin
OUT="${OUT:-/tmp/run27}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-run27
{
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
s=$SECONDS
timeout 240 "$BIN/bench_attention" --d256 --seq16k --no-tails 2> /tmp/bench.err
echo "bench rc=$? $((SECONDS-s))s"; tail -2 /tmp/bench.err
s=$SECONDS
(cd scripts/gpu && timeout 120 python3 torch_attention.py --rounds 5)
echo "torch rc=$? $((SECONDS-s))s"
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log"
