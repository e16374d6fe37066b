#!/usr/bin/env bash
# run146 (session 17): wave-filling ping-pong widths (128x112, 128x176, direct epilogue; alone and in 2-CTA
# clusters) against the plan's clustered 128x256 and the clustered ping-pong 128x128 at 4096³, 1024x8192²,
# 2048³, 8192³ (`bench_hopper wavefill`), interleaved with cublasGemmEx, one process.
set -uo pipefail
OUT="${OUT:-/tmp/run146}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run146
s=$SECONDS; gpu-bin/bench_hopper wavefill > "$OUT/wavefill.log" 2>&1; echo "wavefill rc=$? $((SECONDS-s))s"
cat "$OUT/wavefill.log"
