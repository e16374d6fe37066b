//! Notation table for layout construction, queries, coordinates and modes. Calls whose arguments do
//! not fit (e.g. a composed layout for `eval`) return `None` so that another table can take them.

use super::{arity, targ, targ_path};
use crate::coord as crd;
use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::notation::value::Value;
use crate::{construct as cons, modes, query};

pub(super) const NAMES: &[&str] = &[
    "make_layout",
    "make_ordered_layout",
    "make_layout_like",
    "make_fragment_like",
    "compact_col_major",
    "compact_row_major",
    "compact_order",
    "make_identity_layout",
    "size",
    "cosize",
    "rank",
    "depth",
    "shape",
    "stride",
    "coshape",
    "coprofile",
    "get",
    "layout",
    "eval",
    "crd2idx",
    "idx2crd",
    "get_hier_coord",
    "get_flat_coord",
    "get_1d_coord",
    "select",
    "take",
    "group",
    "flatten",
    "unflatten",
    "append",
    "prepend",
    "replace",
    "zip",
    "slice",
    "dice",
    "slice_and_offset",
    "domain_offset",
    "get_swizzle_portion",
    "get_nonswizzle_portion",
];

/// A layout or IntTuple argument, as the mode operations accept both.
enum Modal {
    L(Layout),
    T(IntTuple),
}

fn modal(v: &Value) -> Option<Modal> {
    match v {
        Value::Layout(l) => Some(Modal::L(l.clone())),
        Value::IntTuple(t) => Some(Modal::T(t.clone())),
        _ => None,
    }
}

fn layout_of(v: &Value) -> Option<Layout> {
    match v {
        Value::Layout(l) => Some(l.clone()),
        Value::Composed(c) => c.domain_layout().ok().cloned(),
        _ => None,
    }
}

fn int_tuple(op: &str, v: &Value) -> Result<IntTuple> {
    v.clone()
        .into_int_tuple()
        .map_err(|e| LayoutError::bad_args(op, e.to_string()))
}

fn layout(op: &str, v: &Value) -> Result<Layout> {
    v.clone()
        .into_layout()
        .map_err(|e| LayoutError::bad_args(op, e.to_string()))
}

pub(super) fn call(name: &str, targs: &[i64], args: Vec<Value>) -> Option<Result<Value>> {
    match name {
        // Queries: layouts (and composed layouts, through their inner layout); IntTuples are in tuple.rs.
        "size" | "cosize" | "rank" | "depth" | "shape" | "stride" | "coshape" | "coprofile"
        | "get" | "layout" => {
            let first = args.first()?;
            let l =
                match (name, first) {
                    ("stride" | "coshape" | "coprofile" | "get" | "layout", Value::Composed(_)) => {
                        return None;
                    }
                    ("shape" | "stride", Value::IntTuple(t)) => {
                        return Some(arity(name, &args, &[1]).and_then(|_| {
                            Ok(Value::IntTuple(t.get_path(&targ_path(name, targs)?)?))
                        }));
                    }
                    _ => layout_of(first)?,
                };
            Some(arity(name, &args, &[1]).and_then(|_| query_op(name, targs, &l)))
        }
        "eval" => {
            let Value::Layout(l) = args.first()? else {
                return None;
            };
            Some(eval_op(l, &args[1..]))
        }
        _ => Some(dispatch(name, targs, &args)),
    }
}

fn query_op(name: &str, targs: &[i64], l: &Layout) -> Result<Value> {
    let sub = query::get(l, &targ_path(name, targs)?)?;
    Ok(match name {
        "size" => Value::int(query::size(&sub)?),
        "cosize" => Value::int(query::cosize(&sub)?),
        "rank" => Value::int(query::rank(&sub)),
        "depth" => Value::int(query::depth(&sub)),
        "shape" => Value::IntTuple(query::shape(&sub)),
        "stride" => Value::IntTuple(query::stride(&sub)),
        "coshape" => Value::IntTuple(query::coshape(&sub)?),
        "coprofile" => Value::IntTuple(query::coprofile(&sub)?),
        _ => Value::Layout(sub),
    })
}

fn eval_op(l: &Layout, coords: &[Value]) -> Result<Value> {
    let c = match coords {
        [one] => modes::Coord::from_value(one)?,
        [] => return Err(LayoutError::bad_args("eval", "needs a coordinate")),
        many => modes::Coord::Tuple(
            many.iter()
                .map(modes::Coord::from_value)
                .collect::<Result<_>>()?,
        ),
    };
    match c.to_int_tuple() {
        Some(t) => Ok(Value::IntTuple(crd::eval(l, &t)?)),
        None => Ok(Value::Layout(modes::slice(&c, l)?)),
    }
}

fn opt_targ(name: &str, targs: &[i64]) -> Result<Option<usize>> {
    if targs.is_empty() {
        Ok(None)
    } else {
        targ(name, targs, 0).map(Some)
    }
}

fn dispatch(name: &str, targs: &[i64], args: &[Value]) -> Result<Value> {
    match name {
        "make_layout"
        | "make_ordered_layout"
        | "compact_order"
        | "make_layout_like"
        | "make_fragment_like"
        | "compact_col_major"
        | "compact_row_major"
        | "make_identity_layout" => construct_op(name, args),
        "crd2idx" | "idx2crd" | "get_hier_coord" | "get_flat_coord" | "get_1d_coord" => {
            coord_op(name, args)
        }
        "select" | "take" | "group" | "flatten" | "zip" => {
            let first = args
                .first()
                .ok_or_else(|| LayoutError::bad_args(name, "needs an argument"))?;
            let m = modal(first).ok_or_else(|| {
                LayoutError::bad_args(
                    name,
                    format!("expected a layout or a tuple, found `{}`", args[0]),
                )
            })?;
            modes_op(name, targs, args, m)
        }
        "unflatten" | "append" | "prepend" | "replace" => reshape_op(name, targs, args),
        "get_swizzle_portion" | "get_nonswizzle_portion" | "domain_offset" => {
            portion_op(name, args)
        }
        "slice" | "dice" | "slice_and_offset" => slice_op(name, args),
        _ => unknown(name),
    }
}

fn unknown(name: &str) -> Result<Value> {
    Err(LayoutError::UnknownOperation {
        name: name.into(),
        suggestion: None,
    })
}

/// Constructors: `make_*` and the compact strides.
fn construct_op(name: &str, args: &[Value]) -> Result<Value> {
    match name {
        "make_layout" => make_layout_op(args),
        "make_ordered_layout" | "compact_order" => {
            arity(name, args, &[2])?;
            let (s, o) = (int_tuple(name, &args[0])?, int_tuple(name, &args[1])?);
            Ok(if name == "compact_order" {
                Value::IntTuple(cons::compact_order(&s, &o)?)
            } else {
                Value::Layout(cons::make_ordered_layout(&s, &o)?)
            })
        }
        "make_layout_like" => {
            arity(name, args, &[1])?;
            Ok(Value::Layout(cons::make_layout_like(&layout(
                name, &args[0],
            )?)?))
        }
        "make_fragment_like" => {
            arity(name, args, &[1])?;
            Ok(Value::Layout(match &args[0] {
                Value::IntTuple(s) => cons::make_fragment_like_shape(s)?,
                v => cons::make_fragment_like(&layout(name, v)?)?,
            }))
        }
        "compact_col_major" | "compact_row_major" => {
            arity(name, args, &[1, 2])?;
            let s = int_tuple(name, &args[0])?;
            let cur = args.get(1).map(|c| int_tuple(name, c)).transpose()?;
            Ok(Value::IntTuple(if name == "compact_col_major" {
                cons::compact_col_major(&s, cur.as_ref())?
            } else {
                cons::compact_row_major(&s, cur.as_ref())?
            }))
        }
        "make_identity_layout" => {
            arity(name, args, &[1])?;
            Ok(Value::Layout(cons::make_identity_layout(&int_tuple(
                name, &args[0],
            )?)?))
        }
        _ => unknown(name),
    }
}

/// Coordinates and indices.
fn coord_op(name: &str, args: &[Value]) -> Result<Value> {
    match name {
        "crd2idx" => {
            arity(name, args, &[2, 3])?;
            let coord = modes::Coord::from_value(&args[0])?;
            let Some(c) = coord.to_int_tuple() else {
                // `_` in a coordinate counts as a static zero (CuTe's crd2idx of Underscore).
                let (s, d) = match (&args[1], args.get(2)) {
                    (Value::Layout(l), None) => (l.shape().clone(), l.stride().clone()),
                    (s, Some(d)) => (int_tuple(name, s)?, int_tuple(name, d)?),
                    _ => {
                        return Err(LayoutError::bad_args(
                            name,
                            "a coordinate with `_` needs a layout or a shape and a stride",
                        ));
                    }
                };
                return Ok(Value::IntTuple(modes::slice_offset(&coord, &s, &d)?));
            };
            match &args[1] {
                Value::Layout(l) if args.len() == 2 => Ok(Value::IntTuple(crd::eval(l, &c)?)),
                s => {
                    let s = int_tuple(name, s)?;
                    Ok(Value::IntTuple(match args.get(2) {
                        Some(d) => crd::crd2idx(&c, &s, &int_tuple(name, d)?)?,
                        None => crd::crd2idx_colex(&c, &s)?,
                    }))
                }
            }
        }
        "idx2crd" => {
            arity(name, args, &[2, 3])?;
            let i = int_tuple(name, &args[0])?;
            let s = int_tuple(name, &args[1])?;
            Ok(Value::IntTuple(match args.get(2) {
                Some(d) => crd::idx2crd(&i, &s, &int_tuple(name, d)?)?,
                None => crd::idx2crd_colex(&i, &s)?,
            }))
        }
        "get_hier_coord" | "get_flat_coord" | "get_1d_coord" => {
            arity(name, args, &[2])?;
            let l = layout(name, &args[0])?;
            let i = int_tuple(name, &args[1])?;
            Ok(Value::IntTuple(match name {
                "get_hier_coord" => crd::get_hier_coord(&l, &i)?,
                "get_flat_coord" => crd::get_flat_coord(&l, &i)?,
                _ => crd::get_1d_coord(&l, &i)?,
            }))
        }
        _ => unknown(name),
    }
}

/// Modes rewritten: `unflatten`, `append`/`prepend`, `replace`.
fn reshape_op(name: &str, targs: &[i64], args: &[Value]) -> Result<Value> {
    match name {
        "unflatten" => unflatten_op(name, args),
        "append" | "prepend" => {
            arity(name, args, &[1, 2])?;
            let n = opt_targ(name, targs)?;
            match modal(&args[0]) {
                Some(Modal::L(l)) => {
                    let x = args.get(1).map(|x| layout(name, x)).transpose()?;
                    Ok(Value::Layout(if name == "append" {
                        modes::append(&l, x.as_ref(), n)?
                    } else {
                        modes::prepend(&l, x.as_ref(), n)?
                    }))
                }
                Some(Modal::T(t)) => {
                    let x = match args.get(1) {
                        Some(x) => int_tuple(name, x)?,
                        None => IntTuple::s(1),
                    };
                    Ok(Value::IntTuple(if name == "append" {
                        modes::append_tuple(&t, &x, n)?
                    } else {
                        modes::prepend_tuple(&t, &x, n)?
                    }))
                }
                None => Err(LayoutError::bad_args(name, "expected a layout or a tuple")),
            }
        }
        "replace" => {
            arity(name, args, &[2])?;
            let n = targ(name, targs, 0)?;
            match modal(&args[0]) {
                Some(Modal::L(l)) => match &args[1] {
                    Value::Layout(x) => Ok(Value::Layout(modes::replace(&l, n, x)?)),
                    x => replace_whole(&args[0], n, x),
                },
                Some(Modal::T(t)) => Ok(Value::IntTuple(modes::replace_tuple(
                    &t,
                    n,
                    &int_tuple(name, &args[1])?,
                )?)),
                None => Err(LayoutError::bad_args(name, "expected a layout or a tuple")),
            }
        }
        _ => unknown(name),
    }
}

/// `unflatten(L, profile)` and `unflatten(t, profile)`.
fn unflatten_op(name: &str, args: &[Value]) -> Result<Value> {
    arity(name, args, &[2])?;
    let p = int_tuple(name, &args[1])?;
    Ok(match modal(&args[0]) {
        Some(Modal::L(l)) => {
            unflattenable(l.shape())?;
            unflattenable(l.stride())?;
            Value::Layout(modes::unflatten(&l, &p)?)
        }
        Some(Modal::T(t)) => {
            unflattenable(&t)?;
            Value::IntTuple(modes::unflatten_tuple(&t, &p)?)
        }
        None => return Err(LayoutError::bad_args(name, "expected a layout or a tuple")),
    })
}

/// CuTe's `unflatten` takes the `rank` of its flat tuple by argument-dependent lookup, which finds
/// nothing for a plain dynamic `int`: only a tuple or a static integer can be unflattened.
fn unflattenable(t: &IntTuple) -> Result<()> {
    match t {
        IntTuple::Int(i) if !i.is_static => Err(LayoutError::invalid(format!(
            "unflatten: {t} is a dynamic integer, not a tuple (CuTe needs a tuple or a static integer)"
        ))),
        _ => Ok(()),
    }
}

/// `replace<n>(v, x)` where CuTe has no overload for the pair (a layout and a non-layout, or a
/// composed layout): its tuple `replace` sees `v` as a single element, so `n` must be 0 and the
/// result is `x` itself.
pub(super) fn replace_whole(v: &Value, n: usize, x: &Value) -> Result<Value> {
    if n == 0 {
        Ok(x.clone())
    } else {
        Err(LayoutError::invalid(format!(
            "replace<{n}> of `{v}` by `{x}`: CuTe sees `{v}` as a single element here, so only \
             replace<0> applies"
        )))
    }
}

/// A plain layout's swizzle and non-swizzle portions, `domain_offset`.
fn portion_op(name: &str, args: &[Value]) -> Result<Value> {
    match name {
        // A plain layout's swizzle portion is the identity `Sw<0,4,3>`; the rest is the layout.
        "get_swizzle_portion" => {
            arity(name, args, &[1])?;
            layout(name, &args[0])?;
            Ok(Value::Swizzle(crate::Swizzle::new(0, 4, 3)?))
        }
        "get_nonswizzle_portion" => {
            arity(name, args, &[1])?;
            Ok(Value::Layout(layout(name, &args[0])?))
        }
        "domain_offset" => {
            // CuTe: `(L, L(c))` for a plain layout (a composed layout moves its offset instead).
            arity(name, args, &[2])?;
            let l = layout(name, &args[1])?;
            let at = eval_op(&l, &args[..1])?;
            Ok(Value::Tuple(vec![Value::Layout(l), at]))
        }
        _ => unknown(name),
    }
}

/// `slice`, `dice`, `slice_and_offset` of a layout or a tuple.
fn slice_op(name: &str, args: &[Value]) -> Result<Value> {
    match name {
        "slice" | "dice" | "slice_and_offset" => {
            arity(name, args, &[2])?;
            let c = modes::Coord::from_value(&args[0])?;
            match (name, modal(&args[1])) {
                ("slice", Some(Modal::L(l))) => Ok(Value::Layout(modes::slice(&c, &l)?)),
                ("dice", Some(Modal::L(l))) => Ok(Value::Layout(modes::dice(&c, &l)?)),
                ("slice", Some(Modal::T(t))) => Ok(Value::IntTuple(modes::slice_tuple(&c, &t)?)),
                ("dice", Some(Modal::T(t))) => Ok(Value::IntTuple(modes::dice_tuple(&c, &t)?)),
                ("slice_and_offset", Some(Modal::L(l))) => {
                    let (s, off) = modes::slice_and_offset(&c, &l)?;
                    Ok(Value::Tuple(vec![Value::Layout(s), Value::IntTuple(off)]))
                }
                _ => Err(LayoutError::bad_args(
                    name,
                    format!(
                        "expected a layout as the second argument, found `{}`",
                        args[1]
                    ),
                )),
            }
        }
        _ => unknown(name),
    }
}

fn modes_op(name: &str, targs: &[i64], args: &[Value], m: Modal) -> Result<Value> {
    if name == "zip" {
        let ls: Option<Vec<Layout>> = args
            .iter()
            .map(|a| match a {
                Value::Layout(l) => Some(l.clone()),
                _ => None,
            })
            .collect();
        return match (ls, m) {
            // CuTe's layout `zip` takes one or two layouts; more go to its tuple `zip`, which sees
            // each layout as one element and so wraps them: `((L0,L1,L2))`.
            (Some(ls), _) if ls.len() > 2 => Ok(Value::Tuple(vec![Value::Tuple(args.to_vec())])),
            (Some(ls), _) => Ok(Value::Layout(modes::zip(&ls)?)),
            (None, Modal::T(t)) if args.len() == 1 => Ok(Value::IntTuple(modes::zip_tuple(&t)?)),
            (None, _) => {
                let ts = args
                    .iter()
                    .map(|a| int_tuple(name, a))
                    .collect::<Result<Vec<_>>>()?;
                Ok(Value::IntTuple(modes::zip_tuple(&IntTuple::Tuple(ts))?))
            }
        };
    }
    arity(name, args, &[1])?;
    let range = |k: usize| -> Result<(usize, usize)> {
        let b = targ(name, targs, 0)?;
        let e = match targs.get(1) {
            Some(-1) => k,
            _ => targ(name, targs, 1)?,
        };
        Ok((b, e))
    };
    let f = |t: &IntTuple| -> Result<IntTuple> {
        match name {
            "select" => modes::select_tuple(t, &targ_path(name, targs)?),
            "take" => {
                let (b, e) = range(t.rank())?;
                modes::take_tuple(t, b, e)
            }
            "group" => {
                let (b, e) = range(t.rank())?;
                modes::group_tuple(t, b, e)
            }
            _ => Ok(t.flatten()),
        }
    };
    Ok(match m {
        Modal::L(l) if name == "take" => {
            let (b, e) = range(l.shape().rank())?;
            Value::Layout(modes::take(&l, b, e)?)
        }
        Modal::L(l) => Value::Layout(Layout::new(f(l.shape())?, f(l.stride())?)?),
        Modal::T(t) => Value::IntTuple(f(&t)?),
    })
}

fn make_layout_op(args: &[Value]) -> Result<Value> {
    let name = "make_layout";
    match args {
        [] => Err(LayoutError::bad_args(name, "needs at least one argument")),
        [Value::IntTuple(s)] => Ok(Value::Layout(cons::make_layout(s)?)),
        [Value::IntTuple(s), Value::Tag(t)] => Ok(Value::Layout(cons::make_layout_major(s, *t)?)),
        [Value::IntTuple(s), Value::IntTuple(d)] => {
            Ok(Value::Layout(Layout::new(s.clone(), d.clone())?))
        }
        ls if ls.iter().all(|v| matches!(v, Value::Layout(_))) => {
            let ls: Vec<Layout> = ls.iter().filter_map(layout_of).collect();
            Ok(Value::Layout(cons::make_layout_from(&ls)))
        }
        _ => Err(LayoutError::bad_args(
            name,
            "expected make_layout(shape), make_layout(shape, stride), make_layout(shape, LayoutLeft|LayoutRight) or make_layout(L0, L1, ...)",
        )),
    }
}
