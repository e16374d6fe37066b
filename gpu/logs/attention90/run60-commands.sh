#!/usr/bin/env bash
# run60 (session 6): the next Q prefetched into L2 (Sm90AttentionConfig::prefetch_q). Its test plain and under
# memcheck/racecheck (short cases), then the sweep twice (two processes) with the plan + prefetch, persistent +
# prefetch and one CTA per tile interleaved with the default, then torch SDPA.
set -uo pipefail
export OUT="${OUT:-/tmp/run60}" CUTE_CACHE_DIR=/tmp/cute-cache-run60 CUTE_REQUIRE_GPU=1; mkdir -p "$OUT"
s=$SECONDS
timeout 200 gpu-bin/test-attention_run --test-threads=8 sm90_tuning_prefetch_q > "$OUT/test.log" 2>&1
echo "test rc=$? $((SECONDS-s))s $(grep -E '^test result' "$OUT/test.log")"
for tool in memcheck racecheck; do
  s=$SECONDS
  CUTE_ATTN_SHORT=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 gpu-bin/test-attention_run --test-threads=1 --exact attention_run::sm90_tuning_prefetch_q > "$OUT/san-$tool.log" 2>&1
  echo "$tool rc=$? $((SECONDS-s))s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-$tool.log" | tail -1)"
done
for r in 1 2; do
  s=$SECONDS
  timeout 150 gpu-bin/bench_attention ${BENCH_FLAGS:---d256 --seq16k --prefetch-q --persistent-pq --per-tile} 2> "$OUT/bench$r.err"
  echo "bench$r rc=$? $((SECONDS-s))s"
done
s=$SECONDS
(cd scripts/gpu && timeout 120 python3 torch_attention.py --rounds 5)
echo "torch rc=$? $((SECONDS-s))s"
