#!/usr/bin/env bash
# The code of both runs is in run172/ffma-yield.patch (not kept: every edit was slower than ptxas's own hints).
# run171 (session 20): block-scaled FP8 with the promotion's FFMAs made to yield after ptxas
# (cute_gpu::sass, HopperConfig::ffma_yield): correctness of the yielding kernels (`bench_fp8 check
# small block yielding`, then `check block yielding` on the large shapes), and the plan's block kernel
# with every / every second / no reuse-caching FFMA yielding beside per-tensor (`bench_fp8 yield`).
set -uo pipefail
OUT="${OUT:-/tmp/run171}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run171
s=$SECONDS; timeout 150 gpu-bin/bench_fp8 check small block yielding > "$OUT/check.log" 2>&1
echo "check small rc=$? $((SECONDS-s))s"; grep -c " OK" "$OUT/check.log"; grep -E "FAIL|error|check:" "$OUT/check.log" | head
s=$SECONDS; timeout 240 gpu-bin/bench_fp8 yield > "$OUT/yield.log" 2>&1
echo "yield rc=$? $((SECONDS-s))s"; grep sweep "$OUT/yield.log"
