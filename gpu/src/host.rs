//! Host-side helpers the tests, benchmarks and examples share: f16/bf16 conversions (by bits and by
//! [`DType`]), a small deterministic RNG with fills of 16-bit inputs, the points of a result to check,
//! a CPU reference GEMM and the relative error against it.
//!
//! ```
//! use cute_gpu::host::{ReferenceGemm, Rng, decode, max_rel_error};
//! use cute_gpu::{DType, Major};
//! // A (2,3) and B (3,2) as small integers in bf16, K-major (A row-major, B column-major).
//! let mut rng = Rng(1);
//! let (a, b) = (rng.small_ints(DType::BF16, 6, 2), rng.small_ints(DType::BF16, 6, 2));
//! let (a, b) = (decode(DType::BF16, &a), decode(DType::BF16, &b));
//! let r = ReferenceGemm::from_majors((2, 2, 3), (&a, Major::K, 3), (&b, Major::K, 3));
//! let d00: f32 = (0..3).map(|k| a[k] * b[k]).sum();
//! assert_eq!(r.at(0, 0), d00 as f64);
//! // the same operands as layouts: A (M,K) row-major, B (K,N) column-major
//! let r2 = ReferenceGemm::from_layouts(&a, &"(2,3):(3,_1)".parse().unwrap(), &b, &"(3,2):(_1,3)".parse().unwrap()).unwrap();
//! assert_eq!(r2.at(1, 1), r.at(1, 1));
//! assert_eq!(max_rel_error([(1.5, 1.0), (0.25, 0.0)]), 0.5);
//! let u = rng.uniform();
//! assert!((-1.0..1.0).contains(&u));
//! ```

use crate::dtype::{DType, Major};
use crate::error::Result;
use cute_layout_core::Layout;
use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};

/// f32 -> IEEE binary16 bits, round to nearest even.
///
/// ```
/// use cute_gpu::host::f32_to_f16;
/// assert_eq!(f32_to_f16(1.0), 0x3c00);
/// assert_eq!(f32_to_f16(65504.0), 0x7bff); // the largest finite f16
/// assert_eq!(f32_to_f16(2049.0), f32_to_f16(2048.0)); // a tie rounds to even
/// ```
pub fn f32_to_f16(f: f32) -> u16 {
    let x = f.to_bits();
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xff) as i32;
    let mant = x & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if mant != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = mant | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rest = m & ((1 << shift) - 1);
        let mut r = m >> shift;
        if rest > half || (rest == half && (r & 1) == 1) {
            r += 1;
        }
        return sign | r as u16;
    }
    let mut r = ((e as u32) << 10) | (mant >> 13);
    let rest = mant & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && (r & 1) == 1) {
        r += 1;
    }
    sign | r as u16
}

/// IEEE binary16 bits -> f32 (exact).
///
/// ```
/// use cute_gpu::host::f16_to_f32;
/// assert_eq!(f16_to_f32(0xc000), -2.0);
/// assert_eq!(f16_to_f32(0x0001), 5.9604645e-8); // the smallest subnormal
/// ```
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h & 0x8000) as u32) << 16;
    let exp = ((h >> 10) & 0x1f) as u32;
    let mant = (h & 0x3ff) as u32;
    let bits = if exp == 0 {
        if mant == 0 {
            sign
        } else {
            let mut e = 127 - 15 + 1;
            let mut m = mant;
            while m & 0x400 == 0 {
                m <<= 1;
                e -= 1;
            }
            sign | ((e as u32) << 23) | ((m & 0x3ff) << 13)
        }
    } else if exp == 0x1f {
        sign | 0x7f80_0000 | (mant << 13)
    } else {
        sign | ((exp + 127 - 15) << 23) | (mant << 13)
    };
    f32::from_bits(bits)
}

/// f32 -> bfloat16 bits, round to nearest even.
///
/// ```
/// use cute_gpu::host::f32_to_bf16;
/// assert_eq!(f32_to_bf16(1.0), 0x3f80);
/// assert_eq!(f32_to_bf16(1.0 + 1.0 / 256.0), 0x3f80); // halfway: to even
/// ```
pub fn f32_to_bf16(f: f32) -> u16 {
    let x = f.to_bits();
    if f.is_nan() {
        return ((x >> 16) | 0x40) as u16;
    }
    let r = x.wrapping_add(0x7fff + ((x >> 16) & 1));
    (r >> 16) as u16
}

/// bfloat16 bits -> f32 (exact).
///
/// ```
/// use cute_gpu::host::bf16_to_f32;
/// assert_eq!(bf16_to_f32(0x4040), 3.0);
/// ```
pub fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits((h as u32) << 16)
}

/// `f` in `dt`'s 16-bit encoding, rounded to nearest even.
///
/// # Panics
/// For [`DType::F32`] and the FP8 types, which have no 16-bit encoding (FP8: [`crate::fp8`]).
///
/// # Examples
///
/// ```
/// use cute_gpu::{DType, host::from_f32};
/// assert_eq!(from_f32(DType::F16, 1.0), 0x3c00);
/// assert_eq!(from_f32(DType::BF16, 1.0), 0x3f80);
/// ```
pub fn from_f32(dt: DType, f: f32) -> u16 {
    match dt {
        DType::F16 => f32_to_f16(f),
        DType::BF16 => f32_to_bf16(f),
        DType::F32 | DType::E4M3 | DType::E5M2 => {
            panic!("from_f32: {} has no 16-bit encoding", dt.name())
        }
    }
}

/// The value of `dt`'s 16-bit encoding `h` (exact).
///
/// # Panics
/// For [`DType::F32`] and the FP8 types, which have no 16-bit encoding (FP8: [`crate::fp8`]).
///
/// # Examples
///
/// ```
/// use cute_gpu::{DType, host::to_f32};
/// assert_eq!(to_f32(DType::F16, 0x3c00), 1.0);
/// assert_eq!(to_f32(DType::BF16, 0x3f80), 1.0);
/// ```
pub fn to_f32(dt: DType, h: u16) -> f32 {
    match dt {
        DType::F16 => f16_to_f32(h),
        DType::BF16 => bf16_to_f32(h),
        DType::F32 | DType::E4M3 | DType::E5M2 => {
            panic!("to_f32: {} has no 16-bit encoding", dt.name())
        }
    }
}

/// `f` rounded to the nearest value of `dt` (itself for f32).
///
/// ```
/// use cute_gpu::{DType, host::round_to};
/// assert_eq!(round_to(DType::F16, 0.1), 0.099975586);
/// assert_eq!(round_to(DType::F32, 0.1), 0.1);
/// ```
pub fn round_to(dt: DType, f: f32) -> f32 {
    match dt {
        DType::F32 => f,
        _ => to_f32(dt, from_f32(dt, f)),
    }
}

/// The values of 16-bit encodings of `dt`.
///
/// ```
/// use cute_gpu::{DType, host::decode};
/// assert_eq!(decode(DType::F16, &[0x3c00, 0xc000]), vec![1.0, -2.0]);
/// ```
pub fn decode(dt: DType, bits: &[u16]) -> Vec<f32> {
    bits.iter().map(|&h| to_f32(dt, h)).collect()
}

/// The 16-bit encodings of `dt` of values (rounded to nearest even).
///
/// ```
/// use cute_gpu::{DType, host::{decode, encode}};
/// let bits = encode(DType::BF16, &[1.0, 3.0]);
/// assert_eq!(bits, vec![0x3f80, 0x4040]);
/// assert_eq!(decode(DType::BF16, &bits), vec![1.0, 3.0]);
/// ```
pub fn encode(dt: DType, values: &[f32]) -> Vec<u16> {
    values.iter().map(|&f| from_f32(dt, f)).collect()
}

/// Every coordinate `(i, j)` of an `m x n` result, row by row.
///
/// ```
/// use cute_gpu::host::all_points;
/// assert_eq!(all_points(2, 2), vec![(0, 0), (0, 1), (1, 0), (1, 1)]);
/// ```
pub fn all_points(m: i64, n: i64) -> Vec<(i64, i64)> {
    (0..m).flat_map(|i| (0..n).map(move |j| (i, j))).collect()
}

/// Coordinates of an `m x n` result to check when checking all is too slow: every `step`-th
/// column of the given rows, every `step`-th row of the given columns, and `random` points drawn
/// from `rng`.
///
/// ```
/// use cute_gpu::host::{edge_points, Rng};
/// let p = edge_points((8, 8), &[0], &[7], 4, 2, &mut Rng(1));
/// // row 0 every 4th column, column 7 every 4th row, then 2 random points
/// assert_eq!(&p[..4], &[(0, 0), (0, 4), (0, 7), (4, 7)]);
/// assert_eq!(p.len(), 6);
/// ```
pub fn edge_points(
    (m, n): (i64, i64),
    rows: &[i64],
    cols: &[i64],
    step: usize,
    random: usize,
    rng: &mut Rng,
) -> Vec<(i64, i64)> {
    let mut points = Vec::new();
    for &i in rows {
        points.extend((0..n).step_by(step).map(|j| (i, j)));
    }
    for &j in cols {
        points.extend((0..m).step_by(step).map(|i| (i, j)));
    }
    points.extend((0..random).map(|_| rng.point(m, n)));
    points
}

/// The largest relative difference `|got - want| / max(|want|, 1)` of `(got, want)` pairs (0 for none).
///
/// ```
/// use cute_gpu::host::max_rel_error;
/// assert_eq!(max_rel_error([(1.5, 1.0), (100.5, 100.0)]), 0.5); // |1.5 - 1| / max(1, 1)
/// assert_eq!(max_rel_error([]), 0.0);
/// ```
pub fn max_rel_error(pairs: impl IntoIterator<Item = (f32, f32)>) -> f32 {
    pairs
        .into_iter()
        .map(|(got, want)| (got - want).abs() / want.abs().max(1.0))
        .fold(0.0, f32::max)
}

/// The CPU reference GEMM `D(i,j) = sum_k A(i,k) B(k,j)`, accumulated in f64 over f32 inputs. The
/// operands are copied K-contiguous once, so each point is one dot product.
///
/// ```
/// use cute_gpu::{Major, host::ReferenceGemm};
/// // A = [[1, 2], [3, 4]] row-major, B = [[5, 6], [7, 8]] given column-major (K-major)
/// let (a, b) = ([1.0, 2.0, 3.0, 4.0], [5.0, 7.0, 6.0, 8.0]);
/// let r = ReferenceGemm::from_majors((2, 2, 2), (&a[..], Major::K, 2), (&b[..], Major::K, 2));
/// assert_eq!([r.at(0, 0), r.at(0, 1), r.at(1, 0), r.at(1, 1)], [19.0, 22.0, 43.0, 50.0]);
/// ```
#[derive(Clone, Debug)]
pub struct ReferenceGemm {
    k: i64,
    /// A as (M,K), K-contiguous.
    a: Vec<f32>,
    /// B as (N,K), K-contiguous.
    b: Vec<f32>,
}

/// `rows x k` values `at(row, kk)`, K-contiguous.
fn k_contiguous(rows: i64, k: i64, at: impl Fn(i64, i64) -> f32) -> Vec<f32> {
    (0..rows * k).map(|x| at(x / k, x % k)).collect()
}

/// Element `(row, kk)` of a `(rows, K)` operand stored `major` with leading dimension `ld`.
fn strided(data: &[f32], major: Major, ld: i64) -> impl Fn(i64, i64) -> f32 + '_ {
    move |row, kk| match major {
        Major::K => data[(row * ld + kk) as usize],
        Major::MN => data[(row + kk * ld) as usize],
    }
}

impl ReferenceGemm {
    /// Operands given by layouts over their buffers (layout-core host tensors): A `(M,K)` and B
    /// `(K,N)`, as [`GemmSpec`](crate::kernels::gemm_sm80::GemmSpec) has them.
    ///
    /// ```
    /// use cute_gpu::host::ReferenceGemm;
    /// use cute_layout_core::Layout;
    /// let (a, b) = ([1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]);
    /// let a_l: Layout = "(2,2):(2,1)".parse().unwrap(); // A (M,K) row-major
    /// let b_l: Layout = "(2,2):(2,1)".parse().unwrap(); // B (K,N) row-major
    /// let r = ReferenceGemm::from_layouts(&a, &a_l, &b, &b_l).unwrap();
    /// assert_eq!([r.at(0, 0), r.at(1, 1)], [19.0, 50.0]);
    /// ```
    pub fn from_layouts(
        a: &[f32],
        a_layout: &Layout,
        b: &[f32],
        b_layout: &Layout,
    ) -> Result<Self> {
        let ta = make_tensor(make_gmem_ptr(a), a_layout.clone())?;
        let tb = make_tensor(make_gmem_ptr(b), b_layout.clone())?;
        let extent = |l: &Layout, i: usize| -> cute_layout_core::Result<i64> {
            Ok(cute_layout_core::size(&cute_layout_core::get(l, &[i])?)?.value)
        };
        let (m, k, n) = (
            extent(a_layout, 0)?,
            extent(a_layout, 1)?,
            extent(b_layout, 1)?,
        );
        let mut a_k = Vec::with_capacity((m * k) as usize);
        for x in 0..m * k {
            a_k.push(*ta.get((x / k, x % k))?);
        }
        let mut b_k = Vec::with_capacity((n * k) as usize);
        for x in 0..n * k {
            b_k.push(*tb.get((x % k, x / k))?);
        }
        Ok(ReferenceGemm { k, a: a_k, b: b_k })
    }

    /// Operands given by extents `(M, N, K)`, majors and leading dimensions: A `(M,K)` is row-major
    /// (`K`) or column-major (`MN`), B `(K,N)` column-major (`K`) or row-major (`MN`).
    ///
    /// ```
    /// use cute_gpu::{Major, host::ReferenceGemm};
    /// let (a, b) = ([1.0, 3.0, 2.0, 4.0], [5.0, 6.0, 7.0, 8.0]); // A column-major, B row-major
    /// let r = ReferenceGemm::from_majors((2, 2, 2), (&a[..], Major::MN, 2), (&b[..], Major::MN, 2));
    /// assert_eq!(r.at(1, 0), 43.0); // 3*5 + 4*7
    /// ```
    pub fn from_majors(
        (m, n, k): (i64, i64, i64),
        (a, a_major, lda): (&[f32], Major, i64),
        (b, b_major, ldb): (&[f32], Major, i64),
    ) -> Self {
        ReferenceGemm {
            k,
            a: k_contiguous(m, k, strided(a, a_major, lda)),
            b: k_contiguous(n, k, strided(b, b_major, ldb)),
        }
    }

    /// `D(i, j)`.
    ///
    /// ```
    /// use cute_gpu::{Major, host::ReferenceGemm};
    /// let ones = [1.0f32; 6];
    /// let r = ReferenceGemm::from_majors((2, 1, 3), (&ones[..], Major::K, 3), (&ones[..], Major::K, 3));
    /// assert_eq!(r.at(1, 0), 3.0); // a length-3 dot product of ones
    /// ```
    pub fn at(&self, i: i64, j: i64) -> f64 {
        let k = self.k as usize;
        let (a, b) = (i as usize * k, j as usize * k);
        self.a[a..a + k]
            .iter()
            .zip(&self.b[b..b + k])
            .map(|(&x, &y)| x as f64 * y as f64)
            .sum()
    }
}

/// The f64 reference of the scaled FP8 GEMM `D = scales * (A·B)`, A `(M,K)` row-major (`lda`), B `(K,N)`
/// column-major (`ldb`), from the exactly decoded operands; per-tensor scales are `scale_a[0]`,
/// `scale_b[0]`, block scales as [`crate::piece::fp8_scaling`] lays them out.
///
/// ```
/// use cute_gpu::{host::Fp8Reference, piece::fp8_scaling::Scaling};
/// // 1x2 · 2x1 with scales 0.5 and 4: 2 * (1*3 + 2*4) = 22, magnitude 22
/// let a = [1.0, 2.0];
/// let b = [3.0, 4.0];
/// let r = Fp8Reference { mnk: (1, 1, 2), a: (&a[..], 2), b: (&b[..], 2),
///                        scaling: Scaling::PerTensor, scale_a: &[0.5], scale_b: &[4.0] };
/// assert_eq!(r.at(0, 0), (22.0, 22.0));
/// ```
pub struct Fp8Reference<'a> {
    /// `(M, N, K)`.
    pub mnk: (i64, i64, i64),
    /// A's decoded values and leading dimension.
    pub a: (&'a [f32], i64),
    /// B's decoded values and leading dimension.
    pub b: (&'a [f32], i64),
    /// How the scales apply.
    pub scaling: crate::piece::fp8_scaling::Scaling,
    /// A's scales.
    pub scale_a: &'a [f32],
    /// B's scales.
    pub scale_b: &'a [f32],
}

impl Fp8Reference<'_> {
    /// `(D[i][j], sum over k of |scaled a_ik * b_kj|)`: the value and the magnitude the error is measured
    /// against (the sum's rounding errors are bounded by multiples of it).
    ///
    /// ```
    /// use cute_gpu::{host::Fp8Reference, piece::fp8_scaling::Scaling};
    /// let (a, b) = ([1.0, -2.0], [3.0, 4.0]);
    /// let r = Fp8Reference { mnk: (1, 1, 2), a: (&a[..], 2), b: (&b[..], 2),
    ///                        scaling: Scaling::PerTensor, scale_a: &[1.0], scale_b: &[1.0] };
    /// assert_eq!(r.at(0, 0), (-5.0, 11.0)); // 3 - 8, and |3| + |-8|
    /// ```
    pub fn at(&self, i: i64, j: i64) -> (f64, f64) {
        use crate::piece::fp8_scaling::{SCALE_BLOCK, Scaling};
        let (m, _, k) = self.mnk;
        let kb = (k + SCALE_BLOCK - 1) / SCALE_BLOCK;
        let (mut value, mut magnitude) = (0.0f64, 0.0f64);
        for p in 0..k {
            let s = match self.scaling {
                Scaling::PerTensor => self.scale_a[0] as f64 * self.scale_b[0] as f64,
                Scaling::Block => {
                    let blk = p / SCALE_BLOCK;
                    self.scale_a[(blk * m + i) as usize] as f64
                        * self.scale_b[((j / SCALE_BLOCK) * kb + blk) as usize] as f64
                }
            };
            let x = s
                * self.a.0[(i * self.a.1 + p) as usize] as f64
                * self.b.0[(j * self.b.1 + p) as usize] as f64;
            value += x;
            magnitude += x.abs();
        }
        (value, magnitude)
    }
}

/// SplitMix64: a small deterministic generator for test data.
///
/// ```
/// use cute_gpu::host::Rng;
/// let (mut g, mut h) = (Rng(42), Rng(42));
/// assert_eq!(g.next_u64(), h.next_u64()); // deterministic for a seed
/// ```
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// Next 64 random bits.
    ///
    /// ```
    /// use cute_gpu::host::Rng;
    /// let mut g = Rng(0);
    /// assert_ne!(g.next_u64(), g.next_u64());
    /// ```
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A small integer in `[-r, r]`.
    ///
    /// ```
    /// use cute_gpu::host::Rng;
    /// let mut g = Rng(7);
    /// assert!((0..100).all(|_| (-3..=3).contains(&g.small_int(3))));
    /// ```
    pub fn small_int(&mut self, r: i64) -> i64 {
        (self.next_u64() % (2 * r as u64 + 1)) as i64 - r
    }
    /// Uniform in `[-1, 1)` with a full 24-bit mantissa of random bits (multiples of 2^-23).
    ///
    /// ```
    /// use cute_gpu::host::Rng;
    /// let mut g = Rng(7);
    /// assert!((0..100).map(|_| g.uniform()).all(|x| (-1.0..1.0).contains(&x) && (x * 8388608.0).fract() == 0.0));
    /// ```
    pub fn uniform(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u32 << 23) as f32 - 1.0
    }
    /// A random coordinate of an `m x n` matrix.
    ///
    /// ```
    /// use cute_gpu::host::Rng;
    /// let (i, j) = Rng(3).point(4, 5);
    /// assert!((0..4).contains(&i) && (0..5).contains(&j));
    /// ```
    pub fn point(&mut self, m: i64, n: i64) -> (i64, i64) {
        let i = (self.next_u64() % m as u64) as i64;
        (i, (self.next_u64() % n as u64) as i64)
    }
    /// `len` values drawn by `value`, in `dt`'s 16-bit encoding.
    ///
    /// ```
    /// use cute_gpu::{DType, host::{decode, Rng}};
    /// let v = Rng(1).fill(DType::F16, 3, |_| 0.5);
    /// assert_eq!(decode(DType::F16, &v), vec![0.5; 3]);
    /// ```
    pub fn fill(
        &mut self,
        dt: DType,
        len: usize,
        mut value: impl FnMut(&mut Rng) -> f32,
    ) -> Vec<u16> {
        (0..len).map(|_| from_f32(dt, value(self))).collect()
    }
    /// `len` integers in `[-r, r]` in `dt`'s 16-bit encoding (exact products and sums in f32).
    ///
    /// ```
    /// use cute_gpu::{DType, host::{decode, Rng}};
    /// let v = decode(DType::BF16, &Rng(1).small_ints(DType::BF16, 64, 2));
    /// assert!(v.iter().all(|x| x.fract() == 0.0 && x.abs() <= 2.0));
    /// ```
    pub fn small_ints(&mut self, dt: DType, len: usize, r: i64) -> Vec<u16> {
        self.fill(dt, len, |g| g.small_int(r) as f32)
    }
    /// `len` values [`uniform`](Self::uniform) in `[-1, 1)`, rounded to `dt`'s 16-bit encoding.
    ///
    /// ```
    /// use cute_gpu::{DType, host::{decode, Rng}};
    /// let v = decode(DType::F16, &Rng(1).uniforms(DType::F16, 64));
    /// assert!(v.iter().all(|x| (-1.0..=1.0).contains(x)));
    /// ```
    pub fn uniforms(&mut self, dt: DType, len: usize) -> Vec<u16> {
        self.fill(dt, len, Rng::uniform)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn half_round_trips() {
        for v in [
            0.0f32,
            1.0,
            -2.5,
            65504.0,
            6.1035156e-5,
            5.9604645e-8,
            1000.0,
            0.1,
        ] {
            assert_eq!(
                f16_to_f32(f32_to_f16(v)),
                if v == 0.1 { 0.099975586 } else { v }
            );
            assert_eq!(
                bf16_to_f32(f32_to_bf16(v)).to_bits() >> 16,
                f32_to_bf16(v) as u32
            );
        }
        assert_eq!(f32_to_f16(1.0 + 1.0 / 2048.0), 0x3c00); // tie to even
        assert_eq!(f32_to_bf16(1.0), 0x3f80);
        assert_eq!(round_to(DType::F16, 0.1), 0.099975586);
        assert_eq!(round_to(DType::F32, 0.1), 0.1);
    }

    #[test]
    fn reference_from_layouts_matches_majors() {
        // A (5,7) column-major with ld 8 in a hierarchical layout, B (7,3) row-major with ld 8
        let (m, n, k) = (5, 3, 7);
        let mut rng = Rng(5);
        let a = decode(DType::F16, &rng.small_ints(DType::F16, 8 * 7, 2));
        let b = decode(DType::F16, &rng.small_ints(DType::F16, 7 * 8, 2));
        let al: Layout = "(5,(7,1)):(_1,(8,_0))".parse().unwrap();
        let bl: Layout = "(7,3):(8,_1)".parse().unwrap();
        let r = ReferenceGemm::from_layouts(&a, &al, &b, &bl).unwrap();
        let s = ReferenceGemm::from_majors((m, n, k), (&a, Major::MN, 8), (&b, Major::MN, 8));
        for (i, j) in all_points(m, n) {
            let want: f64 = (0..k)
                .map(|x| a[(i + 8 * x) as usize] as f64 * b[(8 * x + j) as usize] as f64)
                .sum();
            assert_eq!((r.at(i, j), s.at(i, j)), (want, want), "({i},{j})");
        }
    }

    #[test]
    fn points_cover_the_edges() {
        let p = edge_points((10, 20), &[0, 9], &[19], 3, 5, &mut Rng(1));
        assert_eq!(p.len(), 2 * 7 + 4 + 5);
        assert!(
            p.iter()
                .all(|&(i, j)| (0..10).contains(&i) && (0..20).contains(&j))
        );
        assert_eq!(all_points(2, 3).len(), 6);
        let u: Vec<f32> = decode(DType::BF16, &Rng(2).uniforms(DType::BF16, 100));
        assert!(u.iter().all(|x| (-1.0..=1.0).contains(x)));
    }
}
