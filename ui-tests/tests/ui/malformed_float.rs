fn main() {
    let _ = cute::layout!((4.5,8):(1,4));
}
