//! `mbarrier` (SM90): transaction-counting barriers in shared memory, the handshake of TMA pipelines.
//!
//! ```
//! use cute_gpu::{arch::{mbarrier::{INIT_FENCE, MBARRIER}, memory::SMEM_ADDR}, nvrtc::{compile, nvrtc_available}};
//! let src = format!("typedef unsigned int u32;\n{SMEM_ADDR}{MBARRIER}extern \"C\" __global__ void k() {{
//!   __shared__ __align__(8) unsigned long long bar; u32 b = smem_u32(&bar);
//!   if (threadIdx.x == 0) {{ mbar_init(b, blockDim.x); {INIT_FENCE} }} __syncthreads();
//!   mbar_arrive(b); mbar_wait(b, 0); }}");
//! if nvrtc_available() { assert!(!compile(&src, "k", "sm_90a").unwrap().cubin.is_empty()); }
//! ```

/// `mbar_init(bar, count)`, `mbar_expect_tx(bar, bytes)` (arrive and expect `bytes` of TMA traffic),
/// `mbar_arrive(bar)`, `mbar_wait(bar, parity)` (spin on `try_wait.parity`), `mbar_test(bar, parity)`
/// (1 if the phase of that parity has completed; `test_wait.parity`, which does not block).
///
/// ```
/// use cute_gpu::arch::mbarrier::MBARRIER;
/// for f in ["mbar_init(", "mbar_expect_tx(", "mbar_arrive(", "mbar_wait(", "mbar_test("] { assert!(MBARRIER.contains(f)); }
/// assert!(MBARRIER.contains("mbarrier.try_wait.parity.shared::cta.b64"));
/// ```
pub const MBARRIER: &str = r#"__device__ __forceinline__ void mbar_init(u32 bar, u32 count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_expect_tx(u32 bar, u32 bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(u32 bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_wait(u32 bar, u32 parity) {
  u32 ok = 0;
  do {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
  } while (!ok);
}
__device__ __forceinline__ u32 mbar_test(u32 bar, u32 parity) {
  u32 ok;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
  return ok;
}
"#;

/// The statement making initialized mbarriers visible to the async proxy (TMA) and the cluster.
///
/// ```
/// use cute_gpu::arch::mbarrier::INIT_FENCE;
/// assert!(INIT_FENCE.contains("fence.mbarrier_init.release.cluster;"));
/// ```
pub const INIT_FENCE: &str =
    "asm volatile(\"fence.mbarrier_init.release.cluster;\" ::: \"memory\");";
