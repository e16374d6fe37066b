#!/usr/bin/env bash
# run101 (session 10): stream-K for FP8 per-tensor (the plan's heuristic, the GEMM call's workspace
# shared with the 16-bit path): test-fp8_run (a 2304x2304x512 call the plan cuts), memcheck of it,
# bench_fp8 check small (stream-K configs), bench_fp8 streamk; test-matmul_run again (the workspace
# getter is shared now) and a second bench_hopper streamk (the 16-bit A/B on a second machine/call).
set -uo pipefail
OUT="${OUT:-/tmp/run101}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run101
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
s=$SECONDS; timeout 200 gpu-bin/test-fp8_run --test-threads=1 > "$OUT/test-fp8_run.log" 2>&1
echo "test-fp8_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-fp8_run.log")"
grep -E "FAILED|panicked" -A3 "$OUT/test-fp8_run.log" | head -12
s=$SECONDS; timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 gpu-bin/test-fp8_run --test-threads=1 stream_k > "$OUT/san-memcheck-fp8-stream_k.log" 2>&1
echo "memcheck fp8 stream_k rc=$? $((SECONDS-s))s: $(grep -E 'ERROR SUMMARY' "$OUT/san-memcheck-fp8-stream_k.log" | tail -1) $(grep -E '^test result' "$OUT/san-memcheck-fp8-stream_k.log")"
s=$SECONDS; timeout 200 gpu-bin/bench_fp8 check small > "$OUT/fp8-check-small.log" 2>&1
echo "fp8 check small rc=$? $((SECONDS-s))s: $(tail -1 "$OUT/fp8-check-small.log") ($(grep -c _sk "$OUT/fp8-check-small.log") stream-K lines)"; grep -iE "fail" "$OUT/fp8-check-small.log" | head -5
s=$SECONDS; timeout 150 gpu-bin/bench_fp8 streamk > "$OUT/fp8-streamk.log" 2>&1
echo "fp8 streamk rc=$? $((SECONDS-s))s"; grep sweep "$OUT/fp8-streamk.log" | sed 's/cute_hgemm_e4m3_bf16_//'
s=$SECONDS; timeout 200 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
s=$SECONDS; timeout 200 gpu-bin/bench_hopper streamk > "$OUT/streamk.log" 2>&1
echo "streamk rc=$? $((SECONDS-s))s"; grep -v "^device" "$OUT/streamk.log" | sed 's/cute_hgemm_bf16_bf16_//; s/ TFLOP\/s//; s/max rel diff //; s/ of cuBLAS; grid/;/'
