//! Vectorization queries and element-size changes: the longest contiguous run two layouts share
//! (`max_common_vector`, `max_common_layout`), the kernel of a layout (`nullspace`), spreading a
//! count over a shape (`domain_distribute`), reinterpreting a layout for wider or narrower elements
//! (`upcast`, `downcast`, `recast_layout`) and the widest element it allows (`max_alignment`).
//!
//! ```
//! use cute_layout_core::notation::eval_str;
//! assert_eq!(eval_str("max_common_vector((_2,_16):(_16,_1),(_2,_16):(_16,_1))").unwrap().to_string(), "_32");
//! assert_eq!(eval_str("upcast<2>((_4,_8):(_1,_4))").unwrap().to_string(), "(_2,_8):(_1,_2)");
//! ```

use crate::composition::{composition_tile, composition_unverified};
use crate::divide::deps::{coalesce, col_major_from, composition, right_inverse};
use crate::divide::logical_divide;
use crate::error::{LayoutError, Result};
use crate::int::{Int, gcd_i64};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tiler::Tiler;
use crate::tuple_ops;

fn unit() -> Result<Layout> {
    Layout::new(IntTuple::s(1), IntTuple::s(0))
}

/// Mode 0 of `coalesce(a ∘ right_inverse(b))` when it is a static stride-1 mode (the part where
/// `a` and `b` agree element by element), with `right_inverse(b)`. The composition is CuTe's, checked
/// only where both it and `right_inverse(b)` are defined: CuTe keeps a result shorter than B here
/// (`(2,2):(1,2) ∘ 3:_1` is `(2,1):(1,2)`) and answers from its first mode. Where CuTe's composition
/// is wrong but its first mode is no static stride-1 run, CuTe's answer is the trivial one (`_1`,
/// `_1:_0`), which holds whatever the composition; a wrong composition that claims a run stays an error.
fn common_prefix(a: &Layout, b: &Layout) -> Result<(Option<Layout>, Layout)> {
    let inv_b = right_inverse(b)?;
    let vector = |composed: &Layout| -> Result<Option<Layout>> {
        let m0 = coalesce(composed)?.mode(0)?;
        let is_vec =
            m0.shape().is_static() && matches!(m0.stride(), IntTuple::Int(d) if d.is_static_eq(1));
        Ok(is_vec.then_some(m0))
    };
    match composition_tile(a, &inv_b) {
        Ok(composed) => Ok((vector(&composed)?, inv_b)),
        Err(e @ LayoutError::Postcondition { .. }) => {
            match vector(&composition_unverified(a, &inv_b)?)? {
                None => Ok((None, inv_b)),
                Some(_) => Err(e),
            }
        }
        Err(e) => Err(e),
    }
}

/// The largest static `N` such that `a` and `b` map their first `N` (1-D) coordinates to the same
/// contiguous indices `0..N`; `_1` when nothing static is shared.
///
/// Post: `a(b.get_1d_coord(n)) == n` for `n < N`. Dynamic strides never count (as in CuTe).
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("max_common_vector((_2,_12,_4):(_48,_4,_1),(_2,_12,_4):(_48,_4,_1))").unwrap().to_string(), "_96");
/// assert_eq!(eval_str("max_common_vector((4,8):(1,4),(4,8):(1,4))").unwrap().to_string(), "_1");
/// ```
pub fn max_common_vector(a: &Layout, b: &Layout) -> Result<Int> {
    match common_prefix(a, b)?.0 {
        Some(m0) => tuple_ops::product(m0.shape()),
        None => Ok(Int::s(1)),
    }
}

/// The layout of coordinates (of `b`'s domain) where `a` and `b` agree on a contiguous static run:
/// `right_inverse(b) ∘ layout<0>(coalesce(a ∘ right_inverse(b)))`, or `_1:_0` when there is none.
///
/// Post: `a(R(i)) == i` and `b(R(i)) == i` for `i < size(R)`.
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("max_common_layout((_8,_32):(_32,_1),(_8,_32):(_32,_1))").unwrap().to_string(), "(_32,_8):(_8,_1)");
/// ```
pub fn max_common_layout(a: &Layout, b: &Layout) -> Result<Layout> {
    match common_prefix(a, b)? {
        (Some(m0), inv_b) => composition(&inv_b, &m0),
        (None, _) => unit(),
    }
}

/// The kernel of a layout: the coordinates (as a layout into `layout`'s 1-D domain) of the modes
/// with a static stride `_0`, or `_1:_0` when there are none.
///
/// Post: `layout(result(i)) == 0` for `i < size(result)`.
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("nullspace((_7,_5,_16):(_3,_1,_0))").unwrap().to_string(), "_16:_35");
/// ```
pub fn nullspace(layout: &Layout) -> Result<Layout> {
    let shapes = layout.shape().leaves();
    let strides = layout.stride().leaves();
    let flat_shape = layout.shape().flatten();
    let rstride = col_major_from(&flat_shape, Int::s(1))?.leaves();
    let picked: Vec<usize> = (0..strides.len())
        .filter(|&i| matches!(strides[i], IntTuple::Int(d) if d.is_static_eq(0)))
        .collect();
    match picked.as_slice() {
        [] => unit(),
        [i] => Layout::new(shapes[*i].clone(), rstride[*i].clone()),
        _ => Layout::new(
            IntTuple::Tuple(picked.iter().map(|&i| shapes[i].clone()).collect()),
            IntTuple::Tuple(picked.iter().map(|&i| rstride[i].clone()).collect()),
        ),
    }
}

/// Distribute a static count `b` over a static shape `a`, taking as much of it as possible from
/// each mode in turn (gcd), as a compact layout into `a`'s domain.
///
/// Pre: `a` static, `b` a static integer. Post: the result is ordered and surjective onto its
/// image; `size(result)` divides `b`.
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("domain_distribute((_192,(_8,_8)),_1024)").unwrap().to_string(), "(_64,_16):(_1,_192)");
/// ```
pub fn domain_distribute(a: &IntTuple, b: &IntTuple) -> Result<Layout> {
    let IntTuple::Int(b) = b else {
        return Err(LayoutError::invalid(format!(
            "domain_distribute: the count must be an integer, got {b}"
        )));
    };
    if !b.is_static {
        return Err(LayoutError::NeedsStatic {
            what: "domain_distribute: the count".into(),
            value: b.to_string(),
        });
    }
    if !a.is_static() {
        return Err(LayoutError::NeedsStatic {
            what: "domain_distribute: the shape".into(),
            value: a.to_string(),
        });
    }
    let flat = a.flatten();
    let mut rest = *b;
    let mut shape = Vec::new();
    for s in flat.int_leaves()? {
        let g = s.gcd(rest)?;
        shape.push(IntTuple::Int(g));
        rest = rest.div(g)?;
    }
    let stride = col_major_from(&flat, Int::s(1))?;
    let shape = match flat {
        IntTuple::Tuple(_) => IntTuple::Tuple(shape),
        _ => shape.remove(0),
    };
    coalesce(&Layout::new(shape, stride)?)
}

fn check_factor(op: &str, n: i64) -> Result<Int> {
    if n <= 0 {
        return Err(LayoutError::bad_args(
            op,
            format!("the factor must be positive, got {n}"),
        ));
    }
    Ok(Int::s(n))
}

/// View a layout of elements as a layout of `n`-element vectors (CuTe at CUTLASS `7107b05`): a mode
/// with static stride `d` becomes `ceil_div(s, ceil_div(n, |d|)) : signum(d) * ceil_div(|d|, n)`, so
/// the stride-1 mode shrinks by `n` rounding up; only the stride must divide or be divided by `n`;
/// a dynamic stride is simply divided (assumed a multiple of `n`), a static `_0` stays.
///
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("upcast<4>((_32,_32):(_32,_1))").unwrap().to_string(), "(_32,_8):(_8,_1)");
/// assert_eq!(eval_str("upcast<2>((4,8):(1,4))").unwrap().to_string(), "(4,8):(0,2)");
/// assert_eq!(eval_str("upcast<4>((_6,_3):(_1,_8))").unwrap().to_string(), "(_2,_3):(_1,_2)");
/// assert!(eval_str("upcast<4>((_8,_4):(_1,_6))").is_err());
/// ```
pub fn upcast(n: i64, layout: &Layout) -> Result<Layout> {
    let n = check_factor("upcast", n)?;
    let (shape, stride) = upcast_parts(n, layout.shape(), layout.stride())?;
    Layout::new(shape, stride)
}

fn upcast_parts(n: Int, s: &IntTuple, d: &IntTuple) -> Result<(IntTuple, IntTuple)> {
    match (s, d) {
        (IntTuple::Tuple(sv), IntTuple::Tuple(dv)) => {
            let (a, b): (Vec<_>, Vec<_>) = sv
                .iter()
                .zip(dv)
                .map(|(x, y)| upcast_parts(n, x, y))
                .collect::<Result<Vec<_>>>()?
                .into_iter()
                .unzip();
            Ok((IntTuple::Tuple(a), IntTuple::Tuple(b)))
        }
        (_, IntTuple::Int(st)) if st.is_static_eq(0) => Ok((s.clone(), d.clone())),
        (IntTuple::Int(sh), IntTuple::Int(st)) if st.is_static => {
            if st.value % n.value != 0 && n.value % st.value != 0 {
                return Err(LayoutError::NotDivisible {
                    what: format!(
                        "upcast<{}>: the static stride (Divisibility condition)",
                        n.value
                    ),
                    dividend: st.to_string(),
                    divisor: n.value.to_string(),
                });
            }
            let mag = st.abs()?;
            let per = n.ceil_div(mag)?;
            let sign = Int::s(st.value.signum());
            let stride = sign.mul(mag.ceil_div(n)?)?;
            Ok((IntTuple::Int(sh.ceil_div(per)?), IntTuple::Int(stride)))
        }
        (_, IntTuple::Int(st)) => Ok((s.clone(), IntTuple::Int(st.div(n)?))),
        _ => Err(LayoutError::invalid(format!(
            "upcast: unsupported stride {d} for shape {s}"
        ))),
    }
}

/// View a layout of `n`-element vectors as a layout of elements: a static stride `_1` (or `_-1`)
/// mode grows by `n`, every other stride is multiplied by `n`.
///
/// Pre: some stride is a static `_1` (the elements of a vector are adjacent).
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("downcast<4>((_6,_8):(_1,_6))").unwrap().to_string(), "(_24,_8):(_1,_24)");
/// assert!(eval_str("downcast<2>((_4,_4):(_2,_16))").is_err());
/// ```
pub fn downcast(n: i64, layout: &Layout) -> Result<Layout> {
    let n = check_factor("downcast", n)?;
    let has_unit = layout
        .stride()
        .leaves()
        .iter()
        .any(|d| matches!(d, IntTuple::Int(i) if i.is_static_eq(1)));
    if !has_unit {
        return Err(LayoutError::invalid(format!(
            "downcast<{}>: {layout} has no static stride _1, so its elements are not adjacent",
            n.value
        )));
    }
    let (shape, stride) = downcast_parts(n, layout.shape(), layout.stride())?;
    Layout::new(shape, stride)
}

fn downcast_parts(n: Int, s: &IntTuple, d: &IntTuple) -> Result<(IntTuple, IntTuple)> {
    match (s, d) {
        (IntTuple::Tuple(sv), IntTuple::Tuple(dv)) => {
            let (a, b): (Vec<_>, Vec<_>) = sv
                .iter()
                .zip(dv)
                .map(|(x, y)| downcast_parts(n, x, y))
                .collect::<Result<Vec<_>>>()?
                .into_iter()
                .unzip();
            Ok((IntTuple::Tuple(a), IntTuple::Tuple(b)))
        }
        (IntTuple::Int(sh), IntTuple::Int(st)) => {
            if st.is_static && (st.value == 1 || st.value == -1) {
                Ok((IntTuple::Int(sh.mul(n)?), d.clone()))
            } else {
                Ok((s.clone(), IntTuple::Int(st.mul(n)?)))
            }
        }
        _ => Err(LayoutError::invalid(format!(
            "downcast: unsupported stride {d} for shape {s}"
        ))),
    }
}

/// Reinterpret a layout of `old_bits`-bit elements as one of `new_bits`-bit elements: with
/// `new_bits/old_bits = p/q` in lowest terms, `downcast<q>(upcast<p>(layout))` (the identity when
/// the sizes are equal).
///
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("recast_layout<8,32>((_32,_4):(_1,_32))").unwrap().to_string(), "(_8,_4):(_1,_8)");
/// assert_eq!(eval_str("recast_layout<6,4>(((_8,_4)):((_1,_8)))").unwrap().to_string(), "((_12,_4)):((_1,_12))");
/// ```
pub fn recast_layout(old_bits: i64, new_bits: i64, layout: &Layout) -> Result<Layout> {
    if old_bits <= 0 || new_bits <= 0 {
        return Err(LayoutError::bad_args(
            "recast_layout",
            format!("element sizes must be positive, got {old_bits} and {new_bits}"),
        ));
    }
    let g = gcd_i64(old_bits, new_bits)?;
    let (num, den) = (new_bits / g, old_bits / g);
    let mut out = layout.clone();
    if num != 1 {
        out = upcast(num, &out)?;
    }
    if den != 1 {
        out = downcast(den, &out)?;
    }
    Ok(out)
}

/// The largest `N` for which `upcast<N>(layout)` passes its static divisibility checks: the
/// static contiguous run of the coalesced layout, combined (gcd) with the strides of what follows.
/// Dynamic shapes count as 1 and dynamic strides as 0.
///
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("max_alignment((_16,_12):(_1,_16))").unwrap().to_string(), "_192");
/// assert_eq!(eval_str("max_alignment((16,12):(1,16))").unwrap().to_string(), "_1");
/// ```
pub fn max_alignment(layout: &Layout) -> Result<Int> {
    let flat = coalesce(layout)?;
    let shape = flat.shape().map_leaves(&mut |s| {
        Ok(match s {
            IntTuple::Int(i) if !i.is_static => IntTuple::s(1),
            other => other.clone(),
        })
    })?;
    let stride = flat.stride().map_leaves(&mut |d| {
        Ok(match d {
            IntTuple::Int(i) if !i.is_static => IntTuple::s(0),
            other => other.clone(),
        })
    })?;
    let filtered = Layout::new(shape, stride)?;
    let inv = right_inverse(&filtered)?;
    let permuted = logical_divide(&filtered, &Tiler::Layout(inv))?;
    let size0 = tuple_ops::product(permuted.mode(0)?.shape())?;
    let stride1 = permuted.mode(1)?.stride().clone();
    tuple_ops::gcd(&[IntTuple::Int(size0), stride1])
}
