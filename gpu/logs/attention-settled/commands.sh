#!/usr/bin/env bash
# Session 11: the attention sweep with settled samples (every timed sample after an untimed one of the
# same contender, in bench_attention and in torch_attention.py): ours, then torch SDPA (cuDNN, flash).
set -uo pipefail
OUT="${OUT:-/tmp/attention-settled}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-attn
s=$SECONDS; timeout 190 gpu-bin/bench_attention --d256 --seq16k > "$OUT/bench_attention.log" 2>&1
# its table's rows are space-separated (session 21: the `|` filter printed none of them)
echo "bench_attention rc=$? $((SECONDS-s))s"; sed -n '/TFLOP\/s/,$p' "$OUT/bench_attention.log" | head -40
s=$SECONDS; timeout 180 python3 scripts/gpu/torch_attention.py > "$OUT/torch_attention.log" 2>&1
echo "torch rc=$? $((SECONDS-s))s"; grep -vE "^\s*$" "$OUT/torch_attention.log" | head -40
