//! Arithmetic and comparisons on IntTuples, with CuTe's static/dynamic typing of the results.
//!
//! Booleans follow CuTe: a comparison of static values is static (`_1`/`_0`), anything touching a
//! dynamic value is dynamic (`1`/`0`), except where a static operand decides an `&&`/`||` alone.
//!
//! ```
//! use cute_layout_core::{IntTuple, shape_div, product};
//! let s: IntTuple = "(_3,_6,_2,_8)".parse().unwrap();
//! assert_eq!(shape_div(&s, &IntTuple::s(6)).unwrap().to_string(), "(_1,_3,_2,_8)");
//! assert_eq!(product(&s).unwrap().to_string(), "_288");
//! ```
#![deny(clippy::arithmetic_side_effects)] // integers here come from users: checked only

use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;

fn leaf(t: &IntTuple, op: &str) -> Result<Int> {
    t.as_int()
        .ok_or_else(|| LayoutError::invalid(format!("{op}: expected an integer, found {t}")))
}

fn rank_mismatch(op: &str, a: &IntTuple, b: &IntTuple) -> LayoutError {
    LayoutError::NotCongruent {
        what: format!("{op}: mismatched ranks"),
        left: a.to_string(),
        right: b.to_string(),
    }
}

/// CuTe's `&&` on booleans: a static false on either side decides alone.
///
/// ```
/// use cute_layout_core::{Int, bool_and};
/// assert_eq!(bool_and(Int::s(0), Int::d(1)).to_string(), "_0"); // a static false decides
/// assert_eq!(bool_and(Int::d(1), Int::s(1)).to_string(), "1");
/// ```
pub fn bool_and(x: Int, y: Int) -> Int {
    if x.is_static_eq(0) || y.is_static_eq(0) {
        return Int::s(0);
    }
    Int::bool(x.value != 0 && y.value != 0, x.is_static && y.is_static)
}

/// CuTe's `||` on booleans: a static true on either side decides alone.
///
/// ```
/// use cute_layout_core::{Int, bool_or};
/// assert_eq!(bool_or(Int::s(1), Int::d(0)).to_string(), "_1"); // a static true decides
/// assert_eq!(bool_or(Int::d(0), Int::s(0)).to_string(), "0");
/// ```
pub fn bool_or(x: Int, y: Int) -> Int {
    if (x.is_static && x.value != 0) || (y.is_static && y.value != 0) {
        return Int::s(1);
    }
    Int::bool(x.value != 0 || y.value != 0, x.is_static && y.is_static)
}

/// Product of all leaves (`_1` for the empty tuple).
///
/// Pre: integer leaves. Post: `product(t) == size(t)`.
/// ```
/// # use cute_layout_core::{IntTuple, product};
/// assert_eq!(product(&"((2,3),4)".parse::<IntTuple>().unwrap()).unwrap().to_string(), "24");
/// ```
pub fn product(t: &IntTuple) -> Result<Int> {
    match t {
        IntTuple::Tuple(v) => {
            let mut it = v.iter();
            let Some(first) = it.next() else {
                return Ok(Int::s(1));
            };
            let mut acc = product(first)?;
            for e in it {
                acc = acc.mul(product(e)?)?;
            }
            Ok(acc)
        }
        _ => leaf(t, "product"),
    }
}

/// The product of each top-level mode, as a tuple (a leaf is treated as a rank-1 tuple).
/// ```
/// # use cute_layout_core::{IntTuple, product_each};
/// assert_eq!(product_each(&"(_2,(_1,_16))".parse().unwrap()).unwrap().to_string(), "(_2,_16)");
/// ```
pub fn product_each(t: &IntTuple) -> Result<IntTuple> {
    Ok(IntTuple::Tuple(
        t.elems()
            .iter()
            .map(|e| product(e).map(IntTuple::Int))
            .collect::<Result<_>>()?,
    ))
}

/// Sum of all leaves (`_0` for the empty tuple).
///
/// ```
/// use cute_layout_core::{IntTuple, sum};
/// assert_eq!(sum(&"(_2,(_3,_4))".parse::<IntTuple>().unwrap()).unwrap().to_string(), "_9");
/// assert_eq!(sum(&"()".parse::<IntTuple>().unwrap()).unwrap().to_string(), "_0");
/// ```
pub fn sum(t: &IntTuple) -> Result<Int> {
    match t {
        IntTuple::Tuple(v) => v.iter().try_fold(Int::s(0), |acc, e| acc.add(sum(e)?)),
        _ => leaf(t, "sum"),
    }
}

/// Sum of products of corresponding leaves. Pre: `a` and `b` congruent.
/// ```
/// # use cute_layout_core::{IntTuple, inner_product};
/// let r = inner_product(&"((2,3),4)".parse().unwrap(), &"((2,1),2)".parse().unwrap()).unwrap();
/// assert_eq!(r.to_string(), "15");
/// ```
pub fn inner_product(a: &IntTuple, b: &IntTuple) -> Result<Int> {
    match (a, b) {
        (IntTuple::Tuple(x), IntTuple::Tuple(y)) => {
            if x.len() != y.len() {
                return Err(rank_mismatch("inner_product", a, b));
            }
            x.iter()
                .zip(y)
                .try_fold(Int::s(0), |acc, (p, q)| acc.add(inner_product(p, q)?))
        }
        (IntTuple::Tuple(_), _) | (_, IntTuple::Tuple(_)) => {
            Err(rank_mismatch("inner_product", a, b))
        }
        _ => leaf(a, "inner_product")?.mul(leaf(b, "inner_product")?),
    }
}

/// Pad tuple `b` to rank `r` with `_1` (missing modes of a divisor are 1).
fn pad_ones(op: &str, a: &IntTuple, b: &[IntTuple], r: usize) -> Result<Vec<IntTuple>> {
    if b.len() > r {
        return Err(rank_mismatch(op, a, &IntTuple::Tuple(b.to_vec())));
    }
    let mut v = b.to_vec();
    v.resize(r, IntTuple::s(1));
    Ok(v)
}

/// Fold an integer divisor across the modes of `a` (shape_div and ceil_div of a tuple by an integer).
fn fold_div(
    a: &[IntTuple],
    b: &IntTuple,
    f: fn(&IntTuple, &IntTuple) -> Result<IntTuple>,
) -> Result<IntTuple> {
    let mut rest = b.clone();
    let mut out = Vec::with_capacity(a.len());
    for ai in a {
        out.push(f(ai, &rest)?);
        rest = f(&rest, ai)?;
    }
    Ok(IntTuple::Tuple(out))
}

/// Ceiling division of shapes: tuple by tuple mode by mode (missing divisor modes are 1), tuple by
/// integer folded left to right, integer by tuple by its product.
/// ```
/// # use cute_layout_core::{IntTuple, ceil_div};
/// let r = ceil_div(&"(_3,_4)".parse().unwrap(), &IntTuple::s(6)).unwrap();
/// assert_eq!(r.to_string(), "(_1,_2)");
/// ```
pub fn ceil_div(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    match (a, b) {
        (IntTuple::Tuple(x), IntTuple::Tuple(y)) => {
            let y = pad_ones("ceil_div", a, y, x.len())?;
            Ok(IntTuple::Tuple(
                x.iter()
                    .zip(&y)
                    .map(|(p, q)| ceil_div(p, q))
                    .collect::<Result<_>>()?,
            ))
        }
        (IntTuple::Tuple(x), _) => fold_div(x, b, ceil_div),
        (_, IntTuple::Tuple(_)) => ceil_div(a, &IntTuple::Int(product(b)?)),
        _ => {
            let (p, q) = (leaf(a, "ceil_div")?, leaf(b, "ceil_div")?);
            Ok(IntTuple::Int(p.add(q)?.sub(Int::s(1))?.div(q)?))
        }
    }
}

/// Round `a` up to a multiple of `b`, mode by mode (missing modes of `b` are 1).
/// ```
/// # use cute_layout_core::{IntTuple, round_up};
/// let r = round_up(&"(3,2,_1)".parse().unwrap(), &"(_1,2,_4)".parse().unwrap()).unwrap();
/// assert_eq!(r.to_string(), "(3,2,_4)");
/// ```
pub fn round_up(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    match (a, b) {
        (IntTuple::Tuple(x), IntTuple::Tuple(y)) => {
            let y = pad_ones("round_up", a, y, x.len())?;
            Ok(IntTuple::Tuple(
                x.iter()
                    .zip(&y)
                    .map(|(p, q)| round_up(p, q))
                    .collect::<Result<_>>()?,
            ))
        }
        (IntTuple::Tuple(_), _) | (_, IntTuple::Tuple(_)) => Err(rank_mismatch("round_up", a, b)),
        _ => {
            let (p, q) = (leaf(a, "round_up")?, leaf(b, "round_up")?);
            Ok(IntTuple::Int(p.add(q)?.sub(Int::s(1))?.div(q)?.mul(q)?))
        }
    }
}

/// Division of shapes: mode by mode for two tuples, a tuple by an integer folded left to right,
/// an integer by a tuple by its product. Two static integers must divide one another.
/// ```
/// # use cute_layout_core::{IntTuple, shape_div};
/// assert_eq!(shape_div(&"(6,(3,4))".parse().unwrap(), &IntTuple::d(36)).unwrap().to_string(), "(1,(1,2))");
/// assert!(shape_div(&IntTuple::s(6), &IntTuple::s(4)).is_err());
/// ```
pub fn shape_div(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    match (a, b) {
        (IntTuple::Tuple(x), IntTuple::Tuple(y)) => {
            if x.len() != y.len() {
                return Err(rank_mismatch("shape_div", a, b));
            }
            Ok(IntTuple::Tuple(
                x.iter()
                    .zip(y)
                    .map(|(p, q)| shape_div(p, q))
                    .collect::<Result<_>>()?,
            ))
        }
        (IntTuple::Tuple(x), _) => fold_div(x, b, shape_div),
        (_, IntTuple::Tuple(_)) => shape_div(a, &IntTuple::Int(product(b)?)),
        _ => {
            let (p, q) = (leaf(a, "shape_div")?, leaf(b, "shape_div")?);
            if p.is_static
                && q.is_static
                && q.value != 0
                && p.value != 0
                && p.value.checked_rem(q.value).unwrap_or(0) != 0 // i64::MIN % -1 is 0
                && q.value.checked_rem(p.value).unwrap_or(0) != 0
            {
                return Err(LayoutError::NotDivisible {
                    what: "shape_div (divisibility condition: one must divide the other)".into(),
                    dividend: p.to_string(),
                    divisor: q.to_string(),
                });
            }
            Ok(IntTuple::Int(p.add(q)?.sub(Int::s(1))?.div(q)?))
        }
    }
}

/// `a` scaled mode by mode by the products of the corresponding modes of `b`.
/// ```
/// # use cute_layout_core::{IntTuple, elem_scale};
/// let r = elem_scale(&"((4,2),4)".parse().unwrap(), &"((6,9),9)".parse().unwrap()).unwrap();
/// assert_eq!(r.to_string(), "((24,18),36)");
/// ```
pub fn elem_scale(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    match a {
        IntTuple::Tuple(x) => {
            let y = match b {
                IntTuple::Tuple(y) if y.len() == x.len() => y,
                _ => return Err(rank_mismatch("elem_scale", a, b)),
            };
            Ok(IntTuple::Tuple(
                x.iter()
                    .zip(y)
                    .map(|(p, q)| elem_scale(p, q))
                    .collect::<Result<_>>()?,
            ))
        }
        _ => Ok(IntTuple::Int(leaf(a, "elem_scale")?.mul(product(b)?)?)),
    }
}

/// Same profile (always a static answer).
/// ```
/// # use cute_layout_core::{IntTuple, congruent};
/// assert_eq!(congruent(&"(2,(3,4))".parse().unwrap(), &"(5,6)".parse().unwrap()).to_string(), "_0");
/// ```
pub fn congruent(a: &IntTuple, b: &IntTuple) -> Int {
    Int::bool(a.congruent_with(b), true)
}

/// `a`'s profile refines into `b`'s: a leaf of `a` may stand for a whole sub-tuple of `b` (static answer).
/// ```
/// # use cute_layout_core::{IntTuple, weakly_congruent};
/// assert_eq!(weakly_congruent(&"_2".parse().unwrap(), &"(_2,_2)".parse().unwrap()).to_string(), "_1");
/// ```
pub fn weakly_congruent(a: &IntTuple, b: &IntTuple) -> Int {
    fn go(a: &IntTuple, b: &IntTuple) -> bool {
        match (a, b) {
            (IntTuple::Tuple(x), IntTuple::Tuple(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| go(p, q))
            }
            (IntTuple::Tuple(_), _) => false,
            _ => true,
        }
    }
    Int::bool(go(a, b), true)
}

/// `a` is compatible with `b`: every coordinate of `a` is a coordinate of `b` (sizes agree at each leaf of `a`).
/// ```
/// # use cute_layout_core::{IntTuple, compatible};
/// assert_eq!(compatible(&"(2,3)".parse().unwrap(), &"6".parse().unwrap()).unwrap().to_string(), "_0");
/// assert_eq!(compatible(&"6".parse().unwrap(), &"(2,3)".parse().unwrap()).unwrap().to_string(), "1");
/// ```
pub fn compatible(a: &IntTuple, b: &IntTuple) -> Result<Int> {
    match (a, b) {
        (IntTuple::Tuple(x), IntTuple::Tuple(y)) => {
            if x.len() != y.len() {
                return Ok(Int::s(0));
            }
            x.iter().zip(y).try_fold(Int::s(1), |acc, (p, q)| {
                Ok(bool_and(acc, compatible(p, q)?))
            })
        }
        (IntTuple::Tuple(_), _) => Ok(Int::s(0)),
        _ => Ok(leaf(a, "compatible")?.eq_b(product(b)?)),
    }
}

/// The shape `a` is evenly divided by the tiler shape `b` (mode by mode for a tuple tiler).
/// ```
/// # use cute_layout_core::{IntTuple, evenly_divides};
/// assert_eq!(evenly_divides(&"((_2,_8))".parse().unwrap(), &"(_16)".parse().unwrap()).unwrap().to_string(), "_1");
/// ```
pub fn evenly_divides(a: &IntTuple, b: &IntTuple) -> Result<Int> {
    crate::tiler_div::evenly_divides_tiler(a, &crate::tiler::Tiler::from_shape(b)?)
}

/// Tuple equality as CuTe's `==`: static when both sides are static.
///
/// ```
/// use cute_layout_core::{IntTuple, tuple_eq};
/// let a: IntTuple = "(_2,_3)".parse().unwrap();
/// assert_eq!(tuple_eq(&a, &"(_2,_3)".parse().unwrap()).unwrap().to_string(), "_1");
/// assert_eq!(tuple_eq(&a, &"(2,_3)".parse().unwrap()).unwrap().to_string(), "1");
/// assert_eq!(tuple_eq(&a, &"(2,_4)".parse().unwrap()).unwrap().to_string(), "_0"); // _3 != _4 decides
/// ```
pub fn tuple_eq(a: &IntTuple, b: &IntTuple) -> Result<Int> {
    match (a, b) {
        (IntTuple::Tuple(x), IntTuple::Tuple(y)) => {
            if x.len() != y.len() {
                return Ok(Int::s(0));
            }
            x.iter()
                .zip(y)
                .try_fold(Int::s(1), |acc, (p, q)| Ok(bool_and(acc, tuple_eq(p, q)?)))
        }
        (IntTuple::Tuple(_), _) | (_, IntTuple::Tuple(_)) => Ok(Int::s(0)),
        _ => Ok(leaf(a, "==")?.eq_b(leaf(b, "==")?)),
    }
}

/// Every element of `a` is less than the corresponding element of `b` (a longer `a` is not less).
/// ```
/// # use cute_layout_core::{IntTuple, elem_less};
/// assert_eq!(elem_less(&"(_1,_2)".parse().unwrap(), &"(_2,_3)".parse().unwrap()).unwrap().to_string(), "_1");
/// ```
pub fn elem_less(a: &IntTuple, b: &IntTuple) -> Result<Int> {
    match (a, b) {
        (IntTuple::Tuple(x), IntTuple::Tuple(y)) => {
            // elem_less(x0,y0) && (elem_less(x1,y1) && (... && terminal))
            let terminal = Int::s(if x.len() <= y.len() { 1 } else { 0 });
            let n = x.len().min(y.len());
            (0..n).rev().try_fold(terminal, |acc, i| {
                Ok(bool_and(elem_less(&x[i], &y[i])?, acc))
            })
        }
        _ => Ok(leaf(a, "elem_less")?.lt_b(leaf(b, "elem_less")?)),
    }
}

/// Colexicographic order: compare the last modes first.
/// ```
/// # use cute_layout_core::{IntTuple, colex_less};
/// assert_eq!(colex_less(&"(9,32,2)".parse().unwrap(), &"(7,5,9)".parse().unwrap()).unwrap().to_string(), "1");
/// ```
pub fn colex_less(a: &IntTuple, b: &IntTuple) -> Result<Int> {
    match (a, b) {
        (IntTuple::Tuple(x), IntTuple::Tuple(y)) => colex_impl(x, y),
        _ => Ok(leaf(a, "colex_less")?.lt_b(leaf(b, "colex_less")?)),
    }
}

/// Colexicographic `<` of two tuples from their last modes on: `less(p, q) || (p == q && rest)`,
/// every term computed (CuTe's staticness of the result depends on all of them), in a loop.
fn colex_impl(x: &[IntTuple], y: &[IntTuple]) -> Result<Int> {
    let mut terms = Vec::new();
    for (p, q) in x.iter().rev().zip(y.iter().rev()) {
        terms.push((colex_less(p, q)?, tuple_eq(p, q)?));
    }
    let base = Int::s(i64::from(y.len() > x.len()));
    Ok(terms
        .into_iter()
        .rev()
        .fold(base, |rest, (less, eq)| bool_or(less, bool_and(eq, rest))))
}

/// True when `t` is or contains an empty tuple `()`.
fn has_empty_tuple(t: &IntTuple) -> bool {
    match t {
        IntTuple::Tuple(v) => v.is_empty() || v.iter().any(has_empty_tuple),
        _ => false,
    }
}

fn fold_leaves(op: &str, ts: &[IntTuple], f: fn(Int, Int) -> Result<Int>) -> Result<Int> {
    let mut leaves = Vec::new();
    for t in ts {
        // CuTe reduces each tuple mode by mode, so an empty tuple at any depth has nothing to reduce.
        if has_empty_tuple(t) {
            return Err(LayoutError::invalid(format!(
                "{op} of {t}: an empty tuple () has no value to reduce"
            )));
        }
        leaves.extend(t.int_leaves()?);
    }
    let mut it = leaves.into_iter().rev();
    let last = it
        .next()
        .ok_or_else(|| LayoutError::invalid(format!("{op} needs at least one value")))?;
    it.try_fold(last, |acc, x| f(x, acc))
}

/// Largest leaf over all arguments.
/// ```
/// # use cute_layout_core::{IntTuple, max};
/// assert_eq!(max(&["(_4,(_4,(_7)))".parse().unwrap()]).unwrap().to_string(), "_7");
/// ```
pub fn max(ts: &[IntTuple]) -> Result<Int> {
    fold_leaves("max", ts, |a, b| Ok(a.max(b)))
}

/// Smallest leaf over all arguments.
///
/// ```
/// use cute_layout_core::{IntTuple, min};
/// let a: IntTuple = "(_4,(_3,_8))".parse().unwrap();
/// assert_eq!(min(&[a, IntTuple::s(5)]).unwrap().to_string(), "_3");
/// ```
pub fn min(ts: &[IntTuple]) -> Result<Int> {
    fold_leaves("min", ts, |a, b| Ok(a.min(b)))
}

/// Greatest common divisor of all leaves over all arguments.
/// ```
/// # use cute_layout_core::{IntTuple, gcd};
/// assert_eq!(gcd(&["(_2,(_4,_8))".parse().unwrap()]).unwrap().to_string(), "_2");
/// ```
pub fn gcd(ts: &[IntTuple]) -> Result<Int> {
    let all = IntTuple::Tuple(ts.to_vec());
    if has_empty_tuple(&all) {
        let shown = match ts {
            [t] => t.to_string(),
            _ => all.to_string(),
        };
        return Err(LayoutError::invalid(format!(
            "gcd of {shown}: an empty tuple () has no value to reduce"
        )));
    }
    gcd_tree(&all)
}

/// CuTe's variadic `gcd`: each tuple reduced to one value first, then a right fold, `gcd(a, gcd(b, ...))`.
fn gcd_tree(t: &IntTuple) -> Result<Int> {
    match t {
        IntTuple::Tuple(v) => {
            let vals = v.iter().map(gcd_tree).collect::<Result<Vec<_>>>()?;
            let mut it = vals.into_iter().rev();
            let last = it
                .next()
                .ok_or_else(|| LayoutError::invalid("gcd needs at least one value"))?;
            it.try_fold(last, |acc, x| signed_gcd(x, acc))
        }
        leaf => leaf.expect_int("gcd"),
    }
}

/// CuTe's Euclid loop on C++ remainders (which keep the dividend's sign), so a negative argument
/// can give a negative result: `gcd(8, -3)` is `-1`. A result whose magnitude does not fit in i64
/// is an overflow.
fn signed_gcd(a: Int, b: Int) -> Result<Int> {
    let overflow = LayoutError::Overflow {
        op: "gcd",
        lhs: a.value,
        rhs: b.value,
    };
    let rem = |x: i64, y: i64| x.checked_rem(y).ok_or(overflow.clone());
    let (mut t, mut u) = (a.value, b.value);
    let g = loop {
        if t == 0 {
            break u;
        }
        u = rem(u, t)?;
        if u == 0 {
            break t;
        }
        t = rem(t, u)?;
    };
    g.checked_abs().ok_or(overflow)?;
    Ok(if a.is_static && b.is_static {
        Int::s(g)
    } else {
        Int::d(g)
    })
}

/// Exclusive prefix products of the leaves, with the same profile (CuTe's compact column-major strides).
/// ```
/// # use cute_layout_core::{IntTuple, prefix_product};
/// assert_eq!(prefix_product(&"(_2,(_3,4),_5)".parse().unwrap(), cute_layout_core::Int::s(1)).unwrap().to_string(), "(_1,(_2,_6),24)");
/// ```
pub fn prefix_product(t: &IntTuple, init: Int) -> Result<IntTuple> {
    fn go(t: &IntTuple, acc: &mut Int) -> Result<IntTuple> {
        match t {
            IntTuple::Tuple(v) => Ok(IntTuple::Tuple(
                v.iter().map(|e| go(e, acc)).collect::<Result<_>>()?,
            )),
            _ => {
                let here = *acc;
                *acc = acc.mul(leaf(t, "prefix_product")?)?;
                Ok(IntTuple::Int(here))
            }
        }
    }
    let mut acc = init;
    go(t, &mut acc)
}
