#!/usr/bin/env bash
# run 8: persistent CTAs (tests, then bench default vs persistent), torch SDPA, racecheck of varlen with the new tiles
set -uo pipefail
B=.attn-xfer
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
timeout 110 $B/test-attention_run --exact attention_run::persistent_tiles --nocapture > "$OUT/test-persistent.log" 2>&1
prc=$?; echo "persistent_tiles rc=$prc at ${SECONDS}s: $(grep -E '^test result' $OUT/test-persistent.log)"; grep -E "FAIL" $OUT/test-persistent.log | head -5
extra=""; [ $prc = 0 ] && extra="--persistent"
timeout 75 $B/bench_attention --d256 --seq16k $extra > "$OUT/bench_attention.log" 2>&1
echo "bench rc=$? at ${SECONDS}s"; cat "$OUT/bench_attention.log"
timeout 80 python3 scripts/gpu/torch_attention.py > "$OUT/torch_attention.log" 2>&1
echo "torch rc=$? at ${SECONDS}s"; cat "$OUT/torch_attention.log"
left=$((288 - SECONDS))
if [ $left -gt 20 ]; then
  timeout $left compute-sanitizer --tool racecheck --error-exitcode 9 $B/test-attention_run --test-threads=1 --exact attention_run::varlen_lengths_and_heads > "$OUT/san-racecheck-varlen-lengths.log" 2>&1
  echo "racecheck varlen_lengths_and_heads rc=$? at ${SECONDS}s: $(grep -E 'RACECHECK SUMMARY' $OUT/san-racecheck-varlen-lengths.log | tail -1)"
fi
