#!/usr/bin/env bash
# run124 (session 13, review): store_fns packs pairs through arch::convert::PACK (pack_out now calls
# pack_bf16x2 / pack_f16x2 instead of its own cvt): exactness of every checked configuration and the call's tests.
set -uo pipefail
OUT="${OUT:-/tmp/run124}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run124
s=$SECONDS; timeout 100 gpu-bin/bench_hopper check small > "$OUT/check-small.log" 2>&1
echo "check small rc=$? $((SECONDS-s))s: $(tail -1 "$OUT/check-small.log")"; grep -E "FAIL|wrong \(" "$OUT/check-small.log" | grep -v " 0 wrong" | head -5
s=$SECONDS; timeout 60 gpu-bin/bench_fp8 check small > "$OUT/fp8-check-small.log" 2>&1
echo "fp8 check small rc=$? $((SECONDS-s))s: $(tail -1 "$OUT/fp8-check-small.log")"
s=$SECONDS; timeout 100 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
