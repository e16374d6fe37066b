#!/usr/bin/env bash
# run131 (session 15): where our L2 throughput comes from at 4096³ (ours 128x128 ping-pong cl2 61 %, cuBLASLt's
# nvjet 128x128 48 %; 128x256 cl2 44 % against 38 %, run119): the breakdown of lts__throughput and L2 sector
# counts by source and operation, for our two clustered kernels and cuBLASLt's two.
set -uo pipefail
OUT="${OUT:-/tmp/run131}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run131
M=lts__t_sectors.sum,lts__t_requests.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed
for shape in 1,4096,4096,4096; do
  s=$SECONDS; log="$OUT/ncu-l2-${shape//,/x}.log"
  timeout 300 ncu --kernel-id '::regex:(cute_hgemm_bf16_bf16_128x256x64_c2_s4_g8_p_ts_cl2$|cute_hgemm_bf16_bf16_128x128x64_c2pp_s6_g8_p_ts_cl2_wgb|nvjet_sm90_tst_128x128|nvjet_sm90_tst_128x256):3' \
    --metrics "$M" gpu-bin/bench_matmul --tuned --shape $shape --sample-tflop 1 > "$log" 2>&1
  echo "ncu $shape rc=$? $((SECONDS-s))s"
  grep -E "^  [a-zA-Z_0-9]+.*\(|lts__|dram__|smsp__inst|l1tex__" "$log" | sed 's/  */ /g; s/, Context.*//' | head -120
done
