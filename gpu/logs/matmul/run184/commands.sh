#!/usr/bin/env bash
# run184 (session 21, H100: asked as nvidia-h200 after five refused starts of nvidia-h100-x1, an H100 came): the examples that call kernels, on the GPU, then run181's whole table again
# (RUN=2: the second run of the two-run rule, torch_fp8.py with settled 40-TFLOP samples).
set -uo pipefail
OUT="${OUT:-/tmp/run184}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run184
# built here: `cargo build --release --features cuda --example attention --example tiled_copy_kernel`,
# the user crate with CARGO_TARGET_DIR=target/user-crate; copied into gpu-bin/
for e in attention tiled_copy_kernel cute-user-example; do
  t=$SECONDS; timeout 60 gpu-bin/$e > "$OUT/example-$e.log" 2>&1
  echo "== example $e rc=$? $((SECONDS-t))s"; tail -4 "$OUT/example-$e.log"
done
RUN=2 OUT="$OUT" bash gpu/logs/matmul/run181/commands.sh
# Note: the call's $OUT held ten files and eight came back: attention-2/bench_attention.log and
# attention-2/torch_attention.log were left out (torch's table is in summary.txt; ours was not printed
# there, since bench_attention's rows are not `|` rows). Since then run181's commands end with
# scripts/gpu/pack_out.sh, which packs such a folder into one archive.
