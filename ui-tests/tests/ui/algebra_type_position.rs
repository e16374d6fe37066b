// Type position evaluates the algebra too, with the same errors.
type T = cute::Layout![composition((_4,_32):(_32,_1),_32:_3)];
fn main() {}
