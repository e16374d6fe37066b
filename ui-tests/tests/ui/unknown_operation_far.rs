// No operation is near this name, so there is no suggestion.
fn main() {
    let _ = cute::layout!(frobnicate_the_layout((4,8):(1,4)));
}
