// Basis-element strides are not representable in the typed layer (yet).
fn main() {
    let _ = cute::layout!((4,8):(1@0,1@1));
}
