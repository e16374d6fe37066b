#!/usr/bin/env bash
# run92 (session 9, H200): the narrow-side (decode-like) GEMM: 64 x 16.. tiles, few rows computed
# transposed. test-matmul_run (all), memcheck and racecheck of the narrow test, bench_matmul --skinny,
# and a decode sweep (bf16, --shape).
set -uo pipefail
OUT="${OUT:-/tmp/run92}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run92
s=$SECONDS; timeout 200 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
grep -E "FAILED|panicked" "$OUT/test-matmul_run.log" | head -5
for tool in memcheck racecheck; do
  s=$SECONDS; timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 gpu-bin/test-matmul_run --test-threads=1 narrow > "$OUT/san-$tool-narrow.log" 2>&1
  echo "$tool rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-$tool-narrow.log" | tail -1) $(grep -E '^test result' "$OUT/san-$tool-narrow.log")"
done
s=$SECONDS; timeout 200 gpu-bin/bench_matmul --skinny > "$OUT/bench_matmul-skinny.log" 2>&1
echo "skinny rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)" "$OUT/bench_matmul-skinny.log" | cut -d'|' -f2-8
for sh in 1,1,8192,8192 1,32,8192,8192 1,64,8192,8192 1,16,4096,4096 1,16,14336,4096 1,8,28672,4096; do
  timeout 60 gpu-bin/bench_matmul --shape $sh 2>&1 | grep "^| bf16" >> "$OUT/decode-sweep.log"
done
cut -d'|' -f2-8 "$OUT/decode-sweep.log"
