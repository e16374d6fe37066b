#!/usr/bin/env bash
# run136 (session 15): the plan's stream-K in clusters walks the raster along N (8192³ and 8192x4096x14336
# take it): the GEMM table (ours and cuBLASLt interleaved in rounds in one process, medians, uniform
# [-1,1) data), then `bench_hopper rasters` again (the second run of run135's comparison).
set -uo pipefail
OUT="${OUT:-/tmp/run136}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run136
s=$SECONDS; timeout 230 gpu-bin/bench_matmul > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f2-8 | sed 's/ (8 algos)//'
s=$SECONDS; timeout 150 gpu-bin/bench_hopper rasters > "$OUT/rasters.log" 2>&1
echo "rasters rc=$? $((SECONDS-s))s"; grep -vE "^device" "$OUT/rasters.log" | sed 's/ TFLOP\/s (/ (/; s/ of cuBLAS; grid [0-9]*;//; s/max rel diff/diff/; s/cute_hgemm_bf16_bf16_//'
