//! Procedural macros for CuTe layouts: [`layout!`], [`Layout!`] and [`layouts!`]. Use them through the
//! facade (package `cute-layout`, library `cute`), whose `cute::typed` module holds the types they
//! expand to: every expansion names `::cute::...` paths, so the facade must be a dependency under
//! the name `cute` (its default).
//!
//! The pipeline follows thiserror's: parse the tokens (by hand: the notation is not Rust syntax) ->
//! validate with spans (congruence, extents, names) -> evaluate with layout-core's own evaluator and
//! algebra (no second implementation) -> emit concrete typed code. A mistake becomes one
//! `compile_error!` at the offending token, followed by a stub of the right type so nothing cascades.

// A macro that panics crashes the user's build with a backtrace instead of an error at their
// token: no unwrap/expect/panic, and no unchecked arithmetic (layout-core's checked integers do the
// algebra).
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod check;
mod diag;
mod emit;
mod expand;
mod parse;

use proc_macro::TokenStream;

/// A CuTe layout as a Rust literal, checked and evaluated at compile time.
///
/// - `layout!((4,(3,6)):(1,(4,12)))`: integer literals are static (`4` and `_4` alike); the result is a
///   zero-sized `cute::typed::Layout<(C<4>,(C<3>,C<6>)), (C<1>,(C<4>,C<12>))>`.
/// - A shape alone is LayoutLeft (`layout!((4,8))` is `(_4,_8):(_1,_4)`); `layout!((4,8), LayoutRight)`
///   is row-major, as `make_layout` in the notation.
/// - `{expr}` is a run-time `i64` leaf: `layout!((4,{n}):(1,4))` has type `Layout<(C<4>,i64),(C<1>,C<4>)>`;
///   congruence is still checked at compile time.
/// - Any expression that `cute eval` accepts is evaluated during expansion by layout-core:
///   `layout!(composition((6,2):(8,2),(4,3):(3,1)))` has the type of `((_2,_2),_3):((_24,_2),_8)`.
///   With `{expr}` leaves, the static checks happen at compile time and the algebra at run time: the
///   expansion is a `Result<cute::Value, cute::LayoutError>` from layout-core's evaluator.
///
/// ```
/// use cute::layout;
/// let l = layout!((4,(3,6)):(1,(4,12)));
/// assert_eq!(l.to_string(), "(_4,(_3,_6)):(_1,(_4,_12))");
/// assert_eq!(l.call((1, (2, 3))), 1 + 2 * 4 + 3 * 12);
/// assert_eq!(std::mem::size_of_val(&l), 0);
///
/// let n: i64 = 5;
/// let d = layout!((4,{n}):(1,4));
/// assert_eq!(d.to_string(), "(_4,5):(_1,_4)");
/// ```
///
/// Shapes alone, tags and the algebra, all folded into a static layout during expansion:
///
/// ```
/// use cute::layout;
/// assert_eq!(layout!((4,8)).to_string(), "(_4,_8):(_1,_4)"); // LayoutLeft
/// assert_eq!(layout!((4,8), LayoutRight).to_string(), "(_4,_8):(_8,_1)");
/// let c = layout!(composition((6,2):(8,2),(4,3):(3,1)));
/// assert_eq!(c.to_string(), "((_2,_2),_3):((_24,_2),_8)");
/// assert_eq!(layout!(logical_divide(24:1, 4:2)).to_string(), "(_4,(_2,_3)):(_2,(_1,_8))");
/// ```
///
/// The layout analyses are compile-time checks: `check_bank_conflict_free<BITS,BYTES>(TV, SMEM)` and
/// `check_coalesced<BITS>(TV, GMEM)` give the thread-value layout `TV` when its accesses are free of
/// shared-memory bank conflicts (coalesced in global memory), and fail compilation with the wavefront
/// (sector) counts otherwise:
///
/// ```
/// let tv = cute::layout!(check_bank_conflict_free<16, 16>(((8, 8), 8):((1, 64), 8), Sw<3,3,3> o 0 o (8, 64):(64, 1)));
/// assert_eq!(tv.to_string(), "((_8,_8),_8):((_1,_64),_8)");
/// ```
///
/// A mistake is a compile error that says what is wrong with the numbers:
///
/// ```compile_fail
/// let l = cute::layout!((4,(3,6)):(1,(4)));
/// // error: shape and stride are not congruent: mode 1 of the shape is (3,6) (a tuple of rank 2)
/// //        but mode 1 of the stride is (4) (a tuple of rank 1)
/// ```
#[proc_macro]
pub fn layout(input: TokenStream) -> TokenStream {
    expand::layout(input.into()).into()
}

/// The type of a typed layout, for type position: `type Smem = Layout![(8,64):(64,1)];`.
///
/// `{}` (or `{anything}`) leaves are `i64`. Operations are evaluated at compile time, so
/// `Layout![composition((6,2):(8,2),(4,3):(3,1))]` is the type of `((_2,_2),_3):((_24,_2),_8)`.
///
/// ```
/// use cute::{layout, Layout};
/// type Smem = Layout![(8,64):(64,1)];
/// const S: Smem = layout!((8,64):(64,1));
/// assert_eq!(S.call((1, 2)), 66);
/// let t: Layout![(4,{}):(1,4)] = layout!((4,{7}):(1,4));
/// assert_eq!(t.size(), 28);
/// ```
#[proc_macro]
#[allow(non_snake_case)]
pub fn Layout(input: TokenStream) -> TokenStream {
    expand::layout_type(input.into()).into()
}

/// Named static layouts: each `NAME = EXPR;` defines a type `NAME` and a constant `NAME` of that type;
/// later definitions of the block can use earlier names as operands.
///
/// ```
/// cute::layouts! {
///     /// The tile.
///     pub A = (6,2):(8,2);
///     pub B = (4,3):(3,1);
/// }
/// let a: A = A;
/// assert_eq!(a.to_string(), "(_6,_2):(_8,_2)");
/// assert_eq!(B.call(5), 4);
/// ```
#[proc_macro]
pub fn layouts(input: TokenStream) -> TokenStream {
    expand::layouts(input.into()).into()
}
