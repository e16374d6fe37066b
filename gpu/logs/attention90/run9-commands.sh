#!/usr/bin/env bash
# run 9: O through shared memory + TMA store. Tests and sanitizers in parallel (correctness), then the bench alone.
set -uo pipefail
B=.attn-xfer2
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin"
chmod +x $B/test-attention_run $B/bench_attention
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/run9-gpu.txt" 2>&1
timeout 150 $B/test-attention_run --test-threads=8 > "$OUT/run9-tests.log" 2>&1 &
t=$!
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test-attention_run --test-threads=1 --exact attention_run::schedules_small > "$OUT/run9-racecheck-schedules.log" 2>&1 &
r=$!
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test-attention_run --test-threads=1 --exact attention_run::schedules_small > "$OUT/run9-memcheck-schedules.log" 2>&1 &
m=$!
wait $r; echo "racecheck rc=$? at ${SECONDS}s: $(grep -E 'RACECHECK SUMMARY|^test result' $OUT/run9-racecheck-schedules.log | tr '\n' ' ')"
wait $m; echo "memcheck rc=$? at ${SECONDS}s: $(grep -E 'ERROR SUMMARY|^test result' $OUT/run9-memcheck-schedules.log | tr '\n' ' ')"
wait $t; echo "tests rc=$? at ${SECONDS}s: $(grep -E '^test result' $OUT/run9-tests.log)"
grep -E "FAIL|panicked|^test .* \.\.\. " "$OUT/run9-tests.log" | head -30
timeout 110 $B/bench_attention --d256 --seq16k --direct-o > "$OUT/run9-bench.log" 2>&1
echo "bench rc=$? at ${SECONDS}s"; cat "$OUT/run9-bench.log"
