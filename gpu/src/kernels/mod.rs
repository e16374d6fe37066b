//! Layer 4, kernels: each a short composition of the pieces in [`crate::piece`], parameterized by layouts.
//!
//! - [`copy`]: tiled copy between any two layouts, vector width from `max_common_vector`;
//! - [`transpose`]: transpose through swizzled shared memory;
//! - [`gemm_sm80`]: `D = alpha*A*B + beta*C` with `mma.sync.m16n8k16`, `cp.async`, `ldmatrix` (SM80+);
//! - [`gemm_simt`]: the fallback GEMM for operands no tensor-core path takes (any strides, K = 0);
//! - [`attention_sm80`]: FlashAttention-2-style forward attention with `mma.sync` (SM80+);
//! - [`gemm_sm90`]: `wgmma` fed by TMA through a warp-specialized mbarrier pipeline (sm_90a);
//! - [`splitk_reduce`]: the sum of a split-K GEMM's slices and its fused epilogue.
//!
//! ```
//! use cute_gpu::kernels::{copy::{CopySpec, generate_copy}, transpose::{TransposeSpec, generate_transpose}};
//! let l = |s: &str| s.parse::<cute_layout_core::Layout>().unwrap();
//! let c = generate_copy(&CopySpec::new(l("(_256,_256):(_256,_1)"), l("(_256,_256):(_256,_1)"), 4)).unwrap();
//! let t = generate_transpose(&TransposeSpec::new(l("(256,256):(256,_1)"), l("(256,256):(_1,256)"), 4)).unwrap();
//! assert!(c.name.starts_with("cute_copy_") && t.name.starts_with("cute_transpose_"));
//! ```

pub mod attention_sm80;
pub mod attention_sm90;
pub mod copy;
pub mod gemm_simt;
pub mod gemm_sm80;
pub mod gemm_sm90;
pub mod splitk_reduce;
pub mod transpose;
