#!/usr/bin/env bash
# run28: the final defaults (tail tiles below 2048 query rows; the bench running every other round
# backwards): bench_attention --d256 --seq16k with `--no-tails` (d = 64 without them), torch SDPA (cuDNN,
# FA2) on the same machine, then the attention suite.
set -uo pipefail
BIN=gpu-bin
OUT="${OUT:-/tmp/run28}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-run28
{
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
s=$SECONDS
timeout 240 "$BIN/bench_attention" --d256 --seq16k --no-tails 2> /tmp/bench.err
echo "bench rc=$? $((SECONDS-s))s"; tail -2 /tmp/bench.err
s=$SECONDS
(cd scripts/gpu && timeout 120 python3 torch_attention.py --rounds 5)
echo "torch rc=$? $((SECONDS-s))s"
s=$SECONDS
timeout 200 "$BIN/test-attention_run" --test-threads=8 > /tmp/test-all.log 2>&1
echo "attention suite rc=$? $((SECONDS-s))s: $(grep -E '^test result' /tmp/test-all.log)"; grep -E "FAIL|panicked" /tmp/test-all.log | head -5
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log"
