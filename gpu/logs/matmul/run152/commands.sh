#!/usr/bin/env bash
# run152 (session 17): the second `bench_hopper chain` A/B (run149 the first) and the second GEMM table run
# of this session's code (run150 the first).
set -uo pipefail
OUT="${OUT:-/tmp/run152}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run152
s=$SECONDS; timeout 120 gpu-bin/bench_hopper chain > "$OUT/chain.log" 2>&1; echo "chain rc=$? $((SECONDS-s))s"
grep -vE "^device" "$OUT/chain.log" | sed 's/cute_hgemm_bf16_bf16_//; s/ TFLOP\/s (/ (/; s/; grid.*//'
s=$SECONDS; timeout 190 gpu-bin/bench_matmul > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f2-8 | sed 's/ (8 algos)//'
