#!/usr/bin/env bash
# run93 (session 9, H200): the GEMM table with the narrow-side kernel, samples of 20 TFLOP, two
# processes; the tuner's times at 2048^3; torch.matmul for the record.
set -uo pipefail
OUT="${OUT:-/tmp/run93}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run93
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
for i in 1 2; do
  s=$SECONDS
  timeout 280 gpu-bin/bench_matmul > "$OUT/bench_matmul-$i.log" 2>&1
  echo "bench_matmul $i rc=$? $((SECONDS-s))s"
done
CUTE_AUTOTUNE_LOG=1 timeout 60 gpu-bin/bench_matmul --tuned --shape 1,2048,2048,2048 > "$OUT/tuned-2048.log" 2>&1
(cd scripts/gpu && timeout 120 python3 torch_matmul.py) > "$OUT/torch_matmul.log" 2>&1
cat "$OUT/gpu.txt"
paste -d'|' <(grep -E "^\| (bf16|f16)" "$OUT/bench_matmul-1.log" | cut -d'|' -f2,3,6,8) <(grep -E "^\| (bf16|f16)" "$OUT/bench_matmul-2.log" | cut -d'|' -f3,6,8)
grep "host cost" "$OUT/bench_matmul-1.log" "$OUT/bench_matmul-2.log"
grep -E "autotune|^\| bf16" "$OUT/tuned-2048.log"
cat "$OUT/torch_matmul.log" | tail -25
