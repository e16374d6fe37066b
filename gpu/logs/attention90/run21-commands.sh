#!/usr/bin/env bash
# run21: ncu of the default d = 64 kernel at 1k keys (non-causal, 3 consumers, persistent) and of the d = 128
# kernel at 4k keys (non-causal, 176-key tiles): speed of light, warp states, scheduler, pipes, instructions.
set -uo pipefail
BIN=gpu-bin
OUT="${OUT:-/tmp/run21}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-run21
S="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --section InstructionStats --section Occupancy --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,regex:sm__pipe_.*_cycles_active\.avg\.pct_of_peak_sustained_active,regex:sm__inst_executed_pipe_.*\.avg\.pct_of_peak_sustained_active"
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
  for spec in "64 cute_attention90_bf16_d64_192x128_persistent_direct_o" "128 cute_attention90_bf16_d128_128x176"; do
    set -- $spec
    timeout 120 ncu --kernel-name "$2" --launch-skip 1 --launch-count 1 $S "$BIN/bench_attention" --d "$1" --quick 2>&1 | grep -v '^==PROF==' | grep -vE '^\s+(seq|[0-9]+ )' 
    echo "ncu d=$1 rc=$?"
  done
} > "$OUT/ncu.txt" 2>&1
grep -E 'ncu d=|Duration|Issue Slots Busy|No Eligible|Eligible Warps|Warp Cycles Per Issued|Stall|Tensor|XU|Executed Ipc' "$OUT/ncu.txt" | head -60
