//! Layer 3, pieces (CuTe's collective mainloops and epilogues, and the kernel-level schedulers): each emits
//! one part of a kernel from layouts and is usable on its own. A kernel is a composition of these.
//!
//! | piece | module | used by |
//! | --- | --- | --- |
//! | tile schedulers: grouped raster (along M or N), persistent loop | [`schedule`] | SM80 GEMM, SM90 GEMM |
//! | SM80 shared-memory operand tile + bank-conflict-free swizzle | [`smem_tile`] | SM80 GEMM |
//! | cp.async multistage mainloop with residue predication | [`cp_async_mainloop`] | SM80 GEMM |
//! | ldmatrix fragment loaders and the `mma.sync` loop | [`fragment`] | SM80 GEMM |
//! | SM80 epilogues: direct (predicated) and smem-staged 16-byte stores | [`epilogue_sm80`] | SM80 GEMM |
//! | GMMA shared-memory operand stages, descriptors, TMA boxes | [`gmma_operand`] | SM90 GEMM |
//! | TMA + mbarrier warp-specialized producer/consumer mainloop | [`tma_mainloop`] | SM90 GEMM |
//! | SM90 epilogues: direct from the GMMA accumulator layout, TMA store | [`epilogue_sm90`] | SM90 GEMM |
//! | stream-K: k-block shares per CTA, partial sums of a cut tile through a flagged workspace | [`stream_k`] | SM90 GEMM |
//! | split-K summed in the GEMM: each warp's last K slice to finish adds the others' sums | [`split_sum`] | SM90 GEMM |
//! | FP8 scaling: per-tensor, or block scales with f32 promotion every 128 of K | [`fp8_scaling`] | SM90 FP8 GEMM |
//! | online softmax (running max/sum, exp2 with the scale folded in, rescale, 1/l, LSE) | [`online_softmax`] | attention |
//! | score masks (keys past the sequence, causal diagonal) as `-inf` | [`score_mask`] | attention |
//! | row tiles (contiguous rows at any stride) by cp.async with zero-filled rows past a limit | [`row_tile_copy`] | attention |
//! | the fused elementwise op: alpha/beta*C, bias per row or column, ReLU/GELU/SiLU | [`epilogue_op`] | every GEMM |
//!
//! ```
//! use cute_gpu::piece::{epilogue_op::{Activation, EpilogueOp}, schedule::{persistent_loop, tile_counts}};
//! let op = EpilogueOp { activation: Activation::Silu, ..Default::default() };
//! let body = tile_counts("  ", "M", "N", 128, 128) + "  const int tiles = tiles_m * tiles_n;\n  "
//!     + &persistent_loop("blockIdx.x", "gridDim.x") + " {\n    v = " + &op.apply("v", "m", "n") + ";\n  }\n";
//! assert!(body.contains("for (int t = blockIdx.x; t < tiles; t += gridDim.x) {\n    v = epi_post(v, m, n);"));
//! ```

pub mod cp_async_mainloop;
pub mod epilogue_op;
pub mod epilogue_sm80;
pub mod epilogue_sm90;
pub mod fp8_scaling;
pub mod fragment;
pub mod gmma_operand;
pub mod online_softmax;
pub mod row_tile_copy;
pub mod schedule;
pub mod score_mask;
pub mod smem_tile;
pub mod split_sum;
pub mod stream_k;
pub mod tma_mainloop;
