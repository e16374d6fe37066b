#!/usr/bin/env bash
# The code of both runs is in run172/ffma-yield.patch (not kept: every edit was slower than ptxas's own hints).
# run172 (session 20): block-scaled FP8 with the promotion's FFMAs made to yield after ptxas
# (cute_gpu::sass, HopperConfig::ffma_yield; run171: every / every second caching FFMA yielding lost 1-11 %): correctness of the yielding kernels (`bench_fp8 check
# small block yielding`, then `check block yielding` on the large shapes), and the plan's block kernel
# with the first 9/16 of each run's reuse-caching FFMAs yielding (DeepGEMM's edit) or none of the run yielding
set -uo pipefail
OUT="${OUT:-/tmp/run172}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run172
s=$SECONDS; timeout 150 gpu-bin/bench_fp8 check small block yielding > "$OUT/check.log" 2>&1
echo "check small rc=$? $((SECONDS-s))s"; grep -c " OK" "$OUT/check.log"; grep -E "FAIL|error|check:" "$OUT/check.log" | head
s=$SECONDS; timeout 240 gpu-bin/bench_fp8 yield > "$OUT/yield.log" 2>&1
echo "yield rc=$? $((SECONDS-s))s"; grep sweep "$OUT/yield.log"
