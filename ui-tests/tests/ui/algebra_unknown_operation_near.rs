// A near-miss name: the message suggests the operation.
fn main() {
    let _ = cute::layout!(compositon((6,2):(8,2), (4,3):(3,1)));
}
