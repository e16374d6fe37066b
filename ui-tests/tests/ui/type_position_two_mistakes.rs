type Smem = cute::Layout![(8,0):(64)];
fn main() {
    let _: Option<Smem> = None;
}
