//! Products: repeat a block layout over a tiler layout.
//!
//! `logical_product(A, B)` is `(A, complement(A, size(A)*cosize(B)) ∘ B)`: mode 0 is the block,
//! mode 1 says where each copy of the block goes. The zipped/tiled/flat forms regroup the modes as
//! the divides do; `blocked_product` and `raked_product` interleave block and tiler mode by mode
//! (block-major and tiler-major); `tile_to_shape` repeats a block until it covers a target shape.
//!
//! ```
//! use cute_layout_core::notation::eval_str;
//! let r = eval_str("blocked_product((_2,_2):(_1,_2),(_3,_4):(_4,_1))").unwrap();
//! assert_eq!(r.to_string(), "((_2,_3),(_2,_4)):((_1,_16),(_2,_4))");
//! ```

use crate::divide::deps::{
    append_to, complement, cosize, make_layout, make_ordered_layout, raw_composition, size, zip,
};
use crate::divide::{by_mode, tile_unzip, tiler_layout, unpack_both, unpack_second};
use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tiler::Tiler;
use crate::tuple_ops;

/// Logical product: `(A, complement(A, size(A)*cosize(B)) ∘ B)` for a layout tiler `B`; by mode
/// for a tuple tiler; `A` for `_`; an integer `n` is `make_layout(n)`.
///
/// Pre: the complement exists (`A` injective; a dynamic `A` of more than one mode is refused, as in
/// CuTe) and the composition exists. Post: mode 0 is `A`; mode 1 is `complement(..) ∘ B`, so the
/// result is injective when `A` and `B` are.
///
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("logical_product((_2,_2):(_4,_1),(_3,_2):(_2,_1))").unwrap().to_string(),
///            "((_2,_2),(_3,_2)):((_4,_1),(_8,_2))");
/// ```
pub fn logical_product(block: &Layout, tiler: &Tiler) -> Result<Layout> {
    match tiler {
        Tiler::Tuple(ts) => by_mode("logical_product", block, ts, logical_product),
        Tiler::Underscore => Ok(block.clone()),
        _ => {
            let b = tiler_layout(tiler)?
                .ok_or_else(|| LayoutError::internal("layout or integer tiler"))?;
            let cotarget = size(block)?.mul(cosize(&b)?)?;
            let rest = complement(block, &IntTuple::Int(cotarget))?;
            Ok(Layout::from_modes(vec![
                block.clone(),
                raw_composition(&rest, &b)?,
            ]))
        }
    }
}

/// Zipped product: `((BLOCK...),(REPEATS..., extra modes))`.
///
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("zipped_product((_2,_4):(_16,_1),(_1,_2):(_2,_1))").unwrap().to_string(),
///            "((_2,_4),(_1,_2)):((_16,_1),(_8,_4))");
/// ```
pub fn zipped_product(block: &Layout, tiler: &Tiler) -> Result<Layout> {
    tile_unzip(&logical_product(block, tiler)?, tiler)
}

/// Tiled product: `((BLOCK...),REPEAT0,REPEAT1,...)`.
///
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("tiled_product((_4):(_1),_16:_1)").unwrap().to_string(), "((_4),_16):((_1),_4)");
/// ```
pub fn tiled_product(block: &Layout, tiler: &Tiler) -> Result<Layout> {
    unpack_second(&zipped_product(block, tiler)?)
}

/// Flat product: `(BLOCK0,BLOCK1,...,REPEAT0,REPEAT1,...)`.
///
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("flat_product(_8:_1,_2:_1)").unwrap().to_string(), "(_8,_2):(_1,_8)");
/// ```
pub fn flat_product(block: &Layout, tiler: &Tiler) -> Result<Layout> {
    unpack_both(&zipped_product(block, tiler)?)
}

/// Both layouts padded to the larger rank, then their logical product's two modes.
fn padded_product(block: &Layout, tiler: &Layout) -> Result<(Layout, Layout)> {
    let r = block.rank().max(tiler.rank());
    let p = logical_product(&append_to(block, r)?, &Tiler::Layout(append_to(tiler, r)?))?;
    Ok((p.mode(0)?, p.mode(1)?))
}

/// Blocked product: the block repeated over the tiler, block-major in every mode:
/// mode `i` of the result is `(block_i, tiler_i)`.
///
/// Pre: as [`logical_product`] of the rank-padded layouts. Post: `rank(result) ==
/// max(rank(block), rank(tiler))`; the result has the same image as the logical product.
///
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("blocked_product((_3,_4):(_4,_1),(_2,_5):(_1,_2))").unwrap().to_string(),
///            "((_3,_2),(_4,_5)):((_4,_12),(_1,_24))");
/// ```
pub fn blocked_product(block: &Layout, tiler: &Layout) -> Result<Layout> {
    let (b, t) = padded_product(block, tiler)?;
    zip(&b, &t).map_err(|e| in_product("blocked_product", block, tiler, e))
}

/// A zip error of a rank-sensitive product, with the operands named.
fn in_product(op: &str, block: &Layout, tiler: &Layout, e: LayoutError) -> LayoutError {
    LayoutError::invalid(format!(
        "{op}({block}, {tiler}): the block and tiler parts have mismatched ranks: {e}"
    ))
}

/// Raked product: the block's elements interleaved across the tiler: mode `i` of the result is
/// `(tiler_i, block_i)`.
///
/// Pre/post: as [`blocked_product`].
///
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("raked_product((_3,_4):(_4,_1),(_2,_5):(_1,_2))").unwrap().to_string(),
///            "((_2,_3),(_5,_4)):((_12,_4),(_24,_1))");
/// ```
pub fn raked_product(block: &Layout, tiler: &Layout) -> Result<Layout> {
    let (b, t) = padded_product(block, tiler)?;
    zip(&t, &b).map_err(|e| in_product("raked_product", block, tiler, e))
}

/// Repeat `block` so that the result covers `target` (a shape), the copies laid out in the mode
/// order `order` (a step tuple such as `(_2,_1)`; `None` is column-major: mode 0 first).
///
/// Pre: `rank(block) <= rank(target)`; for a static target, each mode of `block` is static and divides
/// the matching mode of `target` (CuTe asserts it at compile time). Post: `product_each(shape(result))` is `ceil_div` of `target` by the
/// block's modes times the block's modes (equal to `target` when it divides).
///
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("tile_to_shape((_2,_2):(_1,_2),(8,8))").unwrap().to_string(),
///            "((_2,4),(_2,4)):((_1,_4),(_2,16))");
/// assert_eq!(eval_str("tile_to_shape(_8:_1,(_16,_4),(_0,_1))").unwrap().to_string(),
///            "((_8,_2),(_1,_4)):((_1,_8),(_0,_16))");
/// assert!(eval_str("tile_to_shape(8:_1,_16)").is_err()); // dynamic block, static target
/// ```
pub fn tile_to_shape(
    block: &Layout,
    target: &IntTuple,
    order: Option<&IntTuple>,
) -> Result<Layout> {
    let r = target.rank();
    if block.rank() > r {
        return Err(LayoutError::invalid(format!(
            "tile_to_shape: the block {block} has rank {} but the target shape {target} only {r}",
            block.rank()
        )));
    }
    let padded = append_to(block, r)?;
    let block_shape = tuple_ops::product_each(padded.shape())?;
    let target_shape = tuple_ops::product_each(target)?;
    if target_shape.is_static() {
        let ok = tuple_ops::evenly_divides(&target_shape, &block_shape)?;
        if !ok.is_static {
            // CuTe asserts the division at compile time when the target is static
            return Err(LayoutError::invalid(format!(
                "tile_to_shape: the target shape {target_shape} is static, so CuTe checks at compile \
                 time that the block shape divides it; the block shape {block_shape} is dynamic \
                 (CuTe does not compile this)"
            )));
        }
        if ok.value == 0 {
            return Err(LayoutError::NotDivisible {
                what: "tile_to_shape: the block shape must divide the target shape".into(),
                dividend: target_shape.to_string(),
                divisor: block_shape.to_string(),
            });
        }
    }
    let product_shape = tuple_ops::ceil_div(&target_shape, &block_shape)?;
    let repeats = match order {
        Some(o) => make_ordered_layout(&product_shape, o)?,
        None => make_layout(&product_shape)?,
    };
    blocked_product(&padded, &repeats)
}
