//! Notation table for the core algebra: coalesce, filter, composition, complement and inverses.
//! Calls on swizzles and composed layouts are left to the swizzle table.

use super::arity;
use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::notation::value::Value;
use crate::{coalesce as co, complement as cm, composition as cp, inverse as inv};

pub(super) const NAMES: &[&str] = &[
    "coalesce",
    "filter",
    "filter_zeros",
    "composition",
    "with_shape",
    "complement",
    "right_inverse",
    "left_inverse",
];

fn is_swizzled(v: &Value) -> bool {
    match v {
        Value::Swizzle(_) | Value::Composed(_) => true,
        Value::Tuple(xs) => xs.iter().any(is_swizzled),
        _ => false,
    }
}

/// How a value is named in an error: its kind and its notation.
fn describe(v: &Value) -> String {
    match v {
        Value::Underscore => "`_`".to_string(),
        v => format!("{} `{v}`", v.kind()),
    }
}

fn layout_arg(name: &str, v: Value) -> Result<Layout> {
    match v {
        Value::Layout(l) => Ok(l),
        v => Err(LayoutError::bad_args(
            name,
            format!("expects a layout SHAPE:STRIDE, found {}", describe(&v)),
        )),
    }
}

fn tuple_arg(name: &str, v: Value) -> Result<IntTuple> {
    match v {
        Value::IntTuple(t) => Ok(t),
        // A layout where a shape is expected stands for its shape (CuTe's `shape(x)`).
        Value::Layout(l) => Ok(l.shape().clone()),
        v => Err(LayoutError::bad_args(
            name,
            format!(
                "expects an integer or a tuple of integers, found {}",
                describe(&v)
            ),
        )),
    }
}

pub(super) fn call(name: &str, _targs: &[i64], args: Vec<Value>) -> Option<Result<Value>> {
    if args.iter().any(is_swizzled) {
        return None;
    }
    Some(dispatch(name, args))
}

fn dispatch(name: &str, args: Vec<Value>) -> Result<Value> {
    let counts: &[usize] = match name {
        "right_inverse" | "left_inverse" => &[1],
        "composition" | "with_shape" => &[2],
        _ => &[1, 2],
    };
    arity(name, &args, counts)?;
    let mut it = args.into_iter();
    let first = it
        .next()
        .ok_or_else(|| LayoutError::internal("arity checked"))?;
    let second = it.next();
    let out: Value = match (name, first, second) {
        ("coalesce", Value::IntTuple(t), None) => co::coalesce_shape(&t)?.into(),
        ("coalesce", l, None) => co::coalesce(&layout_arg(name, l)?)?.into(),
        ("coalesce", l, Some(p)) => {
            co::coalesce_by_mode(&layout_arg(name, l)?, &tuple_arg(name, p)?)?.into()
        }
        ("filter", l, None) => co::filter(&layout_arg(name, l)?)?.into(),
        ("filter", l, Some(p)) => {
            co::filter_by_mode(&layout_arg(name, l)?, &tuple_arg(name, p)?)?.into()
        }
        ("filter_zeros", Value::IntTuple(t), None) => co::filter_zeros_tuple(&t, &t)?.into(),
        ("filter_zeros", Value::IntTuple(a), Some(b)) => {
            co::filter_zeros_tuple(&a, &tuple_arg(name, b)?)?.into()
        }
        ("filter_zeros", l, None) => co::filter_zeros(&layout_arg(name, l)?)?.into(),
        ("filter_zeros", l, Some(p)) => {
            co::filter_zeros_by(&layout_arg(name, l)?, &tuple_arg(name, p)?)?.into()
        }
        ("composition", a, Some(b)) => {
            let a = layout_arg(name, a)?;
            cp::composition(&a, &b.into_tiler()?)?.into()
        }
        ("with_shape", l, Some(s)) => {
            let (l, s) = (layout_arg(name, l)?, tuple_arg(name, s)?);
            if matches!(s, IntTuple::Int(n) if !n.is_static) {
                // Layout::with_shape calls make_layout unqualified before CuTe declares it, and a
                // plain int brings no namespace for the lookup to search
                return Err(LayoutError::bad_args(
                    name,
                    format!(
                        "CuTe does not compile {l}.with_shape({s}) with the dynamic integer {s} \
                         (its unqualified make_layout call finds no overload for an int)"
                    ),
                ));
            }
            cp::with_shape(&l, &s)?.into()
        }
        ("complement", l, None) => cm::complement_default(&layout_arg(name, l)?)?.into(),
        ("complement", l, Some(c)) => {
            cm::complement(&layout_arg(name, l)?, &tuple_arg(name, c)?)?.into()
        }
        ("right_inverse" | "left_inverse", Value::Underscore, None) => Value::Underscore,
        ("right_inverse", l, None) => inv::right_inverse(&layout_arg(name, l)?)?.into(),
        ("left_inverse", l, None) => inv::left_inverse(&layout_arg(name, l)?)?.into(),
        _ => return Err(LayoutError::bad_args(name, "unexpected arguments")),
    };
    Ok(out)
}
