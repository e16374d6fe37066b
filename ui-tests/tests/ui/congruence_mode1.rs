// The design card's mistake: mode 1 of the stride has one element, the shape's has two.
// One error, at the stride's `(4)`; the stub keeps `l.call` from cascading.
fn main() {
    let l = cute::layout!((4,(3,6)):(1,(4)));
    let _ = l.call(3);
}
