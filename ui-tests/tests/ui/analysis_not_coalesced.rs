// Each thread reads 4 floats of its own row, 512 bytes from its neighbour's: half of every sector is wasted.
fn main() {
    let _ = cute::layout!(check_coalesced<32>((32, 4):(1, 32), (32, 128):(128, 1)));
}
