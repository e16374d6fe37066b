#!/usr/bin/env bash
# run150 (session 17): the ping-pong 128x192 with `chain_k` (each 64-row chunk's K steps back to back) as
# shipped: racecheck and memcheck on `bench_hopper check tiny` (exact results for every checked
# configuration), the GPU call tests, and the GEMM table (first run).
set -uo pipefail
OUT="${OUT:-/tmp/run150}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run150
s=$SECONDS; timeout 110 compute-sanitizer --tool racecheck --error-exitcode 9 gpu-bin/bench_hopper check tiny > "$OUT/san-racecheck-tiny.log" 2>&1
echo "racecheck tiny rc=$? $((SECONDS-s))s: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/san-racecheck-tiny.log" | tail -1) $(grep -E 'check:' "$OUT/san-racecheck-tiny.log" | tail -1) ($(grep -c _ck "$OUT/san-racecheck-tiny.log") ck lines)"
s=$SECONDS; timeout 80 compute-sanitizer --tool memcheck --error-exitcode 9 gpu-bin/bench_hopper check tiny > "$OUT/san-memcheck-tiny.log" 2>&1
echo "memcheck tiny rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-tiny.log" | tail -1) $(grep -E 'check:' "$OUT/san-memcheck-tiny.log" | tail -1)"
s=$SECONDS; timeout 90 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
grep -E "FAILED|panicked" -A3 "$OUT/test-matmul_run.log" | head -12
s=$SECONDS; timeout 190 gpu-bin/bench_matmul > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f2-8 | sed 's/ (8 algos)//'
