//! Diagnostics: one `compile_error!` per mistake, at the span of the offending token.

use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;

/// One mistake: where and what.
#[derive(Debug, Clone)]
pub struct Diag {
    pub span: Span,
    pub msg: String,
}

impl Diag {
    pub fn new(span: Span, msg: impl Into<String>) -> Diag {
        Diag {
            span,
            msg: msg.into(),
        }
    }
    /// `::core::compile_error!{"..."}` spanned at the mistake (usable as a statement, an item or a type).
    pub fn to_compile_error(&self) -> TokenStream {
        let msg = &self.msg;
        quote_spanned!(self.span=> ::core::compile_error!{ #msg })
    }
}

pub type PResult<T> = Result<T, Diag>;
