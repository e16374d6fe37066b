#!/usr/bin/env bash
# Builds examples/candle_matmul in release on a machine without CUDA (nvcc from PyPI, link-time stubs
# of the CUDA libraries) and copies it, with its launcher, into gpu-bin/ (git-ignored) for a GPU machine
# without Rust:
#   scripts/gpu/build-candle.sh
# There: gpu-bin/run-candle-matmul.sh [ITERS [autotune]] (finds the CUDA libraries, runs the binary).
# CUDA_COMPUTE_CAP (default 90: H100/H200) is the architecture candle's own kernels are compiled for.
set -euo pipefail
cd "$(dirname "$0")/../.."
source .ci/nvrtc.sh
source .ci/nvcc.sh
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}"
build() { cargo build --release --features candle --example candle_matmul "$@"; }
# The first link fails where the stubs are missing or stale (the symbols are known only once cudarc is
# compiled): write them from this build's objects and link again (only the link is redone).
if ! build 2>/tmp/cute-candle-build.log; then
  grep -q "undefined reference\|cannot find -l" /tmp/cute-candle-build.log || { cat /tmp/cute-candle-build.log >&2; exit 1; }
  .ci/cuda-link-stubs.sh target/release
  build
fi
mkdir -p gpu-bin
cp target/release/examples/candle_matmul gpu-bin/candle_matmul
cp scripts/gpu/run-candle-matmul.sh gpu-bin/run-candle-matmul.sh
echo "gpu-bin/candle_matmul: $(du -h gpu-bin/candle_matmul | cut -f1); needs at run time:"
readelf -d gpu-bin/candle_matmul | grep NEEDED
