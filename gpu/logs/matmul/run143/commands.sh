#!/usr/bin/env bash
# run143 (session 16): the table's shapes below 1.00 measured alone, one process per shape and repeat
# (`bench_matmul --shape`, bf16: the call interleaved with cuBLASLt's top 8 and cublasGemmEx), to separate
# the shape from its place in the table (4096³ is the table's first shape).
set -uo pipefail
OUT="${OUT:-/tmp/run143}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run143
for rep in 1 2; do
  for shape in 1,4096,4096,4096 1,1024,8192,8192 1,16,8192,8192 1,2048,2048,2048 1,16384,8192,1024; do
    log="$OUT/shape-${shape//,/x}-$rep.log"; s=$SECONDS
    timeout 60 gpu-bin/bench_matmul --shape $shape > "$log" 2>&1
    echo "$shape rep $rep rc=$? $((SECONDS-s))s: $(grep -E "^\| bf16" "$log" | cut -d'|' -f2-8 | sed 's/ (8 algos)//')"
  done
done
