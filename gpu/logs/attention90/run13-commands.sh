#!/usr/bin/env bash
# attn5 (3 consumer warp groups, d = 64): the GPU test, the bench (d = 64, default vs consumers3), sanitizers.
set -uo pipefail
BIN=gpu-bin-attn5
OUT="${OUT:-/tmp/attn5}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-attn5
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
T=attention_run::sm90_tuning_consumers3
s=$SECONDS
timeout 60 "$BIN/test-attention_run" --exact $T --nocapture > "$OUT/test-consumers3.log" 2>&1
echo "test rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-consumers3.log")"; grep -E "FAIL|panicked" "$OUT/test-consumers3.log" | head -5
s=$SECONDS
timeout 85 "$BIN/bench_attention" --d 64 --seq16k --consumers3 > "$OUT/bench-consumers3.log" 2> "$OUT/bench-consumers3.err"
echo "bench rc=$? $((SECONDS-s))s"; cat "$OUT/bench-consumers3.log"; tail -3 "$OUT/bench-consumers3.err"
s=$SECONDS
CUTE_ATTN_SHORT=1 timeout 40 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/test-attention_run" --test-threads=1 --exact $T > "$OUT/san-memcheck-consumers3.log" 2>&1
echo "memcheck rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY|^test result' "$OUT/san-memcheck-consumers3.log" | tr '\n' ' ')"
s=$SECONDS
CUTE_ATTN_SHORT=1 timeout 45 compute-sanitizer --tool racecheck --error-exitcode 9 "$BIN/test-attention_run" --test-threads=1 --exact $T > "$OUT/san-racecheck-consumers3.log" 2>&1
echo "racecheck rc=$? $((SECONDS-s))s: $(grep -E 'RACECHECK SUMMARY|^test result' "$OUT/san-racecheck-consumers3.log" | tr '\n' ' ')"
