//! Compile-time algebra through `layout!`/`Layout!`/`layouts!`: each static result is the concrete typed
//! layout that layout-core's evaluator computes; with run-time leaves the algebra runs at run time.

#![allow(clippy::type_complexity)] // the point of these tests is to spell result types out

use cute::typed::{C, Layout as T};
use cute::{Layout, layout, layouts};

layouts! {
    pub A = (6,2):(8,2);
    pub B = (4,3):(3,1);
    pub AB = composition(A, B);
    pub TILED = zipped_divide(A, (2,2));
}

/// The static result agrees with the evaluator on the same expression (all literals static).
fn same_as_eval<L: std::fmt::Display>(l: L, expr: &str) {
    let want = cute::notation::eval_str(expr).unwrap();
    assert_eq!(l.to_string(), want.to_string(), "{expr}");
}

#[test]
fn composition_has_the_issue_type() {
    let c = layout!(composition((6,2):(8,2),(4,3):(3,1)));
    let _: T<((C<2>, C<2>), C<3>), ((C<24>, C<2>), C<8>)> = c;
    let _: Layout![((_2,_2),_3):((_24,_2),_8)] = c;
    let _: AB = c;
    assert_eq!(std::mem::size_of_val(&c), 0);
    assert_eq!(c.to_string(), "((_2,_2),_3):((_24,_2),_8)");
    assert_eq!(AB.to_string(), c.to_string());
}

#[test]
fn shape_alone_is_layout_left() {
    let l = layout!((4, 8));
    let _: T<(C<4>, C<8>), (C<1>, C<4>)> = l;
    let r = layout!((4, 8), LayoutRight);
    let _: T<(C<4>, C<8>), (C<8>, C<1>)> = r;
}

#[test]
fn divides_and_products_agree_with_the_evaluator() {
    same_as_eval(
        layout!(logical_divide((16,8):(1,16), (4,2))),
        "logical_divide((_16,_8):(_1,_16), (_4,_2))",
    );
    same_as_eval(
        layout!(zipped_divide((6,4):(1,6), (4,2))),
        "zipped_divide((_6,_4):(_1,_6), (_4,_2))",
    );
    same_as_eval(
        layout!(blocked_product((4,8):(1,4), (2,2):(1,2))),
        "blocked_product((_4,_8):(_1,_4), (_2,_2):(_1,_2))",
    );
    same_as_eval(
        layout!(raked_product((4,8):(1,4), (2,2):(1,2))),
        "raked_product((_4,_8):(_1,_4), (_2,_2):(_1,_2))",
    );
    same_as_eval(
        layout!(complement((4,2):(1,8), 64)),
        "complement((_4,_2):(_1,_8), _64)",
    );
    same_as_eval(
        layout!(coalesce((2,(1,6)):(1,(6,2)))),
        "coalesce((_2,(_1,_6)):(_1,(_6,_2)))",
    );
    same_as_eval(TILED, "zipped_divide((_6,_2):(_8,_2), (_2,_2))");
    let d = layout!(logical_divide((16,8):(1,16), (4,2)));
    let _: T<((C<4>, C<4>), (C<2>, C<4>)), ((C<1>, C<4>), (C<16>, C<32>))> = d;
}

#[test]
fn integer_tuple_results() {
    let g = layout!(get<1>((4,(3,6))));
    let _: (C<3>, C<6>) = g;
    let s = layout!(shape_div((12, 8), (4, 2)));
    assert_eq!(format!("{:?}", s), "(_3, _4)");
}

#[test]
fn dynamic_leaves_run_the_algebra_at_run_time() {
    let n: i64 = 8;
    let v: Result<cute::notation::Value, cute::LayoutError> =
        layout!(composition((4,{n}):(1,4), 2:1));
    assert_eq!(v.unwrap().to_string(), "_2:_1");
    let v = layout!(logical_divide(({n},4):(1,{n}), 2));
    assert_eq!(
        v.unwrap().to_string(),
        cute::notation::eval_str("logical_divide((8,_4):(_1,8), _2)")
            .unwrap()
            .to_string()
    );
    // A value-dependent failure is an Err at run time, not a panic.
    let big: i64 = 1 << 62;
    let e = layout!(composition(2:{big}, 2:4)).unwrap_err();
    assert!(e.to_string().contains("overflow"), "{e}");
}
