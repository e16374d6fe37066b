//! Which kernel runs an attention request and with which arguments, decided on the CPU from the tensors'
//! CuTe layouts: validation with errors that name the values (before any launch), the variant
//! ([`AttentionConfig`]) and the kernel arguments ([`AttentionArgs`]).
//!
//! Q, K, V and O are rank-4 layouts of shape `(B, S, H, D)` with any strides (the head dim contiguous,
//! the other strides multiples of 8 elements): [`bshd`] and [`bhsd`] build the two common arrangements.
//! The optional LSE output is f32, `(B, Hq, Sq)` packed (`(Hq, total_q)` for varlen, as FlashAttention).
//!
//! ```
//! use cute_gpu::{attention::{bhsd, bshd, plan::{plan, Request}}, DType};
//! // Q in torch's (B,H,S,D) storage, K and V in FlashAttention's (B,S,H,D), grouped-query: 8 Q heads, 2 K/V heads
//! let (q, kv) = (bhsd(1, 256, 8, 64).unwrap(), bshd(1, 512, 2, 64).unwrap());
//! let r = Request { q: &q, k: &kv, v: &kv, o: &q, dtype: DType::BF16, scale: None, causal: true, varlen: None };
//! let p = plan(&r).unwrap();
//! assert_eq!((p.args.sq, p.args.sk, p.args.hq, p.args.hkv), (256, 512, 8, 2));
//! assert_eq!(p.args.strides[0], [131072, 64, 16384]); // Q's (batch, sequence, head) strides
//! ```

use crate::dtype::DType;
use crate::emit::flat_modes;
use crate::error::{GpuError, Result};
use crate::kernels::attention_sm80::{AttentionArgs, AttentionConfig};
use crate::kernels::attention_sm90::{Sm90AttentionConfig, takes, takes_o};
use cute_layout_core::{Layout, cosize};

fn bad<T>(reason: String) -> Result<T> {
    Err(GpuError::Config {
        kernel: "attention",
        reason,
    })
}

fn checked(what: &str, xs: &[i64]) -> Result<i64> {
    xs.iter().try_fold(1i64, |acc, &x| {
        acc.checked_mul(x).ok_or(GpuError::Overflow {
            what: what.to_string(),
            value: x,
            limit: i64::MAX / acc.max(1),
        })
    })
}

/// `(B,S,H,D)` stored batch, sequence, head, dim (FlashAttention's layout): strides `(S*H*D, H*D, D, 1)`.
///
/// ```
/// assert_eq!(cute_gpu::attention::bshd(2, 3, 4, 64).unwrap().to_string(), "(2,3,4,64):(768,256,64,1)");
/// ```
pub fn bshd(b: i64, s: i64, h: i64, d: i64) -> Result<Layout> {
    let strides = [checked("S*H*D", &[s, h, d])?, checked("H*D", &[h, d])?, d];
    Ok(format!(
        "({b},{s},{h},{d}):({},{},{},1)",
        strides[0], strides[1], strides[2]
    )
    .parse()?)
}

/// `(B,S,H,D)` stored batch, head, sequence, dim (torch's SDPA layout): strides `(H*S*D, D, S*D, 1)`.
///
/// ```
/// assert_eq!(cute_gpu::attention::bhsd(2, 3, 4, 64).unwrap().to_string(), "(2,3,4,64):(768,64,192,1)");
/// ```
pub fn bhsd(b: i64, s: i64, h: i64, d: i64) -> Result<Layout> {
    let strides = [checked("H*S*D", &[h, s, d])?, d, checked("S*D", &[s, d])?];
    Ok(format!(
        "({b},{s},{h},{d}):({},{},{},1)",
        strides[0], strides[1], strides[2]
    )
    .parse()?)
}

/// A tensor's extents `(B,S,H,D)` and strides.
///
/// ```
/// use cute_gpu::attention::{bhsd, plan::{dims, Dims}};
/// let d = dims(&bhsd(2, 3, 4, 64).unwrap(), "Q").unwrap();
/// assert_eq!(d, Dims { shape: [2, 3, 4, 64], stride: [768, 64, 192, 1] });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    /// Extents.
    pub shape: [i64; 4],
    /// Strides (elements).
    pub stride: [i64; 4],
}

/// The dims of `l` (named `what` in errors): rank 4, head dim contiguous, other strides non-negative
/// multiples of 8 elements (16-byte rows for `cp.async` and the 32-bit stores of O).
///
/// ```
/// use cute_gpu::attention::{bshd, plan::dims};
/// assert_eq!(dims(&bshd(1, 8, 2, 64).unwrap(), "K").unwrap().stride, [1024, 128, 64, 1]);
/// // (B,S,H,D) = (1,8,2,64):(1024,2,128,1): S's stride is not a whole number of 16-byte chunks
/// let bad: cute_layout_core::Layout = "(1,8,2,64):(1024,2,128,1)".parse().unwrap();
/// assert!(dims(&bad, "K").unwrap_err().to_string().contains("stride 2 of mode S must be a non-negative multiple of 8"));
/// let strided: cute_layout_core::Layout = "(1,8,2,64):(2048,256,128,2)".parse().unwrap();
/// assert!(dims(&strided, "K").unwrap_err().to_string().contains("the head dim must be contiguous (stride 1), not 2"));
/// ```
pub fn dims(l: &Layout, what: &str) -> Result<Dims> {
    let m = flat_modes(l)?;
    if m.len() != 4 {
        return bad(format!(
            "{what} {l}: expected a rank-4 (B,S,H,D) layout, got {} modes",
            m.len()
        ));
    }
    let shape = [0, 1, 2, 3].map(|i| m[i].0.value);
    let stride = [0, 1, 2, 3].map(|i| m[i].1.value);
    if shape[3] > 1 && stride[3] != 1 {
        return bad(format!(
            "{what} {l}: the head dim must be contiguous (stride 1), not {}",
            stride[3]
        ));
    }
    for (i, name) in ["B", "S", "H"].iter().enumerate() {
        if stride[i] < 0 || stride[i] % 8 != 0 {
            return bad(format!(
                "{what} {l}: stride {} of mode {name} must be a non-negative multiple of 8 elements (16-byte aligned rows)",
                stride[i]
            ));
        }
    }
    Ok(Dims { shape, stride })
}

/// An attention request (CPU side).
///
/// ```
/// use cute_gpu::{attention::{bshd, plan::{plan, Request}}, DType};
/// let l = bshd(2, 100, 8, 128).unwrap();
/// let r = Request { q: &l, k: &l, v: &l, o: &l, dtype: DType::BF16, scale: None, causal: true, varlen: None };
/// let p = plan(&r).unwrap();
/// assert_eq!((p.args.batch, p.args.sq, p.args.hq), (2, 100, 8));
/// ```
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// Q `(B,Sq,Hq,D)`.
    pub q: &'a Layout,
    /// K `(B,Sk,Hkv,D)`.
    pub k: &'a Layout,
    /// V `(B,Sk,Hkv,D)`.
    pub v: &'a Layout,
    /// O `(B,Sq,Hq,D)`.
    pub o: &'a Layout,
    /// Element type of Q, K, V, O.
    pub dtype: DType,
    /// Softmax scale (default `1/sqrt(D)`).
    pub scale: Option<f32>,
    /// Causal mask (bottom-right aligned).
    pub causal: bool,
    /// Cumulative sequence offsets of Q and K/V (`B + 1` each, from 0): packed variable-length batches,
    /// the layouts' B is then 1 and S the total.
    pub varlen: Option<(&'a [i32], &'a [i32])>,
}

/// A validated request: the kernel variant, its arguments and the bytes each buffer must hold.
///
/// ```
/// use cute_gpu::{attention::{bshd, plan::{plan, Request}}, DType};
/// let l = bshd(1, 64, 2, 64).unwrap(); // (1,64,2,64):(8192,128,64,1)
/// let r = Request { q: &l, k: &l, v: &l, o: &l, dtype: DType::F16, scale: None, causal: false, varlen: None };
/// let p = plan(&r).unwrap();
/// assert_eq!(p.needed, [16384, 16384, 16384, 16384, 2 * 64 * 4]); // bytes of Q, K, V, O, LSE
/// assert!(p.sm90.is_some() && !p.empty && p.args.scale == 0.125);
/// ```
#[derive(Clone, Debug)]
pub struct Plan {
    /// The kernel variant (mma.sync, any SM80+ GPU).
    pub config: AttentionConfig,
    /// The Hopper variant, when that kernel takes the problem (strides TMA can describe).
    pub sm90: Option<Sm90AttentionConfig>,
    /// Its arguments.
    pub args: AttentionArgs,
    /// Bytes Q, K, V, O span (cosize * element size) and the LSE output's bytes.
    pub needed: [usize; 5],
    /// Nothing to compute (no batch, head or query row).
    pub empty: bool,
}

fn same(what: &str, names: [&str; 2], a: i64, b: i64) -> Result<()> {
    if a != b {
        return bad(format!("{what} differ: {} {a}, {} {b}", names[0], names[1]));
    }
    Ok(())
}

/// The longest sequence of a cumulative offsets array, checked: `B + 1` entries from 0, non-decreasing,
/// the last within `total`.
fn seqlens(cu: &[i32], what: &str, total: i64) -> Result<i64> {
    if cu.len() < 2 || cu[0] != 0 {
        return bad(format!(
            "{what} must hold B + 1 >= 2 offsets starting at 0, got {cu:?}"
        ));
    }
    let mut longest = 0;
    for w in cu.windows(2) {
        if w[1] < w[0] {
            return bad(format!("{what} decreases: {} then {}", w[0], w[1]));
        }
        longest = longest.max((w[1] - w[0]) as i64);
    }
    let last = cu[cu.len() - 1] as i64;
    if last > total {
        return bad(format!(
            "{what} ends at {last}, past the {total} rows of the layout"
        ));
    }
    Ok(longest)
}

/// Validates `r` and plans its launch.
///
/// ```
/// use cute_gpu::{attention::{bshd, plan::{plan, Request}}, DType};
/// let (q, kv) = (bshd(1, 16, 8, 64).unwrap(), bshd(1, 32, 3, 64).unwrap());
/// let r = Request { q: &q, k: &kv, v: &kv, o: &q, dtype: DType::F16, scale: None, causal: false, varlen: None };
/// assert!(plan(&r).unwrap_err().to_string().contains("3 K/V heads do not divide 8 query heads"));
/// let r = Request { dtype: DType::F32, ..r };
/// assert!(plan(&r).unwrap_err().to_string().contains("f32: Q, K, V, O must be f16 or bf16"));
/// ```
pub fn plan(r: &Request) -> Result<Plan> {
    if !r.dtype.is_half() {
        return bad(format!(
            "{}: Q, K, V, O must be f16 or bf16",
            r.dtype.name()
        ));
    }
    let [q, k, v, o] = [(r.q, "Q"), (r.k, "K"), (r.v, "V"), (r.o, "O")].map(|(l, n)| dims(l, n));
    let (q, k, v, o) = (q?, k?, v?, o?);
    let d = q.shape[3];
    if [k.shape[3], v.shape[3], o.shape[3]] != [d, d, d] {
        return bad(format!(
            "head dims differ: Q {d}, K {}, V {}, O {}",
            k.shape[3], v.shape[3], o.shape[3]
        ));
    }
    if ![64, 128, 256].contains(&d) {
        return bad(format!("head dim {d}: supported are 64, 128 and 256"));
    }
    for (names, i, what) in [
        (["Q", "O"], 0, "batches"),
        (["Q", "K"], 0, "batches"),
        (["K", "V"], 0, "batches"),
        (["Q", "O"], 1, "query lengths"),
        (["K", "V"], 1, "key lengths"),
        (["Q", "O"], 2, "query heads"),
        (["K", "V"], 2, "key/value heads"),
    ] {
        let pick = |n: &str| match n {
            "Q" => q,
            "K" => k,
            "V" => v,
            _ => o,
        };
        same(
            what,
            names,
            pick(names[0]).shape[i],
            pick(names[1]).shape[i],
        )?;
    }
    let (hq, hkv) = (q.shape[2], k.shape[2]);
    if hkv <= 0 && hq > 0 || hkv > 0 && hq % hkv != 0 {
        return bad(format!("{hkv} K/V heads do not divide {hq} query heads"));
    }
    let scale = r.scale.unwrap_or(1.0 / (d as f32).sqrt());
    if !(scale.is_finite() && scale > 0.0) {
        return bad(format!("scale {scale}: must be finite and positive"));
    }
    plan_sizes(r, [q, k, v, o], scale)
}

fn plan_sizes(r: &Request, [q, k, v, o]: [Dims; 4], scale: f32) -> Result<Plan> {
    let (d, hq, hkv) = (q.shape[3], q.shape[2], k.shape[2]);
    let (batch, sq, sk, lse) = match r.varlen {
        Some((cq, ck)) => {
            if q.shape[0] != 1 {
                return bad(format!(
                    "varlen: the layouts' B must be 1 (packed sequences), got {}",
                    q.shape[0]
                ));
            }
            if cq.len() != ck.len() {
                return bad(format!(
                    "varlen: cu_seqlens_q has {} offsets, cu_seqlens_k {}",
                    cq.len(),
                    ck.len()
                ));
            }
            let (sq, sk) = (
                seqlens(cq, "cu_seqlens_q", q.shape[1])?,
                seqlens(ck, "cu_seqlens_k", k.shape[1])?,
            );
            (cq.len() as i64 - 1, sq, sk, [0, q.shape[1], 1])
        }
        None => (
            q.shape[0],
            q.shape[1],
            k.shape[1],
            [checked("Hq*Sq", &[hq, q.shape[1]])?, q.shape[1], 1],
        ),
    };
    if batch > 65535 || hq > 65535 {
        return bad(format!(
            "{batch} batches x {hq} heads: at most 65535 of each (grid z and y)"
        ));
    }
    let lse_elems = if r.varlen.is_some() {
        checked("LSE", &[hq, q.shape[1]])?
    } else {
        checked("LSE", &[batch, hq, sq])?
    };
    let span = |l: &Layout| -> Result<usize> {
        let n = cosize(l)?.value.max(0);
        Ok(usize::try_from(checked("bytes", &[n, 2])?).unwrap_or(usize::MAX))
    };
    let needed = [
        span(r.q)?,
        span(r.k)?,
        span(r.v)?,
        span(r.o)?,
        (lse_elems.max(0) as usize).saturating_mul(4),
    ];
    // varlen: the batch index is the sequence, whose rows start at its offset: no batch stride
    let b_stride = |x: Dims| if r.varlen.is_some() { 0 } else { x.stride[0] };
    let strides = [q, k, v, o].map(|x| [b_stride(x), x.stride[1], x.stride[2]]);
    let args = AttentionArgs {
        batch,
        sq,
        sk,
        hq,
        hkv: hkv.max(1),
        strides,
        lse,
        scale,
        packed: r.varlen.map(|_| [q.shape[1], k.shape[1]]),
    };
    let sm90 = takes(&args).then(|| {
        let c = Sm90AttentionConfig::new(r.dtype, d, r.causal)
            .for_keys(sk)
            .for_rows(sq);
        let varlen = r.varlen.is_some();
        Sm90AttentionConfig {
            varlen,
            tma_store_o: c.tma_store_o && takes_o(&args),
            // packed sequences: the persistent d = 256 kernels spill 8-12 bytes with the broadcast index
            broadcast_wg: c.broadcast_wg && !(varlen && c.persistent && d == 256),
            ..c
        }
        .with_narrow_tail(sk)
    });
    Ok(Plan {
        config: AttentionConfig::new(r.dtype, d, r.causal, r.varlen.is_some()),
        sm90,
        args,
        needed,
        empty: batch == 0 || sq == 0 || hq == 0,
    })
}

/// A buffer as the launch checks see it: name, device address, bytes.
///
/// ```
/// use cute_gpu::attention::plan::Bound;
/// let b = Bound { name: "Q", ptr: 0x1000, bytes: 4096 };
/// assert_eq!((b.name, b.ptr % 16), ("Q", 0));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Bound {
    /// `Q`, `K`, `V`, `O` or `LSE`.
    pub name: &'static str,
    /// Device address.
    pub ptr: u64,
    /// Bytes of the buffer.
    pub bytes: usize,
}

/// Every buffer holds what the plan needs, is 16-byte aligned, and O and LSE overlap no input.
///
/// ```
/// use cute_gpu::{attention::{bshd, plan::{check_bound, plan, Bound, Request}}, DType, GpuError};
/// let l = bshd(1, 64, 1, 64).unwrap(); // 8 KiB per tensor in f16, LSE 256 bytes
/// let r = Request { q: &l, k: &l, v: &l, o: &l, dtype: DType::F16, scale: None, causal: false, varlen: None };
/// let p = plan(&r).unwrap();
/// let at = |name, i: u64, bytes| Bound { name, ptr: 0x10000 * (i + 1), bytes };
/// let mut b = [at("Q", 0, 8192), at("K", 1, 8192), at("V", 2, 8192), at("O", 3, 8192), at("LSE", 4, 256)];
/// assert!(check_bound(&p, &b).is_ok());
/// b[1].bytes = 100;
/// assert!(matches!(check_bound(&p, &b), Err(GpuError::BufferTooSmall { needed: 8192, .. })));
/// ```
pub fn check_bound(plan: &Plan, bound: &[Bound; 5]) -> Result<()> {
    for (b, &needed) in bound.iter().zip(&plan.needed) {
        if b.bytes < needed {
            return Err(GpuError::BufferTooSmall {
                arg: b.name.into(),
                bytes: b.bytes,
                needed,
            });
        }
        if b.ptr % 16 != 0 {
            return Err(GpuError::Misaligned {
                arg: b.name.into(),
                address: b.ptr,
                alignment: 16,
            });
        }
    }
    for out in 3..5 {
        for input in 0..3 {
            let (x, y) = (&bound[out], &bound[input]);
            let (nx, ny) = (plan.needed[out] as u64, plan.needed[input] as u64);
            if nx > 0 && ny > 0 && x.ptr < y.ptr + ny && y.ptr < x.ptr + nx {
                return bad(format!(
                    "{} overlaps {} ({:#x}+{nx} and {:#x}+{ny})",
                    x.name, y.name, x.ptr, y.ptr
                ));
            }
        }
    }
    Ok(())
}
