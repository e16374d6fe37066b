#!/usr/bin/env bash
# run96 (session 9, H200): narrow GEMMs whose last wave is mostly idle in K slices too (16x11008x4096:
# 172 tiles); the narrow test, and a decode sweep.
set -uo pipefail
OUT="${OUT:-/tmp/run96}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run96
timeout 100 gpu-bin/test-matmul_run --test-threads=1 narrow 2>&1 | grep -E "^test result|panicked"
for sh in 1,16,11008,4096 1,32,11008,4096 1,16,4096,4096 1,16,14336,4096 1,16,8192,8192; do
  timeout 60 gpu-bin/bench_matmul --shape $sh 2>&1 | grep "^| bf16" >> "$OUT/decode-sweep.log"
done
cut -d'|' -f2-8 "$OUT/decode-sweep.log"
