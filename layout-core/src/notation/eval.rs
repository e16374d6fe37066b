//! Evaluation of parsed expressions: literals become values, calls go to the builtin tables.
#![deny(clippy::arithmetic_side_effects)] // integers here come from users: checked only

use super::builtins;
use super::parse::{Expr, parse_expr};
use super::value::Value;
use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::limits;
use crate::swizzle::{ComposedLayout, LayoutFn};

/// Parse and evaluate one expression in CuTe notation.
///
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("(4,(3,6)):(1,(4,12))").unwrap().to_string(), "(4,(3,6)):(1,(4,12))");
/// ```
///
/// A bare word as the whole result must name something the notation knows (an MMA or copy
/// operation, a GMMA shared-memory atom or a value type): `foo` alone is an error.
pub fn eval_str(src: &str) -> Result<Value> {
    let v = evaluate(&parse_expr(src)?)?;
    if let Value::Name(n) = &v {
        check_known_name(n)?;
    }
    Ok(v)
}

/// An error unless `name` is an MMA or copy operation, a GMMA smem atom or a value type.
fn check_known_name(name: &str) -> Result<()> {
    use crate::atom::{CopyTraits, MmaTraits, gmma, type_bits};
    let known = MmaTraits::from_name(name).is_ok()
        || CopyTraits::from_name(name).is_ok()
        || gmma::smem_atom_by_name(name).is_ok()
        || type_bits(name).is_ok();
    if known {
        return Ok(());
    }
    Err(LayoutError::invalid(format!(
        "unknown name `{}`: not an operation, type or atom the notation knows (a call needs parentheses: name(...))",
        crate::limits::clip(name)
    )))
}

/// Parse a literal value (no calls are needed, but they are allowed).
///
/// ```
/// use cute_layout_core::notation::parse_value;
/// assert_eq!(parse_value("(4,(3,6)):(1,(4,12))").unwrap().to_string(), "(4,(3,6)):(1,(4,12))");
/// ```
pub fn parse_value(src: &str) -> Result<Value> {
    eval_str(src)
}

/// Evaluate an expression tree.
///
/// ```
/// use cute_layout_core::notation::{evaluate, parse_expr};
/// let e = parse_expr("logical_divide(_24:_1,_4:_2)").unwrap();
/// assert_eq!(evaluate(&e).unwrap().to_string(), "(_4,(_2,_3)):(_2,(_1,_8))");
/// ```
pub fn evaluate(e: &Expr) -> Result<Value> {
    match e {
        Expr::Int(i) => Ok(Value::int(*i)),
        Expr::Basis(b) => Ok(Value::IntTuple(IntTuple::Basis(b.clone()))),
        Expr::Underscore => Ok(Value::Underscore),
        Expr::Tag(t) => Ok(Value::Tag(*t)),
        Expr::Name(n) => Ok(Value::Name(n.clone())),
        Expr::Tuple(v) => Ok(Value::tuple(v.iter().map(evaluate).collect::<Result<_>>()?)),
        Expr::Layout(shape, stride) => {
            let shape = evaluate(shape)?.into_int_tuple()?;
            let stride = evaluate(stride)?.into_int_tuple()?;
            Ok(Value::Layout(Layout::new(shape, stride)?))
        }
        Expr::Composed(sw, off, inner) => {
            sw.check()?;
            let offset = evaluate(off)?.into_int_tuple()?;
            let inner = evaluate(inner)?;
            let layout_b = LayoutFn::from_value(&inner).ok_or_else(|| {
                LayoutError::invalid(format!(
                    "the inner part of a composed layout must be a layout, a swizzle or a composed layout, found `{inner}`"
                ))
            })?;
            Ok(Value::Composed(ComposedLayout::new(*sw, offset, layout_b)))
        }
        Expr::Swizzle(s) => {
            s.check()?;
            Ok(Value::Swizzle(*s))
        }
        Expr::Call { name, targs, args } => {
            let args = args.iter().map(evaluate).collect::<Result<Vec<_>>>()?;
            let v = builtins::call(name, targs, args)?;
            limits::check_value(&format!("the result of {}", limits::clip(name)), &v)?;
            Ok(v)
        }
    }
}
