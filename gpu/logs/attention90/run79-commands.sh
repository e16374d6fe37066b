#!/usr/bin/env bash
# run79 (session 8, H200): the kept broadcast rules (attention: d = 64, d = 256 incl. the plan's persistent causal
# kernels, d = 128 non-causal from 8k keys; GEMM: the ping-pong tiles). The three GPU test binaries, memcheck and
# racecheck on the plan's d = 256 kernels (head_dim_256) and memcheck on d = 128 with 8200 keys
# (long_sequences_d128), the GEMM check under memcheck (small) and racecheck (tiny); then the second A/B process
# of each (bench_attention --wg-plain --wg-broadcast, bench_hopper broadcast) and torch SDPA.
set -uo pipefail
OUT="${OUT:-/tmp/run79}"; mkdir -p "$OUT"; export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1; cat "$OUT/gpu.txt"
s=$SECONDS
timeout 200 gpu-bin/test-attention_run --test-threads=8 > "$OUT/test-attention_run.log" 2>&1 &
timeout 200 gpu-bin/test-matmul_run --test-threads=4 --skip every_alternative_of_the_tuner_is_exact > "$OUT/test-matmul_run.log" 2>&1 &
timeout 200 gpu-bin/test-fp8_run --test-threads=4 > "$OUT/test-fp8_run.log" 2>&1 &
wait
timeout 200 gpu-bin/test-matmul_run --test-threads=1 every_alternative_of_the_tuner_is_exact > "$OUT/test-matmul_run-tuner.log" 2>&1
for t in attention_run matmul_run matmul_run-tuner fp8_run; do echo "test-$t: $(grep -E '^test result' "$OUT/test-$t.log" | tail -1)"; done
echo "tests $((SECONDS-s))s"; s=$SECONDS
for t in head_dim_256 long_sequences_d128; do
  CUTE_ATTN_SHORT=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 gpu-bin/test-attention_run --test-threads=1 --exact attention_run::$t > "$OUT/san-memcheck-$t.log" 2>&1
  echo "memcheck $t rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-$t.log" | tail -1)"
done
CUTE_ATTN_SHORT=1 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 gpu-bin/test-attention_run --test-threads=1 --exact attention_run::head_dim_256 > "$OUT/san-racecheck-head_dim_256.log" 2>&1
echo "racecheck head_dim_256 rc=$? $(grep -E 'RACECHECK SUMMARY' "$OUT/san-racecheck-head_dim_256.log" | tail -1)"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 gpu-bin/bench_hopper check small > "$OUT/san-memcheck-hopper.log" 2>&1
echo "memcheck bench_hopper check small rc=$? $(grep -E 'ERROR SUMMARY|check:' "$OUT/san-memcheck-hopper.log" | tr '\n' ' ')"
timeout 150 compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 9 gpu-bin/bench_hopper check tiny > "$OUT/san-racecheck-hopper.log" 2>&1
echo "racecheck bench_hopper check tiny rc=$? $(grep -E 'RACECHECK SUMMARY|check:' "$OUT/san-racecheck-hopper.log" | tr '\n' ' ')"
echo "sanitizers $((SECONDS-s))s"; s=$SECONDS
timeout 150 gpu-bin/bench_attention --d256 --seq16k --wg-plain --wg-broadcast > "$OUT/bench_attention.log" 2> "$OUT/bench_attention.err"
echo "bench_attention rc=$? $((SECONDS-s))s"
timeout 100 gpu-bin/bench_hopper broadcast > "$OUT/bench_hopper-broadcast.log" 2>&1
echo "bench_hopper rc=$?"
(cd scripts/gpu && timeout 60 python3 torch_attention.py --rounds 5) > "$OUT/torch.log" 2>&1
echo "torch rc=$? $((SECONDS-s))s"
