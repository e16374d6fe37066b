//! The functions that `cute eval` knows, grouped by area. Each area's table maps a CuTe name to the
//! library function that implements it; the algebra itself lives in the library modules, never here.

use super::value::Value;
use crate::error::{LayoutError, Result};

mod algebra;
mod analysis;
mod atoms;
mod divide_product;
mod layout;
mod swizzle;
mod tuple;

/// One area's dispatcher: `None` when the name is not in this area.
type Table = fn(&str, &[i64], Vec<Value>) -> Option<Result<Value>>;

// The swizzle table comes first: it answers only when an argument is a swizzle or a composed
// layout, which the layout tables do not take.
const TABLES: &[(Table, &[&str])] = &[
    (swizzle::call, swizzle::NAMES),
    (swizzle::call, swizzle::REWRAP),
    (tuple::call, tuple::NAMES),
    (layout::call, layout::NAMES),
    (algebra::call, algebra::NAMES),
    (divide_product::call, divide_product::NAMES),
    (atoms::call, atoms::NAMES),
    (analysis::call, analysis::NAMES),
];

/// Every operation name the notation knows.
///
/// ```
/// use cute_layout_core::notation::operation_names;
/// let names = operation_names();
/// assert!(["composition", "complement", "logical_divide", "right_inverse"].iter().all(|n| names.contains(n)));
/// ```
pub fn operation_names() -> Vec<&'static str> {
    TABLES
        .iter()
        .flat_map(|(_, names)| names.iter().copied())
        .collect()
}

/// Call a builtin by name.
pub(super) fn call(name: &str, targs: &[i64], args: Vec<Value>) -> Result<Value> {
    for (table, names) in TABLES {
        if names.contains(&name)
            && let Some(r) = table(name, targs, args.clone())
        {
            return r;
        }
    }
    if operation_names().contains(&name) {
        let kinds: Vec<&str> = args.iter().map(Value::kind).collect();
        return Err(LayoutError::bad_args(
            name,
            format!(
                "does not accept arguments of these kinds: ({})",
                kinds.join(", ")
            ),
        ));
    }
    Err(LayoutError::UnknownOperation {
        name: crate::limits::clip(name),
        suggestion: nearest(name),
    })
}

fn nearest(name: &str) -> Option<String> {
    if !crate::limits::searchable(name) {
        return None;
    }
    operation_names()
        .into_iter()
        .map(|n| (edit_distance(name, n), n))
        .filter(|(d, n)| *d <= 3.max(n.len() / 3))
        .min()
        .map(|(_, n)| n.to_string())
}

/// Levenshtein distance, for "did you mean" suggestions.
///
/// ```
/// use cute_layout_core::notation::edit_distance;
/// assert_eq!(edit_distance("compositon", "composition"), 1);
/// assert_eq!(edit_distance("", "abc"), 3);
/// ```
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Check the argument count (`counts` lists the accepted numbers).
pub(crate) fn arity(op: &str, args: &[Value], counts: &[usize]) -> Result<()> {
    if counts.contains(&args.len()) {
        Ok(())
    } else {
        let want = counts
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" or ");
        Err(LayoutError::bad_args(
            op,
            format!("takes {want} argument(s), got {}", args.len()),
        ))
    }
}

/// Element widths that have a `uint_bit_t` in CuTe (`recast_layout<A,B>` names `uint_bit_t<A>`).
const UINT_BIT_WIDTHS: [i64; 10] = [1, 2, 4, 6, 8, 16, 32, 64, 128, 256];

/// The two element widths of `recast_layout<OLD,NEW>`; each must have a `uint_bit_t` (as in CuTe,
/// where any other width does not compile).
pub(crate) fn recast_widths(op: &str, targs: &[i64]) -> Result<(i64, i64)> {
    let old = targ(op, targs, 0)? as i64;
    let new = targ(op, targs, 1)? as i64;
    for bits in [old, new] {
        if !UINT_BIT_WIDTHS.contains(&bits) {
            return Err(LayoutError::bad_args(
                op,
                format!("no uint_bit_t<{bits}>: element widths must be one of {UINT_BIT_WIDTHS:?}"),
            ));
        }
    }
    Ok((old, new))
}

/// The `k`-th template argument as a mode index.
pub(crate) fn targ(op: &str, targs: &[i64], k: usize) -> Result<usize> {
    let v = *targs.get(k).ok_or_else(|| {
        LayoutError::bad_args(
            op,
            format!(
                "needs template argument number {} (e.g. {op}<1>(...))",
                k + 1
            ),
        )
    })?;
    usize::try_from(v).map_err(|_| {
        LayoutError::bad_args(op, format!("template argument {v} must be non-negative"))
    })
}

/// All template arguments as mode indices.
pub(crate) fn targ_path(op: &str, targs: &[i64]) -> Result<Vec<usize>> {
    (0..targs.len()).map(|k| targ(op, targs, k)).collect()
}
