#!/usr/bin/env bash
# run80 (session 8, H200): the final binary. bench_attention with the handles rotated within each shape (6 rounds)
# and --wg-plain --wg-broadcast, then torch SDPA (cuDNN, FA2) in the same call; the GEMM tiles with their warp group
# index and the other one (bench_hopper broadcast: the ping-pong tile now broadcasts by default) and the FP8 tiles
# (bench_fp8 broadcast). Few files: $OUT/summary.log and the raw logs.
set -uo pipefail
OUT="${OUT:-/tmp/run80}"; mkdir -p "$OUT"; export CUTE_REQUIRE_GPU=1
{
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
s=$SECONDS
timeout 200 gpu-bin/bench_attention --d256 --seq16k --wg-plain --wg-broadcast 2> "$OUT/bench_attention.err"
echo "bench_attention rc=$? $((SECONDS-s))s"; s=$SECONDS
(cd scripts/gpu && timeout 90 python3 torch_attention.py --rounds 5)
echo "torch rc=$? $((SECONDS-s))s"; s=$SECONDS
timeout 100 gpu-bin/bench_hopper broadcast
echo "bench_hopper rc=$? $((SECONDS-s))s"; s=$SECONDS
timeout 100 gpu-bin/bench_fp8 broadcast
echo "bench_fp8 rc=$? $((SECONDS-s))s"
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log" | grep -v "^ *[0-9]* *[0-9]* *[0-9]* *[0-9]* *\(true\|false\) *\(default\|wg_\)" | head -80
