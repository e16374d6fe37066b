//! Slicing with `_`: `t.slice((.., 3))` or `t.slice(s![_, 3])` is CuTe's `t(_,3)`, a view of the kept
//! modes at the offset of the fixed ones; `dice` keeps the fixed modes instead.

use super::base::{Tensor, View, ViewMut};
use super::engine::{Engine, EngineMut};
use super::index::index_1d;
use super::layout::TensorLayout;
use crate::error::{LayoutError, Result};
use crate::{IntTuple, Layout};
use std::fmt;

/// A coordinate that may hold `_` (all of a mode): CuTe's coordinates with `Underscore`.
///
/// Built by [`s!`](crate::s) (`s![_, (1, _)]`), or from Rust values: an integer fixes a mode, `..`
/// (`RangeFull`) or [`Underscore`] keeps it, tuples nest.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SliceCoord {
    /// `_`: keep the whole mode.
    All,
    /// A fixed (1-D) coordinate in the mode.
    At(i64),
    /// One slice coordinate per mode.
    Tuple(Vec<SliceCoord>),
}

/// CuTe's `_` as a value (Rust reserves `_` itself; `..` works too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Underscore;

impl fmt::Display for SliceCoord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SliceCoord::All => write!(f, "_"),
            SliceCoord::At(i) => write!(f, "{i}"),
            SliceCoord::Tuple(v) => {
                write!(f, "(")?;
                for (k, e) in v.iter().enumerate() {
                    if k > 0 {
                        write!(f, ",")?;
                    }
                    write!(f, "{e}")?;
                }
                write!(f, ")")
            }
        }
    }
}

impl From<std::ops::RangeFull> for SliceCoord {
    fn from(_: std::ops::RangeFull) -> Self {
        SliceCoord::All
    }
}
impl From<Underscore> for SliceCoord {
    fn from(_: Underscore) -> Self {
        SliceCoord::All
    }
}
macro_rules! int_slice {
    ($($t:ty),*) => {$(
        impl From<$t> for SliceCoord {
            fn from(i: $t) -> Self {
                SliceCoord::At(i64::try_from(i).unwrap_or(i64::MAX))
            }
        }
    )*};
}
int_slice!(i64, i32, usize, u32);

impl From<&IntTuple> for SliceCoord {
    fn from(t: &IntTuple) -> Self {
        match t {
            IntTuple::Int(i) => SliceCoord::At(i.value),
            IntTuple::Tuple(v) => SliceCoord::Tuple(v.iter().map(SliceCoord::from).collect()),
            // Not a coordinate: make it fail the range check with a visible value.
            IntTuple::Basis(_) => SliceCoord::At(i64::MIN),
        }
    }
}

macro_rules! tuple_slice {
    ($(($($X:ident $i:tt),+))*) => {$(
        impl<$($X: Into<SliceCoord>),+> From<($($X,)+)> for SliceCoord {
            fn from(t: ($($X,)+)) -> Self {
                SliceCoord::Tuple(vec![$(t.$i.into()),+])
            }
        }
    )*};
}
tuple_slice! {
    (A 0)
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
    (A 0, B 1, C 2, D 3, E 4, F 5)
}

/// Hierarchical slice coordinates in the spirit of ndarray's `s![]`: `_` keeps a mode, an expression
/// fixes it, parentheses nest. `s![_, 3]` is CuTe's `(_,3)`, `s![(1, _), _]` is `((1,_),_)`.
///
/// ```
/// use layout_core::s;
/// assert_eq!(s![_, 3].to_string(), "(_,3)");
/// let j = 2;
/// assert_eq!(s![(1, _), j + 1].to_string(), "((1,_),3)");
/// assert_eq!(s![_].to_string(), "(_)");
/// ```
#[macro_export]
macro_rules! s {
    (@acc [$($out:expr,)*]) => {
        $crate::tensor::SliceCoord::Tuple(vec![$($out),*])
    };
    (@acc [$($out:expr,)*] _ $(, $($rest:tt)*)?) => {
        $crate::s!(@acc [$($out,)* $crate::tensor::SliceCoord::All,] $($($rest)*)?)
    };
    (@acc [$($out:expr,)*] ( $($inner:tt)* ) , $($rest:tt)*) => {
        $crate::s!(@acc [$($out,)* $crate::s!($($inner)*),] $($rest)*)
    };
    (@acc [$($out:expr,)*] ( $($inner:tt)* )) => {
        $crate::s!(@acc [$($out,)* $crate::s!($($inner)*),])
    };
    (@acc [$($out:expr,)*] $e:expr $(, $($rest:tt)*)?) => {
        $crate::s!(@acc [$($out,)* $crate::tensor::SliceCoord::from($e),] $($($rest)*)?)
    };
    ($($tokens:tt)*) => {
        $crate::s!(@acc [] $($tokens)*)
    };
}

fn not_congruent(c: &SliceCoord, shape: &IntTuple) -> LayoutError {
    LayoutError::NotCongruent {
        what: "slice coordinate and tensor shape".into(),
        left: c.to_string(),
        right: shape.to_string(),
    }
}

/// Walk `c` against `shape:stride`: sum the indices of fixed modes, push the modes that `keep` selects.
fn walk(
    c: &SliceCoord,
    shape: &IntTuple,
    stride: &IntTuple,
    keep_all: bool,
    kept: &mut Vec<(IntTuple, IntTuple)>,
) -> Result<i64> {
    match c {
        SliceCoord::All => {
            if keep_all {
                kept.push((shape.clone(), stride.clone()));
            }
            Ok(0)
        }
        SliceCoord::At(i) => {
            if !keep_all {
                kept.push((shape.clone(), stride.clone()));
            }
            index_1d(*i, shape, stride)
        }
        SliceCoord::Tuple(cs) => match (shape, stride) {
            (IntTuple::Tuple(ss), IntTuple::Tuple(ds)) if ss.len() == cs.len() => {
                let mut off = 0i64;
                for ((ci, si), di) in cs.iter().zip(ss).zip(ds) {
                    off += walk(ci, si, di, keep_all, kept)?;
                }
                Ok(off)
            }
            _ => Err(not_congruent(c, shape)),
        },
    }
}

fn from_kept(kept: Vec<(IntTuple, IntTuple)>) -> Result<Layout> {
    let (s, d): (Vec<_>, Vec<_>) = kept.into_iter().unzip();
    Layout::new(IntTuple::Tuple(s), IntTuple::Tuple(d))
}

/// CuTe's `slice_and_offset(c, layout)` for tensor slicing: the layout of the modes where `c` is `_`
/// (flattened into one tuple, as CuTe does) and the index of the fixed part of `c`.
///
/// ```
/// use layout_core::{s, Layout};
/// use layout_core::tensor::slice_layout_and_offset;
/// let l: Layout = "((2,3),(4,5)):((1,2),(6,24))".parse().unwrap();
/// let (sub, off) = slice_layout_and_offset(&s![(1, _), (_, 2)], &l).unwrap();
/// assert_eq!((sub.to_string(), off), ("(3,4):(2,6)".to_string(), 1 + 48));
/// ```
pub fn slice_layout_and_offset(c: &SliceCoord, layout: &Layout) -> Result<(Layout, i64)> {
    match c {
        SliceCoord::All => Ok((layout.clone(), 0)),
        SliceCoord::At(i) => Ok((
            Layout::empty(),
            index_1d(*i, layout.shape(), layout.stride())?,
        )),
        SliceCoord::Tuple(_) => {
            let mut kept = Vec::new();
            let off = walk(c, layout.shape(), layout.stride(), true, &mut kept)?;
            Ok((from_kept(kept)?, off))
        }
    }
}

/// CuTe's `dice(c, layout)`: the modes where `c` is an integer (flattened into one tuple), the
/// complement of [`slice_layout_and_offset`]'s selection.
///
/// ```
/// use layout_core::{s, Layout};
/// use layout_core::tensor::dice_layout;
/// let l: Layout = "((2,3),(4,5)):((1,2),(6,24))".parse().unwrap();
/// assert_eq!(dice_layout(&s![(1, _), (_, 2)], &l).unwrap().to_string(), "(2,5):(1,24)");
/// ```
pub fn dice_layout(c: &SliceCoord, layout: &Layout) -> Result<Layout> {
    match c {
        SliceCoord::All => Ok(Layout::empty()),
        SliceCoord::At(_) => Ok(layout.clone()),
        SliceCoord::Tuple(_) => {
            let mut kept = Vec::new();
            walk(c, layout.shape(), layout.stride(), false, &mut kept)?;
            from_kept(kept)
        }
    }
}

impl<E: Engine, L: TensorLayout> Tensor<E, L> {
    /// CuTe's `tensor(c)` with `_` in `c`: a read-only view of the sub-tensor. `c` is anything that
    /// converts into a [`SliceCoord`]: `s![_, 3]`, `(.., 3)`, `(Underscore, 3)`.
    ///
    /// ```
    /// use layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use layout_core::{s, Layout};
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// let col = t.slice(s![_, 3]).unwrap();          // t(_,3)
    /// assert_eq!(col.layout().to_string(), "(3):(4)");
    /// assert_eq!(col.iter().copied().collect::<Vec<_>>(), vec![3, 7, 11]);
    /// let row = t.slice((2, ..)).unwrap();           // t(2,_)
    /// assert_eq!(row.iter().copied().collect::<Vec<_>>(), vec![8, 9, 10, 11]);
    /// ```
    pub fn slice(&self, c: impl Into<SliceCoord>) -> Result<View<'_, E>> {
        let (l, off) = slice_layout_and_offset(&c.into(), &self.layout().to_runtime())?;
        self.relayout(l, off)
    }
    /// [`Tensor::slice`], as a mutable view.
    pub fn slice_mut(&mut self, c: impl Into<SliceCoord>) -> Result<ViewMut<'_, E>>
    where
        E: EngineMut,
    {
        let (l, off) = slice_layout_and_offset(&c.into(), &self.layout().to_runtime())?;
        self.relayout_mut(l, off)
    }
    /// A view through [`dice_layout`]: the modes `c` fixes, at this tensor's offset.
    pub fn dice(&self, c: impl Into<SliceCoord>) -> Result<View<'_, E>> {
        let l = dice_layout(&c.into(), &self.layout().to_runtime())?;
        self.relayout(l, 0)
    }
}
