use cute::typed::{Layout as T, C};
use cute::{layout, layouts, Layout};

type Smem = Layout![(8,64):(64,1)];
type Dyn = Layout![(4,{}):(1,{})];

layouts! {
    pub A = (6,2):(8,2);
    pub B = (4,3):(3,1);
}

fn main() {
    let l = layout!((4,(3,6)):(1,(4,12)));
    let _: T<(C<4>, (C<3>, C<6>)), (C<1>, (C<4>, C<12>))> = l;
    assert_eq!(l.to_string(), "(_4,(_3,_6)):(_1,(_4,_12))");
    const S: Smem = layout!((8,64):(64,1));
    assert_eq!(S.call((1, 1)), 65);
    let n = 5i64;
    let d: Dyn = layout!((4,{n}):(1,{4 * n}));
    assert_eq!(d.to_string(), "(_4,5):(_1,20)");
    assert_eq!(A.to_string(), "(_6,_2):(_8,_2)");
    let _: B = B;
}
