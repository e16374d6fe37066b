//! The algebra operations the atom tilings use, in one place. Each one calls the library's implementation
//! (never a re-implementation); the tilings read like CuTe's `mma_atom.hpp` / `copy_atom.hpp`.

use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::notation::{Value, eval_str};
use crate::tiler::Tiler;

/// Call an algebra operation by its CuTe name through the notation's function table.
fn call(name: &str, args: &[String]) -> Result<Value> {
    eval_str(&format!("{name}({})", args.join(",")))
}

fn call_layout(name: &str, args: &[String]) -> Result<Layout> {
    match call(name, args)? {
        Value::Layout(l) => Ok(l),
        v => Err(LayoutError::invalid(format!(
            "{name}({}) gave {} `{v}`, expected a layout",
            args.join(","),
            v.kind()
        ))),
    }
}

/// `make_layout(shape)`: CuTe's compact column-major layout (static size-1 modes get stride `_0`).
pub(crate) fn make_layout(shape: &IntTuple) -> Result<Layout> {
    call_layout("make_layout", &[shape.to_string()])
}

/// `composition(a, b)` with a layout or a (by-mode) tiler on the right.
pub(crate) fn composition(a: &Layout, b: &Tiler) -> Result<Layout> {
    call_layout("composition", &[a.to_string(), b.to_string()])
}

/// `logical_divide(a, tiler)`.
pub(crate) fn logical_divide(a: &Layout, t: &Tiler) -> Result<Layout> {
    call_layout("logical_divide", &[a.to_string(), t.to_string()])
}

/// `zipped_divide(a, tiler)`.
pub(crate) fn zipped_divide(a: &Layout, t: &Tiler) -> Result<Layout> {
    call_layout("zipped_divide", &[a.to_string(), t.to_string()])
}

/// `right_inverse(a)`.
pub(crate) fn right_inverse(a: &Layout) -> Result<Layout> {
    call_layout("right_inverse", &[a.to_string()])
}

/// `left_inverse(a)`.
pub(crate) fn left_inverse(a: &Layout) -> Result<Layout> {
    call_layout("left_inverse", &[a.to_string()])
}

/// `raked_product(a, b)`.
pub(crate) fn raked_product(a: &Layout, b: &Layout) -> Result<Layout> {
    call_layout("raked_product", &[a.to_string(), b.to_string()])
}

/// `tiled_product(a, b)`.
pub(crate) fn tiled_product(a: &Layout, b: &Layout) -> Result<Layout> {
    call_layout("tiled_product", &[a.to_string(), b.to_string()])
}

/// `coalesce(a, profile)`: coalesce each mode of `a` as far as `profile` says.
pub(crate) fn coalesce_with(a: &Layout, profile: &IntTuple) -> Result<Layout> {
    call_layout("coalesce", &[a.to_string(), profile.to_string()])
}

/// `filter(a)`: drop stride-0 and size-1 modes, then coalesce.
pub(crate) fn filter(a: &Layout) -> Result<Layout> {
    call_layout("filter", &[a.to_string()])
}

/// `upcast<n>(a)`.
pub(crate) fn upcast(n: i64, a: &Layout) -> Result<Layout> {
    call_layout(&format!("upcast<{n}>"), &[a.to_string()])
}

/// `a(i)`: the layout as a function of a linear (column-major) index.
pub(crate) fn eval_at(a: &Layout, i: i64) -> Result<i64> {
    match call(
        "crd2idx",
        &[i.to_string(), a.shape().to_string(), a.stride().to_string()],
    )? {
        Value::IntTuple(IntTuple::Int(v)) => Ok(v.value),
        v => Err(LayoutError::invalid(format!(
            "evaluating {a} at {i} gave `{v}`, expected an integer"
        ))),
    }
}

/// The layout's values at every index of its domain, in order.
pub(crate) fn eval_all(a: &Layout) -> Result<Vec<i64>> {
    let n = size(a)?.value;
    (0..n).map(|i| eval_at(a, i)).collect()
}

/// `size(a)`: the number of coordinates of the layout's domain.
pub(crate) fn size(a: &Layout) -> Result<Int> {
    crate::tuple_ops::product(a.shape())
}

/// `size<i>(a)`.
pub(crate) fn size_of_mode(a: &Layout, i: usize) -> Result<Int> {
    size(&a.mode(i)?)
}

/// `a.with_shape(shape)` = `composition(a, make_layout(shape))`.
pub(crate) fn with_shape(a: &Layout, shape: &IntTuple) -> Result<Layout> {
    composition(a, &Tiler::Layout(make_layout(shape)?))
}

/// `append<n>(a, x)`: pad the modes of `a` with copies of `x` up to rank `n`.
pub(crate) fn append_to_rank(a: &Layout, n: usize, x: &Layout) -> Layout {
    let mut modes = a.modes();
    while modes.len() < n {
        modes.push(x.clone());
    }
    Layout::from_modes(modes)
}

/// A tuple of two tilers.
pub(crate) fn tile2(a: Tiler, b: Tiler) -> Tiler {
    Tiler::Tuple(vec![a, b])
}

/// A static integer as a tiler.
pub(crate) fn tint(v: Int) -> Tiler {
    Tiler::Int(v)
}

/// `zip` of a layout whose two top-level modes have the same rank: `((a,b),(c,d))` -> `((a,c),(b,d))`
/// (CuTe's `zip(layout)`, the transpose of a rank-2 nest). Modes are regrouped, nothing is computed.
pub(crate) fn zip2(a: &Layout) -> Result<Layout> {
    let outer = a.modes();
    if outer.is_empty() {
        return Ok(a.clone());
    }
    let inner: Vec<Vec<Layout>> = outer.iter().map(|m| m.modes()).collect();
    let r = inner[0].len();
    if inner.iter().any(|m| m.len() != r) {
        return Err(LayoutError::invalid(format!(
            "zip needs modes of equal rank, got {a}"
        )));
    }
    Ok(Layout::from_modes(
        (0..r)
            .map(|j| Layout::from_modes(inner.iter().map(|m| m[j].clone()).collect()))
            .collect(),
    ))
}
