//! Coordinates and indices: evaluating a layout (`crd2idx`), splitting an index into a coordinate
//! (`idx2crd`), and the layout's coordinate views (`get_hier_coord`, `get_flat_coord`, `get_1d_coord`).
//!
//! A coordinate is an integer (1-D, split over the modes colexicographically), a tuple of the
//! layout's rank (R-D, each mode split the same way) or a natural coordinate congruent with the shape.
//! Strides may be basis elements: the result is then a coordinate (see [`crate::arith_tuple`]).
//!
//! ```
//! use cute_layout_core::{IntTuple, Layout, eval};
//! let l: Layout = "(3,(2,3)):(3,(12,1))".parse().unwrap();
//! assert_eq!(eval(&l, &IntTuple::d(16)).unwrap().to_string(), "17");
//! let c: IntTuple = "(1,(1,2))".parse().unwrap();
//! assert_eq!(eval(&l, &c).unwrap().to_string(), "17");
//! ```
#![deny(clippy::arithmetic_side_effects)] // integers here come from users: checked only

use crate::arith_tuple::{arith_add, arith_scale, as_arithmetic_tuple};
use crate::construct::{compact_col_major, make_basis_like};
use crate::error::{LayoutError, Result};
use crate::eval_fast::{IndexValue, index_of};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tuple_ops::product;

fn rank_error(what: &str, a: &IntTuple, b: &IntTuple) -> LayoutError {
    LayoutError::NotCongruent {
        what: format!("{what}: mismatched ranks"),
        left: a.to_string(),
        right: b.to_string(),
    }
}

fn tuple_of<'a>(what: &str, t: &'a IntTuple, like: &IntTuple, n: usize) -> Result<&'a [IntTuple]> {
    match t {
        IntTuple::Tuple(v) if v.len() == n => Ok(v),
        _ => Err(rank_error(what, like, t)),
    }
}

/// The index (or, for basis strides, the coordinate) of coordinate `coord` in the layout
/// `shape:stride` (CuTe's `crd2idx(c, shape, stride)`).
///
/// An integer coordinate is split over the modes: mode `k` gets `c % size(mode k)` and the rest
/// goes on as `c / size(mode k)`; the last mode takes what is left, unreduced (so indices past the
/// size extend the last mode).
///
/// Pre: `coord` is an integer or has the rank of `shape` (recursively); `shape` and `stride` congruent.
/// ```
/// # use cute_layout_core::{IntTuple, crd2idx};
/// let s: IntTuple = "(_4,(_2,_2))".parse().unwrap();
/// let d: IntTuple = "(_1,(_4,_8))".parse().unwrap();
/// let c: IntTuple = "(1,9)".parse().unwrap();
/// assert_eq!(crd2idx(&c, &s, &d).unwrap().to_string(), "37");
/// ```
pub fn crd2idx(coord: &IntTuple, shape: &IntTuple, stride: &IntTuple) -> Result<IntTuple> {
    index_of::<IntTuple>(coord, shape, stride)
}

/// The algebra's evaluation: static/dynamic integers, basis strides (the index is then a coordinate),
/// no bounds check.
impl IndexValue for IntTuple {
    type Coord = Int;
    fn coord(c: Int) -> Int {
        c
    }
    fn size(shape: &IntTuple) -> Result<Int> {
        product(shape)
    }
    fn rem(c: Int, p: Int) -> Result<Int> {
        c.rem(p)
    }
    fn div(c: Int, p: Int) -> Result<Int> {
        c.div(p)
    }
    fn scale(c: Int, stride: &IntTuple) -> Result<IntTuple> {
        arith_scale(c, stride)
    }
    fn add(a: IntTuple, b: &IntTuple) -> Result<IntTuple> {
        arith_add(&a, b)
    }
    fn zero() -> IntTuple {
        IntTuple::s(0)
    }
    fn check_1d(_: Int, _: &IntTuple, _: &IntTuple) -> Result<()> {
        Ok(())
    }
    fn mismatch(coord: &IntTuple, shape: &IntTuple) -> LayoutError {
        rank_error("crd2idx: coordinate and shape", coord, shape)
    }
    fn basis_coord(coord: &IntTuple) -> LayoutError {
        LayoutError::invalid(format!(
            "crd2idx: a coordinate cannot hold a basis element: {coord}"
        ))
    }
    fn is_static_zero(c: Int) -> bool {
        c.is_static_eq(0)
    }
}

/// The colexicographic index of `coord` in `shape` (CuTe's two-argument `crd2idx(c, shape)`):
/// `c0 + s0 * (c1 + s1 * (c2 + ...))` over the flattened coordinate; an integer coordinate is
/// already an index.
///
/// Pre: `coord` an integer, or of the rank of `shape`.
/// ```
/// # use cute_layout_core::{IntTuple, crd2idx_colex};
/// let c: IntTuple = "(_0,_31,_7)".parse().unwrap();
/// let s: IntTuple = "(_2,(_4,_8),_8)".parse().unwrap();
/// assert_eq!(crd2idx_colex(&c, &s).unwrap().to_string(), "_510");
/// ```
pub fn crd2idx_colex(coord: &IntTuple, shape: &IntTuple) -> Result<IntTuple> {
    match (coord, shape) {
        (IntTuple::Int(_), _) => Ok(coord.clone()),
        (IntTuple::Tuple(cs), IntTuple::Tuple(ss)) if cs.len() == ss.len() => {
            let flat_c = coord.int_leaves()?;
            let flat_s = product_like(shape, coord)?.int_leaves()?;
            if flat_c.len() != flat_s.len() {
                return Err(rank_error("crd2idx: coordinate and shape", coord, shape));
            }
            let Some((&last, init)) = flat_c.split_last() else {
                return Err(LayoutError::invalid(format!(
                    "crd2idx: the coordinate {coord} in shape {shape} has no integer modes to index"
                )));
            };
            let mut acc = last;
            for (c, s) in init.iter().zip(&flat_s).rev() {
                acc = c.add(s.mul(acc)?)?;
            }
            Ok(IntTuple::Int(acc))
        }
        _ => Err(rank_error("crd2idx: coordinate and shape", coord, shape)),
    }
}

/// `shape` reduced to the nesting of `profile` by products.
fn product_like(shape: &IntTuple, profile: &IntTuple) -> Result<IntTuple> {
    match profile {
        IntTuple::Tuple(ps) => {
            let ss = tuple_of("coordinate and shape", shape, profile, ps.len())?;
            Ok(IntTuple::Tuple(
                ss.iter()
                    .zip(ps)
                    .map(|(s, p)| product_like(s, p))
                    .collect::<Result<_>>()?,
            ))
        }
        _ => Ok(IntTuple::Int(product(shape)?)),
    }
}

/// The coordinate of index `idx` in the layout `shape:stride` (CuTe's three-argument `idx2crd`):
/// each leaf gets `(idx / stride) % shape` (a static `_1` mode gets `_0`); an integer stride with a
/// tuple shape means compact column-major strides starting there.
///
/// Pre: the layout is compact (otherwise the result is not an inverse of `crd2idx`).
/// ```
/// # use cute_layout_core::{IntTuple, idx2crd};
/// let s: IntTuple = "(_4,_16,_4)".parse().unwrap();
/// let d: IntTuple = "(_1,_4,_64)".parse().unwrap();
/// assert_eq!(idx2crd(&IntTuple::s(184), &s, &d).unwrap().to_string(), "(_0,_14,_2)");
/// ```
pub fn idx2crd(idx: &IntTuple, shape: &IntTuple, stride: &IntTuple) -> Result<IntTuple> {
    match (idx, shape) {
        (IntTuple::Tuple(is), IntTuple::Tuple(ss)) => {
            if is.len() != ss.len() {
                return Err(rank_error("idx2crd: index and shape", idx, shape));
            }
            let ds = tuple_of("idx2crd: shape and stride", stride, shape, ss.len())?;
            Ok(IntTuple::Tuple(
                is.iter()
                    .zip(ss)
                    .zip(ds)
                    .map(|((i, s), d)| idx2crd(i, s, d))
                    .collect::<Result<_>>()?,
            ))
        }
        (IntTuple::Tuple(_), _) => Err(rank_error("idx2crd: index and shape", idx, shape)),
        (IntTuple::Int(_), IntTuple::Tuple(ss)) => {
            let strides = match stride {
                IntTuple::Tuple(_) => stride.clone(),
                IntTuple::Int(_) => compact_col_major(shape, Some(stride))?,
                IntTuple::Basis(_) => {
                    return Err(LayoutError::invalid(format!(
                        "idx2crd: basis strides cannot split an index: {stride}"
                    )));
                }
            };
            let ds = tuple_of("idx2crd: shape and stride", &strides, shape, ss.len())?;
            Ok(IntTuple::Tuple(
                ss.iter()
                    .zip(ds)
                    .map(|(s, d)| idx2crd(idx, s, d))
                    .collect::<Result<_>>()?,
            ))
        }
        (IntTuple::Int(i), IntTuple::Int(s)) => {
            if s.is_static_eq(1) {
                return Ok(IntTuple::s(0));
            }
            let d = stride.expect_int("idx2crd: stride")?;
            Ok(IntTuple::Int(i.div(d)?.rem(*s)?))
        }
        _ => Err(LayoutError::invalid(format!(
            "idx2crd: invalid index {idx} for shape {shape}"
        ))),
    }
}

/// The colexicographic coordinate of index `idx` in `shape` (CuTe's two-argument `idx2crd`).
/// An integer index is split as by `crd2idx`: every mode but the last is reduced modulo its size,
/// the last takes what is left (`idx2crd(40, (_4,_8))` is `(0,10)`). A tuple index is split mode by
/// mode; an integer shape returns the index.
///
/// ```
/// # use cute_layout_core::{IntTuple, idx2crd_colex};
/// let s: IntTuple = "(_3,(_2,_3))".parse().unwrap();
/// assert_eq!(idx2crd_colex(&IntTuple::d(16), &s).unwrap().to_string(), "(1,(1,2))");
/// ```
pub fn idx2crd_colex(idx: &IntTuple, shape: &IntTuple) -> Result<IntTuple> {
    match (idx, shape) {
        (IntTuple::Tuple(is), IntTuple::Tuple(ss)) if is.len() == ss.len() => Ok(IntTuple::Tuple(
            is.iter()
                .zip(ss)
                .map(|(i, s)| idx2crd_colex(i, s))
                .collect::<Result<_>>()?,
        )),
        (IntTuple::Int(c), IntTuple::Tuple(_)) => {
            if crate::limits::extent(shape).elements > DIRECT_SPLIT_ELEMENTS {
                // CuTe's way below adds one basis element per leaf: quadratic on wide shapes.
                return split_coord(*c, shape);
            }
            as_arithmetic_tuple(&crd2idx(idx, shape, &make_basis_like(shape))?)
        }
        (IntTuple::Int(_), IntTuple::Int(_)) => Ok(idx.clone()),
        _ => Err(rank_error("idx2crd: index and shape", idx, shape)),
    }
}

/// Shapes with more elements than this split an index directly ([`split_coord`]) rather than
/// through basis elements (the same result, checked by a test; linear instead of quadratic).
const DIRECT_SPLIT_ELEMENTS: usize = 64;

/// The coordinate of the 1-D index `c` in `shape`, split as `crd2idx` splits it (each mode but
/// the last gets `c % size` and passes `c / size` on), built directly: the same result as CuTe's
/// `crd2idx(c, shape, basis)`, in time linear in the number of leaves.
fn split_coord(c: Int, shape: &IntTuple) -> Result<IntTuple> {
    let ss = match shape {
        IntTuple::Tuple(ss) => ss,
        IntTuple::Int(_) => return Ok(IntTuple::Int(c)),
        IntTuple::Basis(_) => {
            return Err(LayoutError::invalid(format!(
                "idx2crd: a shape cannot hold a basis element: {shape}"
            )));
        }
    };
    if ss.is_empty() {
        return Err(LayoutError::invalid(format!(
            "crd2idx: cannot map the index {c} into the empty shape ()"
        )));
    }
    let mut out = Vec::with_capacity(ss.len());
    let mut rest = c;
    for (k, s) in ss.iter().enumerate() {
        // a static zero goes to every mode undivided (as in `crd2idx`)
        if Some(k) == ss.len().checked_sub(1) || rest.is_static_eq(0) {
            out.push(split_coord(rest, s)?);
        } else {
            let p = product(s)?;
            out.push(split_coord(rest.rem(p)?, s)?);
            rest = rest.div(p)?;
        }
    }
    Ok(IntTuple::Tuple(out))
}

/// Convert coordinate `coord` in `src` to a coordinate in `dst` through the colexicographic index
/// (mode by mode while all three are tuples).
///
/// ```
/// use cute_layout_core::{IntTuple, crd2crd};
/// let c: IntTuple = "(1,2)".parse().unwrap(); // colex index 1 + 2*2 = 5 in (2,3)
/// let r = crd2crd(&c, &"(2,3)".parse().unwrap(), &"6".parse().unwrap()).unwrap();
/// assert_eq!(r.to_string(), "5");
/// ```
pub fn crd2crd(coord: &IntTuple, src: &IntTuple, dst: &IntTuple) -> Result<IntTuple> {
    match (coord, src, dst) {
        (IntTuple::Tuple(c), IntTuple::Tuple(s), IntTuple::Tuple(d)) => {
            if c.len() != s.len() || c.len() != d.len() {
                return Err(rank_error("crd2crd: coordinate and shapes", coord, dst));
            }
            Ok(IntTuple::Tuple(
                c.iter()
                    .zip(s)
                    .zip(d)
                    .map(|((c, s), d)| crd2crd(c, s, d))
                    .collect::<Result<_>>()?,
            ))
        }
        _ => idx2crd_colex(&crd2idx_colex(coord, src)?, dst),
    }
}

/// The layout applied to a coordinate without `_` (CuTe's `L(c)`): `crd2idx(c, shape, stride)`.
///
/// ```
/// use cute_layout_core::{IntTuple, Layout, eval};
/// let l: Layout = "(4,(3,6)):(1,(4,12))".parse().unwrap();
/// assert_eq!(eval(&l, &"(1,(2,3))".parse().unwrap()).unwrap().to_string(), "45");
/// assert_eq!(eval(&l, &IntTuple::d(5)).unwrap().to_string(), "5");
/// ```
pub fn eval(layout: &Layout, coord: &IntTuple) -> Result<IntTuple> {
    crd2idx(coord, layout.shape(), layout.stride())
}

fn expect_index(what: &str, idx: &IntTuple) -> Result<Int> {
    idx.as_int().ok_or_else(|| {
        LayoutError::invalid(format!("{what}: the index must be an integer, found {idx}"))
    })
}

/// The natural coordinate of index `idx` (`L.get_hier_coord(i)` = `idx2crd(i, shape, stride)`).
///
/// Pre: the layout is compact. Post: `crd2idx(result, shape, stride) == idx` for `idx` in the image.
/// ```
/// # use cute_layout_core::{IntTuple, Layout, get_hier_coord};
/// let l: Layout = "(_16,(_2,_4,_4)):(_1,(_16,_32,_128))".parse().unwrap();
/// assert_eq!(get_hier_coord(&l, &IntTuple::s(152)).unwrap().to_string(), "(_8,(_1,_0,_1))");
/// ```
pub fn get_hier_coord(layout: &Layout, idx: &IntTuple) -> Result<IntTuple> {
    let i = expect_index("get_hier_coord", idx)?;
    idx2crd(&IntTuple::Int(i), layout.shape(), layout.stride())
}

/// The flat (R-D) coordinate of index `idx`: each top-level mode's colexicographic index.
/// ```
/// # use cute_layout_core::{IntTuple, Layout, get_flat_coord};
/// let l: Layout = "(_8,(_16)):(_1,(_8))".parse().unwrap();
/// assert_eq!(get_flat_coord(&l, &IntTuple::s(102)).unwrap().to_string(), "(_6,_12)");
/// ```
pub fn get_flat_coord(layout: &Layout, idx: &IntTuple) -> Result<IntTuple> {
    let hier = get_hier_coord(layout, idx)?;
    let ones = match layout.rank() {
        1 => IntTuple::s(1),
        r => IntTuple::Tuple(vec![IntTuple::s(1); r]),
    };
    crd2crd(&hier, layout.shape(), &ones)
}

/// The 1-D (colexicographic) coordinate of index `idx`: `crd2idx(get_hier_coord(idx), shape)`.
/// ```
/// # use cute_layout_core::{IntTuple, Layout, get_1d_coord};
/// let l: Layout = "(16,8,2):(_1,_16,_128)".parse().unwrap();
/// assert_eq!(get_1d_coord(&l, &IntTuple::d(79)).unwrap().to_string(), "79");
/// ```
pub fn get_1d_coord(layout: &Layout, idx: &IntTuple) -> Result<IntTuple> {
    crd2idx_colex(&get_hier_coord(layout, idx)?, layout.shape())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The direct split of wide shapes gives CuTe's result (computed through basis elements).
    #[test]
    fn split_coord_is_cutes_idx2crd() {
        let shapes = [
            "(_2,_3)",
            "(2,3)",
            "(_2,(_3,_1))",
            "(2,(3,1),4)",
            "(_4,_1,_3)",
            "((_2,2),(1,(_3)))",
            "(_0,2)",
            "(2,())",
            "(-2,3)",
            "(1,1,1)",
        ];
        for s in shapes {
            let shape: IntTuple = s.parse().unwrap();
            for c in [
                Int::s(0),
                Int::d(0),
                Int::s(5),
                Int::d(7),
                Int::d(-3),
                Int::s(40),
            ] {
                let cute = crd2idx(&IntTuple::Int(c), &shape, &make_basis_like(&shape))
                    .and_then(|t| as_arithmetic_tuple(&t));
                let direct = split_coord(c, &shape);
                assert_eq!(
                    cute.map(|t| t.to_string()).map_err(|e| e.to_string()),
                    direct.map(|t| t.to_string()).map_err(|e| e.to_string()),
                    "idx2crd({c},{s})"
                );
            }
        }
    }
}
