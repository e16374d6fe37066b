fn main() {
    let _ = cute::layout!(Sw<3,4,3>);
}
