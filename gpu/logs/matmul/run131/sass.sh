#!/usr/bin/env bash
# run131d: cuBLASLt's nvjet 128x128 and 128x256 kernels' SASS with per-instruction executed counts (ncu source page),
# read for how their pipeline waits and issues (the kernels are not in libcublasLt's fatbin as named functions).
set -uo pipefail
OUT="${OUT:-/tmp/run131}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run131
for k in nvjet_sm90_tst_128x128 nvjet_sm90_tst_128x256; do
  timeout 200 ncu --kernel-id "::regex:$k:3" --section SourceCounters --page source --print-source sass --csv \
    gpu-bin/bench_matmul --tuned --shape 1,4096,4096,4096 --sample-tflop 1 > "$OUT/sass-$k.csv" 2>&1
  echo "$k rc=$? $(wc -l < "$OUT/sass-$k.csv") lines"
done
