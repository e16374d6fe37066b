//! Building layouts: compact strides (column-major, row-major, by an order), `make_layout` and its
//! relatives, identity layouts.
//!
//! Stride generation follows CuTe: a mode of static size `_1` gets stride `_0` and does not advance
//! the running stride; every other mode gets the running stride, which is then multiplied by its size.
//!
//! ```
//! use cute_layout_core::{IntTuple, make_layout};
//! let s: IntTuple = "(_4,_1,_2)".parse().unwrap();
//! assert_eq!(make_layout(&s).unwrap().to_string(), "(_4,_1,_2):(_1,_0,_4)");
//! ```

use crate::basis::ScaledBasis;
use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::notation::Tag;
use crate::tuple_ops::product;

/// Strides of `shape` in the order of `major`, starting at `current` (an integer); returns the strides
/// and the running stride after the whole shape.
fn compact(shape: &IntTuple, current: Int, major: Tag) -> Result<(IntTuple, Int)> {
    match shape {
        IntTuple::Tuple(v) => {
            let mut out = vec![IntTuple::s(0); v.len()];
            let mut cur = current;
            let order: Vec<usize> = match major {
                Tag::LayoutLeft => (0..v.len()).collect(),
                Tag::LayoutRight => (0..v.len()).rev().collect(),
            };
            for k in order {
                let (d, next) = compact(&v[k], cur, major)?;
                out[k] = d;
                cur = next;
            }
            Ok((IntTuple::Tuple(out), cur))
        }
        IntTuple::Int(s) if s.is_static_eq(1) => Ok((IntTuple::s(0), current)),
        IntTuple::Int(s) => Ok((IntTuple::Int(current), current.mul(*s)?)),
        IntTuple::Basis(_) => Err(LayoutError::invalid(format!(
            "a shape cannot hold a basis element: {shape}"
        ))),
    }
}

/// Compact strides for `shape` in the order of `major` (CuTe's `compact_major<Major>(shape, current)`).
/// `current` is the first stride (`_1` by default); a tuple `current` applies mode by mode.
///
/// Pre: `current` is an integer, or a tuple of the rank of `shape`.
/// Post: congruent with `shape`; static size-1 modes get `_0`.
///
/// ```
/// use cute_layout_core::{IntTuple, compact_major, notation::Tag};
/// let shape: IntTuple = "(_4,(_3,_1))".parse().unwrap();
/// let left = compact_major(&shape, &IntTuple::s(1), Tag::LayoutLeft).unwrap();
/// assert_eq!(left.to_string(), "(_1,(_4,_0))");
/// let right = compact_major(&shape, &IntTuple::s(1), Tag::LayoutRight).unwrap();
/// assert_eq!(right.to_string(), "(_3,(_1,_0))");
/// ```
pub fn compact_major(shape: &IntTuple, current: &IntTuple, major: Tag) -> Result<IntTuple> {
    match current {
        IntTuple::Tuple(cs) => match shape {
            IntTuple::Tuple(ss) if ss.len() == cs.len() => Ok(IntTuple::Tuple(
                ss.iter()
                    .zip(cs)
                    .map(|(s, c)| compact_major(s, c, major))
                    .collect::<Result<_>>()?,
            )),
            _ => Err(LayoutError::NotCongruent {
                what: "compact strides: shape and starting strides (current) have different ranks"
                    .into(),
                left: shape.to_string(),
                right: current.to_string(),
            }),
        },
        IntTuple::Int(c) => Ok(compact(shape, *c, major)?.0),
        IntTuple::Basis(_) => Err(LayoutError::invalid(format!(
            "compact strides: the starting stride must be an integer, found {current}"
        ))),
    }
}

/// Column-major (first mode fastest) compact strides, starting at `current` (`_1` if `None`).
///
/// ```
/// # use cute_layout_core::{IntTuple, compact_col_major};
/// let s: IntTuple = "((_4,_8),_1,_2)".parse().unwrap();
/// assert_eq!(compact_col_major(&s, None).unwrap().to_string(), "((_1,_4),_0,_32)");
/// ```
pub fn compact_col_major(shape: &IntTuple, current: Option<&IntTuple>) -> Result<IntTuple> {
    compact_major(shape, current.unwrap_or(&IntTuple::s(1)), Tag::LayoutLeft)
}

/// Row-major (last mode fastest) compact strides, starting at `current` (`_1` if `None`).
///
/// ```
/// # use cute_layout_core::{IntTuple, compact_row_major};
/// let s: IntTuple = "((4,8),1,2)".parse().unwrap();
/// assert_eq!(compact_row_major(&s, None).unwrap().to_string(), "((16,2),2,_1)");
/// ```
pub fn compact_row_major(shape: &IntTuple, current: Option<&IntTuple>) -> Result<IntTuple> {
    compact_major(shape, current.unwrap_or(&IntTuple::s(1)), Tag::LayoutRight)
}

/// `product_like(shape, profile)`: `shape` reduced to `profile`'s nesting by taking products.
fn product_like(shape: &IntTuple, profile: &IntTuple) -> Result<IntTuple> {
    match profile {
        IntTuple::Tuple(ps) => match shape {
            IntTuple::Tuple(ss) if ss.len() == ps.len() => Ok(IntTuple::Tuple(
                ss.iter()
                    .zip(ps)
                    .map(|(s, p)| product_like(s, p))
                    .collect::<Result<_>>()?,
            )),
            _ => Err(LayoutError::NotCongruent {
                what: "shape and order must have the same nesting".into(),
                left: shape.to_string(),
                right: profile.to_string(),
            }),
        },
        _ => Ok(IntTuple::Int(product(shape)?)),
    }
}

/// Put the leaves of `flat` back into the nesting of `profile` (flat must have as many leaves).
fn refold(flat: &mut std::slice::Iter<'_, IntTuple>, profile: &IntTuple) -> IntTuple {
    match profile {
        IntTuple::Tuple(ps) => IntTuple::Tuple(ps.iter().map(|p| refold(flat, p)).collect()),
        _ => flat.next().cloned().unwrap_or(IntTuple::s(0)),
    }
}

/// For each order value, the product of the reference shapes of smaller order (the starting
/// stride of a mode of that order): sorted once, then looked up, so `compact_order` is O(n log n).
struct Starts {
    /// The orders, ascending.
    orders: Vec<i64>,
    /// `prefix[k]`: the product of the shapes of the `k` smallest orders (an overflow stays an error
    /// for every longer prefix).
    prefix: Vec<Result<Int>>,
}

impl Starts {
    fn new(ref_shape: &[Int], ref_order: &[i64]) -> Starts {
        let mut pairs: Vec<(i64, Int)> = ref_order
            .iter()
            .copied()
            .zip(ref_shape.iter().copied())
            .collect();
        pairs.sort_by_key(|(o, _)| *o);
        let mut prefix = Vec::with_capacity(pairs.len() + 1);
        let mut acc = Ok(Int::s(1));
        prefix.push(acc.clone());
        for (_, s) in &pairs {
            acc = acc.and_then(|a| a.mul(*s));
            prefix.push(acc.clone());
        }
        let orders = pairs.into_iter().map(|(o, _)| o).collect();
        Starts { orders, prefix }
    }

    fn below(&self, me: i64) -> Result<Int> {
        let k = self.orders.partition_point(|o| *o < me);
        self.prefix.get(k).cloned().unwrap_or(Ok(Int::s(1)))
    }
}

fn order_strides(shape: &IntTuple, order: &IntTuple, starts: &Starts) -> Result<IntTuple> {
    match order {
        IntTuple::Tuple(os) => match shape {
            IntTuple::Tuple(ss) if ss.len() == os.len() => Ok(IntTuple::Tuple(
                ss.iter()
                    .zip(os)
                    .map(|(s, o)| order_strides(s, o, starts))
                    .collect::<Result<_>>()?,
            )),
            _ => Err(LayoutError::NotCongruent {
                what: "compact_order: shape and order must have equal ranks".into(),
                left: shape.to_string(),
                right: order.to_string(),
            }),
        },
        _ => {
            let me = order.expect_int("compact_order: order")?.value;
            let start = starts.below(me)?;
            compact_col_major(shape, Some(&IntTuple::Int(start)))
        }
    }
}

/// Compact strides for `shape` such that modes with a smaller `order` get smaller strides
/// (CuTe's `compact_order`). Dynamic entries of `order` count as larger than every static entry and
/// are ordered left to right among themselves; equal orders get equal starting strides.
///
/// Pre: `order` is an integer or has the nesting of `shape` down to its leaves.
/// ```
/// # use cute_layout_core::{IntTuple, compact_order};
/// let s: IntTuple = "(_3,_8,_24)".parse().unwrap();
/// let o: IntTuple = "(_0,_2,_1)".parse().unwrap();
/// assert_eq!(compact_order(&s, &o).unwrap().to_string(), "(_1,_72,_3)");
/// ```
pub fn compact_order(shape: &IntTuple, order: &IntTuple) -> Result<IntTuple> {
    let ref_shape = product_like(shape, order)?.int_leaves()?;
    let flat_order = order.int_leaves()?;
    let max_static = flat_order
        .iter()
        .filter(|o| o.is_static)
        .map(|o| o.value)
        .fold(0i64, i64::max);
    let ref_order: Vec<i64> = flat_order
        .iter()
        .enumerate()
        .map(|(k, o)| {
            if o.is_static {
                o.value
            } else {
                max_static.saturating_add(1 + k as i64)
            }
        })
        .collect();
    let ref_order_tuple: Vec<IntTuple> = ref_order.iter().map(|&o| IntTuple::s(o)).collect();
    let new_order = refold(&mut ref_order_tuple.iter(), order);
    order_strides(shape, &new_order, &Starts::new(&ref_shape, &ref_order))
}

/// The compact column-major layout of `shape` (CuTe's `make_layout(shape)`).
///
/// ```
/// # use cute_layout_core::{IntTuple, make_layout};
/// assert_eq!(make_layout(&IntTuple::d(1)).unwrap().to_string(), "1:_1");
/// assert_eq!(make_layout(&IntTuple::s(1)).unwrap().to_string(), "_1:_0");
/// ```
pub fn make_layout(shape: &IntTuple) -> Result<Layout> {
    make_layout_major(shape, Tag::LayoutLeft)
}

/// The compact layout of `shape` in the order of `major` (`make_layout(shape, LayoutLeft)` or
/// `make_layout(shape, LayoutRight)`).
///
/// ```
/// # use cute_layout_core::{IntTuple, make_layout_major};
/// # use cute_layout_core::notation::Tag;
/// let s: IntTuple = "(2,3)".parse().unwrap();
/// assert_eq!(make_layout_major(&s, Tag::LayoutRight).unwrap().to_string(), "(2,3):(3,_1)");
/// ```
pub fn make_layout_major(shape: &IntTuple, major: Tag) -> Result<Layout> {
    Layout::new(shape.clone(), compact_major(shape, &IntTuple::s(1), major)?)
}

/// The layout whose modes are `layouts` (CuTe's `make_layout(L0, L1, ...)`); always a tuple, so one
/// layout `S:D` becomes `(S):(D)`.
///
/// ```
/// # use cute_layout_core::{Layout, make_layout_from};
/// let a: Layout = "_3:_1".parse().unwrap();
/// let b: Layout = "_4:_3".parse().unwrap();
/// assert_eq!(make_layout_from(&[a, b]).to_string(), "(_3,_4):(_1,_3)");
/// ```
pub fn make_layout_from(layouts: &[Layout]) -> Layout {
    Layout::from_modes(layouts.to_vec())
}

/// `make_layout(shape, compact_order(shape, order))`.
///
/// ```
/// # use cute_layout_core::{IntTuple, make_ordered_layout};
/// let s: IntTuple = "(_4,_3,5,_2)".parse().unwrap();
/// let o: IntTuple = "(_2,_1,_3,_4)".parse().unwrap();
/// assert_eq!(make_ordered_layout(&s, &o).unwrap().to_string(), "(_4,_3,5,_2):(_3,_1,_12,60)");
/// ```
pub fn make_ordered_layout(shape: &IntTuple, order: &IntTuple) -> Result<Layout> {
    Layout::new(shape.clone(), compact_order(shape, order)?)
}

/// `shape` with every mode whose stride is a static `_0` replaced by `_1` (CuTe's
/// `filter_zeros(stride, shape)` on tuples).
fn zeros_to_ones(stride: &IntTuple, shape: &IntTuple) -> Result<IntTuple> {
    match stride {
        IntTuple::Tuple(ds) => match shape {
            IntTuple::Tuple(ss) if ss.len() == ds.len() => Ok(IntTuple::Tuple(
                ds.iter()
                    .zip(ss)
                    .map(|(d, s)| zeros_to_ones(d, s))
                    .collect::<Result<_>>()?,
            )),
            _ => Err(LayoutError::NotCongruent {
                what: "stride and shape".into(),
                left: stride.to_string(),
                right: shape.to_string(),
            }),
        },
        IntTuple::Int(d) if d.is_static_eq(0) => shape.map_leaves(&mut |_| Ok(IntTuple::s(1))),
        _ => Ok(shape.clone()),
    }
}

/// A compact layout with the shape of `layout` whose strides follow the order of `layout`'s strides;
/// static `_0` strides stay `_0` (CuTe's `make_layout_like`).
///
/// Pre: integer strides.
/// ```
/// # use cute_layout_core::{Layout, make_layout_like};
/// let l: Layout = "(_4,_2):(_4,_1)".parse().unwrap();
/// assert_eq!(make_layout_like(&l).unwrap().to_string(), "(_4,_2):(_2,_1)");
/// ```
pub fn make_layout_like(layout: &Layout) -> Result<Layout> {
    let filtered = zeros_to_ones(layout.stride(), layout.shape())?;
    Layout::new(
        layout.shape().clone(),
        compact_order(&filtered, layout.stride())?,
    )
}

/// A compact layout for a register fragment shaped like `layout` (CuTe's `make_fragment_like`):
/// mode 0 is column-major (keeping static `_0` strides as `_0`), the other modes follow the order of
/// `layout`'s strides after it. A layout of rank 1 or with a dynamic shape gets `make_layout(shape)`.
///
/// CuTe builds this as `tiled_product(mode0, make_ordered_layout(rest))`; mode 0 is compact over
/// its `n` non-zero-stride elements, so that product is the ordered layout of the other modes with
/// its strides scaled by `n`, which is what is computed here.
///
/// ```
/// # use cute_layout_core::{Layout, make_fragment_like};
/// let l: Layout = "(_4,_8):(_8,_1)".parse().unwrap();
/// assert_eq!(make_fragment_like(&l).unwrap().to_string(), "(_4,(_8)):(_1,(_4))");
/// ```
pub fn make_fragment_like(layout: &Layout) -> Result<Layout> {
    let r = layout.rank();
    if !(layout.is_tuple() && r > 1 && layout.shape().is_static()) {
        return make_layout(layout.shape());
    }
    let (s0, d0) = (layout.shape().get(0)?, layout.stride().get(0)?);
    let mode0_stride = compact_col_major(&zeros_to_ones(&d0, &s0)?, None)?;
    let mode0 = Layout::new(s0, mode0_stride)?;
    // The number of distinct offsets of mode 0: the product of its non-zero-stride extents.
    let n = product(&zeros_to_ones(&d0, mode0.shape())?)?;
    let rest_shape = IntTuple::Tuple(layout.shape().elems()[1..].to_vec());
    let rest_order = IntTuple::Tuple(layout.stride().elems()[1..].to_vec());
    let rest = make_ordered_layout(&rest_shape, &rest_order)?;
    let scaled = rest
        .stride()
        .map_leaves(&mut |d| Ok(IntTuple::Int(d.expect_int("stride")?.mul(n)?)))?;
    let rest = Layout::new(rest.shape().clone(), scaled)?;
    let mut modes = vec![mode0];
    if r == 2 {
        modes.push(rest);
    } else {
        modes.extend(rest.modes());
    }
    Ok(Layout::from_modes(modes))
}

/// `make_fragment_like` of a shape: `make_layout(shape)`.
///
/// ```
/// use cute_layout_core::{IntTuple, make_fragment_like_shape};
/// let l = make_fragment_like_shape(&"(_4,(_2,3))".parse::<IntTuple>().unwrap()).unwrap();
/// assert_eq!(l.to_string(), "(_4,(_2,3)):(_1,(_4,_8))");
/// ```
pub fn make_fragment_like_shape(shape: &IntTuple) -> Result<Layout> {
    make_layout(shape)
}

/// Basis elements congruent with `shape`: leaf at mode path `p` gets `_1@p` (CuTe's
/// `make_basis_like`); a leaf shape gets `_1`.
///
/// ```
/// use cute_layout_core::{IntTuple, make_basis_like};
/// let b = make_basis_like(&"(4,(3,2))".parse::<IntTuple>().unwrap());
/// assert_eq!(b.to_string(), "(_1@0,(_1@0@1,_1@1@1))");
/// ```
pub fn make_basis_like(shape: &IntTuple) -> IntTuple {
    fn go(shape: &IntTuple, path: &mut Vec<usize>) -> IntTuple {
        match shape {
            IntTuple::Tuple(v) => IntTuple::Tuple(
                v.iter()
                    .enumerate()
                    .map(|(k, s)| {
                        path.push(k);
                        let r = go(s, path);
                        path.pop();
                        r
                    })
                    .collect(),
            ),
            _ if path.is_empty() => IntTuple::s(1),
            _ => IntTuple::Basis(ScaledBasis::new(Int::s(1), path.clone())),
        }
    }
    go(shape, &mut Vec::new())
}

/// The layout that maps each coordinate of `shape` to itself: strides are basis elements
/// (CuTe's `make_identity_layout`).
///
/// ```
/// # use cute_layout_core::{IntTuple, make_identity_layout};
/// let s: IntTuple = "(_4,(_4,_2))".parse().unwrap();
/// assert_eq!(make_identity_layout(&s).unwrap().to_string(), "(_4,(_4,_2)):(_1@0,(_1@0@1,_1@1@1))");
/// ```
pub fn make_identity_layout(shape: &IntTuple) -> Result<Layout> {
    Layout::new(shape.clone(), make_basis_like(shape))
}
