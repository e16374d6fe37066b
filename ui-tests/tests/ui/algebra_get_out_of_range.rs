// (4,8) has two modes: get<5> is out of range.
fn main() {
    let _ = cute::layout!(get<5>((4,8)));
}
