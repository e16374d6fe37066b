#!/usr/bin/env bash
# attn6 call 2: clusters without the MEMBAR.ALL.GPU arrivals, on by default for non-causal d = 128/256:
# bench (default = cluster vs no_cluster / persistent / cluster2_nopp, one process), cluster test, racecheck,
# memcheck (short), then the whole attention_run suite in the time left.
set -uo pipefail
BIN=gpu-bin-attn6
OUT="${OUT:-/tmp/attn6}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-attn6
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
T=attention_run::sm90_tuning_cluster
s=$SECONDS
timeout 105 "$BIN/bench_attention" --d 128 --d 256 --seq16k --cluster --no-cluster --persistent > "$OUT/bench.log" 2> "$OUT/bench.err"
echo "bench rc=$? $((SECONDS-s))s"; cat "$OUT/bench.log"
s=$SECONDS
timeout 40 "$BIN/test-attention_run" --test-threads=1 --exact $T > "$OUT/test-cluster.log" 2>&1
echo "test rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-cluster.log")"; grep -E "FAIL |panicked" "$OUT/test-cluster.log" | head -10
s=$SECONDS
CUTE_ATTN_SHORT=1 timeout 25 compute-sanitizer --tool racecheck --error-exitcode 9 "$BIN/test-attention_run" --test-threads=1 --exact $T > "$OUT/racecheck-cluster.log" 2>&1
echo "racecheck rc=$? $((SECONDS-s))s: $(grep -E 'RACECHECK SUMMARY|^test result' "$OUT/racecheck-cluster.log" | tr '\n' ' ')"
s=$SECONDS
CUTE_ATTN_SHORT=1 timeout 30 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/test-attention_run" --test-threads=1 --exact $T > "$OUT/memcheck-cluster.log" 2>&1
echo "memcheck rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY|^test result' "$OUT/memcheck-cluster.log" | tr '\n' ' ')"
left=$((228 - SECONDS)); s=$SECONDS
timeout $left "$BIN/test-attention_run" --test-threads=16 > "$OUT/test-attention_run.log" 2>&1
echo "suite rc=$? $((SECONDS-s))s (limit ${left}s): $(grep -E '^test result' "$OUT/test-attention_run.log")"; grep -cE "^test .* ok$" "$OUT/test-attention_run.log"; grep -E "^test .*FAILED$|FAIL |panicked" "$OUT/test-attention_run.log" | head -20
