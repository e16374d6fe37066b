#!/usr/bin/env bash
# run85 (session 8, H200): the plan's lazy rescaling for d = 128 (causal below 8k keys, non-causal from 8k):
# test-attention_run, memcheck and racecheck on different_lengths_bhsd_d128 (causal and not, Sq != Sk), then
# bench_attention --d 128 --seq16k --eager (the A/B the other way round: `eager` is the kernel before).
set -uo pipefail
OUT="${OUT:-/tmp/run85}"; mkdir -p "$OUT"; export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin"
{
timeout 200 gpu-bin/test-attention_run --test-threads=8 > "$OUT/test-attention_run.log" 2>&1
echo "test-attention_run rc=$? $(grep -E '^test result' "$OUT/test-attention_run.log" | tail -1)"
for tool in memcheck racecheck; do
  CUTE_ATTN_SHORT=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 gpu-bin/test-attention_run --test-threads=1 --exact attention_run::different_lengths_bhsd_d128 > "$OUT/san-$tool.log" 2>&1
  echo "$tool different_lengths_bhsd_d128 rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-$tool.log" | tail -1)"
done
timeout 150 gpu-bin/bench_attention --d 128 --seq16k --eager 2> "$OUT/bench.err"
echo "bench rc=$?"
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log"
