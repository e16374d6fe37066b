#!/usr/bin/env bash
# Runs on the GPU machine (repo root, binaries from scripts/gpu/build.sh in gpu-bin/), logs to $OUT.
# Usage: scripts/gpu/device.sh [tests] [sanitize] [bench] [ncu]   (default: tests sanitize bench)
set -uo pipefail
OUT="${OUT:-/tmp/cute-gpu-out}"; mkdir -p "$OUT"
BIN="${BIN:-gpu-bin}"
export CUTE_REQUIRE_GPU=1
steps="${*:-tests sanitize bench}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
status=0
for s in $steps; do
  case "$s" in
    tests)
      for t in unit compile run; do
        "$BIN/test-$t" --test-threads=1 --nocapture > "$OUT/test-$t.log" 2>&1; rc=$?
        echo "test-$t rc=$rc: $(grep -E '^test result' "$OUT/test-$t.log" | tail -1)"; [ $rc = 0 ] || status=1
      done ;;
    sanitize)
      for tool in memcheck racecheck; do
        for f in copy_1000x1000 transpose_1023x2049 gemm_128x128x128 gemm_1000x1000x1000; do
          compute-sanitizer --tool $tool --error-exitcode 9 "$BIN/test-run" --test-threads=1 --exact gpu_run::$f > "$OUT/san-$tool-$f.log" 2>&1; rc=$?
          echo "$tool $f rc=$rc: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-$tool-$f.log" | tail -1)"; [ $rc = 0 ] || status=1
        done
      done
      compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/test-run" --test-threads=1 --exact gpu_run::gemm_4095x4097x1023 > "$OUT/san-memcheck-gemm_4095.log" 2>&1; rc=$?
      echo "memcheck gemm_4095x4097x1023 rc=$rc: $(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-gemm_4095.log" | tail -1)"; [ $rc = 0 ] || status=1 ;;
    bench)
      "$BIN/bench" > "$OUT/bench.log" 2>&1; rc=$?; echo "bench rc=$rc"; tail -20 "$OUT/bench.log"; [ $rc = 0 ] || status=1 ;;
    memcheck4095)
      compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/test-run" --test-threads=1 --exact gpu_run::gemm_4095x4097x1023 > "$OUT/san-memcheck-gemm_4095.log" 2>&1; rc=$?
      echo "memcheck gemm_4095x4097x1023 rc=$rc: $(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-gemm_4095.log" | tail -1)"; [ $rc = 0 ] || status=1 ;;
    ncu)
      # limiter evidence for the 128x256x32 4-stage GEMM at 8192^3 f16 (one launch after warm-up)
      ncu --kernel-name regex:'cute_gemm' --launch-skip 3 --launch-count 1 \
          --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
          --section Occupancy --section MemoryWorkloadAnalysis "$BIN/bench" --quick > "$OUT/ncu.log" 2>&1; rc=$?
      echo "ncu rc=$rc"; grep -E 'Throughput|Pipe|Stall|Issued|Eligible|Occupancy|Warp Cycles|Bank|SM Busy|Registers|One or More|No Eligible' "$OUT/ncu.log" | head -60 ;;
    quickbench)
      "$BIN/bench" --quick > "$OUT/bench.log" 2>&1; rc=$?; echo "bench rc=$rc"; tail -20 "$OUT/bench.log"; [ $rc = 0 ] || status=1 ;;
  esac
done
# the device tool brings back at most 8 files: pack the rest (scripts/gpu/pack_out.sh)
bash scripts/gpu/pack_out.sh "$OUT" || status=1
exit $status
