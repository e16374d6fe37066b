#!/usr/bin/env bash
# run31: the dynamic tile scheduler again (second process, same binary as run30), now with 16k: bench_attention
# --d256 --seq16k --dynamic --dynamic-lpt against the defaults, torch SDPA (cuDNN, FA2) in the same call, and
# racecheck of the test (run30's ended with rc 11: its log's tail here).
set -uo pipefail
BIN=gpu-bin
OUT="${OUT:-/tmp/run31}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-run31
T=attention_run::sm90_tuning_dynamic
{
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
s=$SECONDS
timeout 300 "$BIN/bench_attention" --d256 --seq16k --dynamic --dynamic-lpt 2> /tmp/bench.err
echo "bench rc=$? $((SECONDS-s))s"; tail -2 /tmp/bench.err
s=$SECONDS
(cd scripts/gpu && timeout 150 python3 torch_attention.py --rounds 5)
echo "torch rc=$? $((SECONDS-s))s"
s=$SECONDS
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 "$BIN/test-attention_run" --test-threads=1 --exact $T > /tmp/race.log 2>&1
echo "racecheck rc=$? $((SECONDS-s))s: $(grep -E 'RACECHECK SUMMARY|^test result' /tmp/race.log | tr '\n' ' ')"
grep -vE "^test |^running|^$" /tmp/race.log | tail -25
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log"
