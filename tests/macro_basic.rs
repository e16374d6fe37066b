//! `layout!`, `Layout!` and `layouts!` through the facade: types, values, printing, indexing.

use cute::typed::{C, Layout as TLayout};
use cute::{Layout, layout, layouts};

#[test]
fn design_card_literal_is_static_and_zero_sized() {
    let l = layout!((4,(3,6)):(1,(4,12)));
    type Expected = TLayout<(C<4>, (C<3>, C<6>)), (C<1>, (C<4>, C<12>))>;
    let _: Expected = l;
    assert_eq!(std::mem::size_of_val(&l), 0);
    assert_eq!(l.to_string(), "(_4,(_3,_6)):(_1,(_4,_12))");
    let r: cute::Layout = l.into();
    assert_eq!(r.to_string(), "(_4,(_3,_6)):(_1,(_4,_12))");
    for i in 0..72 {
        assert_eq!(l.call(i), i, "compact layout is the identity on 0..72");
    }
}

#[test]
fn underscore_literals_are_static_too() {
    let a = layout!((_4,_8):(_1,_4));
    let b = layout!((4,8):(1,4));
    assert_eq!(a, b);
    assert_eq!(a.to_string(), "(_4,_8):(_1,_4)");
}

#[test]
fn dynamic_leaves_are_i64() {
    let n: i64 = 6;
    let l = layout!((4,{n}):(1,{n * 2}));
    let _: TLayout<(C<4>, i64), (C<1>, i64)> = l;
    assert_eq!(l.to_string(), "(_4,6):(_1,12)");
    assert_eq!(l.call((3, 5)), 3 + 60);
    assert_eq!(l.size(), 24);
}

#[test]
fn negative_strides_and_rank_one_tuples() {
    let l = layout!((3):(-2));
    assert_eq!(l.to_string(), "(_3):(_-2)");
    assert_eq!(l.call(2), -4);
    let m = layout!(8:_1);
    assert_eq!(m.to_string(), "_8:_1");
}

#[test]
fn type_position() {
    type Smem = Layout![(8,64):(64,1)];
    const S: Smem = layout!((8,64):(64,1));
    assert_eq!(S.call((7, 63)), 7 * 64 + 63);
    let d: Layout![(8,{}):(1,8)] = layout!((8,{3}):(1,8));
    assert_eq!(d.to_string(), "(_8,3):(_1,_8)");
}

layouts! {
    /// A documented constant.
    pub A = (6,2):(8,2);
    pub(crate) B = (4,3):(3,1);
}

#[test]
fn named_definitions() {
    let a: A = A;
    assert_eq!(a.to_string(), "(_6,_2):(_8,_2)");
    assert_eq!(B.call((3, 2)), 11);
}
