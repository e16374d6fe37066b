#!/usr/bin/env bash
# run151 (session 17): the FP8 table (`bench_fp8 bench`) with the ping-pong 128x192 in `chain_k` (per-tensor
# 8192³ and 8192x14336x4096 take it).
set -uo pipefail
OUT="${OUT:-/tmp/run151}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run151
s=$SECONDS; timeout 170 gpu-bin/bench_fp8 bench > "$OUT/bench_fp8.log" 2>&1
echo "bench_fp8 rc=$? $((SECONDS-s))s"; grep -E "^\| [0-9]" "$OUT/bench_fp8.log" | tail -5 | cut -d'|' -f2-10
