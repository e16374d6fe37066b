#!/usr/bin/env bash
# run160 (session 18): the TMA-store epilogue's staging boxes per warp (`HopperConfig::staging_boxes`):
# exactness and racecheck of the clustered 128x256 with 3 stages and 4 boxes (`bench_hopper check tiny`,
# with every other checked configuration), then `bench_hopper boxes`: 4 boxes / 3 stages against the plan's 2 boxes /
# 4 stages and 2 boxes / 3 stages for the cooperative 128x256 in clusters (whole tiles and stream-K along
# N), and 4 boxes in the ping-pong 128x192, interleaved with cublasGemmEx on seven of the shapes.
# Not kept (no gain); the code is `staging-boxes.patch` here (apply to a774dfe to run this again).
set -uo pipefail
OUT="${OUT:-/tmp/run160}"; mkdir -p "$OUT"
export CUTE_REQUIRE_GPU=1 CUTE_CACHE_DIR=/tmp/cute-cache-run160
OUT="$OUT" bash scripts/gpu/hopper_ab.sh boxes _eb4   # racecheck on check tiny, then the A/B (inline when it ran; same commands)
