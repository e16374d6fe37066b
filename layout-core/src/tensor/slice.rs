//! Slicing with `_`: `t.slice((.., 3))` or `t.slice(s![_, 3])` is CuTe's `t(_,3)`, a view of the kept
//! modes at the offset of the fixed ones; `dice` keeps the fixed modes instead.

use super::base::{Tensor, View, ViewMut};
use super::engine::{Engine, EngineMut};
use super::index::{leaf, shape_size};
use super::layout::TensorLayout;
use crate::error::{LayoutError, Result};
use crate::{Coord, Int, IntTuple, Layout};

/// A coordinate that may hold `_` (all of a mode): the algebra's [`Coord`], under the name the
/// tensor layer uses for it.
///
/// Built by [`s!`](crate::s) (`s![_, (1, _)]`), or from Rust values: an integer fixes a mode, `..`
/// (`RangeFull`) or [`Underscore`] keeps it, tuples nest.
///
/// ```
/// use cute_layout_core::tensor::{SliceCoord, Underscore};
/// use cute_layout_core::s;
/// assert_eq!(s![_, 3].to_string(), "(_,3)");
/// assert_eq!(SliceCoord::from((Underscore, 3)), s![_, 3]);
/// ```
pub type SliceCoord = Coord;

/// CuTe's `_` as a value (Rust reserves `_` itself; `..` works too).
///
/// ```
/// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor, Underscore};
/// use cute_layout_core::Layout;
/// let a: Vec<i32> = (0..12).collect();
/// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
/// assert_eq!(t.slice((Underscore, 3)).unwrap().iter().copied().collect::<Vec<_>>(), vec![3, 7, 11]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Underscore;

impl From<std::ops::RangeFull> for SliceCoord {
    fn from(_: std::ops::RangeFull) -> Self {
        Coord::Underscore
    }
}
impl From<Underscore> for SliceCoord {
    fn from(_: Underscore) -> Self {
        Coord::Underscore
    }
}
macro_rules! int_slice {
    ($($t:ty),*) => {$(
        impl From<$t> for SliceCoord {
            fn from(i: $t) -> Self {
                Coord::Int(Int::d(i64::try_from(i).unwrap_or(i64::MAX)))
            }
        }
    )*};
}
int_slice!(i64, i32, usize, u32);

impl From<&IntTuple> for SliceCoord {
    fn from(t: &IntTuple) -> Self {
        match t {
            IntTuple::Int(i) => Coord::Int(*i),
            IntTuple::Tuple(v) => Coord::Tuple(v.iter().map(Coord::from).collect()),
            // Not a coordinate: make it fail the range check with a visible value.
            IntTuple::Basis(_) => Coord::Int(Int::d(i64::MIN)),
        }
    }
}

macro_rules! tuple_slice {
    ($(($($X:ident $i:tt),+))*) => {$(
        impl<$($X: Into<SliceCoord>),+> From<($($X,)+)> for SliceCoord {
            fn from(t: ($($X,)+)) -> Self {
                Coord::Tuple(vec![$(t.$i.into()),+])
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
/// use cute_layout_core::s;
/// assert_eq!(s![_, 3].to_string(), "(_,3)");
/// let j = 2;
/// assert_eq!(s![(1, _), j + 1].to_string(), "((1,_),3)");
/// assert_eq!(s![_].to_string(), "(_)");
/// ```
#[macro_export]
macro_rules! s {
    (@acc [$($out:expr,)*]) => {
        $crate::Coord::Tuple(vec![$($out),*])
    };
    (@acc [$($out:expr,)*] _ $(, $($rest:tt)*)?) => {
        $crate::s!(@acc [$($out,)* $crate::Coord::Underscore,] $($($rest)*)?)
    };
    (@acc [$($out:expr,)*] ( $($inner:tt)* ) , $($rest:tt)*) => {
        $crate::s!(@acc [$($out,)* $crate::s!($($inner)*),] $($rest)*)
    };
    (@acc [$($out:expr,)*] ( $($inner:tt)* )) => {
        $crate::s!(@acc [$($out,)* $crate::s!($($inner)*),])
    };
    (@acc [$($out:expr,)*] $e:expr $(, $($rest:tt)*)?) => {
        $crate::s!(@acc [$($out,)* $crate::Coord::from($e),] $($($rest)*)?)
    };
    ($($tokens:tt)*) => {
        $crate::s!(@acc [] $($tokens)*)
    };
}

/// Check that every integer of `c` lies inside the mode it meets (`0 <= c < size(mode)`) and that
/// `c` nests as the shape does where it is a tuple.
fn check_in_range(c: &Coord, shape: &IntTuple) -> Result<()> {
    match c {
        Coord::Underscore => Ok(()),
        Coord::Int(i) => {
            let n = shape_size(shape)?;
            if i.value < 0 || i.value >= n {
                return Err(LayoutError::IndexOutOfRange {
                    what: format!("slice coordinate in the mode {shape}"),
                    index: i.value,
                    bound: n,
                });
            }
            Ok(())
        }
        Coord::Tuple(cs) => match shape {
            IntTuple::Tuple(ss) if ss.len() == cs.len() => cs
                .iter()
                .zip(ss)
                .try_for_each(|(ci, si)| check_in_range(ci, si)),
            _ => Err(LayoutError::NotCongruent {
                what: "slice coordinate and tensor shape".into(),
                left: c.to_string(),
                right: shape.to_string(),
            }),
        },
    }
}

/// The algebra's `slice_and_offset(c, layout)` for a tensor: the layout of the modes where `c` is
/// `_` (flattened into one tuple, as CuTe does) and the index of the fixed part of `c`, after
/// checking that every fixed coordinate is inside its mode.
///
/// ```
/// use cute_layout_core::{s, Layout};
/// use cute_layout_core::tensor::slice_layout_and_offset;
/// let l: Layout = "((2,3),(4,5)):((1,2),(6,24))".parse().unwrap();
/// let (sub, off) = slice_layout_and_offset(&s![(1, _), (_, 2)], &l).unwrap();
/// assert_eq!((sub.to_string(), off), ("(3,4):(2,6)".to_string(), 1 + 48));
/// assert!(slice_layout_and_offset(&s![(2, _), _], &l).is_err());
/// ```
pub fn slice_layout_and_offset(c: &Coord, layout: &Layout) -> Result<(Layout, i64)> {
    check_in_range(c, layout.shape())?;
    let (sub, off) = crate::slice_and_offset(c, layout)?;
    Ok((sub, leaf(&off, "slice offset")?))
}

/// The algebra's `dice(c, layout)` for a tensor: the modes where `c` is an integer (flattened into
/// one tuple), after the same range check as [`slice_layout_and_offset`].
///
/// ```
/// use cute_layout_core::{s, Layout};
/// use cute_layout_core::tensor::dice_layout;
/// let l: Layout = "((2,3),(4,5)):((1,2),(6,24))".parse().unwrap();
/// assert_eq!(dice_layout(&s![(1, _), (_, 2)], &l).unwrap().to_string(), "(2,5):(1,24)");
/// ```
pub fn dice_layout(c: &Coord, layout: &Layout) -> Result<Layout> {
    check_in_range(c, layout.shape())?;
    crate::dice(c, layout)
}

impl<E: Engine, L: TensorLayout> Tensor<E, L> {
    /// CuTe's `tensor(c)` with `_` in `c`: a read-only view of the sub-tensor. `c` is anything that
    /// converts into a [`SliceCoord`]: `s![_, 3]`, `(.., 3)`, `(Underscore, 3)`.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::{s, Layout};
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// let col = t.slice(s![_, 3]).unwrap();          // t(_,3)
    /// assert_eq!(col.layout().to_string(), "(3):(4)");
    /// assert_eq!(col.iter().copied().collect::<Vec<_>>(), vec![3, 7, 11]);
    /// let row = t.slice((2, ..)).unwrap();           // t(2,_)
    /// assert_eq!(row.iter().copied().collect::<Vec<_>>(), vec![8, 9, 10, 11]);
    /// ```
    pub fn slice(&self, c: impl Into<Coord>) -> Result<View<'_, E>> {
        let (l, off) = slice_layout_and_offset(&c.into(), &self.layout().to_runtime())?;
        self.relayout(l, off)
    }
    /// [`Tensor::slice`], as a mutable view.
    ///
    /// ```
    /// use cute_layout_core::tensor::{fill, make_gmem_ptr, make_tensor};
    /// use cute_layout_core::{s, Layout};
    /// let mut a = vec![0i32; 12];
    /// let mut t = make_tensor(make_gmem_ptr(&mut a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// fill(&mut t.slice_mut(s![1, _]).unwrap(), 7).unwrap(); // fill(t(1,_), 7)
    /// assert_eq!(a, [0, 0, 0, 0, 7, 7, 7, 7, 0, 0, 0, 0]);
    /// ```
    pub fn slice_mut(&mut self, c: impl Into<Coord>) -> Result<ViewMut<'_, E>>
    where
        E: EngineMut,
    {
        let (l, off) = slice_layout_and_offset(&c.into(), &self.layout().to_runtime())?;
        self.relayout_mut(l, off)
    }
    /// A view through [`dice_layout`]: the modes `c` fixes, at this tensor's offset.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::{s, Layout};
    /// let a: Vec<i32> = (0..6).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(2,3):(3,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t.dice(s![1, _]).unwrap().layout().to_string(), "(2):(3)"); // keeps mode 0
    /// ```
    pub fn dice(&self, c: impl Into<Coord>) -> Result<View<'_, E>> {
        let l = dice_layout(&c.into(), &self.layout().to_runtime())?;
        self.relayout(l, 0)
    }
}
