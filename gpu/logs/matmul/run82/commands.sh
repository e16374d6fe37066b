#!/usr/bin/env bash
# run82 (session 8, H200): the GEMM benchmark with the ping-pong tiles' broadcast warp group index (bench_matmul,
# all shapes, bf16 and f16, then the host cost), as final8's.
OUT="${OUT:-/tmp/run82}" bash gpu/logs/final8/commands.sh
