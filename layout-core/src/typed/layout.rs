//! The typed layout `Layout<S, D>`.

use super::coord::Coord;
use super::tuple::{Congruent, IntTupleT, Static};
use crate::error::{LayoutError, Result};
use std::fmt;

/// A layout whose shape `S` and stride `D` are typed IntTuples ([`C<N>`](super::C), `i64`, tuples).
/// Congruence is a trait bound, so an incongruent pair does not type-check.
///
/// ```
/// use cute_layout_core::typed::{Layout, C};
/// let n: i64 = 5;
/// let l = Layout::new((C::<4>, n), (C::<1>, C::<4>)); // (_4,5):(_1,_4)
/// assert_eq!(l.size(), 20);
/// assert_eq!(l.call((3, 2)), 11);
/// assert_eq!(l.to_string(), "(_4,5):(_1,_4)");
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Layout<S, D> {
    // Public but hidden for `layout!`: a fully static layout is emitted as the struct expression
    // `Layout { __shape: (C::<4>, ..), __stride: (..) }`, which the compiler types without proving
    // any trait bound or evaluating any constant (the cheapest expression to compile). Every method
    // requires `S: Congruent<D>`, so a value built this way with incongruent types is unusable.
    #[doc(hidden)]
    pub __shape: S,
    #[doc(hidden)]
    pub __stride: D,
}

impl<S: Congruent<D>, D: IntTupleT> Layout<S, D> {
    /// The layout `shape:stride`.
    ///
    /// ```
    /// use cute_layout_core::typed::{C, Layout};
    /// let l = Layout::new((C::<4>, C::<8>), (C::<8>, C::<1>)); // Layout<Shape<_4,_8>, Stride<_8,_1>>
    /// assert_eq!(l.to_string(), "(_4,_8):(_8,_1)");
    /// assert_eq!(std::mem::size_of_val(&l), 0);
    /// ```
    #[inline(always)]
    pub const fn new(shape: S, stride: D) -> Self {
        Layout {
            __shape: shape,
            __stride: stride,
        }
    }
    /// The shape.
    ///
    /// ```
    /// use cute_layout_core::typed::{C, Layout};
    /// let l = Layout::new((C::<4>, 8i64), (C::<1>, C::<4>)); // a dynamic extent
    /// assert_eq!(l.shape().1, 8);
    /// ```
    #[inline(always)]
    pub const fn shape(&self) -> &S {
        &self.__shape
    }
    /// The stride.
    ///
    /// ```
    /// use cute_layout_core::typed::{C, Layout};
    /// let l = Layout::new((C::<4>, C::<8>), (C::<8>, C::<1>));
    /// assert_eq!(*l.stride(), (C::<8>, C::<1>));
    /// ```
    #[inline(always)]
    pub const fn stride(&self) -> &D {
        &self.__stride
    }
    /// Number of top-level modes.
    ///
    /// ```
    /// use cute_layout_core::typed::{C, Layout};
    /// assert_eq!(Layout::new((C::<4>, (C::<2>, C::<3>)), (C::<1>, (C::<4>, C::<8>))).rank(), 2);
    /// ```
    pub const fn rank(&self) -> usize {
        S::RANK
    }
    /// The size of the domain: the product of the shape.
    ///
    /// ```
    /// use cute_layout_core::typed::{C, Layout};
    /// assert_eq!(Layout::new((C::<4>, (C::<2>, 3i64)), (C::<1>, (C::<4>, C::<8>))).size(), 24);
    /// ```
    #[inline(always)]
    pub fn size(&self) -> i64 {
        self.__shape.size()
    }
    /// The size of the codomain, `L(size - 1) + 1` as CuTe defines it.
    ///
    /// ```
    /// use cute_layout_core::typed::{C, Layout};
    /// assert_eq!(Layout::new((C::<4>, C::<8>), (C::<1>, C::<8>)).cosize(), 60); // 3 + 7*8 + 1
    /// ```
    #[inline(always)]
    pub fn cosize(&self) -> i64 {
        self.call(self.size() - 1) + 1
    }
    /// The index of a coordinate: 1-D (`i64`), R-D (a tuple of `i64`, one per mode) or natural
    /// (nested as the shape). CuTe's `L(c)`.
    ///
    /// ```
    /// use cute_layout_core::typed::{Layout, C};
    /// let l = Layout::new((C::<3>, (C::<2>, C::<3>)), (C::<3>, (C::<12>, C::<1>)));
    /// assert_eq!(l.call(16), 17);
    /// assert_eq!(l.call((1, 5)), 17);
    /// assert_eq!(l.call((1, (1, 2))), 17);
    /// ```
    #[inline(always)]
    pub fn call<X: Coord<S, D>>(&self, coord: X) -> i64 {
        coord.index(&self.__shape, &self.__stride)
    }
    /// The run-time layout, losslessly (static leaves stay static).
    ///
    /// ```
    /// use cute_layout_core::typed::{C, Layout};
    /// let l = Layout::new((C::<4>, 8i64), (C::<1>, C::<4>));
    /// assert_eq!(l.to_runtime(), "(_4,8):(_1,_4)".parse::<cute_layout_core::Layout>().unwrap());
    /// ```
    pub fn to_runtime(&self) -> crate::Layout {
        match crate::Layout::new(self.__shape.to_int_tuple(), self.__stride.to_int_tuple()) {
            Ok(l) => l,
            // `S: Congruent<D>` guarantees congruence and typed shapes hold no basis elements.
            Err(e) => unreachable!("a typed layout is congruent by its type: {e}"),
        }
    }
}

impl<S: Congruent<D> + Static, D: Static> Layout<S, D> {
    /// The one value of a fully static layout type.
    ///
    /// ```
    /// use cute_layout_core::typed::{Layout, C};
    /// const L: Layout<(C<2>, C<3>), (C<3>, C<1>)> = Layout::VALUE;
    /// assert_eq!(L.to_string(), "(_2,_3):(_3,_1)");
    /// ```
    pub const VALUE: Self = Layout {
        __shape: S::VALUE,
        __stride: D::VALUE,
    };
}

impl<S: Congruent<D>, D: IntTupleT> From<Layout<S, D>> for crate::Layout {
    fn from(l: Layout<S, D>) -> Self {
        l.to_runtime()
    }
}

impl<S: Congruent<D>, D: IntTupleT> TryFrom<&crate::Layout> for Layout<S, D> {
    type Error = LayoutError;
    /// The typed layout from a run-time one: an error when the nesting, a static flag or a static value
    /// differs from the type.
    fn try_from(l: &crate::Layout) -> Result<Self> {
        Ok(Layout {
            __shape: S::from_int_tuple(l.shape())?,
            __stride: D::from_int_tuple(l.stride())?,
        })
    }
}

impl<S: Congruent<D>, D: IntTupleT> TryFrom<crate::Layout> for Layout<S, D> {
    type Error = LayoutError;
    fn try_from(l: crate::Layout) -> Result<Self> {
        Layout::try_from(&l)
    }
}

impl<S: Congruent<D>, D: IntTupleT> fmt::Display for Layout<S, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_runtime())
    }
}
