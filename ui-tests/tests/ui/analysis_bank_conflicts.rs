// A quarter-warp of 8 threads writes 16 bytes each to 8 rows of a row-major 8x64 tile of halves:
// all in the same 4 banks, so the compile-time check fails with the wavefront counts.
fn main() {
    let _ = cute::layout!(check_bank_conflict_free<16, 16>(((8, 8), 8):((1, 64), 8), (8, 64):(64, 1)));
}
