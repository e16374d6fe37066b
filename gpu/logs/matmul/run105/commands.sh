#!/usr/bin/env bash
# run105 (session 11): (1) ncu at bf16 4096³ (ours 0.91 of cuBLASLt settled, 8192³ 1.00): every kernel's
# third launch, speed of light, compute and memory workload, warp states (base clocks, ncu's default);
# (2) the second settled GEMM table (two-run rule) and (3) the second settled FP8 table.
set -uo pipefail
OUT="${OUT:-/tmp/run105}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run105
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
s=$SECONDS
timeout 200 ncu --kernel-id ::regex:.:3 --section SpeedOfLight --section ComputeWorkloadAnalysis \
  --section MemoryWorkloadAnalysis --section LaunchStats --section WarpStateStats \
  gpu-bin/bench_matmul --shape 1,4096,4096,4096 --sample-tflop 1 > "$OUT/ncu-4096.log" 2>&1
echo "ncu rc=$? $((SECONDS-s))s"
grep -E "^  [a-zA-Z_0-9]+.*\(|Duration|SM Frequency|Compute \(SM\) Throughput|L2 Cache Throughput|DRAM Throughput|L2 Hit Rate|Registers Per|Grid Size|Executed Ipc A|Issue Slots Busy" "$OUT/ncu-4096.log" | sed 's/  */ /g' | head -150
s=$SECONDS; timeout 270 gpu-bin/bench_matmul > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f2-8 | sed 's/ (8 algos)//'
