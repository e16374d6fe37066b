#!/usr/bin/env bash
# Whole verification on the GPU machine in one or two calls (binaries from scripts/gpu/build.sh in gpu-bin/,
# plus bench_hopper; an older build's bench in gpu-bin-old/ for the before/after comparison). Logs to $OUT.
# Usage: scripts/gpu/verify.sh [check] [sanitize] [compare] [fp8]   (default: check sanitize)
#   check:    test-run (copy, transpose, SM80 GEMM vs CPU references), test-compile, test-matmul_run (the GEMM
#             call on every path), bench_hopper check (SM90)
#   sanitize: memcheck + racecheck on the SM80 GEMM and the SM90 GEMM (small and tiny problems)
#   compare:  `bench --quick` (copy, transpose, GEMM rows), old and new binaries interleaved, two rounds
#   fp8:      the FP8 call test, bench_fp8 check + error, memcheck and racecheck of `bench_fp8 check small`,
#             then the FP8 benchmark (ours vs cuBLASLt FP8, interleaved rounds)
set -uo pipefail
OUT="${OUT:-/tmp/cute-verify}"; mkdir -p "$OUT"
BIN="${BIN:-gpu-bin}"; OLD="${OLD:-gpu-bin-old}"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
status=0
note() { echo "$1 rc=$2: $3"; [ "$2" = 0 ] || status=1; }
for step in ${*:-check sanitize}; do
  case "$step" in
    check)
      for t in run compile matmul_run; do
        timeout 300 "$BIN/test-$t" --test-threads=1 > "$OUT/test-$t.log" 2>&1
        note "test-$t" $? "$(grep -E '^test result' "$OUT/test-$t.log" | tail -1)"
      done
      timeout 240 "$BIN/bench_hopper" check > "$OUT/hopper-check.log" 2>&1
      note "bench_hopper check" $? "$(grep -c OK "$OUT/hopper-check.log") OK, $(grep -c FAIL "$OUT/hopper-check.log") FAIL" ;;
    sanitize)
      for tool in memcheck racecheck; do
        compute-sanitizer --tool $tool --error-exitcode 9 "$BIN/test-run" --test-threads=1 --exact gpu_run::gemm_128x128x128 > "$OUT/san-$tool-sm80.log" 2>&1
        note "$tool sm80 gemm" $? "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-$tool-sm80.log" | tail -1)"
      done
      for tool in memcheck racecheck; do
        compute-sanitizer --tool $tool --error-exitcode 9 "$BIN/test-matmul_run" --test-threads=1 > "$OUT/san-$tool-matmul.log" 2>&1
        note "$tool matmul (every path)" $? "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-$tool-matmul.log" | tail -1)"
      done
      timeout 240 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/bench_hopper" check small > "$OUT/san-memcheck-sm90.log" 2>&1
      note "memcheck sm90 (check small)" $? "$(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-sm90.log" | tail -1)"
      timeout 240 compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 9 "$BIN/bench_hopper" check tiny > "$OUT/san-racecheck-sm90.log" 2>&1
      note "racecheck sm90 (check tiny)" $? "$(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/san-racecheck-sm90.log" | tail -1)" ;;
    fp8)
      timeout 120 "$BIN/test-fp8_run" --test-threads=1 > "$OUT/test-fp8_run.log" 2>&1
      note "test-fp8_run" $? "$(grep -E '^test result' "$OUT/test-fp8_run.log" | tail -1)"
      timeout 240 "$BIN/bench_fp8" check error > "$OUT/fp8-check.log" 2>&1
      note "bench_fp8 check error" $? "$(grep -c ' OK$' "$OUT/fp8-check.log") OK, $(grep -c FAIL "$OUT/fp8-check.log") FAIL"
      for tool in memcheck racecheck; do
        timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 "$BIN/bench_fp8" check small > "$OUT/san-$tool-fp8.log" 2>&1
        note "$tool fp8 (check small)" $? "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-$tool-fp8.log" | tail -1)"
      done
      timeout 240 "$BIN/bench_fp8" bench > "$OUT/fp8-bench.log" 2>&1
      note "bench_fp8 bench" $? "$(grep -cE '^\| [0-9]' "$OUT/fp8-bench.log") rows" ;;
    compare)
      for r in 1 2; do
        for which in old new; do
          b="$BIN"; [ $which = old ] && b="$OLD"
          timeout 200 "$b/bench" --quick > "$OUT/bench-$which-$r.log" 2>&1
          note "bench $which round $r" $? "$(grep -cE '^\|' "$OUT/bench-$which-$r.log") table rows"
        done
      done ;;
  esac
done
# the device tool brings back at most 8 files: pack the rest (scripts/gpu/pack_out.sh)
bash scripts/gpu/pack_out.sh "$OUT" || status=1
exit $status
