//! Evaluating run-time layouts for tensor access: coordinates (1-D, R-D, natural), the index range of
//! a layout, and an allocation-free walk over all indices in colexicographic order.
//!
//! These are the few layout evaluations the tensor layer needs on its hot paths. The general
//! `crd2idx`/`idx2crd` of the algebra live in `coord.rs`; this module only adds what a tensor needs on
//! top: bounds-checked evaluation without allocating, and an odometer that never divides.

use crate::error::{LayoutError, Result};
use crate::{IntTuple, Layout};

/// The integer value of a leaf; an error naming `what` for a tuple or a basis element.
pub(crate) fn leaf(t: &IntTuple, what: &str) -> Result<i64> {
    match t {
        IntTuple::Int(i) => Ok(i.value),
        _ => Err(LayoutError::invalid(format!(
            "{what}: a tensor needs integer shapes and strides, found {t}"
        ))),
    }
}

/// The product of the leaves of a shape, checked.
pub(crate) fn shape_size(shape: &IntTuple) -> Result<i64> {
    match shape {
        IntTuple::Tuple(v) => v.iter().try_fold(1i64, |acc, e| {
            let s = shape_size(e)?;
            acc.checked_mul(s).ok_or(LayoutError::Overflow {
                op: "*",
                lhs: acc,
                rhs: s,
            })
        }),
        l => leaf(l, "size"),
    }
}

/// The (shape, stride) pairs of the leaves, left to right.
pub(crate) fn flat_modes(layout: &Layout) -> Result<Vec<(i64, i64)>> {
    let shapes = layout.shape().leaves();
    let strides = layout.stride().leaves();
    shapes
        .iter()
        .zip(&strides)
        .map(|(s, d)| Ok((leaf(s, "shape")?, leaf(d, "stride")?)))
        .collect()
}

/// The smallest and largest index the layout maps its domain to, or `None` for an empty domain.
/// Negative shapes are an error. Checked: an overflow is an error.
pub(crate) fn index_bounds(layout: &Layout) -> Result<Option<(i64, i64)>> {
    let modes = flat_modes(layout)?;
    let (mut lo, mut hi) = (0i64, 0i64);
    for (s, d) in modes {
        if s < 0 {
            return Err(LayoutError::invalid(format!(
                "a tensor's layout cannot have a negative extent: {layout}"
            )));
        }
        if s == 0 {
            return Ok(None);
        }
        let reach = (s - 1).checked_mul(d).ok_or(LayoutError::Overflow {
            op: "*",
            lhs: s - 1,
            rhs: d,
        })?;
        let acc = if reach >= 0 { &mut hi } else { &mut lo };
        *acc = acc.checked_add(reach).ok_or(LayoutError::Overflow {
            op: "+",
            lhs: *acc,
            rhs: reach,
        })?;
    }
    Ok(Some((lo, hi)))
}

/// The index of the 1-D coordinate `c` within a mode `shape:stride` (colexicographic), checking
/// `0 <= c < size(shape)`.
pub(crate) fn index_1d(c: i64, shape: &IntTuple, stride: &IntTuple) -> Result<i64> {
    let n = shape_size(shape)?;
    if c < 0 || c >= n {
        return Err(LayoutError::IndexOutOfRange {
            what: format!("coordinate in the mode {shape}:{stride}"),
            index: c,
            bound: n,
        });
    }
    Ok(index_1d_unchecked(c, shape, stride))
}

// In range by the caller's check, so every product and sum is bounded by the layout's index range.
fn index_1d_unchecked(c: i64, shape: &IntTuple, stride: &IntTuple) -> i64 {
    match (shape, stride) {
        (IntTuple::Tuple(ss), IntTuple::Tuple(ds)) => {
            let mut rest = c;
            let mut acc = 0;
            for (k, (s, d)) in ss.iter().zip(ds).enumerate() {
                let n = shape_size(s).unwrap_or(1).max(1);
                let ck = if k + 1 == ss.len() { rest } else { rest % n };
                acc += index_1d_unchecked(ck, s, d);
                rest /= n;
            }
            acc
        }
        (_, IntTuple::Int(d)) => c * d.value,
        _ => 0,
    }
}

/// A coordinate into a run-time layout: an integer (1-D within the mode it meets), a tuple of
/// coordinates (one per mode: R-D or natural), or an [`IntTuple`].
pub trait RtCoord {
    /// The index of the coordinate in `shape:stride`; an error when it is out of range or its nesting
    /// does not fit the shape.
    fn index_in(&self, shape: &IntTuple, stride: &IntTuple) -> Result<i64>;
    /// The coordinate as an IntTuple (for messages).
    fn to_int_tuple(&self) -> IntTuple;
}

macro_rules! int_coord {
    ($($t:ty),*) => {$(
        impl RtCoord for $t {
            #[inline]
            fn index_in(&self, shape: &IntTuple, stride: &IntTuple) -> Result<i64> {
                let c = i64::try_from(*self).map_err(|_| LayoutError::invalid(format!("coordinate {self} does not fit in i64")))?;
                index_1d(c, shape, stride)
            }
            fn to_int_tuple(&self) -> IntTuple {
                IntTuple::d(i64::try_from(*self).unwrap_or(i64::MAX))
            }
        }
    )*};
}
int_coord!(i64, i32, usize, u32);

impl RtCoord for IntTuple {
    fn index_in(&self, shape: &IntTuple, stride: &IntTuple) -> Result<i64> {
        match self {
            IntTuple::Int(i) => index_1d(i.value, shape, stride),
            IntTuple::Tuple(cs) => {
                let (ss, ds) = match (shape, stride) {
                    (IntTuple::Tuple(ss), IntTuple::Tuple(ds)) if ss.len() == cs.len() => (ss, ds),
                    _ => {
                        return Err(LayoutError::NotCongruent {
                            what: "tensor coordinate and shape".into(),
                            left: self.to_string(),
                            right: shape.to_string(),
                        })
                    }
                };
                let mut acc = 0i64;
                for ((c, s), d) in cs.iter().zip(ss).zip(ds) {
                    acc += c.index_in(s, d)?;
                }
                Ok(acc)
            }
            IntTuple::Basis(_) => Err(LayoutError::invalid(format!(
                "a tensor coordinate cannot hold a basis element: {self}"
            ))),
        }
    }
    fn to_int_tuple(&self) -> IntTuple {
        self.clone()
    }
}

impl<X: RtCoord + ?Sized> RtCoord for &X {
    fn index_in(&self, shape: &IntTuple, stride: &IntTuple) -> Result<i64> {
        (**self).index_in(shape, stride)
    }
    fn to_int_tuple(&self) -> IntTuple {
        (**self).to_int_tuple()
    }
}

fn mismatch(rank: usize, shape: &IntTuple) -> LayoutError {
    LayoutError::NotCongruent {
        what: format!("a coordinate of rank {rank} and the tensor's shape"),
        left: format!("rank {rank}"),
        right: shape.to_string(),
    }
}

macro_rules! tuple_coord {
    ($(($($X:ident $i:tt),+))*) => {$(
        impl<$($X: RtCoord),+> RtCoord for ($($X,)+) {
            #[inline]
            fn index_in(&self, shape: &IntTuple, stride: &IntTuple) -> Result<i64> {
                const R: usize = [$($i),+].len();
                match (shape, stride) {
                    (IntTuple::Tuple(ss), IntTuple::Tuple(ds)) if ss.len() == R => {
                        Ok(0 $(+ self.$i.index_in(&ss[$i], &ds[$i])?)+)
                    }
                    _ => Err(mismatch(R, shape)),
                }
            }
            fn to_int_tuple(&self) -> IntTuple {
                IntTuple::Tuple(vec![$(self.$i.to_int_tuple()),+])
            }
        }
    )*};
}
tuple_coord! {
    (A 0)
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
    (A 0, B 1, C 2, D 3, E 4, F 5)
}

/// All indices of a run-time layout in colexicographic coordinate order, by an odometer over the
/// flattened modes (additions only, no division). The innermost mode is kept in its own fields so
/// that the common step touches no vector.
#[derive(Clone, Debug)]
pub struct Indices {
    inner_extent: i64,
    inner_stride: i64,
    inner_count: i64,
    outer: Vec<(i64, i64)>,
    counters: Vec<i64>,
    current: i64,
    remaining: i64,
}

impl Indices {
    pub(crate) fn new(layout: &Layout) -> Result<Indices> {
        let modes = flat_modes(layout)?;
        let remaining = shape_size(layout.shape())?.max(0);
        let (inner_extent, inner_stride) = modes.first().copied().unwrap_or((1, 0));
        let outer: Vec<(i64, i64)> = modes.iter().skip(1).copied().collect();
        Ok(Indices {
            inner_extent,
            inner_stride,
            inner_count: 0,
            counters: vec![0; outer.len()],
            outer,
            current: 0,
            remaining,
        })
    }

    // In range: the new index is an index of the layout, bounded by its checked index range.
    #[cold]
    fn carry(&mut self) {
        self.current -= self.inner_extent * self.inner_stride;
        self.inner_count = 0;
        for k in 0..self.outer.len() {
            let (s, d) = self.outer[k];
            self.counters[k] += 1;
            self.current += d;
            if self.counters[k] < s {
                return;
            }
            self.current -= s * d;
            self.counters[k] = 0;
        }
    }
}

impl Iterator for Indices {
    type Item = i64;
    #[inline]
    fn next(&mut self) -> Option<i64> {
        if self.remaining <= 0 {
            return None;
        }
        self.remaining -= 1;
        let out = self.current;
        self.inner_count += 1;
        self.current += self.inner_stride;
        if self.inner_count >= self.inner_extent && self.remaining > 0 {
            self.carry();
        }
        Some(out)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.remaining as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Indices {}
