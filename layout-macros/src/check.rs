//! Static checks with spans (congruence, extents, names), conversion to layout-core's expression
//! tree, and evaluation by layout-core's own evaluator with the failing call located.

use crate::diag::Diag;
use crate::parse::{Node, TagKind};
use cute_layout_core::notation::{Expr, Tag, Value, evaluate, operation_names};
use cute_layout_core::{Int, IntTuple, LayoutError, ScaledBasis, Swizzle};
use proc_macro2::Span;
use std::collections::{BTreeMap, HashSet};
use std::sync::OnceLock;

/// Definitions of a `layouts!` block seen so far (`None`: the definition failed; do not report again).
pub type Env = BTreeMap<String, Option<Value>>;

/// Where a tree is checked.
pub struct Ctx<'a> {
    /// Names defined earlier in a `layouts!` block (None outside `layouts!`).
    pub env: Option<&'a Env>,
    /// Why `{expr}` leaves are refused here (None: allowed).
    pub no_dyn: Option<&'static str>,
}

fn path_text(path: &[usize]) -> String {
    path.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(".")
}

/// Every static mistake in the tree, each at its own token.
pub fn validate(node: &Node, ctx: &Ctx, out: &mut Vec<Diag>) {
    match node {
        Node::Layout { shape, stride } => {
            congruence(shape, stride, &mut vec![], out);
            extents(shape, &mut vec![], out);
            validate(shape, ctx, out);
            validate(stride, ctx, out);
        }
        Node::Tuple { elems, .. } => elems.iter().for_each(|e| validate(e, ctx, out)),
        Node::Call { name, span, args, .. } => {
            if !is_operation(name) {
                out.push(Diag::new(*span, unknown_operation(name)));
            }
            args.iter().for_each(|e| validate(e, ctx, out));
        }
        Node::Composed { sw, offset, inner } => {
            validate(sw, ctx, out);
            validate(offset, ctx, out);
            validate(inner, ctx, out);
        }
        Node::Dyn { span, expr } => {
            if let Some(why) = ctx.no_dyn {
                out.push(Diag::new(*span, format!("`{{{expr}}}` is a run-time value, but {why}")));
            }
        }
        Node::Ref { name, span } => match ctx.env {
            Some(env) if env.contains_key(name) => {}
            Some(env) => {
                let near = env.keys().min_by_key(|k| cute_layout_core::notation::edit_distance(name, k)).filter(|k| cute_layout_core::notation::edit_distance(name, k) <= 2);
                let hint = match near {
                    Some(k) => format!("; did you mean `{k}`?"),
                    None if env.is_empty() => String::new(),
                    None => format!(" (defined so far: {})", env.keys().cloned().collect::<Vec<_>>().join(", ")),
                };
                out.push(Diag::new(*span, format!("`{name}` is not defined earlier in this layouts! block{hint}")));
            }
            None => out.push(Diag::new(
                *span,
                format!(
                    "malformed layout notation: `{name}` is not an integer, `_`, a tuple or an operation call `{name}(...)`{}",
                    if is_operation(name) { "" } else { " (a name can refer only to an earlier definition of a layouts! block)" }
                ),
            )),
        },
        _ => {}
    }
}

/// Whether the evaluator knows the operation `name` (the set is built once per compiler process: the
/// proc macro stays loaded across invocations).
fn is_operation(name: &str) -> bool {
    static NAMES: OnceLock<HashSet<&'static str>> = OnceLock::new();
    NAMES
        .get_or_init(|| operation_names().into_iter().collect())
        .contains(name)
}

fn unknown_operation(name: &str) -> String {
    // The evaluator's own message (with its nearest-name suggestion).
    let probe = Expr::Call {
        name: name.to_string(),
        targs: vec![],
        args: vec![],
    };
    match evaluate(&probe) {
        Err(e @ LayoutError::UnknownOperation { .. }) => e.to_string(),
        _ => format!("unknown operation `{name}`"),
    }
}

fn is_literal(n: &Node) -> bool {
    matches!(
        n,
        Node::Int { .. } | Node::Dyn { .. } | Node::Basis { .. } | Node::Tuple { .. }
    )
}

fn congruence(shape: &Node, stride: &Node, path: &mut Vec<usize>, out: &mut Vec<Diag>) {
    if !is_literal(shape) || !is_literal(stride) {
        return; // an operation or a name: the evaluator checks it
    }
    let ok = match (shape, stride) {
        (Node::Tuple { elems: a, .. }, Node::Tuple { elems: b, .. }) if a.len() == b.len() => {
            for (k, (x, y)) in a.iter().zip(b).enumerate() {
                path.push(k);
                congruence(x, y, path, out);
                path.pop();
            }
            true
        }
        (Node::Tuple { .. }, _) | (_, Node::Tuple { .. }) => false,
        _ => true,
    };
    if !ok {
        let (sk, dk) = (shape.kind(), stride.kind());
        let msg = if path.is_empty() {
            format!(
                "shape and stride are not congruent: the shape is {shape} ({sk}) but the stride is {stride} ({dk})"
            )
        } else {
            let p = path_text(path);
            format!(
                "shape and stride are not congruent: mode {p} of the shape is {shape} ({sk}) but mode {p} of the stride is {stride} ({dk})"
            )
        };
        out.push(Diag::new(stride.span(), msg));
    }
}

fn extents(shape: &Node, path: &mut Vec<usize>, out: &mut Vec<Diag>) {
    let at = |path: &[usize]| {
        if path.is_empty() {
            "the shape".to_string()
        } else {
            format!("mode {} of the shape", path_text(path))
        }
    };
    match shape {
        Node::Int { value, span, .. } if *value <= 0 => out.push(Diag::new(
            *span,
            format!("extent {value} in {}: every extent of a layout's shape must be at least 1", at(path)),
        )),
        Node::Basis { span, text, .. } => out.push(Diag::new(
            *span,
            format!("{} is the basis element {text}: a shape holds integers; basis elements belong in strides", at(path)),
        )),
        Node::Tuple { elems, .. } => {
            for (k, e) in elems.iter().enumerate() {
                path.push(k);
                extents(e, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// layout-core's expression for this tree: integer literals are static; `{expr}` leaves become the
/// dynamic `placeholder` (used only for the compile-time checks of run-time expressions).
pub fn to_expr(node: &Node, env: Option<&Env>, placeholder: i64) -> Expr {
    match node {
        Node::Int { value, .. } => Expr::Int(Int::s(*value)),
        Node::Dyn { .. } => Expr::Int(Int::d(placeholder)),
        Node::Basis { scale, modes, .. } => {
            Expr::Basis(ScaledBasis::new(Int::s(*scale), modes.clone()))
        }
        Node::Underscore(_) => Expr::Underscore,
        Node::Tag(TagKind::Left, _) => Expr::Tag(Tag::LayoutLeft),
        Node::Tag(TagKind::Right, _) => Expr::Tag(Tag::LayoutRight),
        Node::Tuple { elems, .. } => {
            Expr::Tuple(elems.iter().map(|e| to_expr(e, env, placeholder)).collect())
        }
        Node::Layout { shape, stride } => Expr::Layout(
            Box::new(to_expr(shape, env, placeholder)),
            Box::new(to_expr(stride, env, placeholder)),
        ),
        Node::Call {
            name, targs, args, ..
        } => Expr::Call {
            name: name.clone(),
            targs: targs.clone(),
            args: args.iter().map(|e| to_expr(e, env, placeholder)).collect(),
        },
        Node::Swizzle {
            bits, base, shift, ..
        } => Expr::Swizzle(Swizzle {
            bits: *bits,
            base: *base,
            shift: *shift,
        }),
        Node::Composed { sw, offset, inner } => {
            let sw = match to_expr(sw, env, placeholder) {
                Expr::Swizzle(s) => s,
                _ => Swizzle {
                    bits: 0,
                    base: 0,
                    shift: 0,
                },
            };
            Expr::Composed(
                sw,
                Box::new(to_expr(offset, env, placeholder)),
                Box::new(to_expr(inner, env, placeholder)),
            )
        }
        Node::Ref { name, .. } => match env.and_then(|e| e.get(name)).and_then(|v| v.as_ref()) {
            Some(v) => value_to_expr(v),
            None => Expr::Name(name.clone()),
        },
    }
}

fn tuple_to_expr(t: &IntTuple) -> Expr {
    match t {
        IntTuple::Int(i) => Expr::Int(*i),
        IntTuple::Basis(b) => Expr::Basis(b.clone()),
        IntTuple::Tuple(v) => Expr::Tuple(v.iter().map(tuple_to_expr).collect()),
    }
}

/// A value back as an expression (for names of a `layouts!` block used in later definitions).
pub fn value_to_expr(v: &Value) -> Expr {
    match v {
        Value::IntTuple(t) => tuple_to_expr(t),
        Value::Layout(l) => Expr::Layout(
            Box::new(tuple_to_expr(l.shape())),
            Box::new(tuple_to_expr(l.stride())),
        ),
        // Through the printed form, which is notation by design (and independent of the struct's fields).
        Value::Composed(c) => {
            let text = c.to_string();
            cute_layout_core::notation::parse_expr(&text).unwrap_or(Expr::Name(text))
        }
        Value::Swizzle(s) => Expr::Swizzle(*s),
        Value::Underscore => Expr::Underscore,
        Value::Tag(t) => Expr::Tag(*t),
        Value::Tuple(v) => Expr::Tuple(v.iter().map(value_to_expr).collect()),
        Value::Name(n) => Expr::Name(n.clone()),
    }
}

fn children(node: &Node) -> Vec<&Node> {
    match node {
        Node::Tuple { elems, .. } => elems.iter().collect(),
        Node::Call { args, .. } => args.iter().collect(),
        Node::Layout { shape, stride } => vec![shape, stride],
        Node::Composed { sw, offset, inner } => vec![sw, offset, inner],
        _ => vec![],
    }
}

/// Evaluate with layout-core; on error, point at the innermost call that fails.
pub fn eval(node: &Node, env: Option<&Env>) -> Result<Value, Diag> {
    evaluate(&to_expr(node, env, 1)).map_err(|e| locate(node, env, e))
}

fn locate(node: &Node, env: Option<&Env>, err: LayoutError) -> Diag {
    for child in children(node) {
        if (child.has_call() || matches!(child, Node::Layout { .. }))
            && let Err(e) = evaluate(&to_expr(child, env, 1))
        {
            return locate(child, env, e);
        }
    }
    Diag::new(offending_span(node, &err), describe(node, &err))
}

/// The token that an error of the call `node` is about: the template argument that is out of range,
/// the first argument too many, the operand that must be injective; else the operation's name.
pub fn offending_span(node: &Node, err: &LayoutError) -> Span {
    let Node::Call {
        span,
        targs,
        targ_spans,
        args,
        ..
    } = node
    else {
        return node.span();
    };
    match err {
        LayoutError::IndexOutOfRange { index, .. } => targs
            .iter()
            .zip(targ_spans)
            .find(|(t, _)| **t == *index)
            .map_or(*span, |(_, s)| *s),
        LayoutError::BadArguments { message, .. } => {
            // "takes N argument(s), got M" with M > N: the first argument too many.
            let want = message
                .strip_prefix("takes ")
                .and_then(|m| m.split_whitespace().next())
                .and_then(|n| n.parse::<usize>().ok());
            match want {
                Some(n) if n < args.len() && message.contains("got") => args[n].span(),
                _ => *span,
            }
        }
        LayoutError::NotInjective { .. } if !args.is_empty() => args[0].span(),
        _ => *span,
    }
}

/// The message for an error of the evaluator at `node`.
pub fn describe(node: &Node, err: &LayoutError) -> String {
    match (node, err) {
        (_, LayoutError::UnknownOperation { .. }) | (_, LayoutError::Parse { .. }) => {
            err.to_string()
        }
        (Node::Call { .. }, _) => format!("`{node}` fails: {err}"),
        _ => format!("{err} (in `{node}`)"),
    }
}

/// Errors the evaluator reports whatever the values of the run-time leaves are: they can be reported at
/// compile time for an expression with `{expr}` leaves.
pub fn value_independent(err: &LayoutError) -> bool {
    matches!(
        err,
        LayoutError::UnknownOperation { .. }
            | LayoutError::BadArguments { .. }
            | LayoutError::NeedsStatic { .. }
    )
}

/// Compile-time checks of an expression with run-time leaves: evaluate with a placeholder for them and
/// keep only the errors that do not depend on their values.
pub fn check_dynamic(node: &Node) -> Option<Diag> {
    let err = evaluate(&to_expr(node, None, 1)).err()?;
    locate_dyn(node, err)
}

fn locate_dyn(node: &Node, err: LayoutError) -> Option<Diag> {
    for child in children(node) {
        if child.has_call()
            && let Err(e) = evaluate(&to_expr(child, None, 1))
        {
            return locate_dyn(child, e);
        }
    }
    value_independent(&err).then(|| Diag::new(offending_span(node, &err), describe(node, &err)))
}

/// `i64` overflow in the size or the largest index of a (result) layout: the typed layer computes both.
pub fn overflow(l: &cute_layout_core::Layout) -> Option<String> {
    let shape = l.shape().leaves();
    let stride = l.stride().leaves();
    let mut size = Int::s(1);
    let mut span = Int::s(0);
    for (s, d) in shape.iter().zip(&stride) {
        let (Some(s), Some(d)) = (s.as_int(), d.as_int()) else {
            continue;
        };
        size = match size.mul(s) {
            Ok(v) => v,
            Err(e) => {
                return Some(format!(
                    "{e}: the size of the layout {l} does not fit in i64"
                ));
            }
        };
        let reach = s
            .sub(Int::s(1))
            .and_then(|m| m.mul(d.abs()?))
            .and_then(|r| span.add(r));
        span = match reach {
            Ok(v) => v,
            Err(e) => {
                return Some(format!(
                    "{e}: the largest index of the layout {l} does not fit in i64"
                ));
            }
        };
    }
    None
}
