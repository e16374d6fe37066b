fn main() {
    let _ = cute::layout!((4,1@0):(1,4));
}
