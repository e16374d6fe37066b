fn main() {
    let _ = cute::layout!((4,(0,6)):(1,(4,12)));
}
