#!/usr/bin/env bash
# run140 (session 16): the attention sweep with settled samples on this session's code (ours, then torch
# SDPA with cuDNN and flash, `gpu/logs/attention-settled/commands.sh`) and the FP8 table (`bench_fp8 bench`).
set -uo pipefail
OUT="${OUT:-/tmp/run140}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1
OUT="$OUT" CUTE_CACHE_DIR=/tmp/cute-cache-attn bash gpu/logs/attention-settled/commands.sh
export CUTE_CACHE_DIR=/tmp/cute-cache-run140
s=$SECONDS; timeout 170 gpu-bin/bench_fp8 bench > "$OUT/bench_fp8.log" 2>&1
echo "bench_fp8 rc=$? $((SECONDS-s))s"; grep -E "^\| [0-9]" "$OUT/bench_fp8.log" | tail -5 | cut -d'|' -f2-10
