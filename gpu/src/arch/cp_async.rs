//! `cp.async` (SM80): asynchronous 16-byte global -> shared copies and their commit/wait groups.
//!
//! ```
//! use cute_gpu::arch::cp_async::CP_ASYNC;
//! assert!(CP_ASYNC.contains("cp.async.commit_group;") && CP_ASYNC.contains("cp.async.wait_group %0;"));
//! ```

/// `cp_async_16(dst, src, src_bytes)`: 16 bytes with a source size, bytes past `src_bytes` zero-filled
/// (the predication of tiles at the edges); `cp_async_16_full`; `st_shared_16` (a 16-byte shared store
/// for chunks assembled by hand); `cp_async_commit()`; `cp_async_wait<N>()`.
///
/// ```
/// use cute_gpu::{arch::{cp_async::CP_ASYNC, memory::SMEM_ADDR}, nvrtc::{compile, nvrtc_available}};
/// assert!(CP_ASYNC.contains("cp.async.cg.shared.global [%0], [%1], 16, %2;"));
/// let src = format!("{SMEM_ADDR}{CP_ASYNC}extern \"C\" __global__ void k(const float4* g) {{
///   __shared__ float4 s[32]; cp_async_16(smem_u32(&s[threadIdx.x]), g + threadIdx.x, 16);
///   cp_async_commit(); cp_async_wait<0>(); }}");
/// if nvrtc_available() { assert!(!compile(&src, "k", "sm_80").unwrap().cubin.is_empty()); }
/// ```
pub const CP_ASYNC: &str = r#"__device__ __forceinline__ void cp_async_16(unsigned int dst, const void* src, int src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(dst), "l"(src), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void cp_async_16_full(unsigned int dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void st_shared_16(unsigned int dst, const unsigned int* w) {
  asm volatile("st.shared.v4.b32 [%0], {%1,%2,%3,%4};" :: "r"(dst), "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N> __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;" :: "n"(N) : "memory"); }
"#;
