//! The CPU reference of attention in f64: `O = softmax(scale * Q·Kᵀ + mask)·V` and `LSE` per row, with the
//! causal mask aligned bottom-right (query `i` sees keys `j <= i + Sk - Sq`, FlashAttention 2's
//! convention); a row that sees no key has `O = 0` and `LSE = -inf`.
//!
//! ```
//! use cute_gpu::attention::reference::{reference_attention, RefProblem};
//! // one query, keys with scores 0 and ln 3 (scale 1): weights 1/4 and 3/4
//! let p = RefProblem { batch: 1, sq: 1, sk: 2, hq: 1, hkv: 1, d: 1, causal: false, scale: 3f64.ln() };
//! let (o, lse) = reference_attention(&p, &[1.0], &[0.0, 1.0], &[0.0, 4.0]);
//! assert!((o[0] - 3.0).abs() < 1e-12 && (lse[0] - 4f64.ln()).abs() < 1e-12);
//! ```

/// Sizes of a reference problem (dense arrays, `(B,S,H,D)` row-major).
///
/// ```
/// use cute_gpu::attention::reference::{reference_attention, RefProblem};
/// // causal, Sq = Sk = 2: query 0 sees key 0 only, query 1 both
/// let p = RefProblem { batch: 1, sq: 2, sk: 2, hq: 1, hkv: 1, d: 1, causal: true, scale: 1.0 };
/// let (o, _lse) = reference_attention(&p, &[0.0, 0.0], &[0.0, 0.0], &[1.0, 3.0]);
/// assert_eq!(o, [1.0, 2.0]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct RefProblem {
    /// Batches.
    pub batch: usize,
    /// Query rows.
    pub sq: usize,
    /// Keys.
    pub sk: usize,
    /// Query heads.
    pub hq: usize,
    /// Key/value heads (divides `hq`).
    pub hkv: usize,
    /// Head dimension.
    pub d: usize,
    /// Causal mask.
    pub causal: bool,
    /// Softmax scale.
    pub scale: f64,
}

/// `(O, LSE)` for `q` `(B,Sq,Hq,D)`, `k` and `v` `(B,Sk,Hkv,D)`, all dense row-major: O `(B,Sq,Hq,D)`,
/// LSE `(B,Hq,Sq)`.
///
/// ```
/// use cute_gpu::attention::reference::{reference_attention, RefProblem};
/// let p = RefProblem { batch: 1, sq: 1, sk: 2, hq: 1, hkv: 1, d: 1, causal: false, scale: 1.0 };
/// let (o, lse) = reference_attention(&p, &[0.0], &[0.0, 0.0], &[1.0, 3.0]);
/// assert_eq!(o, [2.0]);
/// assert!((lse[0] - 2f64.ln()).abs() < 1e-12);
/// ```
pub fn reference_attention(
    p: &RefProblem,
    q: &[f32],
    k: &[f32],
    v: &[f32],
) -> (Vec<f64>, Vec<f64>) {
    let RefProblem {
        batch,
        sq,
        sk,
        hq,
        hkv,
        d,
        causal,
        scale,
    } = *p;
    let mut o = vec![0f64; batch * sq * hq * d];
    let mut lse = vec![f64::NEG_INFINITY; batch * hq * sq];
    let group = hq / hkv.max(1);
    let mut s = vec![0f64; sk];
    for b in 0..batch {
        for h in 0..hq {
            let hk = h / group.max(1);
            for i in 0..sq {
                let qi = &q[((b * sq + i) * hq + h) * d..][..d];
                let limit = if causal {
                    (i as i64 + 1 + sk as i64 - sq as i64).clamp(0, sk as i64) as usize
                } else {
                    sk
                };
                if limit == 0 {
                    continue;
                }
                let mut mx = f64::NEG_INFINITY;
                for (j, sj) in s.iter_mut().enumerate().take(limit) {
                    let kj = &k[((b * sk + j) * hkv + hk) * d..][..d];
                    *sj = scale
                        * qi.iter()
                            .zip(kj)
                            .map(|(x, y)| *x as f64 * *y as f64)
                            .sum::<f64>();
                    mx = mx.max(*sj);
                }
                let mut l = 0f64;
                let oi = &mut o[((b * sq + i) * hq + h) * d..][..d];
                for (j, sj) in s.iter().enumerate().take(limit) {
                    let pj = (sj - mx).exp();
                    l += pj;
                    let vj = &v[((b * sk + j) * hkv + hk) * d..][..d];
                    for (x, y) in oi.iter_mut().zip(vj) {
                        *x += pj * *y as f64;
                    }
                }
                oi.iter_mut().for_each(|x| *x /= l);
                lse[(b * hq + h) * sq + i] = mx + l.ln();
            }
        }
    }
    (o, lse)
}
