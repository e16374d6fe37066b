#!/usr/bin/env bash
# run120 / run121 (session 13): the GEMM and FP8 tables with the per-warp stmatrix TMA-store epilogue
# (ours and cuBLASLt interleaved in rounds in one process, medians, uniform [-1,1) data).
set -uo pipefail
OUT="${OUT:-/tmp/run120}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run120
s=$SECONDS; timeout 230 gpu-bin/bench_matmul > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f2-8 | sed 's/ (8 algos)//'
s=$SECONDS; timeout 170 gpu-bin/bench_fp8 bench > "$OUT/bench_fp8.log" 2>&1
echo "bench_fp8 rc=$? $((SECONDS-s))s"; grep -E "^\| [0-9]" "$OUT/bench_fp8.log" | tail -5 | cut -d'|' -f2-10
