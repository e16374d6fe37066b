#!/usr/bin/env bash
# attn5 call 2: 3 consumers the default for d = 64 (not causal <= 1k keys): the whole attention_run suite, and
# memcheck of sm90_tuning_consumers3 (short cases).
set -uo pipefail
BIN=gpu-bin-attn5
OUT="${OUT:-/tmp/attn5}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-attn5
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
T=attention_run::sm90_tuning_consumers3
s=$SECONDS
CUTE_ATTN_SHORT=1 timeout 95 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/test-attention_run" --test-threads=1 --exact $T > "$OUT/san-memcheck-consumers3.log" 2>&1
echo "memcheck rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY|^test result' "$OUT/san-memcheck-consumers3.log" | tr '\n' ' ')"
s=$SECONDS
timeout 125 "$BIN/test-attention_run" --test-threads=16 > "$OUT/test-attention_run.log" 2>&1
echo "suite rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-attention_run.log")"; grep -E "^test .*(ok|FAILED)$|FAIL |panicked" "$OUT/test-attention_run.log" | head -40
