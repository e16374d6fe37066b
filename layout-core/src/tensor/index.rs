//! Evaluating run-time layouts for tensor access: coordinates (1-D, R-D, natural), the index range of
//! a layout, and an allocation-free walk over all indices in colexicographic order.
//!
//! The evaluation itself (the colexicographic split, bounds-checked in `i64` for tensors) and the
//! index range are the algebra's single one, in [`crate::eval_fast`] (also behind `crd2idx` in
//! `coord.rs`); this module adds the tensor's coordinate types on top of it, and an odometer that
//! never divides.

pub(crate) use crate::eval_fast::{flat_modes, index_bounds, leaf, shape_size};

use crate::error::{LayoutError, Result};
use crate::eval_fast::{index_of, index_of_1d};
use crate::{IntTuple, Layout};

/// The index of the 1-D coordinate `c` within a mode `shape:stride` (colexicographic), checking
/// `0 <= c < size(shape)`.
#[inline]
pub(crate) fn index_1d(c: i64, shape: &IntTuple, stride: &IntTuple) -> Result<i64> {
    index_of_1d::<i64>(c, shape, stride)
}

/// A coordinate into a run-time layout: an integer (1-D within the mode it meets), a tuple of
/// coordinates (one per mode: R-D or natural), or an [`IntTuple`].
///
/// ```
/// use cute_layout_core::tensor::RtCoord;
/// use cute_layout_core::IntTuple;
/// let (shape, stride) = ("(4,(3,2))".parse::<IntTuple>().unwrap(), "(1,(4,12))".parse::<IntTuple>().unwrap());
/// assert_eq!(17.index_in(&shape, &stride).unwrap(), 17); // 1-D
/// assert_eq!((1, 4).index_in(&shape, &stride).unwrap(), 17); // R-D
/// assert_eq!((1, (1, 1)).index_in(&shape, &stride).unwrap(), 17); // natural
/// ```
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
        index_of::<i64>(self, shape, stride)
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
///
/// ```
/// use cute_layout_core::Layout;
/// use cute_layout_core::tensor::TensorLayout;
/// let l: Layout = "(2,3):(3,1)".parse().unwrap();
/// assert_eq!(l.indices().unwrap().collect::<Vec<_>>(), vec![0, 3, 1, 4, 2, 5]);
/// ```
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
