#!/usr/bin/env bash
# run117 (session 13): where the cooperative 128x256 tile's consumers spend their cycles, per SASS
# instruction (ncu warp-state sampling), against the ping-pong 128x128 tile and cuBLASLt's cooperative
# and ping-pong kernels on the strided batch 32 x 1024³ bf16 (run113: ours 171k / 154k cycles, cuBLASLt
# 160k / 142k), and the cooperative tile at 4096³.
set -uo pipefail
OUT="${OUT:-/tmp/run117}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run117
for shape in 32,1024,1024,1024 1,4096,4096,4096; do
  s=$SECONDS; tag=${shape//,/x}
  timeout 220 ncu --kernel-id '::regex:(128x256x64_c2_s4_g8_p_ts_(batch|cl2_km)|128x128x64_c2pp_s6_g8_p_ts_wgb_batch|nvjet_sm90_tst_128x128_64x6_2x1|nvjet_sm90_tst_128x256_64x4_2x1):3' \
    --section SpeedOfLight --section WarpStateStats --section SourceCounters --section InstructionStats \
    -o "$OUT/rep-$tag" gpu-bin/bench_matmul --tuned --shape $shape --sample-tflop 1 > "$OUT/ncu-$tag.log" 2>&1
  echo "ncu $shape rc=$? $((SECONDS-s))s"
  ncu -i "$OUT/rep-$tag.ncu-rep" --print-summary per-kernel 2>&1 | grep -E "^  [a-z_0-9]+|Elapsed Cycles" | head -20
  ncu -i "$OUT/rep-$tag.ncu-rep" --page source --csv --print-source sass > "$OUT/sass-$tag.csv" 2> "$OUT/sass-$tag.err"
  echo "source page rc=$? $(wc -c < "$OUT/sass-$tag.csv") bytes"; head -c 600 "$OUT/sass-$tag.err"
  ncu -i "$OUT/rep-$tag.ncu-rep" --page details > "$OUT/details-$tag.log" 2>&1
  grep -E "^  [a-z_0-9]+.*\(|Elapsed Cycles|Executed Instructions  |Issue Slots Busy" "$OUT/details-$tag.log" | sed 's/  */ /g; s/, Context.*//'
done
