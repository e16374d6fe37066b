#!/usr/bin/env bash
# run147 (session 17): ncu sections (speed of light, compute and memory workload, warp states, scheduler)
# of our clustered 128x256 and clustered ping-pong 128x128 at 4096³ (from `bench_hopper wavefill`) and of
# cuBLASLt's ping-pong nvjet 128x128 and 112x128 (from `bench_matmul --shape 1,4096,4096,4096`).
set -uo pipefail
OUT="${OUT:-/tmp/run147}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run147
sections="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section LaunchStats"
s=$SECONDS
timeout 250 ncu --kernel-id '::regex:cute_hgemm_bf16_bf16_128x(256x64_c2_s4|128x64_c2pp_s6)_g8_p_ts_cl2:3' $sections \
  gpu-bin/bench_hopper wavefill > "$OUT/ncu-ours.log" 2>&1
echo "ours rc=$? $((SECONDS-s))s"; s=$SECONDS
timeout 200 ncu --kernel-id '::regex:nvjet_sm90_tst_(128x128_64x6|112x128_64x7):3' $sections \
  gpu-bin/bench_matmul --shape 1,4096,4096,4096 --sample-tflop 1 > "$OUT/ncu-nvjet.log" 2>&1
echo "nvjet rc=$? $((SECONDS-s))s"
grep -c "Section:" "$OUT"/ncu-*.log
