//! Notation table for IntTuple operations. Calls on layouts fall through to the layout table.

use super::{arity, targ_path};
use crate::error::Result;
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::notation::value::Value;
use crate::tuple_ops as ops;

pub(super) const NAMES: &[&str] = &[
    "product",
    "product_each",
    "sum",
    "inner_product",
    "shape_div",
    "ceil_div",
    "round_up",
    "elem_scale",
    "congruent",
    "weakly_congruent",
    "compatible",
    "evenly_divides",
    "make_tile",
    "elem_less",
    "colex_less",
    "max",
    "min",
    "gcd",
    "size",
    "rank",
    "depth",
    "get",
];

fn tuples(args: Vec<Value>) -> Option<Vec<IntTuple>> {
    args.into_iter()
        .map(|a| match a {
            Value::IntTuple(t) => Some(t),
            _ => None,
        })
        .collect()
}

pub(super) fn call(name: &str, targs: &[i64], args: Vec<Value>) -> Option<Result<Value>> {
    if name == "make_tile" {
        return Some(Ok(Value::tuple(args)));
    }
    // A shape divided by a tiler (layouts, integers, `_`, tuples of them); a layout target counts
    // by its shape, as CuTe's `shape(target)`.
    if let ("ceil_div" | "evenly_divides", [target, tiler]) = (name, &args[..])
        && !matches!(tiler, Value::IntTuple(_))
    {
        let shape = match target {
            Value::IntTuple(t) => t,
            Value::Layout(l) => l.shape(),
            _ => return None,
        };
        return Some(tiler_op(name, shape, tiler.clone()));
    }
    // Only calls whose arguments are all IntTuples belong here; layouts go to the layout table.
    let t = tuples(args.clone())?;
    Some(dispatch(name, targs, &args, &t))
}

/// `ceil_div` / `evenly_divides` of a shape by a tiler.
fn tiler_op(name: &str, shape: &IntTuple, tiler: Value) -> Result<Value> {
    let tiler = tiler
        .into_tiler()
        .map_err(|e| crate::error::LayoutError::bad_args(name, e.to_string()))?;
    Ok(if name == "ceil_div" {
        Value::IntTuple(crate::tiler_div::ceil_div_tiler(shape, &tiler)?)
    } else {
        Value::int(crate::tiler_div::evenly_divides_tiler(shape, &tiler)?)
    })
}

fn dispatch(name: &str, targs: &[i64], args: &[Value], t: &[IntTuple]) -> Result<Value> {
    let two = |f: fn(&IntTuple, &IntTuple) -> Result<IntTuple>| -> Result<Value> {
        arity(name, args, &[2])?;
        Ok(Value::IntTuple(f(&t[0], &t[1])?))
    };
    let pred = |f: fn(&IntTuple, &IntTuple) -> Result<Int>| -> Result<Value> {
        arity(name, args, &[2])?;
        Ok(Value::int(f(&t[0], &t[1])?))
    };
    let path = targ_path(name, targs)?;
    let sub = |t: &IntTuple| t.get_path(&path);
    match name {
        "product" | "size" => {
            arity(name, args, &[1])?;
            Ok(Value::int(ops::product(&sub(&t[0])?)?))
        }
        "product_each" => {
            arity(name, args, &[1])?;
            Ok(Value::IntTuple(ops::product_each(&t[0])?))
        }
        "sum" => {
            arity(name, args, &[1])?;
            Ok(Value::int(ops::sum(&t[0])?))
        }
        "rank" => {
            arity(name, args, &[1])?;
            Ok(Value::int(Int::s(sub(&t[0])?.rank() as i64)))
        }
        "depth" => {
            arity(name, args, &[1])?;
            Ok(Value::int(Int::s(sub(&t[0])?.depth() as i64)))
        }
        "get" => {
            arity(name, args, &[1])?;
            Ok(Value::IntTuple(sub(&t[0])?))
        }
        "inner_product" => pred(ops::inner_product),
        "shape_div" => two(ops::shape_div),
        "ceil_div" => two(ops::ceil_div),
        "round_up" => two(ops::round_up),
        "elem_scale" => two(ops::elem_scale),
        "congruent" => pred(|a, b| Ok(ops::congruent(a, b))),
        "weakly_congruent" => pred(|a, b| Ok(ops::weakly_congruent(a, b))),
        "compatible" => pred(ops::compatible),
        "evenly_divides" => {
            arity(name, args, &[2])?;
            tiler_op(name, &t[0], args[1].clone())
        }
        "elem_less" => pred(ops::elem_less),
        "colex_less" => pred(ops::colex_less),
        "max" => Ok(Value::int(ops::max(t)?)),
        "min" => Ok(Value::int(ops::min(t)?)),
        "gcd" => Ok(Value::int(ops::gcd(t)?)),
        _ => unreachable!("name listed in NAMES"),
    }
}
