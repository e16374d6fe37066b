// A result of 2^21 elements asked for by a short expression: an error before any memory is spent.
fn main() {
    let _ = cute::layout!(append<1048576>((1,1),(1,1)));
    let _ = cute::layout!(append<4096>(1,append<4096>(1,append<4096>(1,(1,1)))));
}
