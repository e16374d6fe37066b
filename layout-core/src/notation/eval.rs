//! Evaluation of parsed expressions: literals become values, calls go to the builtin tables.

use super::builtins;
use super::parse::{parse_expr, Expr};
use super::value::Value;
use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::swizzle::ComposedLayout;

/// Parse and evaluate one expression in CuTe notation.
///
/// ```
/// use layout_core::notation::eval_str;
/// assert_eq!(eval_str("(4,(3,6)):(1,(4,12))").unwrap().to_string(), "(4,(3,6)):(1,(4,12))");
/// ```
pub fn eval_str(src: &str) -> Result<Value> {
    evaluate(&parse_expr(src)?)
}

/// Parse a literal value (no calls are needed, but they are allowed).
pub fn parse_value(src: &str) -> Result<Value> {
    eval_str(src)
}

/// Evaluate an expression tree.
pub fn evaluate(e: &Expr) -> Result<Value> {
    match e {
        Expr::Int(i) => Ok(Value::int(*i)),
        Expr::Basis(b) => Ok(Value::IntTuple(IntTuple::Basis(b.clone()))),
        Expr::Underscore => Ok(Value::Underscore),
        Expr::Tag(t) => Ok(Value::Tag(*t)),
        Expr::Name(n) => Ok(Value::Name(n.clone())),
        Expr::Swizzle(s) => Ok(Value::Swizzle(*s)),
        Expr::Tuple(v) => Ok(Value::tuple(v.iter().map(evaluate).collect::<Result<_>>()?)),
        Expr::Layout(shape, stride) => {
            let shape = evaluate(shape)?.into_int_tuple()?;
            let stride = evaluate(stride)?.into_int_tuple()?;
            Ok(Value::Layout(Layout::new(shape, stride)?))
        }
        Expr::Composed(sw, off, inner) => {
            let offset = evaluate(off)?.into_int_tuple()?;
            let layout = match evaluate(inner)? {
                Value::Layout(l) => l,
                v => {
                    return Err(LayoutError::invalid(format!(
                        "the inner part of a composed layout must be a layout, found `{v}`"
                    )))
                }
            };
            Ok(Value::Composed(ComposedLayout {
                swizzle: *sw,
                offset,
                layout,
            }))
        }
        Expr::Call { name, targs, args } => {
            let args = args.iter().map(evaluate).collect::<Result<Vec<_>>>()?;
            builtins::call(name, targs, args)
        }
    }
}
