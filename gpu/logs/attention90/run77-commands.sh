#!/usr/bin/env bash
# run77 (session 7): the warp group index broadcast from lane 0 (arch::sync::WARP_GROUP_INDEX, CUTLASS's
# canonical_warp_group_idx) in every SM90 kernel (attention, GEMM, FP8 GEMM). New binaries in gpu-bin/, the
# previous commit's (7966592, the same kernels but `wg = threadIdx.x / 128`) in gpu-bin/old/. The three GPU test
# binaries at once, then old and new benchmark processes in turns: attention (the sweep, default plan) x2 each, the
# GEMM call on three bf16 shapes (ours against cuBLASLt in each process); torch SDPA last.
set -uo pipefail
OUT="${OUT:-/tmp/run77}"; mkdir -p "$OUT"; export CUTE_REQUIRE_GPU=1
s=$SECONDS
for t in attention_run matmul_run fp8_run; do timeout 240 gpu-bin/test-$t --test-threads=4 > "$OUT/test-$t.log" 2>&1 & done; wait
for t in attention_run matmul_run fp8_run; do echo "test-$t: $(grep -E '^test result' "$OUT/test-$t.log" | tail -1)"; done
echo "tests $((SECONDS-s))s"
for i in 1 2; do
  for v in old new; do
    b=gpu-bin; [ $v = old ] && b=gpu-bin/old
    echo "== attention $v $i"; CUTE_CACHE_DIR=/tmp/cache-$v timeout 100 $b/bench_attention --d256 --seq16k 2>/dev/null | tail -18
  done
done
for shape in 1,8192,14336,4096 1,16384,8192,1024 1,8192,8192,8192; do
  for v in old new; do
    b=gpu-bin; [ $v = old ] && b=gpu-bin/old
    echo "== matmul $v $shape"; CUTE_CACHE_DIR=/tmp/cache-$v timeout 100 $b/bench_matmul --shape $shape 2>&1 | tail -6
  done
done
echo "tests+bench $((SECONDS-s))s"
(cd scripts/gpu && timeout 60 python3 torch_attention.py --rounds 5 | tail -19)
