fn main() {
    let _ = cute::layout!((4,-2):(1,4));
}
