//! Procedural macros for CuTe layouts (`layout!` and friends). See the facade crate `cute`.
