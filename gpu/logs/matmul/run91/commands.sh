#!/usr/bin/env bash
# run91 (session 9, H200): the GEMM and FP8 tables with samples of tens of milliseconds (bench_matmul
# 20 TFLOP per sample, bench_fp8 40; run 90 showed 2-TFLOP samples measuring clock transients), two
# bench_matmul processes; bench_fp8 at its old 4 TFLOP for comparison.
set -uo pipefail
OUT="${OUT:-/tmp/run91}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run91
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
for i in 1 2; do
  s=$SECONDS
  timeout 280 gpu-bin/bench_matmul > "$OUT/bench_matmul-$i.log" 2>&1
  echo "bench_matmul $i rc=$? $((SECONDS-s))s"
done
for f in 40 4; do
  s=$SECONDS
  timeout 150 gpu-bin/bench_fp8 bench --sample-tflop $f > "$OUT/bench_fp8-$f.log" 2>&1
  echo "bench_fp8 $f rc=$? $((SECONDS-s))s"
done
cat "$OUT/gpu.txt"
paste -d'|' <(grep -E "^\| (bf16|f16)" "$OUT/bench_matmul-1.log" | cut -d'|' -f2,3,6,8) <(grep -E "^\| (bf16|f16)" "$OUT/bench_matmul-2.log" | cut -d'|' -f3,6,8)
grep "host cost" "$OUT/bench_matmul-1.log"
for f in 40 4; do echo "fp8 $f"; grep -E "^\|" "$OUT/bench_fp8-$f.log" | head -12; done
