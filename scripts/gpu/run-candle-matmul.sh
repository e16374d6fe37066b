#!/usr/bin/env bash
# Runs gpu-bin/candle_matmul on a GPU machine: puts the directories holding the CUDA libraries it was
# linked against (libcuda.so.1 from the driver; libnvrtc.so.13, libcublas.so.13, libcublasLt.so.13,
# libcurand.so.10, libcudart.so.13 from a CUDA 13 toolkit or the nvidia-* Python wheels) on
# LD_LIBRARY_PATH, then runs it with the arguments given (ITERS [autotune]).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dirs=""
for lib in libnvrtc.so.13 libcublas.so.13 libcublasLt.so.13 libcurand.so.10 libcudart.so.13; do
  if ! ldconfig -p 2>/dev/null | grep -q "$lib"; then
    found="$(find /usr/local/cuda* /usr/lib /usr/local/lib /opt / -xdev -name "$lib*" -print -quit 2>/dev/null || true)"
    if [ -z "$found" ]; then
      echo "run-candle-matmul: $lib not found on this machine" >&2
      exit 1
    fi
    dirs="$dirs:$(dirname "$found")"
  fi
done
export LD_LIBRARY_PATH="${dirs#:}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
exec "$here/candle_matmul" "$@"
