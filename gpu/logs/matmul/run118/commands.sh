#!/usr/bin/env bash
# run118 (session 13): per-warp TMA-store epilogue boxes (16 rows, lane 0 stores, no warp-group barrier;
# run117's ncu source view: cuBLASLt's consumers store per warp, ours spent ~9 % of their samples in the
# epilogue behind two bar.sync per box). ncu cycles against run117 (batch 32 x 1024³: coop 171,445, ping-pong
# 128x128 156,051; cuBLASLt 161,344 / 143,271), correctness, sanitizers.
set -uo pipefail
OUT="${OUT:-/tmp/run118}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run118
for shape in 32,1024,1024,1024 1,16384,8192,1024 1,4096,4096,4096; do
  s=$SECONDS; log="$OUT/ncu-${shape//,/x}.log"
  timeout 200 ncu --kernel-id '::regex:(cute_hgemm|nvjet_sm90_tst_128x128|nvjet_sm90_tst_128x256):3' \
    --section SpeedOfLight \
    gpu-bin/bench_matmul --tuned --shape $shape --sample-tflop 1 > "$log" 2>&1
  echo "ncu $shape rc=$? $((SECONDS-s))s"
  grep -E "^  [a-zA-Z_0-9]+.*\(|Elapsed Cycles" "$log" | sed 's/  */ /g; s/, Context.*//' | paste - - | sed 's/ (132, 1, 1)x(384, 1, 1)//; s/Elapsed Cycles cycle//'
done
s=$SECONDS; timeout 150 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
grep -E "FAILED|panicked" -A3 "$OUT/test-matmul_run.log" | head -12
s=$SECONDS; timeout 100 gpu-bin/bench_hopper check small > "$OUT/check-small.log" 2>&1
echo "check small rc=$? $((SECONDS-s))s: $(tail -1 "$OUT/check-small.log") ($(grep -c c2pp "$OUT/check-small.log") ping-pong checks)"; grep -E "FAIL|wrong \(" "$OUT/check-small.log" | grep -v " 0 wrong" | head -5
s=$SECONDS; timeout 60 gpu-bin/bench_fp8 check small > "$OUT/fp8-check-small.log" 2>&1
echo "fp8 check small rc=$? $((SECONDS-s))s: $(tail -1 "$OUT/fp8-check-small.log")"
s=$SECONDS; timeout 80 compute-sanitizer --tool racecheck --error-exitcode 9 gpu-bin/bench_hopper check tiny > "$OUT/san-racecheck-tiny.log" 2>&1
echo "racecheck tiny rc=$? $((SECONDS-s))s: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/san-racecheck-tiny.log" | tail -1) $(grep -E 'check:' "$OUT/san-racecheck-tiny.log" | tail -1)"
s=$SECONDS; timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 gpu-bin/test-matmul_run --test-threads=1 strided_batches > "$OUT/san-memcheck-batch.log" 2>&1
echo "memcheck batch rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-batch.log" | tail -1) $(grep -E '^test result' "$OUT/san-memcheck-batch.log")"
