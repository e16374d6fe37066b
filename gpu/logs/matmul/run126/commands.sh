#!/usr/bin/env bash
# run126 (session 14): ping-pong mainloop experiments (switches removed after): CUTE_EXP_CHAINS=3 issues
# the first 64-row chunk's k steps, waits for the previous k-block's group (wait_group 0, the current
# chunk's wgmmas not yet committed), releases its stage, then the second chunk's and commits (the order in
# cuBLASLt's ping-pong SASS, run123); CUTE_EXP_TURN=E passes the ping-pong turn after issuing k-block
# ktiles-1-E instead of after the loop. ncu cycles (batch 32 x 1024³, 2048³) and the autotuner's times.
set -uo pipefail
OUT="${OUT:-/tmp/run126}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1
for v in 0:-1 3:-1 0:0 0:1 0:2 3:1; do
  export CUTE_EXP_CHAINS=${v%:*} CUTE_EXP_TURN=${v#*:} CUTE_CACHE_DIR=/tmp/cute-cache-run126-$v
  for shape in 32,1024,1024,1024 1,2048,2048,2048; do
    s=$SECONDS; log="/tmp/ncu-$v-${shape//,/x}.log"
    timeout 200 ncu --kernel-id '::regex:(c2pp_s6|nvjet_sm90_tst_128x128):3' --section SpeedOfLight \
      gpu-bin/bench_matmul --tuned --shape $shape --sample-tflop 1 > "$log" 2>&1
    echo "v$v ncu $shape rc=$? $((SECONDS-s))s"
    grep -E "^  [a-zA-Z_0-9]+.*\(|Elapsed Cycles" "$log" | sed 's/  */ /g; s/, Context.*//' | paste - - | sed 's/ (132, 1, 1)x(384, 1, 1)//; s/Elapsed Cycles cycle//; s/cute_hgemm_bf16_bf16_//'
  done
  for shape in 32,1024,1024,1024 1,1024,8192,8192; do
    s=$SECONDS; log="/tmp/tuned-$v-${shape//,/x}.log"
    CUTE_AUTOTUNE_LOG=1 timeout 100 gpu-bin/bench_matmul --tuned --shape $shape > "$log" 2>&1
    echo "v$v tuned $shape rc=$? $((SECONDS-s))s"; grep -E "cute autotune|^\| bf16" "$log" | grep -E "c2pp_s6|^\|" | sed 's/ (8 algos)//; s/cute_hgemm_bf16_bf16_//; s/cute autotune //' | cut -c1-150
  done
done
