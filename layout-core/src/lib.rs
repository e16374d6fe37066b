//! # layout-core
//!
//! CuTe's layout algebra (NVIDIA CUTLASS `include/cute`) in Rust: static and dynamic integers,
//! hierarchical IntTuples, layouts, the algebra (coalesce, composition, complement, inverses, divides,
//! products), swizzles, CuTe's printed notation, tensors and MMA/copy atoms.
//!
//! ```
//! use layout_core::notation::eval_str;
//! let r = eval_str("composition((6,2):(8,2),(4,3):(3,1))").unwrap();
//! assert_eq!(r.to_string(), "((2,2),3):((24,2),8)");
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod basis;
pub mod error;
pub mod int;
pub mod int_tuple;
pub mod layout;
pub mod notation;
pub mod swizzle;
pub mod tiler;

pub use basis::ScaledBasis;
pub use error::{LayoutError, Result};
pub use int::Int;
pub use int_tuple::IntTuple;
pub use layout::Layout;
pub use notation::Value;
pub use swizzle::{ComposedLayout, Swizzle};
pub use tiler::Tiler;
