#!/usr/bin/env bash
# run139 (session 16): the narrow (decode) tiles alone, in 2-CTA clusters, with stream-K and both, on one-wave
# and multi-wave decode shapes (`bench_hopper narrow`, interleaved with cublasGemmEx), and exactness of
# the clustered narrow tile (`bench_hopper check small`, which now includes it).
set -uo pipefail
OUT="${OUT:-/tmp/run139}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run139
s=$SECONDS; timeout 150 gpu-bin/bench_hopper narrow > "$OUT/narrow.log" 2>&1
echo "narrow rc=$? $((SECONDS-s))s"; grep -vE "^device" "$OUT/narrow.log" | sed 's/ TFLOP\/s (/ (/; s/ of cuBLAS; grid [0-9]*;//; s/max rel diff/diff/; s/cute_hgemm_bf16_bf16_//'
s=$SECONDS; timeout 150 gpu-bin/bench_hopper check small > "$OUT/check-small.log" 2>&1
echo "check small rc=$? $((SECONDS-s))s: $(tail -1 "$OUT/check-small.log") ($(grep -c 64x16x64 "$OUT/check-small.log") narrow checks)"; grep -E "FAIL|wrong \(" "$OUT/check-small.log" | grep -v " 0 wrong" | head -5
