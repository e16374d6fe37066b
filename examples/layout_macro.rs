//! Writing layouts with `layout!`: CuTe's notation as a Rust literal, checked and evaluated at
//! compile time by the same algebra the run-time library uses.
//!
//! ```sh
//! cargo run --example layout_macro
//! ```
//!
//! A mistake is a compile error at the offending token. For example (the trybuild case
//! `ui-tests/tests/ui/congruence_mode1.rs`, message in `congruence_mode1.stderr`):
//!
//! ```text
//! let l = cute::layout!((4,(3,6)):(1,(4)));
//!
//! error: shape and stride are not congruent: mode 1 of the shape is (3,6) (a tuple of rank 2) but
//!        mode 1 of the stride is (4) (a tuple of rank 1)
//!  --> tests/ui/congruence_mode1.rs:4:40
//!   |
//! 4 |     let l = cute::layout!((4,(3,6)):(1,(4)));
//!   |                                        ^^^
//! ```
//!
//! Every message the macros can give has such a case in `ui-tests/tests/ui/` (run them with
//! `cargo test -p ui-tests`). Uncomment the line in `main` marked `COMPILE ERROR` to see one here.

use cute::{Layout, layout, layouts};

// Named static layouts: each defines a type and a constant; later ones may use earlier names.
layouts! {
    /// A 6x2 tile with strides (8,2).
    pub A = (6,2):(8,2);
    /// A 4x3 row-major block.
    pub B = (4,3):(3,1);
    /// A o B, computed while compiling.
    pub AB = composition(A, B);
}

// The type of a layout, for a struct field or a const.
type Smem = Layout![(8,64):(64,1)];
const SMEM: Smem = layout!((8,64):(64,1));

fn main() {
    // Integer literals are static (`4` and `_4` alike): the layout is zero-sized, and `call`
    // folds to constants.
    let l = layout!((4,(3,6)):(1,(4,12)));
    println!(
        "layout!((4,(3,6)):(1,(4,12))) = {l}  ({} bytes)",
        std::mem::size_of_val(&l)
    );
    println!("  l(3,(2,5)) = {}", l.call((3, (2, 5))));
    assert_eq!(l.call((3, (2, 5))), 3 + 2 * 4 + 5 * 12);

    // A shape alone is LayoutLeft (column-major); `LayoutRight` is row-major.
    println!("layout!((4,8)) = {}", layout!((4, 8)));
    println!(
        "layout!((4,8), LayoutRight) = {}",
        layout!((4, 8), LayoutRight)
    );

    // `{expr}` leaves are run-time i64 values; congruence is still checked at compile time.
    let n: i64 = 5;
    let d = layout!((4,{n}):(1,4));
    println!(
        "layout!((4,{{n}}):(1,4)) with n = 5: {d}, size {}",
        d.size()
    );

    // Algebra inside the macro is evaluated during expansion: the type is the result's.
    let c = layout!(composition((6,2):(8,2),(4,3):(3,1)));
    println!("layout!(composition((6,2):(8,2),(4,3):(3,1))) = {c}");
    assert_eq!(c.to_string(), AB.to_string());
    println!("layouts!: A = {A}, B = {B}, AB = {AB}");
    println!("Smem = {SMEM}, SMEM(1,2) = {}", SMEM.call((1, 2)));

    // A typed layout converts losslessly to the run-time one, for the rest of the algebra.
    let r: cute::Layout = l.into();
    println!(
        "as a run-time layout: {r}, coalesced: {}",
        cute::coalesce(&r).unwrap()
    );

    // COMPILE ERROR (uncomment): the stride's mode 1 has one element, the shape's has two.
    // let bad = layout!((4,(3,6)):(1,(4)));
}
