#!/usr/bin/env bash
# run 7: tests (persistent_tiles first, alone), bench with --persistent when it passed, torch
set -uo pipefail
B=.attn-xfer
export CUTE_REQUIRE_GPU=1 PATH="$PATH:/usr/local/cuda/bin"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
timeout 60 $B/test-attention_run --exact attention_run::persistent_tiles --nocapture > "$OUT/test-persistent.log" 2>&1
prc=$?; echo "persistent_tiles rc=$prc: $(grep -E '^test result' $OUT/test-persistent.log)"; grep -E "FAIL" $OUT/test-persistent.log | head -5
timeout 150 $B/test-attention_run --test-threads=8 --skip persistent_tiles > "$OUT/test-attention_run.log" 2>&1
echo "tests rc=$?: $(grep -E '^test result' $OUT/test-attention_run.log)"; grep -E "FAIL|panicked" $OUT/test-attention_run.log | head -5
extra=""; [ $prc = 0 ] && extra="--persistent"
timeout 100 $B/bench_attention --d256 --seq16k $extra > "$OUT/bench_attention.log" 2>&1
echo "bench rc=$?"; cat "$OUT/bench_attention.log"
timeout 90 python3 scripts/gpu/torch_attention.py > "$OUT/torch_attention.log" 2>&1
echo "torch rc=$?"; cat "$OUT/torch_attention.log"
