#!/usr/bin/env bash
# run138 (session 16): the narrow (decode) tiles in 2-CTA clusters, the narrow operand multicast as
# cuBLASLt's nvjet_sm90_tst_64x16_64x16_2x1 does (`bench_hopper narrow`, interleaved with cublasGemmEx),
# then ncu of the same launches (DRAM and L2 traffic, cycles).
set -uo pipefail
OUT="${OUT:-/tmp/run138}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run138
s=$SECONDS; timeout 120 gpu-bin/bench_hopper narrow > "$OUT/narrow.log" 2>&1
echo "narrow rc=$? $((SECONDS-s))s"; grep -vE "^device" "$OUT/narrow.log" | sed 's/ TFLOP\/s (/ (/; s/ of cuBLAS; grid [0-9]*;//; s/max rel diff/diff/; s/cute_hgemm_bf16_bf16_//'
log="$OUT/ncu-narrow.log"; s=$SECONDS
timeout 150 ncu --kernel-id '::regex:(cute_hgemm|nvjet|splitK):4' \
  --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex.sum,lts__t_sector_hit_rate.pct,launch__grid_size,launch__cluster_dim_x,smsp__inst_executed.sum \
  gpu-bin/bench_hopper narrow > "$log" 2>&1
echo "ncu rc=$? $((SECONDS-s))s"
grep -E "^  [a-zA-Z_0-9]+.*\(|gpu__|sm__|dram__|lts__|launch__|smsp__" "$log" | sed 's/  */ /g; s/, Context.*//' | head -80
