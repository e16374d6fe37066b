#!/usr/bin/env bash
# (The suspend-time hint was reverted after this run: it changed neither the instruction counts nor the cycles.)
# run132 (session 15): mbar_wait with a suspend-time hint (the waiting thread sleeps in the barrier unit
# instead of re-testing). ncu instruction counts and cycles at 4096³ (run131: ours 22.1 M / 23.9 M warp
# instructions, 27.1 active threads per warp), the call's GPU tests, then the GEMM table.
set -uo pipefail
OUT="${OUT:-/tmp/run132}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run132
if [ -z "${TABLES_ONLY:-}" ]; then
  log="$OUT/ncu-4096.log"; s=$SECONDS
  timeout 200 ncu --kernel-id '::regex:(cute_hgemm_bf16_bf16_128x256x64_c2_s4_g8_p_ts_cl2$|cute_hgemm_bf16_bf16_128x128x64_c2pp_s6_g8_p_ts_cl2_wgb|nvjet_sm90_tst_128x128|nvjet_sm90_tst_128x256):3' \
    --metrics smsp__inst_executed.sum,sm__cycles_elapsed.max,smsp__thread_inst_executed_per_inst_executed.ratio,lts__t_sectors_srcunit_tex.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum \
    gpu-bin/bench_matmul --tuned --shape 1,4096,4096,4096 --sample-tflop 1 > "$log" 2>&1
  echo "ncu rc=$? $((SECONDS-s))s"
  grep -E "^  [a-zA-Z_0-9]+.*\(|smsp__|sm__|lts__|lrc__" "$log" | sed 's/  */ /g; s/, Context.*//; s/ (132, 1, 1)x(384, 1, 1)//'
  s=$SECONDS; timeout 150 gpu-bin/test-matmul_run --test-threads=1 > "$OUT/test-matmul_run.log" 2>&1
  echo "test-matmul_run rc=$? $((SECONDS-s))s: $(grep -E '^test result' "$OUT/test-matmul_run.log")"
  grep -E "FAILED|panicked" -A3 "$OUT/test-matmul_run.log" | head -12
fi
s=$SECONDS; timeout 230 gpu-bin/bench_matmul > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f2-8 | sed 's/ (8 algos)//'
if [ -n "${TABLES_ONLY:-}" ]; then
  s=$SECONDS; timeout 170 gpu-bin/bench_fp8 bench > "$OUT/bench_fp8.log" 2>&1
  echo "bench_fp8 rc=$? $((SECONDS-s))s"; grep -E "^\| [0-9]" "$OUT/bench_fp8.log" | tail -5 | cut -d'|' -f2-10
fi
