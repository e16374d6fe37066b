//! Layer 4, kernels: each a short composition of the pieces in [`crate::piece`], parameterized by layouts.
//!
//! - [`copy`]: tiled copy between any two layouts, vector width from `max_common_vector`;
//! - [`transpose`]: transpose through swizzled shared memory;
//! - [`gemm_sm80`]: `D = alpha*A*B + beta*C` with `mma.sync.m16n8k16`, `cp.async`, `ldmatrix` (SM80+);
//! - [`gemm_simt`]: the fallback GEMM for operands no tensor-core path takes (any strides, K = 0);
//! - [`attention_sm80`]: FlashAttention-2-style forward attention with `mma.sync` (SM80+);
//! - [`gemm_sm90`]: `wgmma` fed by TMA through a warp-specialized mbarrier pipeline (sm_90a).

pub mod attention_sm80;
pub mod attention_sm90;
pub mod copy;
pub mod gemm_simt;
pub mod gemm_sm80;
pub mod gemm_sm90;
pub mod transpose;
