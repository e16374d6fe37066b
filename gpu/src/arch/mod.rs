//! Layer 1, instructions (CuTe's `arch`): one typed wrapper per PTX instruction family the kernels use,
//! emitted as inline-asm device functions (or statements) into generated sources.
//!
//! Values travel as 32-bit registers (`unsigned int`); f16/bf16 are raw 16-bit payloads packed two to a
//! register; shared-memory addresses are 32-bit shared-window addresses ([`memory::SMEM_ADDR`]).
//!
//! | module | PTX |
//! | --- | --- |
//! | [`memory`] | `cvta.to.shared`, `ld/st.global[.nc].v{1,2,4}`, `ld/st.shared.v{1,2,4}` |
//! | [`cp_async`] | `cp.async.cg.shared.global` (+ zero-fill), commit/wait groups |
//! | [`ldmatrix`] | `ldmatrix.sync.aligned.m8n8.x4[.trans]` |
//! | [`mma_sync`] | `mma.sync.aligned.m16n8k16` |
//! | [`convert`] | `cvt` between f32 and f16/bf16, packing two f32 into an f16x2/bf16x2 register |
//! | [`math`] | `ex2.approx`; `2^x` on the FMA pipe (`add.rm`, `fma`, `max.NaN`, an exponent shift) |
//! | [`wgmma`] | `wgmma.mma_async` (+ fence, commit, wait), shared-memory matrix descriptors |
//! | [`tma`] | `cp.async.bulk.tensor.2d` loads and stores, bulk groups, tensor-map prefetch |
//! | [`mbarrier`] | `mbarrier.init/arrive/expect_tx/try_wait` |
//! | [`cluster`] | `__cluster_dims__`, `barrier.cluster`, `mapa` + remote `mbarrier.arrive` |
//! | [`sync`] | `setmaxnreg`, named barriers `bar.sync/bar.arrive`, proxy fences |
//!
//! ```
//! use cute_gpu::{arch::{convert::CONVERT, memory::SMEM_ADDR}, nvrtc::{compile, nvrtc_available}};
//! let src = format!("{SMEM_ADDR}{CONVERT}extern \"C\" __global__ void k(float* x) {{
//!   __shared__ unsigned short s[32]; s[threadIdx.x] = f32_to_f16(x[threadIdx.x]);
//!   x[threadIdx.x] = f16_to_f32(s[31 - threadIdx.x]) + smem_u32(s); }}");
//! if nvrtc_available() { assert!(!compile(&src, "k", "sm_80").unwrap().cubin.is_empty()); }
//! ```

pub mod cluster;
pub mod convert;
pub mod cp_async;
pub mod ldmatrix;
pub mod math;
pub mod mbarrier;
pub mod memory;
pub mod mma_sync;
pub mod sync;
pub mod tma;
pub mod wgmma;
