//! Special-function instructions: `ex2.approx` (the exponential of the online softmax, with the scale
//! and `log2(e)` folded into one multiply-add before it).
//!
//! ```
//! use cute_gpu::{arch::math::EX2, nvrtc::{compile, nvrtc_available}};
//! let src = format!("{EX2}extern \"C\" __global__ void k(float* x) {{ x[threadIdx.x] = fast_exp2(x[threadIdx.x]) + (x[0] > 0.f ? 0.f : neg_inf()); }}");
//! if nvrtc_available() { assert!(!compile(&src, "k", "sm_80").unwrap().cubin.is_empty()); }
//! ```

/// `fast_exp2(x)`: `ex2.approx.ftz.f32` (about 2 ulp; `-inf` gives `+0`, the masked scores' weight), and
/// `neg_inf()` (the sources include no headers, so no `INFINITY`).
///
/// ```
/// use cute_gpu::arch::math::EX2;
/// assert!(EX2.contains("ex2.approx.ftz.f32") && EX2.contains("float neg_inf()"));
/// ```
pub const EX2: &str = r#"__device__ __forceinline__ float neg_inf() { return __int_as_float(0xff800000); }
__device__ __forceinline__ float fast_exp2(float x) {
  float y; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); return y;
}
"#;
