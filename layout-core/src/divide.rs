//! Logical division of a layout by a tiler, and its zipped, tiled and flat rearrangements.
//!
//! `logical_divide(A, B)` splits the domain of `A` into tiles of `B`: the first mode of the result is
//! "which element inside a tile", the second "which tile". It is
//! `A ∘ (B, complement(B, shape(coalesce(A))))`,
//! so a tile that does not divide `A` evenly still works (the rest mode is rounded up, CuTe's
//! ceil-division semantics). A tuple tiler divides mode by mode; `_` leaves a mode alone; an integer
//! `n` stands for the layout `make_layout(n)`.
//!
//! ```
//! use cute_layout_core::notation::eval_str;
//! let r = eval_str("zipped_divide((6,8):(8,1),(3,4))").unwrap();
//! assert_eq!(r.to_string(), "((3,4),(2,2)):((8,1),(24,4))");
//! ```

use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tiler::Tiler;

/// The operations divides and products are built from, under CuTe's names and argument forms.
pub(crate) mod deps {
    use crate::error::Result;
    use crate::int::Int;
    use crate::int_tuple::IntTuple;
    use crate::layout::Layout;

    pub(crate) use crate::coalesce::coalesce;
    pub(crate) use crate::complement::complement;
    pub(crate) use crate::composition::composition;

    /// CuTe's composition result as divides and products use it. CuTe keeps its raw result there
    /// even where the tile does not divide the layout (the rest mode is rounded up and reads past
    /// the layout's last mode), and the oracle expects that result. `composition` verifies
    /// `R == A ∘ B` and refuses those; this one keeps only CuTe's own static checks.
    pub(crate) fn raw_composition(a: &Layout, b: &Layout) -> Result<Layout> {
        crate::composition::composition_unverified(a, b)
    }
    pub(crate) use crate::construct::{make_layout, make_ordered_layout};
    pub(crate) use crate::inverse::right_inverse;
    pub(crate) use crate::query::{cosize, size};

    /// `append<n>(layout)`: pad with `_1:_0` modes up to rank `n`.
    pub(crate) fn append_to(layout: &Layout, n: usize) -> Result<Layout> {
        crate::modes::append(layout, None, Some(n))
    }

    /// `zip(a, b)` of two layouts: mode `i` of the result is `(a_i, b_i)`.
    pub(crate) fn zip(a: &Layout, b: &Layout) -> Result<Layout> {
        crate::modes::zip(&[a.clone(), b.clone()])
    }

    /// Compact column-major strides for `shape` starting at `current` (a static size-1 mode gets `_0`).
    pub(crate) fn col_major_from(shape: &IntTuple, current: Int) -> Result<IntTuple> {
        crate::construct::compact_col_major(shape, Some(&IntTuple::Int(current)))
    }
}

use deps::{complement, make_layout, raw_composition};

/// A tiler turned into the layout CuTe uses for it: an integer `n` becomes `make_layout(n)`.
pub(crate) fn tiler_layout(t: &Tiler) -> Result<Option<Layout>> {
    Ok(match t {
        Tiler::Layout(l) => Some(l.clone()),
        Tiler::Int(n) => Some(make_layout(&IntTuple::Int(*n))?),
        _ => None,
    })
}

/// Apply `f` to the first `rank(tiler)` modes of `layout` with the matching tiler modes, keep the
/// remaining modes of `layout` as they are (CuTe's `transform_layout` on a tuple tiler).
pub(crate) fn by_mode(
    op: &str,
    layout: &Layout,
    tilers: &[Tiler],
    f: fn(&Layout, &Tiler) -> Result<Layout>,
) -> Result<Layout> {
    let modes = layout.modes();
    if tilers.len() > modes.len() {
        return Err(LayoutError::invalid(format!(
            "{op}: too many modes in the tiler: {} has {} modes but {layout} only {}",
            Tiler::Tuple(tilers.to_vec()),
            tilers.len(),
            modes.len()
        )));
    }
    let mut out = Vec::with_capacity(modes.len());
    for (i, m) in modes.into_iter().enumerate() {
        out.push(match tilers.get(i) {
            Some(t) => f(&m, t)?,
            None => m,
        });
    }
    Ok(Layout::from_modes(out))
}

/// Logical divide: `A ∘ (B, complement(B, shape(A)))` for a layout tiler `B`; by mode for a tuple
/// tiler; `A` itself for `_`.
///
/// As in CuTe, the complement is taken against the shape of `coalesce(A)`, and the composition is
/// CuTe's raw one: where the tile does not divide `A`, the rest mode is rounded up and is not
/// checked against `A`. The tile mode is: it must be `A ∘ B`.
///
/// Pre: a tuple tiler has at most `rank(A)` modes; CuTe's divisibility conditions hold, and
/// `A ∘ B` (the tile) is a true composition (else an error naming the condition).
/// Post: mode 0 of the result (for a layout tiler) is `A ∘ B`, with the shape of `B`; mode 1 is
/// CuTe's composition of `A` with `complement(B, shape(coalesce(A)))`.
///
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("logical_divide((_4,_2,_3):(_2,_1,_8),_4:_2)").unwrap().to_string(),
///            "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
/// // A tile of 4 over 6 elements: the rest mode rounds up.
/// assert_eq!(eval_str("logical_divide(6:1,4:1)").unwrap().to_string(), "(4,(1,2)):(1,(1,4))");
/// ```
pub fn logical_divide(layout: &Layout, tiler: &Tiler) -> Result<Layout> {
    match tiler {
        Tiler::Tuple(ts) => by_mode("logical_divide", layout, ts, logical_divide),
        Tiler::Underscore => Ok(layout.clone()),
        _ => {
            let b = tiler_layout(tiler)?
                .ok_or_else(|| LayoutError::internal("layout or integer tiler"))?;
            // The tile mode must be A ∘ B (CuTe's result is refused where it is not, as the
            // standalone composition does); only the rest mode keeps CuTe's raw result.
            crate::composition::composition_tile(layout, &b)?;
            let rest = complement(&b, deps::coalesce(layout)?.shape())?;
            raw_composition(layout, &Layout::from_modes(vec![b, rest]))
        }
    }
}

/// Gather the rank-2 modes found at the terminals of `guide` into `((tiles...),(rests..., extra modes))`
/// (CuTe's `zip2_by`).
fn zip2_by(t: &IntTuple, guide: &Tiler) -> Result<IntTuple> {
    let fail = || {
        LayoutError::invalid(format!(
            "the tiler {guide} does not match the divided/multiplied layout's modes {t}: \
             each non-tuple tiler mode must sit on a rank-2 mode"
        ))
    };
    match guide {
        Tiler::Tuple(g) => {
            let IntTuple::Tuple(tv) = t else {
                return Err(fail());
            };
            if tv.len() < g.len() {
                return Err(fail());
            }
            let mut firsts = Vec::with_capacity(g.len());
            let mut seconds = Vec::with_capacity(tv.len());
            for (ti, gi) in tv.iter().zip(g) {
                let split = zip2_by(ti, gi)?;
                let IntTuple::Tuple(pair) = split else {
                    return Err(fail());
                };
                let mut it = pair.into_iter();
                let (Some(a), Some(b)) = (it.next(), it.next()) else {
                    return Err(fail());
                };
                firsts.push(a);
                seconds.push(b);
            }
            seconds.extend(tv[g.len()..].iter().cloned());
            Ok(IntTuple::Tuple(vec![
                IntTuple::Tuple(firsts),
                IntTuple::Tuple(seconds),
            ]))
        }
        _ => match t {
            IntTuple::Tuple(tv) if tv.len() == 2 => Ok(t.clone()),
            _ => Err(fail()),
        },
    }
}

/// Rearrange a logical divide/product result by the tiler's profile (CuTe's `tile_unzip`).
pub(crate) fn tile_unzip(layout: &Layout, tiler: &Tiler) -> Result<Layout> {
    Layout::new(
        zip2_by(layout.shape(), tiler)?,
        zip2_by(layout.stride(), tiler)?,
    )
}

/// The sub-modes a slice with `repeat<rank(m)>(_)` keeps: the modes of `m`, or `m` whole when
/// it has rank 1 (`repeat<1>(_)` is `_`).
fn unpack(m: &Layout) -> Vec<Layout> {
    if m.rank() == 1 {
        vec![m.clone()]
    } else {
        m.modes()
    }
}

/// `result(_, repeat<R1>(_))`: keep mode 0, splice the modes of mode 1.
pub(crate) fn unpack_second(zipped: &Layout) -> Result<Layout> {
    let modes = zipped.modes();
    let [m0, m1] = modes.as_slice() else {
        return Err(LayoutError::invalid(format!(
            "expected a rank-2 layout, got {zipped}"
        )));
    };
    let mut out = vec![m0.clone()];
    out.extend(unpack(m1));
    Ok(Layout::from_modes(out))
}

/// `result(repeat<R0>(_), repeat<R1>(_))`: splice the modes of both modes.
pub(crate) fn unpack_both(zipped: &Layout) -> Result<Layout> {
    let modes = zipped.modes();
    let [m0, m1] = modes.as_slice() else {
        return Err(LayoutError::invalid(format!(
            "expected a rank-2 layout, got {zipped}"
        )));
    };
    let mut out = unpack(m0);
    out.extend(unpack(m1));
    Ok(Layout::from_modes(out))
}

/// Zipped divide: the logical divide with all tile modes gathered in mode 0 and all rest modes
/// (then the modes the tiler did not cover) in mode 1: `((TILE...),(REST...))`.
///
/// Pre: as [`logical_divide`]; a non-tuple tiler mode must face a layout mode that the divide
/// turned into a rank-2 mode (so `_` inside a tuple tiler is an error, as in CuTe).
/// Post: the same function as `logical_divide(A, B)`, modes regrouped.
///
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("zipped_divide((_12,_32):(_32,_1),(_4,_8))").unwrap().to_string(),
///            "((_4,_8),(_3,_4)):((_32,_1),(_128,_8))");
/// ```
pub fn zipped_divide(layout: &Layout, tiler: &Tiler) -> Result<Layout> {
    tile_unzip(&logical_divide(layout, tiler)?, tiler)
}

/// Tiled divide: the zipped divide with the rest modes unpacked: `((TILE...),REST0,REST1,...)`.
///
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("tiled_divide((_6,_8):(_8,_1),(_3,_4))").unwrap().to_string(),
///            "((_3,_4),_2,_2):((_8,_1),_24,_4)");
/// ```
pub fn tiled_divide(layout: &Layout, tiler: &Tiler) -> Result<Layout> {
    unpack_second(&zipped_divide(layout, tiler)?)
}

/// Flat divide: the zipped divide with both modes unpacked: `(TILE0,TILE1,...,REST0,REST1,...)`.
///
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("flat_divide(_10:_1,_4:_1)").unwrap().to_string(), "(_4,_3):(_1,_4)");
/// ```
pub fn flat_divide(layout: &Layout, tiler: &Tiler) -> Result<Layout> {
    unpack_both(&zipped_divide(layout, tiler)?)
}
