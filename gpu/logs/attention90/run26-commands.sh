#!/usr/bin/env bash
# run26: the defaults as a whole after the tail tiles (bench_attention --d256 --seq16k, with
# `--c3-tails`: d = 64 with 3 consumers, persistent, tail tiles also where the plan takes 2 consumers or
# one CTA per tile), then torch SDPA (cuDNN, FA2) on the same machine, then the whole attention suite.
set -uo pipefail
BIN=gpu-bin
OUT="${OUT:-/tmp/run26}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-run26
{
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
s=$SECONDS
timeout 240 "$BIN/bench_attention" --d256 --seq16k --c3-tails 2> /tmp/bench.err
echo "bench rc=$? $((SECONDS-s))s"; tail -2 /tmp/bench.err
s=$SECONDS
(cd scripts/gpu && timeout 120 python3 torch_attention.py --rounds 5)
echo "torch rc=$? $((SECONDS-s))s"
s=$SECONDS
timeout 200 "$BIN/test-attention_run" --test-threads=8 > /tmp/test-all.log 2>&1
echo "attention suite rc=$? $((SECONDS-s))s: $(grep -E '^test result' /tmp/test-all.log)"; grep -E "FAIL|panicked" /tmp/test-all.log | head -5
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log"
