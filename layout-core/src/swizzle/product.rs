//! `logical_product(Layout, Sw<B,M,S> o _0 o T)` (CuTe's `swizzle_layout.hpp`): the product of the
//! layouts, with the swizzle moved to where the tiler's swizzled bits land in the product.

use super::{ComposedLayout, LayoutFn, Swizzle, composition3};
use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::product::logical_product;
use crate::tiler::Tiler;

/// `logical_product(block, Sw o _0 o T)`: `Sw' o _0 o logical_product(block, T)`, where `Sw'` is made
/// from the masks of the swizzle's active bits in `T` carried through the product as CuTe does.
///
/// Errors: a non-zero offset, a non-layout inner function, dynamic values, masks that make no swizzle.
///
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("logical_product(_2:_1,Sw<2,0,3> o _0 o (_8,_8):(_8,_1))").unwrap().to_string(),
///            "Sw<2,1,3> o _0 o (_2,(_8,_8)):(_1,(_16,_2))");
/// ```
pub fn logical_product_swizzled(block: &Layout, tiler: &ComposedLayout) -> Result<LayoutFn> {
    let bad =
        |why: String| LayoutError::invalid(format!("logical_product({block},{tiler}): {why}"));
    let (Some(sw), LayoutFn::Layout(t)) = (tiler.swizzle(), &tiler.layout_b) else {
        return Err(bad("needs a swizzle composed with a layout".into()));
    };
    if !matches!(tiler.offset, IntTuple::Int(o) if o.is_static_eq(0)) {
        return Err(bad(format!(
            "requires the swizzle offset to be _0, not {}",
            tiler.offset
        )));
    }
    let product = logical_product(block, &Tiler::Layout(t.clone()))?;
    let active = static_value(
        &bad,
        crate::coord::eval(&only_zy(sw)?, &last_index(&bad, t)?)?,
    )?;
    let carry = |bits: i64| -> Result<i64> {
        let inner = crate::coord::eval(t, &IntTuple::s(bits))?;
        let crd = IntTuple::Tuple(vec![IntTuple::s(0), inner]);
        static_value(&bad, crate::coord::eval(&product, &crd)?)
    };
    let (y, z) = (
        carry(active & sw.yyy_mask())?,
        carry(active & sw.zzz_mask())?,
    );
    let new_sw = Swizzle::from_masks(y, z).map_err(|e| bad(e.to_string()))?;
    Ok(composition3(new_sw.into(), IntTuple::s(0), product.into()))
}

/// `P o T` at T's last index: the swizzled bits that T reaches (`T(size-1)` projected on the masks).
fn last_index(bad: &dyn Fn(String) -> LayoutError, t: &Layout) -> Result<IntTuple> {
    let n = crate::query::size(t)?;
    let last = static_value(bad, crate::coord::eval(t, &IntTuple::s(n.value - 1))?)?;
    Ok(IntTuple::s(last))
}

/// The projection of offsets on the swizzle's YYY and ZZZ bits, as a layout (CuTe's `swizzle_only_zy`).
fn only_zy(sw: Swizzle) -> Result<Layout> {
    let (m, b, s) = (sw.base, sw.bits, sw.shift.abs());
    let shape = [1 << m, 1 << b, 1 << (s - b), 1 << b, 1];
    let stride = [0, 1 << m, 0, 1 << (m + s), 0];
    Layout::new(
        IntTuple::Tuple(shape.iter().map(|&v| IntTuple::s(v)).collect()),
        IntTuple::Tuple(stride.iter().map(|&v| IntTuple::s(v)).collect()),
    )
}

fn static_value(bad: &dyn Fn(String) -> LayoutError, v: IntTuple) -> Result<i64> {
    match v {
        IntTuple::Int(i) if i.is_static => Ok(i.value),
        v => Err(bad(format!("CuTe needs static values here, got {v}"))),
    }
}
