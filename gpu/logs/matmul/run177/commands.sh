#!/usr/bin/env bash
# run177 (session 20): the plan's 128x128 tile with two consumers and the TMA-store epilogue (run176:
# +5 % at 256x8192x8192): the GPU call tests (16-bit and FP8), `bench_hopper check small` (every config,
# the new one included, against the CPU reference), `bench_hopper shortm` again, and the GEMM table
# (`bench_matmul`, which now plans 256x2048x32768's split-K slices on it).
set -uo pipefail
OUT="${OUT:-/tmp/run177}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run177
s=$SECONDS; timeout 150 gpu-bin/test-matmul_run --test-threads=4 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log" | tail -1)"
s=$SECONDS; timeout 100 gpu-bin/test-fp8_run > "$OUT/test-fp8_run.log" 2>&1
echo "test-fp8_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-fp8_run.log" | tail -1)"
s=$SECONDS; timeout 150 gpu-bin/bench_hopper check small > "$OUT/check.log" 2>&1
echo "check small rc=$? $((SECONDS-s))s: $(grep -c ' OK\| ok' "$OUT/check.log") ok, $(grep -ci 'fail' "$OUT/check.log") fail"; tail -2 "$OUT/check.log"
s=$SECONDS; timeout 60 gpu-bin/bench_hopper shortm > "$OUT/shortm.log" 2>&1
echo "shortm rc=$? $((SECONDS-s))s"; cat "$OUT/shortm.log"
s=$SECONDS; timeout 240 gpu-bin/bench_matmul > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\|" "$OUT/bench_matmul.log" | cut -c1-200 | head -40
