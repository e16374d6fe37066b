#!/usr/bin/env bash
# run131b: the L2 request coalescer's counters (GH100 `lrc__*`) for our two clustered kernels and cuBLASLt's two at 4096³.
set -uo pipefail
OUT="${OUT:-/tmp/run131}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run131
ncu --query-metrics --chip gh100 > "$OUT/query-metrics.txt" 2>&1
grep -i "^lrc\|multicast\|^lts__t_sectors_srcunit" "$OUT/query-metrics.txt" | head -40
M=$(grep -o "^lrc__[a-z_0-9]*" "$OUT/query-metrics.txt" | sort -u | sed 's/$/.sum/' | paste -sd,)
echo "metrics: $M"
log="$OUT/ncu-lrc-4096.log"
timeout 300 ncu --kernel-id '::regex:(cute_hgemm_bf16_bf16_128x256x64_c2_s4_g8_p_ts_cl2$|cute_hgemm_bf16_bf16_128x128x64_c2pp_s6_g8_p_ts_cl2_wgb|nvjet_sm90_tst_128x128|nvjet_sm90_tst_128x256):3' \
  --metrics "$M,lts__t_sectors_srcunit_tex.sum,lts__t_requests_srcunit_tex.sum" gpu-bin/bench_matmul --tuned --shape 1,4096,4096,4096 --sample-tflop 1 > "$log" 2>&1
echo "ncu rc=$?"
grep -E "^  [a-zA-Z_0-9]+.*\(|lrc__|lts__" "$log" | sed 's/  */ /g; s/, Context.*//' | head -120
