#!/usr/bin/env bash
# run81 (session 8, H200): the tuning options rejected in earlier sessions by A/Bs whose default handle had the
# first place of its shape in most rounds (up to 5 % in its favour, run78), measured again with the handles
# rotated within each shape: d = 128 and 256, seq 1k and 4k, two processes.
set -uo pipefail
OUT="${OUT:-/tmp/run81}"; mkdir -p "$OUT"; export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cache81
for i in 1 2; do
  s=$SECONDS
  timeout 280 gpu-bin/bench_attention --d 128 --d 256 --persistent --persistent-pq --rescale-early --pp-rescale-after \
    --stages3 --lazy --eager --sd0 --dynamic --no-narrow-tail --sm90-block-n 128:176 --sm90-block-n 128:128 \
    --sm90-block-n 256:64 > "$OUT/bench-$i.log" 2> "$OUT/bench-$i.err"
  echo "bench $i rc=$? $((SECONDS-s))s"
done
