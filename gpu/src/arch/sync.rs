//! Warp-group synchronization statements (SM90): register reallocation, named barriers, proxy fences.

/// `setmaxnreg.dec` (producers give registers back) or `.inc` (consumers take them) to `regs` per thread.
pub fn setmaxnreg(increase: bool, regs: u32) -> String {
    let dir = if increase { "inc" } else { "dec" };
    format!("asm volatile(\"setmaxnreg.{dir}.sync.aligned.u32 {regs};\");")
}

/// `bar.sync id, threads` with `id` a C expression: wait until `threads` threads reach barrier `id`.
pub fn named_barrier_sync(id: &str, threads: u32) -> String {
    format!("asm volatile(\"bar.sync %0, {threads};\" :: \"r\"({id}) : \"memory\");")
}

/// `bar.arrive id, threads`: signal named barrier `id` without waiting.
pub fn named_barrier_arrive(id: &str, threads: u32) -> String {
    format!("asm volatile(\"bar.arrive %0, {threads};\" :: \"r\"({id}) : \"memory\");")
}

/// Orders this thread's generic-proxy shared-memory writes before later async-proxy (TMA) reads.
pub const FENCE_PROXY_ASYNC: &str =
    "asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");";
