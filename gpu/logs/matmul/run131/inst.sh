#!/usr/bin/env bash
# run131c: instruction mix (ncu InstructionStats: executed SASS per opcode) of our two clustered kernels and
# cuBLASLt's two at 4096³ (ours executes 22.1 M / 23.9 M warp instructions against their 16.5 M / 18.0 M).
set -uo pipefail
OUT="${OUT:-/tmp/run131}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run131
log="$OUT/ncu-inst-4096.log"
timeout 300 ncu --kernel-id '::regex:(cute_hgemm_bf16_bf16_128x256x64_c2_s4_g8_p_ts_cl2$|cute_hgemm_bf16_bf16_128x128x64_c2pp_s6_g8_p_ts_cl2_wgb|nvjet_sm90_tst_128x128|nvjet_sm90_tst_128x256):3' \
  --section InstructionStats --section WarpStateStats --print-details all \
  gpu-bin/bench_matmul --tuned --shape 1,4096,4096,4096 --sample-tflop 1 > "$log" 2>&1
echo "ncu rc=$?"
grep -vE "^==PROF|^\s*$|----" "$log" | sed 's/  */ /g' | grep -v "^ *INF\|^ *OPT\|^          " | tail -260
