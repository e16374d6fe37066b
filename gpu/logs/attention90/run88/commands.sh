#!/usr/bin/env bash
# run88 (session 8, H200): after the plan's scale-d 0 for d = 64 (from 2k keys, non-causal below 8k): test-attention_run,
# then bench_attention --d 64 --seq16k (default handle only).
export CUTE_REQUIRE_GPU=1; timeout 200 gpu-bin/test-attention_run --test-threads=8 > $OUT/test-attention_run.log 2>&1; echo "rc=$?"
grep -E "^test result|FAILED|panicked" $OUT/test-attention_run.log | head
CUTE_CACHE_DIR=/tmp/c88 timeout 60 gpu-bin/bench_attention --d 64 --seq16k > $OUT/bench.log 2>&1; tail -13 $OUT/bench.log
