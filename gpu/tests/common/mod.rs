//! Kernel configurations shared by the snapshot, compile and run tests.
#![allow(dead_code)]

use cute_gpu::configs::{
    sm80_256x128_s3, sm80_large, sm80_spec, sm80_two_ctas, sm80_two_ctas_w4x2,
};
use cute_gpu::kernels::copy::{CopySpec, generate_copy};
use cute_gpu::kernels::gemm_sm80::{GemmConfig, GemmSpec, generate_gemm};
use cute_gpu::kernels::gemm_sm90::HopperProblem;
use cute_gpu::kernels::transpose::{TransposeSpec, generate_transpose};
use cute_gpu::{DType, Kernel, Major};
use cute_layout_core::Layout;

/// Writes straight to the process's stderr, past the test harness's capture, so a skip is seen.
pub fn loud(msg: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "\n{msg}\n");
}

pub fn l(s: &str) -> Layout {
    s.parse().unwrap_or_else(|e| panic!("bad layout {s}: {e}"))
}

/// A bf16 GEMM request for `arch` with 132 SMs: `D = A·B`, no C, no fused epilogue, aligned buffers.
pub fn request<'a>(
    a: &'a Layout,
    b: &'a Layout,
    d: &'a Layout,
    arch: &'a str,
) -> cute_gpu::matmul::plan::Request<'a> {
    cute_gpu::matmul::plan::Request {
        a,
        b,
        c: None,
        d,
        input: DType::BF16,
        output: DType::BF16,
        alpha: 1.0,
        beta: 0.0,
        arch,
        aligned: [true; 4],
        sm_count: 132,
        op: Default::default(),
        decomposition: Default::default(),
    }
}

/// An e4m3 x e4m3 -> bf16 FP8 GEMM request on sm_90a with 132 SMs, scaled as `scaling`.
pub fn fp8_request<'a>(
    a: &'a Layout,
    b: &'a Layout,
    d: &'a Layout,
    scaling: cute_gpu::piece::fp8_scaling::Scaling,
) -> cute_gpu::matmul::fp8::Fp8Request<'a> {
    cute_gpu::matmul::fp8::Fp8Request {
        a,
        b,
        c: None,
        d,
        types: (DType::E4M3, DType::E4M3),
        output: DType::BF16,
        scaling,
        alpha: 1.0,
        beta: 0.0,
        arch: "sm_90a",
        aligned: [true; 4],
        sm_count: 132,
        op: Default::default(),
    }
}

/// A `(M,K)` row-major, B `(K,N)` column-major, D `(M,N)` row-major, densely packed: the GEMM call's
/// K-major operands.
pub fn k_major(m: i64, n: i64, k: i64) -> [Layout; 3] {
    [
        l(&format!("({m},{k}):({k},1)")),
        l(&format!("({k},{n}):(1,{k})")),
        l(&format!("({m},{n}):({n},1)")),
    ]
}

/// The SM80 GEMM `D = A B` of (M,N,K) with these operand majors (A row-major and B column-major
/// when K-major), D row-major; leading dimensions rounded up to multiples of 8.
pub fn gemm_spec(
    (m, n, k): (i64, i64, i64),
    (a_major, b_major): (Major, Major),
    input: DType,
    output: DType,
    config: GemmConfig,
) -> GemmSpec {
    let problem = HopperProblem::padded(m, n, k).with_majors(a_major, b_major);
    sm80_spec(&problem, input, output, config).unwrap()
}

/// Whether libnvrtc can be loaded; without it a loud SKIP of `test`, or a panic when CI=true.
pub fn nvrtc_or_skip(test: &str) -> bool {
    if cute_gpu::nvrtc::nvrtc_available() {
        return true;
    }
    let msg = "libnvrtc cannot be loaded: source .ci/nvrtc.sh (installs NVRTC 13.0 from PyPI)";
    if std::env::var("CI").map(|v| v == "true").unwrap_or(false) {
        panic!("CI=true and {msg}");
    }
    loud(&format!("***** SKIP {test}: {msg} *****"));
    false
}

/// A copy (`transpose`: a transpose) kernel from layout `src` to layout `dst`.
pub fn copy_kernel(src: &str, dst: &str, elem_bytes: usize, transpose: bool) -> Kernel {
    let (s, d) = (l(src), l(dst));
    if transpose {
        generate_transpose(&TransposeSpec::new(s, d, elem_bytes)).unwrap()
    } else {
        generate_copy(&CopySpec::new(s, d, elem_bytes)).unwrap()
    }
}

/// Every generator in a few configurations: (label, kernel).
pub fn sample_kernels() -> Vec<(String, Kernel)> {
    let mut out = Vec::new();
    // (label, source, destination, element bytes, transpose)
    let moves = [
        (
            "copy_contiguous_f32",
            "((_4,250),1000):((_1,_4),1000)",
            "((_4,250),1000):((_1,_4),1000)",
            4,
            false,
        ),
        (
            "copy_row_to_col_f32",
            "(1000,1000):(1000,_1)",
            "(1000,1000):(_1,1000)",
            4,
            false,
        ),
        (
            "copy_hierarchical_f16",
            "((_8,_4),(3,64)):((_1,_8),(32,96))",
            "(_32,(3,64)):(_1,(6144,96))",
            2,
            false,
        ),
        (
            "copy_static_f64",
            "(_64,_64):(_1,_64)",
            "(_64,_64):(_1,_64)",
            8,
            false,
        ),
        (
            "transpose_f32_aligned",
            "(4096,4096):(4096,_1)",
            "(4096,4096):(_1,4096)",
            4,
            true,
        ),
        (
            "transpose_f32_odd",
            "(1023,2049):(2049,_1)",
            "(1023,2049):(_1,1023)",
            4,
            true,
        ),
        (
            "transpose_f64",
            "(512,256):(256,_1)",
            "(512,256):(_1,512)",
            8,
            true,
        ),
    ];
    for (name, s, d, e, transpose) in moves {
        out.push((name.to_string(), copy_kernel(s, d, e, transpose)));
    }
    out.extend(gemm_kernels());
    out
}

/// The SM80 GEMM in a few configurations, at 4095x4097x1023: (label, kernel).
fn gemm_kernels() -> Vec<(String, Kernel)> {
    let mut out = Vec::new();
    use Major::{K, MN};
    let gemms = [
        (
            "gemm_f16_f32_rr",
            (K, MN),
            DType::F16,
            DType::F32,
            GemmConfig::default(),
        ),
        (
            "gemm_bf16_bf16_rc",
            (K, K),
            DType::BF16,
            DType::BF16,
            GemmConfig::default(),
        ),
        (
            "gemm_f16_f16_cr",
            (MN, MN),
            DType::F16,
            DType::F16,
            GemmConfig::default(),
        ),
        (
            "gemm_bf16_f32_cc",
            (MN, K),
            DType::BF16,
            DType::F32,
            GemmConfig::default(),
        ),
        (
            "gemm_f16_f16_rc_128x256",
            (K, K),
            DType::F16,
            DType::F16,
            sm80_large(),
        ),
        (
            "gemm_f16_f16_rc_128x128_w2x4_2ctas",
            (K, K),
            DType::F16,
            DType::F16,
            sm80_two_ctas(),
        ),
        (
            "gemm_bf16_bf16_cr_128x128_w4x2_2ctas",
            (MN, MN),
            DType::BF16,
            DType::BF16,
            sm80_two_ctas_w4x2(),
        ),
        (
            "gemm_bf16_bf16_rc_256x128_s3",
            (K, K),
            DType::BF16,
            DType::BF16,
            sm80_256x128_s3(),
        ),
    ];
    for (name, majors, i, o, cfg) in gemms {
        out.push((
            name.to_string(),
            generate_gemm(&gemm_spec((4095, 4097, 1023), majors, i, o, cfg)).unwrap(),
        ));
    }
    out
}

/// The default stream of GPU 0, or `None` after a loud SKIP of `test` when there is no GPU (a panic with
/// `CUTE_REQUIRE_GPU=1`).
#[cfg(feature = "cuda")]
pub fn gpu_stream(test: &str) -> Option<std::sync::Arc<cudarc::driver::CudaStream>> {
    let ctx = cute_gpu::runtime::driver_available()
        .then(|| cudarc::driver::CudaContext::new(0).ok())
        .flatten();
    if ctx.is_none() {
        let require = std::env::var("CUTE_REQUIRE_GPU").is_ok_and(|v| v == "1");
        assert!(!require, "CUTE_REQUIRE_GPU=1 but no GPU for {test}");
        loud(&format!("***** SKIP {test}: no GPU here *****"));
    }
    ctx.map(|c| c.default_stream())
}
