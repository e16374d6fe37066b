#!/usr/bin/env bash
# On the GPU machine: split-K summed in the GEMM against the second kernel (`bench_matmul --shape ...
# --split-k-ab`) at the split shapes, then the whole GEMM table; logs under $OUT (ab-*.log,
# bench_matmul.log). Used by gpu/logs/matmul/run156 and run159.
set -uo pipefail
: "${OUT:?OUT must name the log folder}"
for shape in 1,256,2048,32768 1,1024,1024,65536 1,128,1024,16384 1,16,4096,4096 1,64,4096,8192; do
  s=$SECONDS; timeout 40 gpu-bin/bench_matmul --shape $shape --split-k-ab > "$OUT/ab-${shape//,/x}.log" 2>&1
  echo "ab $shape rc=$? $((SECONDS-s))s"; grep -E "^\| bf16|summed" "$OUT/ab-${shape//,/x}.log" | cut -c1-200
done
s=$SECONDS; timeout 200 gpu-bin/bench_matmul > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f2-8 | sed 's/ (8 algos)//'
