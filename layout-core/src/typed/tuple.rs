//! Typed IntTuples: leaves ([`C<N>`](super::C), `i64`) and Rust tuples of typed IntTuples (rank 0 to 12).

use super::int::{C, Leaf};
use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;

/// A typed IntTuple: a leaf or a Rust tuple of typed IntTuples.
///
/// ```
/// use cute_layout_core::typed::{IntTupleT, C};
/// let t = (C::<4>, (C::<3>, 6i64));
/// assert_eq!(t.to_int_tuple().to_string(), "(_4,(_3,6))");
/// assert_eq!(t.size(), 72);
/// assert_eq!(<(C<4>, (C<3>, i64))>::RANK, 2);
/// ```
pub trait IntTupleT: Copy {
    /// Number of top-level modes (1 for a leaf).
    const RANK: usize;
    /// True when every leaf is static.
    const IS_STATIC: bool;
    /// The run-time IntTuple (static leaves stay static).
    fn to_int_tuple(&self) -> IntTuple;
    /// The typed IntTuple from a run-time one; an error when the nesting or a static leaf differs.
    fn from_int_tuple(t: &IntTuple) -> Result<Self>;
    /// The product of the leaves.
    fn size(&self) -> i64;
}

/// Shape types congruent with the stride type `D` (same nesting), with the indexing that a layout
/// `Self:D` performs. Implemented for every pair of leaves and, mode by mode, for tuples of equal rank.
///
/// ```
/// use cute_layout_core::typed::{Congruent, C};
/// // (_4,_8):(_8,_1) at 1-D index 9 -> (1,2) -> 1*8 + 2*1
/// assert_eq!((C::<4>, C::<8>).index_1d(&(C::<8>, C::<1>), 9), 10);
/// ```
pub trait Congruent<D: IntTupleT>: IntTupleT {
    /// The index of the 1-D coordinate `i` (colexicographic; the last mode is not reduced, as in CuTe).
    #[inline(always)]
    fn index_1d(&self, stride: &D, i: i64) -> i64 {
        self.index_chain(stride, i, true).0
    }
    /// The 1-D walk over the leaves, left to right: `q` is the 1-D coordinate divided by the sizes of
    /// the leaves before this one; returns the index contribution and `q` for the next leaf. The leaf
    /// coordinate is `q % extent`, except for the very last leaf (`last`), which takes `q` whole. This
    /// is CuTe's nested division by mode sizes, flattened: the same divisions one writes by hand.
    fn index_chain(&self, stride: &D, q: i64, last: bool) -> (i64, i64);
}

/// Fully static typed IntTuples, whose one value is a constant: `C<N>` and tuples of them.
///
/// ```
/// use cute_layout_core::typed::{Static, C};
/// let t: (C<4>, (C<3>,)) = Static::VALUE;
/// assert_eq!(t, (C::<4>, (C::<3>,)));
/// ```
pub trait Static: IntTupleT {
    /// The value.
    const VALUE: Self;
}

impl<const N: i64> Static for C<N> {
    const VALUE: Self = C;
}

impl Static for () {
    const VALUE: Self = ();
}

fn mismatch<T>(what: &str, t: &IntTuple) -> Result<T> {
    Err(LayoutError::invalid(format!("expected {what}, found {t}")))
}

impl<const N: i64> IntTupleT for C<N> {
    const RANK: usize = 1;
    const IS_STATIC: bool = true;
    fn to_int_tuple(&self) -> IntTuple {
        IntTuple::Int(self.to_int())
    }
    fn from_int_tuple(t: &IntTuple) -> Result<Self> {
        match t {
            IntTuple::Int(i) => C::<N>::from_int(*i),
            _ => mismatch(&format!("the static integer _{N}"), t),
        }
    }
    #[inline(always)]
    fn size(&self) -> i64 {
        N
    }
}

impl IntTupleT for i64 {
    const RANK: usize = 1;
    const IS_STATIC: bool = false;
    fn to_int_tuple(&self) -> IntTuple {
        IntTuple::Int(self.to_int())
    }
    fn from_int_tuple(t: &IntTuple) -> Result<Self> {
        match t {
            IntTuple::Int(i) => i64::from_int(*i),
            _ => mismatch("a dynamic integer", t),
        }
    }
    #[inline(always)]
    fn size(&self) -> i64 {
        *self
    }
}

macro_rules! leaf_congruent {
    ($($S:ty, $D:ty, [$($g:tt)*]);* $(;)?) => {$(
        impl<$($g)*> Congruent<$D> for $S {
            #[inline(always)]
            fn index_chain(&self, stride: &$D, q: i64, last: bool) -> (i64, i64) {
                let n = self.value();
                let c = if last { q } else { q % n };
                (c * stride.value(), q / n)
            }
        }
    )*};
}
leaf_congruent! {
    C<N>, C<M>, [const N: i64, const M: i64];
    C<N>, i64, [const N: i64];
    i64, C<M>, [const M: i64];
    i64, i64, [];
}

impl IntTupleT for () {
    const RANK: usize = 0;
    const IS_STATIC: bool = true;
    fn to_int_tuple(&self) -> IntTuple {
        IntTuple::Tuple(vec![])
    }
    fn from_int_tuple(t: &IntTuple) -> Result<Self> {
        match t {
            IntTuple::Tuple(v) if v.is_empty() => Ok(()),
            _ => mismatch("the empty tuple ()", t),
        }
    }
    fn size(&self) -> i64 {
        1
    }
}

impl Congruent<()> for () {
    fn index_chain(&self, _: &(), q: i64, _: bool) -> (i64, i64) {
        (0, q)
    }
}

macro_rules! tuple_impls {
    ($(($($S:ident $D:ident $i:tt),+))*) => {$(
        impl<$($S: IntTupleT),+> IntTupleT for ($($S,)+) {
            const RANK: usize = [$($i),+].len();
            const IS_STATIC: bool = $($S::IS_STATIC)&&+;
            fn to_int_tuple(&self) -> IntTuple {
                IntTuple::Tuple(vec![$(self.$i.to_int_tuple()),+])
            }
            fn from_int_tuple(t: &IntTuple) -> Result<Self> {
                match t {
                    IntTuple::Tuple(v) if v.len() == Self::RANK => Ok(($($S::from_int_tuple(&v[$i])?,)+)),
                    _ => mismatch(&format!("a tuple of rank {}", Self::RANK), t),
                }
            }
            #[inline(always)]
            fn size(&self) -> i64 {
                1 $(* self.$i.size())+
            }
        }

        impl<$($S: Static),+> Static for ($($S,)+) {
            const VALUE: Self = ($($S::VALUE,)+);
        }

        impl<$($S: Congruent<$D>, $D: IntTupleT),+> Congruent<($($D,)+)> for ($($S,)+) {
            #[inline(always)]
            fn index_chain(&self, stride: &($($D,)+), q: i64, last: bool) -> (i64, i64) {
                let mut q = q;
                let mut acc = 0;
                $(
                    let (a, next) = self.$i.index_chain(&stride.$i, q, last && $i + 1 == Self::RANK);
                    acc += a;
                    q = next;
                )+
                (acc, q)
            }
        }
    )*};
}

tuple_impls! {
    (S0 D0 0)
    (S0 D0 0, S1 D1 1)
    (S0 D0 0, S1 D1 1, S2 D2 2)
    (S0 D0 0, S1 D1 1, S2 D2 2, S3 D3 3)
    (S0 D0 0, S1 D1 1, S2 D2 2, S3 D3 3, S4 D4 4)
    (S0 D0 0, S1 D1 1, S2 D2 2, S3 D3 3, S4 D4 4, S5 D5 5)
    (S0 D0 0, S1 D1 1, S2 D2 2, S3 D3 3, S4 D4 4, S5 D5 5, S6 D6 6)
    (S0 D0 0, S1 D1 1, S2 D2 2, S3 D3 3, S4 D4 4, S5 D5 5, S6 D6 6, S7 D7 7)
    (S0 D0 0, S1 D1 1, S2 D2 2, S3 D3 3, S4 D4 4, S5 D5 5, S6 D6 6, S7 D7 7, S8 D8 8)
    (S0 D0 0, S1 D1 1, S2 D2 2, S3 D3 3, S4 D4 4, S5 D5 5, S6 D6 6, S7 D7 7, S8 D8 8, S9 D9 9)
    (S0 D0 0, S1 D1 1, S2 D2 2, S3 D3 3, S4 D4 4, S5 D5 5, S6 D6 6, S7 D7 7, S8 D8 8, S9 D9 9, S10 D10 10)
    (S0 D0 0, S1 D1 1, S2 D2 2, S3 D3 3, S4 D4 4, S5 D5 5, S6 D6 6, S7 D7 7, S8 D8 8, S9 D9 9, S10 D10 10, S11 D11 11)
}
