//! CUTLASS 2.x's classic layouts (`cutlass/layout/matrix.h`, `pitch_linear.h`, `tensor.h`) and its
//! `TensorRef`/`TensorView`, with the conversion of each classic layout into the CuTe layout that
//! computes the same offsets for a given extent.
//!
//! CUTLASS's vocabulary: *size* is the number of elements of a tensor, *capacity* the number of
//! elements its storage needs (larger than the size when there is padding), *rank* the number of
//! logical dimensions, *extent* the size of each dimension.
//!
//! ```
//! use cute_layout_core::classic::{ClassicLayout, MatrixCoord, RowMajor};
//! // lda = columns + padding: capacity is rows * (columns + padding)
//! let (rows, columns, padding) = (4, 6, 2);
//! let layout = RowMajor::new(columns + padding);
//! assert_eq!(layout.capacity(MatrixCoord::new(rows, columns)).unwrap(), 4 * 8);
//! assert_eq!(layout.offset(MatrixCoord::new(1, 2)).unwrap(), 1 * 8 + 2);
//! // the same function as the CuTe layout (4,6):(8,_1)
//! let cute = layout.to_cute(MatrixCoord::new(rows, columns)).unwrap();
//! assert_eq!(cute.to_string(), "(4,6):(8,_1)");
//! ```
//!
//! Arithmetic is checked: an overflow or a zero stride where a division needs one is an error.

mod matrix;
mod tensor4d;
mod tensor_ref;

pub use matrix::{ColumnMajor, ColumnMajorInterleaved, PitchLinear, RowMajor, RowMajorInterleaved};
pub use tensor_ref::{TensorRef, TensorView};
pub use tensor4d::{TensorNCHW, TensorNHWC};

use crate::Layout;
use crate::error::{LayoutError, Result};
use std::fmt;

/// A logical coordinate of a classic layout (CUTLASS's `TensorCoord`): `RANK` integers.
///
/// ```
/// use cute_layout_core::classic::{MatrixCoord, TensorCoord};
/// let c = MatrixCoord::new(2, 5);
/// assert_eq!((MatrixCoord::RANK, c.components()), (2, vec![2, 5]));
/// assert_eq!(MatrixCoord::from_components(&[2, 5]).unwrap(), c);
/// assert!(c.within(&MatrixCoord::new(3, 6)) && !c.within(&MatrixCoord::new(2, 6)));
/// ```
pub trait TensorCoord: Copy + fmt::Debug + PartialEq {
    /// Number of components.
    const RANK: usize;
    /// The components, in CUTLASS's order.
    fn components(&self) -> Vec<i64>;
    /// The coordinate from its components; an error when there are not `RANK` of them.
    fn from_components(c: &[i64]) -> Result<Self>;
    /// True when `0 <= self[i] < extent[i]` for every component (CUTLASS's `TensorView::contains`).
    fn within(&self, extent: &Self) -> bool {
        self.components()
            .iter()
            .zip(extent.components())
            .all(|(&c, e)| 0 <= c && c < e)
    }
}

/// CUTLASS's Layout concept: maps a logical coordinate to an offset in linear memory.
///
/// ```
/// use cute_layout_core::classic::{ClassicLayout, MatrixCoord, RowMajor};
/// fn cute_of<L: ClassicLayout>(l: &L, extent: L::Coord) -> String { l.to_cute(extent).unwrap().to_string() }
/// let l = RowMajor::packed(MatrixCoord::new(4, 6)).unwrap();
/// assert_eq!((RowMajor::RANK, l.stride()), (2, 6));
/// assert_eq!(cute_of(&l, MatrixCoord::new(4, 6)), "(4,6):(6,_1)");
/// ```
pub trait ClassicLayout: Sized + Clone + fmt::Debug {
    /// The logical coordinate (`MatrixCoord`, `PitchLinearCoord`, `Tensor4DCoord`).
    type Coord: TensorCoord;
    /// The stride vector (`kStrideRank` integers).
    type Stride: Copy + fmt::Debug + PartialEq;
    /// Logical rank (`kRank`).
    const RANK: usize;
    /// Rank of the stride vector (`kStrideRank`).
    const STRIDE_RANK: usize;
    /// The layout of a tightly packed tensor of the given extent.
    fn packed(extent: Self::Coord) -> Result<Self>;
    /// The offset of a coordinate (CUTLASS's `operator()`).
    fn offset(&self, coord: Self::Coord) -> Result<i64>;
    /// The coordinate of an offset (the inverse of [`ClassicLayout::offset`] on the layout's image).
    fn inverse(&self, offset: i64) -> Result<Self::Coord>;
    /// The stride vector.
    fn stride(&self) -> Self::Stride;
    /// The number of elements of storage a tensor of this extent needs (counts padding).
    fn capacity(&self, extent: Self::Coord) -> Result<i64>;
    /// The CuTe layout that gives the same offset as `self` for every coordinate inside `extent`,
    /// with the coordinate's components as its modes in CUTLASS's order. Unit strides and interleave
    /// factors are static (`_1`, `_K`); extents and leading dimensions are dynamic.
    fn to_cute(&self, extent: Self::Coord) -> Result<Layout>;
}

macro_rules! coord_type {
    ($(#[$doc:meta])* $name:ident { $($field:ident),+ }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
        pub struct $name {
            $(
                #[doc = concat!("The `", stringify!($field), "` component.")]
                pub $field: i64,
            )+
        }
        impl $name {
            /// The coordinate from its components, in CUTLASS's order.
            ///
            /// ```
            /// use cute_layout_core::classic::{MatrixCoord, PitchLinearCoord, Tensor4DCoord, TensorCoord};
            /// assert_eq!(MatrixCoord::new(1, 2).components(), vec![1, 2]); // (row, column)
            /// assert_eq!(PitchLinearCoord::new(3, 4).to_string(), "(3,4)");
            /// assert_eq!(Tensor4DCoord::new(1, 2, 3, 4).c, 4); // (n, h, w, c)
            /// ```
            pub const fn new($($field: i64),+) -> Self {
                $name { $($field),+ }
            }
        }
        impl TensorCoord for $name {
            const RANK: usize = [$(stringify!($field)),+].len();
            fn components(&self) -> Vec<i64> {
                vec![$(self.$field),+]
            }
            fn from_components(c: &[i64]) -> Result<Self> {
                match c {
                    [$($field),+] => Ok($name { $($field: *$field),+ }),
                    _ => Err(LayoutError::invalid(format!(
                        "{} needs {} components, found {:?}",
                        stringify!($name),
                        Self::RANK,
                        c
                    ))),
                }
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                crate::int_tuple::write_tuple(f, &self.components())
            }
        }
    };
}

coord_type!(
    /// A matrix coordinate `(row, column)` (CUTLASS's `MatrixCoord`).
    MatrixCoord { row, column }
);
coord_type!(
    /// A pitch-linear coordinate `(contiguous, strided)` (CUTLASS's `PitchLinearCoord`).
    PitchLinearCoord { contiguous, strided }
);
coord_type!(
    /// An activation-tensor coordinate `(n, h, w, c)` (CUTLASS's `Tensor4DCoord`).
    Tensor4DCoord { n, h, w, c }
);

/// Checked `a * b`.
pub(crate) fn mul(a: i64, b: i64) -> Result<i64> {
    a.checked_mul(b).ok_or(LayoutError::Overflow {
        op: "*",
        lhs: a,
        rhs: b,
    })
}

/// Checked `a + b`.
pub(crate) fn add(a: i64, b: i64) -> Result<i64> {
    a.checked_add(b).ok_or(LayoutError::Overflow {
        op: "+",
        lhs: a,
        rhs: b,
    })
}

/// Checked `(a / b, a % b)` (C semantics).
pub(crate) fn divmod(a: i64, b: i64) -> Result<(i64, i64)> {
    if b == 0 {
        return Err(LayoutError::DivisionByZero { op: "/", lhs: a });
    }
    match (a.checked_div(b), a.checked_rem(b)) {
        (Some(q), Some(r)) => Ok((q, r)),
        _ => Err(LayoutError::Overflow {
            op: "/",
            lhs: a,
            rhs: b,
        }),
    }
}

/// Checked ceiling division of non-negative `a` by positive `b`.
pub(crate) fn ceil_div(a: i64, b: i64) -> Result<i64> {
    let (q, r) = divmod(a, b)?;
    Ok(if r > 0 { q + 1 } else { q })
}

/// A dynamic integer leaf.
pub(crate) fn d(v: i64) -> crate::IntTuple {
    crate::IntTuple::d(v)
}

/// A static integer leaf.
pub(crate) fn s(v: i64) -> crate::IntTuple {
    crate::IntTuple::s(v)
}

/// A tuple of leaves / tuples.
pub(crate) fn t(v: Vec<crate::IntTuple>) -> crate::IntTuple {
    crate::IntTuple::tuple(v)
}
