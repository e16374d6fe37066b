//! The three macros: parse -> validate -> evaluate (layout-core) -> emit, with errors as
//! `compile_error!` plus a stub of the right type.

use crate::check::{self, Ctx, Env};
use crate::diag::{Diag, PResult};
use crate::emit::{self, Code, Sk, sk_of_node};
use crate::parse::{self, Cursor, Node};
use cute_layout_core::notation::Value;
use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::quote;

/// `expr` or `shape, LayoutLeft|LayoutRight`; a shape alone becomes `make_layout(shape[, tag])`.
fn parse_top(ts: TokenStream) -> PResult<Node> {
    let mut c = Cursor::new(ts, Span::call_site());
    if c.at_end() {
        return parse::parse_all(TokenStream::new());
    }
    let node = parse::expr(&mut c)?;
    let mut tag = None;
    if c.eat_punct(',') {
        let t = parse::expr(&mut c)?;
        if !matches!(t, Node::Tag(..)) {
            return Err(Diag::new(
                t.span(),
                format!(
                    "expected LayoutLeft or LayoutRight after the shape, found {} `{t}`",
                    t.kind()
                ),
            ));
        }
        if !is_shape(&node) {
            return Err(Diag::new(
                node.span(),
                format!(
                    "`{node}, {t}`: a layout tag follows a shape such as (4,8), found {} `{node}`",
                    node.kind()
                ),
            ));
        }
        tag = Some(t);
    }
    if !c.at_end() {
        return Err(c.error("the end of the layout (a layout is SHAPE:STRIDE; separate tuple elements with `,` inside parentheses)"));
    }
    Ok(if is_shape(&node) {
        let span = node.span();
        Node::Call {
            name: "make_layout".into(),
            span,
            targs: vec![],
            targ_spans: vec![],
            args: std::iter::once(node).chain(tag).collect(),
        }
    } else {
        node
    })
}

/// A shape written alone: integers, `{expr}` and tuples of them.
fn is_shape(n: &Node) -> bool {
    match n {
        Node::Int { .. } | Node::Dyn { .. } => true,
        Node::Tuple { elems, .. } => elems.iter().all(is_shape),
        _ => false,
    }
}

/// The type a mistaken literal layout was meant to have: its shape, with a stride of the same nesting.
fn stub_type(n: &Node) -> Option<(Sk, Sk)> {
    match n {
        Node::Layout { shape, .. } => {
            let s = sk_of_node(shape)?;
            let d = s.dynamic_like();
            Some((s, d))
        }
        _ => None,
    }
}

fn error_expr(diags: &[Diag], stub: Option<(Sk, Sk)>) -> TokenStream {
    let errs = diags.iter().map(Diag::to_compile_error);
    let stub = match stub {
        Some((s, d)) => {
            let ty = emit::layout(&s, &d).0.tokens();
            quote!(::cute::typed::__stub::<#ty>())
        }
        None => quote!(::cute::typed::__stub()),
    };
    quote!({ #(#errs;)* #stub })
}

fn empty_dyn(n: &Node, out: &mut Vec<Diag>) {
    n.any(&mut |x| {
        if let Node::Dyn { expr, span } = x
            && expr.is_empty() {
                out.push(Diag::new(*span, "empty `{}`: a run-time leaf is a Rust expression of type i64 in braces, such as {n} (empty braces are for type position, Layout![...])"));
            }
        false
    });
}

/// `layout!(...)` in value position.
pub fn layout(ts: TokenStream) -> TokenStream {
    let node = match parse_top(ts) {
        Ok(n) => n,
        Err(d) => return error_expr(&[d], None),
    };
    let mut diags = Vec::new();
    check::validate(
        &node,
        &Ctx {
            env: None,
            no_dyn: None,
        },
        &mut diags,
    );
    empty_dyn(&node, &mut diags);
    if !diags.is_empty() {
        return error_expr(&diags, stub_type(&node));
    }
    if node.has_dyn() {
        if let Node::Layout { shape, stride } = &node
            && let (Some(s), Some(d)) = (sk_of_node(shape), sk_of_node(stride))
        {
            return emit::layout(&s, &d).1.tokens();
        }
        if let Some(d) = check::check_dynamic(&node) {
            return error_expr(&[d], None);
        }
        let e = emit::runtime_expr(&node);
        return quote!(::cute::notation::evaluate(&#e));
    }
    match static_value(&node, None) {
        Ok((_, val)) => val.tokens(),
        Err(d) => error_expr(&[d], stub_type(&node)),
    }
}

/// Evaluate a static tree and emit its type and value.
fn static_value(node: &Node, env: Option<&Env>) -> Result<(Code, Code), Diag> {
    let v = check::eval(node, env)?;
    emit_value(node, &v)
}

/// Type and value of an evaluated static result.
fn emit_value(node: &Node, v: &Value) -> Result<(Code, Code), Diag> {
    if let Value::Layout(l) = v
        && let Some(m) = check::overflow(l)
    {
        return Err(Diag::new(node.span(), m));
    }
    emit::value(v).map_err(|m| Diag::new(node.span(), format!("`{node}` gives {m}")))
}

/// `Layout![...]` in type position.
pub fn layout_type(ts: TokenStream) -> TokenStream {
    let node = match parse_top(ts) {
        Ok(n) => n,
        Err(d) => return d.to_compile_error(),
    };
    let no_dyn = node.has_call().then_some(
        "the type of an operation's result on run-time values is known only at run time: write the result's type with {} leaves, or use layout!(...) in value position",
    );
    let mut diags = Vec::new();
    check::validate(&node, &Ctx { env: None, no_dyn }, &mut diags);
    if !diags.is_empty() {
        if diags.len() == 1 {
            return diags[0].to_compile_error();
        }
        let errs = diags.iter().map(Diag::to_compile_error);
        return quote!((#(#errs,)*));
    }
    if let Node::Layout { shape, stride } = &node
        && node.has_dyn()
        && let (Some(s), Some(d)) = (sk_of_node(shape), sk_of_node(stride))
    {
        return emit::layout(&s, &d).0.tokens();
    }
    match static_value(&node, None) {
        Ok((ty, _)) => ty.tokens(),
        Err(d) => d.to_compile_error(),
    }
}

/// `layouts! { [#[attr]] [pub] NAME = EXPR; ... }`.
pub fn layouts(ts: TokenStream) -> TokenStream {
    let mut c = Cursor::new(ts, Span::call_site());
    let mut env = Env::new();
    let mut out = TokenStream::new();
    while !c.at_end() {
        match definition(&mut c, &mut env) {
            Ok(items) => out.extend(items),
            Err(d) => {
                // Report it and go on with the next definition.
                out.extend(d.to_compile_error());
                while !c.at_end() && !c.eat_punct(';') {
                    c.next();
                }
            }
        }
    }
    out
}

fn definition(c: &mut Cursor, env: &mut Env) -> PResult<TokenStream> {
    let mut attrs = TokenStream::new();
    while c.is_punct('#') {
        attrs.extend(c.next());
        match c.peek() {
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket => {
                attrs.extend(c.next())
            }
            _ => return Err(c.error("`[` after `#` (an attribute)")),
        }
    }
    let mut vis = TokenStream::new();
    if matches!(c.peek(), Some(TokenTree::Ident(i)) if i == "pub") {
        vis.extend(c.next());
        if let Some(TokenTree::Group(g)) = c.peek()
            && g.delimiter() == Delimiter::Parenthesis
        {
            vis.extend(c.next());
        }
    }
    let name = match c.peek() {
        Some(TokenTree::Ident(i)) => i.clone(),
        _ => return Err(c.error("a name to define (`NAME = layout;`)")),
    };
    c.next();
    if !c.eat_punct('=') {
        return Err(c.error(&format!("`=` after `{name}`")));
    }
    let body_span = c.span();
    let mut body = TokenStream::new();
    while !c.at_end() && !c.is_punct(';') {
        body.extend(c.next());
    }
    c.eat_punct(';'); // optional after the last definition
    if body.is_empty() {
        return Err(Diag::new(
            body_span,
            format!("missing layout after `{name} =`"),
        ));
    }
    let key = name.to_string();
    if env.contains_key(&key) {
        return Err(Diag::new(
            name.span(),
            format!("`{key}` is defined twice in this layouts! block"),
        ));
    }
    let result = define(body, env);
    let (ty, val, errors) = match result {
        Ok((ty, val, v)) => {
            env.insert(key, Some(v));
            (ty, val, TokenStream::new())
        }
        Err((diags, stub)) => {
            env.insert(key, None);
            let (s, d) = stub.unwrap_or((Sk::S(1), Sk::S(0)));
            let (ty, val) = emit::layout(&s, &d);
            (
                ty.tokens(),
                val.tokens(),
                diags.iter().map(Diag::to_compile_error).collect(),
            )
        }
    };
    Ok(quote! {
        #errors
        #attrs
        #[allow(non_camel_case_types)]
        #vis type #name = #ty;
        #attrs
        #[allow(non_upper_case_globals)]
        #vis const #name: #name = #val;
    })
}

type Stub = Option<(Sk, Sk)>;

fn define(
    body: TokenStream,
    env: &Env,
) -> Result<(TokenStream, TokenStream, Value), (Vec<Diag>, Stub)> {
    let node = parse_top(body).map_err(|d| (vec![d], None))?;
    // A definition that uses a failed one: its error is already reported.
    if node.any(&mut |n| matches!(n, Node::Ref { name, .. } if matches!(env.get(name), Some(None))))
    {
        return Err((vec![], None));
    }
    let mut diags = Vec::new();
    let ctx = Ctx {
        env: Some(env),
        no_dyn: Some("layouts! defines constants, so every leaf must be static"),
    };
    check::validate(&node, &ctx, &mut diags);
    if !diags.is_empty() {
        return Err((diags, stub_type(&node)));
    }
    let v = check::eval(&node, Some(env)).map_err(|d| (vec![d], stub_type(&node)))?;
    let (ty, val) = emit_value(&node, &v).map_err(|d| (vec![d], stub_type(&node)))?;
    Ok((ty.tokens(), val.tokens(), v))
}
