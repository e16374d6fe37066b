//! CUDA kernel generation from CuTe layouts.
//!
//! Generators write self-contained CUDA C (no headers; f16/bf16 as raw 16-bit payloads for inline
//! PTX; `extern "C"` entry points) from layouts: the tiling, thread-value partitioning, shared-memory
//! swizzle and predication are layout operations, stated in comments next to the index expressions
//! they produce. Static layout leaves become literals, dynamic ones kernel parameters.
//!
//! - [`copy::generate_copy`]: tiled copy between any two layouts, vector width from `max_common_vector`;
//! - [`transpose::generate_transpose`]: transpose through swizzled shared memory;
//! - [`gemm::generate_gemm`]: `D = alpha*A*B + beta*C` with `mma.sync.m16n8k16`, `cp.async`, `ldmatrix`.
//!
//! With the `nvrtc` feature (default), [`nvrtc`] compiles sources to CUBIN (needs only libnvrtc); with `cuda`,
//! [`runner`] loads and launches them with cudarc (needs libcuda and a GPU).
//!
//! ```
//! use gpu::copy::{generate_copy, CopySpec};
//! let src = "((_4,250),1000):((_1,_4),1000)".parse().unwrap();
//! let dst = "((_4,250),1000):((_1,_4),1000)".parse().unwrap();
//! let k = generate_copy(&CopySpec::new(src, dst, 4)).unwrap();
//! assert!(k.source.contains("ld.global.nc.v4.b32")); // 16-byte accesses
//! ```
#![warn(missing_docs)]
// `is_multiple_of` needs Rust 1.87; the workspace supports 1.85.
#![allow(clippy::manual_is_multiple_of)]

pub mod copy;
pub mod error;
pub mod gemm;
pub mod hopper;
pub mod host;
pub mod kernel;
pub mod ptx;
pub mod smem;
pub mod transpose;

#[cfg(feature = "cuda")]
pub mod baseline;
#[cfg(feature = "nvrtc")]
pub mod nvrtc;
#[cfg(feature = "cuda")]
pub mod runner;

pub use error::{GpuError, Result};
pub use kernel::{Arg, Kernel};
