//! GEMM as a library call: `D = alpha * A·B + beta * C` over cudarc buffers described by CuTe layouts,
//! on the caller's stream. The call picks the kernel ([`plan`]): the SM90 wgmma + TMA kernel on sm_90,
//! the SM80 `mma.sync` kernel elsewhere (and when C is read), a fallback kernel for operands no
//! tensor-core path takes; small outputs with long K split K into slices, summed in the GEMM
//! ([`crate::piece::split_sum`]) through a workspace the handle owns; compiled kernels are cached in
//! memory and on disk.
//!
//! Layouts: A `(M,K)`, B `(K,N)`, C and D `(M,N)`, each with any strides (row-major `(M,K):(ld,_1)`,
//! column-major `(M,K):(_1,ld)`), and an optional third mode for strided batches (`(M,K,L):(ld,_1,stride)`).
//!
//! ```no_run
//! # #[cfg(feature = "cuda")] {
//! use cute_gpu::matmul::{Gemm, Matrix, MatrixMut};
//! use half::bf16;
//! let ctx = cudarc::driver::CudaContext::new(0).unwrap();
//! let stream = ctx.default_stream();
//! let (m, n, k) = (256usize, 512usize, 128usize);
//! let a = stream.clone_htod(&vec![bf16::from_f32(1.0); m * k]).unwrap();
//! let b = stream.clone_htod(&vec![bf16::from_f32(0.5); k * n]).unwrap();
//! let mut d = stream.alloc_zeros::<f32>(m * n).unwrap();
//! let gemm = Gemm::new(&stream).unwrap();
//! gemm.run(
//!     &Matrix::new(&a, format!("({m},{k}):({k},1)").parse().unwrap()),  // row-major A
//!     &Matrix::new(&b, format!("({k},{n}):(1,{k})").parse().unwrap()),  // column-major B
//!     None,
//!     &mut MatrixMut::new(&mut d, format!("({m},{n}):({n},1)").parse().unwrap()),
//!     1.0,
//!     0.0,
//! ).unwrap();
//! assert_eq!(stream.clone_dtoh(&d).unwrap()[0], 64.0);
//! # }
//! ```

pub mod fp8;
#[cfg(feature = "cuda")]
mod launch;
pub mod plan;
#[cfg(feature = "nvrtc")]
pub mod tune;

pub use crate::piece::epilogue_op::{Activation, BiasKind};
#[cfg(feature = "cuda")]
pub use launch::{Bias, Element, Epilogue, Fp8Element, Fp8Scales, Gemm, Matrix, MatrixMut};
