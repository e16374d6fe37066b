#!/usr/bin/env bash
# run156 (session 18): split-K summed in the GEMM with the sums in register order (16-byte vectors, the
# loads of a batch issued together; before, per-pair loads went out two at a time) and taken by the plan
# for every split: the GPU call tests, memcheck and racecheck on the split-K and narrow tests, the A/B
# against the second kernel (`bench_matmul --shape ... --split-k-ab`), and the GEMM table.
set -uo pipefail
OUT="${OUT:-/tmp/run156}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run156
s=$SECONDS; timeout 120 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
grep -E "FAILED|panicked" -A6 "$OUT/test-matmul_run.log" | head -20
for tool in memcheck racecheck; do
  s=$SECONDS; timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 gpu-bin/test-matmul_run --test-threads=1 split_k_slices narrow_sides > "$OUT/san-$tool.log" 2>&1
  echo "$tool rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-$tool.log" | tail -1) $(grep -E '^test result' "$OUT/san-$tool.log")"
done
OUT="$OUT" bash scripts/gpu/split_k_ab.sh   # the A/B and the table (inline when it ran; same commands)
