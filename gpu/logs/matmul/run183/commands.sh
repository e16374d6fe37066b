#!/usr/bin/env bash
# run183 (session 21, H100): the examples that call kernels, run on the GPU. Then: are run181's split-K rows (1024x1024x65536 0.90, 256x2048x32768 0.94 in the
# full table; 1.05 / 1.01 alone under the tuner in run182) the kernels or the table's place? The heuristic's
# kernels alone (`--shape`, twice each), then `--skinny` (the thin and split shapes in one process). Then
# d = 256 attention (run181: 16k non-causal 0.97 of cuDNN) with the schedule variants side by side.
set -uo pipefail
OUT="${OUT:-/tmp/run183}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run183
# the examples on the GPU (built here: `cargo build --release --features cuda --example attention
# --example tiled_copy_kernel`, the user crate with CARGO_TARGET_DIR=target/user-crate)
for e in attention tiled_copy_kernel cute-user-example; do
  t=$SECONDS; timeout 60 gpu-bin/$e > "$OUT/example-$e.log" 2>&1
  echo "== example $e rc=$? $((SECONDS-t))s"; tail -6 "$OUT/example-$e.log"
done
for s in 1,1024,1024,65536 1,256,2048,32768 1,1024,1024,65536 1,256,2048,32768; do
  t=$SECONDS; timeout 60 gpu-bin/bench_matmul --shape $s > "$OUT/shape-${s//,/x}-$t.log" 2>&1
  echo "== $s rc=$? $((SECONDS-t))s"; grep -E "^\| bf16" "$OUT/shape-${s//,/x}-$t.log" | cut -d'|' -f1-9
done
t=$SECONDS; timeout 120 gpu-bin/bench_matmul --skinny > "$OUT/skinny.log" 2>&1
echo "== skinny rc=$? $((SECONDS-t))s"; grep -E "^\| (bf16|f16)" "$OUT/skinny.log" | cut -d'|' -f1-9
t=$SECONDS; timeout 150 gpu-bin/bench_attention --d 256 --seq16k --control --persistent --dynamic --no-narrow-tail > "$OUT/attention-d256.log" 2>&1
echo "== attention d256 rc=$? $((SECONDS-t))s"; grep -A40 "TFLOP/s" "$OUT/attention-d256.log" | grep -v "^default s="
