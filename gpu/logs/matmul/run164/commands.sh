#!/usr/bin/env bash
# run164 (session 19): where the SM90 GEMM lets the next grid launch. run163 (trigger right after the
# wait, at the kernel's start) gained on 16x8192x8192, 2048³ and the batch but lost 17 % at 128x8192x8192
# and 5 % at 4096³. Here `bench_matmul_start` is run163's binary and `bench_matmul` triggers once the
# producer has issued its last load (as CUTLASS does after the last tile's mainloop); each runs the
# dependent-launch A/B on the same shapes, alternating per shape. Then the chained-calls test again.
set -uo pipefail
OUT="${OUT:-/tmp/run164}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run164
s=$SECONDS; timeout 60 gpu-bin/test-matmul_run --test-threads=1 chained > "$OUT/test-chained.log" 2>&1
echo "test chained rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-chained.log")"
for shape in 1,16,8192,8192 1,128,8192,8192 1,256,2048,32768 1,2048,2048,2048 1,4096,4096,4096 1,1024,8192,8192 32,1024,1024,1024; do
  for bin in bench_matmul_start bench_matmul; do
    s=$SECONDS; timeout 60 gpu-bin/$bin --shape $shape --dependent-launch-ab > "$OUT/$bin-${shape//,/x}.log" 2>&1
    echo "$bin $shape rc=$? $((SECONDS-s))s"; grep -E "^\| bf16|dependent" "$OUT/$bin-${shape//,/x}.log" | cut -d'|' -f1-8 | sed 's/ (8 algos)//'
  done
done
