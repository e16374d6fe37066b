//! CuTe's printed notation: parse (`FromStr`), evaluate expressions, print (`Display`).
//!
//! The grammar is the oracle's: integers `_4`/`4`, basis elements `_1@0`, tuples, layouts `S:D`,
//! swizzles `Sw<B,M,S>`, composed layouts `Sw<B,M,S> o OFF o L`, tags, `_`, and calls `name<targs>(args)`.

mod builtins;
mod eval;
mod parse;
mod value;

pub use builtins::{edit_distance, operation_names};
pub use eval::{eval_str, evaluate, parse_value};
pub use parse::{Expr, Tag, parse_expr};
pub use value::Value;
