#!/usr/bin/env bash
# run111 (session 12): ncu on the strided batch 32 x 1024³ bf16 (ours 0.92-0.95 of cuBLASLt; every tile the
# tuner tries within 1.5 % of each other): our kernels' and cuBLASLt's third launches at base clocks.
set -uo pipefail
OUT="${OUT:-/tmp/run111}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run111
s=$SECONDS
timeout 300 ncu --kernel-id ::regex:.:3 --section SpeedOfLight --section ComputeWorkloadAnalysis \
  --section MemoryWorkloadAnalysis --section LaunchStats --section WarpStateStats \
  gpu-bin/bench_matmul --shape 32,1024,1024,1024 --sample-tflop 1 > "$OUT/ncu-batch.log" 2>&1
echo "ncu rc=$? $((SECONDS-s))s"
grep -E "^  [a-zA-Z_0-9]+.*\(|Duration|SM Frequency|Elapsed Cycles|Compute \(SM\) Throughput|L2 Cache Throughput|DRAM Throughput|Registers Per|Grid Size|Issue Slots Busy|Stall" "$OUT/ncu-batch.log" | sed 's/  */ /g' | head -150
