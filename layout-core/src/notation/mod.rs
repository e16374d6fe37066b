//! CuTe's printed notation: parse (`FromStr`), evaluate expressions, print (`Display`).
//!
//! The grammar is the oracle's: integers `_4`/`4`, basis elements `_1@0`, tuples, layouts `S:D`,
//! swizzles `Sw<B,M,S>`, composed layouts `Sw<B,M,S> o OFF o L`, tags, `_`, and calls `name<targs>(args)`.
//!
//! ```
//! use cute_layout_core::notation::eval_str;
//! let r = eval_str("logical_product((_2,_2):(_4,_1),_6:_1)").unwrap();
//! assert_eq!(r.to_string(), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
//! assert!(eval_str("compositon(_4:_1,_2:_1)").unwrap_err().to_string().contains("composition"));
//! ```

mod builtins;
mod eval;
mod parse;
mod value;

pub use builtins::{edit_distance, operation_names};
pub use eval::{eval_str, evaluate, parse_value};
pub use parse::{Expr, Tag, parse_expr};
pub use value::Value;
