//! `wgmma.mma_async` (SM90): warp-group MMA from shared-memory descriptors, with its fences.
//!
//! ```
//! use cute_gpu::{arch::wgmma::{descriptor_fn, layout_type, wait, Wgmma, COMMIT, FENCE}, DType};
//! let w = Wgmma { n: 128, types: (DType::BF16, DType::BF16), tnsp: (0, 0), accumulate_arg: false };
//! let desc = descriptor_fn("desc_sw128", 16, 1024, layout_type(3)); // Sw<3,4,3> K-major rows of 128 bytes
//! let step = format!("{FENCE} {}(acc, da, db); {COMMIT} {}", w.name(), wait(0));
//! assert!(desc.contains("((u64)1 << 62)") && step.contains("wgmma_m64n128k16(acc, da, db);"));
//! ```

use crate::dtype::DType;
use std::fmt::Write;

/// `wgmma.fence`: orders register accesses of the accumulators before the next wgmma.
///
/// ```
/// use cute_gpu::arch::wgmma::FENCE;
/// assert!(FENCE.contains("wgmma.fence.sync.aligned;"));
/// ```
pub const FENCE: &str = "asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");";

/// `wgmma.commit_group`: closes the group of wgmmas issued so far.
///
/// ```
/// use cute_gpu::arch::wgmma::COMMIT;
/// assert!(COMMIT.contains("wgmma.commit_group.sync.aligned;"));
/// ```
pub const COMMIT: &str = "asm volatile(\"wgmma.commit_group.sync.aligned;\" ::: \"memory\");";

/// `wgmma.wait_group pending`: waits until at most `pending` groups are in flight.
///
/// ```
/// use cute_gpu::arch::wgmma::wait;
/// assert!(wait(0).contains("wgmma.wait_group.sync.aligned 0;"));
/// ```
pub fn wait(pending: u32) -> String {
    format!("asm volatile(\"wgmma.wait_group.sync.aligned {pending};\" ::: \"memory\");")
}

/// `u64 name(u32 addr)`: the sm_90 shared-memory matrix descriptor of a tile at `addr`: start >> 4 in
/// bits [0,14), leading byte offset >> 4 in [16,30), stride byte offset >> 4 in [32,46), the layout type
/// (1 = 128-byte swizzle, 2 = 64, 3 = 32, 0 = interleaved) in [62,64).
///
/// ```
/// use cute_gpu::arch::wgmma::descriptor_fn;
/// let f = descriptor_fn("desc_a", 16, 1024, 1); // Sw<3,4,3> K-major tile, 8-row groups 1024 bytes apart
/// assert!(f.starts_with("__device__ __forceinline__ u64 desc_a(u32 addr)"));
/// assert!(f.contains("((u64)(1024 >> 4) << 32)") && f.contains("((u64)1 << 62)"));
/// ```
pub fn descriptor_fn(name: &str, lbo: i64, sbo: i64, layout_type: u64) -> String {
    format!(
        "__device__ __forceinline__ u64 {name}(u32 addr) {{\n  return (u64)((addr & 0x3FFFF) >> 4) | ((u64)({lbo} >> 4) << 16) | ((u64)({sbo} >> 4) << 32) | ((u64){layout_type} << 62);\n}}\n"
    )
}

/// The descriptor layout type of a swizzle with `bits` bits (`Sw<3,..>`: 128-byte, type 1).
///
/// ```
/// use cute_gpu::arch::wgmma::layout_type;
/// assert_eq!([layout_type(3), layout_type(2), layout_type(1), layout_type(0)], [1, 2, 3, 0]);
/// ```
pub fn layout_type(bits: i64) -> u64 {
    match bits {
        3 => 1,
        2 => 2,
        1 => 3,
        _ => 0,
    }
}

/// The wgmma of one warp group: `m64n{n}k{k}` with K = 256 bits of the input types (16 for f16/bf16,
/// 32 for e4m3/e5m2), f32 accumulation, both operands from shared-memory descriptors.
///
/// ```
/// use cute_gpu::{arch::wgmma::Wgmma, DType};
/// let w = Wgmma { n: 256, types: (DType::F16, DType::F16), tnsp: (0, 1), accumulate_arg: false };
/// assert_eq!((w.k(), w.name()), (16, "wgmma_m64n256k16".to_string()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wgmma {
    /// N of the instruction (multiple of 8 up to 256; 16 for FP8's smallest).
    pub n: i64,
    /// A's and B's types (equal for 16-bit inputs; FP8 may mix e4m3 and e5m2).
    pub types: (DType, DType),
    /// Transpose flags (1 = MN-major operand; 16-bit only: FP8 reads K-major operands).
    pub tnsp: (u32, u32),
    /// The function takes `int accumulate` (0: `D = A·B`, the accumulators' old values ignored) instead
    /// of always accumulating.
    pub accumulate_arg: bool,
}

impl Wgmma {
    /// K per instruction.
    ///
    /// ```
    /// use cute_gpu::{arch::wgmma::Wgmma, DType};
    /// let w = Wgmma { n: 64, types: (DType::E4M3, DType::E4M3), tnsp: (0, 0), accumulate_arg: false };
    /// assert_eq!(w.k(), 32);
    /// ```
    pub fn k(&self) -> i64 {
        256 / self.types.0.bits()
    }

    /// The device function's name, `wgmma_m64n{n}k{k}`.
    ///
    /// ```
    /// use cute_gpu::{arch::wgmma::Wgmma, DType};
    /// let w = Wgmma { n: 128, types: (DType::BF16, DType::BF16), tnsp: (0, 0), accumulate_arg: true };
    /// assert_eq!(w.name(), "wgmma_m64n128k16");
    /// ```
    pub fn name(&self) -> String {
        format!("wgmma_m64n{}k{}", self.n, self.k())
    }

    /// `wgmma_m64n{n}k{k}(d, da, db[, accumulate])`: `wgmma.mma_async.sync.aligned.m64n{n}k{k}.f32.{ta}.{tb}`,
    /// `n/2` f32 accumulators per thread; and `fence_acc(d)`, which keeps the compiler from moving
    /// accumulator accesses across wgmmas.
    ///
    /// ```
    /// use cute_gpu::{arch::wgmma::Wgmma, DType};
    /// let w = Wgmma { n: 128, types: (DType::E4M3, DType::E5M2), tnsp: (0, 0), accumulate_arg: true };
    /// let f = w.device_fns();
    /// assert!(f.contains("wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e5m2"));
    /// assert!(f.contains("setp.ne.b32 p, %66, 0;"));
    /// ```
    pub fn device_fns(&self) -> String {
        self.device_fn() + &fence_acc_fn(self.n / 2)
    }

    /// `wgmma_m64n{n}k{k}(d, da, db[, accumulate])` alone, without its `fence_acc` overload (for a
    /// second, narrower wgmma over the first `n/2` accumulators of a wider one's array).
    ///
    /// ```
    /// use cute_gpu::{arch::wgmma::Wgmma, DType};
    /// let w = Wgmma { n: 64, types: (DType::BF16, DType::BF16), tnsp: (0, 0), accumulate_arg: false };
    /// assert!(w.device_fn().contains("void wgmma_m64n64k16(float (&d)[32]") && !w.device_fn().contains("fence_acc"));
    /// ```
    pub fn device_fn(&self) -> String {
        self.mma_fn(&self.name(), None)
    }

    /// `wgmma_m64n{n}k{k}_zero(d, da, db)`: the same wgmma with scale-d = 0 (`D = A·B`, the
    /// accumulators' old values ignored), so that the first k-step of a tile needs no zeroed
    /// accumulators; with [`Self::device_fns`] (its `fence_acc`).
    ///
    /// ```
    /// use cute_gpu::{arch::wgmma::Wgmma, DType};
    /// let w = Wgmma { n: 64, types: (DType::BF16, DType::BF16), tnsp: (0, 0), accumulate_arg: false };
    /// let f = w.device_fn_zero();
    /// assert!(f.contains("void wgmma_m64n64k16_zero(") && f.contains("%32, %33, 0, 1, 1, 0, 0;"));
    /// ```
    pub fn device_fn_zero(&self) -> String {
        self.mma_fn(&format!("{}_zero", self.name()), Some("0"))
    }

    /// The device function `name`: scale-d the literal `scale_d`, else `1` or the `accumulate`
    /// argument ([`Self::accumulate_arg`]).
    fn mma_fn(&self, name: &str, scale_d: Option<&str>) -> String {
        let (n, nacc) = (self.n, self.n / 2);
        let (ta, tb) = (self.types.0.name(), self.types.1.name());
        let k = self.k();
        // 16-bit types take imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b; FP8 has no transpose
        let imm = if self.types.0.is_fp8() {
            "1, 1".to_string()
        } else {
            format!("1, 1, {}, {}", self.tnsp.0, self.tnsp.1)
        };
        let (param, pred_decl, scale_d, acc_in) = match scale_d {
            Some(lit) => ("", String::new(), lit.to_string(), ""),
            None if self.accumulate_arg => (
                ", int accumulate",
                format!(
                    "    \".reg .pred p;\\n\"\n    \"setp.ne.b32 p, %{}, 0;\\n\"\n",
                    nacc + 2
                ),
                "p".to_string(),
                ", \"r\"(accumulate)",
            ),
            None => ("", String::new(), "1".to_string(), ""),
        };
        let regs: Vec<String> = (0..nacc).map(|i| format!("%{i}")).collect();
        let outs: Vec<String> = (0..nacc).map(|i| format!("\"+f\"(d[{i}])")).collect();
        let mut w = format!(
            "__device__ __forceinline__ void {name}(float (&d)[{nacc}], u64 da, u64 db{param}) {{\n  asm volatile(\"{{\\n\"\n{pred_decl}    \"wgmma.mma_async.sync.aligned.m64n{n}k{k}.f32.{ta}.{tb} {{"
        );
        let _ = writeln!(
            w,
            "{}}}, %{nacc}, %{}, {scale_d}, {imm};\\n\"\n    \"}}\\n\"",
            regs.join(","),
            nacc + 1
        );
        let _ = writeln!(
            w,
            "    : {}\n    : \"l\"(da), \"l\"(db){acc_in});\n}}",
            outs.join(", ")
        );
        w
    }

    /// The device function's name of the register-A form, `wgmma_rs_m64n{n}k{k}`.
    ///
    /// ```
    /// use cute_gpu::{arch::wgmma::Wgmma, DType};
    /// let w = Wgmma { n: 64, types: (DType::F16, DType::F16), tnsp: (0, 1), accumulate_arg: false };
    /// assert_eq!(w.name_rs(), "wgmma_rs_m64n64k16");
    /// ```
    pub fn name_rs(&self) -> String {
        format!("wgmma_rs_m64n{}k{}", self.n, self.k())
    }

    /// `wgmma_rs_m64n{n}k{k}(d, a, db)`: the register-A form (16-bit types), `A` as 4 registers of value
    /// pairs in `gmma_a_register_layout` order, B from the descriptor `db` (transposed when `tnsp.1` = 1),
    /// always accumulating. No `fence_acc` (see [`fence_acc_fn`]).
    ///
    /// ```
    /// use cute_gpu::{arch::wgmma::Wgmma, DType};
    /// let w = Wgmma { n: 64, types: (DType::BF16, DType::BF16), tnsp: (0, 1), accumulate_arg: false };
    /// let f = w.device_fns_rs();
    /// assert!(f.contains("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"));
    /// assert!(f.contains("{%32,%33,%34,%35}, %36, 1, 1, 1, 1;"));
    /// ```
    pub fn device_fns_rs(&self) -> String {
        let (n, nacc, k) = (self.n, self.n / 2, self.k());
        let t = self.types.0.name();
        let regs: Vec<String> = (0..nacc).map(|i| format!("%{i}")).collect();
        let a: Vec<String> = (nacc..nacc + 4).map(|i| format!("%{i}")).collect();
        let outs: Vec<String> = (0..nacc).map(|i| format!("\"+f\"(d[{i}])")).collect();
        format!(
            "__device__ __forceinline__ void {}(float (&d)[{nacc}], const u32 (&a)[4], u64 db) {{\n  asm volatile(\"{{\\n\"\n    \"wgmma.mma_async.sync.aligned.m64n{n}k{k}.f32.{t}.{t} {{{}}}, {{{}}}, %{}, 1, 1, 1, {};\\n\"\n    \"}}\\n\"\n    : {}\n    : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), \"l\"(db));\n}}\n",
            self.name_rs(),
            regs.join(","),
            a.join(","),
            nacc + 4,
            self.tnsp.1,
            outs.join(", ")
        )
    }
}

/// `fence_acc(d)` for `nacc` accumulators: keeps the compiler from moving accumulator accesses across
/// wgmmas (one overload per array size).
///
/// ```
/// use cute_gpu::arch::wgmma::fence_acc_fn;
/// assert!(fence_acc_fn(64).starts_with("__device__ __forceinline__ void fence_acc(float (&d)[64])"));
/// ```
pub fn fence_acc_fn(nacc: i64) -> String {
    format!(
        "__device__ __forceinline__ void fence_acc(float (&d)[{nacc}]) {{\n#pragma unroll\n  for (int i = 0; i < {nacc}; ++i) asm volatile(\"\" : \"+f\"(d[i]) :: \"memory\");\n}}\n"
    )
}
