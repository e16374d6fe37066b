#!/usr/bin/env bash
# run127 (session 14): the ping-pong turn passed when the last k-block's wgmmas are committed (before the
# previous k-block's wait; run126's CUTE_EXP_TURN=0). ncu cycles of the ping-pong tiles, correctness,
# racecheck, then the GEMM table (ours and cuBLASLt interleaved in rounds, medians, uniform [-1,1) data).
set -uo pipefail
OUT="${OUT:-/tmp/run127}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run127
for shape in 32,1024,1024,1024 1,16384,8192,1024 1,8192,14336,4096; do
  s=$SECONDS; log="/tmp/ncu-${shape//,/x}.log"
  timeout 200 ncu --kernel-id '::regex:(c2pp|128x256x64_c2_s4_g8_p_ts_batch|nvjet_sm90_tst_128x128|nvjet_sm90_tst_128x256):3' \
    --section SpeedOfLight gpu-bin/bench_matmul --tuned --shape $shape --sample-tflop 1 > "$log" 2>&1
  echo "ncu $shape rc=$? $((SECONDS-s))s"
  grep -E "^  [a-zA-Z_0-9]+.*\(|Elapsed Cycles" "$log" | sed 's/  */ /g; s/, Context.*//' | paste - - | sed 's/ (132, 1, 1)x(384, 1, 1)//; s/Elapsed Cycles cycle//; s/cute_hgemm_bf16_bf16_//'
done
s=$SECONDS; timeout 100 gpu-bin/bench_hopper check small > "$OUT/check-small.log" 2>&1
echo "check small rc=$? $((SECONDS-s))s: $(tail -1 "$OUT/check-small.log") ($(grep -c c2pp "$OUT/check-small.log") ping-pong checks)"; grep -E "FAIL|wrong \(" "$OUT/check-small.log" | grep -v " 0 wrong" | head -5
s=$SECONDS; timeout 60 gpu-bin/bench_fp8 check small > "$OUT/fp8-check-small.log" 2>&1
echo "fp8 check small rc=$? $((SECONDS-s))s: $(tail -1 "$OUT/fp8-check-small.log")"
s=$SECONDS; timeout 80 compute-sanitizer --tool racecheck --error-exitcode 9 gpu-bin/bench_hopper check tiny > "$OUT/san-racecheck-tiny.log" 2>&1
echo "racecheck tiny rc=$? $((SECONDS-s))s: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/san-racecheck-tiny.log" | tail -1) $(grep -E 'check:' "$OUT/san-racecheck-tiny.log" | tail -1)"
s=$SECONDS; timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 gpu-bin/test-matmul_run --test-threads=1 strided_batches > "$OUT/san-memcheck-batch.log" 2>&1
echo "memcheck batch rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-batch.log" | tail -1) $(grep -E '^test result' "$OUT/san-memcheck-batch.log")"
s=$SECONDS; timeout 230 gpu-bin/bench_matmul > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f2-8 | sed 's/ (8 algos)//'
