#!/usr/bin/env bash
# run145 (session 16): ncu of the call and cuBLASLt's kernels at 1024x8192x8192 and 4096³ bf16 (the table's
# lowest large shapes alone: 0.94-0.97): cycles, grid and cluster, L2 sectors from the SMs, the L2 request
# coalescer's merged sectors, DRAM bytes, instructions.
set -uo pipefail
OUT="${OUT:-/tmp/run145}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run145
for shape in 1,1024,8192,8192 1,4096,4096,4096; do
  log="$OUT/ncu-${shape//,/x}.log"; s=$SECONDS
  timeout 100 ncu --kernel-id '::regex:(cute_hgemm|nvjet|sm90_xmma|cutlass):3' \
    --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y,lts__t_sectors_srcunit_tex.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,dram__bytes_read.sum,smsp__inst_executed.sum \
    gpu-bin/bench_matmul --shape $shape --sample-tflop 1 > "$log" 2>&1
  echo "ncu $shape rc=$? $((SECONDS-s))s"
  grep -E "^  [a-zA-Z_0-9]+.*\(|gpu__|sm__|launch__|lts__|lrc__|dram__|smsp__" "$log" | sed 's/  */ /g; s/, Context.*//' | head -70
done
