//! Queries on layouts: sub-layouts, size, rank, depth, shape, stride, and the codomain
//! (`coshape`, `cosize`, `coprofile`).
//!
//! CuTe's template forms (`size<1>(L)`, `cosize<1,0>(L)`) are the query applied to [`get`]`(L, path)`.
//!
//! ```
//! use cute_layout_core::{Layout, cosize, size};
//! let l: Layout = "(_2,(_3,_4)):(_0,(_2,_8))".parse().unwrap();
//! assert_eq!(size(&l).unwrap().to_string(), "_24");
//! assert_eq!(cosize(&l).unwrap().to_string(), "_29");
//! ```

use crate::arith_tuple::{
    arith_abs, arith_add, arith_inner_product, arith_sum, as_arithmetic_tuple,
};
use crate::error::Result;
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tuple_ops::product;

/// The sub-layout at mode path `path` (CuTe's `get<I...>(L)` and `layout<I...>(L)`); the empty path
/// is the layout itself.
///
/// Errors: a path index out of range.
/// ```
/// # use cute_layout_core::{Layout, get};
/// let l: Layout = "(_4,(_3,_6)):(_1,(_4,_12))".parse().unwrap();
/// assert_eq!(get(&l, &[1, 0]).unwrap().to_string(), "_3:_4");
/// ```
pub fn get(layout: &Layout, path: &[usize]) -> Result<Layout> {
    Layout::new(
        layout.shape().get_path(path)?,
        layout.stride().get_path(path)?,
    )
}

/// Number of elements of the domain: the product of the shape (`_1` for `():()`).
///
/// ```
/// use cute_layout_core::{Layout, size};
/// let l: Layout = "(_4,(3,_6)):(_1,(_4,_12))".parse().unwrap();
/// assert_eq!(size(&l).unwrap().to_string(), "72");
/// assert_eq!(size(&Layout::empty()).unwrap().to_string(), "_1");
/// ```
pub fn size(layout: &Layout) -> Result<Int> {
    product(layout.shape())
}

/// Number of top-level modes, as a static integer.
///
/// ```
/// use cute_layout_core::{Layout, rank};
/// assert_eq!(rank(&"(4,(3,6)):(1,(4,12))".parse::<Layout>().unwrap()).to_string(), "_2");
/// ```
pub fn rank(layout: &Layout) -> Int {
    Int::s(layout.rank() as i64)
}

/// Nesting depth of the shape, as a static integer (`_0` for an integer shape).
///
/// ```
/// use cute_layout_core::{Layout, depth};
/// assert_eq!(depth(&"(4,(3,6)):(1,(4,12))".parse::<Layout>().unwrap()).to_string(), "_2");
/// assert_eq!(depth(&"8:1".parse::<Layout>().unwrap()).to_string(), "_0");
/// ```
pub fn depth(layout: &Layout) -> Int {
    Int::s(layout.depth() as i64)
}

/// The shape.
///
/// ```
/// use cute_layout_core::{Layout, shape};
/// assert_eq!(shape(&"(4,(3,6)):(1,(4,12))".parse::<Layout>().unwrap()).to_string(), "(4,(3,6))");
/// ```
pub fn shape(layout: &Layout) -> IntTuple {
    layout.shape().clone()
}

/// The stride.
///
/// ```
/// use cute_layout_core::{Layout, stride};
/// assert_eq!(stride(&"(4,(3,6)):(1,(4,12))".parse::<Layout>().unwrap()).to_string(), "(1,(4,12))");
/// ```
pub fn stride(layout: &Layout) -> IntTuple {
    layout.stride().clone()
}

/// The codomain's extent: one past the image of the last coordinate under the absolute strides,
/// `inner_product(shape - 1, |stride|) + 1` leaf by leaf (a tuple for basis strides).
///
/// Post: `product(coshape(L)) == cosize(L)`.
/// ```
/// # use cute_layout_core::{Layout, coshape};
/// let l: Layout = "(_32,_6):(_1,_6)".parse().unwrap();
/// assert_eq!(coshape(&l).unwrap().to_string(), "_62");
/// let id: Layout = "(4,_3):(_1@0,_1@1)".parse().unwrap();
/// assert_eq!(coshape(&id).unwrap().to_string(), "(4,_3)");
/// ```
pub fn coshape(layout: &Layout) -> Result<IntTuple> {
    let m1 = layout
        .shape()
        .map_leaves(&mut |s| Ok(IntTuple::Int(s.expect_int("shape")?.sub(Int::s(1))?)))?;
    let last = as_arithmetic_tuple(&arith_inner_product(&m1, &arith_abs(layout.stride())?)?)?;
    last.map_leaves(&mut |c| arith_add(c, &IntTuple::s(1)))
}

/// The size of the codomain: `product(coshape(L))`. For integer strides, the smallest `M` with
/// `L(i) < M` for every `i` in the domain (when strides are non-negative).
///
/// ```
/// use cute_layout_core::{Layout, cosize};
/// assert_eq!(cosize(&"(_4,_8):(_1,_8)".parse::<Layout>().unwrap()).unwrap().to_string(), "_60");
/// assert_eq!(cosize(&"(_2,_4):(_0,_1)".parse::<Layout>().unwrap()).unwrap().to_string(), "_4");
/// ```
pub fn cosize(layout: &Layout) -> Result<Int> {
    product(&coshape(layout)?)
}

/// A tuple of `_0` congruent with the layout's values (`_0` for integer strides).
/// ```
/// # use cute_layout_core::{Layout, coprofile};
/// let l: Layout = "(4,_3):(_1@0,_1@1)".parse().unwrap();
/// assert_eq!(coprofile(&l).unwrap().to_string(), "(_0,_0)");
/// ```
pub fn coprofile(layout: &Layout) -> Result<IntTuple> {
    as_arithmetic_tuple(&arith_sum(layout.stride())?)?.map_leaves(&mut |_| Ok(IntTuple::s(0)))
}
