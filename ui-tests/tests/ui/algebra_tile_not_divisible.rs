// tile_to_shape needs the block shape (2,3) to divide the target shape (4,8).
fn main() {
    let _ = cute::layout!(tile_to_shape((2,3):(1,2), (4,8)));
}
