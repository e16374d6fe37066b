#!/usr/bin/env bash
# run47 (binaries of branch attention-cross-tiles, d9559a5): run46 with the next tile's first S issued after the hand-over of the last turn (outside the ping-pong
# order, so a wait for its Q or K does not hold the other consumer).  Then --no-cross, torch.
# Same steps: the crossing test, attention.sh tests, memcheck and racecheck of it, the sweep with --no-cross, torch.
set -uo pipefail
export OUT="${OUT:-/tmp/run47}" CUTE_CACHE_DIR=${CUTE_CACHE_DIR:-/tmp/cute-cache-run47} CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin"; mkdir -p "$OUT"
s=$SECONDS
timeout 120 gpu-bin/test-attention_run --exact attention_run::sm90_cross_tiles > "$OUT/cross.log" 2>&1
echo "cross rc=$? $((SECONDS-s))s $(grep -E '^test result' "$OUT/cross.log")"; grep -E "panicked|max \|" "$OUT/cross.log" | head -5
if [ "${BENCH_ONLY:-0}" = 0 ]; then
s=$SECONDS
bash scripts/gpu/attention.sh ${STEPS:-tests} > "$OUT/checks.log" 2>&1
echo "checks rc=$? $((SECONDS-s))s"; cat "$OUT/checks.log"
for tool in memcheck racecheck; do
  s=$SECONDS
  CUTE_ATTN_SHORT=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 gpu-bin/test-attention_run --test-threads=1 --exact attention_run::sm90_cross_tiles > "$OUT/san-$tool-cross.log" 2>&1
  echo "$tool cross rc=$? $((SECONDS-s))s $(grep -E 'SUMMARY' "$OUT/san-$tool-cross.log" | tail -1)"
done
fi
{
s=$SECONDS
timeout 200 gpu-bin/bench_attention --d256 --seq16k --no-cross 2> "$OUT/bench.err"
echo "bench rc=$? $((SECONDS-s))s"
s=$SECONDS
(cd scripts/gpu && timeout 120 python3 torch_attention.py --rounds 5)
echo "torch rc=$? $((SECONDS-s))s"
} > "$OUT/summary.log" 2>&1
cat "$OUT/summary.log"
