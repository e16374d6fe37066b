// In a layouts! block, an algebra error is at the failing operation; later definitions do not cascade.
cute::layouts! {
    pub A = (4,32):(32,1);
    pub B = composition(A, 32:3);
    pub C = logical_divide(B, 2);
    pub D = complement(A, 256);
}
fn main() {
    let _ = D;
}
