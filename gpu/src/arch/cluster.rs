//! Thread-block clusters (SM90): the CTAs of a cluster run at once on one GPC, can arrive on each other's
//! mbarriers (`mapa` + `mbarrier.arrive.shared::cluster`) and synchronize as a whole
//! (`barrier.cluster`). A kernel's cluster shape is fixed at compile time (`__cluster_dims__`).
//!
//! ```
//! use cute_gpu::{arch::{cluster::{CLUSTER, cluster_dims, cluster_sync}, mbarrier::MBARRIER, memory::SMEM_ADDR},
//!     nvrtc::{compile, nvrtc_available}};
//! let src = format!("typedef unsigned int u32;\n{SMEM_ADDR}{MBARRIER}{CLUSTER}extern \"C\" __global__ void {} k() {{
//!   __shared__ __align__(8) unsigned long long bar; const u32 b = smem_u32(&bar);
//!   if (threadIdx.x == 0) mbar_init(b, 2);
//!   {}
//!   if (threadIdx.x == 0) {{ mbar_arrive_cluster(b, 0); mbar_arrive_cluster(b, 1); }}
//!   mbar_wait(b, 0);
//!   {} }}", cluster_dims(2), cluster_sync(), cluster_sync());
//! if nvrtc_available() { assert!(!compile(&src, "k", "sm_90a").unwrap().cubin.is_empty()); }
//! ```

/// `mbar_arrive_cluster(bar, cta)`: arrive on the mbarrier at shared offset `bar` of the cluster's CTA
/// `cta` (this CTA's own included), with the default (CTA-scope release) semantics: the arriving
/// consumer's reads of the stage are complete (`wgmma.wait_group`) before it arrives. (`.release.cluster`
/// made every stage release a cluster-wide fence on the consumers' path: the 8192³ GEMM ran at 0.72 of
/// the unclustered one, `gpu/logs/matmul/clusters/`.)
///
/// ```
/// use cute_gpu::arch::cluster::CLUSTER;
/// assert!(CLUSTER.contains("mapa.shared::cluster.u32") && CLUSTER.contains("mbarrier.arrive.shared::cluster.b64"));
/// ```
pub const CLUSTER: &str = r#"// arrive on the mbarrier at offset `bar` of cluster CTA `cta` (mapa: the CTA's window of the cluster's shared memory)
__device__ __forceinline__ void mbar_arrive_cluster(u32 bar, u32 cta) {
  asm volatile("{ .reg .b32 remote; mapa.shared::cluster.u32 remote, %0, %1; mbarrier.arrive.shared::cluster.b64 _, [remote]; }"
               :: "r"(bar), "r"(cta) : "memory");
}
"#;

/// Every thread of every CTA of the cluster arrives (release) and waits (acquire): the cluster's
/// `__syncthreads`, also ordering mbarrier initialization before other CTAs' use of them.
///
/// ```
/// use cute_gpu::arch::cluster::cluster_sync;
/// assert!(cluster_sync().contains("barrier.cluster.arrive.release.aligned;") && cluster_sync().contains("barrier.cluster.wait.acquire.aligned;"));
/// ```
pub fn cluster_sync() -> String {
    "asm volatile(\"barrier.cluster.arrive.release.aligned;\\n\\tbarrier.cluster.wait.acquire.aligned;\" ::: \"memory\");".to_string()
}

/// The kernel attribute fixing a 1-D cluster of `ctas` CTAs along the grid's x (CTA `blockIdx.x % ctas`
/// is the cluster rank); empty for 1.
///
/// ```
/// use cute_gpu::arch::cluster::cluster_dims;
/// assert_eq!(cluster_dims(2), "__cluster_dims__(2, 1, 1)");
/// assert_eq!(cluster_dims(1), "");
/// ```
pub fn cluster_dims(ctas: u32) -> String {
    match ctas {
        1 => String::new(),
        n => format!("__cluster_dims__({n}, 1, 1)"),
    }
}
