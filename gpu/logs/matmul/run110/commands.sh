#!/usr/bin/env bash
# run110 (session 12): the second settled attention sweep (session 11's attention-settled the first), the
# FP8 table with stream-K's tile in 2-CTA clusters (settled samples), and the autotuner's settled times of
# every alternative (CUTE_AUTOTUNE_LOG) on the shapes still below cuBLASLt, with the tuned pick against it.
set -uo pipefail
OUT="${OUT:-/tmp/run110}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1
OUT="$OUT" CUTE_CACHE_DIR=/tmp/cute-cache-attn bash gpu/logs/attention-settled/commands.sh
export CUTE_CACHE_DIR=/tmp/cute-cache-run110
s=$SECONDS; timeout 170 gpu-bin/bench_fp8 bench > "$OUT/bench_fp8.log" 2>&1
echo "bench_fp8 rc=$? $((SECONDS-s))s"; grep -E "^\| [0-9]" "$OUT/bench_fp8.log" | tail -5 | cut -d'|' -f2-10
for shape in 32,1024,1024,1024 1,4096,4096,4096 1,1024,8192,8192 1,2048,2048,2048; do
  s=$SECONDS; CUTE_AUTOTUNE_LOG=1 timeout 100 gpu-bin/bench_matmul --tuned --shape $shape > "$OUT/tuned-${shape//,/x}.log" 2>&1
  echo "tuned $shape rc=$? $((SECONDS-s))s"; grep -E "cute autotune|^\| bf16" "$OUT/tuned-${shape//,/x}.log" | sed 's/ (8 algos)//' | cut -c1-160
done
