#!/usr/bin/env bash
# run122 (session 13): the autotuner's settled time of every alternative on the shapes still below
# cuBLASLt on both of runs 120/121 (1024x8192x8192, 4096³, 2048³, 16x8192x8192), with the per-warp stmatrix epilogue.
set -uo pipefail
OUT="${OUT:-/tmp/run122}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run122
for shape in 1,1024,8192,8192 1,4096,4096,4096 1,2048,2048,2048 1,16,8192,8192; do
  s=$SECONDS; CUTE_AUTOTUNE_LOG=1 timeout 100 gpu-bin/bench_matmul --tuned --shape $shape > "$OUT/tuned-${shape//,/x}.log" 2>&1
  echo "tuned $shape rc=$? $((SECONDS-s))s"; grep -E "cute autotune|^\| bf16" "$OUT/tuned-${shape//,/x}.log" | sed 's/ (8 algos)//; s/cute_hgemm_bf16_bf16_//' | cut -c1-150
done
