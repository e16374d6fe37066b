#!/usr/bin/env bash
# Link-time stand-ins for the CUDA libraries that candle's cudarc links (`dynamic-linking`): libcuda,
# libnvrtc, libcublas, libcublasLt, libcurand, so that a binary with the `candle` feature links on a
# machine without the CUDA toolkit or a driver (CI, this build host). Each stub is a shared library
# with the real library's SONAME that defines every symbol of that library the build references (as
# empty functions): the binary records the real names (libcuda.so.1, libcublas.so.13, ...) and binds
# to the real libraries where it runs. The stubs are never for running CUDA work: on the machine
# without a GPU they only let a program start (CPU code and tests); never put them on a GPU machine's
# library path. libcudart, which candle-kernels links, is the real one from the PyPI runtime package.
#
# Usage (after `source .ci/nvcc.sh`, and after the dependencies are built, e.g. `cargo build --lib`):
#   .ci/cuda-link-stubs.sh target/debug     # or target/release
# Writes into $CUDA_HOME/lib (a folder cudarc's build script puts on the link path), and links with the
# run-time names into $CUDA_HOME/lib/stubs-run.
set -euo pipefail
profile="${1:?usage: $0 TARGET_PROFILE_DIR (target/debug, target/release)}"
lib="${CUDA_HOME:?source .ci/nvcc.sh first}/lib"
shopt -s nullglob
objs=("$profile"/deps/libcudarc-*.rlib "$profile"/build/candle-kernels-*/out/libmoe.a)
if [ ${#objs[@]} -eq 0 ]; then
  echo "cuda-link-stubs: no cudarc rlib under $profile/deps: build the dependencies first" >&2
  exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Undefined symbols of cudarc's and candle-kernels' objects (nm complains about the rlibs' metadata
# members: ignored), sorted by the library that defines them.
{ nm -u "${objs[@]}" 2>/dev/null || true; } | awk '{print $NF}' | sort -u | while read -r s; do
  case "$s" in
    cublasLt*) echo "$s" >>"$work/cublasLt" ;;
    cublas*) echo "$s" >>"$work/cublas" ;;
    curand*) echo "$s" >>"$work/curand" ;;
    nvrtc*) echo "$s" >>"$work/nvrtc" ;;
    cuda* | __cuda*) ;; # libcudart: the real one
    cu[A-Z]*) echo "$s" >>"$work/cuda" ;;
  esac
done
for spec in cuda:libcuda.so.1 nvrtc:libnvrtc.so.13 cublas:libcublas.so.13 cublasLt:libcublasLt.so.13 curand:libcurand.so.10; do
  name="${spec%%:*}" soname="${spec#*:}"
  touch "$work/$name"
  sed 's/.*/void &(void) {}/' "$work/$name" >"$work/$name.c"
  cc -shared -fPIC -o "$lib/lib$name.so" -Wl,-soname,"$soname" "$work/$name.c"
  echo "cuda-link-stubs: $lib/lib$name.so ($soname): $(wc -l <"$work/$name") symbols"
done
ln -sf libcudart.so.13 "$lib/libcudart.so"
# For running CPU-only code of such a binary here (CI's unit tests): the SONAMEs the loader looks for,
# in a folder of their own, so that LD_LIBRARY_PATH="$CUDA_HOME/lib/stubs-run" reaches nothing else.
mkdir -p "$lib/stubs-run"
for s in cuda:libcuda.so.1 nvrtc:libnvrtc.so.13 cublas:libcublas.so.13 cublasLt:libcublasLt.so.13 curand:libcurand.so.10; do
  ln -sf "../lib${s%%:*}.so" "$lib/stubs-run/${s#*:}"
done
ln -sf ../libcudart.so.13 "$lib/stubs-run/libcudart.so.13"
