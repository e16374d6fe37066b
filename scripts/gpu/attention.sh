#!/usr/bin/env bash
# Attention on the GPU machine (binaries from scripts/gpu/build.sh in gpu-bin/), logs to $OUT.
# Usage: scripts/gpu/attention.sh [tests] [sanitize] [bench] [torch] [ncu] [quick]   (default: tests sanitize bench torch)
#   tests:    test-attention_run (every case against the f64 reference, with the bound stated in the file; on
#             an H100 both the Hopper kernel, in each schedule, and the mma.sync one)
#   sanitize: memcheck on the varlen (mma.sync) and Sq != Sk (both kernels, every schedule) cases, racecheck on
#             the varlen case and on the small cases of every Hopper schedule
#   bench:    bench_attention (ours on the issue's sweep, d 64/128/256, seq 1k/4k/16k, the Hopper kernel's
#             schedules and the mma.sync kernel); quick: one round
#   ncu:      limiter evidence for the d = 128, seq 4k, non-causal kernel (--quick order: 1k, 1k causal, then 4k)
#   torch:    scripts/gpu/torch_attention.py (torch SDPA, cuDNN and flash backends); quick: d 64/128, seq 1k/4k
set -uo pipefail
OUT="${OUT:-/tmp/cute-attention}"; mkdir -p "$OUT"
BIN="${BIN:-gpu-bin}"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin"
steps="${*:-tests sanitize bench torch}"
quick=""; case " $steps " in *" quick "*) quick="--quick" ;; esac
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
status=0
note() { echo "$1 rc=$2: $3"; [ "$2" = 0 ] || status=1; }
for step in $steps; do
  case "$step" in
    tests)
      timeout 200 "$BIN/test-attention_run" --test-threads=8 > "$OUT/test-attention_run.log" 2>&1
      note "test-attention_run" $? "$(grep -E '^test result' "$OUT/test-attention_run.log" | tail -1)" ;;
    sanitize)
      for t in varlen_packed_sequences different_lengths_bhsd_d128; do
        timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/test-attention_run" --test-threads=1 --exact attention_run::$t > "$OUT/san-memcheck-$t.log" 2>&1
        note "memcheck $t" $? "$(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-$t.log" | tail -1)"
      done
      timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 "$BIN/test-attention_run" --test-threads=1 --exact attention_run::varlen_packed_sequences > "$OUT/san-racecheck-varlen.log" 2>&1
      note "racecheck varlen" $? "$(grep -E 'RACECHECK SUMMARY' "$OUT/san-racecheck-varlen.log" | tail -1)"
      timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 "$BIN/test-attention_run" --test-threads=1 --exact attention_run::schedules_small > "$OUT/san-racecheck-schedules.log" 2>&1
      note "racecheck schedules" $? "$(grep -E 'RACECHECK SUMMARY' "$OUT/san-racecheck-schedules.log" | tail -1)" ;;
    bench)
      timeout 200 "$BIN/bench_attention" $quick --d256 --seq16k --schedules --sm80 > "$OUT/bench_attention.log" 2>&1
      note "bench_attention" $? ""; cat "$OUT/bench_attention.log" ;;
    torch)
      timeout 200 python3 scripts/gpu/torch_attention.py $quick > "$OUT/torch_attention.log" 2>&1
      note "torch_attention" $? ""; cat "$OUT/torch_attention.log" | tail -20 ;;
    ncu)
      timeout 200 ncu --kernel-name regex:'cute_attention_bf16_d128' --launch-skip 12 --launch-count 1 \
          --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
          --section Occupancy --section MemoryWorkloadAnalysis "$BIN/bench_attention" --quick > "$OUT/ncu.log" 2>&1
      note "ncu" $? ""; grep -E 'Throughput|Pipe|Stall|Issued|Eligible|Occupancy|Warp Cycles|Bank|SM Busy|Registers|One or More|No Eligible' "$OUT/ncu.log" | head -60 ;;
  esac
done
exit $status
