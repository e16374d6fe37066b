#!/usr/bin/env bash
# run180 (session 20): the plan's 64x128 tile with the TMA-store epilogue where the output allows it
# (run179: +1.4 % at 128x8192x8192), and FP8 per-tensor's 128x128 stream-K case now on two consumers with
# it: the GPU call tests (16-bit on one thread, FP8), `bench_hopper check small` (every config against
# the CPU reference, the 64x128 with TMA store included), and `bench_fp8 narrowclusters` (FP8
# per-tensor 128x8192x8192 with / without the TMA store / in clusters).
set -uo pipefail
OUT="${OUT:-/tmp/run180}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run180
s=$SECONDS; timeout 150 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log" | tail -1)"
s=$SECONDS; timeout 100 gpu-bin/test-fp8_run --test-threads=1 > "$OUT/test-fp8_run.log" 2>&1
echo "test-fp8_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-fp8_run.log" | tail -1)"
s=$SECONDS; timeout 150 gpu-bin/bench_hopper check small > "$OUT/check.log" 2>&1
echo "check small rc=$? $((SECONDS-s))s: $(grep -c ' OK$' "$OUT/check.log") OK, $(grep -c 'FAIL' "$OUT/check.log") FAIL"; tail -1 "$OUT/check.log"
s=$SECONDS; timeout 60 gpu-bin/bench_fp8 narrowclusters > "$OUT/bench_fp8.log" 2>&1
echo "bench_fp8 rc=$? $((SECONDS-s))s"; cat "$OUT/bench_fp8.log"
# Then, in a second call on the same machine (logs shape-1x128x8192x8192.log, shape-1x256x2048x32768.log):
for s in 1,128,8192,8192 1,256,2048,32768; do timeout 60 gpu-bin/bench_matmul --shape $s > "$OUT/shape-${s//,/x}.log" 2>&1; grep -E "^\| (bf|f)16" "$OUT/shape-${s//,/x}.log" | cut -c1-170; done
