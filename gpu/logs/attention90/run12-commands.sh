#!/usr/bin/env bash
# run 12 (branch attn4): runs 10-11 spent their time in NVRTC (no on-disk cache: HOME unset there). Here the
# CUBIN cache is named (CUTE_CACHE_DIR) and filled in parallel (quick benches, one per option, --no-default)
# while the option tests and memcheck/racecheck run; then the full bench alone (every option interleaved
# with the default, 5 rounds), then torch.
set -uo pipefail
B=gpu-bin-attn4
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin" CUTE_CACHE_DIR=/tmp/cute-cache-attn4
mkdir -p $CUTE_CACHE_DIR
chmod +x $B/test-attention_run $B/bench_attention
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/run12-gpu.txt" 2>&1
Q="--quick --d256 --seq16k"
timeout 120 $B/bench_attention $Q > /dev/null 2> "$OUT/run12-warm.err" & w1=$!
timeout 120 $B/bench_attention $Q --no-default --stages3 > /dev/null 2>> "$OUT/run12-warm.err" & w2=$!
timeout 120 $B/bench_attention $Q --no-default --sd0 > /dev/null 2>> "$OUT/run12-warm.err" & w3=$!
timeout 120 $B/bench_attention $Q --no-default --lpt 8 > /dev/null 2>> "$OUT/run12-warm.err" & w4=$!
timeout 120 $B/bench_attention $Q --no-default --lpt 32 > /dev/null 2>> "$OUT/run12-warm.err" & w5=$!
timeout 120 $B/bench_attention $Q --no-default --persistent > /dev/null 2>> "$OUT/run12-warm.err" & w6=$!
timeout 150 $B/test-attention_run --test-threads=4 --nocapture sm90_tuning > "$OUT/run12-tests.log" 2>&1 & t=$!
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test-attention_run --test-threads=1 --exact --nocapture attention_run::sm90_tuning_all > "$OUT/run12-memcheck-all.log" 2>&1 & m=$!
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test-attention_run --test-threads=1 --exact --nocapture attention_run::sm90_tuning_all > "$OUT/run12-racecheck-all.log" 2>&1 & r=$!
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test-attention_run --test-threads=1 --exact --nocapture attention_run::sm90_tuning_lpt > "$OUT/run12-racecheck-lpt.log" 2>&1 & r2=$!
for p in $w1 $w2 $w3 $w4 $w5 $w6; do wait $p; echo "warm rc=$? at ${SECONDS}s"; done
echo "warm rows: $(grep -c ms $OUT/run12-warm.err)"
wait $t; echo "tests rc=$? at ${SECONDS}s: $(grep -E '^test result' $OUT/run12-tests.log)"; grep -E "^test |FAIL|panicked" "$OUT/run12-tests.log" | head -20; echo "cases: $(grep -c 'max|O-ref|' $OUT/run12-tests.log)"
wait $m; echo "memcheck all rc=$? at ${SECONDS}s: $(grep -E 'ERROR SUMMARY|^test result' $OUT/run12-memcheck-all.log | tr '\n' ' ') cases $(grep -c 'max|O-ref|' $OUT/run12-memcheck-all.log)"
wait $r; echo "racecheck all rc=$? at ${SECONDS}s: $(grep -E 'RACECHECK SUMMARY|^test result' $OUT/run12-racecheck-all.log | tr '\n' ' ') cases $(grep -c 'max|O-ref|' $OUT/run12-racecheck-all.log)"
wait $r2; echo "racecheck lpt rc=$? at ${SECONDS}s: $(grep -E 'RACECHECK SUMMARY|^test result' $OUT/run12-racecheck-lpt.log | tr '\n' ' ') cases $(grep -c 'max|O-ref|' $OUT/run12-racecheck-lpt.log)"
timeout 70 $B/bench_attention --d256 --seq16k --persistent --stages3 --sd0 --lpt 8 --lpt 32 > "$OUT/run12-bench.log" 2> "$OUT/run12-bench.err"
echo "bench rc=$? at ${SECONDS}s"; cat "$OUT/run12-bench.log"; tail -n 1 "$OUT/run12-bench.err"
timeout 35 python3 scripts/gpu/torch_attention.py --rounds 3 > "$OUT/run12-torch.log" 2>&1
echo "torch rc=$? at ${SECONDS}s"; tail -n 20 "$OUT/run12-torch.log"
