# Sourced by .ci/run before the `candle` feature's build: makes nvcc 13.0 (from PyPI: the compiler, NVVM,
# the runtime, CRT and CCCL headers; no GPU, no CUDA toolkit) the one candle-kernels' build script runs.
# Idempotent; fast when the cache is already there. Cache: ${CUTE_NVCC_DIR:-$HOME/.cache/cute-nvcc}.
#
# Exports: NVCC (what candle-kernels' builder, cudaforge, runs), CUDA_HOME (where cudarc's build script,
# linking dynamically under candle, looks for libraries), CUDA_COMPUTE_CAP (no nvidia-smi here: the
# architecture candle-kernels is built for; 90 = H100/H200 unless already set), CUDAFORGE_THREADS=1 (the
# nvcc jobs at once; CI's cores are shared).
_cute_nvcc_dir="${CUTE_NVCC_DIR:-$HOME/.cache/cute-nvcc}"
_cute_nvcc_top="$_cute_nvcc_dir/nvidia/cu13"
if [ ! -x "$_cute_nvcc_top/bin/nvcc" ] || [ ! -x "$_cute_nvcc_top/nvvm/bin/cicc" ]; then
  echo "nvcc.sh: installing nvcc 13.0 from PyPI into $_cute_nvcc_dir"
  mkdir -p "$_cute_nvcc_dir"
  if ! python3 -m pip install --quiet --disable-pip-version-check --no-deps --upgrade --target "$_cute_nvcc_dir" \
      nvidia-cuda-nvcc==13.0.88 nvidia-nvvm==13.0.88 nvidia-cuda-runtime==13.0.96 \
      nvidia-cuda-crt==13.0.88 nvidia-cuda-cccl==13.0.85; then
    echo "nvcc.sh: WARNING: pip install of nvcc failed; the candle feature will not build" >&2
  fi
fi
if [ -x "$_cute_nvcc_top/bin/nvcc" ]; then
  export NVCC="$_cute_nvcc_top/bin/nvcc"
  export CUDA_HOME="$_cute_nvcc_top"
  export CUDA_COMPUTE_CAP="${CUDA_COMPUTE_CAP:-90}"
  export CUDAFORGE_THREADS="${CUDAFORGE_THREADS:-1}"
  echo "nvcc.sh: $("$NVCC" --version | tail -1) at $NVCC, CUDA_COMPUTE_CAP=$CUDA_COMPUTE_CAP"
fi
unset _cute_nvcc_dir _cute_nvcc_top
