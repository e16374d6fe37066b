#!/usr/bin/env bash
# run144 (session 16): stream-K that cuts a tile several times (fewer tiles than CTAs: a small output with a
# long K; the CTA with a tile's last k-blocks adds the sums of every CTA before it in the tile). Exactness
# (the GPU test with stream-K forced, `bench_hopper check small`, `bench_fp8 check small`), racecheck and
# memcheck on `check tiny`, then stream-K forced against the planned split-K call on small outputs with
# long K (`bench_matmul --stream-k-ab`), and the plan's stream-K shape 8192x4096x14336 for regressions.
set -uo pipefail
OUT="${OUT:-/tmp/run144}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run144
s=$SECONDS; timeout 90 gpu-bin/test-matmul_run --test-threads=1 stream_k > "$OUT/test-stream_k.log" 2>&1
echo "test stream_k rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-stream_k.log")"; grep -E "panicked|FAILED" "$OUT/test-stream_k.log" | head -5
s=$SECONDS; timeout 100 gpu-bin/bench_hopper check small > "$OUT/check-small.log" 2>&1
echo "check small rc=$? $((SECONDS-s))s: $(tail -1 "$OUT/check-small.log") ($(grep -c _sk "$OUT/check-small.log") stream-K checks)"; grep -E "FAIL|wrong \(" "$OUT/check-small.log" | grep -v " 0 wrong" | head -5
s=$SECONDS; timeout 90 gpu-bin/bench_fp8 check small > "$OUT/fp8-check-small.log" 2>&1
echo "fp8 check small rc=$? $((SECONDS-s))s: $(tail -1 "$OUT/fp8-check-small.log") ($(grep -c _sk "$OUT/fp8-check-small.log") stream-K checks)"; grep -iE "fail" "$OUT/fp8-check-small.log" | head -5
s=$SECONDS; timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 gpu-bin/bench_hopper check tiny > "$OUT/san-racecheck-tiny.log" 2>&1
echo "racecheck tiny rc=$? $((SECONDS-s))s: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/san-racecheck-tiny.log" | tail -1) $(grep -E 'check:' "$OUT/san-racecheck-tiny.log" | tail -1)"
s=$SECONDS; timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 gpu-bin/test-matmul_run --test-threads=1 stream_k > "$OUT/san-memcheck-stream_k.log" 2>&1
echo "memcheck stream_k test rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-stream_k.log" | tail -1) $(grep -E '^test result' "$OUT/san-memcheck-stream_k.log")"
for rep in 1 2; do
  for shape in 1,1024,1024,65536 1,256,2048,32768; do
    log="$OUT/sk-${shape//,/x}-$rep.log"; s=$SECONDS
    timeout 40 gpu-bin/bench_matmul --stream-k-ab --shape $shape > "$log" 2>&1
    echo "$shape rep $rep rc=$? $((SECONDS-s))s"; grep -E "^\|" "$log" | grep -vE "^\| (shape|---)" | cut -d'|' -f1-8 | sed 's/ (8 algos)//'
  done
done
s=$SECONDS; timeout 40 gpu-bin/bench_matmul --shape 1,8192,4096,14336 > "$OUT/shape-8192x4096x14336.log" 2>&1
echo "8192x4096x14336 rc=$? $((SECONDS-s))s: $(grep -E "^\| bf16" "$OUT/shape-8192x4096x14336.log" | cut -d'|' -f2-8 | sed 's/ (8 algos)//')"
