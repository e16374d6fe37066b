// The error is reported at the innermost operation that fails, not at the outer one.
fn main() {
    let _ = cute::layout!(coalesce(logical_divide(complement((2,2):(1,1), 16), 2)));
}
