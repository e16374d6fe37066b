//! CUDA kernel generation from CuTe layouts.
