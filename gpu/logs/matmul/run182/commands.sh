#!/usr/bin/env bash
# run182 (session 21, H100): the tuner's survey of the shapes below 1.00 in run181 (every alternative timed
# once, CUTE_AUTOTUNE_LOG), each then benchmarked on the tuner's pick against cuBLASLt.
set -uo pipefail
OUT="${OUT:-/tmp/run182}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run182 CUTE_AUTOTUNE_LOG=1
for s in 1,1024,1024,65536 1,16384,8192,1024 1,256,2048,32768 1,4096,4096,4096 32,1024,1024,1024 1,8192,4096,14336; do
  t=$SECONDS; timeout 90 gpu-bin/bench_matmul --tuned --shape $s > "$OUT/tuned-$s.log" 2>&1
  echo "== $s rc=$? $((SECONDS-t))s"; grep -E "autotune|^\| bf16" "$OUT/tuned-$s.log" | sed 's/cute autotune //' | cut -c1-150
done
