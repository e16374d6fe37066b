// complement requires an injective layout: (2,2):(1,1) maps (1,0) and (0,1) to the same index.
fn main() {
    let _ = cute::layout!(complement((2,2):(1,1), 16));
}
