fn main() {
    let _ = cute::layout!();
}
