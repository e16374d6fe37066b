fn main() {
    let _ = cute::layout!(8:(1,8));
}
