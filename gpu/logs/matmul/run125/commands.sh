#!/usr/bin/env bash
# run125 (session 14): the wgmma order of tiles with two 64-row chunks per consumer (ping-pong 128x128 and
# 128x192, the 128x128 single-consumer tile). CUTE_EXP_CHAINS (an experiment switch, removed after):
# 0 = k outer, chunks inner (interleaved, one commit group per k-block, as before); 1 = one chunk's k steps
# after the other (one commit group); 2 = as 1 with a commit and wait_group 1 between the two chains
# (cuBLASLt's ping-pong kernel in run123's SASS). ncu cycles and the autotuner's settled times.
set -uo pipefail
OUT="${OUT:-/tmp/run125}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1
for v in 0 1 2; do
  export CUTE_EXP_CHAINS=$v CUTE_CACHE_DIR=/tmp/cute-cache-run125-$v
  for shape in 32,1024,1024,1024 1,2048,2048,2048 1,16384,8192,1024; do
    s=$SECONDS; log="$OUT/ncu-v$v-${shape//,/x}.log"
    timeout 200 ncu --kernel-id '::regex:(c2pp|128x128x64_c1|128x256x64_c2_s4_g8_p_ts_batch|nvjet_sm90_tst_128x128):3' \
      --section SpeedOfLight \
      gpu-bin/bench_matmul --tuned --shape $shape --sample-tflop 1 > "$log" 2>&1
    echo "v$v ncu $shape rc=$? $((SECONDS-s))s"
    grep -E "^  [a-zA-Z_0-9]+.*\(|Elapsed Cycles" "$log" | sed 's/  */ /g; s/, Context.*//' | paste - - | sed 's/ (132, 1, 1)x(384, 1, 1)//; s/Elapsed Cycles cycle//; s/(128, 1, 1)x(384, 1, 1)//'
  done
done
for v in 0 1 2; do
  export CUTE_EXP_CHAINS=$v CUTE_CACHE_DIR=/tmp/cute-cache-run125-t$v
  for shape in 32,1024,1024,1024 1,2048,2048,2048 1,1024,8192,8192 1,4096,4096,4096; do
    s=$SECONDS; CUTE_AUTOTUNE_LOG=1 timeout 100 gpu-bin/bench_matmul --tuned --shape $shape > "$OUT/tuned-v$v-${shape//,/x}.log" 2>&1
    echo "v$v tuned $shape rc=$? $((SECONDS-s))s"; grep -E "cute autotune|^\| bf16" "$OUT/tuned-v$v-${shape//,/x}.log" | grep -E "c2pp|c1_s6|^\|" | sed 's/ (8 algos)//; s/cute_hgemm_bf16_bf16_//; s/cute autotune //' | cut -c1-150
  done
done
