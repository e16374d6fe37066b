// (4,8):(1,4) has two modes: layout<3> is out of range.
fn main() {
    let _ = cute::layout!(layout<3>((4,8):(1,4)));
}
