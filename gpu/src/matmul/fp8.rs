//! The FP8 GEMM request and its plan (no GPU needed): `D = act(alpha * s·(A·B) + beta * C + bias)` with A
//! and B in e4m3/e5m2 and the per-tensor or block scales `s` ([`Scaling`]), on the SM90 wgmma + TMA kernel.
//!
//! FP8 wgmma reads both operands K-major from shared memory, so A must be row-major `(M,K):(lda,_1)` and B
//! column-major `(K,N):(_1,ldb)` with 16-byte rows (`lda`, `ldb` multiples of 16) and 16-byte-aligned
//! bases; D (and C) row-major `(M,N):(ldd,_1)`. Anything else is an error naming the layout (transpose
//! the operand first: FP8 has no transposed wgmma). Hopper only: other GPUs have no FP8 wgmma.
//!
//! ```
//! use cute_gpu::matmul::fp8::{Fp8Request, plan_fp8};
//! use cute_gpu::piece::{epilogue_op::EpilogueOp, fp8_scaling::Scaling};
//! use cute_gpu::DType;
//! let (a, b, d) = ("(4096,4096):(4096,1)".parse().unwrap(), "(4096,4096):(1,4096)".parse().unwrap(),
//!                  "(4096,4096):(4096,1)".parse().unwrap());
//! let r = Fp8Request { a: &a, b: &b, c: None, d: &d, types: (DType::E4M3, DType::E4M3), output: DType::BF16,
//!     scaling: Scaling::PerTensor, alpha: 1.0, beta: 0.0, arch: "sm_90a", aligned: [true; 4],
//!     sm_count: 132, op: EpilogueOp::default() };
//! let k = plan_fp8(&r).unwrap().unwrap();
//! assert!(k.name.starts_with("cute_hgemm_e4m3_bf16_128x256x128"));
//! let col_major_a = "(4096,4096):(1,4096)".parse().unwrap();
//! assert!(plan_fp8(&Fp8Request { a: &col_major_a, ..r }).is_err());
//! ```

use crate::dtype::DType;
use crate::emit::flat_modes;
use crate::error::{GpuError, Result};
use crate::kernel::Kernel;
use crate::kernels::gemm_sm90::{Fused, HopperProblem, generate_hopper_fp8_gemm};
use crate::matmul::plan::sm90_fp8_config;
use crate::piece::epilogue_op::EpilogueOp;
use crate::piece::fp8_scaling::Scaling;
use cute_layout_core::Layout;

/// An FP8 GEMM request: rank-2 layouts `A (M,K)`, `B (K,N)`, `D (M,N)`, optional `C` laid out as D.
///
/// ```
/// use cute_gpu::{DType, matmul::fp8::{Fp8Request, plan_fp8}, piece::fp8_scaling::Scaling};
/// let l = |s: &str| s.parse::<cute_layout_core::Layout>().unwrap();
/// let (a, b, d) = (l("(1024,512):(512,_1)"), l("(512,2048):(_1,512)"), l("(1024,2048):(2048,_1)"));
/// let r = Fp8Request { a: &a, b: &b, c: None, d: &d, types: (DType::E4M3, DType::E5M2), output: DType::F16,
///     scaling: Scaling::Block, alpha: 1.0, beta: 0.0, arch: "sm_90a", aligned: [true; 4], sm_count: 132,
///     op: Default::default() };
/// assert!(plan_fp8(&r).unwrap().unwrap().source.contains(".e4m3.e5m2"));
/// assert!(plan_fp8(&Fp8Request { arch: "sm_80", ..r }).is_err()); // no FP8 wgmma before Hopper
/// ```
#[derive(Clone, Debug)]
pub struct Fp8Request<'a> {
    /// A, row-major.
    pub a: &'a Layout,
    /// B, column-major.
    pub b: &'a Layout,
    /// C (read when beta != 0; when absent, C is D).
    pub c: Option<&'a Layout>,
    /// D, row-major.
    pub d: &'a Layout,
    /// Types of A and B (e4m3 or e5m2).
    pub types: (DType, DType),
    /// Type of C and D (f16, bf16 or f32).
    pub output: DType,
    /// How the scales apply.
    pub scaling: Scaling,
    /// alpha.
    pub alpha: f32,
    /// beta.
    pub beta: f32,
    /// The device architecture (`sm_90a`).
    pub arch: &'a str,
    /// Whether each base pointer (A, B, C, D) is 16-byte aligned.
    pub aligned: [bool; 4],
    /// Streaming multiprocessors (the tile shape is chosen to fill them).
    pub sm_count: u32,
    /// Fused bias and activation (`scale` is decided by the plan from alpha and beta).
    pub op: EpilogueOp,
}

fn bad<T>(reason: String) -> Result<T> {
    Err(GpuError::Config {
        kernel: "matmul (FP8)",
        reason,
    })
}

/// `(extent0, extent1, stride0, stride1)` of a rank-2 layout.
fn rank2(l: &Layout, what: &str) -> Result<[i64; 4]> {
    let m = flat_modes(l)?;
    if m.len() != 2 {
        return bad(format!(
            "{what} {l} must have rank 2 (FP8 GEMM takes no batch mode)"
        ));
    }
    Ok([m[0].0.value, m[1].0.value, m[0].1.value, m[1].1.value])
}

/// The problem of a request, validated: shapes that agree, K-major operands with 16-byte rows, row-major D.
fn problem(r: &Fp8Request) -> Result<HopperProblem> {
    let [m, k, lda, a1] = rank2(r.a, "A")?;
    let [kb, n, b0, ldb] = rank2(r.b, "B")?;
    let [md, nd, ldd, d1] = rank2(r.d, "D")?;
    if k != kb || m != md || n != nd {
        return bad(format!(
            "shapes do not agree: A {} B {} D {}",
            r.a, r.b, r.d
        ));
    }
    if let Some(c) = r.c {
        if flat_modes(c)? != flat_modes(r.d)? {
            return bad(format!("C {c} must be laid out as D {}", r.d));
        }
    }
    if (k > 1 && (a1 != 1 || b0 != 1)) || (d1 != 1 && n > 1) {
        return bad(format!(
            "FP8 wgmma reads K-major operands: A must be row-major (M,K):(lda,1), B column-major (K,N):(1,ldb), \
             D row-major (M,N):(ldd,1); got A {} B {} D {}",
            r.a, r.b, r.d
        ));
    }
    if lda % 16 != 0 || ldb % 16 != 0 || lda < k || ldb < k || ldd < n || ldd % 2 != 0 {
        return bad(format!(
            "TMA needs 16-byte rows: lda = {lda} and ldb = {ldb} must be multiples of 16 covering K = {k}, ldd = {ldd} even and >= N = {n}"
        ));
    }
    if !r.aligned[0] || !r.aligned[1] || !r.aligned[3] || (r.c.is_some() && !r.aligned[2]) {
        return bad(format!(
            "A, B, C and D must start at 16-byte-aligned addresses (aligned: A {}, B {}, C {}, D {})",
            r.aligned[0], r.aligned[1], r.aligned[2], r.aligned[3]
        ));
    }
    Ok(HopperProblem {
        m,
        n,
        k,
        lda,
        ldb,
        ldd,
        a_major: crate::Major::K,
        b_major: crate::Major::K,
        batch: None,
        d_column_major: false,
    })
}

/// The kernel of a request, `None` when there is nothing to compute (M or N = 0).
///
/// ```
/// # use cute_gpu::{DType, matmul::fp8::{Fp8Request, plan_fp8}, piece::fp8_scaling::Scaling};
/// # let l = |s: &str| s.parse::<cute_layout_core::Layout>().unwrap();
/// # let (a, b, d) = (l("(1024,512):(512,_1)"), l("(512,2048):(_1,512)"), l("(1024,2048):(2048,_1)"));
/// # let r = Fp8Request { a: &a, b: &b, c: None, d: &d, types: (DType::E4M3, DType::E5M2), output: DType::F16,
/// #     scaling: Scaling::Block, alpha: 1.0, beta: 0.0, arch: "sm_90a", aligned: [true; 4], sm_count: 132,
/// #     op: Default::default() };
/// let k = plan_fp8(&r).unwrap().unwrap();
/// assert_eq!(k.buffer_names(), ["A", "B", "D", "scale_a", "scale_b"]);
/// let (a0, d0) = (l("(0,512):(512,_1)"), l("(0,2048):(2048,_1)"));
/// assert!(plan_fp8(&Fp8Request { a: &a0, d: &d0, ..r }).unwrap().is_none()); // M = 0
/// ```
pub fn plan_fp8(r: &Fp8Request) -> Result<Option<Kernel>> {
    if !r.arch.starts_with("sm_90") {
        return bad(format!(
            "FP8 GEMM needs Hopper's FP8 wgmma (sm_90); this device is {}",
            r.arch
        ));
    }
    if !(r.types.0.is_fp8() && r.types.1.is_fp8() && r.output.is_output()) {
        return bad(format!(
            "FP8 GEMM takes e4m3/e5m2 A and B and an f16, bf16 or f32 D: got {}, {} -> {}",
            r.types.0.name(),
            r.types.1.name(),
            r.output.name()
        ));
    }
    let p = problem(r)?;
    if p.m == 0 || p.n == 0 {
        return Ok(None);
    }
    if p.k == 0 {
        return bad(format!(
            "K = 0: the FP8 kernel needs at least one k-block (A {} B {})",
            r.a, r.b
        ));
    }
    let config = sm90_fp8_config(
        [p.m, p.n, p.k],
        p.ldd * r.output.bytes(),
        r.sm_count,
        r.scaling,
    );
    let fused = Fused {
        op: EpilogueOp {
            scale: r.alpha != 1.0 || r.beta != 0.0,
            ..r.op
        },
        alpha: r.alpha,
        beta: r.beta,
    };
    generate_hopper_fp8_gemm(&p, r.types, r.scaling, r.output, &config, &fused).map(Some)
}
