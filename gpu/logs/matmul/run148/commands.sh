#!/usr/bin/env bash
# run148 (session 17): per-SASS-instruction warp-stall samples (ncu SourceCounters) of our clustered
# ping-pong 128x128 at 4096³ (from `bench_hopper wavefill`) and cuBLASLt's ping-pong nvjet 128x128: where
# our mainloop's 95 % of the tensor peak on active cycles (run147) loses against its 98 %.
set -uo pipefail
OUT="${OUT:-/tmp/run148}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run148
ncu --version | tail -1
sections="--section SourceCounters --section WarpStateStats --section InstructionStats"
s=$SECONDS
timeout 200 ncu --kernel-id '::regex:cute_hgemm_bf16_bf16_128x128x64_c2pp_s6_g8_p_ts_cl2:3' $sections -o /tmp/ours \
  gpu-bin/bench_hopper wavefill > "$OUT/ncu-ours.log" 2>&1
echo "ours rc=$? $((SECONDS-s))s"; s=$SECONDS
timeout 150 ncu --kernel-id '::regex:nvjet_sm90_tst_128x128_64x6:3' $sections -o /tmp/nvjet \
  gpu-bin/bench_matmul --shape 1,4096,4096,4096 --sample-tflop 1 > "$OUT/ncu-nvjet.log" 2>&1
echo "nvjet rc=$? $((SECONDS-s))s"
for r in ours nvjet; do
  ncu -i /tmp/$r.ncu-rep --page details > "$OUT/$r-details.log" 2>&1
  ncu -i /tmp/$r.ncu-rep --page source --print-source sass --csv > "$OUT/$r-sass.csv" 2>&1
  echo "$r: $(wc -l < "$OUT/$r-sass.csv") lines"; head -3 "$OUT/$r-sass.csv" | cut -c1-600
done
