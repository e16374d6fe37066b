#!/usr/bin/env bash
# run157 (session 18): which split-K tiles are fastest now that the slices are summed in the GEMM: the
# autotuner's times of every alternative (`CUTE_AUTOTUNE_LOG`; the 128x128 tile in 2-CTA clusters and
# split added to them for this run; not kept: they were 2-8 % slower) at the split shapes.
set -uo pipefail
OUT="${OUT:-/tmp/run157}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run157
for shape in 1,256,2048,32768 1,128,1024,16384 1,1024,1024,65536; do
  s=$SECONDS; CUTE_AUTOTUNE_LOG=1 timeout 150 gpu-bin/bench_matmul --tuned --shape $shape > "$OUT/tuned-${shape//,/x}.log" 2>&1
  echo "tuned $shape rc=$? $((SECONDS-s))s"; grep -E "^\| bf16" "$OUT/tuned-${shape//,/x}.log" | cut -c1-200
  grep -E "^cute autotune .* ms$" "$OUT/tuned-${shape//,/x}.log" | sort -g -k6 | head -14 | cut -d' ' -f5-6
done
