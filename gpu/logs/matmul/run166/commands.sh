#!/usr/bin/env bash
# run166 (session 19): the second GEMM table with programmatic dependent launch (the plan's 64x128 tile
# now launched without it), each row with the A/B against the call without it; the FP8 table (per-tensor
# and block-scaled against cuBLASLt, `bench_fp8 bench`: the FP8 kernels take dependent launch and, for
# per-tensor 8192³ and 8192x14336x4096, session 18's probe-ahead ping-pong); the FP8 call tests.
set -uo pipefail
OUT="${OUT:-/tmp/run166}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run166
s=$SECONDS; timeout 100 gpu-bin/test-fp8_run --test-threads=1 > "$OUT/test-fp8_run.log" 2>&1
echo "test-fp8_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-fp8_run.log")"
grep -hE "FAILED|panicked" -A6 "$OUT/test-fp8_run.log" | head -10
s=$SECONDS; timeout 280 gpu-bin/bench_matmul --dependent-launch-ab > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|dependent|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f1-8 | sed 's/ (8 algos)//'
s=$SECONDS; timeout 200 gpu-bin/bench_fp8 bench > "$OUT/bench_fp8.log" 2>&1
echo "bench_fp8 rc=$? $((SECONDS-s))s"; grep -E "^\|" "$OUT/bench_fp8.log" | tail -8
