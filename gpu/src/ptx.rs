//! Layer 1: single PTX instructions wrapped as inline-asm device functions.
//!
//! Every function here is emitted verbatim into generated sources that need it. Values travel as
//! 32-bit registers (`unsigned int`); f16/bf16 are raw 16-bit payloads packed two to a register.

/// `cvta.to.shared`: a generic pointer to shared memory as a 32-bit shared-window address.
pub const SMEM_ADDR: &str = r#"__device__ __forceinline__ unsigned int smem_u32(const void* p) {
  unsigned int a;
  asm volatile("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(p));
  return a;
}
"#;

/// Global load/store of `bytes` (4, 8 or 16) as 32-bit words: `ld.global.nc.v{1,2,4}.b32`,
/// `st.global.v{1,2,4}.b32`.
pub fn global_vector_fns(bytes: usize) -> String {
    match bytes {
        16 => r#"__device__ __forceinline__ void ld_global(const void* p, unsigned int* r) {
  asm volatile("ld.global.nc.v4.b32 {%0,%1,%2,%3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "l"(p));
}
__device__ __forceinline__ void st_global(void* p, const unsigned int* r) {
  asm volatile("st.global.v4.b32 [%0], {%1,%2,%3,%4};" :: "l"(p), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
}
"#
        .to_string(),
        8 => r#"__device__ __forceinline__ void ld_global(const void* p, unsigned int* r) {
  asm volatile("ld.global.nc.v2.b32 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "l"(p));
}
__device__ __forceinline__ void st_global(void* p, const unsigned int* r) {
  asm volatile("st.global.v2.b32 [%0], {%1,%2};" :: "l"(p), "r"(r[0]), "r"(r[1]) : "memory");
}
"#
        .to_string(),
        _ => r#"__device__ __forceinline__ void ld_global(const void* p, unsigned int* r) {
  asm volatile("ld.global.nc.b32 %0, [%1];" : "=r"(r[0]) : "l"(p));
}
__device__ __forceinline__ void st_global(void* p, const unsigned int* r) {
  asm volatile("st.global.b32 [%0], %1;" :: "l"(p), "r"(r[0]) : "memory");
}
"#
        .to_string(),
    }
}

/// `cp.async.cg.shared.global` of 16 bytes with a source size: bytes past `src_bytes` are zero-filled
/// (the predication of GEMM tiles at the M, N and K edges).
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

/// `ldmatrix.sync.aligned.m8n8.x4.shared.b16`, plain and transposed.
pub const LDMATRIX: &str = r#"__device__ __forceinline__ void ldmatrix_x4(unsigned int* r, unsigned int addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned int* r, unsigned int addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
"#;

/// `mma.sync.aligned.m16n8k16.row.col.f32.{ty}.{ty}.f32`: D = A*B + D with f32 accumulators.
pub fn mma_m16n8k16(ty: &str) -> String {
    format!(
        r#"__device__ __forceinline__ void mma_16816(float* d, const unsigned int* a, const unsigned int* b) {{
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.{ty}.{ty}.f32 {{%0,%1,%2,%3}}, {{%4,%5,%6,%7}}, {{%8,%9}}, {{%0,%1,%2,%3}};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}}
"#
    )
}

/// Conversions between f32 and the 16-bit payloads (`cvt.rn.f16.f32`, `cvt.rn.bf16.f32`, ...).
pub const CONVERT: &str = r#"__device__ __forceinline__ unsigned short f32_to_f16(float f) {
  unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h;
}
__device__ __forceinline__ float f16_to_f32(unsigned short h) {
  float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f;
}
__device__ __forceinline__ unsigned short f32_to_bf16(float f) {
  unsigned short h; asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h;
}
__device__ __forceinline__ float bf16_to_f32(unsigned short h) {
  return __int_as_float(((int)h) << 16);
}
"#;
