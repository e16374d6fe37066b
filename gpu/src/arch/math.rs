//! Special-function instructions: `ex2.approx` (the exponential of the online softmax, with the scale
//! and `log2(e)` folded into one multiply-add before it), and the same exponential computed on the FMA
//! pipe (a cubic polynomial and an exponent shift), which offloads the special-function unit.
//!
//! ```
//! use cute_gpu::{arch::math::{EX2, poly_ex2}, nvrtc::{compile, nvrtc_available}};
//! let src = format!("{EX2}{}extern \"C\" __global__ void k(float* x) {{ x[threadIdx.x] = fast_exp2(x[threadIdx.x]) + poly_exp2(x[1]) + (x[0] > 0.f ? 0.f : neg_inf()); }}", poly_ex2());
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

/// The coefficients `c1, c2, c3` of `2^f ≈ 1 + c1·f + c2·f² + c3·f³` on `[0, 1)`: fitted for the least
/// maximum relative error with `p(0) = 1` exactly (Lawson's iteration on 2,001 points), which is
/// [`POLY_EX2_MAX_REL_ERROR`].
///
/// ```
/// use cute_gpu::arch::math::{POLY_EX2_COEFFS, POLY_EX2_MAX_REL_ERROR};
/// let p = |f: f64| 1.0 + f * (POLY_EX2_COEFFS[0] + f * (POLY_EX2_COEFFS[1] + f * POLY_EX2_COEFFS[2]));
/// let worst = (0..=1000).map(|i| i as f64 / 1000.0).map(|f| (p(f) / f.exp2() - 1.0).abs()).fold(0.0, f64::max);
/// assert!(worst <= POLY_EX2_MAX_REL_ERROR && worst > POLY_EX2_MAX_REL_ERROR / 2.0);
/// ```
pub const POLY_EX2_COEFFS: [f64; 3] = [0.695117104, 0.227643582, 0.0770683375];

/// The largest relative error of [`poly_ex2`] on the reals (the polynomial's; the f32 steps add a few ulp).
pub const POLY_EX2_MAX_REL_ERROR: f64 = 8.6e-5;

/// `poly_exp2(x)`: `2^x` without the special-function unit (FlashAttention 4's offload), for `x < 128`:
/// `x` clamped to `-127` (so `-inf` gives `+0`, as `fast_exp2`; `max.NaN` keeps a NaN), `floor(x)`
/// rounded into the low mantissa bits of `x + 1.5·2^23` (an add rounding down), the fraction's power by
/// the cubic [`POLY_EX2_COEFFS`] (Horner, three FMAs), and `2^floor(x)` built by shifting those bits into
/// the exponent field: about 9 FMA/ALU instructions instead of one `MUFU.EX2`, within
/// [`POLY_EX2_MAX_REL_ERROR`] of `2^x` (below half an ulp of the bf16 and f16 probabilities it feeds).
///
/// ```
/// use cute_gpu::arch::math::poly_ex2;
/// let src = poly_ex2();
/// assert!(src.contains("__fadd_rd(xc, 12582912.f)") && src.contains("max.NaN.f32"));
/// assert!(src.contains("fmaf(fmaf(fmaf(0.0770683375f, f, 0.227643582f), f, 0.695117104f), f, 1.f)"));
/// ```
pub fn poly_ex2() -> String {
    let [c1, c2, c3] = POLY_EX2_COEFFS;
    format!(
        r#"__device__ __forceinline__ float poly_exp2(float x) {{
  float xc; asm("max.NaN.f32 %0, %1, %2;" : "=f"(xc) : "f"(x), "f"(-127.f));
  const float t = __fadd_rd(xc, 12582912.f);             // floor(xc) in the low mantissa bits
  const float f = xc - (t - 12582912.f);                 // the fraction, [0, 1)
  const float p = fmaf(fmaf(fmaf({c3:?}f, f, {c2:?}f), f, {c1:?}f), f, 1.f);
  return p * __int_as_float((__float_as_int(t) << 23) + 0x3f800000);  // * 2^floor(xc); 0 at -127
}}
"#
    )
}
