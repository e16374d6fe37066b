#!/usr/bin/env bash
# run142 (session 16): stream-K with the most efficient tile in place of split-K on small outputs with long K
# (`bench_matmul --stream-k-ab --shape`: the call as planned (split-K), with whole tiles, and with stream-K
# forced, interleaved with cuBLASLt), two processes per shape.
set -uo pipefail
OUT="${OUT:-/tmp/run142}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run142
for rep in 1 2; do
  for shape in 1,1024,1024,65536 1,256,2048,32768 1,512,1024,65536 1,2048,2048,16384; do
    log="$OUT/sk-${shape//,/x}-$rep.log"; s=$SECONDS
    timeout 60 gpu-bin/bench_matmul --stream-k-ab --shape $shape > "$log" 2>&1
    echo "$shape rep $rep rc=$? $((SECONDS-s))s"; grep -E "^\|" "$log" | grep -vE "^\| (shape|---)" | cut -d'|' -f1-8 | sed 's/ (8 algos)//'
  done
done
