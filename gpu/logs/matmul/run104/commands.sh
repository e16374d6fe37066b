#!/usr/bin/env bash
# run104 (session 10): every timed sample after an untimed one of the same contender (settled_ms).
# Control: bench_matmul --stream-k-ab at 8192³, where "ours" and the stream-K handle run the same kernel
# (run 100 read them 777 and 717 TFLOP/s); then the GEMM table and the FP8 table.
set -uo pipefail
OUT="${OUT:-/tmp/run104}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run104
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
s=$SECONDS; timeout 60 gpu-bin/bench_matmul --stream-k-ab --shape 1,8192,8192,8192 > "$OUT/control-8192.log" 2>&1
echo "control rc=$? $((SECONDS-s))s"; grep -E "^\| bf16|stream-K /" "$OUT/control-8192.log" | cut -d'|' -f2-8
s=$SECONDS; timeout 270 gpu-bin/bench_matmul > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f2-8 | sed 's/ (8 algos)//'
s=$SECONDS; timeout 200 gpu-bin/bench_fp8 bench > "$OUT/bench_fp8.log" 2>&1
echo "bench_fp8 rc=$? $((SECONDS-s))s"; grep -E "^\| [0-9]" "$OUT/bench_fp8.log" | tail -5 | cut -d'|' -f2-10
