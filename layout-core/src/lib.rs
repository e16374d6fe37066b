//! # layout-core
//!
//! CuTe's layout algebra (NVIDIA CUTLASS `include/cute`) in Rust: static and dynamic integers,
//! hierarchical IntTuples, layouts, the algebra (coalesce, composition, complement, inverses, divides,
//! products), swizzles, CuTe's printed notation, tensors and MMA/copy atoms.
//!
//! ```
//! use layout_core::notation::eval_str;
//! let r = eval_str("composition((_6,_2):(_8,_2),(_4,_3):(_3,_1))").unwrap();
//! assert_eq!(r.to_string(), "((_2,_2),_3):((_24,_2),_8)");
//! ```
#![forbid(unsafe_code)]
// Bad input is an error, never a panic: no unwrap/expect/panic outside tests (the few `Index`
// impls of tensors, which must panic by the trait's contract, allow it where they are).
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]
#![warn(missing_docs)]

pub mod analysis;
pub mod arith_tuple;
pub mod atom;
pub mod basis;
pub mod classic;
pub mod coalesce;
pub mod complement;
pub mod composition;
pub mod construct;
pub mod coord;
pub mod divide;
pub mod error;
pub mod eval_fast;
pub mod int;
pub mod int_tuple;
pub mod inverse;
pub mod layout;
pub mod limits;
pub mod modes;
pub mod notation;
pub mod print;
pub mod product;
pub mod query;
pub mod swizzle;
pub mod tensor;
pub mod tiler;
pub mod tiler_div;
pub mod tuple_ops;
pub mod typed;
pub mod vector;

pub use basis::ScaledBasis;
pub use error::{LayoutError, Result};
pub use int::Int;
pub use int_tuple::IntTuple;
pub use layout::Layout;
pub use notation::Value;
pub use swizzle::{
    ComposedLayout, LayoutFn, Swizzle, composition_layout_swizzle, composition3, layout_eval,
};
pub use tiler::Tiler;

// The algebra's functions, re-exported at the crate root under CuTe's names.
pub use arith_tuple::*;
pub use coalesce::*;
pub use complement::*;
pub use composition::*;
pub use construct::*;
pub use coord::*;
pub use divide::*;
pub use inverse::*;
pub use modes::*;
pub use product::*;
pub use query::*;
pub use tiler_div::*;
pub use tuple_ops::*;
pub use vector::*;
