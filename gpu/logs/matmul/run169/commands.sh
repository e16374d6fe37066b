#!/usr/bin/env bash
# run169 (session 19): an A/A control of the A/B design (`bench_matmul --shape ... --control-ab`: the
# second handle, identical to ours, timed in the alternative's place in each round). If the place itself
# favours one side, the with / without dependent launch ratios of runs 163-167 carry that bias.
set -uo pipefail
OUT="${OUT:-/tmp/run169}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run169
for shape in 1,4096,4096,4096 1,8192,8192,8192 1,8192,14336,4096 1,8192,4096,14336 1,2048,2048,2048 1,16,8192,8192; do
  s=$SECONDS; timeout 60 gpu-bin/bench_matmul --shape $shape --control-ab > "$OUT/aa-${shape//,/x}.log" 2>&1
  echo "aa $shape rc=$? $((SECONDS-s))s"; grep -E "^\| bf16|identical" "$OUT/aa-${shape//,/x}.log" | cut -d'|' -f1-8 | sed 's/ (8 algos)//'
done
