//! The algebra operations the atom tilings use, in one place, under CuTe's names. Each one is the
//! library's implementation (never a re-implementation); the tilings read like CuTe's `mma_atom.hpp` /
//! `copy_atom.hpp`. Only `append`/`zip`/tiler construction, which regroup modes, live here.

use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tiler::Tiler;

/// `make_layout(shape)`: CuTe's compact column-major layout (static size-1 modes get stride `_0`).
pub(crate) fn make_layout(shape: &IntTuple) -> Result<Layout> {
    crate::make_layout(shape)
}

/// `composition(a, b)` with a layout or a (by-mode) tiler on the right.
pub(crate) fn composition(a: &Layout, b: &Tiler) -> Result<Layout> {
    crate::composition(a, b)
}

/// `logical_divide(a, tiler)`.
pub(crate) fn logical_divide(a: &Layout, t: &Tiler) -> Result<Layout> {
    crate::logical_divide(a, t)
}

/// `zipped_divide(a, tiler)`.
pub(crate) fn zipped_divide(a: &Layout, t: &Tiler) -> Result<Layout> {
    crate::zipped_divide(a, t)
}

/// `right_inverse(a)`.
pub(crate) fn right_inverse(a: &Layout) -> Result<Layout> {
    crate::right_inverse(a)
}

/// `left_inverse(a)`.
pub(crate) fn left_inverse(a: &Layout) -> Result<Layout> {
    crate::left_inverse(a)
}

/// `raked_product(a, b)`.
pub(crate) fn raked_product(a: &Layout, b: &Layout) -> Result<Layout> {
    crate::raked_product(a, b)
}

/// `tiled_product(a, b)`.
pub(crate) fn tiled_product(a: &Layout, b: &Layout) -> Result<Layout> {
    crate::tiled_product(a, &Tiler::Layout(b.clone()))
}

/// `coalesce(a, profile)`: coalesce each mode of `a` as far as `profile` says.
pub(crate) fn coalesce_with(a: &Layout, profile: &IntTuple) -> Result<Layout> {
    crate::coalesce_by_mode(a, profile)
}

/// `filter(a)`: drop stride-0 and size-1 modes, then coalesce.
pub(crate) fn filter(a: &Layout) -> Result<Layout> {
    crate::filter(a)
}

/// `upcast<n>(a)`.
pub(crate) fn upcast(n: i64, a: &Layout) -> Result<Layout> {
    crate::upcast(n, a)
}

/// `a(i)`: the layout as a function of a linear (column-major) index.
pub(crate) fn eval_at(a: &Layout, i: i64) -> Result<i64> {
    match crate::eval(a, &IntTuple::d(i))? {
        IntTuple::Int(v) => Ok(v.value),
        v => Err(LayoutError::invalid(format!(
            "evaluating {a} at {i} gave `{v}`, expected an integer"
        ))),
    }
}

/// The layout's values at every index of its domain, in order.
pub(crate) fn eval_all(a: &Layout) -> Result<Vec<i64>> {
    let n = size(a)?.value;
    let steps = crate::print::MAX_CELLS as usize;
    if n > steps as i64 {
        return Err(crate::limits::too_large(
            format!("evaluating {a} at every coordinate: its size"),
            usize::try_from(n).unwrap_or(usize::MAX),
            steps,
        ));
    }
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
