//! Complement: the layout that fills in what a layout leaves out of `[0, cotarget)`.
//!
//! CuTe's algorithm: filter the layout, then walk its modes by increasing stride; each gap between the
//! part covered so far and the next stride becomes a mode of the complement, and a last mode reaches
//! up to the cotarget. The complement is ordered (increasing) and its image meets the layout's only at
//! 0, so `make_layout(A, complement(A, M))` is injective.
//!
//! ```
//! use cute_layout_core::{complement, complement_default, IntTuple, Layout};
//! let a: Layout = "4:2".parse().unwrap();
//! assert_eq!(complement(&a, &IntTuple::d(24)).unwrap().to_string(), "(2,3):(_1,8)");
//! let b: Layout = "(_2,_2):(_4,_1)".parse().unwrap();
//! assert_eq!(complement_default(&b).unwrap().to_string(), "_2:_2");
//! ```

use crate::coalesce::support::flat_modes;
use crate::coalesce::{coalesce, coalesce_shape, filter};
use crate::construct::{compact_col_major, make_layout};
use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::query::cosize;
use crate::tuple_ops::ceil_div;

/// The complement of `layout` with respect to `cotarget` (an integer or a shape; CuTe's
/// `complement(L, cotarget)`).
///
/// Pre: integer strides; a layout with more than one mode after filtering has static strides; the
/// layout is injective in the sense CuTe checks (each stride, in increasing order, reaches past what
/// the smaller ones cover), and its strides are non-zero.
/// Post: `complement(i) < complement(i+1)`; `complement(i) != layout(j)` for `i > 0`;
/// `size(result) >= cotarget / size(filter(layout))`; `make_layout(layout, result)` is injective.
///
/// ```
/// # use cute_layout_core::{complement, IntTuple, Layout};
/// let a: Layout = "_4:_2".parse().unwrap();
/// assert_eq!(complement(&a, &IntTuple::d(28)).unwrap().to_string(), "(_2,4):(_1,_8)");
/// let bad: Layout = "(_2,_2):(_1,_1)".parse().unwrap();
/// assert!(complement(&bad, &IntTuple::s(4)).is_err());
/// ```
pub fn complement(layout: &Layout, cotarget: &IntTuple) -> Result<Layout> {
    let f = filter(layout)?;
    complement_filtered(layout, &f, cotarget)
}

/// The complement of `layout` within its own codomain: `complement(L, cosize(filter(L)))`
/// (CuTe's one-argument `complement(L)`).
///
/// ```
/// # use cute_layout_core::{complement_default, Layout};
/// let a: Layout = "(_2,_4,_8):(_8,_1,_64)".parse().unwrap();
/// assert_eq!(complement_default(&a).unwrap().to_string(), "(_2,_4):(_4,_16)");
/// ```
pub fn complement_default(layout: &Layout) -> Result<Layout> {
    let f = filter(layout)?;
    let cotarget = cosize(&f)?;
    complement_filtered(layout, &f, &IntTuple::Int(cotarget))
}

fn complement_filtered(orig: &Layout, f: &Layout, cotarget: &IntTuple) -> Result<Layout> {
    // A filtered layout that is only `_1:_0`: the complement is the whole cotarget.
    if let IntTuple::Int(d) = f.stride()
        && d.is_static_eq(0)
    {
        return make_layout(&coalesce_shape(cotarget)?);
    }
    let mut shape = Vec::new();
    let mut stride = Vec::new();
    for (s, d) in flat_modes(f)? {
        shape.push(s);
        stride.push(d.expect_int("complement: stride")?);
    }
    let rank = shape.len();
    if rank > 1 && stride.iter().any(|d| !d.is_static) {
        return Err(LayoutError::NeedsStatic {
            what: format!(
                "complement of {orig}: a layout with {rank} modes (after filtering) must have static \
                 strides"
            ),
            value: f.stride().to_string(),
        });
    }
    let non_injective = || LayoutError::NotInjective {
        what: "complement (a stride is smaller than the extent covered by the smaller strides)"
            .into(),
        layout: orig.to_string(),
    };
    let mut result_shape: Vec<Int> = Vec::new();
    let mut result_stride: Vec<Int> = vec![Int::s(1)];
    for i in 0..rank - 1 {
        // The smallest remaining stride (first one on ties) and its mode.
        let min = stride
            .iter()
            .copied()
            .reduce(|a, b| a.min(b))
            .ok_or_else(|| LayoutError::internal("modes left"))?;
        let k = stride
            .iter()
            .position(|d| d.value == min.value)
            .ok_or_else(|| LayoutError::internal("min is present"))?;
        let new_shape = min.div(result_stride[i])?;
        if new_shape.is_static_eq(0) {
            return Err(non_injective());
        }
        let new_stride = min.mul(shape[k])?;
        shape.remove(k);
        stride.remove(k);
        result_shape.push(new_shape);
        result_stride.push(new_stride);
    }
    let new_shape = stride[0].div(result_stride[rank - 1])?;
    if new_shape.is_static_eq(0) {
        return Err(non_injective());
    }
    result_shape.push(new_shape);
    let new_stride = stride[0].mul(shape[0])?;
    let rest_shape = coalesce_shape(&ceil_div(cotarget, &IntTuple::Int(new_stride))?)?;
    let rest_stride = compact_col_major(&rest_shape, Some(&IntTuple::Int(new_stride)))?;
    let to_tuple = |v: Vec<Int>| IntTuple::Tuple(v.into_iter().map(IntTuple::Int).collect());
    let l = Layout::new(
        IntTuple::Tuple(vec![to_tuple(result_shape), rest_shape]),
        IntTuple::Tuple(vec![to_tuple(result_stride), rest_stride]),
    )?;
    coalesce(&l)
}
