#!/usr/bin/env bash
# run94 (session 9, H200): does the sample length move ours / cuDNN as it moved ours / cuBLASLt (run 90)?
# bench_attention (the plan's kernels, 18 shapes) and torch SDPA (cuDNN, FA2) with samples of 20 TFLOP
# (the new default), then both with 2 TFLOP (about the old 10 calls). One summary file.
set -uo pipefail
OUT="${OUT:-/tmp/run94}"; mkdir -p "$OUT"; export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run94
{
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
for f in 20 2; do
  s=$SECONDS
  timeout 200 gpu-bin/bench_attention --d256 --seq16k --sample-tflop $f 2> "$OUT/bench_attention-$f.err"
  echo "bench_attention $f rc=$? $((SECONDS-s))s"; s=$SECONDS
  (cd scripts/gpu && timeout 120 python3 torch_attention.py --rounds 5 --sample-tflop $f)
  echo "torch $f rc=$? $((SECONDS-s))s"
done
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log"
