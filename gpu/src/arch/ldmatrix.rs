//! `ldmatrix` (SM75+): four 8x8 matrices of 16-bit values from shared memory into a warp's registers, and
//! its mirror `stmatrix` (SM90).
//! Lane `i` supplies the address of row `i % 8` of matrix `i / 8`; which element of the tile that row
//! is comes from the copy atom's thread-value layout (`crate::atom::ldmatrix_lanes`).
//!
//! ```
//! use cute_gpu::{DType, Major, arch::ldmatrix::ldmatrix_fn, atom::{ldmatrix_lanes, sm80_mma}};
//! use cute_layout_core::atom::Operand;
//! let lanes = ldmatrix_lanes(&sm80_mma(DType::F16).unwrap(), Operand::A, Major::K).unwrap();
//! assert_eq!(lanes.to_string(), "(_8,_2,_2):(_1@0,_8@0,_8@1)"); // lane -> (m, k) of the row it points at
//! assert_eq!(ldmatrix_fn(Major::K), "ldmatrix_x4");
//! ```

use cute_layout_core::atom::gmma::Major;

/// `ldmatrix_x4(r, addr)` and `ldmatrix_x4_trans(r, addr)` (`.trans`: for MN-major tiles).
///
/// ```
/// use cute_gpu::arch::ldmatrix::LDMATRIX;
/// assert!(LDMATRIX.contains("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"));
/// assert!(LDMATRIX.contains("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"));
/// ```
pub const LDMATRIX: &str = r#"__device__ __forceinline__ void ldmatrix_x4(unsigned int* r, unsigned int addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned int* r, unsigned int addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
"#;

/// `stmatrix_x4(addr, r0, r1, r2, r3)` (SM90): the mirror of `ldmatrix_x4`, four 8x8 matrices of 16-bit
/// values from a warp's registers to shared memory (lane `i` addresses row `i % 8` of matrix `i / 8`,
/// register `j` of each lane holds its pair of matrix `j`; which rows and pairs those are comes from
/// [`crate::atom::stmatrix_gmma_c`]).
///
/// ```
/// use cute_gpu::arch::ldmatrix::STMATRIX;
/// assert!(STMATRIX.contains("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"));
/// ```
pub const STMATRIX: &str = r#"__device__ __forceinline__ void stmatrix_x4(unsigned int addr, unsigned int r0, unsigned int r1, unsigned int r2, unsigned int r3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"
               :: "r"(addr), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
}
"#;

/// The function of [`LDMATRIX`] that reads a tile stored with `major` contiguous into a K-major fragment.
///
/// ```
/// use cute_gpu::{Major, arch::ldmatrix::ldmatrix_fn};
/// assert_eq!((ldmatrix_fn(Major::K), ldmatrix_fn(Major::MN)), ("ldmatrix_x4", "ldmatrix_x4_trans"));
/// ```
pub fn ldmatrix_fn(major: Major) -> &'static str {
    match major {
        Major::K => "ldmatrix_x4",
        Major::MN => "ldmatrix_x4_trans",
    }
}
