//! What a tensor needs from its layout, for run-time layouts ([`crate::Layout`]) and typed layouts
//! ([`crate::typed::Layout`]).

use super::index::{Indices, index_bounds, shape_size};
use crate::Layout;
use crate::error::Result;
use crate::typed;
use std::fmt;

/// A layout a tensor can use: its size, its index range, a walk over all its indices in
/// colexicographic order, and its run-time form for the algebra.
///
/// ```
/// use cute_layout_core::Layout;
/// use cute_layout_core::tensor::TensorLayout;
/// let l: Layout = "(2,3):(3,1)".parse().unwrap();
/// assert_eq!(TensorLayout::size(&l).unwrap(), 6);
/// assert_eq!(l.bounds().unwrap(), Some((0, 5)));
/// assert!(!l.is_static());
/// ```
pub trait TensorLayout: Clone + fmt::Display {
    /// The iterator over all indices.
    type Indices<'a>: Iterator<Item = i64>
    where
        Self: 'a;
    /// The number of coordinates (CuTe's `size`).
    fn size(&self) -> Result<i64>;
    /// The smallest and largest index of the domain, `None` when the domain is empty.
    fn bounds(&self) -> Result<Option<(i64, i64)>>;
    /// All indices, in colexicographic coordinate order (`L(0), L(1), ...`).
    fn indices(&self) -> Result<Self::Indices<'_>>;
    /// The run-time layout, losslessly.
    fn to_runtime(&self) -> Layout;
    /// True when the layout is fully static (known at compile time).
    fn is_static(&self) -> bool;
}

impl TensorLayout for Layout {
    type Indices<'a> = Indices;
    fn size(&self) -> Result<i64> {
        shape_size(self.shape())
    }
    fn bounds(&self) -> Result<Option<(i64, i64)>> {
        index_bounds(self)
    }
    fn indices(&self) -> Result<Indices> {
        Indices::new(self)
    }
    fn to_runtime(&self) -> Layout {
        self.clone()
    }
    fn is_static(&self) -> bool {
        self.shape().is_static() && self.stride().is_static()
    }
}

/// The indices of a typed layout, `L(i)` for `i` in `0..size`.
///
/// ```
/// use cute_layout_core::tensor::TensorLayout;
/// use cute_layout_core::typed::{C, Layout};
/// let l = Layout::new((C::<2>, C::<3>), (C::<3>, C::<1>));
/// assert_eq!(l.indices().unwrap().collect::<Vec<_>>(), vec![0, 3, 1, 4, 2, 5]);
/// ```
#[derive(Clone, Debug)]
pub struct TypedIndices<'a, S, D> {
    layout: &'a typed::Layout<S, D>,
    next: i64,
    end: i64,
}

impl<S: typed::Congruent<D>, D: typed::IntTupleT> Iterator for TypedIndices<'_, S, D> {
    type Item = i64;
    #[inline(always)]
    fn next(&mut self) -> Option<i64> {
        if self.next < self.end {
            let i = self.next;
            self.next += 1;
            Some(self.layout.call(i))
        } else {
            None
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.end - self.next).max(0) as usize;
        (n, Some(n))
    }
}

impl<S: typed::Congruent<D>, D: typed::IntTupleT> TensorLayout for typed::Layout<S, D> {
    type Indices<'a>
        = TypedIndices<'a, S, D>
    where
        Self: 'a;
    fn size(&self) -> Result<i64> {
        shape_size(self.to_runtime().shape())
    }
    fn bounds(&self) -> Result<Option<(i64, i64)>> {
        index_bounds(&self.to_runtime())
    }
    fn indices(&self) -> Result<TypedIndices<'_, S, D>> {
        Ok(TypedIndices {
            layout: self,
            next: 0,
            end: TensorLayout::size(self)?,
        })
    }
    fn to_runtime(&self) -> Layout {
        typed::Layout::to_runtime(self)
    }
    fn is_static(&self) -> bool {
        S::IS_STATIC && D::IS_STATIC
    }
}
