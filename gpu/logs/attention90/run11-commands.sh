#!/usr/bin/env bash
# run 11 (branch attn4): run 10 timed out in NVRTC compiles (tests 70 s, bench 110 s). Here: the kernels of each
# option compiled in parallel first (quick benches, one per option: the on-disk CUBIN cache), then the
# full bench alone, torch, then the option tests (--nocapture) and memcheck/racecheck of them in parallel.
set -uo pipefail
B=gpu-bin-attn4
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin"
chmod +x $B/test-attention_run $B/bench_attention
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/run11-gpu.txt" 2>&1
pids=""
for f in --stages3 --sd0 --lpt ""; do
  n=${f#--}; n=${n:-default}
  timeout 100 $B/bench_attention --quick --d256 --seq16k $f > "$OUT/run11-warm-$n.log" 2> "$OUT/run11-warm-$n.err" &
  pids="$pids $!"
done
for p in $pids; do wait $p; echo "warm pid $p rc=$? at ${SECONDS}s"; done
for f in $OUT/run11-warm-*.err; do echo "$f: $(wc -l < $f) rows, last: $(tail -n 1 $f)"; done
timeout 80 $B/bench_attention --d256 --seq16k --stages3 --sd0 --lpt > "$OUT/run11-bench.log" 2> "$OUT/run11-bench.err"
echo "bench rc=$? at ${SECONDS}s"; cat "$OUT/run11-bench.log"; tail -n 2 "$OUT/run11-bench.err"
timeout 40 python3 scripts/gpu/torch_attention.py --rounds 3 > "$OUT/run11-torch.log" 2>&1
echo "torch rc=$? at ${SECONDS}s"; tail -n 20 "$OUT/run11-torch.log"
left=$(( 288 - SECONDS ))
timeout $left $B/test-attention_run --test-threads=1 --nocapture sm90_tuning_options > "$OUT/run11-tests.log" 2>&1 &
t=$!
timeout $left compute-sanitizer --tool memcheck --error-exitcode 9 $B/test-attention_run --test-threads=1 --exact --nocapture attention_run::sm90_tuning_options > "$OUT/run11-memcheck-tuning.log" 2>&1 &
m=$!
timeout $left compute-sanitizer --tool racecheck --error-exitcode 9 $B/test-attention_run --test-threads=1 --exact --nocapture attention_run::sm90_tuning_options > "$OUT/run11-racecheck-tuning.log" 2>&1 &
r=$!
wait $t; echo "tests rc=$? at ${SECONDS}s: $(grep -E '^test result' $OUT/run11-tests.log)"; grep -E "sm90_tuning_options:|FAIL|panicked" "$OUT/run11-tests.log" | head -20
wait $m; echo "memcheck rc=$? at ${SECONDS}s: $(grep -E 'ERROR SUMMARY|^test result|sm90_tuning_options:' $OUT/run11-memcheck-tuning.log | tr '\n' ' ')"
wait $r; echo "racecheck rc=$? at ${SECONDS}s: $(grep -E 'RACECHECK SUMMARY|^test result|sm90_tuning_options:' $OUT/run11-racecheck-tuning.log | tr '\n' ' ')"
