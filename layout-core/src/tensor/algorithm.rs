//! Tensor algorithms as in CuTe's `algorithm/`: `copy`, `copy_if`, `fill`, `clear`, `axpby`, and a
//! reference `gemm` on host tensors of any layouts (the CPU reference of the GPU tests).
//!
//! Elements pair up by 1-D coordinate: `dst(i) = src(i)` for `i` in `0..size`, whatever the two
//! layouts are. Sizes must agree (an error names both otherwise).

use super::base::Tensor;
use super::engine::{Engine, EngineMut, HeapEngine};
use super::index::{Indices, flat_modes, shape_size};
use super::layout::TensorLayout;
use crate::error::{LayoutError, Result};
use crate::{IntTuple, Layout};
use std::ops::{Add, Mul};

fn same_size(what: &str, a: i64, b: i64) -> Result<()> {
    if a != b {
        return Err(LayoutError::invalid(format!(
            "{what}: the tensors have sizes {a} and {b}; they must be equal"
        )));
    }
    Ok(())
}

/// The flattened modes of `src` and `dst` paired up as `(extent, src stride, dst stride)` when both
/// flatten to the same extents; extent-1 modes dropped, sorted by dst stride (then src stride) so that
/// the innermost loop is the one with the smallest steps, and neighbours merged where both strides
/// continue each other. `None` when the flattened shapes differ.
fn paired_modes(src: &Layout, dst: &Layout) -> Option<Vec<(i64, i64, i64)>> {
    let (ms, md) = (flat_modes(src).ok()?, flat_modes(dst).ok()?);
    if ms.len() != md.len() || ms.iter().zip(&md).any(|(a, b)| a.0 != b.0) {
        return None;
    }
    let mut modes: Vec<(i64, i64, i64)> = ms
        .iter()
        .zip(&md)
        .filter(|(a, _)| a.0 != 1)
        .map(|(a, b)| (a.0, a.1, b.1))
        .collect();
    modes.sort_by_key(|&(_, ds, dd)| (dd.unsigned_abs(), ds.unsigned_abs()));
    let mut merged: Vec<(i64, i64, i64)> = Vec::with_capacity(modes.len());
    for m in modes {
        if let Some(last) = merged.last_mut() {
            // In range: extent * stride is bounded by the checked index range of each tensor.
            if m.1 == last.0 * last.1 && m.2 == last.0 * last.2 {
                last.0 *= m.0;
                continue;
            }
        }
        merged.push(m);
    }
    Some(merged)
}

/// Walk the outer modes (all but the first) of paired modes with an odometer, calling `f` with the
/// src and dst index of each start of the innermost mode.
fn walk_outer(modes: &[(i64, i64, i64)], mut f: impl FnMut(i64, i64)) {
    let outer = &modes[1.min(modes.len())..];
    let mut count = vec![0i64; outer.len()];
    let (mut si, mut di) = (0i64, 0i64);
    loop {
        f(si, di);
        let mut k = 0;
        loop {
            if k == outer.len() {
                return;
            }
            let (n, ds, dd) = outer[k];
            count[k] += 1;
            si += ds;
            di += dd;
            if count[k] < n {
                break;
            }
            count[k] = 0;
            si -= n * ds;
            di -= n * dd;
            k += 1;
        }
    }
}

/// CuTe's `copy(src, dst)`: `dst(c) = src(c)` for every coordinate `c`. Elements pair up by
/// coordinate, so the order of the walk is free: when both tensors flatten to the same extents the
/// modes are walked innermost-by-smallest-destination-stride, and a run that is contiguous in both
/// is copied at once (CuTe's vectorized path). Otherwise it walks both layouts in 1-D order
/// ([`copy_naive`]).
///
/// ```
/// use cute_layout_core::tensor::{copy, make_gmem_ptr, make_tensor};
/// use cute_layout_core::Layout;
/// let src: Vec<i32> = (0..6).collect();
/// let mut dst = vec![0; 6];
/// let s = make_tensor(make_gmem_ptr(&src[..]), "(2,3):(3,1)".parse::<Layout>().unwrap()).unwrap();
/// let mut d = make_tensor(make_gmem_ptr(&mut dst[..]), "(2,3):(1,2)".parse::<Layout>().unwrap()).unwrap();
/// copy(&s, &mut d).unwrap();
/// assert_eq!(dst, vec![0, 3, 1, 4, 2, 5]);   // a transpose
/// ```
pub fn copy<E1, L1, E2, L2>(src: &Tensor<E1, L1>, dst: &mut Tensor<E2, L2>) -> Result<()>
where
    E1: Engine,
    E1::Value: Clone,
    L1: TensorLayout,
    E2: EngineMut<Value = E1::Value>,
    L2: TensorLayout,
{
    let n = src.size();
    same_size("copy", n, dst.size())?;
    if n == 0 {
        return Ok(());
    }
    let Some(modes) = paired_modes(&src.layout().to_runtime(), &dst.layout().to_runtime()) else {
        return copy_naive(src, dst);
    };
    let s = src.engine().as_slice();
    let so = src.offset();
    let (de, _, doff) = dst.parts_mut();
    let d = de.as_mut_slice();
    match modes.first() {
        None => d[doff as usize] = s[so as usize].clone(),
        Some(&(run, 1, 1)) => {
            let run = run as usize;
            walk_outer(&modes, |si, di| {
                let (a, b) = ((so + si) as usize, (doff + di) as usize);
                d[b..b + run].clone_from_slice(&s[a..a + run]);
            });
        }
        Some(&(run, ds, dd)) => {
            walk_outer(&modes, |si, di| {
                let (mut a, mut b) = (so + si, doff + di);
                for _ in 0..run {
                    d[b as usize] = s[a as usize].clone();
                    a += ds;
                    b += dd;
                }
            });
        }
    }
    Ok(())
}

/// `dst(i) = src(i)` element by element, walking both layouts (no dispatch to a contiguous copy).
///
/// ```
/// use cute_layout_core::tensor::{copy_naive, make_gmem_ptr, make_tensor};
/// use cute_layout_core::Layout;
/// let src: Vec<i32> = (0..6).collect();
/// let mut dst = vec![0; 6];
/// let s = make_tensor(make_gmem_ptr(&src[..]), "(2,3):(3,1)".parse::<Layout>().unwrap()).unwrap();
/// let mut d = make_tensor(make_gmem_ptr(&mut dst[..]), "(2,3):(1,2)".parse::<Layout>().unwrap()).unwrap();
/// copy_naive(&s, &mut d).unwrap(); // a transpose: row-major to column-major
/// assert_eq!(dst, [0, 3, 1, 4, 2, 5]);
/// ```
pub fn copy_naive<E1, L1, E2, L2>(src: &Tensor<E1, L1>, dst: &mut Tensor<E2, L2>) -> Result<()>
where
    E1: Engine,
    E1::Value: Clone,
    L1: TensorLayout,
    E2: EngineMut<Value = E1::Value>,
    L2: TensorLayout,
{
    same_size("copy", src.size(), dst.size())?;
    let s = src.engine().as_slice();
    let so = src.offset();
    let (de, dl, doff) = dst.parts_mut();
    let d = de.as_mut_slice();
    for (i, j) in src.layout().indices()?.zip(dl.indices()?) {
        d[(doff + j) as usize] = s[(so + i) as usize].clone();
    }
    Ok(())
}

/// CuTe's `copy_if(pred, src, dst)`: `if pred(i) { dst(i) = src(i) }`.
///
/// ```
/// use cute_layout_core::tensor::{copy_if, make_gmem_ptr, make_identity_tensor, make_tensor};
/// use cute_layout_core::{elem_less, IntTuple, Layout};
/// // copy the 3x3 corner of a 4x4 tile, predicated on coordinates from an identity tensor
/// let src: Vec<i32> = (1..=16).collect();
/// let mut dst = vec![0; 16];
/// let l: Layout = "(4,4):(1,4)".parse().unwrap();
/// let s = make_tensor(make_gmem_ptr(&src[..]), l.clone()).unwrap();
/// let mut d = make_tensor(make_gmem_ptr(&mut dst[..]), l).unwrap();
/// let bound: IntTuple = "(3,3)".parse().unwrap();
/// let pred = make_identity_tensor(s.shape()).unwrap()
///     .map(|c| elem_less(c, &bound).map(|b| b.value != 0).unwrap_or(false));
/// copy_if(&pred, &s, &mut d).unwrap();
/// assert_eq!(&dst[..8], &[1, 2, 3, 0, 5, 6, 7, 0]);
/// assert_eq!(&dst[12..], &[0, 0, 0, 0]);
/// ```
pub fn copy_if<EP, LP, E1, L1, E2, L2>(
    pred: &Tensor<EP, LP>,
    src: &Tensor<E1, L1>,
    dst: &mut Tensor<E2, L2>,
) -> Result<()>
where
    EP: Engine<Value = bool>,
    LP: TensorLayout,
    E1: Engine,
    E1::Value: Clone,
    L1: TensorLayout,
    E2: EngineMut<Value = E1::Value>,
    L2: TensorLayout,
{
    same_size("copy_if (pred, src)", pred.size(), src.size())?;
    same_size("copy_if (src, dst)", src.size(), dst.size())?;
    let s = src.engine().as_slice();
    let so = src.offset();
    let p = pred.engine().as_slice();
    let po = pred.offset();
    let (de, dl, doff) = dst.parts_mut();
    let d = de.as_mut_slice();
    let walk = pred
        .layout()
        .indices()?
        .zip(src.layout().indices()?)
        .zip(dl.indices()?);
    for ((k, i), j) in walk {
        if p[(po + k) as usize] {
            d[(doff + j) as usize] = s[(so + i) as usize].clone();
        }
    }
    Ok(())
}

/// CuTe's `fill(t, v)`: every element becomes `v`.
///
/// ```
/// use cute_layout_core::tensor::{fill, make_gmem_ptr, make_tensor};
/// use cute_layout_core::Layout;
/// let mut a = vec![0; 8];
/// let mut t = make_tensor(make_gmem_ptr(&mut a[..]), "(2,2):(1,4)".parse::<Layout>().unwrap()).unwrap();
/// fill(&mut t, 7).unwrap();
/// assert_eq!(a, vec![7, 7, 0, 0, 7, 7, 0, 0]);
/// ```
pub fn fill<E: EngineMut, L: TensorLayout>(t: &mut Tensor<E, L>, value: E::Value) -> Result<()>
where
    E::Value: Clone,
{
    if t.size() == 0 {
        return Ok(());
    }
    let l = t.layout().to_runtime();
    let (e, _, off) = t.parts_mut();
    let d = e.as_mut_slice();
    // Every element gets the same value, so any order will do: smallest stride innermost.
    let modes = paired_modes(&l, &l).unwrap_or_default();
    match modes.first() {
        None => d[off as usize] = value,
        Some(&(run, _, 1)) => walk_outer(&modes, |_, di| {
            let b = (off + di) as usize;
            d[b..b + run as usize].fill(value.clone());
        }),
        Some(&(run, _, dd)) => walk_outer(&modes, |_, di| {
            let mut b = off + di;
            for _ in 0..run {
                d[b as usize] = value.clone();
                b += dd;
            }
        }),
    }
    Ok(())
}

/// CuTe's `clear(t)`: every element becomes `T::default()` (zero for numbers).
///
/// ```
/// use cute_layout_core::tensor::{clear, make_gmem_ptr, make_tensor};
/// use cute_layout_core::Layout;
/// let mut a = vec![5i32; 8];
/// let mut t = make_tensor(make_gmem_ptr(&mut a[..]), "4:2".parse::<Layout>().unwrap()).unwrap();
/// clear(&mut t).unwrap();
/// assert_eq!(a, [0, 5, 0, 5, 0, 5, 0, 5]);
/// ```
pub fn clear<E: EngineMut, L: TensorLayout>(t: &mut Tensor<E, L>) -> Result<()>
where
    E::Value: Clone + Default,
{
    fill(t, E::Value::default())
}

/// CuTe's `axpby(alpha, x, beta, y)`: `y(i) = alpha * x(i) + beta * y(i)`.
///
/// ```
/// use cute_layout_core::tensor::{axpby, make_gmem_ptr, make_tensor};
/// use cute_layout_core::Layout;
/// let x = vec![1.0f32, 2.0, 3.0];
/// let mut y = vec![10.0f32, 20.0, 30.0];
/// let l: Layout = "3:1".parse().unwrap();
/// let tx = make_tensor(make_gmem_ptr(&x[..]), l.clone()).unwrap();
/// let mut ty = make_tensor(make_gmem_ptr(&mut y[..]), l).unwrap();
/// axpby(2.0, &tx, 0.5, &mut ty).unwrap();
/// assert_eq!(y, vec![7.0, 14.0, 21.0]);
/// ```
pub fn axpby<T, E1, L1, E2, L2>(
    alpha: T,
    x: &Tensor<E1, L1>,
    beta: T,
    y: &mut Tensor<E2, L2>,
) -> Result<()>
where
    T: Copy + Add<Output = T> + Mul<Output = T>,
    E1: Engine<Value = T>,
    L1: TensorLayout,
    E2: EngineMut<Value = T>,
    L2: TensorLayout,
{
    let n = x.size();
    same_size("axpby", n, y.size())?;
    if n == 0 {
        return Ok(());
    }
    let xs = x.engine().as_slice();
    let xo = x.offset();
    let lx = x.layout().to_runtime();
    let ly = y.layout().to_runtime();
    let (ye, yl, yo) = y.parts_mut();
    let ys = ye.as_mut_slice();
    let Some(modes) = paired_modes(&lx, &ly) else {
        for (i, j) in x.layout().indices()?.zip(yl.indices()?) {
            let p = (yo + j) as usize;
            ys[p] = alpha * xs[(xo + i) as usize] + beta * ys[p];
        }
        return Ok(());
    };
    match modes.first() {
        None => ys[yo as usize] = alpha * xs[xo as usize] + beta * ys[yo as usize],
        Some(&(run, dx, dy)) => walk_outer(&modes, |si, di| {
            let (mut a, mut b) = (xo + si, yo + di);
            for _ in 0..run {
                let p = b as usize;
                ys[p] = alpha * xs[a as usize] + beta * ys[p];
                a += dx;
                b += dy;
            }
        }),
    }
    Ok(())
}

/// The indices of mode `k` of a rank-2 tensor's layout, and the mode's size.
fn mode_indices(layout: &Layout, k: usize, what: &str) -> Result<Vec<i64>> {
    if layout.rank() != 2 || !layout.is_tuple() {
        return Err(LayoutError::invalid(format!(
            "gemm: {what} must have rank 2, its layout is {layout}"
        )));
    }
    Ok(Indices::new(&layout.mode(k)?)?.collect())
}

/// CuTe's `gemm(A, B, C)` on host tensors: `C(m,n) += sum_k A(m,k) * B(n,k)` with `A` `(M,K)`, `B`
/// `(N,K)` and `C` `(M,N)` (CuTe's convention: both operands K-indexed in mode 1). Each mode may be
/// hierarchical; any layouts, static or dynamic. The reference the GPU tests compare against.
///
/// ```
/// use cute_layout_core::tensor::{gemm, make_gmem_ptr, make_tensor};
/// use cute_layout_core::Layout;
/// let a = vec![1, 2, 3, 4];           // A = [[1,2],[3,4]] row-major (2,2):(2,1)
/// let b = vec![5, 6, 7, 8];           // B(n,k) column-major (2,2):(1,2): B = [[5,7],[6,8]]
/// let mut c = vec![0; 4];
/// let ta = make_tensor(make_gmem_ptr(&a[..]), "(2,2):(2,1)".parse::<Layout>().unwrap()).unwrap();
/// let tb = make_tensor(make_gmem_ptr(&b[..]), "(2,2):(1,2)".parse::<Layout>().unwrap()).unwrap();
/// let mut tc = make_tensor(make_gmem_ptr(&mut c[..]), "(2,2):(2,1)".parse::<Layout>().unwrap()).unwrap();
/// gemm(&ta, &tb, &mut tc).unwrap();
/// // C(m,n) = sum_k A(m,k) B(n,k): C(0,0) = 1*5 + 2*7
/// assert_eq!(c, vec![19, 22, 43, 50]);
/// ```
pub fn gemm<T, EA, LA, EB, LB, EC, LC>(
    a: &Tensor<EA, LA>,
    b: &Tensor<EB, LB>,
    c: &mut Tensor<EC, LC>,
) -> Result<()>
where
    T: Copy + Add<Output = T> + Mul<Output = T>,
    EA: Engine<Value = T>,
    LA: TensorLayout,
    EB: Engine<Value = T>,
    LB: TensorLayout,
    EC: EngineMut<Value = T>,
    LC: TensorLayout,
{
    let (la, lb, lc) = (
        a.layout().to_runtime(),
        b.layout().to_runtime(),
        c.layout().to_runtime(),
    );
    let (am, ak) = (mode_indices(&la, 0, "A")?, mode_indices(&la, 1, "A")?);
    let (bn, bk) = (mode_indices(&lb, 0, "B")?, mode_indices(&lb, 1, "B")?);
    let (cm, cn) = (mode_indices(&lc, 0, "C")?, mode_indices(&lc, 1, "C")?);
    if am.len() != cm.len() || bn.len() != cn.len() || ak.len() != bk.len() {
        return Err(LayoutError::invalid(format!(
            "gemm: A {la} is (M,K), B {lb} is (N,K) and C {lc} is (M,N): the extents do not agree \
             (M = {} and {}, N = {} and {}, K = {} and {})",
            am.len(),
            cm.len(),
            bn.len(),
            cn.len(),
            ak.len(),
            bk.len()
        )));
    }
    let (ad, ao) = (a.engine().as_slice(), a.offset());
    let (bd, bo) = (b.engine().as_slice(), b.offset());
    let (ce, _, co) = c.parts_mut();
    let cd = ce.as_mut_slice();
    for (&am_i, &cm_i) in am.iter().zip(&cm) {
        for (&bn_j, &cn_j) in bn.iter().zip(&cn) {
            let p = (co + cm_i + cn_j) as usize;
            let mut acc = cd[p];
            for (&ak_k, &bk_k) in ak.iter().zip(&bk) {
                acc = acc + ad[(ao + am_i + ak_k) as usize] * bd[(bo + bn_j + bk_k) as usize];
            }
            cd[p] = acc;
        }
    }
    Ok(())
}

/// CuTe's `make_identity_tensor(shape)`: the tensor whose element at each coordinate is that
/// coordinate (natural, as an [`IntTuple`]), with the compact column-major layout of `shape`. Mapped
/// through a bounds test it becomes the predicate tensor of [`copy_if`].
///
/// ```
/// use cute_layout_core::tensor::make_identity_tensor;
/// let id = make_identity_tensor(&"(2,(2,3))".parse().unwrap()).unwrap();
/// assert_eq!(id[(1, 5)].to_string(), "(1,(1,2))");
/// ```
pub fn make_identity_tensor(shape: &IntTuple) -> Result<Tensor<HeapEngine<IntTuple>, Layout>> {
    let layout = crate::make_layout(shape)?;
    let n = shape_size(shape)?;
    let coords = (0..n)
        .map(|i| crate::idx2crd_colex(&IntTuple::d(i), shape))
        .collect::<Result<Vec<_>>>()?;
    Tensor::new(HeapEngine::new(coords), layout)
}

impl<E: Engine, L: TensorLayout> Tensor<E, L> {
    /// A new owning tensor with `f` applied to every element, in the compact column-major layout of
    /// this tensor's shape (elements pair up by 1-D coordinate, as in `copy`).
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..6).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(2,3):(3,1)".parse::<Layout>().unwrap()).unwrap();
    /// let m = t.map(|x| x * 10);
    /// assert_eq!(m.layout().to_string(), "(2,3):(_1,2)");
    /// assert_eq!(m[(1, 2)], 50);
    /// ```
    pub fn map<U, F: FnMut(&E::Value) -> U>(
        &self,
        mut f: F,
    ) -> Tensor<HeapEngine<U, E::Space>, Layout> {
        let l = self.layout().to_runtime();
        let data: Vec<U> = self.iter().map(&mut f).collect();
        let layout = crate::make_layout(l.shape()).unwrap_or_else(|_| Layout::empty());
        match Tensor::new(HeapEngine::new(data), layout) {
            Ok(t) => t,
            // A compact layout of `size` elements fits the `size` values just made.
            Err(e) => unreachable!("compact layout of the mapped values: {e}"),
        }
    }
}
