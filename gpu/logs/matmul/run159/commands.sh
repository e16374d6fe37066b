#!/usr/bin/env bash
# run159 (session 18): the second run, on the same code, of run156's A/B of split-K summed in the GEMM
# (sums in register order) against the second kernel and of the GEMM table; the split-K GPU tests first
# (no sanitizers: run156 ran them).
set -uo pipefail
OUT="${OUT:-/tmp/run159}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run159
s=$SECONDS; timeout 120 gpu-bin/test-matmul_run --test-threads=1 split_k_slices narrow_sides > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
grep -E "FAILED|panicked" -A6 "$OUT/test-matmul_run.log" | head -20
OUT="$OUT" bash scripts/gpu/split_k_ab.sh   # the A/B and the table (inline when it ran; same commands)
# per-SASS-instruction warp-stall samples of the plan's clustered 128x256 at 4096³ (where its time goes
# besides the mainloop: the cooperative epilogue does not overlap the tensor cores)
s=$SECONDS
timeout 150 ncu --kernel-id '::regex:cute_hgemm_bf16_bf16_128x256x64_c2_s4_g8_p_ts_cl2:3' --section SourceCounters \
  --section WarpStateStats --section SpeedOfLight -o /tmp/coop gpu-bin/bench_matmul --shape 1,4096,4096,4096 --sample-tflop 1 > "$OUT/ncu-coop.log" 2>&1
echo "ncu rc=$? $((SECONDS-s))s"
ncu -i /tmp/coop.ncu-rep --page details > "$OUT/coop-details.log" 2>&1
ncu -i /tmp/coop.ncu-rep --page source --print-source sass --csv > "$OUT/coop-sass.csv" 2>&1
grep -E "Elapsed Cycles|SM Active Cycles|Duration" "$OUT/coop-details.log"
