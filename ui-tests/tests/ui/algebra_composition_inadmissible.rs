// B's stride 3 neither divides A's first extent 4 nor is a multiple of it: A o B is not a layout.
fn main() {
    let _ = cute::layout!(composition((_4,_32):(_32,_1),_32:_3));
}
