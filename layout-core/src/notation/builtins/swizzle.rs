//! Swizzles and composed layouts in the notation: `eval`, `composition`, the inverses, the queries
//! (`size`, `cosize`, `rank`, `depth`, `shape`) and the operations CuTe applies to the inner layout
//! of a composed layout (`layout_composed.hpp`). Every entry returns `None` unless one of its
//! arguments is a swizzle or a composed layout, so the layout tables handle everything else.
//!
//! Operations on plain layouts (composition of two layouts, their inverses, `size`, ...) are passed
//! back to the dispatcher, so that there is one implementation of each.

use super::{arity, targ};
use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::notation::value::Value;
use crate::swizzle::{ComposedLayout, LayoutFn, composition_layout_swizzle, composition3};

/// Operations that CuTe forwards to the inner layout and wraps again as `A o OFFSET o result`.
pub(super) const REWRAP: &[&str] = &[
    "get",
    "take",
    "flatten",
    "append",
    "group",
    "layout",
    "logical_divide",
    "tile_unzip",
    "tiled_divide",
    "zipped_divide",
    "flat_divide",
    "logical_product",
    "zipped_product",
    "tiled_product",
    "flat_product",
    "blocked_product",
    "raked_product",
    "tile_to_shape",
    "filter",
    "coalesce",
    "zip",
];

/// The operations with their own meaning on swizzles and composed layouts (REWRAP lists the rest).
pub(super) const NAMES: &[&str] = &[
    "eval",
    "composition",
    "size",
    "cosize",
    "rank",
    "depth",
    "shape",
    "left_inverse",
    "right_inverse",
    "make_layout",
    "complement",
    "upcast",
    "downcast",
    "recast_layout",
    "max_common_vector",
    "max_common_layout",
    "with_shape",
    "slice",
    "slice_and_offset",
    "max_alignment",
    "nullspace",
    "make_fragment_like",
    "domain_offset",
    "get_swizzle_portion",
    "get_nonswizzle_portion",
    "filter_zeros",
    "replace",
    "dice",
    "select",
];

fn is_swizzly(v: &Value) -> bool {
    match v {
        Value::Swizzle(_) | Value::Composed(_) => true,
        Value::Tuple(vs) => vs.iter().any(is_swizzly),
        _ => false,
    }
}

pub(super) fn call(name: &str, targs: &[i64], args: Vec<Value>) -> Option<Result<Value>> {
    if !args.iter().any(is_swizzly) {
        return None;
    }
    // `eval(F, c)` is ours only when the function F is swizzled; a swizzled coordinate is the
    // layout table's error (and handing it back here would recurse without end).
    if name == "eval" && !args.first().is_some_and(is_swizzly) {
        return None;
    }
    Some(dispatch(name, targs, args))
}

fn dispatch(name: &str, targs: &[i64], args: Vec<Value>) -> Result<Value> {
    match name {
        "eval" => {
            arity(name, &args, &[2])?;
            let f = as_fn(name, &args[0])?;
            eval_fn(&f, args[1].clone())
        }
        "composition" => composition_op(name, args),
        "size" | "cosize" | "rank" | "depth" | "shape" => {
            arity(name, &args, &[1])?;
            let c = as_composed(name, &args[0])?;
            query(name, targs, c.layout_b.clone().into())
        }
        "right_inverse" | "left_inverse" => {
            arity(name, &args, &[1])?;
            let f = as_fn(name, &args[0])?;
            inverse(name, &f)
        }
        "make_layout" => make_layout_of_swizzle(name, &args),
        "complement" => {
            arity(name, &args, &[1, 2])?;
            let c = as_composed(name, &args[0])?;
            let cotarget = match args.get(1) {
                Some(t) => t.clone(),
                None => super::call("cosize", &[], vec![args[0].clone()])?,
            };
            super::call(name, &[], vec![c.layout_b.clone().into(), cotarget])
        }
        "upcast" | "downcast" => {
            arity(name, &args, &[1])?;
            let n = targ(name, targs, 0)? as i64;
            let f = as_fn(name, &args[0])?;
            Ok(cast(name, n, &f)?.into())
        }
        "recast_layout" => recast_op(name, targs, &args),
        "max_common_vector" => {
            arity(name, &args, &[2])?;
            max_common_vector(&args[0], &args[1])
        }
        "with_shape" => {
            arity(name, &args, &[2])?;
            let layout = super::call("make_layout", &[], vec![args[1].clone()])?;
            compose(args[0].clone(), layout)
        }
        "slice" | "slice_and_offset" => {
            arity(name, &args, &[2])?;
            let c = crate::modes::Coord::from_value(&args[0])?;
            let (l, off) = as_composed(name, &args[1])?.slice_and_offset(&c)?;
            Ok(if name == "slice" {
                l.into()
            } else {
                Value::Tuple(vec![l.into(), off.into()])
            })
        }
        "get_swizzle_portion" | "get_nonswizzle_portion" => portion_op(name, &args),
        "max_alignment" => {
            arity(name, &args, &[1])?;
            max_alignment(as_composed(name, &args[0])?)
        }
        "nullspace" => {
            // CuTe does not attempt composed layouts: `Layout<_1,_0>`.
            arity(name, &args, &[1])?;
            as_composed(name, &args[0])?;
            Ok(Layout::new(IntTuple::s(1), IntTuple::s(0))?.into())
        }
        "make_fragment_like" => {
            arity(name, &args, &[1])?;
            let c = as_composed(name, &args[0])?;
            super::call(name, targs, vec![c.layout_b.clone().into()])
        }
        "max_common_layout" => {
            arity(name, &args, &[2])?;
            max_common_layout(&args[0], &args[1])
        }
        "domain_offset" => domain_offset_op(name, &args),
        "filter_zeros" | "replace" | "dice" | "select" => tuple_fallback(name, targs, &args),
        n if REWRAP.contains(&n) => rewrap(name, targs, args),
        _ => Err(LayoutError::bad_args(
            name,
            "is not defined for swizzles or composed layouts",
        )),
    }
}

/// The operations CuTe has no composed-layout overload for, so its generic tuple algorithms see a
/// composed layout as one opaque element: `filter_zeros` passes it through, `replace<0>` gives the
/// replacement, `dice` keeps it for an integer coordinate and drops it for `_`, and `select`
/// collects the modes `get<i>` picks.
fn tuple_fallback(name: &str, targs: &[i64], args: &[Value]) -> Result<Value> {
    match (name, args) {
        ("filter_zeros", [c @ Value::Composed(_)]) => Ok(c.clone()),
        ("filter_zeros", [Value::Composed(_), profile]) => Ok(profile.clone()),
        ("replace", [v @ (Value::Composed(_) | Value::Layout(_)), x]) => {
            super::layout::replace_whole(v, targ(name, targs, 0)?, x)
        }
        ("dice", [Value::Underscore, Value::Composed(_)]) => {
            Ok(Value::IntTuple(IntTuple::Tuple(Vec::new())))
        }
        ("dice", [Value::IntTuple(IntTuple::Int(_)), c @ Value::Composed(_)]) => Ok(c.clone()),
        ("select", [c @ Value::Composed(_)]) if !targs.is_empty() => targs
            .iter()
            .map(|&i| super::call("get", &[i], vec![c.clone()]))
            .collect::<Result<Vec<_>>>()
            .map(Value::Tuple),
        _ => Err(LayoutError::bad_args(
            name,
            "is not defined for these arguments with a swizzle or a composed layout",
        )),
    }
}

/// `composition(A, B)` and `composition(A, offset, B)` of swizzles and composed layouts.
fn composition_op(name: &str, args: Vec<Value>) -> Result<Value> {
    arity(name, &args, &[2, 3])?;
    if args.len() == 3 {
        let a = as_fn(name, &args[0])?;
        let off = args[1].clone().into_int_tuple()?;
        let b = as_fn(name, &args[2])?;
        return Ok(composition3(a, off, b).into());
    }
    let mut it = args.into_iter();
    let (a, b) = (it.next(), it.next());
    match (a, b) {
        (Some(a), Some(b)) => compose(a, b),
        _ => Err(LayoutError::bad_args(name, "takes 2 arguments")),
    }
}

/// `make_layout(sw)`: CuTe's `composition(sw, Layout<Int<M+B+|S|>, _1>)`.
fn make_layout_of_swizzle(name: &str, args: &[Value]) -> Result<Value> {
    arity(name, args, &[1])?;
    match &args[0] {
        // CuTe: composition(sw, Layout<Int<M+B+|S|>, _1>) (sic: the extent is M+B+|S|).
        Value::Swizzle(s) => {
            s.check()?;
            let n = s.base + s.bits + s.shift.abs();
            let l = Layout::new(IntTuple::s(n), IntTuple::s(1))?;
            Ok(composition3((*s).into(), IntTuple::s(0), l.into()).into())
        }
        v => Err(LayoutError::bad_args(
            name,
            format!("cannot make a layout from {} `{v}`", v.kind()),
        )),
    }
}

/// `recast_layout<OLD,NEW>`: an upcast, a downcast, or both by the reduced ratio.
fn recast_op(name: &str, targs: &[i64], args: &[Value]) -> Result<Value> {
    arity(name, args, &[1])?;
    let (old, new) = super::recast_widths(name, targs)?;
    let g = crate::int::gcd_i64(old, new)?;
    let (num, den) = (new / g, old / g);
    let f = as_fn(name, &args[0])?;
    let r = if num == 1 && den == 1 {
        f
    } else if num == 1 {
        cast("downcast", den, &f)?
    } else if den == 1 {
        cast("upcast", num, &f)?
    } else if !matches!(f, LayoutFn::Swizzle(_)) {
        cast("downcast", den, &cast("upcast", num, &f)?)?
    } else {
        return Err(LayoutError::invalid(format!(
            "recast_layout<{old},{new}>({f}): recast not supported (ratio {num}/{den})"
        )));
    };
    Ok(r.into())
}

/// The swizzle or the layout of `Sw o _0 o L`.
fn portion_op(name: &str, args: &[Value]) -> Result<Value> {
    arity(name, args, &[1])?;
    let c = as_composed(name, &args[0])?;
    match (name, c.swizzle()) {
        ("get_swizzle_portion", Some(sw)) => Ok(Value::Swizzle(sw)),
        ("get_nonswizzle_portion", Some(_)) => Ok(c.layout_b.clone().into()),
        _ => Err(LayoutError::bad_args(
            name,
            format!("defined for a swizzle composed with a layout, not {c}"),
        )),
    }
}

/// `domain_offset(c, Sw o off o L)`: the offset moves by `L(c)`.
fn domain_offset_op(name: &str, args: &[Value]) -> Result<Value> {
    arity(name, args, &[2])?;
    let c = as_composed(name, &args[1])?;
    let shift = eval_fn(&c.layout_b, args[0].clone())?.into_int()?;
    let off = match &c.offset {
        IntTuple::Int(o) => o.add(shift)?,
        o => {
            return Err(LayoutError::bad_args(
                name,
                format!("the offset {o} must be an integer"),
            ));
        }
    };
    let moved = ComposedLayout::new(c.layout_a.clone(), IntTuple::Int(off), c.layout_b.clone());
    Ok(Value::Tuple(vec![
        Value::Composed(moved),
        Value::int(Int::s(0)),
    ]))
}

pub(super) fn as_fn(op: &str, v: &Value) -> Result<LayoutFn> {
    LayoutFn::from_value(v).ok_or_else(|| {
        LayoutError::bad_args(
            op,
            format!(
                "expected a layout, a swizzle or a composed layout, found {} `{v}`",
                v.kind()
            ),
        )
    })
}

fn as_composed<'a>(op: &str, v: &'a Value) -> Result<&'a ComposedLayout> {
    match v {
        Value::Composed(c) => Ok(c),
        Value::Swizzle(s) => Err(LayoutError::bad_args(
            op,
            format!("the swizzle {s} is a function on offsets and has no shape"),
        )),
        v => Err(LayoutError::bad_args(
            op,
            format!("expected a composed layout, found {} `{v}`", v.kind()),
        )),
    }
}

/// Evaluate `f` at a coordinate value.
fn eval_fn(f: &LayoutFn, coord: Value) -> Result<Value> {
    match f {
        LayoutFn::Layout(l) => layout_call(l, coord),
        LayoutFn::Swizzle(s) => match coord {
            Value::IntTuple(IntTuple::Int(i)) => Ok(Value::int(s.apply(i)?)),
            c => Err(LayoutError::invalid(format!(
                "{s} is a function on integer offsets, not on {} `{c}`",
                c.kind()
            ))),
        },
        LayoutFn::Composed(c) => {
            if !matches!(coord, Value::IntTuple(_)) {
                // CuTe: a coordinate with `_` slices (`L(_, 3) == slice((_, 3), L)`).
                let crd = crate::modes::Coord::from_value(&coord)?;
                return Ok(c.slice_and_offset(&crd)?.0.into());
            }
            let inner = eval_fn(&c.layout_b, coord)?.into_int_tuple()?;
            let sum = match (&c.offset, &inner) {
                (IntTuple::Int(o), IntTuple::Int(i)) => IntTuple::Int(o.add(*i)?),
                (o, i) => {
                    return Err(LayoutError::invalid(format!(
                        "{c}: cannot add the offset {o} to {i} (integers only)"
                    )));
                }
            };
            eval_fn(&c.layout_a, Value::IntTuple(sum))
        }
    }
}

/// `L(c)` for a plain layout, through the layout table's `eval`.
fn layout_call(l: &Layout, coord: Value) -> Result<Value> {
    super::call("eval", &[], vec![Value::Layout(l.clone()), coord])
}

/// A query on the inner function, answered by the table that knows it.
fn query(name: &str, targs: &[i64], inner: Value) -> Result<Value> {
    super::call(name, targs, vec![inner])
}

/// CuTe's two-argument `composition` where one side is a swizzle or a composed layout.
fn compose(a: Value, b: Value) -> Result<Value> {
    match (a, b) {
        (Value::Swizzle(sa), Value::Swizzle(sb)) => Ok(Value::Swizzle(sa.compose(&sb)?)),
        (Value::Swizzle(s), Value::Layout(l)) => {
            s.check()?;
            Ok(composition3(s.into(), IntTuple::s(0), l.into()).into())
        }
        (Value::Swizzle(s), b) => Err(LayoutError::invalid(format!(
            "composition({s},{b}): a swizzle composes with a layout or a swizzle, not with {}",
            b.kind()
        ))),
        (Value::Layout(l), Value::Swizzle(s)) => Ok(composition_layout_swizzle(&l, &s)?.into()),
        (Value::Layout(l), Value::Composed(c)) => {
            if !matches!(c.offset, IntTuple::Int(i) if i.is_static_eq(0)) {
                return Err(LayoutError::invalid(format!(
                    "composition({l},{c}): requires the composed layout's offset to be _0 (static), not {}",
                    c.offset
                )));
            }
            let left = compose(Value::Layout(l), c.layout_a.into())?;
            compose(left, c.layout_b.into())
        }
        (Value::Composed(c), b) => {
            let inner = compose(c.layout_b.into(), b)?;
            let inner = as_fn("composition", &inner)?;
            Ok(composition3(c.layout_a, c.offset, inner).into())
        }
        // Neither side swizzled (reached through a nested composed layout): the layout table's job.
        (a, b) if !is_swizzly(&a) && !is_swizzly(&b) => super::call("composition", &[], vec![a, b]),
        (a, b) => Err(LayoutError::bad_args(
            "composition",
            format!("cannot compose {} `{a}` with {} `{b}`", a.kind(), b.kind()),
        )),
    }
}

fn neg_offset(op: &str, off: &IntTuple) -> Result<IntTuple> {
    match off {
        IntTuple::Int(i) => Ok(IntTuple::Int(i.neg()?)),
        o => Err(LayoutError::bad_args(
            op,
            format!("the offset {o} of a composed layout must be an integer"),
        )),
    }
}

/// CuTe inverts and casts the offset of a composed layout with overloads for static integers only.
fn require_static_offset(op: &str, c: &ComposedLayout) -> Result<()> {
    if c.offset.is_static() {
        return Ok(());
    }
    Err(LayoutError::bad_args(
        op,
        format!(
            "CuTe does not compile {op} of {c}: its offset {} is dynamic",
            c.offset
        ),
    ))
}

/// `right_inverse` / `left_inverse` of a swizzle (itself) or a composed layout
/// (`inv(B) o -OFFSET o inv(A)`, or `inv(B) o A` for a swizzle `A` and a static `_0` offset).
fn inverse(name: &str, f: &LayoutFn) -> Result<Value> {
    match f {
        LayoutFn::Swizzle(s) => Ok(Value::Swizzle(*s)),
        LayoutFn::Layout(l) => super::call(name, &[], vec![Value::Layout(l.clone())]),
        LayoutFn::Composed(c) => {
            require_static_offset(name, c)?;
            let inv_b = inverse(name, &c.layout_b)?;
            let static_zero = matches!(c.offset, IntTuple::Int(i) if i.is_static_eq(0));
            if let (LayoutFn::Swizzle(s), true) = (&c.layout_a, static_zero) {
                return compose(inv_b, Value::Swizzle(*s));
            }
            let inv_a = as_fn(name, &inverse(name, &c.layout_a)?)?;
            let inv_b = as_fn(name, &inv_b)?;
            Ok(composition3(inv_b, neg_offset(name, &c.offset)?, inv_a).into())
        }
    }
}

/// `upcast<n>` / `downcast<n>` of a swizzle, an integer offset, a layout or a composed layout.
fn cast(name: &str, n: i64, f: &LayoutFn) -> Result<LayoutFn> {
    if n <= 0 {
        return Err(LayoutError::bad_args(
            name,
            format!("the factor {n} must be positive"),
        ));
    }
    match f {
        LayoutFn::Swizzle(s) => Ok(LayoutFn::Swizzle(if name == "upcast" {
            s.upcast(n)?
        } else {
            s.downcast(n)?
        })),
        LayoutFn::Layout(l) => {
            let r = super::call(name, &[n], vec![Value::Layout(l.clone())])?;
            as_fn(name, &r)
        }
        LayoutFn::Composed(c) => {
            require_static_offset(&format!("{name}<{n}>"), c)?;
            let off = match &c.offset {
                IntTuple::Int(o) if name == "upcast" => {
                    if o.is_static && o.value % n != 0 {
                        return Err(LayoutError::NotDivisible {
                            what: format!("upcast<{n}> of the offset of {c}"),
                            dividend: o.to_string(),
                            divisor: n.to_string(),
                        });
                    }
                    IntTuple::Int(o.div(Int::s(n))?)
                }
                IntTuple::Int(o) => IntTuple::Int(o.mul(Int::s(n))?),
                o => {
                    return Err(LayoutError::bad_args(
                        name,
                        format!("the offset {o} of a composed layout must be an integer"),
                    ));
                }
            };
            // CuTe's `upcast<N>(_0)` is `C<0u>`, not `Int<0>`, so the overload that drops an identity
            // swizzle does not apply: `Sw<0,0,3> o _0 o L` stays as it is.
            Ok(LayoutFn::Composed(Box::new(ComposedLayout::new(
                cast(name, n, &c.layout_a)?,
                off,
                cast(name, n, &c.layout_b)?,
            ))))
        }
    }
}

fn max_common_vector(a: &Value, b: &Value) -> Result<Value> {
    let cap = |v: Value, m: i64| -> Result<Value> {
        let v = v.into_int()?;
        Ok(Value::int(v.min(Int::s(1i64 << m))))
    };
    match (a, b) {
        (Value::Composed(ca), Value::Composed(cb)) => {
            let (Some(sa), Some(sb)) = (ca.swizzle(), cb.swizzle()) else {
                return Err(unsupported_mcv(a, b));
            };
            let v = super::call(
                "max_common_vector",
                &[],
                vec![ca.layout_b.clone().into(), cb.layout_b.clone().into()],
            )?;
            if sa == sb {
                Ok(v)
            } else {
                cap(cap(v, sa.base)?, sb.base)
            }
        }
        (Value::Composed(c), l @ Value::Layout(_)) | (l @ Value::Layout(_), Value::Composed(c)) => {
            let Some(s) = c.swizzle() else {
                return Err(unsupported_mcv(a, b));
            };
            let v = super::call(
                "max_common_vector",
                &[],
                vec![c.layout_b.clone().into(), l.clone()],
            )?;
            cap(v, s.base)
        }
        _ => Err(unsupported_mcv(a, b)),
    }
}

/// `max_alignment(Sw<B,M,S> o OFF o L) = gcd(2^M, OFF, max_alignment(L))` (a static offset counts
/// as itself, `_0` adds nothing); `_1` when the outer function is not a swizzle (CuTe does not try).
fn max_alignment(c: &ComposedLayout) -> Result<Value> {
    let Some(sw) = c.swizzle() else {
        return Ok(Value::int(Int::s(1)));
    };
    let off = match &c.offset {
        IntTuple::Int(o) if o.is_static => *o,
        o => {
            return Err(LayoutError::NeedsStatic {
                what: format!("max_alignment({c}): the offset"),
                value: o.to_string(),
            });
        }
    };
    let inner = super::call("max_alignment", &[], vec![c.layout_b.clone().into()])?.into_int()?;
    Ok(Value::int(Int::s(1 << sw.base).gcd(off)?.gcd(inner)?))
}

/// `max_common_layout` of a swizzled layout and a layout (either order): the common layout of the
/// inner layouts, cut to the swizzle's `2^M` unswizzled elements.
fn max_common_layout(a: &Value, b: &Value) -> Result<Value> {
    let (c, l) = match (a, b) {
        (Value::Composed(c), l @ Value::Layout(_)) | (l @ Value::Layout(_), Value::Composed(c)) => {
            (c, l)
        }
        _ => {
            return Err(LayoutError::invalid(format!(
                "max_common_layout({a},{b}): defined for a swizzled composed layout and a layout"
            )));
        }
    };
    let Some(sw) = c.swizzle() else {
        return Err(LayoutError::invalid(format!(
            "max_common_layout({a},{b}): the composed layout's outer function is not a swizzle"
        )));
    };
    let common = super::call(
        "max_common_layout",
        &[],
        vec![c.layout_b.clone().into(), l.clone()],
    )?;
    let base = Int::s(1 << sw.base);
    let size = super::call("size", &[], vec![common.clone()])?.into_int()?;
    if base.value < size.value {
        super::call("composition", &[], vec![common, Value::int(base)])
    } else {
        Ok(common)
    }
}

fn unsupported_mcv(a: &Value, b: &Value) -> LayoutError {
    LayoutError::invalid(format!(
        "max_common_vector({a},{b}): defined for swizzled composed layouts and layouts only"
    ))
}

/// Operations that act on the inner layout: `A o OFFSET o op(B, ...)`.
fn rewrap(name: &str, targs: &[i64], args: Vec<Value>) -> Result<Value> {
    if let ("logical_product", [Value::Layout(l), Value::Composed(c)]) = (name, &args[..]) {
        return Ok(crate::swizzle::logical_product_swizzled(l, c)?.into());
    }
    // Without `<N>` CuTe has no composed-layout `append`: its tuple `append` pairs the two values.
    if let ("append", [c @ Value::Composed(_), x], true) = (name, &args[..], targs.is_empty()) {
        return Ok(Value::Tuple(vec![c.clone(), x.clone()]));
    }
    let Some(Value::Composed(c)) = args.first().cloned() else {
        return Err(LayoutError::bad_args(
            name,
            "is defined for a composed layout as its first argument only",
        ));
    };
    if (name == "filter" || name == "append") && args.len() != 2 {
        return Err(LayoutError::bad_args(
            name,
            "of a composed layout takes 2 arguments",
        ));
    }
    let mut inner_args = args;
    inner_args[0] = c.layout_b.clone().into();
    let r = super::call(name, targs, inner_args)?;
    let inner = as_fn(name, &r)?;
    Ok(composition3(c.layout_a, c.offset, inner).into())
}

#[cfg(test)]
mod tests {
    use crate::notation::eval_str;

    fn ev(s: &str) -> String {
        match eval_str(s) {
            Ok(v) => v.to_string(),
            Err(e) => format!("error: {e}"),
        }
    }

    #[test]
    fn swizzle_functor_and_composed_eval() {
        assert_eq!(ev("eval(Sw<3,4,-3>,_32)"), "_288");
        assert_eq!(ev("eval(Sw<3,3,-3>,1234)"), "1106");
        assert_eq!(ev("eval(Sw<3,4,3> o _0 o (_8,_64):(_64,_1),100)"), "300");
        assert_eq!(ev("eval(Sw<3,4,3> o _0 o (_8,_64):(_64,_1),_100)"), "_300");
        assert_eq!(ev("eval(Sw<3,4,3> o _0 o 4:_1,_0)"), "_0");
    }

    #[test]
    fn composition_forms() {
        assert_eq!(
            ev("composition(Sw<3,4,3>,(_8,_64):(_64,_1))"),
            "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"
        );
        assert_eq!(
            ev("composition(Sw<0,4,3>,(_8,_8):(_8,_1))"),
            "(_8,_8):(_8,_1)"
        );
        assert_eq!(
            ev("composition((_4,_4):(_4,_1),Sw<1,0,2>)"),
            "Sw<1,0,-2> o _0 o (_4,_4):(_4,_1)"
        );
        assert_eq!(ev("composition(Sw<1,4,3>,Sw<1,5,3>)"), "Sw<2,4,3>");
        assert!(ev("composition(Sw<1,4,3>,Sw<1,5,2>)").starts_with("error"));
    }

    #[test]
    fn queries_and_casts() {
        assert_eq!(ev("size(Sw<3,4,3> o _0 o (_8,_64):(_64,_1))"), "_512");
        assert_eq!(ev("cosize(Sw<3,0,5> o 0 o (8,4):(1,8))"), "32");
        assert_eq!(
            ev("rank(Sw<2,1,-3> o 0 o ((4,(1,1),8)):((8,(1,1),1)))"),
            "_1"
        );
        assert_eq!(
            ev("shape(Sw<3,3,4> o 0 o (8,2,1,1):(2,1,16,1))"),
            "(8,2,1,1)"
        );
        assert_eq!(ev("make_layout(Sw<3,4,3>)"), "Sw<3,4,3> o _0 o _10:_1");
        assert_eq!(ev("upcast<8>(Sw<3,4,3>)"), "Sw<3,1,3>");
        assert!(ev("size(Sw<3,4,3>)").starts_with("error"));
        assert!(ev("Sw<3,4,2>").starts_with("error"));
    }
}
