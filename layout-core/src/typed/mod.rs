//! The typed layer: layouts whose shape and stride are Rust types, for zero-cost indexing and for the
//! results of compile-time algebra (`layout!`).
//!
//! - [`C<N>`](C) is a zero-sized static integer (CuTe's `Int<N>`, printed `_N`);
//! - `i64` is a dynamic integer (printed `N`);
//! - Rust tuples nest them: `(C<4>, (C<3>, i64))` is the IntTuple `(_4,(_3,n))`;
//! - [`Layout<S, D>`](Layout) pairs a shape and a congruent stride, checked by the type system
//!   ([`Congruent`]).
//!
//! A fully static typed layout is zero-sized, and evaluating it at a 1-D, R-D or natural coordinate
//! inlines to the same arithmetic one would write by hand (division and remainder by constants).
//! It converts losslessly into the run-time [`crate::Layout`] (static leaves stay static) for the
//! algebra, and prints exactly as the run-time layout does.
//!
//! ```
//! use cute_layout_core::typed::{Layout, C};
//! // (_4,(_3,_6)):(_1,(_4,_12))
//! let l = Layout::new((C::<4>, (C::<3>, C::<6>)), (C::<1>, (C::<4>, C::<12>)));
//! assert_eq!(std::mem::size_of_val(&l), 0);
//! assert_eq!(l.call(17), 17);            // 1-D coordinate
//! assert_eq!(l.call((1, 4)), 17);        // R-D coordinate (4 is 1-D within mode 1)
//! assert_eq!(l.call((1, (1, 1))), 17);   // natural coordinate
//! assert_eq!(l.to_string(), "(_4,(_3,_6)):(_1,(_4,_12))");
//! let r: cute_layout_core::Layout = l.into();
//! assert_eq!(r.to_string(), l.to_string());
//! ```
//!
//! Stable Rust cannot compute new const generics, so algebra on typed layouts happens either at run
//! time (convert with [`Layout::to_runtime`]) or at compile time inside the `layout!` macro, which
//! runs layout-core's algebra during expansion and emits the result as concrete types.

mod coord;
mod int;
mod layout;
mod tuple;

pub use coord::Coord;
pub use int::{C, Leaf};
pub use layout::Layout;
pub use tuple::{Congruent, IntTupleT, Static};

/// A value of any type, for the error stubs that `layout!` emits next to a `compile_error!` so that one
/// mistake does not cascade into type errors. Never called: the crate does not compile.
#[doc(hidden)]
pub fn __stub<T>() -> T {
    unreachable!("layout! error stub: this code does not compile")
}
