#!/usr/bin/env bash
# final8 (2026-11-27): the GEMM benchmark with every other round in the reverse order (ours used to be timed
# first in every round): bench_matmul, all shapes, bf16 and f16, then the host cost.
set -uo pipefail
BIN=gpu-bin
OUT="${OUT:-/tmp/final8}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-final8
{
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
s=$SECONDS
timeout 420 "$BIN/bench_matmul"
echo "bench_matmul rc=$? $((SECONDS-s))s"
} > "$OUT/bench_matmul.log" 2>&1
cat "$OUT/bench_matmul.log"
