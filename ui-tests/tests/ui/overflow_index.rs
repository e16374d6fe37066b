// The size fits, but the largest index (4 - 1) * 2^62 does not.
fn main() {
    let _ = cute::layout!(4:4611686018427387904);
}
