#!/usr/bin/env bash
# run 2: fair sweep (order rotated each round, ~20 ms timings), clocks sampled; bench_matmul --square default order and rotated; ncu of 128x256x64 s4
set -uo pipefail
B=gpu-bin-mma
export PATH="$PATH:/usr/local/cuda/bin"
chmod +x $B/bench_matmul
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 250 > "$OUT/run2-clocks.csv" 2>&1 &
smi=$!
CFGS="128,256,32,2,4,4,1,8 128,128,64,2,2,3,2,8 128,128,64,2,2,3,2,16 128,256,64,2,4,4,1,8 128,256,64,2,4,3,1,8 256,128,32,4,2,4,1,8 256,128,64,4,2,4,1,8 128,256,32,2,4,4,1,4 128,256,64,2,4,4,1,4"
timeout 110 $B/bench_matmul --sweep --ms 20 $CFGS > "$OUT/run2-sweep.log" 2>&1
echo "sweep rc=$? at ${SECONDS}s"; cat "$OUT/run2-sweep.log"
timeout 40 $B/bench_matmul --square > "$OUT/run2-bench-square.log" 2>&1
echo "bench rc=$? at ${SECONDS}s"; cat "$OUT/run2-bench-square.log"
timeout 40 $B/bench_matmul --square --rotate > "$OUT/run2-bench-square-rotate.log" 2>&1
echo "bench rotate rc=$? at ${SECONDS}s"; cat "$OUT/run2-bench-square-rotate.log"
kill $smi
timeout 40 ncu --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis -k regex:cute_gemm $B/bench_matmul --sweep --once 128,256,64,2,4,4,1,8 > "$OUT/run2-ncu.log" 2>&1
echo "ncu rc=$? at ${SECONDS}s"; grep -E "Throughput|Eligible|Warp Cycles|SM Busy|Duration|Hit Rate" "$OUT/run2-ncu.log" | head -30
