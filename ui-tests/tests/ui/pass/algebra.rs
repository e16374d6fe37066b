// Compile-time algebra: the result of each static expression is a concrete typed layout (or integer tuple).
use cute::typed::{Layout as T, C};
use cute::{layout, layouts, Layout};

layouts! {
    pub A = (6,2):(8,2);
    pub B = (4,3):(3,1);
    pub AB = composition(A, B);
}

type Composed = Layout![composition((6,2):(8,2),(4,3):(3,1))];

fn main() {
    // The example: the type of ((_2,_2),_3):((_24,_2),_8), static literals.
    let c = layout!(composition((6,2):(8,2),(4,3):(3,1)));
    let _: T<((C<2>, C<2>), C<3>), ((C<24>, C<2>), C<8>)> = c;
    let _: Layout![((_2,_2),_3):((_24,_2),_8)] = c;
    let _: Composed = c;
    let _: AB = c;
    assert_eq!(c.to_string(), "((_2,_2),_3):((_24,_2),_8)");
    assert_eq!(AB.to_string(), "((_2,_2),_3):((_24,_2),_8)");
    assert_eq!(std::mem::size_of_val(&c), 0);

    // A shape alone is LayoutLeft.
    let s = layout!((4,8));
    let _: T<(C<4>, C<8>), (C<1>, C<4>)> = s;
    let r = layout!((4,8), LayoutRight);
    let _: T<(C<4>, C<8>), (C<8>, C<1>)> = r;

    // A divide and a product.
    let d = layout!(logical_divide((16,8):(1,16), (4,2)));
    let _: T<((C<4>, C<4>), (C<2>, C<4>)), ((C<1>, C<4>), (C<16>, C<32>))> = d;
    let z = layout!(zipped_divide((6,4):(1,6), (4,2)));
    let _: Layout![((4,2),(2,2)):((1,6),(4,12))] = z;
    let p = layout!(blocked_product((4,8):(1,4), (2,2):(1,2)));
    let _: T<((C<4>, C<2>), (C<8>, C<2>)), ((C<1>, C<32>), (C<4>, C<64>))> = p;
    let q = layout!(logical_product((2,2):(1,2), (3):(1)));
    assert_eq!(q.to_string(), "((_2,_2),(_3)):((_1,_2),(_4))");

    // Other algebra: complement, coalesce, an integer-tuple result.
    let k = layout!(complement((4,2):(1,8), 64));
    assert_eq!(k.to_string(), cute::notation::eval_str("complement((_4,_2):(_1,_8), _64)").unwrap().to_string());
    let f = layout!(coalesce((2,(1,6)):(1,(6,2))));
    assert_eq!(f.to_string(), "_12:_1");
    let g = layout!(get<1>((4,(3,6))));
    let _: (C<3>, C<6>) = g;

    // Run-time leaves: the algebra runs at run time through layout-core and returns a Result.
    let n: i64 = 8;
    let v: Result<cute::notation::Value, cute::LayoutError> = layout!(composition((4,{n}):(1,4), 2:1));
    assert_eq!(v.unwrap().to_string(), "_2:_1");
    let big: i64 = 1 << 62;
    assert!(layout!(composition(2:{big}, 2:4)).is_err());
}
