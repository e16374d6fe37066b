#!/usr/bin/env bash
# run134b: ncu at 4096³, static against dynamic tiles: cycles, L2 sectors requested by the SMs, sectors the L2
# request coalescer merged across SMs (`ONLY_4096=1 bench_hopper dynamic`, a filter of that run only).
set -uo pipefail
OUT="${OUT:-/tmp/run134}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run134
log="$OUT/ncu-dynamic-4096.log"; s=$SECONDS
ONLY_4096=1 timeout 200 ncu --kernel-id '::regex:cute_hgemm:5' \
  --metrics sm__cycles_elapsed.max,lts__t_sectors_srcunit_tex.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,lts__t_sector_hit_rate.pct \
  gpu-bin/bench_hopper dynamic > "$log" 2>&1
echo "ncu rc=$? $((SECONDS-s))s"
grep -E "^  [a-zA-Z_0-9]+.*\(|sm__|lts__|lrc__" "$log" | sed 's/  */ /g; s/, Context.*//; s/ (132, 1, 1)x(384, 1, 1)//'
