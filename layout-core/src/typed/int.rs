//! Integer leaves of the typed layer: [`C<N>`](C) (static, zero-sized) and `i64` (dynamic).

use crate::error::{LayoutError, Result};
use crate::int::Int;
use std::fmt;

/// A static integer `_N` (CuTe's `cute::Int<N>`): zero-sized, its value is in its type.
///
/// ```
/// use cute_layout_core::typed::{Leaf, C};
/// assert_eq!(std::mem::size_of::<C<4>>(), 0);
/// assert_eq!(C::<4>.value(), 4);
/// assert_eq!(C::<4>.to_string(), "_4");
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct C<const N: i64>;

impl<const N: i64> C<N> {
    /// The value `N`.
    ///
    /// ```
    /// use cute_layout_core::typed::C;
    /// const N: i64 = C::<16>::VALUE;
    /// assert_eq!(N, 16);
    /// ```
    pub const VALUE: i64 = N;
}

impl<const N: i64> fmt::Debug for C<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "_{N}")
    }
}

impl<const N: i64> fmt::Display for C<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "_{N}")
    }
}

/// An integer leaf of the typed layer: `C<N>` (static) or `i64` (dynamic).
///
/// ```
/// use cute_layout_core::typed::{Leaf, C};
/// assert!(<C<3> as Leaf>::IS_STATIC && !<i64 as Leaf>::IS_STATIC);
/// assert_eq!(7i64.to_int().to_string(), "7");
/// assert_eq!(C::<7>.to_int().to_string(), "_7");
/// ```
pub trait Leaf: Copy {
    /// True for `C<N>`.
    const IS_STATIC: bool;
    /// The integer value.
    fn value(self) -> i64;
    /// The run-time integer, with its static flag.
    fn to_int(self) -> Int {
        Int::new(self.value(), Self::IS_STATIC)
    }
    /// The leaf from a run-time integer; an error when the static flag or a static value differs.
    fn from_int(i: Int) -> Result<Self>;
}

impl<const N: i64> Leaf for C<N> {
    const IS_STATIC: bool = true;
    #[inline(always)]
    fn value(self) -> i64 {
        N
    }
    fn from_int(i: Int) -> Result<Self> {
        if i.is_static && i.value == N {
            Ok(C)
        } else {
            Err(LayoutError::invalid(format!(
                "expected the static integer _{N}, found {i}"
            )))
        }
    }
}

impl Leaf for i64 {
    const IS_STATIC: bool = false;
    #[inline(always)]
    fn value(self) -> i64 {
        self
    }
    fn from_int(i: Int) -> Result<Self> {
        if i.is_static {
            Err(LayoutError::invalid(format!(
                "expected a dynamic integer, found the static integer {i}"
            )))
        } else {
            Ok(i.value)
        }
    }
}
