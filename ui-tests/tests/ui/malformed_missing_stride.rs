fn main() {
    let _ = cute::layout!((4,8):);
}
