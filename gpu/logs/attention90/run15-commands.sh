#!/usr/bin/env bash
# attn6 call 1: 2-CTA clusters with K/V multicast (bench --cluster vs default, one process), the cluster GPU test, racecheck (short).
set -uo pipefail
BIN=gpu-bin-attn6
OUT="${OUT:-/tmp/attn6}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-attn6
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
T=attention_run::sm90_tuning_cluster
s=$SECONDS
timeout 95 "$BIN/bench_attention" --d 128 --d 256 --seq16k --cluster > "$OUT/bench.log" 2> "$OUT/bench.err"
echo "bench rc=$? $((SECONDS-s))s"; cat "$OUT/bench.log"; tail -3 "$OUT/bench.err"
s=$SECONDS
timeout 60 "$BIN/test-attention_run" --test-threads=1 --exact $T > "$OUT/test-cluster.log" 2>&1
echo "test rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-cluster.log")"; grep -E "FAIL |panicked" "$OUT/test-cluster.log" | head -10
s=$SECONDS
CUTE_ATTN_SHORT=1 timeout 70 compute-sanitizer --tool racecheck --error-exitcode 9 "$BIN/test-attention_run" --test-threads=1 --exact $T > "$OUT/racecheck-cluster.log" 2>&1
echo "racecheck rc=$? $((SECONDS-s))s: $(grep -E 'RACECHECK SUMMARY|^test result' "$OUT/racecheck-cluster.log" | tr '\n' ' ')"
