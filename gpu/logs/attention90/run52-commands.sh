#!/usr/bin/env bash
# run52 (session 4, binaries of branch attention-double-q): Q in two buffers for persistent CTAs
# (Sm90AttentionConfig::double_q). The new test, the suite, memcheck and racecheck of the new test and of the
# dynamic scheduler's; the sweep with --one-q (the same kernels with one Q buffer) interleaved; torch SDPA.
set -uo pipefail
export OUT="${OUT:-/tmp/run52}" CUTE_CACHE_DIR=${CUTE_CACHE_DIR:-/tmp/cute-cache-run52} CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin"; mkdir -p "$OUT"
s=$SECONDS
timeout 120 gpu-bin/test-attention_run --exact attention_run::sm90_double_q > "$OUT/double_q.log" 2>&1
echo "double_q rc=$? $((SECONDS-s))s $(grep -E '^test result' "$OUT/double_q.log")"; grep -E "panicked" -A3 "$OUT/double_q.log" | head -8
if [ "${BENCH_ONLY:-0}" = 0 ]; then
s=$SECONDS
bash scripts/gpu/attention.sh tests > "$OUT/checks.log" 2>&1
echo "checks rc=$? $((SECONDS-s))s"; cat "$OUT/checks.log"
for t in sm90_double_q sm90_tuning_dynamic; do
  for tool in memcheck racecheck; do
    s=$SECONDS
    CUTE_ATTN_SHORT=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 gpu-bin/test-attention_run --test-threads=1 --exact attention_run::$t > "$OUT/san-$tool-$t.log" 2>&1
    echo "$tool $t rc=$? $((SECONDS-s))s $(grep -E 'SUMMARY' "$OUT/san-$tool-$t.log" | tail -1)"
  done
done
fi
{
s=$SECONDS
timeout 200 gpu-bin/bench_attention --d256 --seq16k --one-q 2> "$OUT/bench.err"
echo "bench rc=$? $((SECONDS-s))s"
s=$SECONDS
(cd scripts/gpu && timeout 120 python3 torch_attention.py --rounds 5)
echo "torch rc=$? $((SECONDS-s))s"
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log"
