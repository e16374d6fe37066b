#!/usr/bin/env bash
# run113 (session 12): the ping-pong hand-off moved before the last k-block's wait (the other consumer's
# wgmmas queue behind this one's): ncu cycles of every alternative on the strided batch 32 x 1024³ (run112
# before: ping-pong 128x128 159,283, clustered 162,514, 128x192 174,328) and at 16384x8192x1024; then the
# tuner's settled times on the K = 1024 shapes and 4096³.
set -uo pipefail
OUT="${OUT:-/tmp/run113}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run113
for shape in 32,1024,1024,1024 1,16384,8192,1024; do
  s=$SECONDS; log="$OUT/ncu-${shape//,/x}.log"
  timeout 200 ncu --kernel-id '::regex:(cute_hgemm|nvjet_sm90_tst_128x128|nvjet_sm90_tst_128x256):3' \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats \
    gpu-bin/bench_matmul --tuned --shape $shape --sample-tflop 1 > "$log" 2>&1
  echo "ncu $shape rc=$? $((SECONDS-s))s"
  grep -E "^  [a-zA-Z_0-9]+.*\(|Elapsed Cycles|SM Active Cycles|Compute \(SM\) Throughput" "$log" | sed 's/  */ /g; s/, Context.*//'
done
export CUTE_CACHE_DIR=/tmp/cute-cache-run113b
for shape in 32,1024,1024,1024 1,16384,8192,1024 1,4096,4096,4096; do
  s=$SECONDS; CUTE_AUTOTUNE_LOG=1 timeout 100 gpu-bin/bench_matmul --tuned --shape $shape > "$OUT/tuned-${shape//,/x}.log" 2>&1
  echo "tuned $shape rc=$? $((SECONDS-s))s"; grep -E "cute autotune|^\| bf16" "$OUT/tuned-${shape//,/x}.log" | sed 's/ (8 algos)//; s/cute_hgemm_bf16_bf16_//' | cut -c1-140
done
