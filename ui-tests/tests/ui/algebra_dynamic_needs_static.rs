// With a run-time leaf the algebra runs at run time, but what does not depend on the value is still a
// compile error: complement needs static strides.
fn main() {
    let n: i64 = 1;
    let _ = cute::layout!(complement((2,2):(1,{n}), 16));
}
