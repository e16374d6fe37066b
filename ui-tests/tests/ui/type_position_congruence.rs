type Smem = cute::Layout![(8,64):(64)];
fn main() {
    let _: Option<Smem> = None;
}
