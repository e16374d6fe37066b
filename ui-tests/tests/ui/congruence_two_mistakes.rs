// Two mistakes, two errors, each at its own token.
fn main() {
    let _ = cute::layout!(((4,2),(3,6)):((1,4),(8)));
    let _ = cute::layout!((4,0):(1,4));
}
