// A run-time leaf is an i64: the type error points at the expression.
fn main() {
    let n: usize = 8;
    let _ = cute::layout!((4,{n}):(1,4));
}
