// i64::MIN / -1 is 2^63, which is not an i64: an overflow error, not a panic of the macro.
fn main() {
    let _ = cute::layout!(shape_div(-9223372036854775808, -1));
    let _ = cute::layout!(shape_div(_-9223372036854775808, _-1));
}
