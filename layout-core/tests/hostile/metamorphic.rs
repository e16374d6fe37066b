//! Metamorphic checks: each operation's result, when it is not an error, is checked against the
//! operation's definition on every point of its (small) domain. Errors are allowed: the library
//! refuses what breaks a definition instead of returning it.

use super::inputs::{self, Rng};
use cute_layout_core::notation::{Value, eval_str};
use cute_layout_core::{IntTuple, Layout, eval, size};
use std::collections::HashSet;

/// The operations checked, with their definition in the doc of [`check`].
const OPS: &[&str] = &[
    "coalesce",
    "composition",
    "right_inverse",
    "left_inverse",
    "complement",
    "logical_divide",
    "zipped_divide",
    "logical_product",
    "blocked_product",
    "raked_product",
];

/// `OP\tA\tB`: an operation and two small layouts.
pub fn make(r: &mut Rng) -> String {
    let op = *r.pick(OPS);
    format!(
        "{op}\t{}\t{}",
        inputs::small_layout(r),
        inputs::small_layout(r)
    )
}

/// The layout `text` means, `None` when it is not a valid layout.
fn layout(text: &str) -> Option<Layout> {
    match eval_str(text).ok()? {
        Value::Layout(l) => Some(l),
        _ => None,
    }
}

/// `l(i)` as an integer (`None` when it is not one: basis strides or an error).
fn at(l: &Layout, i: i64) -> Option<i64> {
    eval(l, &IntTuple::d(i)).ok()?.as_int().map(|v| v.value)
}

/// The size of `l` when it is small enough to enumerate.
fn small_size(l: &Layout) -> Option<i64> {
    size(l)
        .ok()
        .map(|s| s.value)
        .filter(|s| (0..=4096).contains(s))
}

/// The values of `l` over its domain.
fn image(l: &Layout) -> Option<Vec<i64>> {
    (0..small_size(l)?).map(|i| at(l, i)).collect()
}

/// Check one case (see [`make`]). Definitions, for `R = OP(A, B)` (or `OP(A)`):
/// coalesce `R(i) = A(i)`; composition `R(i) = A(B(i))` on B's domain, `size R = size B`;
/// right_inverse `A(R(i)) = i`; left_inverse `R(A(i)) = i` when A is injective; complement: `(A, R)`, whose values
/// are `A(i) + R(j)`, injective when A is;
/// logical_divide `R(i) = A(B(i))` on B's domain within mode 0 of R (CuTe's tile; with dynamic
/// values it can be smaller than B); zipped_divide: the image and size of
/// logical_divide; logical_product `R(i) = A(i)` on A's domain (its size is not checked: with
/// dynamic values CuTe's complement and raw composition can give a second mode smaller than B, as the
/// README's deviations say);
/// blocked/raked_product: the image and size of logical_product.
pub fn check(case: &str) -> Result<bool, String> {
    let mut parts = case.split('\t');
    let (op, a, b) = (
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
    );
    let Some(la) = layout(a) else {
        return Ok(false);
    };
    let Some(lb) = layout(b) else {
        return Ok(false);
    };
    let unary = matches!(
        op,
        "coalesce" | "right_inverse" | "left_inverse" | "complement"
    );
    let expr = if unary {
        format!("{op}({a})")
    } else {
        format!("{op}({a},{b})")
    };
    let Some(r) = layout(&expr) else {
        return Ok(false);
    };
    let (Some(ia), Some(ib), Some(ir)) = (image(&la), image(&lb), image(&r)) else {
        return Ok(false);
    };
    if ia.is_empty() || ib.is_empty() {
        return Ok(false); // a layout of size 0 is a function defined nowhere
    }
    let fail = |what: &str| Err(format!("{expr} = {r}: {what}"));
    let ok = match op {
        "coalesce" => ir == ia,
        "composition" => {
            ir.len() == ib.len() && ib.iter().zip(&ir).all(|(&x, &y)| at(&la, x) == Some(y))
        }
        "right_inverse" => ir
            .iter()
            .enumerate()
            .all(|(i, &x)| at(&la, x) == Some(i as i64)),
        "left_inverse" => {
            !injective(&ia)
                || ia
                    .iter()
                    .enumerate()
                    .all(|(i, &x)| at(&r, x) == Some(i as i64))
        }
        "complement" => !injective(&ia) || injective(&sums(&ia, &ir)),
        "logical_divide" => {
            let tile = mode0_size(&r);
            ib.iter()
                .zip(&ir)
                .take(tile)
                .all(|(&x, &y)| at(&la, x) == Some(y))
        }
        "zipped_divide" => same_image(&ir, &format!("logical_divide({a},{b})")),
        "logical_product" => ir.len() >= ia.len() && ia.iter().zip(&ir).all(|(x, y)| x == y),
        _ => same_image(&ir, &format!("logical_product({a},{b})")),
    };
    if ok {
        Ok(true)
    } else {
        fail("breaks the definition")
    }
}

/// The values of the concatenated layout `(A, C)`: `A(i) + C(j)`.
fn sums(a: &[i64], c: &[i64]) -> Vec<i64> {
    c.iter()
        .flat_map(|y| a.iter().map(move |x| x + y))
        .collect()
}

/// The size of mode 0 of `l` (the tile of a divide).
fn mode0_size(l: &Layout) -> usize {
    let mode = cute_layout_core::get(l, &[0]).ok();
    mode.and_then(|m| small_size(&m)).unwrap_or(0) as usize
}

fn injective(values: &[i64]) -> bool {
    values.iter().collect::<HashSet<_>>().len() == values.len()
}

/// True when `values` are, as a multiset, the image of the layout `expr` (or `expr` fails).
fn same_image(values: &[i64], expr: &str) -> bool {
    let Some(other) = layout(expr).and_then(|l| image(&l)) else {
        return true;
    };
    let (mut x, mut y) = (values.to_vec(), other);
    x.sort_unstable();
    y.sort_unstable();
    x == y
}
