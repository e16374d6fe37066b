//! `cvt` between f32 and the 16-bit floating-point payloads.
//!
//! ```
//! use cute_gpu::{DType, arch::convert::{CONVERT, PACK, pack_fn}};
//! assert!(CONVERT.contains("float bf16_to_f32(unsigned short h)"));
//! assert!(PACK.contains(&format!("unsigned int {}(float lo, float hi)", pack_fn(DType::BF16))));
//! ```

/// Device functions `f32_to_f16`, `f16_to_f32`, `f32_to_bf16`, `bf16_to_f32` (`cvt.rn.*`, round to
/// nearest even).
///
/// ```
/// use cute_gpu::{arch::convert::CONVERT, nvrtc::{compile, nvrtc_available}};
/// assert!(CONVERT.contains("cvt.rn.bf16.f32 %0, %1;") && CONVERT.contains("cvt.f32.f16 %0, %1;"));
/// let src = format!("{CONVERT}extern \"C\" __global__ void k(float* x) {{ x[0] = bf16_to_f32(f32_to_bf16(x[0])); }}");
/// if nvrtc_available() { assert!(!compile(&src, "k", "sm_80").unwrap().cubin.is_empty()); }
/// ```
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

/// `pack_f16x2(lo, hi)` and `pack_bf16x2(lo, hi)`: two f32 rounded (to nearest even) into one 32-bit
/// register, `lo` in the low half (`cvt.rn.{f16x2,bf16x2}.f32`, SM80+): a register operand of `mma.sync`.
///
/// ```
/// use cute_gpu::arch::convert::PACK;
/// // PTX takes the high half first: `cvt.rn.f16x2.f32 d, hi, lo`
/// assert!(PACK.contains(r#"asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));"#));
/// ```
pub const PACK: &str = r#"__device__ __forceinline__ unsigned int pack_f16x2(float lo, float hi) {
  unsigned int r; asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo)); return r;
}
__device__ __forceinline__ unsigned int pack_bf16x2(float lo, float hi) {
  unsigned int r; asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo)); return r;
}
"#;

/// The [`PACK`] function for `dtype` (f16 or bf16).
///
/// ```
/// use cute_gpu::{DType, arch::convert::pack_fn};
/// assert_eq!((pack_fn(DType::F16), pack_fn(DType::BF16)), ("pack_f16x2", "pack_bf16x2"));
/// ```
pub fn pack_fn(dtype: crate::DType) -> &'static str {
    match dtype {
        crate::DType::BF16 => "pack_bf16x2",
        _ => "pack_f16x2",
    }
}
