#!/usr/bin/env bash
# run42: keys per K/V tile for the non-causal rows still short of cuDNN (d = 128 4k: 176 keys; d = 256: 80):
# bench_attention --d 128 --d 256 with --sm90-block-n 128:128 128:160 128:192 256:64, one process (256:96 needs 257 KiB of shared memory).
set -uo pipefail
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run42
OUT="${OUT:-/tmp/run42}"; mkdir -p "$OUT"
{
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
s=$SECONDS
timeout 300 gpu-bin/bench_attention --d 128 --d 256 --sm90-block-n 128:128 --sm90-block-n 128:160 --sm90-block-n 128:192 --sm90-block-n 256:64 2> /tmp/bench.err
echo "bench rc=$? $((SECONDS-s))s"; tail -2 /tmp/bench.err
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log"
