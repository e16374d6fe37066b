//! `wgmma.mma_async` (SM90): warp-group MMA from shared-memory descriptors, with its fences.

use crate::dtype::DType;
use std::fmt::Write;

/// `wgmma.fence`: orders register accesses of the accumulators before the next wgmma.
pub const FENCE: &str = "asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");";

/// `wgmma.commit_group`: closes the group of wgmmas issued so far.
pub const COMMIT: &str = "asm volatile(\"wgmma.commit_group.sync.aligned;\" ::: \"memory\");";

/// `wgmma.wait_group pending`: waits until at most `pending` groups are in flight.
pub fn wait(pending: u32) -> String {
    format!("asm volatile(\"wgmma.wait_group.sync.aligned {pending};\" ::: \"memory\");")
}

/// `u64 name(u32 addr)`: the sm_90 shared-memory matrix descriptor of a tile at `addr`: start >> 4 in
/// bits [0,14), leading byte offset >> 4 in [16,30), stride byte offset >> 4 in [32,46), the layout type
/// (1 = 128-byte swizzle, 2 = 64, 3 = 32, 0 = interleaved) in [62,64).
pub fn descriptor_fn(name: &str, lbo: i64, sbo: i64, layout_type: u64) -> String {
    format!(
        "__device__ __forceinline__ u64 {name}(u32 addr) {{\n  return (u64)((addr & 0x3FFFF) >> 4) | ((u64)({lbo} >> 4) << 16) | ((u64)({sbo} >> 4) << 32) | ((u64){layout_type} << 62);\n}}\n"
    )
}

/// The descriptor layout type of a swizzle with `bits` bits (`Sw<3,..>`: 128-byte, type 1).
pub fn layout_type(bits: i64) -> u64 {
    match bits {
        3 => 1,
        2 => 2,
        1 => 3,
        _ => 0,
    }
}

/// `wgmma_m64n{n}k16(d, da, db)`: `wgmma.mma_async.sync.aligned.m64n{n}k16.f32.{ty}.{ty}` with both operands
/// from shared-memory descriptors, `n/2` f32 accumulators per thread, `tnsp_a`/`tnsp_b` = 1 for MN-major
/// operands; and `fence_acc(d)`, which keeps the compiler from moving accumulator accesses across wgmmas.
pub fn mma_fns(n: i64, input: DType, tnsp_a: u32, tnsp_b: u32) -> String {
    let nacc = n / 2;
    let ty = input.name();
    let mut w = format!(
        "__device__ __forceinline__ void wgmma_m64n{n}k16(float (&d)[{nacc}], u64 da, u64 db) {{\n  asm volatile(\"{{\\n\"\n    \"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.{ty}.{ty} {{"
    );
    let regs: Vec<String> = (0..nacc).map(|i| format!("%{i}")).collect();
    let _ = writeln!(
        w,
        "{}}}, %{nacc}, %{}, 1, 1, 1, {tnsp_a}, {tnsp_b};\\n\"\n    \"}}\\n\"",
        regs.join(","),
        nacc + 1
    );
    let outs: Vec<String> = (0..nacc).map(|i| format!("\"+f\"(d[{i}])")).collect();
    let _ = writeln!(
        w,
        "    : {}\n    : \"l\"(da), \"l\"(db));\n}}",
        outs.join(", ")
    );
    let _ = writeln!(
        w,
        "__device__ __forceinline__ void fence_acc(float (&d)[{nacc}]) {{\n#pragma unroll\n  for (int i = 0; i < {nacc}; ++i) asm volatile(\"\" : \"+f\"(d[i]) :: \"memory\");\n}}"
    );
    w
}
