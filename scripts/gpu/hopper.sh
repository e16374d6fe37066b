#!/usr/bin/env bash
# Hopper GEMM. Build here:  scripts/gpu/hopper.sh build   (release binaries into gpu-bin-hopper/)
# Run on the GPU machine (run tool, carry=["gpu-bin-hopper"]):  scripts/gpu/hopper.sh [sass] [check] [sanitize] [bench] [table] [ncu]
# (sanitize: memcheck on `check small`, racecheck on `check tiny`; table: the GEMM rows of `bench --gemm`)
# Logs go to $OUT. From a copy of the binaries elsewhere: ROOT=. BIN=dir bash dir/hopper.sh ...
set -uo pipefail
cd "${ROOT:-$(dirname "$0")/../..}"
if [ "${1:-}" = build ]; then
  set -e
  mkdir -p gpu-bin-hopper
  cargo build -p cute-gpu --features cuda --release --bin bench_hopper --bin bench
  cp target/release/bench_hopper target/release/bench gpu-bin-hopper/
  exe=$(cargo test -p cute-gpu --features cuda --release --test hopper_compile --no-run --message-format=json 2>/dev/null \
    | python3 -c 'import json,sys
for l in sys.stdin:
  try: m=json.loads(l)
  except ValueError: continue
  if m.get("reason")=="compiler-artifact" and m.get("executable") and m["target"]["name"]=="hopper_compile": print(m["executable"])')
  cp "$exe" gpu-bin-hopper/test-hopper_compile
  ls -la gpu-bin-hopper
  exit 0
fi
OUT="${OUT:-/tmp/cute-hopper-out}"; mkdir -p "$OUT"
BIN="${BIN:-gpu-bin-hopper}"
export PATH="$PATH:/usr/local/cuda/bin"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
status=0
for s in ${*:-sass check bench}; do
  case "$s" in
    sass) timeout 120 "$BIN/test-hopper_compile" --nocapture > "$OUT/sass.log" 2>&1 || status=1
          grep -E 'regs|HGMMA|test result' "$OUT/sass.log" ;;
    check) timeout 240 "$BIN/bench_hopper" check > "$OUT/check.log" 2>&1 || status=1
           grep -E 'FAIL|check:|error|bench_hopper:' "$OUT/check.log"; grep -c OK "$OUT/check.log" ;;
    sanitize) timeout 240 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/bench_hopper" check small > "$OUT/memcheck.log" 2>&1 || status=1
              grep -E 'ERROR SUMMARY|check:' "$OUT/memcheck.log"
              timeout 240 compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 9 "$BIN/bench_hopper" check tiny > "$OUT/racecheck.log" 2>&1 || status=1
              grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|check:' "$OUT/racecheck.log" ;;
    table) timeout 300 "$BIN/bench" --gemm > "$OUT/table.log" 2>&1 || status=1; tail -16 "$OUT/table.log" ;;
    bench) timeout 300 "$BIN/bench_hopper" bench > "$OUT/bench.log" 2>&1 || status=1; tail -12 "$OUT/bench.log" ;;
    ncu) timeout 200 ncu --kernel-name regex:'cute_hgemm' --launch-skip 3 --launch-count 1 \
          --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
          --section Occupancy --section MemoryWorkloadAnalysis "$BIN/bench_hopper" quick > "$OUT/ncu.log" 2>&1
         grep -E 'Throughput|Pipe|Stall|Issued|Eligible|Occupancy|Warp Cycles|Bank|SM Busy|Registers|No Eligible' "$OUT/ncu.log" | head -50 ;;
  esac
done
exit $status
