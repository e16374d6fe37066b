fn main() {
    let _ = cute::layout!(select<1,x>((4,8):(1,4)));
}
