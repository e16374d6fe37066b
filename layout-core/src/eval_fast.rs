//! The one evaluation of a layout at a coordinate, shared by the algebra (`crd2idx`, `eval`) and the
//! tensor layer.
//!
//! A coordinate is an integer (1-D: split over the modes colexicographically, mode `k` getting
//! `c % size(mode k)` and the rest going on as `c / size(mode k)`, the last mode taking what is left
//! unreduced), or a tuple of the shape's rank (R-D or natural: one coordinate per mode). A leaf
//! coordinate is scaled by its stride and the terms are summed.
//!
//! The walk is written once, generic over the number it computes with ([`IndexValue`]):
//!
//! * `i64`: allocation-free and bounds-checked, for tensor access on layouts with
//!   integer strides: every integer coordinate must lie in `0..size` of the mode it meets;
//! * [`IntTuple`] (in `coord.rs`): CuTe's `crd2idx`, where the number type only decides the
//!   staticness of the result and carries basis strides (the result is then a coordinate).
//!
//! Besides, this module holds the checked helpers a tensor needs on integer layouts: the size of a
//! shape, the flattened modes and the index range of a layout.
//!
//! ```
//! use cute_layout_core::{IntTuple, crd2idx, eval_fast::index_of};
//! let (shape, stride): (IntTuple, IntTuple) = ("(_4,(_3,_6))".parse().unwrap(), "(_1,(_4,_12))".parse().unwrap());
//! let c: IntTuple = "(1,(2,3))".parse().unwrap();
//! assert_eq!(index_of::<i64>(&c, &shape, &stride).unwrap(), 45); // the tensor path
//! assert_eq!(crd2idx(&c, &shape, &stride).unwrap().to_string(), "45"); // the algebra's, same walk
//! ```
#![deny(clippy::arithmetic_side_effects)] // integers here come from users: checked only

use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;

/// The number a layout evaluation computes with: the type of a 1-D coordinate, of the index, the
/// arithmetic on them, and the checks and messages that differ between the algebra and tensors.
///
/// ```
/// use cute_layout_core::{IntTuple, eval_fast::index_of};
/// let (shape, stride) = ("(4,(3,6))".parse::<IntTuple>().unwrap(), "(1,(4,12))".parse().unwrap());
/// let c: IntTuple = "(1,(2,3))".parse().unwrap();
/// assert_eq!(index_of::<i64>(&c, &shape, &stride).unwrap(), 45);
/// assert_eq!(index_of::<IntTuple>(&c, &shape, &stride).unwrap().to_string(), "45");
/// ```
pub trait IndexValue: Sized {
    /// A 1-D coordinate.
    type Coord: Copy + std::fmt::Display;
    /// The coordinate of an integer leaf of a coordinate tuple.
    fn coord(c: Int) -> Self::Coord;
    /// The size of a (sub)shape, as a divisor of a 1-D coordinate.
    fn size(shape: &IntTuple) -> Result<Self::Coord>;
    /// `c % p` (truncating).
    fn rem(c: Self::Coord, p: Self::Coord) -> Result<Self::Coord>;
    /// `c / p` (truncating).
    fn div(c: Self::Coord, p: Self::Coord) -> Result<Self::Coord>;
    /// The index of the 1-D coordinate `c` at a leaf of the shape with stride `stride`.
    fn scale(c: Self::Coord, stride: &IntTuple) -> Result<Self>;
    /// `a + b`.
    fn add(a: Self, b: &Self) -> Result<Self>;
    /// The index of an empty coordinate.
    fn zero() -> Self;
    /// Checked before an integer coordinate `c` of a coordinate is split over the mode
    /// `shape:stride` it meets.
    fn check_1d(c: Self::Coord, shape: &IntTuple, stride: &IntTuple) -> Result<()>;
    /// The error for a coordinate whose nesting does not fit the shape.
    fn mismatch(coord: &IntTuple, shape: &IntTuple) -> LayoutError;
    /// The error for a coordinate holding a basis element.
    fn basis_coord(coord: &IntTuple) -> LayoutError;
    /// Whether `c` is a static zero, which CuTe passes on to every mode without dividing (even
    /// by a mode of size zero).
    fn is_static_zero(_c: Self::Coord) -> bool {
        false
    }
}

fn rank_error(what: &str, a: &IntTuple, b: &IntTuple) -> LayoutError {
    LayoutError::NotCongruent {
        what: format!("{what}: mismatched ranks"),
        left: a.to_string(),
        right: b.to_string(),
    }
}

fn strides_of<'a>(stride: &'a IntTuple, shape: &IntTuple, n: usize) -> Result<&'a [IntTuple]> {
    match stride {
        IntTuple::Tuple(v) if v.len() == n => Ok(v),
        _ => Err(rank_error("crd2idx: shape and stride", shape, stride)),
    }
}

/// The index of coordinate `coord` (1-D, R-D or natural) in the layout `shape:stride`.
///
/// ```
/// use cute_layout_core::{IntTuple, eval_fast::index_of};
/// let (shape, stride) = ("(4,(3,6))".parse::<IntTuple>().unwrap(), "(1,(4,12))".parse().unwrap());
/// assert_eq!(index_of::<i64>(&"(1,(2,3))".parse().unwrap(), &shape, &stride).unwrap(), 45);
/// assert_eq!(index_of::<i64>(&IntTuple::d(14), &shape, &stride).unwrap(), 14); // 1-D: (2,(0,1))
/// ```
pub fn index_of<V: IndexValue>(coord: &IntTuple, shape: &IntTuple, stride: &IntTuple) -> Result<V> {
    match (coord, shape) {
        (IntTuple::Tuple(cs), IntTuple::Tuple(ss)) => {
            if cs.len() != ss.len() {
                return Err(V::mismatch(coord, shape));
            }
            let ds = strides_of(stride, shape, ss.len())?;
            let mut acc: Option<V> = None;
            for ((c, s), d) in cs.iter().zip(ss).zip(ds) {
                let term = index_of::<V>(c, s, d)?;
                acc = Some(match acc {
                    None => term,
                    Some(a) => V::add(a, &term)?,
                });
            }
            Ok(acc.unwrap_or_else(V::zero))
        }
        (IntTuple::Tuple(_), _) => Err(V::mismatch(coord, shape)),
        (IntTuple::Int(c), _) => index_of_1d::<V>(V::coord(*c), shape, stride),
        (IntTuple::Basis(_), _) => Err(V::basis_coord(coord)),
    }
}

/// The index of the 1-D coordinate `c` in the layout `shape:stride` (checked by
/// [`IndexValue::check_1d`]).
///
/// ```
/// use cute_layout_core::{IntTuple, eval_fast::index_of_1d};
/// let (shape, stride) = ("(4,(3,6))".parse::<IntTuple>().unwrap(), "(1,(4,12))".parse().unwrap());
/// assert_eq!(index_of_1d::<i64>(14, &shape, &stride).unwrap(), 14); // (2,(0,1))
/// ```
#[inline]
pub fn index_of_1d<V: IndexValue>(c: V::Coord, shape: &IntTuple, stride: &IntTuple) -> Result<V> {
    V::check_1d(c, shape, stride)?;
    split(c, shape, stride)
}

/// The colexicographic split of the 1-D coordinate `c` over `shape:stride`, unchecked.
fn split<V: IndexValue>(c: V::Coord, shape: &IntTuple, stride: &IntTuple) -> Result<V> {
    match shape {
        IntTuple::Tuple(ss) => {
            let ds = strides_of(stride, shape, ss.len())?;
            if ss.is_empty() {
                return Err(LayoutError::invalid(format!(
                    "crd2idx: cannot map the index {c} into the empty shape ()"
                )));
            }
            split_from(c, ss, ds)
        }
        _ => V::scale(c, stride),
    }
}

/// `split` over the modes `ss:ds` (non-empty): each mode but the last gets `c % size` and passes
/// `c / size` on, the last gets what is left; the terms are summed from the right after all are
/// computed (a loop, so a flat layout of any rank needs no stack).
fn split_from<V: IndexValue>(c: V::Coord, ss: &[IntTuple], ds: &[IntTuple]) -> Result<V> {
    let mut terms = Vec::with_capacity(ss.len());
    let mut c = c;
    for (k, (s, d)) in ss.iter().zip(ds).enumerate() {
        if Some(k) == ss.len().checked_sub(1) || V::is_static_zero(c) {
            terms.push(split::<V>(c, s, d)?);
        } else {
            let p = V::size(s)?;
            terms.push(split::<V>(V::rem(c, p)?, s, d)?);
            c = V::div(c, p)?;
        }
    }
    let mut terms = terms.into_iter().rev();
    let last = terms.next().ok_or_else(|| {
        LayoutError::invalid("crd2idx: cannot map an index into the empty shape ()")
    })?;
    terms.try_fold(last, |acc, t| V::add(t, &acc))
}

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
        let reach = s
            .saturating_sub(1)
            .checked_mul(d)
            .ok_or(LayoutError::Overflow {
                op: "*",
                lhs: s.saturating_sub(1),
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

/// Evaluation in `i64` for tensor access: integer strides only, every integer coordinate checked to
/// lie in `0..size` of the mode it meets, no allocation.
impl IndexValue for i64 {
    type Coord = i64;
    #[inline]
    fn coord(c: Int) -> i64 {
        c.value
    }
    #[inline]
    fn size(shape: &IntTuple) -> Result<i64> {
        shape_size(shape)
    }
    #[inline]
    fn rem(c: i64, p: i64) -> Result<i64> {
        if p == 0 {
            return Err(LayoutError::DivisionByZero { op: "%", lhs: c });
        }
        c.checked_rem(p).ok_or(LayoutError::Overflow {
            op: "%",
            lhs: c,
            rhs: p,
        })
    }
    #[inline]
    fn div(c: i64, p: i64) -> Result<i64> {
        if p == 0 {
            return Err(LayoutError::DivisionByZero { op: "/", lhs: c });
        }
        c.checked_div(p).ok_or(LayoutError::Overflow {
            op: "/",
            lhs: c,
            rhs: p,
        })
    }
    #[inline]
    fn scale(c: i64, stride: &IntTuple) -> Result<i64> {
        let d = leaf(stride, "stride")?;
        c.checked_mul(d).ok_or(LayoutError::Overflow {
            op: "*",
            lhs: c,
            rhs: d,
        })
    }
    #[inline]
    fn add(a: i64, b: &i64) -> Result<i64> {
        a.checked_add(*b).ok_or(LayoutError::Overflow {
            op: "+",
            lhs: a,
            rhs: *b,
        })
    }
    fn zero() -> i64 {
        0
    }
    #[inline]
    fn check_1d(c: i64, shape: &IntTuple, stride: &IntTuple) -> Result<()> {
        let n = shape_size(shape)?;
        if c < 0 || c >= n {
            return Err(LayoutError::IndexOutOfRange {
                what: format!("coordinate in the mode {shape}:{stride}"),
                index: c,
                bound: n,
            });
        }
        Ok(())
    }
    fn mismatch(coord: &IntTuple, shape: &IntTuple) -> LayoutError {
        LayoutError::NotCongruent {
            what: "tensor coordinate and shape".into(),
            left: coord.to_string(),
            right: shape.to_string(),
        }
    }
    fn basis_coord(coord: &IntTuple) -> LayoutError {
        LayoutError::invalid(format!(
            "a tensor coordinate cannot hold a basis element: {coord}"
        ))
    }
}
