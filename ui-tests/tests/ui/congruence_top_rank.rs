fn main() {
    let _ = cute::layout!((4,8,2):(1,4));
}
