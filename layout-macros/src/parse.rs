//! Tokens to a notation tree with spans. The notation is CuTe's (the oracle grammar), written as Rust
//! tokens: integer literals are static (`4` and `_4` alike), `{expr}` is a dynamic leaf.

use crate::diag::{Diag, PResult};
use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use std::fmt;

/// `LayoutLeft` / `LayoutRight`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagKind {
    Left,
    Right,
}

/// A parsed notation expression with the spans of its tokens.
#[derive(Clone, Debug)]
pub enum Node {
    /// A static integer, with the text as written.
    Int {
        value: i64,
        text: String,
        span: Span,
    },
    /// `{expr}`: a dynamic `i64` leaf.
    Dyn { expr: TokenStream, span: Span },
    /// A scaled basis element `1@0`.
    Basis {
        scale: i64,
        modes: Vec<usize>,
        text: String,
        span: Span,
    },
    /// `_`.
    Underscore(Span),
    /// `LayoutLeft` / `LayoutRight`.
    Tag(TagKind, Span),
    /// `( ... )`.
    Tuple { elems: Vec<Node>, span: Span },
    /// `SHAPE:STRIDE`.
    Layout { shape: Box<Node>, stride: Box<Node> },
    /// `name<targs>(args)`.
    Call {
        name: String,
        span: Span,
        targs: Vec<i64>,
        /// Where each template argument is written.
        targ_spans: Vec<Span>,
        args: Vec<Node>,
    },
    /// `Sw<B,M,S>`.
    Swizzle {
        bits: i64,
        base: i64,
        shift: i64,
        span: Span,
    },
    /// `Sw<B,M,S> o OFFSET o LAYOUT`.
    Composed {
        sw: Box<Node>,
        offset: Box<Node>,
        inner: Box<Node>,
    },
    /// A name: an earlier definition of a `layouts!` block.
    Ref { name: String, span: Span },
}

impl Node {
    /// The span to point at for this node (the first token, or the whole group for a tuple).
    pub fn span(&self) -> Span {
        match self {
            Node::Int { span, .. }
            | Node::Dyn { span, .. }
            | Node::Basis { span, .. }
            | Node::Underscore(span)
            | Node::Tag(_, span)
            | Node::Tuple { span, .. }
            | Node::Call { span, .. }
            | Node::Swizzle { span, .. }
            | Node::Ref { span, .. } => *span,
            Node::Layout { shape, .. } => shape.span(),
            Node::Composed { sw, .. } => sw.span(),
        }
    }
    /// True when a `{expr}` leaf occurs anywhere inside.
    pub fn has_dyn(&self) -> bool {
        self.any(&mut |n| matches!(n, Node::Dyn { .. }))
    }
    /// True when an operation call occurs anywhere inside.
    pub fn has_call(&self) -> bool {
        self.any(&mut |n| matches!(n, Node::Call { .. }))
    }
    /// True when `f` holds for this node or a node inside it.
    pub fn any(&self, f: &mut dyn FnMut(&Node) -> bool) -> bool {
        if f(self) {
            return true;
        }
        match self {
            Node::Tuple { elems, .. } => elems.iter().any(|e| e.any(f)),
            Node::Call { args, .. } => args.iter().any(|e| e.any(f)),
            Node::Layout { shape, stride } => shape.any(f) || stride.any(f),
            Node::Composed { sw, offset, inner } => sw.any(f) || offset.any(f) || inner.any(f),
            _ => false,
        }
    }
    /// What kind of node this is, in words, for messages.
    pub fn kind(&self) -> String {
        match self {
            Node::Int { .. } => "an integer".into(),
            Node::Dyn { .. } => "a run-time integer".into(),
            Node::Basis { .. } => "a basis element".into(),
            Node::Underscore(_) => "`_`".into(),
            Node::Tag(..) => "a layout tag".into(),
            Node::Tuple { elems, .. } => format!("a tuple of rank {}", elems.len()),
            Node::Layout { .. } => "a layout".into(),
            Node::Call { .. } => "an operation call".into(),
            Node::Swizzle { .. } => "a swizzle".into(),
            Node::Composed { .. } => "a composed layout".into(),
            Node::Ref { .. } => "a name".into(),
        }
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn list(f: &mut fmt::Formatter<'_>, v: &[Node]) -> fmt::Result {
            for (k, e) in v.iter().enumerate() {
                if k > 0 {
                    write!(f, ",")?;
                }
                write!(f, "{e}")?;
            }
            Ok(())
        }
        match self {
            Node::Int { text, .. } | Node::Basis { text, .. } => write!(f, "{text}"),
            Node::Dyn { expr, .. } => write!(f, "{{{expr}}}"),
            Node::Underscore(_) => write!(f, "_"),
            Node::Tag(TagKind::Left, _) => write!(f, "LayoutLeft"),
            Node::Tag(TagKind::Right, _) => write!(f, "LayoutRight"),
            Node::Tuple { elems, .. } => {
                write!(f, "(")?;
                list(f, elems)?;
                write!(f, ")")
            }
            Node::Layout { shape, stride } => write!(f, "{shape}:{stride}"),
            Node::Call {
                name, targs, args, ..
            } => {
                write!(f, "{name}")?;
                if !targs.is_empty() {
                    let t: Vec<String> = targs.iter().map(|t| t.to_string()).collect();
                    write!(f, "<{}>", t.join(","))?;
                }
                write!(f, "(")?;
                list(f, args)?;
                write!(f, ")")
            }
            Node::Swizzle {
                bits, base, shift, ..
            } => write!(f, "Sw<{bits},{base},{shift}>"),
            Node::Composed { sw, offset, inner } => write!(f, "{sw} o {offset} o {inner}"),
            Node::Ref { name, .. } => write!(f, "{name}"),
        }
    }
}

/// A cursor over one level of tokens (the inside of a group or the whole macro input).
pub struct Cursor {
    toks: Vec<TokenTree>,
    pos: usize,
    /// Where "end of input" is reported.
    end: Span,
    /// Groups and composed layouts around this level (at most layout-core's `MAX_DEPTH`, so the
    /// parser's recursion, and rustc's stack, stay bounded).
    depth: usize,
}

impl Cursor {
    pub fn new(ts: TokenStream, end: Span) -> Cursor {
        Cursor {
            toks: ts.into_iter().collect(),
            pos: 0,
            end,
            depth: 0,
        }
    }
    /// A cursor over the inside of `g`, one level deeper than `self`; an error at `g` past the
    /// nesting limit.
    pub fn of_group(&self, g: &Group) -> PResult<Cursor> {
        let depth = self.deeper(g.span_open())?;
        Ok(Cursor {
            depth,
            ..Cursor::new(g.stream(), g.span_close())
        })
    }
    /// The depth one level down from this cursor, or the error at `span` past the limit.
    fn deeper(&self, span: Span) -> PResult<usize> {
        let max = cute_layout_core::limits::MAX_DEPTH;
        if self.depth >= max {
            return Err(Diag::new(
                span,
                format!(
                    "layout nested too deeply: nesting depth {} is above the limit of {max} (parentheses, calls and composed layouts)",
                    self.depth.saturating_add(1)
                ),
            ));
        }
        Ok(self.depth.saturating_add(1))
    }
    pub fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }
    pub fn peek(&self) -> Option<&TokenTree> {
        self.toks.get(self.pos)
    }
    fn peek_at(&self, k: usize) -> Option<&TokenTree> {
        self.toks.get(self.pos.saturating_add(k))
    }
    pub fn next(&mut self) -> Option<TokenTree> {
        let t = self.toks.get(self.pos).cloned();
        self.pos = self.pos.saturating_add(1);
        t
    }
    /// The span of the next token, or the end.
    pub fn span(&self) -> Span {
        self.peek().map_or(self.end, |t| t.span())
    }
    pub fn is_punct(&self, c: char) -> bool {
        matches!(self.peek(), Some(TokenTree::Punct(p)) if p.as_char() == c)
    }
    fn is_punct_at(&self, k: usize, c: char) -> bool {
        matches!(self.peek_at(k), Some(TokenTree::Punct(p)) if p.as_char() == c)
    }
    pub fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.pos = self.pos.saturating_add(1);
            true
        } else {
            false
        }
    }
    /// Text of the next token for "found ..." in messages.
    pub fn found(&self) -> String {
        match self.peek() {
            None => "the end of the input".into(),
            Some(TokenTree::Group(g)) => {
                let (o, c) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                let inner = g.stream().to_string();
                if inner.len() > 20 {
                    format!("`{o}...{c}`")
                } else {
                    format!("`{o}{inner}{c}`")
                }
            }
            Some(t) => format!("`{t}`"),
        }
    }
    pub fn error(&self, expected: &str) -> Diag {
        Diag::new(
            self.span(),
            format!(
                "malformed layout notation: expected {expected}, found {}",
                self.found()
            ),
        )
    }
}

/// Parse a whole token stream as one expression.
pub fn parse_all(ts: TokenStream) -> PResult<Node> {
    let mut c = Cursor::new(ts, Span::call_site());
    if c.at_end() {
        return Err(Diag::new(
            Span::call_site(),
            "empty layout: write a layout such as (4,8):(1,4), a shape such as (4,8), or an operation such as composition(A,B)",
        ));
    }
    let e = expr(&mut c)?;
    if !c.at_end() {
        return Err(c.error("the end of the layout (a layout is SHAPE:STRIDE; separate tuple elements with `,` inside parentheses)"));
    }
    Ok(e)
}

/// `expr := call | term`.
pub fn expr(c: &mut Cursor) -> PResult<Node> {
    term(c)
}

fn term(c: &mut Cursor) -> PResult<Node> {
    if let Some(TokenTree::Ident(i)) = c.peek()
        && i == "Sw"
        && c.is_punct_at(1, '<')
    {
        return swizzle_term(c);
    }
    let shape = itup(c)?;
    if c.is_punct(':') && !c.is_punct_at(1, ':') {
        let colon = c.span();
        c.next();
        if c.at_end() || c.is_punct(',') {
            let found = c.found();
            return Err(Diag::new(
                colon,
                format!("malformed layout notation: expected a stride after `:`, found {found}"),
            ));
        }
        let stride = itup(c)?;
        return Ok(Node::Layout {
            shape: Box::new(shape),
            stride: Box::new(stride),
        });
    }
    Ok(shape)
}

fn swizzle(c: &mut Cursor) -> PResult<Node> {
    let span = c.span();
    c.next(); // Sw
    c.next(); // <
    let bits = plain_int(c)?;
    expect(c, ',')?;
    let base = plain_int(c)?;
    expect(c, ',')?;
    let shift = plain_int(c)?;
    expect(c, '>')?;
    Ok(Node::Swizzle {
        bits,
        base,
        shift,
        span,
    })
}

fn swizzle_term(c: &mut Cursor) -> PResult<Node> {
    let sw = swizzle(c)?;
    if matches!(c.peek(), Some(TokenTree::Ident(i)) if i == "o") {
        c.next();
        let offset = itup(c)?;
        match c.peek() {
            Some(TokenTree::Ident(i)) if i == "o" => {
                c.next();
            }
            _ => {
                return Err(c.error(
                    "`o` before the inner layout of a composed layout Sw<B,M,S> o OFFSET o LAYOUT",
                ));
            }
        }
        let outer = c.depth;
        c.depth = c.deeper(c.span())?;
        let inner = term(c);
        c.depth = outer;
        let inner = inner?;
        return Ok(Node::Composed {
            sw: Box::new(sw),
            offset: Box::new(offset),
            inner: Box::new(inner),
        });
    }
    Ok(sw)
}

fn expect(c: &mut Cursor, ch: char) -> PResult<()> {
    if c.eat_punct(ch) {
        Ok(())
    } else {
        Err(c.error(&format!("`{ch}`")))
    }
}

/// An integer literal's value; `text` is the literal as written.
fn int_value(text: &str, span: Span, negative: bool) -> PResult<i64> {
    let digits: String = text.chars().filter(|&ch| ch != '_').collect();
    if digits.is_empty() || !digits.chars().all(|ch| ch.is_ascii_digit()) {
        return Err(Diag::new(
            span,
            format!(
                "malformed layout notation: expected an integer such as 4 or _4, found `{text}`"
            ),
        ));
    }
    let signed = if negative {
        format!("-{digits}")
    } else {
        digits
    };
    signed.parse::<i64>().map_err(|_| {
        Diag::new(
            span,
            format!(
                "integer overflow: {signed} does not fit in i64 (the range is {} to {})",
                i64::MIN,
                i64::MAX
            ),
        )
    })
}

/// A plain integer (template arguments, swizzle parameters): `3`, `-3`.
fn plain_int(c: &mut Cursor) -> PResult<i64> {
    let negative = c.eat_punct('-');
    match c.peek() {
        Some(TokenTree::Literal(l)) => {
            let (text, span) = (l.to_string(), l.span());
            c.next();
            int_value(&text, span, negative)
        }
        _ => Err(c.error("an integer")),
    }
}

/// An integer leaf (static), possibly a basis element `N@m@...`.
fn int_leaf(c: &mut Cursor, text: String, value: i64, span: Span) -> PResult<Node> {
    if !c.is_punct('@') {
        return Ok(Node::Int { value, text, span });
    }
    let mut modes = Vec::new();
    let mut full = text;
    while c.eat_punct('@') {
        let m = plain_int(c)?;
        if m < 0 {
            return Err(Diag::new(
                span,
                format!("a basis mode after `@` must be non-negative, found {m}"),
            ));
        }
        full.push_str(&format!("@{m}"));
        modes.push(m as usize);
    }
    modes.reverse();
    Ok(Node::Basis {
        scale: value,
        modes,
        text: full,
        span,
    })
}

/// `itup := INT | BASIS | '_' | '(' exprs ')' | '{' rust '}' | call | name`.
fn itup(c: &mut Cursor) -> PResult<Node> {
    let span = c.span();
    match c.peek().cloned() {
        Some(TokenTree::Group(g)) => match g.delimiter() {
            Delimiter::Parenthesis => {
                c.next();
                let mut inner = c.of_group(&g)?;
                let mut elems = Vec::new();
                while !inner.at_end() {
                    elems.push(expr(&mut inner)?);
                    if inner.at_end() {
                        break;
                    }
                    if !inner.eat_punct(',') {
                        return Err(inner.error("`,` or `)` in a tuple"));
                    }
                }
                Ok(Node::Tuple {
                    elems,
                    span: g.span(),
                })
            }
            Delimiter::Brace => {
                c.next();
                Ok(Node::Dyn {
                    expr: g.stream(),
                    span: g.span(),
                })
            }
            _ => Err(c.error("an integer, `_`, `(`, `{expr}` or an operation")),
        },
        Some(TokenTree::Literal(l)) => {
            c.next();
            let text = l.to_string();
            let v = int_value(&text, l.span(), false)?;
            int_leaf(c, text, v, span)
        }
        Some(TokenTree::Punct(p)) if p.as_char() == '-' => {
            c.next();
            match c.peek().cloned() {
                Some(TokenTree::Literal(l)) => {
                    c.next();
                    let text = l.to_string();
                    let v = int_value(&text, l.span(), true)?;
                    int_leaf(c, format!("-{text}"), v, span)
                }
                _ => Err(c.error("an integer after `-`")),
            }
        }
        Some(TokenTree::Ident(i)) => {
            let name = i.to_string();
            if name == "_" {
                c.next();
                if c.is_punct('-') {
                    c.next();
                    return match c.peek().cloned() {
                        Some(TokenTree::Literal(l)) => {
                            c.next();
                            let text = l.to_string();
                            let v = int_value(&text, l.span(), true)?;
                            int_leaf(c, format!("_-{text}"), v, span)
                        }
                        _ => Err(c.error("an integer after `_-`")),
                    };
                }
                return Ok(Node::Underscore(span));
            }
            if let Some(digits) = name.strip_prefix('_')
                && digits.starts_with(|ch: char| ch.is_ascii_digit())
            {
                c.next();
                let v = int_value(digits, span, false)?;
                return int_leaf(c, name, v, span);
            }
            match name.as_str() {
                "LayoutLeft" => {
                    c.next();
                    return Ok(Node::Tag(TagKind::Left, span));
                }
                "LayoutRight" => {
                    c.next();
                    return Ok(Node::Tag(TagKind::Right, span));
                }
                "Sw" if c.is_punct_at(1, '<') => return swizzle_term(c),
                _ => {}
            }
            c.next();
            call_or_name(c, name, span)
        }
        _ => Err(c.error("an integer, `_`, `(`, `{expr}` or an operation")),
    }
}

/// After an identifier: `<targs>` and `(args)` make a call; nothing makes a name.
fn call_or_name(c: &mut Cursor, name: String, span: Span) -> PResult<Node> {
    let mut targs = Vec::new();
    let mut targ_spans = Vec::new();
    let has_targs = c.eat_punct('<');
    if has_targs {
        loop {
            targ_spans.push(c.span());
            targs.push(plain_int(c)?);
            if c.eat_punct('>') {
                break;
            }
            if !c.eat_punct(',') {
                return Err(c.error("`,` or `>` in the template arguments"));
            }
        }
    }
    match c.peek().cloned() {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => {
            c.next();
            let mut inner = c.of_group(&g)?;
            let mut args = Vec::new();
            while !inner.at_end() {
                args.push(expr(&mut inner)?);
                if inner.at_end() {
                    break;
                }
                if !inner.eat_punct(',') {
                    return Err(inner.error(&format!("`,` or `)` in the arguments of `{name}`")));
                }
            }
            Ok(Node::Call {
                name,
                span,
                targs,
                targ_spans,
                args,
            })
        }
        _ if has_targs => Err(c.error(&format!("`(` with the arguments of `{name}<...>`"))),
        _ => Ok(Node::Ref { name, span }),
    }
}
