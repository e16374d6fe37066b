#!/usr/bin/env bash
# run102 (session 10): the GEMM table with stream-K in the plan (bench_matmul, 20-TFLOP samples,
# interleaved with cuBLASLt top-1 / best of 8 and cublasGemmEx), then the FP8 table (bench_fp8 bench,
# 40-TFLOP samples).
set -uo pipefail
OUT="${OUT:-/tmp/run102}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run102
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
s=$SECONDS; timeout 380 gpu-bin/bench_matmul > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f2-8,12 | sed 's/ (8 algos)//'
s=$SECONDS; timeout 170 gpu-bin/bench_fp8 bench > "$OUT/bench_fp8.log" 2>&1
echo "bench_fp8 rc=$? $((SECONDS-s))s"; grep -E "^\| [0-9]" "$OUT/bench_fp8.log" | tail -5 | cut -d'|' -f2-10
