//! # layout-core
//!
//! CuTe's layout algebra (NVIDIA CUTLASS `include/cute`) in Rust: static and dynamic integers,
//! hierarchical IntTuples, layouts, the algebra (coalesce, composition, complement, inverses, divides,
//! products), swizzles, CuTe's printed notation, tensors and MMA/copy atoms.
//!
//! Most users depend on the facade crate (package `cute-layout`, library `cute`), which re-exports
//! this crate at its root together with the `layout!` macros and, behind its `gpu` feature, the
//! kernel generator.
//!
//! ```
//! use cute_layout_core::notation::eval_str;
//! let r = eval_str("composition((_6,_2):(_8,_2),(_4,_3):(_3,_1))").unwrap();
//! assert_eq!(r.to_string(), "((_2,_2),_3):((_24,_2),_8)");
//! ```
//!
//! # The layers
//!
//! | layer | modules | CuTe |
//! | --- | --- | --- |
//! | data | [`int`](mod@int) ([`Int`]: value + static flag), [`int_tuple`](mod@int_tuple) ([`IntTuple`]), [`basis`](mod@basis) ([`ScaledBasis`], `_1@0` strides), [`layout`](mod@layout) ([`Layout`], congruent by construction), [`tiler`](mod@tiler) ([`Tiler`]) | `Int<N>`, `tuple`, `E<i>`, `Layout` |
//! | tuple arithmetic | [`tuple_ops`](mod@tuple_ops), [`arith_tuple`](mod@arith_tuple) | `int_tuple.hpp`, `arithmetic_tuple.hpp` |
//! | building and querying | [`construct`](mod@construct), [`query`](mod@query), [`coord`](mod@coord), [`modes`](mod@modes) | `make_layout`, `size`, `crd2idx`, `select`, ... |
//! | the algebra | [`coalesce`](mod@coalesce), [`composition`](mod@composition), [`complement`](mod@complement), [`inverse`](mod@inverse), [`divide`](mod@divide), [`product`](mod@product), [`vector`](mod@vector) | `layout.hpp` |
//! | swizzles | [`swizzle`](mod@swizzle) ([`Swizzle`], [`ComposedLayout`]) | `swizzle.hpp`, `swizzle_layout.hpp` |
//! | notation and pictures | [`notation`](mod@notation) (parse and evaluate CuTe's printed expressions), [`print`](mod@print) (table, TikZ, SVG) | `print`, `print_layout`, `print_latex` |
//! | compile-time layouts | [`typed`](mod@typed) (zero-sized `C<N>`, typed layouts: what `layout!` expands to) | `Int<N>`, static `Layout` types |
//! | tensors | [`tensor`](mod@tensor) (engines, views, slicing, algorithms), [`classic`](mod@classic) (CUTLASS 2.x layouts) | `Tensor`, `copy`, `gemm` |
//! | atoms | [`atom`](mod@atom) (MMA and copy traits, TiledMMA, TiledCopy, GMMA smem atoms, their SVGs) | `cute/atom` |
//!
//! The algebra's functions are re-exported at the crate root under CuTe's names; each returns
//! [`Result`] with a [`LayoutError`] that names the failed condition and the values.
//!
//! ```
//! use cute_layout_core::{Layout, coalesce, complement, composition, right_inverse};
//! let a: Layout = "(_2,(_1,_6)):(_1,(_6,_2))".parse().unwrap();
//! assert_eq!(coalesce(&a).unwrap().to_string(), "_12:_1");
//! let rm: Layout = "(_4,_8):(_8,_1)".parse().unwrap();
//! let inv = right_inverse(&rm).unwrap();
//! assert_eq!(composition(&rm, &inv).unwrap().to_string(), "(_8,_4):(_1,_8)"); // identity on 0..32
//! assert!(complement(&"(_2,_2):(_1,_1)".parse().unwrap(), &"_4".parse().unwrap()).is_err()); // not injective
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
