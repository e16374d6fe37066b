//! Right and left inverses of layouts, with CuTe's algorithms.
//!
//! `right_inverse(A)` is a layout `R` with `A(R(i)) == i` on R's domain: starting from stride 1 it
//! follows the static strides of the coalesced layout as long as each mode continues where the last
//! one ended (dynamic strides are ignored, stride-0 modes skipped). `left_inverse(A)` is a layout `L`
//! with `L(A(i)) == i` for every `i < size(A)`: it sorts the modes by stride and lets every stride
//! divide what the smaller ones cover.
//!
//! ```
//! use cute_layout_core::{left_inverse, right_inverse, Layout};
//! let a: Layout = "(_2,_4):(_4,_1)".parse().unwrap();
//! assert_eq!(right_inverse(&a).unwrap().to_string(), "(_4,_2):(_2,_1)");
//! assert_eq!(left_inverse(&a).unwrap().to_string(), "(_4,_2):(_2,_1)");
//! ```
#![deny(clippy::arithmetic_side_effects)] // integers here come from users: checked only

use crate::coalesce::coalesce;
use crate::coalesce::support::flat_modes;
use crate::composition::{CHECK_LIMIT, FlatFn};
use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;

/// The coalesced layout's modes as integer shape/stride pairs.
fn int_modes(l: &Layout, op: &str) -> Result<(Vec<Int>, Vec<Int>)> {
    let mut shape = Vec::new();
    let mut stride = Vec::new();
    for (s, d) in flat_modes(&coalesce(l)?)? {
        shape.push(s);
        stride.push(d.expect_int(op)?);
    }
    Ok((shape, stride))
}

/// Exclusive prefix products of `shape`, with one more entry for the total.
fn prefix_products(shape: &[Int]) -> Result<Vec<Int>> {
    let mut out = vec![Int::s(1)];
    for s in shape {
        let next = s.mul(
            *out.last()
                .ok_or_else(|| LayoutError::internal("non-empty"))?,
        )?;
        out.push(next);
    }
    Ok(out)
}

/// The most modes whose strides tie that the exchange sort below orders (it is quadratic).
///
/// ```
/// use cute_layout_core::inverse::MAX_SORT_MODES;
/// assert_eq!(MAX_SORT_MODES, 4096);
/// ```
pub const MAX_SORT_MODES: usize = 1 << 12;

/// The order CuTe's compile-time exchange sort puts `keys` in (ascending, not stable on ties).
/// Distinct keys are sorted in O(n log n) (every sort agrees on them); ties need CuTe's own
/// quadratic order, so more than [`MAX_SORT_MODES`] keys with a tie are an error.
fn exchange_sort_order(op: &str, keys: &[i64]) -> Result<Vec<usize>> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_unstable_by_key(|&i| keys[i]);
    if order.windows(2).all(|w| keys[w[0]] != keys[w[1]]) {
        return Ok(order);
    }
    if keys.len() > MAX_SORT_MODES {
        return Err(crate::limits::too_large(
            format!(
                "{op}: modes with equal strides to sort the way CuTe does; the number of modes"
            ),
            keys.len(),
            MAX_SORT_MODES,
        ));
    }
    Ok(exchange_sort(keys))
}

fn exchange_sort(keys: &[i64]) -> Vec<usize> {
    let mut a: Vec<(i64, usize)> = keys.iter().copied().zip(0..).collect();
    for i in 0..a.len() {
        for j in (i..a.len()).skip(1) {
            if a[j].0 < a[i].0 {
                a.swap(i, j);
            }
        }
    }
    a.into_iter().map(|(_, i)| i).collect()
}

fn tuple_of(v: Vec<Int>) -> IntTuple {
    IntTuple::Tuple(v.into_iter().map(IntTuple::Int).collect())
}

/// The right inverse of `layout` (CuTe's `right_inverse`).
///
/// Pre: integer strides. Post: `layout(result(i)) == i` for every `i < size(result)`; `result` is the
/// largest such layout CuTe finds from the static strides (`_1:_0` when there is no static stride `1`).
///
/// ```
/// # use cute_layout_core::{right_inverse, Layout};
/// let a: Layout = "(_2,_4):(_0,_1)".parse().unwrap();
/// assert_eq!(right_inverse(&a).unwrap().to_string(), "_4:_2");
/// let d: Layout = "4:1".parse().unwrap();
/// assert_eq!(right_inverse(&d).unwrap().to_string(), "_1:_0");
/// ```
pub fn right_inverse(layout: &Layout) -> Result<Layout> {
    let (shape, stride) = int_modes(layout, "right_inverse: stride")?;
    let pre = prefix_products(&shape)?;
    let statics: Vec<usize> = (0..stride.len()).filter(|&i| stride[i].is_static).collect();
    let keys: Vec<i64> = statics.iter().map(|&i| stride[i].value).collect();
    let mut rs = vec![Int::s(1)];
    let mut rd = vec![Int::s(0)];
    let mut next = Int::s(1);
    for k in exchange_sort_order("right_inverse", &keys)? {
        let i = statics[k];
        if next.is_static && next.value == stride[i].value {
            rs.push(shape[i]);
            rd.push(pre[i]);
            next = shape[i].mul(stride[i])?;
        }
    }
    let r = coalesce(&Layout::new(tuple_of(rs), tuple_of(rd))?)?;
    check_right(layout, &r)?;
    Ok(r)
}

/// The left inverse of `layout` (CuTe's `left_inverse`).
///
/// Pre: static integer strides; every non-zero stride, in increasing order, is divisible by the
/// product of the shapes the smaller strides give the result. Post: `result(layout(i)) == i` for every
/// `i < size(layout)` when `layout` is injective, and `layout(result(layout(i))) == layout(i)` always
/// (an error when CuTe's construction breaks it, e.g. with dynamic size-1 modes).
///
/// ```
/// # use cute_layout_core::{left_inverse, Layout};
/// let a: Layout = "(_4,_2):(_1,_16)".parse().unwrap();
/// assert_eq!(left_inverse(&a).unwrap().to_string(), "(_16,_2):(_1,_4)");
/// assert!(left_inverse(&"(4,2):(1,16)".parse::<Layout>().unwrap()).is_err());
/// ```
pub fn left_inverse(layout: &Layout) -> Result<Layout> {
    let (shape, stride) = int_modes(layout, "left_inverse: stride")?;
    if let Some(d) = stride.iter().find(|d| !d.is_static) {
        return Err(LayoutError::NeedsStatic {
            what: format!("left_inverse of {layout}: every stride"),
            value: d.to_string(),
        });
    }
    let pre = prefix_products(&shape)?;
    let keys: Vec<i64> = stride.iter().map(|d| d.value).collect();
    let order = exchange_sort_order("left_inverse", &keys)?;
    let mut rs: Vec<Int> = Vec::new();
    let mut rd = vec![Int::s(0)];
    // The product of `rs`, kept up to date when a stride needs it (as CuTe computes it then).
    let (mut covered, mut counted) = (Int::s(1), 0);
    for &i in &order {
        let d = stride[i];
        if d.is_static_eq(0) {
            continue;
        }
        for s in &rs[counted..] {
            covered = covered.mul(*s)?;
        }
        counted = rs.len();
        if d.rem(covered)?.value != 0 {
            return Err(LayoutError::NotDivisible {
                what: format!(
                    "left_inverse of {layout} (each stride must be divisible by the extent the \
                     smaller strides cover)"
                ),
                dividend: d.to_string(),
                divisor: covered.to_string(),
            });
        }
        rs.push(d.div(covered)?);
        rd.push(pre[i]);
    }
    let last = *order
        .last()
        .ok_or_else(|| LayoutError::invalid(format!("left_inverse: {layout} has no modes")))?;
    rs.push(shape[last]);
    let l = coalesce(&Layout::new(tuple_of(rs), tuple_of(rd))?)?;
    check_left(layout, &l)?;
    Ok(l)
}

/// Check `outer(inner(i)) == i` for every `i < size(inner)` (when the domain is small enough).
fn check_right(layout: &Layout, result: &Layout) -> Result<()> {
    let (fa, fr) = (FlatFn::new(layout)?, FlatFn::new(result)?);
    let n = fr.size()?;
    if n > CHECK_LIMIT {
        return Ok(());
    }
    FlatFn::check_work(
        &[&fa, &fr],
        n,
        "checking a right inverse: points times modes",
    )?;
    for i in 0..n {
        let x = int_at(&fr, i, result)?;
        let y = int_at(&fa, x, layout)?;
        if y != i {
            return Err(LayoutError::Postcondition {
                what: format!(
                    "right_inverse of {layout}: CuTe's result {result} is not a right inverse: \
                     it sends {i} to {x}, which the layout sends to {y}"
                ),
            });
        }
    }
    Ok(())
}

/// Check `layout(result(layout(i))) == layout(i)` for every `i < size(layout)` (the quasi-inverse
/// property) and, when the layout is injective on its domain, `result(layout(i)) == i` (CuTe's
/// construction can break it with dynamic size-1 modes whose strides tie:
/// `left_inverse((6,1):(_1,_1))` would be `1:6`).
fn check_left(layout: &Layout, result: &Layout) -> Result<()> {
    let (fa, fl) = (FlatFn::new(layout)?, FlatFn::new(result)?);
    let n = fa.size()?;
    if n > CHECK_LIMIT {
        return Ok(());
    }
    FlatFn::check_work(
        &[&fa, &fl],
        n,
        "checking a left inverse: points times modes",
    )?;
    let xs = (0..n)
        .map(|i| int_at(&fa, i, layout))
        .collect::<Result<Vec<_>>>()?;
    let injective = xs.iter().collect::<std::collections::HashSet<_>>().len() == xs.len();
    for (i, &x) in (0i128..).zip(&xs) {
        let j = int_at(&fl, x, result)?;
        if injective && j != i {
            return Err(LayoutError::Postcondition {
                what: format!(
                    "left_inverse of {layout}: CuTe's result {result} is not a left inverse: the \
                     layout sends {i} to {x} (and is injective) but the result sends {x} to {j}"
                ),
            });
        }
        let y = int_at(&fa, j, layout)?;
        if y != x {
            return Err(LayoutError::Postcondition {
                what: format!(
                    "left_inverse of {layout}: CuTe's result {result} is not a left inverse: the \
                     layout sends {i} to {x}, the result sends {x} to {j}, and the layout sends {j} \
                     to {y}, not {x}"
                ),
            });
        }
    }
    Ok(())
}

fn int_at(f: &FlatFn, i: i128, l: &Layout) -> Result<i128> {
    f.eval_int(i)?
        .ok_or_else(|| LayoutError::invalid(format!("inverse: {l} must map integers to integers")))
}
