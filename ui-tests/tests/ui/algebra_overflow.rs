// Each number fits in i64, but composing multiplies the strides: 2^62 * 4 does not fit.
fn main() {
    let _ = cute::layout!(composition(2:4611686018427387904, 2:4));
}
