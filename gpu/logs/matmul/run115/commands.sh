#!/usr/bin/env bash
# run115 (session 12): a request for stream-K keeps the cooperative tile (run114's one failure): the call's
# GPU tests; memcheck on the strided batch (ping-pong 128x128 now); the second GEMM table and the FP8 table
# with the ping-pong hand-off.
set -uo pipefail
OUT="${OUT:-/tmp/run115}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run115
s=$SECONDS; timeout 150 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
grep -E "FAILED|panicked" -A3 "$OUT/test-matmul_run.log" | head -12
s=$SECONDS; timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 gpu-bin/test-matmul_run --test-threads=1 strided_batches > "$OUT/san-memcheck-batch.log" 2>&1
echo "memcheck batch rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-batch.log" | tail -1) $(grep -E '^test result' "$OUT/san-memcheck-batch.log")"
s=$SECONDS; timeout 200 gpu-bin/bench_matmul > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f2-8 | sed 's/ (8 algos)//'
s=$SECONDS; timeout 150 gpu-bin/bench_fp8 bench > "$OUT/bench_fp8.log" 2>&1
echo "bench_fp8 rc=$? $((SECONDS-s))s"; grep -E "^\| [0-9]" "$OUT/bench_fp8.log" | tail -5 | cut -d'|' -f2-10
