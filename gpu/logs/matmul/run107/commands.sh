#!/usr/bin/env bash
# run107 (session 11): FP8 per-tensor in 2-CTA clusters (with and without stream-K): exactness checks,
# then the settled A/B; the second settled A/B of clusters on the 16-bit tiles; the second settled GEMM
# table with clusters in the heuristic (run 106 the first).
set -uo pipefail
OUT="${OUT:-/tmp/run107}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run107
s=$SECONDS; timeout 90 gpu-bin/bench_fp8 check small > "$OUT/fp8-check-small.log" 2>&1
echo "fp8 check small rc=$? $((SECONDS-s))s: $(tail -1 "$OUT/fp8-check-small.log") ($(grep -c _cl2 "$OUT/fp8-check-small.log") clustered lines)"
s=$SECONDS; timeout 120 gpu-bin/bench_fp8 streamk > "$OUT/fp8-streamk.log" 2>&1
echo "fp8 streamk rc=$? $((SECONDS-s))s"; grep sweep "$OUT/fp8-streamk.log" | sed 's/cute_hgemm_e4m3_e4m3_//; s/ TFLOP\/s//'
s=$SECONDS; timeout 110 gpu-bin/bench_hopper clusters > "$OUT/clusters.log" 2>&1
echo "clusters rc=$? $((SECONDS-s))s"; grep -vE "^device" "$OUT/clusters.log" | sed 's/cute_hgemm_bf16_bf16_//; s/ TFLOP\/s//g; s/ of cuBLAS; grid 13[0-9]; max rel diff 0.00e0//'
s=$SECONDS; timeout 220 gpu-bin/bench_matmul > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f2-8 | sed 's/ (8 algos)//'
