# Sourced by .ci/run: makes NVRTC 13.0 (from PyPI, no GPU or CUDA toolkit needed) loadable so the
# gpu crate's kernel compile tests run. Idempotent; fast when the cache is already there.
# Cache: ${CUTE_NVRTC_DIR:-$HOME/.cache/cute-nvrtc}.
_cute_nvrtc_dir="${CUTE_NVRTC_DIR:-$HOME/.cache/cute-nvrtc}"
_cute_nvrtc_lib="$_cute_nvrtc_dir/nvidia/cu13/lib"
if [ ! -e "$_cute_nvrtc_lib/libnvrtc.so.13" ]; then
  echo "nvrtc.sh: installing NVRTC 13.0 from PyPI into $_cute_nvrtc_dir"
  mkdir -p "$_cute_nvrtc_dir"
  if ! python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$_cute_nvrtc_dir" \
      nvidia-cuda-nvrtc==13.0.88 nvidia-cuda-runtime==13.0.96 nvidia-cuda-crt==13.0.88 \
      nvidia-cuda-cccl==13.0.85; then
    echo "nvrtc.sh: WARNING: pip install of NVRTC failed; the NVRTC compile tests will fail under CI=true" >&2
  fi
fi
if [ -e "$_cute_nvrtc_lib/libnvrtc.so.13" ]; then
  # cudarc opens libnvrtc.so: point it at this copy, not a mix with another installation.
  ln -sf libnvrtc.so.13 "$_cute_nvrtc_lib/libnvrtc.so"
  export LD_LIBRARY_PATH="$_cute_nvrtc_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "nvrtc.sh: NVRTC from $_cute_nvrtc_lib"
fi
unset _cute_nvrtc_dir _cute_nvrtc_lib
