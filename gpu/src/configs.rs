//! Named GEMM configurations, benchmark sizes and problem layouts shared by the tests, benchmarks
//! and examples (one definition each instead of a copy per file).
//!
//! ```
//! use cute_gpu::configs::{sm80_large, sm80_spec};
//! use cute_gpu::kernels::gemm_sm90::HopperProblem;
//! use cute_gpu::{DType, Major};
//! let p = HopperProblem::padded(100, 60, 30).with_majors(Major::K, Major::MN);
//! let spec = sm80_spec(&p, DType::F16, DType::F32, sm80_large()).unwrap();
//! assert_eq!(spec.a.to_string(), "(100,30):(32,_1)"); // A row-major, ld rounded up to 8
//! assert_eq!(spec.b.to_string(), "(30,60):(64,_1)"); // B (K,N) row-major: N-contiguous
//! ```

use crate::dtype::{DType, Major};
use crate::error::Result;
use crate::kernels::gemm_sm80::{GemmConfig, GemmSpec};
use crate::kernels::gemm_sm90::{HopperConfig, HopperProblem};
use cute_layout_core::Layout;

/// The GEMM sizes `(M, N, K)` the benchmarks measure: two square ones and one with residues on
/// every side.
///
/// ```
/// use cute_gpu::configs::BENCH_SIZES;
/// assert_eq!(BENCH_SIZES[0], (4096, 4096, 4096));
/// assert!(BENCH_SIZES.iter().any(|&(m, n, k)| m % 128 != 0 && n % 128 != 0 && k % 32 != 0));
/// ```
pub const BENCH_SIZES: [(i64, i64, i64); 3] =
    [(4096, 4096, 4096), (8192, 8192, 8192), (4095, 4097, 1023)];

/// SM80: 128x256x32 tiles, 2x4 warps of 64x64, 4 stages, one CTA per SM.
///
/// ```
/// use cute_gpu::configs::sm80_large;
/// let c = sm80_large();
/// assert_eq!((c.bm, c.bn, c.bk, c.warps_m * c.warps_n, c.stages), (128, 256, 32, 8, 4));
/// ```
pub fn sm80_large() -> GemmConfig {
    GemmConfig {
        bm: 128,
        bn: 256,
        bk: 32,
        warps_m: 2,
        warps_n: 4,
        stages: 4,
        min_blocks: 1,
        group_m: 8,
    }
}

/// SM80: 128x128x32 tiles, 2x4 warps, two CTAs per SM (128 registers per thread, single-buffered
/// fragments).
///
/// ```
/// use cute_gpu::configs::sm80_two_ctas;
/// let c = sm80_two_ctas();
/// assert_eq!((c.bm, c.bn, c.min_blocks), (128, 128, 2));
/// ```
pub fn sm80_two_ctas() -> GemmConfig {
    GemmConfig {
        bn: 128,
        min_blocks: 2,
        ..sm80_large()
    }
}

/// SM80: [`sm80_two_ctas`] with 4x2 warps.
///
/// ```
/// use cute_gpu::configs::sm80_two_ctas_w4x2;
/// let c = sm80_two_ctas_w4x2();
/// assert_eq!((c.warps_m, c.warps_n, c.bn), (4, 2, 128));
/// ```
pub fn sm80_two_ctas_w4x2() -> GemmConfig {
    GemmConfig {
        warps_m: 4,
        warps_n: 2,
        ..sm80_two_ctas()
    }
}

/// SM80: 128x128x64 tiles, 2x2 warps of 64x64, 3 stages, two CTAs per SM (double-buffered fragments
/// in 255 registers): the benchmark's best.
///
/// ```
/// use cute_gpu::configs::sm80_two_ctas_k64;
/// let c = sm80_two_ctas_k64();
/// assert_eq!((c.bm, c.bn, c.bk, c.warps_m, c.warps_n, c.stages), (128, 128, 64, 2, 2, 3));
/// ```
pub fn sm80_two_ctas_k64() -> GemmConfig {
    GemmConfig {
        bk: 64,
        warps_n: 2,
        stages: 3,
        ..sm80_two_ctas()
    }
}

/// SM80: 256x128x32 tiles, 4x2 warps, 3 stages, one CTA per SM.
///
/// ```
/// use cute_gpu::configs::sm80_256x128_s3;
/// let c = sm80_256x128_s3();
/// assert_eq!((c.bm, c.bn, c.stages), (256, 128, 3));
/// ```
pub fn sm80_256x128_s3() -> GemmConfig {
    GemmConfig {
        bm: 256,
        bn: 128,
        warps_m: 4,
        warps_n: 2,
        stages: 3,
        ..sm80_large()
    }
}

/// SM90: the default 128x128x64 tile with 6 stages, persistent, TMA-store epilogue.
///
/// ```
/// use cute_gpu::configs::sm90_persistent_tma_store;
/// let c = sm90_persistent_tma_store();
/// assert!(c.persistent && c.tma_store);
/// assert_eq!((c.bm, c.bn, c.bk, c.stages), (128, 128, 64, 6));
/// ```
pub fn sm90_persistent_tma_store() -> HopperConfig {
    HopperConfig {
        persistent: true,
        stages: 6,
        tma_store: true,
        ..HopperConfig::default()
    }
}

/// The layouts of a problem's operands with its majors and leading dimensions: A `(M,K)` (row-major
/// when K-major), B `(K,N)` (column-major when K-major), D `(M,N)` row-major.
///
/// ```
/// use cute_gpu::{Major, configs::problem_layouts, kernels::gemm_sm90::HopperProblem};
/// let p = HopperProblem::padded(100, 60, 30); // K-major A and B by default
/// let [a, b, d] = problem_layouts(&p).unwrap();
/// assert_eq!((a.to_string(), b.to_string()), ("(100,30):(32,_1)".to_string(), "(30,60):(_1,32)".to_string()));
/// assert_eq!(d.to_string(), "(100,60):(64,_1)");
/// let p = p.with_majors(Major::MN, Major::K);
/// assert_eq!(problem_layouts(&p).unwrap()[0].to_string(), "(100,30):(_1,104)");
/// ```
pub fn problem_layouts(p: &HopperProblem) -> Result<[Layout; 3]> {
    let (m, n, k) = (p.m, p.n, p.k);
    let a = match p.a_major {
        Major::K => format!("({m},{k}):({},_1)", p.lda),
        Major::MN => format!("({m},{k}):(_1,{})", p.lda),
    };
    let b = match p.b_major {
        Major::K => format!("({k},{n}):(_1,{})", p.ldb),
        Major::MN => format!("({k},{n}):({},_1)", p.ldb),
    };
    let d = format!("({m},{n}):({},_1)", p.ldd);
    Ok([a.parse()?, b.parse()?, d.parse()?])
}

/// The SM80 GEMM `D = A B` (`alpha = 1`, `beta = 0`, C laid out as D) of a problem: its extents,
/// majors and leading dimensions, as [`problem_layouts`] gives them.
///
/// ```
/// use cute_gpu::configs::{sm80_spec, sm80_two_ctas};
/// use cute_gpu::{DType, kernels::gemm_sm90::HopperProblem};
/// let spec = sm80_spec(&HopperProblem::padded(256, 256, 64), DType::BF16, DType::BF16, sm80_two_ctas()).unwrap();
/// assert_eq!((spec.alpha, spec.beta), (1.0, 0.0));
/// assert_eq!(spec.c.to_string(), "(256,256):(256,_1)"); // C is laid out as D, row-major
/// assert_eq!(spec.a.to_string(), "(256,64):(64,_1)");
/// ```
pub fn sm80_spec(
    p: &HopperProblem,
    input: DType,
    output: DType,
    config: GemmConfig,
) -> Result<GemmSpec> {
    let [a, b, c] = problem_layouts(p)?;
    Ok(GemmSpec {
        a,
        b,
        c,
        input,
        output,
        alpha: 1.0,
        beta: 0.0,
        config,
    })
}
