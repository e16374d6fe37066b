#!/usr/bin/env bash
# run53 (session 4): ncu of the d = 64 1k causal kernel (the last row below 0.90 of cuDNN): the default
# (2 consumers, persistent, dynamic tiles, O through TMA), the 3rd launch of `bench_attention --quick --d 64`.
set -uo pipefail
export OUT="${OUT:-/tmp/run53}" CUTE_CACHE_DIR=${CUTE_CACHE_DIR:-/tmp/cute-cache-run53} PATH="$PATH:/usr/local/cuda/bin"; mkdir -p "$OUT"
timeout 300 ncu --kernel-name regex:"cute_attention90_bf16_d64_128x128_causal_persistent_dyn\$" --launch-skip 2 --launch-count 1 \
  --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
  --section Occupancy --section MemoryWorkloadAnalysis --section LaunchStats \
  gpu-bin/bench_attention --quick --d 64 > "$OUT/ncu-d64-1k-causal.log" 2>&1
echo "ncu rc=$?"
grep -E 'Throughput|Pipe|Stall|Issued|Eligible|Active Warps|Warp Cycles|SM Busy|Registers|No Eligible|Duration|Elapsed Cycles|Grid Size|Block Size|Waves' "$OUT/ncu-d64-1k-causal.log" | head -50
