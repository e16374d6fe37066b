//! `cute`: CuTe's layout algebra in Rust.
//!
//! This facade re-exports the runtime algebra ([`layout_core`]) and the macros ([`layout_macros`]).
pub use layout_core::*;
pub use layout_macros::*;
