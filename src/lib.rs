//! `cute`: CuTe's layout algebra in Rust.
//!
//! This facade re-exports the runtime algebra ([`layout_core`]) and the macros ([`layout_macros`]):
//! [`layout!`] writes a layout as a Rust literal, checked and evaluated at compile time into a
//! concrete typed layout ([`typed`]), [`Layout!`] names its type, [`layouts!`] defines named constants.
//!
//! ```
//! use cute::layout;
//! let l = layout!((4,(3,6)):(1,(4,12)));
//! assert_eq!(l.to_string(), "(_4,(_3,_6)):(_1,(_4,_12))");
//! assert_eq!(l.call((3, (2, 5))), 3 + 2 * 4 + 5 * 12);
//! assert_eq!(std::mem::size_of_val(&l), 0); // fully static: zero-sized
//! let r: cute::Layout = l.into();          // lossless into the run-time layout
//! assert_eq!(r.to_string(), l.to_string());
//! ```

// Lets the macros' `::cute::...` paths resolve inside this crate too.
extern crate self as cute;

pub use layout_core::*;
pub use layout_macros::*;

// Short paths for the code that `layout!` emits: every static leaf of a result is `::cute::__C::<N>`,
// and a path segment fewer per leaf is measurably cheaper to resolve (scripts/macro-bench).
#[doc(hidden)]
pub use layout_core::typed::{C as __C, Layout as __L};
