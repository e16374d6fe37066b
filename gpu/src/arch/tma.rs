//! TMA (SM90, `cp.async.bulk.tensor`): tile copies between global and shared memory described by a tensor
//! map (`TmaDesc`, a `__grid_constant__` parameter encoded by the runtime from a
//! [`TensorMapArg`](crate::kernel::TensorMapArg)).
//!
//! ```
//! use cute_gpu::arch::tma::{store_wait_read, STORE_COMMIT, TMA_2D};
//! // one thread stores a staged tile and waits until shared memory may be reused
//! let epilogue = format!("tma_store_2d(&tmD, buf, c0, c1); {STORE_COMMIT} {}", store_wait_read(0));
//! assert!(TMA_2D.contains("void tma_store_2d(") && epilogue.contains("cp.async.bulk.wait_group.read 0;"));
//! ```

/// The `TmaDesc` type (a 128-byte `CUtensorMap`), `tma_load_2d(dst, map, bar, c0, c1)` completing on an
/// mbarrier, and `tma_store_2d(map, src, c0, c1)` into the issuing thread's bulk async-group.
/// Coordinates are innermost first; out-of-bounds elements of a box load as zero and are not stored.
///
/// ```
/// use cute_gpu::arch::tma::TMA_2D;
/// assert!(TMA_2D.contains("struct __align__(64) TmaDesc { u64 opaque[16]; };"));
/// assert!(TMA_2D.contains("tma_load_2d(u32 dst") && TMA_2D.contains("tma_store_2d(const TmaDesc* map"));
/// ```
pub const TMA_2D: &str = r#"struct __align__(64) TmaDesc { u64 opaque[16]; };
// TMA 2-D tile load into smem, completing (complete_tx) on the mbarrier.
__device__ __forceinline__ void tma_load_2d(u32 dst, const TmaDesc* map, u32 bar, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
               :: "r"(dst), "l"((u64)map), "r"(bar), "r"(c0), "r"(c1) : "memory");
}
// TMA 2-D tile store from smem (bulk async-group of the issuing thread).
__device__ __forceinline__ void tma_store_2d(const TmaDesc* map, u32 src, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];"
               :: "l"((u64)map), "r"(src), "r"(c0), "r"(c1) : "memory");
}
"#;

/// `tma_load_3d(dst, map, bar, c0, c1, c2)`: a 3-D tile load (box extent 1 in the outer dimension: one
/// batch of a strided-batched operand) completing on an mbarrier, and `tma_store_3d(map, src, c0, c1,
/// c2)` into the issuing thread's bulk async-group; needs `TMA_2D`'s `TmaDesc`.
///
/// ```
/// use cute_gpu::arch::tma::TMA_3D;
/// assert!(TMA_3D.contains("cp.async.bulk.tensor.3d.shared::cluster.global"));
/// assert!(!TMA_3D.contains("struct")); // TmaDesc comes from TMA_2D
/// ```
pub const TMA_3D: &str = r#"// TMA 3-D tile load into smem, completing (complete_tx) on the mbarrier.
__device__ __forceinline__ void tma_load_3d(u32 dst, const TmaDesc* map, u32 bar, int c0, int c1, int c2) {
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];"
               :: "r"(dst), "l"((u64)map), "r"(bar), "r"(c0), "r"(c1), "r"(c2) : "memory");
}
// TMA 3-D tile store from smem (bulk async-group of the issuing thread).
__device__ __forceinline__ void tma_store_3d(const TmaDesc* map, u32 src, int c0, int c1, int c2) {
  asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];"
               :: "l"((u64)map), "r"(src), "r"(c0), "r"(c1), "r"(c2) : "memory");
}
"#;

/// `tma_load_4d(dst, map, bar, c0, c1, c2, c3)`: a 4-D tile load (box extent 1 in the outer two
/// dimensions) completing on an mbarrier, `tma_prefetch_4d(map, c0, c1, c2, c3)` the same box into L2
/// only, and `tma_store_4d(map, src, c0, c1, c2, c3)` into the issuing thread's bulk async-group; needs
/// `TMA_2D`'s `TmaDesc`. Out-of-bounds elements load as zero and are not
/// stored.
///
/// ```
/// use cute_gpu::arch::tma::TMA_4D;
/// assert!(TMA_4D.contains("cp.async.bulk.tensor.4d.shared::cluster.global"));
/// assert!(TMA_4D.contains("cp.async.bulk.tensor.4d.global.shared::cta.bulk_group"));
/// assert!(TMA_4D.contains("cp.async.bulk.prefetch.tensor.4d.L2.global.tile"));
/// assert!(!TMA_4D.contains("struct")); // TmaDesc comes from TMA_2D
/// ```
pub const TMA_4D: &str = r#"// TMA 4-D tile load into smem, completing (complete_tx) on the mbarrier.
__device__ __forceinline__ void tma_load_4d(u32 dst, const TmaDesc* map, u32 bar, int c0, int c1, int c2, int c3) {
  asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6}], [%2];"
               :: "r"(dst), "l"((u64)map), "r"(bar), "r"(c0), "r"(c1), "r"(c2), "r"(c3) : "memory");
}
// TMA 4-D tile prefetch into L2 (no shared memory, no barrier): a later load of the box hits L2.
__device__ __forceinline__ void tma_prefetch_4d(const TmaDesc* map, int c0, int c1, int c2, int c3) {
  asm volatile("cp.async.bulk.prefetch.tensor.4d.L2.global.tile [%0, {%1, %2, %3, %4}];"
               :: "l"((u64)map), "r"(c0), "r"(c1), "r"(c2), "r"(c3) : "memory");
}
// TMA 4-D tile store from smem (bulk async-group of the issuing thread); out-of-bounds elements not stored.
__device__ __forceinline__ void tma_store_4d(const TmaDesc* map, u32 src, int c0, int c1, int c2, int c3) {
  asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.bulk_group [%0, {%2, %3, %4, %5}], [%1];"
               :: "l"((u64)map), "r"(src), "r"(c0), "r"(c1), "r"(c2), "r"(c3) : "memory");
}
"#;

/// `tma_load_2d_mc(dst, map, bar, c0, c1, mask)` and `tma_load_3d_mc(.., c2, mask)`: a tile load
/// multicast to every CTA of the cluster in the 16-bit `mask`, into shared offset `dst` of each,
/// completing on the mbarrier at offset `bar` of each; needs `TMA_2D`'s `TmaDesc`.
///
/// ```
/// use cute_gpu::arch::tma::TMA_MULTICAST;
/// assert!(TMA_MULTICAST.contains("mbarrier::complete_tx::bytes.multicast::cluster"));
/// assert!(TMA_MULTICAST.contains("tma_load_2d_mc(") && TMA_MULTICAST.contains("tma_load_3d_mc("));
/// ```
pub const TMA_MULTICAST: &str = r#"// TMA 2-D tile load multicast to the cluster's CTAs in `mask` (same offsets in each).
__device__ __forceinline__ void tma_load_2d_mc(u32 dst, const TmaDesc* map, u32 bar, int c0, int c1, unsigned short mask) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;"
               :: "r"(dst), "l"((u64)map), "r"(bar), "r"(c0), "r"(c1), "h"(mask) : "memory");
}
// TMA 3-D tile load multicast to the cluster's CTAs in `mask`.
__device__ __forceinline__ void tma_load_3d_mc(u32 dst, const TmaDesc* map, u32 bar, int c0, int c1, int c2, unsigned short mask) {
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%3, %4, %5}], [%2], %6;"
               :: "r"(dst), "l"((u64)map), "r"(bar), "r"(c0), "r"(c1), "r"(c2), "h"(mask) : "memory");
}
"#;

/// Closes the issuing thread's current bulk async-group of TMA stores.
///
/// ```
/// use cute_gpu::arch::tma::STORE_COMMIT;
/// assert!(STORE_COMMIT.contains("cp.async.bulk.commit_group;"));
/// ```
pub const STORE_COMMIT: &str = "asm volatile(\"cp.async.bulk.commit_group;\" ::: \"memory\");";

/// Waits until at most `pending` bulk groups of this thread are still reading shared memory.
///
/// ```
/// use cute_gpu::arch::tma::store_wait_read;
/// assert!(store_wait_read(0).contains("cp.async.bulk.wait_group.read 0;"));
/// ```
pub fn store_wait_read(pending: u32) -> String {
    format!("asm volatile(\"cp.async.bulk.wait_group.read {pending};\" ::: \"memory\");")
}

/// Waits until at most `pending` bulk groups of this thread are incomplete (writes done).
///
/// ```
/// use cute_gpu::arch::tma::store_wait;
/// assert!(store_wait(1).contains("cp.async.bulk.wait_group 1;"));
/// ```
pub fn store_wait(pending: u32) -> String {
    format!("asm volatile(\"cp.async.bulk.wait_group {pending};\" ::: \"memory\");")
}

/// Prefetches the tensor map parameter `map` into the descriptor cache.
///
/// ```
/// use cute_gpu::arch::tma::prefetch;
/// assert!(prefetch("tma_q").contains("prefetch.tensormap [%0];") && prefetch("tma_q").contains("(u64)&tma_q"));
/// ```
pub fn prefetch(map: &str) -> String {
    format!("asm volatile(\"prefetch.tensormap [%0];\" :: \"l\"((u64)&{map}) : \"memory\");")
}
