#!/usr/bin/env bash
# run 1: mma.sync config sweep vs cuBLASLt (4096^3, 8192^3, bf16/f16), then ncu on two configs at 4096^3 bf16
set -uo pipefail
B=gpu-bin-mma
export PATH="$PATH:/usr/local/cuda/bin"
chmod +x $B/bench_matmul
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > "$OUT/run1-gpu.txt" 2>&1
CFGS="128,256,32,2,4,4,1,8 128,128,64,2,2,3,2,8 128,128,64,2,2,3,2,4 128,128,64,2,2,3,2,16 128,128,64,2,2,3,2,8,0 128,128,32,2,2,4,2,8 128,128,32,2,2,6,2,8 128,256,64,2,4,3,1,8 256,128,64,4,2,3,1,8 128,256,64,2,4,4,1,8 128,256,32,2,4,6,1,8 256,128,32,4,2,4,1,8 128,256,32,2,4,4,1,4"
timeout 150 $B/bench_matmul --sweep --rounds 5 $CFGS > "$OUT/run1-sweep.log" 2>&1
echo "sweep rc=$? at ${SECONDS}s"; cat "$OUT/run1-sweep.log"
timeout 70 ncu --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis -k regex:cute_gemm $B/bench_matmul --sweep --once 128,256,32,2,4,4,1,8 128,128,64,2,2,3,2,8 > "$OUT/run1-ncu.log" 2>&1
echo "ncu rc=$? at ${SECONDS}s"; grep -E "cute_gemm|Throughput|Eligible|Issued Warp|No Eligible|Warp Cycles|Registers|Achieved Occupancy|Theoretical Occ|SM Frequency|Duration|Stall" "$OUT/run1-ncu.log" | head -80
