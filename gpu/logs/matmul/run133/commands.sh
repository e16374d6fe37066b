#!/usr/bin/env bash
# run133 (session 15): the raster's group of tile rows (2, 4, 8, 16) for the clustered 128x256 and ping-pong
# 128x128 tiles (`bench_hopper groups`): TFLOP/s interleaved with cublasGemmEx at 4096³ and 8192³, then ncu
# (4096³: cycles, L2 sectors from the SMs, sectors the L2 request coalescer merged across CTAs).
set -uo pipefail
OUT="${OUT:-/tmp/run133}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run133
s=$SECONDS; timeout 200 gpu-bin/bench_hopper groups > "$OUT/groups.log" 2>&1
echo "groups rc=$? $((SECONDS-s))s"; grep -vE "^device" "$OUT/groups.log" | sed 's/ TFLOP\/s (/ (/; s/; max rel diff.*//'
log="$OUT/ncu-groups.log"; s=$SECONDS
timeout 250 ncu --kernel-id '::regex:cute_hgemm:5' \
  --metrics sm__cycles_elapsed.max,lts__t_sectors_srcunit_tex.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,smsp__inst_executed.sum \
  gpu-bin/bench_hopper groups > "$log" 2>&1
echo "ncu rc=$? $((SECONDS-s))s"
grep -E "^  [a-zA-Z_0-9]+.*\(|smsp__|sm__|lts__|lrc__" "$log" | sed 's/  */ /g; s/, Context.*//; s/ (132, 1, 1)x(384, 1, 1)//'
