#!/usr/bin/env bash
# run30: the dynamic tile scheduler (persistent CTAs taking their next tile from an atomic counter):
# its GPU test, then bench_attention with --persistent --dynamic --dynamic-lpt against the defaults (one
# process, d 64/128/256, 1k and 4k), then racecheck and memcheck of the test.
set -uo pipefail
BIN=gpu-bin
OUT="${OUT:-/tmp/run30}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-run30
T=attention_run::sm90_tuning_dynamic
{
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
s=$SECONDS
timeout 120 "$BIN/test-attention_run" --test-threads=1 --exact $T > /tmp/test.log 2>&1
echo "test rc=$? $((SECONDS-s))s: $(grep -E '^test result' /tmp/test.log)"; grep -E "FAIL|panicked|max" /tmp/test.log | head -8
s=$SECONDS
timeout 250 "$BIN/bench_attention" --d256 --persistent --dynamic --dynamic-lpt 2> /tmp/bench.err
echo "bench rc=$? $((SECONDS-s))s"; tail -2 /tmp/bench.err
s=$SECONDS
timeout 80 compute-sanitizer --tool racecheck --error-exitcode 9 "$BIN/test-attention_run" --test-threads=1 --exact $T > /tmp/race.log 2>&1
echo "racecheck rc=$? $((SECONDS-s))s: $(grep -E 'RACECHECK SUMMARY|^test result' /tmp/race.log | tr '\n' ' ')"
s=$SECONDS
timeout 80 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/test-attention_run" --test-threads=1 --exact $T > /tmp/mem.log 2>&1
echo "memcheck rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY|^test result' /tmp/mem.log | tr '\n' ' ')"
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log"
