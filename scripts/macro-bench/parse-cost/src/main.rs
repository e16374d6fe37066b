//! Per-expression parse cost: the hand parser of `layout!` against syn, on the same token streams.
//!
//! Reads the `expr` column of an oracle TSV, lexes each expression once with proc-macro2 (outside the
//! compiler: proc-macro2's fallback implementation; inside a macro the compiler has already lexed the
//! tokens), then times per expression:
//!   clone  cloning the TokenStream (every variant below consumes one clone per run; included in each)
//!   hand   `parse::parse_all`, the macro's own parser (layout-macros/src/parse.rs, included by path)
//!   syn-cursor  `syn::parse::Parser::parse2` with a closure that walks every token and group with
//!               syn's `Cursor` (builds syn's TokenBuffer; the minimum any syn-based parser does)
//!   syn-stream  the same walk through the `ParseStream` API: `parenthesized!`/`braced!`/`bracketed!`
//!               into groups, `LitInt::base10_parse::<i64>` for integers, `TokenTree` for the rest
//!               (closer to what a port of the parser would call)
//! Each figure is the best of 5 rounds of 200 runs (see `knob`), in time per run; the report gives the median
//! and the mean over the expressions, and the sum over all of them.
//!
//! usage: cargo run [--release] --manifest-path scripts/macro-bench/parse-cost/Cargo.toml -- ORACLE.tsv

#[allow(dead_code)]
#[path = "../../../../layout-macros/src/diag.rs"]
mod diag;
#[allow(dead_code)]
#[path = "../../../../layout-macros/src/parse.rs"]
mod parse;

use proc_macro2::{TokenStream, TokenTree};
use std::hint::black_box;
use std::str::FromStr;
use std::time::Instant;
use syn::parse::{ParseStream, Parser};

/// Runs per round and rounds per expression; `PARSE_COST_ITERS` and `PARSE_COST_ROUNDS` override them
/// (an unoptimized build, as the macro runs in a user's dev build, is ~10x slower).
fn knob(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Walks every token with syn's cursor; returns the number of tokens seen.
fn syn_cursor(input: ParseStream) -> syn::Result<usize> {
    input.step(|cursor| {
        fn walk(mut c: syn::buffer::Cursor) -> (usize, syn::buffer::Cursor) {
            let mut n = 0;
            loop {
                if let Some((inside, _, _, after)) = c.any_group() {
                    let (m, _) = walk(inside);
                    n += m + 1;
                    c = after;
                } else if let Some((_, after)) = c.ident() {
                    n += 1;
                    c = after;
                } else if let Some((_, after)) = c.punct() {
                    n += 1;
                    c = after;
                } else if let Some((_, after)) = c.literal() {
                    n += 1;
                    c = after;
                } else if let Some((_, after)) = c.lifetime() {
                    n += 1;
                    c = after;
                } else {
                    return (n, c);
                }
            }
        }
        Ok(walk(*cursor))
    })
}

/// The same walk through the ParseStream API, parsing integer literals.
fn syn_stream(input: ParseStream) -> syn::Result<usize> {
    let mut n = 0;
    while !input.is_empty() {
        let content;
        if input.peek(syn::token::Paren) {
            syn::parenthesized!(content in input);
            n += 1 + syn_stream(&content)?;
        } else if input.peek(syn::token::Brace) {
            syn::braced!(content in input);
            n += 1 + syn_stream(&content)?;
        } else if input.peek(syn::token::Bracket) {
            syn::bracketed!(content in input);
            n += 1 + syn_stream(&content)?;
        } else if input.peek(syn::LitInt) {
            let lit: syn::LitInt = input.parse()?;
            n += 1 + (lit.base10_parse::<i64>().unwrap_or(0) & 1) as usize;
        } else {
            let _: TokenTree = input.parse()?;
            n += 1;
        }
    }
    Ok(n)
}

/// Best of `rounds` rounds of `iters` calls, in nanoseconds per call.
fn time((iters, rounds): (u32, u32), mut f: impl FnMut()) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..rounds {
        let t = Instant::now();
        for _ in 0..iters {
            f();
        }
        best = best.min(t.elapsed().as_nanos() as f64 / iters as f64);
    }
    best
}

fn summary(name: &str, v: &mut [f64]) {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let sum: f64 = v.iter().sum();
    println!(
        "{name:<11} median {:>7.2} us  mean {:>7.2} us  p90 {:>7.2} us  max {:>7.2} us  sum {:>8.2} ms",
        v[v.len() / 2] / 1e3,
        sum / v.len() as f64 / 1e3,
        v[v.len() * 9 / 10] / 1e3,
        v[v.len() - 1] / 1e3,
        sum / 1e6
    );
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tests/data/oracle_public.tsv".into());
    let text = std::fs::read_to_string(&path).expect("read the oracle TSV");
    let mut streams = Vec::new();
    let (mut lex_failed, mut hand_ok, mut tokens) = (0, 0, 0usize);
    let mut lex = Vec::new();
    for line in text.lines().skip(1) {
        let Some(expr) = line.split('\t').nth(3) else {
            continue;
        };
        let t = Instant::now();
        let Ok(ts) = TokenStream::from_str(expr) else {
            lex_failed += 1;
            continue;
        };
        lex.push(t.elapsed().as_nanos() as f64);
        hand_ok += parse::parse_all(ts.clone()).is_ok() as usize;
        tokens += syn_cursor.parse2(ts.clone()).expect("syn walks any stream");
        assert!(
            syn_stream.parse2(ts.clone()).is_ok(),
            "syn-stream on {expr}"
        );
        streams.push(ts);
    }
    println!(
        "{path}: {} expressions lexed ({lex_failed} not lexable), {hand_ok} accepted by the hand parser, {:.1} tokens each on average (groups count 1)",
        streams.len(),
        tokens as f64 / streams.len() as f64
    );
    let k = (knob("PARSE_COST_ITERS", 200), knob("PARSE_COST_ROUNDS", 5));
    let (mut clone, mut hand, mut cur, mut stream) = (vec![], vec![], vec![], vec![]);
    for ts in &streams {
        clone.push(time(k, || {
            black_box(black_box(ts).clone());
        }));
        hand.push(time(k, || {
            let _ = black_box(parse::parse_all(black_box(ts).clone()));
        }));
        cur.push(time(k, || {
            let _ = black_box(syn_cursor.parse2(black_box(ts).clone()));
        }));
        stream.push(time(k, || {
            let _ = black_box(syn_stream.parse2(black_box(ts).clone()));
        }));
    }
    println!(
        "per expression (best of {} rounds of {} runs, {} build):",
        k.1,
        k.0,
        if cfg!(debug_assertions) {
            "unoptimized"
        } else {
            "optimized"
        }
    );
    summary("lex (once)", &mut lex);
    summary("clone", &mut clone);
    summary("hand", &mut hand);
    summary("syn-cursor", &mut cur);
    summary("syn-stream", &mut stream);
}
