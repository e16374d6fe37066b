#!/usr/bin/env bash
# run112 (session 12): ncu on every SM90 alternative the autotuner times for the strided batch 32 x 1024³
# bf16 (now with ping-pong 128x128 in 2-CTA clusters) and on cuBLASLt's 128x128 ping-pong / 128x256
# kernels (run111: cuBLAS's nvjet 128x128_64x6_2x1 took 143k cycles, our cooperative 128x256 171k).
set -uo pipefail
OUT="${OUT:-/tmp/run112}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run112
s=$SECONDS
timeout 400 ncu --kernel-id '::regex:(cute_hgemm|nvjet_sm90_tst_128x128|nvjet_sm90_tst_128x256):3' \
  --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
  --section LaunchStats --section WarpStateStats --section Occupancy \
  gpu-bin/bench_matmul --tuned --shape 32,1024,1024,1024 --sample-tflop 1 > "$OUT/ncu-batch-alts.log" 2>&1
echo "ncu rc=$? $((SECONDS-s))s"
grep -E "^  [a-zA-Z_0-9]+.*\(|SM Frequency|Elapsed Cycles|Compute \(SM\) Throughput|L2 Cache Throughput|Issue Slots Busy|Warp Cycles Per Issued|Registers Per" "$OUT/ncu-batch-alts.log" | sed 's/  */ /g' | head -150
