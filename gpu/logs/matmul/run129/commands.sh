#!/usr/bin/env bash
# run129 (session 14): the plan weighs the 128x128 ping-pong tile up to 32 k-blocks for 16-bit inputs
# (2048³ now takes it): the call's GPU tests, then the GEMM table (ours and cuBLASLt interleaved in
# rounds in one process, medians, uniform [-1,1) data). run130 repeats the tables.
set -uo pipefail
OUT="${OUT:-/tmp/run129}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run129
if [ -z "${TABLES_ONLY:-}" ]; then
  s=$SECONDS; timeout 150 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
  echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
  grep -E "FAILED|panicked" -A3 "$OUT/test-matmul_run.log" | head -12
fi
s=$SECONDS; timeout 230 gpu-bin/bench_matmul > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f2-8 | sed 's/ (8 algos)//'
if [ -n "${TABLES_ONLY:-}" ]; then
  s=$SECONDS; timeout 170 gpu-bin/bench_fp8 bench > "$OUT/bench_fp8.log" 2>&1
  echo "bench_fp8 rc=$? $((SECONDS-s))s"; grep -E "^\| [0-9]" "$OUT/bench_fp8.log" | tail -5 | cut -d'|' -f2-10
fi
