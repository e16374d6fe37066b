//! Arithmetic on coordinate values: integers, scaled basis elements and tuples of them (CuTe's
//! `ArithmeticTuple`).
//!
//! A layout whose strides are basis elements maps a coordinate to a *coordinate* rather than to an
//! offset: `c * E<i>` puts `c` at mode `i`, and a sum of such terms is a tuple. The rules, as CuTe's:
//! - an integer times `v@i` scales the basis element: `3 * _1@1 = 3@1`;
//! - a basis element `v@i@...` seen as a tuple has `_0` in the modes before `i` and `v` (recursively) at `i`;
//! - tuples add mode by mode, the shorter padded with `_0`;
//! - a static `_0` added to anything is that thing; any other integer added to a tuple is an error.
//!
//! ```
//! use cute_layout_core::{IntTuple, arith_add};
//! let a: IntTuple = "2@0".parse().unwrap();
//! let b: IntTuple = "_3@1".parse().unwrap();
//! assert_eq!(arith_add(&a, &b).unwrap().to_string(), "(2,_3)");
//! ```

use crate::basis::ScaledBasis;
use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;

/// A basis element with no modes is its scale (CuTe's `E<>` is `_1`).
fn normalize(t: &IntTuple) -> IntTuple {
    match t {
        IntTuple::Basis(b) if b.modes.is_empty() => IntTuple::Int(b.scale),
        other => other.clone(),
    }
}

/// The largest basis mode index expanded into a tuple (a guard against absurd inputs such as
/// `_1@99999999999`, which would need that many `_0` entries).
///
/// ```
/// use cute_layout_core::{IntTuple, arith_tuple::MAX_BASIS_MODE, as_arithmetic_tuple};
/// let far = format!("_1@{}", MAX_BASIS_MODE + 1).parse::<IntTuple>().unwrap();
/// assert!(as_arithmetic_tuple(&far).is_err());
/// ```
pub const MAX_BASIS_MODE: usize = 1 << 12;

/// The value as a plain (nested) tuple: every basis element `v@i@...` becomes `(_0,...,_0,v')`
/// with `i` zeros. Integers stay integers.
///
/// Post: the result holds no basis elements. Errors: a mode index above [`MAX_BASIS_MODE`].
/// ```
/// # use cute_layout_core::{IntTuple, as_arithmetic_tuple};
/// let b: IntTuple = "4@1@2".parse().unwrap(); // E<2,1> scaled by 4
/// assert_eq!(as_arithmetic_tuple(&b).unwrap().to_string(), "(_0,_0,(_0,4))");
/// ```
pub fn as_arithmetic_tuple(t: &IntTuple) -> Result<IntTuple> {
    fn expand(scale: Int, modes: &[usize]) -> Result<IntTuple> {
        match modes.split_first() {
            None => Ok(IntTuple::Int(scale)),
            Some((&m, _)) if m > MAX_BASIS_MODE => Err(LayoutError::IndexOutOfRange {
                what: "basis element mode".into(),
                index: m as i64,
                bound: MAX_BASIS_MODE as i64 + 1,
            }),
            Some((&m, rest)) => {
                let mut v = vec![IntTuple::s(0); m];
                v.push(expand(scale, rest)?);
                Ok(IntTuple::Tuple(v))
            }
        }
    }
    match t {
        IntTuple::Int(i) => Ok(IntTuple::Int(*i)),
        IntTuple::Basis(b) => expand(b.scale, &b.modes),
        IntTuple::Tuple(v) => Ok(IntTuple::Tuple(
            v.iter().map(as_arithmetic_tuple).collect::<Result<_>>()?,
        )),
    }
}

/// Sum of two coordinate values with CuTe's rules (see the module documentation).
///
/// Pre: both are integers, or the integer side is a static `_0`, or neither is an integer.
/// Errors: adding a non-`_0` integer to a tuple or basis element; overflow.
/// ```
/// # use cute_layout_core::{IntTuple, arith_add};
/// let a: IntTuple = "(1,(2,_3))".parse().unwrap();
/// let b: IntTuple = "_1@1@1".parse().unwrap();
/// assert_eq!(arith_add(&a, &b).unwrap().to_string(), "(1,(2,_4))");
/// assert!(arith_add(&IntTuple::d(1), &b).is_err());
/// ```
pub fn arith_add(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    let (a, b) = (normalize(a), normalize(b));
    match (&a, &b) {
        (IntTuple::Int(x), IntTuple::Int(y)) => Ok(IntTuple::Int(x.add(*y)?)),
        (IntTuple::Int(x), _) if x.is_static_eq(0) => Ok(b.clone()),
        (_, IntTuple::Int(y)) if y.is_static_eq(0) => Ok(a.clone()),
        (IntTuple::Int(_), _) | (_, IntTuple::Int(_)) => Err(LayoutError::invalid(format!(
            "cannot add the integer and the coordinate tuple in {a} + {b} (only a static _0 adds to a tuple)"
        ))),
        _ => {
            let (IntTuple::Tuple(x), IntTuple::Tuple(y)) =
                (as_arithmetic_tuple(&a)?, as_arithmetic_tuple(&b)?)
            else {
                return Err(LayoutError::invalid(format!("cannot add {a} and {b}")));
            };
            let n = x.len().max(y.len());
            let zero = IntTuple::s(0);
            (0..n)
                .map(|k| arith_add(x.get(k).unwrap_or(&zero), y.get(k).unwrap_or(&zero)))
                .collect::<Result<Vec<_>>>()
                .map(IntTuple::Tuple)
        }
    }
}

/// `c * d` for an integer `c` and a stride leaf `d` (an integer or a basis element).
///
/// Errors: `d` a tuple; overflow.
/// ```
/// # use cute_layout_core::{Int, IntTuple, arith_scale};
/// let e: IntTuple = "_1@1".parse().unwrap();
/// assert_eq!(arith_scale(Int::d(3), &e).unwrap().to_string(), "3@1");
/// ```
pub fn arith_scale(c: Int, d: &IntTuple) -> Result<IntTuple> {
    match d {
        IntTuple::Int(x) => Ok(IntTuple::Int(c.mul(*x)?)),
        IntTuple::Basis(b) => Ok(normalize(&IntTuple::Basis(ScaledBasis::new(
            c.mul(b.scale)?,
            b.modes.clone(),
        )))),
        IntTuple::Tuple(_) => Err(LayoutError::invalid(format!(
            "cannot multiply the integer {c} by the tuple {d}: a stride leaf must be an integer or a basis element"
        ))),
    }
}

/// The sum of all leaves with [`arith_add`], starting from `_0` (CuTe's `sum` on strides that may
/// hold basis elements).
///
/// ```
/// use cute_layout_core::{IntTuple, arith_sum};
/// let t: IntTuple = "(_2@0,_3@1,_1@0)".parse().unwrap();
/// assert_eq!(arith_sum(&t).unwrap().to_string(), "(_3,_3)");
/// ```
pub fn arith_sum(t: &IntTuple) -> Result<IntTuple> {
    match t {
        IntTuple::Tuple(v) => v
            .iter()
            .try_fold(IntTuple::s(0), |acc, e| arith_add(&acc, &arith_sum(e)?)),
        leaf => Ok(normalize(leaf)),
    }
}

/// Absolute value of every leaf (the scale of a basis element).
///
/// ```
/// use cute_layout_core::{IntTuple, arith_abs};
/// let t: IntTuple = "(-2,_-3@1)".parse().unwrap();
/// assert_eq!(arith_abs(&t).unwrap().to_string(), "(2,_3@1)");
/// ```
pub fn arith_abs(t: &IntTuple) -> Result<IntTuple> {
    t.map_leaves(&mut |l| match l {
        IntTuple::Int(i) => Ok(IntTuple::Int(i.abs()?)),
        IntTuple::Basis(b) => Ok(IntTuple::Basis(ScaledBasis::new(
            b.scale.abs()?,
            b.modes.clone(),
        ))),
        t => Ok(t.clone()),
    })
}

/// Inner product of a shape-like tuple `a` (integer leaves) and a congruent stride-like `b`
/// (integer or basis leaves): `_0 + a0*b0 + a1*b1 + ...`.
///
/// Errors: `a` and `b` not congruent; a basis element in `a`.
///
/// ```
/// use cute_layout_core::{IntTuple, arith_inner_product};
/// let a: IntTuple = "(2,3)".parse().unwrap();
/// assert_eq!(arith_inner_product(&a, &"(_1,_4)".parse().unwrap()).unwrap().to_string(), "14");
/// let c = arith_inner_product(&a, &"(_1@0,_1@1)".parse().unwrap()).unwrap();
/// assert_eq!(c.to_string(), "(2,3)");
/// ```
pub fn arith_inner_product(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    match (a, b) {
        (IntTuple::Tuple(x), IntTuple::Tuple(y)) if x.len() == y.len() => {
            x.iter().zip(y).try_fold(IntTuple::s(0), |acc, (p, q)| {
                arith_add(&acc, &arith_inner_product(p, q)?)
            })
        }
        (IntTuple::Int(x), d) if !d.is_tuple() => arith_scale(*x, d),
        _ => Err(LayoutError::NotCongruent {
            what: "inner product".into(),
            left: a.to_string(),
            right: b.to_string(),
        }),
    }
}
