// shape_div needs one side to divide the other.
fn main() {
    let _ = cute::layout!(shape_div(6, 4));
}
