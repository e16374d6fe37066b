// Each number fits in i64, but the layout's size 2^32 * 2^32 does not.
fn main() {
    let _ = cute::layout!((4294967296,4294967296):(1,4294967296));
}
