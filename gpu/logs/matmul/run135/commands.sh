#!/usr/bin/env bash
# run135 (session 15): the raster along N (`HopperConfig::raster_n`: consecutive tiles share their A rows, so
# with B multicast in 2-CTA clusters the L2 request coalescer can merge the A reads of clusters in step;
# run134: unclustered kernels get 15-26 M merged sectors at 4096³ from consecutive CTAs sharing B, clustered
# ones 2.5-6.4 M). ncu at 4096³, `bench_hopper rasters` (along M or N, interleaved with cublasGemmEx), and
# exactness (`check small`, with three raster-N configurations).
set -uo pipefail
OUT="${OUT:-/tmp/run135}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run135
log="$OUT/ncu-rasters-4096.log"; s=$SECONDS
ONLY_4096=1 timeout 200 ncu --kernel-id '::regex:cute_hgemm:5' \
  --metrics sm__cycles_elapsed.max,lts__t_sectors_srcunit_tex.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum \
  gpu-bin/bench_hopper rasters > "$log" 2>&1
echo "ncu rc=$? $((SECONDS-s))s"
grep -E "^  [a-zA-Z_0-9]+.*\(|sm__|lts__|lrc__|dram__" "$log" | sed 's/  */ /g; s/, Context.*//; s/ (132, 1, 1)x(384, 1, 1)//'
s=$SECONDS; timeout 200 gpu-bin/bench_hopper rasters > "$OUT/rasters.log" 2>&1
echo "rasters rc=$? $((SECONDS-s))s"; grep -vE "^device" "$OUT/rasters.log" | sed 's/ TFLOP\/s (/ (/; s/ of cuBLAS; grid [0-9]*;//; s/max rel diff/diff/'
s=$SECONDS; timeout 120 gpu-bin/bench_hopper check small > "$OUT/check-small.log" 2>&1
echo "check small rc=$? $((SECONDS-s))s: $(tail -1 "$OUT/check-small.log") ($(grep -c g8n "$OUT/check-small.log") raster-N checks)"; grep -E "FAIL|wrong \(" "$OUT/check-small.log" | grep -v " 0 wrong" | head -5
