//! `mma.sync` (SM80): warp-wide tensor-core multiply-accumulate.
//!
//! ```
//! use cute_gpu::{DType, arch::mma_sync::mma_m16n8k16};
//! let f = mma_m16n8k16(DType::F16);
//! assert!(f.starts_with("__device__ __forceinline__ void mma_16816(float* d, const unsigned int* a, const unsigned int* b)"));
//! ```

use crate::dtype::DType;

/// `mma_16816(d, a, b)`: `mma.sync.aligned.m16n8k16.row.col.f32.{ty}.{ty}.f32`, D = A*B + D with f32
/// accumulators (4 per lane), A in 4 registers, B in 2.
///
/// ```
/// assert!(cute_gpu::arch::mma_sync::mma_m16n8k16(cute_gpu::DType::BF16).contains("m16n8k16.row.col.f32.bf16.bf16.f32"));
/// ```
pub fn mma_m16n8k16(input: DType) -> String {
    let ty = input.name();
    format!(
        r#"__device__ __forceinline__ void mma_16816(float* d, const unsigned int* a, const unsigned int* b) {{
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.{ty}.{ty}.f32 {{%0,%1,%2,%3}}, {{%4,%5,%6,%7}}, {{%8,%9}}, {{%0,%1,%2,%3}};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}}
"#
    )
}
