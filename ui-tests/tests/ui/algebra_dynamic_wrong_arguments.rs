// With a run-time leaf, a wrong argument count is still found at compile time.
fn main() {
    let n: i64 = 4;
    let _ = cute::layout!(logical_divide((4,{n}):(1,4)));
}
