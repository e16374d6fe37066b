//! Layout analyses as compile-time checks in `layout!`: `check_bank_conflict_free<BITS,BYTES>(TV, SMEM)`
//! and `check_coalesced<BITS>(TV, GMEM)` evaluate to the thread-value layout when the check passes and
//! fail compilation with the numbers otherwise (the failing cases are in `ui-tests/`).

use cute::layout;

#[test]
fn a_conflict_free_smem_layout_compiles() {
    // 64 threads copy 16 bytes each into an 8x64 tile of halves, swizzled by 128 bytes.
    let tv = layout!(check_bank_conflict_free<16, 16>(((8, 8), 8):((1, 64), 8), Sw<3,3,3> o 0 o (8, 64):(64, 1)));
    assert_eq!(tv.to_string(), "((_8,_8),_8):((_1,_64),_8)");
}

#[test]
fn a_coalesced_copy_compiles() {
    let tv = layout!(check_coalesced<32>(((32, 32), 4):((128, 1), 32), (32, 128):(128, 1)));
    assert_eq!(tv.call((5, 2)), 5 * 128 + 2 * 32);
}
