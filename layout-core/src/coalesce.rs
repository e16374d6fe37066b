//! Coalesce and filter: simplify a layout without changing it as a function on its domain.
//!
//! `coalesce` flattens a layout and merges neighbouring modes `s0:d0, s1:d1` when `d1 == s0 * d0`,
//! exactly as CuTe does it: back to front, merging only when the mode already collected is static and
//! the equality is a static fact. That is why `coalesce((_2,(_1,_6)):(_1,(_6,_2)))` is `_12:_1` but
//! `coalesce((2,(1,6)):(1,(6,2)))` keeps every mode: a dynamic size-1 mode is not known to be 1 and a
//! dynamic stride is not known to match.
//!
//! ```
//! use cute_layout_core::{coalesce, Layout};
//! let l: Layout = "(_2,(_1,_6)):(_1,(_6,_2))".parse().unwrap();
//! assert_eq!(coalesce(&l).unwrap().to_string(), "_12:_1");
//! let d: Layout = "(2,(1,6)):(1,(6,2))".parse().unwrap();
//! assert_eq!(coalesce(&d).unwrap().to_string(), "(2,1,6):(1,6,2)");
//! ```

use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;

/// Flat modes and stride-leaf arithmetic shared by the algebra modules (coalesce, composition,
/// complement, inverses).
pub(crate) mod support {
    use super::*;

    /// One flat mode: an integer shape leaf and a stride leaf (an integer or a scaled basis).
    pub(crate) type Mode = (Int, IntTuple);

    /// The leaves of a layout, paired shape with stride, left to right.
    pub(crate) fn flat_modes(l: &Layout) -> Result<Vec<Mode>> {
        let shapes = l.shape().leaves();
        let strides = l.stride().leaves();
        shapes
            .into_iter()
            .zip(strides)
            .map(|(s, d)| Ok((s.expect_int("layout shape")?, d)))
            .collect()
    }

    /// The layout whose flat modes are `modes`: a single mode is a plain `s:d`, several a tuple.
    pub(crate) fn layout_of(modes: Vec<Mode>, as_tuple: bool) -> Result<Layout> {
        if !as_tuple && modes.len() == 1 {
            let (s, d) = modes
                .into_iter()
                .next()
                .ok_or_else(|| LayoutError::internal("one mode"))?;
            return Layout::new(IntTuple::Int(s), d);
        }
        let (s, d): (Vec<_>, Vec<_>) = modes
            .into_iter()
            .map(|(s, d)| (IntTuple::Int(s), d))
            .unzip();
        Layout::new(IntTuple::Tuple(s), IntTuple::Tuple(d))
    }

    /// `a * d` for an integer `a` and a stride leaf `d` (a basis element scales its coefficient).
    pub(crate) fn scale_leaf(a: Int, d: &IntTuple) -> Result<IntTuple> {
        match d {
            IntTuple::Int(x) => Ok(IntTuple::Int(a.mul(*x)?)),
            IntTuple::Basis(b) => {
                let mut b = b.clone();
                b.scale = a.mul(b.scale)?;
                Ok(IntTuple::Basis(b))
            }
            IntTuple::Tuple(_) => Err(LayoutError::invalid(format!(
                "expected a stride leaf (an integer or a basis element), found the tuple {d}"
            ))),
        }
    }

    /// CuTe's `==` on stride leaves: integers compare by value; basis elements compare by value when
    /// they point at the same mode and are (statically) different otherwise; an integer never equals a
    /// basis element.
    pub(crate) fn leaf_eq(a: &IntTuple, b: &IntTuple) -> Int {
        match (a, b) {
            (IntTuple::Int(x), IntTuple::Int(y)) => x.eq_b(*y),
            (IntTuple::Basis(x), IntTuple::Basis(y)) if x.modes == y.modes => x.scale.eq_b(y.scale),
            _ => Int::s(0),
        }
    }

    /// True when the stride leaf is the static integer `v`.
    pub(crate) fn leaf_is_static(d: &IntTuple, v: i64) -> bool {
        matches!(d, IntTuple::Int(x) if x.is_static_eq(v))
    }

    /// CuTe's back-to-front coalescing of the flat modes `old` onto the collected front `seed`.
    ///
    /// Each old mode, last to first: a static size-1 mode is skipped; a collected static size-1 front is
    /// replaced; when the front's shape is static and `s * d == front stride` is statically true the two
    /// merge; otherwise the mode is put in front. A lone static size-1 result is `_1:_0`.
    pub(crate) fn bw_coalesce(old: &[Mode], seed: Mode) -> Result<Layout> {
        // The collected modes in reverse order: the front of the result is the last element.
        let mut back: Vec<Mode> = Vec::with_capacity(old.len() + 1);
        let mut front: Mode = seed;
        for (s, d) in old.iter().rev() {
            if s.is_static_eq(1) {
                continue;
            }
            if back.is_empty() && front.0.is_static_eq(1) {
                front = (*s, d.clone());
                continue;
            }
            let (fs, fd) = &front;
            if fs.is_static && leaf_eq(&scale_leaf(*s, d)?, fd).is_static_eq(1) {
                front = (s.mul(*fs)?, d.clone());
            } else {
                back.push(std::mem::replace(&mut front, (*s, d.clone())));
            }
        }
        let is_tuple = !back.is_empty();
        if !is_tuple && front.0.is_static_eq(1) {
            return Layout::new(IntTuple::s(1), IntTuple::s(0));
        }
        back.push(front);
        back.reverse();
        layout_of(back, is_tuple)
    }

    /// Coalesce that keeps the function also past the layout's domain (CuTe's `coalesce_x`): a static
    /// size-1 last mode is replaced by a placeholder `_2` so that its stride survives.
    pub(crate) fn coalesce_x(l: &Layout) -> Result<Layout> {
        let modes = flat_modes(l)?;
        let Some((last, init)) = modes.split_last() else {
            return Err(empty_layout("composition"));
        };
        let seed = if last.0.is_static_eq(1) {
            (Int::s(2), last.1.clone())
        } else {
            last.clone()
        };
        bw_coalesce(init, seed)
    }

    /// `coalesce_x` applied at the terminals of `profile` (modes beyond the profile are kept as they are).
    pub(crate) fn coalesce_x_profile(l: &Layout, profile: &IntTuple) -> Result<Layout> {
        by_profile(l, profile, "composition", coalesce_x_profile, coalesce_x)
    }

    /// Apply `f` to the modes of `l` that `profile` names (recursing with `rec` where the profile is a
    /// tuple) and keep the other modes; a non-tuple profile applies `leaf` to the whole layout.
    pub(crate) fn by_profile(
        l: &Layout,
        profile: &IntTuple,
        op: &str,
        rec: fn(&Layout, &IntTuple) -> Result<Layout>,
        leaf: fn(&Layout) -> Result<Layout>,
    ) -> Result<Layout> {
        let IntTuple::Tuple(p) = profile else {
            return leaf(l);
        };
        if p.len() > l.rank() {
            return Err(LayoutError::NotCongruent {
                what: format!("{op}: the profile has more modes than the layout"),
                left: l.to_string(),
                right: profile.to_string(),
            });
        }
        let mut modes = Vec::with_capacity(l.rank());
        for (i, m) in l.modes().into_iter().enumerate() {
            modes.push(match p.get(i) {
                Some(pi) => rec(&m, pi)?,
                None => m,
            });
        }
        Ok(Layout::from_modes(modes))
    }

    pub(crate) fn empty_layout(op: &str) -> LayoutError {
        LayoutError::invalid(format!(
            "{op}: the empty layout (): () has no modes to work on"
        ))
    }
}

use support::*;

/// Simplify `layout` by flattening it and merging modes that CuTe can prove contiguous.
///
/// Pre: the layout has at least one mode. Post: `depth(result) <= 1`, `size(result) == size(layout)`,
/// and `result(i) == layout(i)` for every `i < size(layout)`. Static size-1 modes disappear (an
/// all-size-1 layout becomes `_1:_0`); two modes merge only when the collected one has a static shape
/// and `s * d == d'` holds statically.
///
/// ```
/// # use cute_layout_core::{coalesce, Layout};
/// let l: Layout = "(_2,_4,_6):(_1,_2,_8)".parse().unwrap();
/// assert_eq!(coalesce(&l).unwrap().to_string(), "_48:_1");
/// let m: Layout = "(_2,4):(_1,_2)".parse().unwrap();
/// assert_eq!(coalesce(&m).unwrap().to_string(), "(_2,4):(_1,_2)");
/// ```
pub fn coalesce(layout: &Layout) -> Result<Layout> {
    let modes = flat_modes(layout)?;
    let Some((last, init)) = modes.split_last() else {
        return Err(empty_layout("coalesce"));
    };
    bw_coalesce(init, last.clone())
}

/// Coalesce each mode of `layout` named by the tuple `profile` separately (`coalesce(L, profile)`);
/// modes past the profile's rank are kept as they are. A non-tuple profile coalesces the whole layout.
///
/// Pre: `rank(profile) <= rank(layout)`. Post: the result has `rank(layout)` modes (when the profile is
/// a tuple) and the same function as `layout` on its domain.
///
/// ```
/// # use cute_layout_core::{coalesce_by_mode, IntTuple, Layout};
/// let l: Layout = "(_3,(_4,_5)):(_8,(_1,_4))".parse().unwrap();
/// let p: IntTuple = "(_1,_1)".parse().unwrap();
/// assert_eq!(coalesce_by_mode(&l, &p).unwrap().to_string(), "(_3,_20):(_8,_1)");
/// ```
pub fn coalesce_by_mode(layout: &Layout, profile: &IntTuple) -> Result<Layout> {
    by_profile(layout, profile, "coalesce", coalesce_by_mode, coalesce)
}

/// Coalesce a shape (`coalesce(S)` on an IntTuple): flatten it and multiply neighbouring leaves that are
/// both static or both dynamic.
///
/// Pre: at least one leaf, all integers. Post: `product(result) == product(shape)`, depth at most 1;
/// a single remaining leaf is returned as an integer.
///
/// ```
/// # use cute_layout_core::{coalesce_shape, IntTuple};
/// let s: IntTuple = "(_16,_3)".parse().unwrap();
/// assert_eq!(coalesce_shape(&s).unwrap().to_string(), "_48");
/// let m: IntTuple = "(_2,3,4,_5)".parse().unwrap();
/// assert_eq!(coalesce_shape(&m).unwrap().to_string(), "(_2,12,_5)");
/// ```
pub fn coalesce_shape(shape: &IntTuple) -> Result<IntTuple> {
    let leaves = shape.int_leaves()?;
    let mut it = leaves.into_iter();
    let Some(first) = it.next() else {
        return Err(LayoutError::invalid(format!(
            "coalesce: the shape {shape} has no leaves"
        )));
    };
    let mut out = vec![first];
    for a in it {
        let back = out
            .last_mut()
            .ok_or_else(|| LayoutError::internal("non-empty"))?;
        if back.is_static == a.is_static {
            *back = back.mul(a)?;
        } else {
            out.push(a);
        }
    }
    Ok(if out.len() == 1 {
        IntTuple::Int(out[0])
    } else {
        IntTuple::Tuple(out.into_iter().map(IntTuple::Int).collect())
    })
}

/// Replace by `_1` every part of `b` that sits at a static `_0` leaf of `a` (`filter_zeros(a, b)`
/// on IntTuples); `a` must be weakly congruent to `b`.
///
/// ```
/// # use cute_layout_core::{filter_zeros_tuple, IntTuple};
/// let a: IntTuple = "(_0,(_2,_0))".parse().unwrap();
/// let b: IntTuple = "(4,(3,(2,2)))".parse().unwrap();
/// assert_eq!(filter_zeros_tuple(&a, &b).unwrap().to_string(), "(_1,(3,(_1,_1)))");
/// ```
pub fn filter_zeros_tuple(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    match a {
        IntTuple::Tuple(x) => {
            let y = match b {
                IntTuple::Tuple(y) if y.len() == x.len() => y,
                _ => {
                    return Err(LayoutError::NotCongruent {
                        what: "filter_zeros: the profile does not match the shape".into(),
                        left: a.to_string(),
                        right: b.to_string(),
                    });
                }
            };
            Ok(IntTuple::Tuple(
                x.iter()
                    .zip(y)
                    .map(|(p, q)| filter_zeros_tuple(p, q))
                    .collect::<Result<_>>()?,
            ))
        }
        _ if leaf_is_static(a, 0) => b.map_leaves(&mut |_| Ok(IntTuple::s(1))),
        _ => Ok(b.clone()),
    }
}

/// Replace the shape of every static stride-`_0` mode by `_1` (`filter_zeros(L)`).
///
/// Post: same shape profile and strides; `layout(i)` unchanged for the coordinates that survive;
/// `size(result) == size(layout) / (sizes of the static stride-0 modes)`.
///
/// ```
/// # use cute_layout_core::{filter_zeros, Layout};
/// let l: Layout = "(_2,_16):(_0,_1)".parse().unwrap();
/// assert_eq!(filter_zeros(&l).unwrap().to_string(), "(_1,_16):(_0,_1)");
/// ```
pub fn filter_zeros(layout: &Layout) -> Result<Layout> {
    Layout::new(
        filter_zeros_tuple(layout.stride(), layout.shape())?,
        layout.stride().clone(),
    )
}

/// `filter_zeros(L, profile)`: replace by `_1` the shape of the modes where `profile` has a static `_0`.
///
/// ```
/// use cute_layout_core::{IntTuple, Layout, filter_zeros_by};
/// let l: Layout = "(_4,_8):(_1,_4)".parse().unwrap();
/// let profile: IntTuple = "(_0,_1)".parse().unwrap();
/// assert_eq!(filter_zeros_by(&l, &profile).unwrap().to_string(), "(_1,_8):(_1,_4)");
/// ```
pub fn filter_zeros_by(layout: &Layout, profile: &IntTuple) -> Result<Layout> {
    Layout::new(
        filter_zeros_tuple(profile, layout.shape())?,
        layout.stride().clone(),
    )
}

/// Remove static stride-0 and static size-1 modes, then coalesce (`filter(L)`).
///
/// Post: depth at most 1; the image of the result equals the image of `layout`; an empty result is
/// `_1:_0`.
///
/// ```
/// # use cute_layout_core::{filter, Layout};
/// let l: Layout = "(_4,_1,_2):(0,_5,_1)".parse().unwrap();
/// assert_eq!(filter(&l).unwrap().to_string(), "(_4,_2):(0,_1)");
/// ```
pub fn filter(layout: &Layout) -> Result<Layout> {
    coalesce(&filter_zeros(layout)?)
}

/// `filter(L, profile)`: filter each mode that the tuple `profile` names separately.
///
/// ```
/// use cute_layout_core::{IntTuple, Layout, filter_by_mode};
/// let l: Layout = "((_2,_3),(_4,_2)):((_1,_0),(_2,_8))".parse().unwrap();
/// let r = filter_by_mode(&l, &"(_1,_1)".parse::<IntTuple>().unwrap()).unwrap();
/// assert_eq!(r.to_string(), "(_2,_8):(_1,_2)");
/// ```
pub fn filter_by_mode(layout: &Layout, profile: &IntTuple) -> Result<Layout> {
    by_profile(layout, profile, "filter", filter_by_mode, filter)
}
