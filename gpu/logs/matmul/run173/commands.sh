#!/usr/bin/env bash
# run173 (session 20): the Hopper attention kernel with programmatic dependent launch (griddepcontrol.wait
# after the set-up, launch_dependents after the producer's last load) and the dynamic scheduler's counter
# zeroed by each grid's last fetch instead of a memset before each launch: the attention call tests (every
# case; the new chained_calls_with_dependent_launch), memcheck on the chained calls and on the dynamic
# scheduler's test, then `bench_attention --d256 --serialized` (with / without dependent launch, seq 1k
# and 4k, interleaved in one process).
set -uo pipefail
OUT="${OUT:-/tmp/run173}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run173 PATH="$PATH:/usr/local/cuda/bin"
s=$SECONDS; timeout 240 gpu-bin/test-attention_run --test-threads=8 > "$OUT/test-attention_run.log" 2>&1
echo "test-attention_run rc=$? $((SECONDS-s))s"; grep -E "^test result|FAIL|panicked" "$OUT/test-attention_run.log" | head -5
grep -E "^call " "$OUT/test-attention_run.log" | head -8
for t in chained_calls_with_dependent_launch sm90_tuning_dynamic; do
  s=$SECONDS; CUTE_ATTN_SHORT=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 gpu-bin/test-attention_run --test-threads=1 --exact attention_run::$t > "$OUT/memcheck-$t.log" 2>&1
  echo "memcheck $t rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY' "$OUT/memcheck-$t.log" | tail -1)"
done
s=$SECONDS; timeout 240 gpu-bin/bench_attention --d256 --serialized > "$OUT/bench_attention.log" 2> "$OUT/bench_attention.err"
echo "bench_attention rc=$? $((SECONDS-s))s"; cat "$OUT/bench_attention.log"
