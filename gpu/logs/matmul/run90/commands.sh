#!/usr/bin/env bash
# run90 (session 9, H200): (1) ncu of the decode-like 16x8192x8192 bf16 GEMM: ours and cuBLAS's kernels
# (the third call of each kernel name), speed of light, launch and memory sections; (2) does the sample
# length move ours/cuBLASLt? bench_matmul --shape at 2 TFLOP per sample (the default) and 20, two shapes.
set -uo pipefail
OUT="${OUT:-/tmp/run90}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run90
t=$SECONDS
timeout 240 ncu --kernel-id ::regex:.:3 --section SpeedOfLight --section LaunchStats --section MemoryWorkloadAnalysis \
  gpu-bin/bench_matmul --shape 1,16,8192,8192 > "$OUT/ncu-decode.log" 2>&1
echo "ncu rc=$? $((SECONDS-t))s"
grep -E "^  [a-zA-Z_0-9]+.*\(|Duration|DRAM Throughput|Memory Throughput|Grid Size|Block Size|Registers Per|Shared Memory Config|L2 Hit|Waves Per|Dynamic Shared" "$OUT/ncu-decode.log" | head -120
for s in 1,16384,8192,1024 1,8192,8192,8192; do
  for f in 2 20 2 20; do
    timeout 120 gpu-bin/bench_matmul --shape $s --sample-tflop $f 2>&1 | grep "^| bf16" | sed "s/^/sample $f TFLOP: /" >> "$OUT/sample-length.log"
  done
done
cut -d'|' -f1-8 "$OUT/sample-length.log"
