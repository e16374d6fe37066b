// composition takes two layouts.
fn main() {
    let _ = cute::layout!(composition((6,2):(8,2), (4,3):(3,1), (4,3)));
}
