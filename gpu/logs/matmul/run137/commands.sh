#!/usr/bin/env bash
# run137 (session 16): block-scaled FP8 in 2-CTA clusters (B multicast; exactness: `bench_fp8 check small
# block`), FP8 stream-K in clusters with the raster along N (`bench_fp8 streamk`), block scaling's
# cooperative tiles beside per-tensor ones at 8192³ (`bench_fp8 promotion`, then under ncu: L2 throughput
# breakdown, warp states, instructions), and the second GEMM table run of session 15's 16-bit code.
set -uo pipefail
OUT="${OUT:-/tmp/run137}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run137
s=$SECONDS; timeout 90 gpu-bin/bench_fp8 check small block > "$OUT/check-small-block.log" 2>&1
echo "check small block rc=$? $((SECONDS-s))s: $(tail -1 "$OUT/check-small-block.log") ($(grep -c _cl2 "$OUT/check-small-block.log") cl2 lines)"
grep -iE "fail|wrong" "$OUT/check-small-block.log" | head -5
s=$SECONDS; timeout 60 gpu-bin/bench_fp8 promotion > "$OUT/promotion.log" 2>&1
echo "promotion rc=$? $((SECONDS-s))s"; grep -vE "^device" "$OUT/promotion.log" | sed 's/cute_hgemm_e4m3_bf16_//'
s=$SECONDS; timeout 70 gpu-bin/bench_fp8 streamk > "$OUT/streamk.log" 2>&1
echo "streamk rc=$? $((SECONDS-s))s"; grep -vE "^device" "$OUT/streamk.log" | sed 's/cute_hgemm_e4m3_bf16_//'
log="$OUT/ncu-promotion.log"; s=$SECONDS
timeout 100 ncu --kernel-id '::regex:cute_hgemm:4' --section SpeedOfLight --section WarpStateStats \
  --metrics breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,lts__t_requests_srcunit_tex.sum,lts__t_sectors_srcunit_tex.sum,sm__cycles_elapsed.max \
  gpu-bin/bench_fp8 promotion > "$log" 2>&1
echo "ncu rc=$? $((SECONDS-s))s"
grep -E "^  [a-zA-Z_0-9]+.*\(|lts__|smsp__inst|sm__cycles|Stall|Elapsed Cycles|L2 Cache Th|Issue Slots|Warp Cycles Per Issued" "$log" | sed 's/  */ /g; s/, Context.*//' | head -150
s=$SECONDS; timeout 200 gpu-bin/bench_matmul > "$OUT/bench_matmul.log" 2>&1
echo "bench_matmul rc=$? $((SECONDS-s))s"; grep -E "^\| (bf16|f16)|host cost" "$OUT/bench_matmul.log" | cut -d'|' -f2-8 | sed 's/ (8 algos)//'
