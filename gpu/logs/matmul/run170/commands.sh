#!/usr/bin/env bash
# run170 (session 19): the FP8 table a second time with dependent launch (`bench_fp8 bench`; run166 the first).
set -uo pipefail
OUT="${OUT:-/tmp/run170}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run170
s=$SECONDS; timeout 200 gpu-bin/bench_fp8 bench > "$OUT/bench_fp8.log" 2>&1
echo "bench_fp8 rc=$? $((SECONDS-s))s"; grep -E "^\|" "$OUT/bench_fp8.log" | tail -7
