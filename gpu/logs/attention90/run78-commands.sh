#!/usr/bin/env bash
# run78 (session 8, H200): the warp group index broadcast from lane 0 as a config field everywhere
# (Sm90AttentionConfig::broadcast_wg, HopperConfig::broadcast_wg). The attention tests (persistent d = 256
# now broadcast, the producer's mailbox address re-read), then A/B in one process each: bench_attention with
# --wg-plain and --wg-broadcast (for d = 64/256 `wg_plain` is the A/B and `wg_broadcast` repeats the default,
# for d = 128 the other way round) in two processes, the GEMM tiles (bench_hopper broadcast) and the FP8
# tiles (bench_fp8 broadcast); torch SDPA last.
set -uo pipefail
OUT="${OUT:-/tmp/run78}"; mkdir -p "$OUT"; export CUTE_REQUIRE_GPU=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1; cat "$OUT/gpu.txt"
s=$SECONDS
timeout 200 gpu-bin/test-attention_run --test-threads=8 > "$OUT/test-attention_run.log" 2>&1
echo "test-attention_run rc=$? $(grep -E '^test result' "$OUT/test-attention_run.log" | tail -1) $((SECONDS-s))s"
for i in 1 2; do
  s=$SECONDS
  timeout 150 gpu-bin/bench_attention --d256 --seq16k --wg-plain --wg-broadcast > "$OUT/bench_attention-$i.log" 2> "$OUT/bench_attention-$i.err"
  echo "bench_attention $i rc=$? $((SECONDS-s))s"
done
s=$SECONDS
timeout 200 gpu-bin/bench_hopper broadcast > "$OUT/bench_hopper-broadcast.log" 2>&1
echo "bench_hopper rc=$? $((SECONDS-s))s"
s=$SECONDS
timeout 150 gpu-bin/bench_fp8 broadcast > "$OUT/bench_fp8-broadcast.log" 2>&1
echo "bench_fp8 rc=$? $((SECONDS-s))s"
(cd scripts/gpu && timeout 60 python3 torch_attention.py --rounds 5 > "$OUT/torch.log" 2>&1)
echo "torch rc=$?"
