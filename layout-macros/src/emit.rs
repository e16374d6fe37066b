//! Typed code from values and literal trees: `C<N>` for static leaves, `i64` for dynamic ones, Rust
//! tuples for nesting; and layout-core expression trees for what runs at run time.

use crate::parse::{Node, TagKind};
use cute_layout_core::IntTuple;
use cute_layout_core::notation::Value;
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use std::str::FromStr;

/// The most modes a typed tuple has (the typed layer implements tuples up to this rank).
const MAX_RANK: usize = 12;

/// The skeleton of a typed IntTuple.
pub enum Sk {
    /// `C<N>`.
    S(i64),
    /// `i64` with the expression of its value.
    D(TokenStream),
    /// A tuple.
    T(Vec<Sk>),
}

impl Sk {
    pub fn ty(&self) -> TokenStream {
        match self {
            Sk::S(n) if *n < 0 => {
                let n = Literal::i64_unsuffixed(*n);
                quote!(::cute::typed::C<{ #n }>)
            }
            Sk::S(n) => {
                let n = Literal::i64_unsuffixed(*n);
                quote!(::cute::typed::C<#n>)
            }
            Sk::D(_) => quote!(i64),
            Sk::T(v) => {
                let e = v.iter().map(Sk::ty);
                quote!((#(#e,)*))
            }
        }
    }
    pub fn val(&self) -> TokenStream {
        match self {
            Sk::S(n) if *n < 0 => {
                let n = Literal::i64_unsuffixed(*n);
                quote!(::cute::typed::C::<{ #n }>)
            }
            Sk::S(n) => {
                let n = Literal::i64_unsuffixed(*n);
                quote!(::cute::typed::C::<#n>)
            }
            Sk::D(e) => e.clone(),
            Sk::T(v) => {
                let e = v.iter().map(Sk::val);
                quote!((#(#e,)*))
            }
        }
    }
    /// The same nesting with dynamic leaves (the stub type for a stride that does not match its shape).
    pub fn dynamic_like(&self) -> Sk {
        match self {
            Sk::T(v) => Sk::T(v.iter().map(Sk::dynamic_like).collect()),
            _ => Sk::D(quote!(0i64)),
        }
    }
}

fn rank_check(n: usize) -> Result<(), String> {
    if n > MAX_RANK {
        Err(format!(
            "a tuple of rank {n}: the typed layer holds tuples of rank at most {MAX_RANK}"
        ))
    } else {
        Ok(())
    }
}

/// The skeleton of a run-time IntTuple.
pub fn sk_of_tuple(t: &IntTuple) -> Result<Sk, String> {
    match t {
        IntTuple::Int(i) if i.is_static => Ok(Sk::S(i.value)),
        IntTuple::Int(i) => {
            let v = Literal::i64_suffixed(i.value);
            Ok(Sk::D(quote!(#v)))
        }
        IntTuple::Basis(b) => Err(format!(
            "the basis element {b}: the typed layer does not represent basis-element strides; evaluate this expression at run time with cute::notation::eval_str"
        )),
        IntTuple::Tuple(v) => {
            rank_check(v.len())?;
            Ok(Sk::T(v.iter().map(sk_of_tuple).collect::<Result<_, _>>()?))
        }
    }
}

/// The skeleton of a literal tree (integers, `{expr}`, tuples); None for anything else.
pub fn sk_of_node(n: &Node) -> Option<Sk> {
    match n {
        Node::Int { value, .. } => Some(Sk::S(*value)),
        Node::Dyn { expr, span } => Some(Sk::D(
            quote::quote_spanned!(*span=> ::core::convert::identity::<i64>(#expr)),
        )),
        Node::Tuple { elems, .. } if elems.len() <= MAX_RANK => {
            Some(Sk::T(elems.iter().map(sk_of_node).collect::<Option<_>>()?))
        }
        _ => None,
    }
}

impl Sk {
    /// The type as source text (static skeletons only). Emitting text that the compiler lexes once is
    /// much cheaper than building the same tokens one by one through the proc-macro bridge.
    fn ty_text(&self, out: &mut String) {
        match self {
            Sk::S(n) if *n < 0 => out.push_str(&format!("::cute::typed::C<{{{n}}}>")),
            Sk::S(n) => out.push_str(&format!("::cute::typed::C<{n}>")),
            Sk::D(_) => out.push_str("i64"),
            Sk::T(v) => {
                out.push('(');
                for e in v {
                    e.ty_text(out);
                    out.push(',');
                }
                out.push(')');
            }
        }
    }
    /// The value as source text (static skeletons only): `C::<N>` leaves in tuples.
    fn val_text(&self, out: &mut String) {
        match self {
            Sk::S(n) if *n < 0 => out.push_str(&format!("::cute::__C::<{{{n}}}>")),
            Sk::S(n) => out.push_str(&format!("::cute::__C::<{n}>")),
            Sk::D(_) => out.push_str("0i64"),
            Sk::T(v) => {
                out.push('(');
                for e in v {
                    e.val_text(out);
                    out.push(',');
                }
                out.push(')');
            }
        }
    }
    fn is_static(&self) -> bool {
        match self {
            Sk::S(_) => true,
            Sk::D(_) => false,
            Sk::T(v) => v.iter().all(Sk::is_static),
        }
    }
}

/// Emitted code: source text, lexed only if it is used (the compiler's lexer, not proc-macro2's
/// fallback lexer, which is slow in a proc macro built without optimization), or tokens.
pub enum Code {
    Text(String),
    Tokens(TokenStream),
}

impl Code {
    pub fn tokens(self) -> TokenStream {
        match self {
            Code::Tokens(t) => t,
            Code::Text(s) => lex(&s),
        }
    }
}

fn lex(s: &str) -> TokenStream {
    if proc_macro::is_available()
        && let Ok(t) = s.parse::<proc_macro::TokenStream>()
    {
        return t.into();
    }
    TokenStream::from_str(s).unwrap_or_else(|e| {
        let m = format!("layout!: internal error: cannot lex `{s}`: {e}");
        quote!(::core::compile_error! { #m })
    })
}

/// Type and value of a typed layout. A fully static layout's value is a struct expression of
/// zero-sized leaves, `Layout { __shape: (C::<4>, ..), __stride: (..) }`: its type is inferred from
/// the leaves, so the compiler proves no trait bound, evaluates no constant and instantiates no
/// function for it (the congruence that `Layout::new` would check is checked by the macro).
pub fn layout(shape: &Sk, stride: &Sk) -> (Code, Code) {
    if shape.is_static() && stride.is_static() {
        let mut ty = String::from("::cute::typed::Layout<");
        shape.ty_text(&mut ty);
        ty.push(',');
        stride.ty_text(&mut ty);
        ty.push('>');
        let mut val = String::from("::cute::__L{__shape: ");
        shape.val_text(&mut val);
        val.push_str(",__stride: ");
        stride.val_text(&mut val);
        val.push('}');
        return (Code::Text(ty), Code::Text(val));
    }
    let (st, dt, sv, dv) = (shape.ty(), stride.ty(), shape.val(), stride.val());
    (
        Code::Tokens(quote!(::cute::typed::Layout<#st, #dt>)),
        Code::Tokens(quote!(::cute::typed::Layout::<#st, #dt>::new(#sv, #dv))),
    )
}

/// Type and value of an evaluated result.
pub fn value(v: &Value) -> Result<(Code, Code), String> {
    match v {
        Value::Layout(l) => Ok(layout(
            &sk_of_tuple(l.shape()).map_err(|m| format!("{l}, {m}"))?,
            &sk_of_tuple(l.stride()).map_err(|m| format!("{l}, {m}"))?,
        )),
        Value::IntTuple(t) => {
            let sk = sk_of_tuple(t)?;
            if sk.is_static() {
                let mut ty = String::new();
                sk.ty_text(&mut ty);
                let mut val = String::new();
                sk.val_text(&mut val);
                return Ok((Code::Text(ty), Code::Text(val)));
            }
            Ok((Code::Tokens(sk.ty()), Code::Tokens(sk.val())))
        }
        v => Err(format!(
            "{} `{v}`: the typed layer holds layouts and integer tuples; evaluate this expression at run time with cute::notation::eval_str",
            v.kind()
        )),
    }
}

/// Code that builds layout-core's expression tree at run time (`{expr}` leaves are dynamic integers).
pub fn runtime_expr(n: &Node) -> TokenStream {
    let e = quote!(::cute::notation::Expr);
    match n {
        Node::Int { value, .. } => {
            let v = Literal::i64_suffixed(*value);
            quote!(#e::Int(::cute::Int::s(#v)))
        }
        Node::Dyn { expr, span } => {
            quote::quote_spanned!(*span=> #e::Int(::cute::Int::d(::core::convert::identity::<i64>(#expr))))
        }
        Node::Basis { scale, modes, .. } => {
            let v = Literal::i64_suffixed(*scale);
            let m = modes.iter().map(|m| Literal::usize_suffixed(*m));
            quote!(#e::Basis(::cute::ScaledBasis::new(::cute::Int::s(#v), ::std::vec![#(#m),*])))
        }
        Node::Underscore(_) => quote!(#e::Underscore),
        Node::Tag(TagKind::Left, _) => quote!(#e::Tag(::cute::notation::Tag::LayoutLeft)),
        Node::Tag(TagKind::Right, _) => quote!(#e::Tag(::cute::notation::Tag::LayoutRight)),
        Node::Tuple { elems, .. } => {
            let x = elems.iter().map(runtime_expr);
            quote!(#e::Tuple(::std::vec![#(#x),*]))
        }
        Node::Layout { shape, stride } => {
            let (s, d) = (runtime_expr(shape), runtime_expr(stride));
            quote!(#e::Layout(::std::boxed::Box::new(#s), ::std::boxed::Box::new(#d)))
        }
        Node::Call {
            name, targs, args, ..
        } => {
            let t = targs.iter().map(|t| Literal::i64_suffixed(*t));
            let a = args.iter().map(runtime_expr);
            quote!(#e::Call { name: ::std::string::String::from(#name), targs: ::std::vec![#(#t),*], args: ::std::vec![#(#a),*] })
        }
        Node::Swizzle {
            bits, base, shift, ..
        } => {
            let (b, m, s) = (
                Literal::i64_suffixed(*bits),
                Literal::i64_suffixed(*base),
                Literal::i64_suffixed(*shift),
            );
            quote!(#e::Swizzle(::cute::Swizzle { bits: #b, base: #m, shift: #s }))
        }
        Node::Composed { sw, offset, inner } => {
            let sw = match &**sw {
                Node::Swizzle {
                    bits, base, shift, ..
                } => {
                    let (b, m, s) = (
                        Literal::i64_suffixed(*bits),
                        Literal::i64_suffixed(*base),
                        Literal::i64_suffixed(*shift),
                    );
                    quote!(::cute::Swizzle { bits: #b, base: #m, shift: #s })
                }
                _ => quote!(::cute::Swizzle {
                    bits: 0,
                    base: 0,
                    shift: 0
                }),
            };
            let (o, i) = (runtime_expr(offset), runtime_expr(inner));
            quote!(#e::Composed(#sw, ::std::boxed::Box::new(#o), ::std::boxed::Box::new(#i)))
        }
        // Names exist only in layouts!, which refuses run-time leaves.
        Node::Ref { name, .. } => quote!(#e::Name(::std::string::String::from(#name))),
    }
}
