#!/usr/bin/env bash
# run105, second call: settled A/Bs (every sample after an untimed one of the same contender) of
# 2-CTA clusters (B multicast) on four tiles, of stream-K; the second settled FP8 table.
set -uo pipefail
OUT="${OUT:-/tmp/run105}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run105
s=$SECONDS; timeout 220 gpu-bin/bench_hopper clusters > "$OUT/clusters.log" 2>&1
echo "clusters rc=$? $((SECONDS-s))s"; grep -vE "^device" "$OUT/clusters.log" | sed 's/cute_hgemm_bf16_bf16_//; s/TFLOP\/s//g'
s=$SECONDS; timeout 150 gpu-bin/bench_hopper streamk > "$OUT/streamk.log" 2>&1
echo "streamk rc=$? $((SECONDS-s))s"; grep -vE "^device" "$OUT/streamk.log" | sed 's/cute_hgemm_bf16_bf16_//; s/TFLOP\/s//g'
s=$SECONDS; timeout 170 gpu-bin/bench_fp8 bench > "$OUT/bench_fp8.log" 2>&1
echo "bench_fp8 rc=$? $((SECONDS-s))s"; grep -E "^\| [0-9]" "$OUT/bench_fp8.log" | tail -5 | cut -d'|' -f2-10
