#!/usr/bin/env bash
# run128 (session 14): with the ping-pong turn passed at the last commit (run127), the autotuner's settled
# times on mid-K shapes (17-64 k-blocks: does 128x128 ping-pong now beat the cooperative 128x256 there?),
# and the FP8 table (its ping-pong tiles take the same turn).
set -uo pipefail
OUT="${OUT:-/tmp/run128}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run128
for shape in 1,2048,2048,2048 1,4096,4096,2048 1,8192,8192,2048 1,4096,8192,1536 1,4096,4096,4096; do
  s=$SECONDS; log="/tmp/tuned-${shape//,/x}.log"
  CUTE_AUTOTUNE_LOG=1 timeout 100 gpu-bin/bench_matmul --tuned --shape $shape > "$log" 2>&1
  echo "tuned $shape rc=$? $((SECONDS-s))s"; grep -E "cute autotune|^\| bf16" "$log" | grep -E "c2pp|c2_s4|^\|" | sed 's/ (8 algos)//; s/cute_hgemm_bf16_bf16_//; s/cute autotune //' | cut -c1-150
done
s=$SECONDS; timeout 170 gpu-bin/bench_fp8 bench > "$OUT/bench_fp8.log" 2>&1
echo "bench_fp8 rc=$? $((SECONDS-s))s"; grep -E "^\| [0-9]" "$OUT/bench_fp8.log" | tail -5 | cut -d'|' -f2-10
