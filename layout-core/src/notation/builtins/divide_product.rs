//! Notation table for divides, products and the vectorization queries (`divide.rs`, `product.rs`,
//! `vector.rs`).

use super::{arity, targ};
use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::notation::value::Value;
use crate::tiler::Tiler;
use crate::{divide, product, vector};

pub(super) const NAMES: &[&str] = &[
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "logical_product",
    "zipped_product",
    "tiled_product",
    "flat_product",
    "blocked_product",
    "raked_product",
    "tile_to_shape",
    "max_common_vector",
    "max_common_layout",
    "nullspace",
    "domain_distribute",
    "upcast",
    "downcast",
    "recast_layout",
    "max_alignment",
];

fn layout_arg(op: &str, v: Value, which: &str) -> Result<Layout> {
    match v {
        Value::Layout(l) => Ok(l),
        v => Err(LayoutError::bad_args(
            op,
            format!(
                "the {which} must be a layout SHAPE:STRIDE, found {} `{v}`",
                v.kind()
            ),
        )),
    }
}

fn shape_arg(op: &str, v: Value, which: &str) -> Result<IntTuple> {
    match v {
        Value::IntTuple(t) => Ok(t),
        Value::Layout(l) => Ok(l.shape().clone()),
        v => Err(LayoutError::bad_args(
            op,
            format!("the {which} must be a shape, found {} `{v}`", v.kind()),
        )),
    }
}

fn tiler_arg(v: Value) -> Result<Tiler> {
    v.into_tiler()
}

pub(super) fn call(name: &str, targs: &[i64], args: Vec<Value>) -> Option<Result<Value>> {
    Some(dispatch(name, targs, args))
}

fn dispatch(name: &str, targs: &[i64], args: Vec<Value>) -> Result<Value> {
    if let Some(f) = tiler_op(name) {
        arity(name, &args, &[2])?;
        let mut it = args.into_iter();
        let l = layout_arg(
            name,
            it.next().ok_or_else(|| LayoutError::internal("arity"))?,
            "first argument",
        )?;
        let t = tiler_arg(it.next().ok_or_else(|| LayoutError::internal("arity"))?)?;
        return Ok(Value::Layout(f(&l, &t)?));
    }
    let mut it = args.clone().into_iter();
    let mut next = || {
        it.next()
            .ok_or_else(|| LayoutError::internal("arity checked"))
    };
    match name {
        "blocked_product" | "raked_product" => {
            arity(name, &args, &[2])?;
            let a = layout_arg(name, next()?, "block")?;
            let b = layout_arg(name, next()?, "tiler")?;
            let f = if name == "blocked_product" {
                product::blocked_product
            } else {
                product::raked_product
            };
            Ok(Value::Layout(f(&a, &b)?))
        }
        "tile_to_shape" => {
            arity(name, &args, &[2, 3])?;
            let block = layout_arg(name, next()?, "block")?;
            let target = shape_arg(name, next()?, "target shape")?;
            let order = if args.len() == 3 {
                Some(shape_arg(name, next()?, "mode order")?)
            } else {
                None
            };
            Ok(Value::Layout(product::tile_to_shape(
                &block,
                &target,
                order.as_ref(),
            )?))
        }
        _ => vector_call(name, targs, args),
    }
}

/// The divides and products that take a layout and a tiler.
fn tiler_op(name: &str) -> Option<fn(&Layout, &Tiler) -> Result<Layout>> {
    Some(match name {
        "logical_divide" => divide::logical_divide,
        "zipped_divide" => divide::zipped_divide,
        "tiled_divide" => divide::tiled_divide,
        "flat_divide" => divide::flat_divide,
        "logical_product" => product::logical_product,
        "zipped_product" => product::zipped_product,
        "tiled_product" => product::tiled_product,
        "flat_product" => product::flat_product,
        _ => return None,
    })
}

/// The vectorization queries and recasts (`max_common_vector`, `upcast`, ...).
fn vector_call(name: &str, targs: &[i64], args: Vec<Value>) -> Result<Value> {
    let mut it = args.clone().into_iter();
    let mut next = || {
        it.next()
            .ok_or_else(|| LayoutError::internal("arity checked"))
    };
    match name {
        "max_common_vector" | "max_common_layout" => {
            arity(name, &args, &[2])?;
            let a = layout_arg(name, next()?, "first argument")?;
            let b = layout_arg(name, next()?, "second argument")?;
            if name == "max_common_vector" {
                Ok(Value::int(vector::max_common_vector(&a, &b)?))
            } else {
                Ok(Value::Layout(vector::max_common_layout(&a, &b)?))
            }
        }
        "nullspace" => {
            arity(name, &args, &[1])?;
            Ok(Value::Layout(vector::nullspace(&layout_arg(
                name,
                next()?,
                "argument",
            )?)?))
        }
        "max_alignment" => {
            arity(name, &args, &[1])?;
            Ok(Value::int(vector::max_alignment(&layout_arg(
                name,
                next()?,
                "argument",
            )?)?))
        }
        "domain_distribute" => {
            arity(name, &args, &[2])?;
            let a = shape_arg(name, next()?, "shape")?;
            let b = shape_arg(name, next()?, "count")?;
            Ok(Value::Layout(vector::domain_distribute(&a, &b)?))
        }
        "upcast" | "downcast" => {
            arity(name, &args, &[1])?;
            let n = targ(name, targs, 0)? as i64;
            let l = layout_arg(name, next()?, "argument")?;
            let f = if name == "upcast" {
                vector::upcast
            } else {
                vector::downcast
            };
            Ok(Value::Layout(f(n, &l)?))
        }
        "recast_layout" => {
            arity(name, &args, &[1])?;
            let (a, b) = super::recast_widths(name, targs)?;
            let l = layout_arg(name, next()?, "argument")?;
            Ok(Value::Layout(vector::recast_layout(a, b, &l)?))
        }
        _ => Err(LayoutError::UnknownOperation {
            name: name.into(),
            suggestion: None,
        }),
    }
}
