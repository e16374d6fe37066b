//! Coordinates of typed layouts: a 1-D integer, or a tuple whose modes are coordinates of the
//! layout's modes (an R-D coordinate when they are integers, a natural coordinate when they nest
//! as the shape does).

use super::int::C;
use super::tuple::{Congruent, IntTupleT};

/// A coordinate into a layout with shape `S` and stride `D`: CuTe's `crd2idx(coord, shape, stride)`.
///
/// ```
/// use cute_layout_core::typed::{Coord, C};
/// let (s, d) = ((C::<2>, (C::<2>, C::<2>)), (C::<4>, (C::<2>, C::<1>)));
/// assert_eq!(3i64.index(&s, &d), 6);           // 1-D: (1,1) -> (1,(1,0))
/// assert_eq!((1i64, 1i64).index(&s, &d), 6);   // R-D
/// assert_eq!((1i64, (1i64, 0i64)).index(&s, &d), 6); // natural
/// ```
pub trait Coord<S, D> {
    /// The index this coordinate maps to.
    fn index(self, shape: &S, stride: &D) -> i64;
}

impl<S: Congruent<D>, D: IntTupleT> Coord<S, D> for i64 {
    #[inline(always)]
    fn index(self, shape: &S, stride: &D) -> i64 {
        shape.index_1d(stride, self)
    }
}

impl<const N: i64, S: Congruent<D>, D: IntTupleT> Coord<S, D> for C<N> {
    #[inline(always)]
    fn index(self, shape: &S, stride: &D) -> i64 {
        shape.index_1d(stride, N)
    }
}

impl Coord<(), ()> for () {
    fn index(self, _: &(), _: &()) -> i64 {
        0
    }
}

macro_rules! coord_impls {
    ($(($($X:ident $S:ident $D:ident $i:tt),+))*) => {$(
        impl<$($X: Coord<$S, $D>, $S, $D),+> Coord<($($S,)+), ($($D,)+)> for ($($X,)+) {
            #[inline(always)]
            fn index(self, shape: &($($S,)+), stride: &($($D,)+)) -> i64 {
                0 $(+ self.$i.index(&shape.$i, &stride.$i))+
            }
        }
    )*};
}

coord_impls! {
    (X0 S0 D0 0)
    (X0 S0 D0 0, X1 S1 D1 1)
    (X0 S0 D0 0, X1 S1 D1 1, X2 S2 D2 2)
    (X0 S0 D0 0, X1 S1 D1 1, X2 S2 D2 2, X3 S3 D3 3)
    (X0 S0 D0 0, X1 S1 D1 1, X2 S2 D2 2, X3 S3 D3 3, X4 S4 D4 4)
    (X0 S0 D0 0, X1 S1 D1 1, X2 S2 D2 2, X3 S3 D3 3, X4 S4 D4 4, X5 S5 D5 5)
    (X0 S0 D0 0, X1 S1 D1 1, X2 S2 D2 2, X3 S3 D3 3, X4 S4 D4 4, X5 S5 D5 5, X6 S6 D6 6)
    (X0 S0 D0 0, X1 S1 D1 1, X2 S2 D2 2, X3 S3 D3 3, X4 S4 D4 4, X5 S5 D5 5, X6 S6 D6 6, X7 S7 D7 7)
    (X0 S0 D0 0, X1 S1 D1 1, X2 S2 D2 2, X3 S3 D3 3, X4 S4 D4 4, X5 S5 D5 5, X6 S6 D6 6, X7 S7 D7 7, X8 S8 D8 8)
    (X0 S0 D0 0, X1 S1 D1 1, X2 S2 D2 2, X3 S3 D3 3, X4 S4 D4 4, X5 S5 D5 5, X6 S6 D6 6, X7 S7 D7 7, X8 S8 D8 8, X9 S9 D9 9)
    (X0 S0 D0 0, X1 S1 D1 1, X2 S2 D2 2, X3 S3 D3 3, X4 S4 D4 4, X5 S5 D5 5, X6 S6 D6 6, X7 S7 D7 7, X8 S8 D8 8, X9 S9 D9 9, X10 S10 D10 10)
    (X0 S0 D0 0, X1 S1 D1 1, X2 S2 D2 2, X3 S3 D3 3, X4 S4 D4 4, X5 S5 D5 5, X6 S6 D6 6, X7 S7 D7 7, X8 S8 D8 8, X9 S9 D9 9, X10 S10 D10 10, X11 S11 D11 11)
}
