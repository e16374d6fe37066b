#!/usr/bin/env bash
# run106 (session 11): 2-CTA clusters in the heuristic (128x256 over more than one wave) and stream-K
# in clusters (the clusters share the k-blocks). Checks: the call's GPU tests, exactness of every
# configuration (incl. clustered stream-K), memcheck of the stream-K call test, racecheck of the tiny
# checks (65x260x128 cuts a tile between two clusters); then the settled GEMM table.
set -uo pipefail
OUT="${OUT:-/tmp/run106}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run106
s=$SECONDS; timeout 200 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
grep -E "FAILED|panicked" -A3 "$OUT/test-matmul_run.log" | head -12
s=$SECONDS; timeout 150 gpu-bin/bench_hopper check small > "$OUT/check-small.log" 2>&1
echo "check small rc=$? $((SECONDS-s))s: $(tail -1 "$OUT/check-small.log") ($(grep -c _cl2_sk "$OUT/check-small.log") clustered stream-K checks)"; grep -E "FAIL|padding" "$OUT/check-small.log" | head -5
s=$SECONDS; timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 gpu-bin/test-matmul_run --test-threads=1 stream_k > "$OUT/san-memcheck-stream_k.log" 2>&1
echo "memcheck stream_k rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-stream_k.log" | tail -1) $(grep -E '^test result' "$OUT/san-memcheck-stream_k.log")"
s=$SECONDS; timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 gpu-bin/bench_hopper check tiny > "$OUT/san-racecheck-tiny.log" 2>&1
echo "racecheck tiny rc=$? $((SECONDS-s))s: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/san-racecheck-tiny.log" | tail -1) $(grep -E 'check:' "$OUT/san-racecheck-tiny.log" | tail -1)"
s=$SECONDS; timeout 230 gpu-bin/bench_matmul > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f2-8 | sed 's/ (8 algos)//'
