fn main() {
    let _ = cute::layout!((4,(3,6)):(1,4));
}
