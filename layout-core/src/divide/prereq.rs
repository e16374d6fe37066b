//! Stand-ins for the operations that divides and products are built from (coalesce, composition,
//! complement, right_inverse, compact strides, size/cosize, append/zip), written against CuTe's
//! semantics so that this branch can be tested before the `algebra` and `core` branches land.
//!
//! TEMPORARY: once those branches are merged, every function here is replaced by a re-export of the
//! crate's own function (see the `use` list at the top of `divide.rs`) and this file is deleted.
#![allow(dead_code)]

use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tiler::Tiler;
use crate::tuple_ops;

fn leaf(t: &IntTuple, what: &str) -> Result<Int> {
    t.expect_int(what)
}

/// CuTe's integer `shape_div`: static operands must divide one another; the quotient rounds away
/// from zero when it would be 0.
pub(crate) fn shape_div_int(a: Int, b: Int) -> Result<Int> {
    if b.value == 0 {
        return Err(LayoutError::DivisionByZero {
            op: "shape_div",
            lhs: a.value,
        });
    }
    if a.is_static
        && b.is_static
        && a.value % b.value != 0
        && (a.value == 0 || b.value % a.value != 0)
    {
        return Err(LayoutError::NotDivisible {
            what: "shape_div (one must divide the other)".into(),
            dividend: a.to_string(),
            divisor: b.to_string(),
        });
    }
    let q = a.value / b.value;
    let v = if q != 0 {
        q
    } else {
        a.value.signum() * b.value.signum()
    };
    Ok(Int::new(v, a.is_static && b.is_static))
}

/// `shape_div` on IntTuples with the integer rule above.
pub(crate) fn shape_div(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    match (a, b) {
        (IntTuple::Tuple(x), IntTuple::Tuple(y)) => {
            if x.len() != y.len() {
                return Err(LayoutError::invalid(format!(
                    "shape_div: ranks of {a} and {b}"
                )));
            }
            Ok(IntTuple::Tuple(
                x.iter()
                    .zip(y)
                    .map(|(p, q)| shape_div(p, q))
                    .collect::<Result<_>>()?,
            ))
        }
        (IntTuple::Tuple(x), _) => {
            let mut rest = b.clone();
            let mut out = Vec::new();
            for ai in x {
                out.push(shape_div(ai, &rest)?);
                rest = shape_div(&rest, ai)?;
            }
            Ok(IntTuple::Tuple(out))
        }
        (_, IntTuple::Tuple(_)) => shape_div(a, &IntTuple::Int(tuple_ops::product(b)?)),
        _ => Ok(IntTuple::Int(shape_div_int(
            leaf(a, "shape_div")?,
            leaf(b, "shape_div")?,
        )?)),
    }
}

fn shape_min(a: Int, b: Int) -> Int {
    if a.is_static_eq(1) || b.is_static_eq(1) {
        Int::s(1)
    } else {
        a.min(b)
    }
}

/// Column-major compact strides starting at `current`; a static size-1 mode gets `_0`.
pub(crate) fn compact_col_major(shape: &IntTuple, current: Int) -> Result<IntTuple> {
    let pp = tuple_ops::prefix_product(shape, current)?;
    zip_leaves(shape, &pp, &mut |s, d| {
        Ok(if s.as_int().is_some_and(|i| i.is_static_eq(1)) {
            IntTuple::s(0)
        } else {
            d.clone()
        })
    })
}

fn zip_leaves(
    a: &IntTuple,
    b: &IntTuple,
    f: &mut dyn FnMut(&IntTuple, &IntTuple) -> Result<IntTuple>,
) -> Result<IntTuple> {
    match (a, b) {
        (IntTuple::Tuple(x), IntTuple::Tuple(y)) if x.len() == y.len() => Ok(IntTuple::Tuple(
            x.iter()
                .zip(y)
                .map(|(p, q)| zip_leaves(p, q, f))
                .collect::<Result<_>>()?,
        )),
        (IntTuple::Tuple(_), _) | (_, IntTuple::Tuple(_)) => Err(LayoutError::invalid(format!(
            "{a} and {b} are not congruent"
        ))),
        _ => f(a, b),
    }
}

/// `make_layout(shape)`.
pub(crate) fn make_layout(shape: &IntTuple) -> Result<Layout> {
    Layout::new(shape.clone(), compact_col_major(shape, Int::s(1))?)
}

/// `make_ordered_layout(shape, order)`.
pub(crate) fn make_ordered_layout(shape: &IntTuple, order: &IntTuple) -> Result<Layout> {
    let flat_order = order.int_leaves()?;
    let ref_shape: Vec<Int> = product_like(shape, order)?;
    let mut max_order = Int::s(0);
    for o in &flat_order {
        if o.is_static && max_order.value < o.value {
            max_order = *o;
        }
    }
    let ref_order: Vec<Int> = flat_order
        .iter()
        .enumerate()
        .map(|(k, o)| {
            if o.is_static {
                *o
            } else {
                Int::s(max_order.value + 1 + k as i64)
            }
        })
        .collect();
    let mut k = 0usize;
    let stride = order_strides(shape, order, &ref_shape, &ref_order, &mut k)?;
    Layout::new(shape.clone(), stride)
}

fn product_like(shape: &IntTuple, order: &IntTuple) -> Result<Vec<Int>> {
    match order {
        IntTuple::Tuple(o) => {
            let mut out = Vec::new();
            for (i, oi) in o.iter().enumerate() {
                out.extend(product_like(&shape.get(i)?, oi)?);
            }
            Ok(out)
        }
        _ => Ok(vec![tuple_ops::product(shape)?]),
    }
}

fn order_strides(
    shape: &IntTuple,
    order: &IntTuple,
    ref_shape: &[Int],
    ref_order: &[Int],
    k: &mut usize,
) -> Result<IntTuple> {
    match order {
        IntTuple::Tuple(o) => Ok(IntTuple::Tuple(
            o.iter()
                .enumerate()
                .map(|(i, oi)| order_strides(&shape.get(i)?, oi, ref_shape, ref_order, k))
                .collect::<Result<_>>()?,
        )),
        _ => {
            let mine = ref_order[*k];
            *k += 1;
            let mut start = Int::s(1);
            for (s, o) in ref_shape.iter().zip(ref_order) {
                if o.value < mine.value {
                    start = start.mul(*s)?;
                }
            }
            compact_col_major(shape, start)
        }
    }
}

/// `size(layout)`.
pub(crate) fn size(l: &Layout) -> Result<Int> {
    tuple_ops::product(l.shape())
}

/// `cosize(layout)`: one past the largest index (with CuTe's static/dynamic typing).
pub(crate) fn cosize(l: &Layout) -> Result<Int> {
    let shapes = l.shape().int_leaves()?;
    let strides = l.stride().int_leaves()?;
    let all_static_shape = shapes.iter().all(|s| s.is_static);
    let mut acc = Int::s(1);
    for (s, d) in shapes.iter().zip(&strides) {
        let c = Int::new(s.value - 1, all_static_shape);
        acc = acc.add(c.mul(d.abs()?)?)?;
    }
    if shapes.is_empty() {
        return Ok(Int::s(1));
    }
    Ok(acc)
}

/// CuTe's `coalesce` of an IntTuple: merge neighbours of equal staticness.
pub(crate) fn coalesce_shape(t: &IntTuple) -> Result<IntTuple> {
    let leaves = t.int_leaves()?;
    let mut out: Vec<Int> = Vec::new();
    for a in leaves {
        match out.last_mut() {
            Some(b) if b.is_static == a.is_static => *b = b.mul(a)?,
            _ => out.push(a),
        }
    }
    Ok(if out.len() == 1 {
        IntTuple::Int(out[0])
    } else {
        IntTuple::Tuple(out.into_iter().map(IntTuple::Int).collect())
    })
}

/// The backward coalescing pass shared by `coalesce`, `coalesce_x` and composition.
fn bw_coalesce(
    old_shape: &[Int],
    old_stride: &[Int],
    upto: usize,
    new_shape: Int,
    new_stride: Int,
) -> Result<Layout> {
    let mut ns: Vec<Int> = vec![new_shape];
    let mut nd: Vec<Int> = vec![new_stride];
    let mut single = true;
    for i in (0..upto).rev() {
        let (s, d) = (old_shape[i], old_stride[i]);
        if s.is_static_eq(1) {
            continue;
        }
        if single && ns[0].is_static_eq(1) {
            ns[0] = s;
            nd[0] = d;
            continue;
        }
        let prod = s.mul(d)?;
        if ns[0].is_static && prod.is_static && nd[0].is_static && prod.value == nd[0].value {
            ns[0] = s.mul(ns[0])?;
            nd[0] = d;
        } else {
            ns.insert(0, s);
            nd.insert(0, d);
            single = false;
        }
    }
    if single {
        if ns[0].is_static_eq(1) {
            return Layout::new(IntTuple::s(1), IntTuple::s(0));
        }
        return Layout::new(IntTuple::Int(ns[0]), IntTuple::Int(nd[0]));
    }
    Layout::new(
        IntTuple::Tuple(ns.into_iter().map(IntTuple::Int).collect()),
        IntTuple::Tuple(nd.into_iter().map(IntTuple::Int).collect()),
    )
}

/// `coalesce(layout)`.
pub(crate) fn coalesce(l: &Layout) -> Result<Layout> {
    let s = l.shape().int_leaves()?;
    let d = l.stride().int_leaves()?;
    let r = s.len();
    if r == 0 {
        return Layout::new(IntTuple::s(1), IntTuple::s(0));
    }
    bw_coalesce(&s, &d, r - 1, s[r - 1], d[r - 1])
}

fn coalesce_x(l: &Layout) -> Result<Layout> {
    let s = l.shape().int_leaves()?;
    let d = l.stride().int_leaves()?;
    let r = s.len();
    if r == 0 {
        return Layout::new(IntTuple::s(1), IntTuple::s(0));
    }
    let last = if s[r - 1].is_static_eq(1) {
        Int::s(2)
    } else {
        s[r - 1]
    };
    bw_coalesce(&s, &d, r - 1, last, d[r - 1])
}

/// `coalesce(layout, profile)`: coalesce at the terminals of `profile`.
pub(crate) fn coalesce_by(l: &Layout, profile: &IntTuple) -> Result<Layout> {
    match profile {
        IntTuple::Tuple(p) => {
            let modes = l.modes();
            if p.len() > modes.len() {
                return Err(LayoutError::invalid("coalesce: profile has too many modes"));
            }
            let mut out = Vec::new();
            for (i, m) in modes.iter().enumerate() {
                out.push(if i < p.len() {
                    coalesce_by(m, &p[i])?
                } else {
                    m.clone()
                });
            }
            Ok(Layout::from_modes(out))
        }
        _ => coalesce(l),
    }
}

/// `filter(layout)`.
pub(crate) fn filter(l: &Layout) -> Result<Layout> {
    let shape = zip_leaves(l.shape(), l.stride(), &mut |s, d| {
        Ok(if d.as_int().is_some_and(|i| i.is_static_eq(0)) {
            IntTuple::s(1)
        } else {
            s.clone()
        })
    })?;
    coalesce(&Layout::new(shape, l.stride().clone())?)
}

fn composition_impl(ls: &[Int], ld: &[Int], rs: &IntTuple, rd: &IntTuple) -> Result<Layout> {
    if let IntTuple::Tuple(rsv) = rs {
        let rdv = rd.elems();
        let modes = rsv
            .iter()
            .zip(&rdv)
            .map(|(s, d)| composition_impl(ls, ld, s, d))
            .collect::<Result<Vec<_>>>()?;
        return Ok(Layout::from_modes(modes));
    }
    let rshape = leaf(rs, "composition")?;
    let rstride = leaf(rd, "composition")?;
    if rstride.is_static_eq(0) {
        return Layout::new(rs.clone(), rd.clone());
    }
    let r = ls.len();
    if r == 1 {
        return Layout::new(rs.clone(), IntTuple::Int(rstride.mul(ld[0])?));
    }
    if rstride.is_static_eq(1) {
        let mut shape1 = Vec::new();
        let mut rest = rshape;
        for &si in &ls[..r - 1] {
            let a = si.abs()?;
            shape1.push(shape_min(a, rest));
            rest = shape_div_int(rest, a)?;
        }
        return bw_coalesce(&shape1, ld, r - 1, rest, ld[r - 1]);
    }
    let mut shape1 = Vec::new();
    let mut rest_stride = rstride;
    for &di in &ls[..r - 1] {
        shape1.push(shape_div_int(di, rest_stride)?);
        rest_stride = shape_div_int(rest_stride, di)?;
    }
    let mut stride1 = Vec::new();
    for i in 0..r - 1 {
        stride1.push(ld[i].mul(shape_div_int(ls[i], shape1[i])?)?);
    }
    let mut shape2 = Vec::new();
    let mut rest_shape = rshape;
    for &si in &shape1 {
        let a = si.abs()?;
        shape2.push(shape_min(a, rest_shape));
        rest_shape = shape_div_int(rest_shape, a)?;
    }
    bw_coalesce(
        &shape2,
        &stride1,
        r - 1,
        rest_shape,
        rest_stride.mul(ld[r - 1])?,
    )
}

/// `composition(lhs, rhs)` for two layouts.
pub(crate) fn composition(lhs: &Layout, rhs: &Layout) -> Result<Layout> {
    let flat = coalesce_x(lhs)?;
    let ls = flat.shape().int_leaves()?;
    let ld = flat.stride().int_leaves()?;
    composition_impl(&ls, &ld, rhs.shape(), rhs.stride())
}

/// `composition(lhs, tiler)`.
pub(crate) fn composition_tiler(lhs: &Layout, tiler: &Tiler) -> Result<Layout> {
    match tiler {
        Tiler::Layout(t) => composition(lhs, t),
        Tiler::Underscore => Ok(lhs.clone()),
        Tiler::Int(n) => composition(lhs, &Layout::new(IntTuple::Int(*n), IntTuple::s(1))?),
        Tiler::Tuple(ts) => {
            let modes = lhs.modes();
            if ts.len() > modes.len() {
                return Err(LayoutError::invalid("composition: too many modes in tiler"));
            }
            Ok(Layout::from_modes(
                ts.iter()
                    .zip(&modes)
                    .map(|(t, m)| composition_tiler(m, t))
                    .collect::<Result<_>>()?,
            ))
        }
    }
}

/// `complement(layout, cotarget)` with cotarget an integer or a shape.
pub(crate) fn complement(l: &Layout, cotarget: &IntTuple) -> Result<Layout> {
    let f = filter(l)?;
    let mut shape = f.shape().int_leaves()?;
    let mut stride = f.stride().int_leaves()?;
    if !f.stride().is_tuple() && stride[0].is_static_eq(0) {
        return make_layout(&coalesce_shape(cotarget)?);
    }
    let r = shape.len();
    if r > 1 && !stride.iter().all(|d| d.is_static) {
        return Err(LayoutError::invalid(format!(
            "complement: dynamic-stride complement only for rank-1 layouts, got {f}"
        )));
    }
    let mut rshape: Vec<Int> = Vec::new();
    let mut rstride: Vec<Int> = vec![Int::s(1)];
    for i in 0..r - 1 {
        let (idx, &min_stride) = stride
            .iter()
            .enumerate()
            .min_by_key(|(k, d)| (d.value, *k))
            .expect("nonempty");
        let new_shape = min_stride.div(rstride[i])?;
        if new_shape.is_static_eq(0) {
            return Err(LayoutError::NotInjective {
                what: "complement".into(),
                layout: l.to_string(),
            });
        }
        let new_stride = min_stride.mul(shape[idx])?;
        shape.remove(idx);
        stride.remove(idx);
        rshape.push(new_shape);
        rstride.push(new_stride);
    }
    let new_shape = stride[0].div(rstride[r - 1])?;
    if new_shape.is_static_eq(0) {
        return Err(LayoutError::NotInjective {
            what: "complement".into(),
            layout: l.to_string(),
        });
    }
    rshape.push(new_shape);
    let new_stride = stride[0].mul(shape[0])?;
    let rest_shape = coalesce_shape(&tuple_ops::ceil_div(cotarget, &IntTuple::Int(new_stride))?)?;
    let rest_stride = compact_col_major(&rest_shape, new_stride)?;
    let shp = IntTuple::Tuple(vec![
        IntTuple::Tuple(rshape.into_iter().map(IntTuple::Int).collect()),
        rest_shape,
    ]);
    let std = IntTuple::Tuple(vec![
        IntTuple::Tuple(rstride.into_iter().map(IntTuple::Int).collect()),
        rest_stride,
    ]);
    coalesce(&Layout::new(shp, std)?)
}

/// `right_inverse(layout)`.
pub(crate) fn right_inverse(l: &Layout) -> Result<Layout> {
    let flat = coalesce(l)?;
    let s = flat.shape().int_leaves()?;
    let d = flat.stride().int_leaves()?;
    let rstride = compact_col_major(flat.shape(), Int::s(1))?.int_leaves()?;
    let mut seq = Vec::new();
    let mut next = 1i64;
    while let Some(i) = d.iter().position(|x| x.is_static && x.value.abs() == next) {
        seq.push(i);
        let ns = s[i].mul(d[i].abs()?)?;
        if ns.is_static && ns.value != next {
            next = ns.value;
        } else {
            break;
        }
    }
    if seq.is_empty() {
        return Layout::new(IntTuple::s(1), IntTuple::s(0));
    }
    let shapes: Vec<IntTuple> = seq.iter().map(|&i| IntTuple::Int(s[i])).collect();
    let strides: Vec<IntTuple> = seq
        .iter()
        .map(|&i| {
            let sg = Int::new(d[i].value.signum(), d[i].is_static);
            sg.mul(rstride[i]).map(IntTuple::Int)
        })
        .collect::<Result<_>>()?;
    if shapes.len() == 1 {
        return Layout::new(shapes[0].clone(), strides[0].clone());
    }
    Layout::new(IntTuple::Tuple(shapes), IntTuple::Tuple(strides))
}

/// `append<n>(layout)`: pad with `_1:_0` modes up to rank `n`.
pub(crate) fn append_to(l: &Layout, n: usize) -> Result<Layout> {
    if !l.is_tuple() && n == 1 {
        return Ok(l.clone());
    }
    let mut modes = l.modes();
    if modes.len() > n {
        return Err(LayoutError::invalid(format!(
            "append<{n}>: {l} has more modes"
        )));
    }
    while modes.len() < n {
        modes.push(Layout::new(IntTuple::s(1), IntTuple::s(0))?);
    }
    Ok(Layout::from_modes(modes))
}

fn zip_tuples(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    match a {
        IntTuple::Tuple(x) => {
            let y = b.elems();
            if !b.is_tuple() || y.len() != x.len() {
                return Err(LayoutError::invalid(format!(
                    "zip: ranks of {a} and {b} differ"
                )));
            }
            Ok(IntTuple::Tuple(
                x.iter()
                    .zip(y)
                    .map(|(p, q)| IntTuple::Tuple(vec![p.clone(), q]))
                    .collect(),
            ))
        }
        _ => Ok(IntTuple::Tuple(vec![IntTuple::Tuple(vec![
            a.clone(),
            b.clone(),
        ])])),
    }
}

/// `zip(a, b)` of two layouts.
pub(crate) fn zip(a: &Layout, b: &Layout) -> Result<Layout> {
    Layout::new(
        zip_tuples(a.shape(), b.shape())?,
        zip_tuples(a.stride(), b.stride())?,
    )
}
