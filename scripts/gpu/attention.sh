#!/usr/bin/env bash
# Attention on the GPU machine (binaries from scripts/gpu/build.sh in gpu-bin/), logs to $OUT.
# Usage: scripts/gpu/attention.sh [tests] [sanitize] [bench] [torch] [ncu] [quick]   (default: tests sanitize bench torch)
#   tests:    test-attention_run (every case against the f64 reference, with the bound stated in the file; on
#             an H100 both the Hopper kernel, in each schedule, and the mma.sync one)
#   sanitize: memcheck on the varlen, Sq != Sk and Hopper-tile cases (both kernels, every schedule), the dynamic
#             tile scheduler and the tail tiles, racecheck on the varlen case, the small cases of every Hopper
#             schedule, the dynamic scheduler, a default causal test and the tail tiles (CUTE_ATTN_SHORT: the tests
#             that honor it run their short subsets); MEMCHECK="test ...", RACECHECK="test ..." choose other tests
#   bench:    bench_attention (ours on the issue's sweep, d 64/128/256, seq 1k/4k/16k, the Hopper kernel's
#             schedules and the mma.sync kernel; BENCH_ARGS: more options, e.g. "--sm90-block-n 256:80"); quick: one round
#   ncu:      limiter evidence for the Hopper kernels of d = 256 and d = 128, seq 4k, non-causal (--quick --d256
#             order: 1k, 1k causal, then 4k: 5 launches a row, the first 4k launch profiled); NCU_D="256" narrows it
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
      for t in ${MEMCHECK:-varlen_packed_sequences varlen_lengths_and_heads different_lengths_bhsd_d128 sm90_block_n_tiles sm90_tuning_dynamic sm90_tail_tiles}; do
        CUTE_ATTN_SHORT=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/test-attention_run" --test-threads=1 --exact attention_run::$t > "$OUT/san-memcheck-$t.log" 2>&1
        note "memcheck $t" $? "$(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-$t.log" | tail -1)"
      done
      for t in ${RACECHECK:-varlen_packed_sequences schedules_small sm90_tuning_dynamic different_lengths_bhsd_d128 sm90_tail_tiles}; do
        CUTE_ATTN_SHORT=1 timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 "$BIN/test-attention_run" --test-threads=1 --exact attention_run::$t > "$OUT/san-racecheck-$t.log" 2>&1
        note "racecheck $t" $? "$(grep -E 'RACECHECK SUMMARY' "$OUT/san-racecheck-$t.log" | tail -1)"
      done ;;
    bench)
      timeout 200 "$BIN/bench_attention" $quick --d256 --seq16k --schedules --sm80 ${BENCH_ARGS:-} > "$OUT/bench_attention.log" 2>&1
      note "bench_attention" $? ""; cat "$OUT/bench_attention.log" ;;
    torch)
      timeout 200 python3 scripts/gpu/torch_attention.py $quick > "$OUT/torch_attention.log" 2>&1
      note "torch_attention" $? ""; cat "$OUT/torch_attention.log" | tail -20 ;;
    ncu)
      for d in ${NCU_D:-256 128}; do
        bn=$([ "$d" = 256 ] && echo 64 || echo 128)
        timeout 120 ncu --kernel-name regex:"cute_attention90_bf16_d${d}_128x${bn}\$" --launch-skip 5 --launch-count 1 \
            --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
            --section Occupancy --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
            "$BIN/bench_attention" --quick --d256 > "$OUT/ncu-d$d.log" 2>&1
        note "ncu d$d" $? ""; grep -E 'Throughput|Pipe|Stall|Issued|Eligible|Occupancy|Warp Cycles|Bank|SM Busy|Registers|One or More|No Eligible|Shared' "$OUT/ncu-d$d.log" | head -40
      done ;;
  esac
done
exit $status
