#!/usr/bin/env bash
# run123 (session 13): run117's ncu source view again on the per-warp stmatrix epilogue (strided batch
# 32 x 1024³ bf16: our cooperative 128x256 and ping-pong 128x128 against cuBLASLt's two), for where the
# cooperative tile's remaining cycles go. The source page is reduced on the device by by_kind.py and
# hot_instructions.py (run117) so that only text comes back.
set -uo pipefail
OUT="${OUT:-/tmp/run123}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run123
s=$SECONDS
timeout 220 ncu --kernel-id '::regex:(128x256x64_c2_s4_g8_p_ts_batch|128x128x64_c2pp_s6_g8_p_ts_wgb_batch|nvjet_sm90_tst_128x128_64x6_2x1|nvjet_sm90_tst_128x256_64x4_2x1):3' \
  --section SpeedOfLight --section WarpStateStats --section SourceCounters --section InstructionStats \
  -o /tmp/rep123 gpu-bin/bench_matmul --tuned --shape 32,1024,1024,1024 --sample-tflop 1 > "$OUT/ncu.log" 2>&1
echo "ncu rc=$? $((SECONDS-s))s"
ncu -i /tmp/rep123.ncu-rep --page source --csv --print-source sass > /tmp/sass123.csv 2> "$OUT/sass.err"
echo "source page rc=$? $(wc -c < /tmp/sass123.csv) bytes"
python3 gpu/logs/matmul/run117/by_kind.py /tmp/sass123.csv > "$OUT/sass-by-instruction-kind.log" 2>&1
python3 gpu/logs/matmul/run117/hot_instructions.py /tmp/sass123.csv "" 0.004 > "$OUT/sass-hot-instructions.log" 2>&1
python3 gpu/logs/matmul/run117/hot_instructions.py /tmp/sass123.csv 128x256x64_c2_s4 0 > "$OUT/sass-coop-all.log" 2>&1
ncu -i /tmp/rep123.ncu-rep --page details > "$OUT/details.log" 2>&1
grep -E "^  [a-z_0-9]+.*\(|Elapsed Cycles|Executed Instructions  |Issue Slots Busy" "$OUT/details.log" | sed 's/  */ /g; s/, Context.*//'
cat "$OUT/sass-by-instruction-kind.log"
