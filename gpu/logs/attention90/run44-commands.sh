#!/usr/bin/env bash
# run44: ncu of the row furthest from its target, d = 128 4k non-causal (one CTA per tile, 128 x 176 tiles,
# 0.88-0.90 of cuDNN in runs 40-41): speed of light, compute, warp states, scheduler, occupancy.
set -uo pipefail
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run44 PATH="$PATH:/usr/local/cuda/bin"
OUT="${OUT:-/tmp/run44}"; mkdir -p "$OUT"
timeout 240 ncu --kernel-name regex:"cute_attention90_bf16_d128_128x176$" --launch-skip 2 --launch-count 1 \
  --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
  --section Occupancy --section LaunchStats gpu-bin/bench_attention --quick --d 128 > "$OUT/ncu.log" 2>&1
echo "ncu rc=$?"
grep -E "Duration|Elapsed Cycles|SM Frequency|Throughput|Pipe|Stall|Issued|Eligible|No Eligible|Active Warps|Warp Cycles|Registers|Grid Size|Waves|Theoretical Occ|Achieved Occ|Executed Ipc|Issue Slots" "$OUT/ncu.log" | head -60
