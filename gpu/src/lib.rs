//! CUDA kernel generation from CuTe layouts, layered as CuTe is.
//!
//! Users reach it as `cute::gpu` through the facade (package `cute-layout`, feature `gpu`; `cuda` for
//! the runtime and the GEMM call), which also re-exports the algebra and `layout!`.
//!
//! | layer | module | what it holds |
//! | --- | --- | --- |
//! | 1. instructions (`cute/arch`) | [`arch`] | one typed wrapper per PTX family: vector ld/st, `cp.async`, `ldmatrix`, `mma.sync`, `wgmma` + fences and descriptors, TMA, `mbarrier`, `setmaxnreg`, named barriers |
//! | 2. atoms and tilings (`cute/atom`) | [`atom`] | thread-value layouts from `cute_layout_core::atom` (`MmaTraits`, `CopyAtom`, `TiledMma`, `TiledCopy`) |
//! | the emitter | [`emit`] | layout -> C index expressions (static leaves literal, dynamic leaves parameters, basis strides, swizzles) |
//! | 3. pieces (`collective`) | [`piece`] | tile schedulers, shared-memory operand stages, mainloops (cp.async multistage; TMA + mbarrier warp-specialized), row tiles, fragment loaders, MMA loops, online softmax, score masks, epilogues |
//! | 4. kernels | [`kernels`] | copy, transpose, SM80 GEMM, SM90 GEMM, fallback GEMM, SM80 attention: each a composition of pieces |
//! | 5. host | [`kernel`], `runtime` (feature `cuda`), [`nvrtc`], [`cubin_cache`] | one kernel description (buffers, tensor maps, scalars), one runtime with one compile cache in memory and on disk |
//! | 6. the GEMM call | [`matmul`] | `D = act(alpha*A·B + beta*C + bias)` on cudarc buffers described by layouts: plan (validation, heuristic) and launch (feature `cuda`) |
//! | 6b. the attention call | [`attention`] | `O = softmax(scale*Q·Kᵀ + mask)·V` + LSE on cudarc buffers described by `(B,S,H,D)` layouts: plan (validation) and launch (feature `cuda`); f64 CPU reference |
//! | shared by tests, benches, examples | [`host`], [`configs`], `runtime::bench` (feature `cuda`) | conversions, RNG fills, CPU reference GEMM; named configurations and problem layouts; cuBLAS reference runs and result tables |
//!
//! Generators write self-contained CUDA C (no headers; f16/bf16 as raw 16-bit payloads for inline
//! PTX; `extern "C"` entry points): the tiling, thread-value partitioning, shared-memory swizzle and
//! predication are layout operations, stated in comments next to the index expressions they produce.
//! Static layout leaves become literals, dynamic ones kernel parameters.
//!
//! With the `nvrtc` feature (default), [`nvrtc`] compiles sources to CUBIN (needs only libnvrtc); with
//! `cuda`, `runtime` loads and launches them with cudarc (needs libcuda and a GPU).
//!
//! ```
//! use cute_gpu::kernels::copy::{generate_copy, CopySpec};
//! let src = "((_4,250),1000):((_1,_4),1000)".parse().unwrap();
//! let dst = "((_4,250),1000):((_1,_4),1000)".parse().unwrap();
//! let k = generate_copy(&CopySpec::new(src, dst, 4)).unwrap();
//! assert!(k.source.contains("ld.global.nc.v4.b32")); // 16-byte accesses
//! ```
#![warn(missing_docs)]
// Kept from when the workspace supported 1.85 (`is_multiple_of` needs 1.87; rust-version is now 1.87).
#![allow(clippy::manual_is_multiple_of)]

pub mod arch;
pub mod atom;
pub mod attention;
pub mod configs;
pub mod dtype;
pub mod emit;
pub mod error;
pub mod fp8;
pub mod host;
pub mod kernel;
pub mod kernels;
pub mod matmul;
pub mod piece;
pub mod smem;

#[cfg(feature = "nvrtc")]
pub mod cubin_cache;
#[cfg(feature = "nvrtc")]
pub mod libs;
#[cfg(feature = "nvrtc")]
pub mod nvrtc;
#[cfg(feature = "cuda")]
pub mod runtime;

pub use dtype::{DType, Major};
pub use error::{GpuError, Result};
pub use kernel::{Arg, Buffer, Kernel, TensorMapArg};
