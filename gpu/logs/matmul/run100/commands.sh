#!/usr/bin/env bash
# run100 (session 10): stream-K with 32-bit share arithmetic and the plan's heuristic (idle >= 0.2 of
# a tile); checks, then bench_hopper streamk (128x256 with and without, and ping-pong 128x192), then
# bench_matmul --stream-k-ab on four shapes (the call with whole tiles / with stream-K / the default).
set -uo pipefail
OUT="${OUT:-/tmp/run100}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run100
s=$SECONDS; timeout 240 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
grep -E "FAILED|panicked" -A3 "$OUT/test-matmul_run.log" | head -12
s=$SECONDS; timeout 200 gpu-bin/bench_hopper check small > "$OUT/check-small.log" 2>&1
echo "check small rc=$? $((SECONDS-s))s: $(tail -1 "$OUT/check-small.log") ($(grep -c _sk "$OUT/check-small.log") stream-K checks)"; grep -E "FAIL|padding" "$OUT/check-small.log" | head -5
s=$SECONDS; timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 gpu-bin/test-matmul_run --test-threads=1 stream_k > "$OUT/san-memcheck-stream_k.log" 2>&1
echo "memcheck stream_k rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-stream_k.log" | tail -1) $(grep -E '^test result' "$OUT/san-memcheck-stream_k.log")"
s=$SECONDS; timeout 200 gpu-bin/bench_hopper streamk > "$OUT/streamk.log" 2>&1
echo "streamk rc=$? $((SECONDS-s))s"; grep -v "^device" "$OUT/streamk.log" | sed 's/cute_hgemm_bf16_bf16_//; s/ TFLOP\/s//; s/max rel diff //; s/ of cuBLAS; grid/;/'
for sh in 1,8192,8192,8192 1,8192,4096,14336 1,16,11008,4096 1,32,11008,4096; do
  timeout 100 gpu-bin/bench_matmul --stream-k-ab --shape $sh > "$OUT/ab-$sh.log" 2>&1
  grep -E "^\| bf16|stream-K /" "$OUT/ab-$sh.log" | cut -d'|' -f2-8
done
