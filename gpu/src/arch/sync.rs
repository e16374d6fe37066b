//! Warp-group synchronization statements (SM90): register reallocation, named barriers, proxy fences.
//!
//! ```
//! use cute_gpu::arch::sync::{named_barrier_arrive, named_barrier_sync, setmaxnreg};
//! // a producer warp group gives registers back and signals barrier 1; consumers take more and wait on it
//! let producer = format!("{} {}", setmaxnreg(false, 40), named_barrier_arrive("1", 256));
//! let consumer = format!("{} {}", setmaxnreg(true, 232), named_barrier_sync("1", 256));
//! assert!(producer.contains("setmaxnreg.dec") && consumer.contains("bar.sync %0, 256;"));
//! ```

/// `setmaxnreg.dec` (producers give registers back) or `.inc` (consumers take them) to `regs` per thread.
///
/// ```
/// use cute_gpu::arch::sync::setmaxnreg;
/// assert_eq!(setmaxnreg(false, 40), "asm volatile(\"setmaxnreg.dec.sync.aligned.u32 40;\");");
/// assert!(setmaxnreg(true, 232).contains("setmaxnreg.inc.sync.aligned.u32 232;"));
/// ```
pub fn setmaxnreg(increase: bool, regs: u32) -> String {
    let dir = if increase { "inc" } else { "dec" };
    format!("asm volatile(\"setmaxnreg.{dir}.sync.aligned.u32 {regs};\");")
}

/// `bar.sync id, threads` with `id` a C expression: wait until `threads` threads reach barrier `id`.
///
/// ```
/// use cute_gpu::arch::sync::named_barrier_sync;
/// let s = named_barrier_sync("1 + wg", 256);
/// assert!(s.contains("bar.sync %0, 256;") && s.contains("\"r\"(1 + wg)"));
/// ```
pub fn named_barrier_sync(id: &str, threads: u32) -> String {
    format!("asm volatile(\"bar.sync %0, {threads};\" :: \"r\"({id}) : \"memory\");")
}

/// `bar.arrive id, threads`: signal named barrier `id` without waiting.
///
/// ```
/// use cute_gpu::arch::sync::named_barrier_arrive;
/// assert!(named_barrier_arrive("2", 128).contains("bar.arrive %0, 128;"));
/// ```
pub fn named_barrier_arrive(id: &str, threads: u32) -> String {
    format!("asm volatile(\"bar.arrive %0, {threads};\" :: \"r\"({id}) : \"memory\");")
}

/// Orders this thread's generic-proxy shared-memory writes before later async-proxy (TMA) reads.
///
/// ```
/// use cute_gpu::arch::sync::FENCE_PROXY_ASYNC;
/// assert!(FENCE_PROXY_ASYNC.contains("fence.proxy.async.shared::cta;"));
/// ```
pub const FENCE_PROXY_ASYNC: &str =
    "asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");";

/// Programmatic dependent launch (SM90): blocks until the grids this one depends on (the kernel before
/// it in the stream, when launched with programmatic stream serialization) have completed and their
/// memory operations are visible. Without such a launch it returns at once. Every thread executes it
/// before its first access to global memory.
///
/// ```
/// use cute_gpu::arch::sync::{GRID_DEPENDENCY_WAIT, LAUNCH_DEPENDENTS};
/// assert!(GRID_DEPENDENCY_WAIT.contains("griddepcontrol.wait;"));
/// assert!(LAUNCH_DEPENDENTS.contains("griddepcontrol.launch_dependents;"));
/// ```
pub const GRID_DEPENDENCY_WAIT: &str = "asm volatile(\"griddepcontrol.wait;\" ::: \"memory\");";

/// Lets the grid after this one in the stream launch (when it was launched with programmatic stream
/// serialization) once every CTA of this grid has executed it or exited; that grid's
/// [`GRID_DEPENDENCY_WAIT`] still waits for this one to complete.
pub const LAUNCH_DEPENDENTS: &str =
    "asm volatile(\"griddepcontrol.launch_dependents;\" ::: \"memory\");";

/// `const int wg = ..., tid = ...;`: the thread's warp group and its thread within the group. With
/// `broadcast`, `wg` comes from lane 0 through `__shfl_sync`, so that the compiler knows it is the same
/// for the whole warp (CUTLASS's `canonical_warp_group_idx`): what is derived from it (shared-memory
/// addresses, wgmma descriptors, loop bounds) then stays in uniform registers, where from
/// `threadIdx.x / 128` ptxas computes it per thread and moves it into uniform registers (`R2UR`) before
/// the wgmmas (nvdisasm, session 7: 106 `R2UR` in the d = 256 attention kernel, 2 with the broadcast;
/// 436 and 21 in the ping-pong GEMM). The code it leads to is not faster everywhere (see
/// [`crate::kernels::attention_sm90`]'s use).
///
/// ```
/// use cute_gpu::arch::sync::warp_group_index;
/// assert!(warp_group_index(true).contains("const int wg = __shfl_sync(0xffffffffu, threadIdx.x / 128, 0)"));
/// assert!(warp_group_index(false).contains("const int wg = threadIdx.x / 128, tid = threadIdx.x % 128;"));
/// ```
pub fn warp_group_index(broadcast: bool) -> &'static str {
    if broadcast {
        "  const int wg = __shfl_sync(0xffffffffu, threadIdx.x / 128, 0), tid = threadIdx.x % 128;\n"
    } else {
        "  const int wg = threadIdx.x / 128, tid = threadIdx.x % 128;\n"
    }
}
