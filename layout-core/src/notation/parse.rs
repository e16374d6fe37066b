//! Parser for CuTe's printed notation (the grammar of the oracle README) into an [`Expr`] tree.

use crate::basis::ScaledBasis;
use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::limits::{MAX_DEPTH, MAX_ELEMENTS, MAX_INPUT_BYTES, too_large};
use crate::swizzle::Swizzle;

/// `LayoutLeft` or `LayoutRight`.
///
/// ```
/// use cute_layout_core::notation::eval_str;
/// assert_eq!(eval_str("make_layout((_4,_8),LayoutLeft)").unwrap().to_string(), "(_4,_8):(_1,_4)");
/// assert_eq!(eval_str("make_layout((_4,_8),LayoutRight)").unwrap().to_string(), "(_4,_8):(_8,_1)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tag {
    /// Column-major (first mode fastest).
    LayoutLeft,
    /// Row-major (last mode fastest).
    LayoutRight,
}

/// A parsed expression, before evaluation.
///
/// ```
/// use cute_layout_core::{Int, notation::{parse_expr, Expr}};
/// let e = parse_expr("size<1>((_4,_8):(_8,_1))").unwrap();
/// let Expr::Call { name, targs, args } = e else { panic!("a call") };
/// assert_eq!((name.as_str(), targs, args.len()), ("size", vec![1], 1));
/// assert_eq!(parse_expr("_4").unwrap(), Expr::Int(Int::s(4)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// An integer `_4` or `4`.
    Int(Int),
    /// A scaled basis element `_1@0`.
    Basis(ScaledBasis),
    /// `_`.
    Underscore,
    /// `LayoutLeft` / `LayoutRight`.
    Tag(Tag),
    /// `( ... )`.
    Tuple(Vec<Expr>),
    /// `SHAPE:STRIDE`.
    Layout(Box<Expr>, Box<Expr>),
    /// `Sw<B,M,S>`.
    Swizzle(Swizzle),
    /// `Sw<B,M,S> o OFFSET o LAYOUT`.
    Composed(Swizzle, Box<Expr>, Box<Expr>),
    /// `name<targs>(args)`.
    Call {
        /// Function name.
        name: String,
        /// Template arguments.
        targs: Vec<i64>,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// An opaque C++ type name used as an argument (MMA and copy operations), e.g. `UniversalCopy<uint128_t>`.
    Name(String),
}

/// Parse one expression; the whole input must be consumed.
///
/// Limits ([`crate::limits`]): at most [`MAX_INPUT_BYTES`] bytes, [`MAX_DEPTH`] nested parentheses
/// and calls, [`MAX_ELEMENTS`] integers, tuples and calls; the parser never recurses deeper than
/// the depth limit.
///
/// ```
/// use cute_layout_core::notation::{parse_expr, Expr};
/// assert!(matches!(parse_expr("(_4,_8):(_8,_1)").unwrap(), Expr::Layout(..)));
/// assert!(parse_expr("(_4,_8").is_err()); // unbalanced
/// ```
pub fn parse_expr(src: &str) -> Result<Expr> {
    if src.len() > MAX_INPUT_BYTES {
        return Err(too_large(
            "parse: the expression's length in bytes",
            src.len(),
            MAX_INPUT_BYTES,
        ));
    }
    let mut p = Parser {
        s: src.as_bytes(),
        pos: 0,
        depth: 0,
        elements: 0,
    };
    let e = p.expr()?;
    p.ws();
    if p.pos != p.s.len() {
        return Err(p.err("end of input"));
    }
    Ok(e)
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    /// Open parentheses, calls and composed layouts around `pos`.
    depth: usize,
    /// Integers, basis elements, tuples, calls and names read so far.
    elements: usize,
}

impl<'a> Parser<'a> {
    fn ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }
    fn peek_at(&self, k: usize) -> Option<u8> {
        self.s.get(self.pos + k).copied()
    }
    fn found(&self) -> String {
        match self.peek() {
            None => "end of input".into(),
            Some(_) => {
                let rest = String::from_utf8_lossy(&self.s[self.pos..]);
                let snippet: String = rest.chars().take(12).collect();
                format!("`{snippet}`")
            }
        }
    }
    fn err(&self, expected: &str) -> LayoutError {
        LayoutError::Parse {
            pos: self.pos,
            expected: expected.into(),
            found: self.found(),
        }
    }
    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8) -> Result<()> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.err(&format!("`{}`", c as char)))
        }
    }

    /// Count one element; an error past [`MAX_ELEMENTS`].
    fn element(&mut self) -> Result<()> {
        self.elements = self.elements.saturating_add(1);
        if self.elements > MAX_ELEMENTS {
            return Err(too_large(
                format!("parse: the number of elements at column {}", self.pos + 1),
                self.elements,
                MAX_ELEMENTS,
            ));
        }
        Ok(())
    }

    /// Run `f` one nesting level deeper; an error past [`MAX_DEPTH`] (so recursion stays bounded).
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.depth >= MAX_DEPTH {
            return Err(too_large(
                format!(
                    "parse: the nesting depth of parentheses and calls at column {}",
                    self.pos + 1
                ),
                self.depth + 1,
                MAX_DEPTH,
            ));
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn expr(&mut self) -> Result<Expr> {
        self.ws();
        match self.peek() {
            Some(c) if c.is_ascii_alphabetic() => self.named(),
            _ => self.term(),
        }
    }

    /// An identifier: a call, a swizzle (and composed layout), a tag, or an opaque type name.
    fn named(&mut self) -> Result<Expr> {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || c == b'_' || c == b':' && self.peek_at(1) == Some(b':')
            {
                self.pos += if c == b':' { 2 } else { 1 };
            } else {
                break;
            }
        }
        let ident = String::from_utf8_lossy(&self.s[start..self.pos]).into_owned();
        if ident == "Sw" && self.peek() == Some(b'<') {
            self.pos = start;
            return self.swizzle_term();
        }
        if ident == "LayoutLeft" {
            return Ok(Expr::Tag(Tag::LayoutLeft));
        }
        if ident == "LayoutRight" {
            return Ok(Expr::Tag(Tag::LayoutRight));
        }
        // Optional template argument list, scanned with <> and () depth.
        let targ_start = self.pos;
        if self.peek() == Some(b'<') {
            let mut depth = 0i32;
            while let Some(c) = self.peek() {
                match c {
                    b'<' | b'(' => depth += 1,
                    b'>' | b')' => depth -= 1,
                    _ => {}
                }
                self.pos += 1;
                if depth == 0 {
                    break;
                }
            }
            if depth != 0 {
                return Err(self.err("`>` closing the template arguments"));
            }
        }
        let targ_text = String::from_utf8_lossy(&self.s[targ_start..self.pos]).into_owned();
        let save = self.pos;
        self.ws();
        if self.peek() == Some(b'(') {
            let targs = if targ_text.is_empty() {
                vec![]
            } else {
                let inner = &targ_text[1..targ_text.len() - 1];
                inner
                    .split(',')
                    .map(|t| t.trim().parse::<i64>())
                    .collect::<std::result::Result<Vec<_>, _>>()
                    .map_err(|_| LayoutError::Parse {
                        pos: targ_start,
                        expected: "integer template arguments such as <1,3>".into(),
                        found: format!("`{targ_text}`"),
                    })?
            };
            self.pos += 1;
            self.element()?;
            let args = self.nested(|p| p.list("`,` or `)` in the argument list"))?;
            return Ok(Expr::Call {
                name: ident,
                targs,
                args,
            });
        }
        self.pos = save;
        self.element()?;
        Ok(Expr::Name(format!("{ident}{targ_text}")))
    }

    fn swizzle(&mut self) -> Result<Swizzle> {
        self.ws();
        if !self.s[self.pos..].starts_with(b"Sw<") {
            return Err(self.err("`Sw<B,M,S>`"));
        }
        self.pos += 3;
        let b = self.plain_int()?;
        self.expect(b',')?;
        let m = self.plain_int()?;
        self.expect(b',')?;
        let s = self.plain_int()?;
        self.expect(b'>')?;
        Ok(Swizzle {
            bits: b,
            base: m,
            shift: s,
        })
    }

    fn swizzle_term(&mut self) -> Result<Expr> {
        let sw = self.swizzle()?;
        let save = self.pos;
        self.ws();
        if self.peek() == Some(b'o') && self.peek_at(1).is_some_and(|c| c.is_ascii_whitespace()) {
            self.pos += 1;
            let off = self.itup()?;
            self.ws();
            if !(self.peek() == Some(b'o')
                && self.peek_at(1).is_some_and(|c| c.is_ascii_whitespace()))
            {
                return Err(self.err("` o ` before the inner layout of a composed layout"));
            }
            self.pos += 1;
            let inner = self.nested(Self::term)?;
            return Ok(Expr::Composed(sw, Box::new(off), Box::new(inner)));
        }
        self.pos = save;
        Ok(Expr::Swizzle(sw))
    }

    fn plain_int(&mut self) -> Result<i64> {
        self.ws();
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.pos]).unwrap_or("");
        text.parse::<i64>().map_err(|_| {
            self.pos = start;
            self.err("an integer")
        })
    }

    fn term(&mut self) -> Result<Expr> {
        self.ws();
        if self.s[self.pos..].starts_with(b"Sw<") {
            return self.swizzle_term();
        }
        let shape = self.itup()?;
        let save = self.pos;
        self.ws();
        if self.peek() == Some(b':') && self.peek_at(1) != Some(b':') {
            self.pos += 1;
            let stride = self.itup()?;
            return Ok(Expr::Layout(Box::new(shape), Box::new(stride)));
        }
        self.pos = save;
        Ok(shape)
    }

    /// Comma-separated expressions up to the closing `)` (the `(` already read).
    fn list(&mut self, expected: &str) -> Result<Vec<Expr>> {
        let mut elems = Vec::new();
        if !self.eat(b')') {
            loop {
                elems.push(self.expr()?);
                if self.eat(b')') {
                    break;
                }
                if !self.eat(b',') {
                    return Err(self.err(expected));
                }
            }
        }
        Ok(elems)
    }

    fn itup(&mut self) -> Result<Expr> {
        self.ws();
        match self.peek() {
            Some(b'(') => {
                self.pos += 1;
                self.element()?;
                Ok(Expr::Tuple(
                    self.nested(|p| p.list("`,` or `)` in a tuple"))?,
                ))
            }
            Some(b'_') if !matches!(self.peek_at(1), Some(c) if c.is_ascii_digit() || c == b'-') => {
                self.pos += 1;
                self.element()?;
                Ok(Expr::Underscore)
            }
            Some(c) if c == b'_' || c == b'-' || c.is_ascii_digit() => {
                let is_static = c == b'_';
                if is_static {
                    self.pos += 1;
                }
                let v = self.plain_int()?;
                self.element()?;
                let int = Int::new(v, is_static);
                if self.peek() == Some(b'@') {
                    let mut modes = Vec::new();
                    while self.peek() == Some(b'@') {
                        self.pos += 1;
                        let m = self.plain_int()?;
                        if m < 0 {
                            return Err(self.err("a non-negative mode index after `@`"));
                        }
                        self.element()?;
                        modes.push(m as usize);
                    }
                    modes.reverse();
                    return Ok(Expr::Basis(ScaledBasis::new(int, modes)));
                }
                Ok(Expr::Int(int))
            }
            Some(c) if c.is_ascii_alphabetic() => self.named(),
            _ => Err(self.err("an integer, `_`, or `(`")),
        }
    }
}
