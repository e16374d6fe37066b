#!/usr/bin/env bash
# run 10 (branch attn4): the tuning options (3 K/V stages, first S wgmma at scale-d 0, persistent LPT order).
# Tests of the options first, then the bench alone, torch, then memcheck/racecheck of the new variants.
set -uo pipefail
B=gpu-bin-attn4
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin"
chmod +x $B/test-attention_run $B/bench_attention
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/run10-gpu.txt" 2>&1
timeout 70 $B/test-attention_run --test-threads=3 sm90_tuning_options persistent_tiles schedules_small > "$OUT/run10-tests.log" 2>&1
echo "tests rc=$? at ${SECONDS}s: $(grep -E '^test result' $OUT/run10-tests.log)"
grep -E "FAIL|panicked|^test .* \.\.\. " "$OUT/run10-tests.log" | head -20
timeout 110 $B/bench_attention --d256 --seq16k --stages3 --sd0 --lpt > "$OUT/run10-bench.log" 2>&1
echo "bench rc=$? at ${SECONDS}s"; cat "$OUT/run10-bench.log"
timeout 40 python3 scripts/gpu/torch_attention.py --rounds 3 > "$OUT/run10-torch.log" 2>&1
echo "torch rc=$? at ${SECONDS}s"; tail -20 "$OUT/run10-torch.log"
left=$(( 285 - SECONDS )); [ $left -gt 100 ] && left=100
timeout $left compute-sanitizer --tool memcheck --error-exitcode 9 $B/test-attention_run --test-threads=1 --exact attention_run::sm90_tuning_options > "$OUT/run10-memcheck-tuning.log" 2>&1 &
m=$!
timeout $left compute-sanitizer --tool racecheck --error-exitcode 9 $B/test-attention_run --test-threads=1 --exact attention_run::sm90_tuning_options > "$OUT/run10-racecheck-tuning.log" 2>&1 &
r=$!
wait $m; echo "memcheck rc=$? at ${SECONDS}s: $(grep -E 'ERROR SUMMARY|^test result' $OUT/run10-memcheck-tuning.log | tr '\n' ' ')"
wait $r; echo "racecheck rc=$? at ${SECONDS}s: $(grep -E 'RACECHECK SUMMARY|^test result' $OUT/run10-racecheck-tuning.log | tr '\n' ' ')"
