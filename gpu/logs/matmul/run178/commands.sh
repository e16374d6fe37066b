#!/usr/bin/env bash
# run178 (session 20): the GPU call tests again, one thread as their shared environment needs (run177 ran
# them on 4 and the tuner's table test raced), then the attention sweep with settled samples on this
# session's code (dependent launch; ours, then torch SDPA with cuDNN and flash:
# `gpu/logs/attention-settled/commands.sh`).
set -uo pipefail
OUT="${OUT:-/tmp/run178}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run178
s=$SECONDS; timeout 150 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log" | tail -1)"
OUT="$OUT" CUTE_CACHE_DIR=/tmp/cute-cache-attn bash gpu/logs/attention-settled/commands.sh
