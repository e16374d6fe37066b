//! `ceil_div` and `evenly_divides` of a shape by a tiler whose modes may be layouts (CuTe's
//! `ceil_div(Target, Layout)` in `layout.hpp` and `evenly_divides` in `int_tuple.hpp`).
//!
//! Dividing a shape by a layout tiler gives the shape of the tiler's complement within the shape:
//! the "rest" modes of a `logical_divide`, e.g. the grid of tiles.
//!
//! ```
//! use cute_layout_core::notation::eval_str;
//! assert_eq!(eval_str("ceil_div((_12,_8),_4:_2)").unwrap().to_string(), "(_2,_16)");
//! assert_eq!(eval_str("ceil_div((_12,_8),(_4:_2,_3))").unwrap().to_string(), "((_2,_2),_3)");
//! assert_eq!(eval_str("evenly_divides((_12,_8),(_4:_3,_4))").unwrap().to_string(), "_1");
//! ```

use crate::complement::complement;
use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::query::size;
use crate::tiler::Tiler;
use crate::tuple_ops::{self, bool_and, product};

fn underscore_error(op: &str, target: &IntTuple) -> LayoutError {
    LayoutError::bad_args(
        op,
        format!("the tiler mode `_` has no size: CuTe divides {target} by it (a division by zero)"),
    )
}

/// `ceil_div(target, tiler)`: a layout tiler gives `shape(complement(tiler, target))`, an integer
/// the ceiling division of shapes, a tuple of tilers works mode by mode (modes of `target` beyond the
/// tiler's rank are divided by 1).
///
/// Pre: no `_` modes (CuTe divides by zero); a tuple tiler's rank is at most `rank(target)`.
/// Post: for a layout tiler `B`, `size(B) * size(result) >= size(target)`.
///
/// ```
/// use cute_layout_core::{ceil_div_tiler, IntTuple, Tiler};
/// let t: IntTuple = "(12,8)".parse().unwrap();
/// let r = ceil_div_tiler(&t, &"(_4:_2,_3)".parse::<Tiler>().unwrap()).unwrap();
/// assert_eq!(r.to_string(), "((_2,2),3)");
/// ```
pub fn ceil_div_tiler(target: &IntTuple, tiler: &Tiler) -> Result<IntTuple> {
    match (target, tiler) {
        (_, Tiler::Underscore) => Err(underscore_error("ceil_div", target)),
        (_, Tiler::Int(i)) => tuple_ops::ceil_div(target, &IntTuple::Int(*i)),
        (_, Tiler::Layout(l)) => Ok(complement(l, target)?.shape().clone()),
        (IntTuple::Tuple(modes), Tiler::Tuple(ts)) => {
            if ts.len() > modes.len() {
                return Err(LayoutError::bad_args(
                    "ceil_div",
                    format!(
                        "the tiler {tiler} has more modes than the shape {target} (Mismatched ranks)"
                    ),
                ));
            }
            let one = Tiler::Int(Int::s(1));
            let divided = modes
                .iter()
                .enumerate()
                .map(|(i, m)| ceil_div_tiler(m, ts.get(i).unwrap_or(&one)))
                .collect::<Result<_>>()?;
            Ok(IntTuple::Tuple(divided))
        }
        // An integer by a tuple: CuTe divides by the product of the tuple, which needs integers.
        (_, Tiler::Tuple(_)) => tuple_ops::ceil_div(target, &shape_of("ceil_div", target, tiler)?),
    }
}

/// The tiler as a shape, when every mode is an integer.
fn shape_of(op: &str, target: &IntTuple, tiler: &Tiler) -> Result<IntTuple> {
    match tiler {
        Tiler::Int(i) => Ok(IntTuple::Int(*i)),
        Tiler::Tuple(ts) => Ok(IntTuple::Tuple(
            ts.iter()
                .map(|t| shape_of(op, target, t))
                .collect::<Result<_>>()?,
        )),
        _ => Err(LayoutError::bad_args(
            op,
            format!(
                "{target} by {tiler}: an integer divides by a tuple of integers only (CuTe takes its product)"
            ),
        )),
    }
}

/// The number of elements a tiler covers (`size(b)` in CuTe).
fn tiler_size(op: &str, target: &IntTuple, tiler: &Tiler) -> Result<Int> {
    match tiler {
        Tiler::Underscore => Err(underscore_error(op, target)),
        Tiler::Int(i) => Ok(*i),
        Tiler::Layout(l) => size(l),
        Tiler::Tuple(_) => product(&shape_of(op, target, tiler)?),
    }
}

/// `evenly_divides(shape, tiler)`: a tuple tiler divides mode by mode (static false when it has more
/// modes than the shape); a layout or integer tiler `b` divides `a` when
/// `size(a) == size(b) * size(ceil_div(a, b))` (CuTe's rule). Static when every value involved is.
///
/// ```
/// use cute_layout_core::{evenly_divides_tiler, IntTuple, Tiler};
/// let a: IntTuple = "_12".parse().unwrap();
/// let strided: Tiler = "_4:_2".parse().unwrap(); // covers 0,2,4,6: 12 is not tiled evenly
/// assert_eq!(evenly_divides_tiler(&a, &strided).unwrap().to_string(), "_0");
/// let even: Tiler = "_4:_3".parse().unwrap();
/// assert_eq!(evenly_divides_tiler(&a, &even).unwrap().to_string(), "_1");
/// ```
pub fn evenly_divides_tiler(a: &IntTuple, b: &Tiler) -> Result<Int> {
    match b {
        Tiler::Tuple(ts) => {
            if ts.len() > a.rank() {
                return Ok(Int::s(0));
            }
            ts.iter().enumerate().try_fold(Int::s(1), |acc, (i, t)| {
                Ok(bool_and(acc, evenly_divides_tiler(&a.get(i)?, t)?))
            })
        }
        _ => {
            let tiles = product(&ceil_div_tiler(a, b)?)?;
            let covered = tiler_size("evenly_divides", a, b)?.mul(tiles)?;
            Ok(product(a)?.eq_b(covered))
        }
    }
}
