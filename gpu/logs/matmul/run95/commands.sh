#!/usr/bin/env bash
# run95 (session 9, H200): narrow sides in K slices (a narrow GEMM whose tiles leave most SMs idle):
# test-matmul_run, memcheck + racecheck of the narrow and split-K tests, bench_matmul --skinny and a
# decode sweep; then the SM clock and instant power under 2.6-s samples of our d = 256 attention and of
# cuDNN's (why d = 256 loses 4-8 % in the steady state, run 94).
set -uo pipefail
OUT="${OUT:-/tmp/run95}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run95
s=$SECONDS; timeout 200 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
grep -E "FAILED|panicked" "$OUT/test-matmul_run.log" | head -5
for tool in memcheck racecheck; do
  for t in narrow split_k; do
    s=$SECONDS; timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 gpu-bin/test-matmul_run --test-threads=1 $t > "$OUT/san-$tool-$t.log" 2>&1
    echo "$tool $t rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-$tool-$t.log" | tail -1) $(grep -E '^test result' "$OUT/san-$tool-$t.log")"
  done
done
s=$SECONDS; timeout 200 gpu-bin/bench_matmul --skinny > "$OUT/bench_matmul-skinny.log" 2>&1
echo "skinny rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)" "$OUT/bench_matmul-skinny.log" | cut -d'|' -f2-8
for sh in 1,16,4096,4096 1,1,4096,4096 1,32,4096,11008 1,16,11008,4096 1,16,8192,8192; do
  timeout 60 gpu-bin/bench_matmul --shape $sh 2>&1 | grep "^| bf16" >> "$OUT/decode-sweep.log"
done
cut -d'|' -f2-8 "$OUT/decode-sweep.log"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw.instant,temperature.gpu --format=csv,noheader -lms 50 > "$OUT/smi.csv" 2>&1 &
smi=$!
date +%T.%N > "$OUT/phases.txt"
timeout 60 gpu-bin/bench_attention --d 256 --seq16k --quick --sample-tflop 2000 > "$OUT/attention-long.log" 2> "$OUT/attention-long.err"; date +%T.%N >> "$OUT/phases.txt"
(cd scripts/gpu && timeout 60 python3 torch_attention.py --quick --dims 256 --seqs 16384 --rounds 1 --sample-tflop 2000) > "$OUT/torch-long.log" 2>&1; date +%T.%N >> "$OUT/phases.txt"
kill $smi
cat "$OUT/attention-long.log" "$OUT/torch-long.log" "$OUT/phases.txt"; head -3 "$OUT/smi.csv"
