//! Kernel configurations shared by the snapshot, compile and run tests.
#![allow(dead_code)]

use gpu::DType;
use gpu::Kernel;
use gpu::kernels::copy::{CopySpec, generate_copy};
use gpu::kernels::gemm_sm80::{GemmConfig, GemmSpec, generate_gemm};
use gpu::kernels::transpose::{TransposeSpec, generate_transpose};
use layout_core::Layout;

/// Writes straight to the process's stderr, past the test harness's capture, so a skip is seen.
pub fn loud(msg: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "\n{msg}\n");
}

pub fn l(s: &str) -> Layout {
    s.parse().unwrap_or_else(|e| panic!("bad layout {s}: {e}"))
}

/// GEMM layouts for (M,N,K) with row-major (`true`) or column-major A and B, C/D row-major with
/// leading dimensions rounded up to multiples of 8.
#[allow(clippy::too_many_arguments)]
pub fn gemm_spec(
    m: i64,
    n: i64,
    k: i64,
    a_row: bool,
    b_row: bool,
    input: DType,
    output: DType,
    config: GemmConfig,
) -> GemmSpec {
    let up = |x: i64| (x + 7) / 8 * 8;
    let a = if a_row {
        format!("({m},{k}):({},_1)", up(k))
    } else {
        format!("({m},{k}):(_1,{})", up(m))
    };
    let b = if b_row {
        format!("({k},{n}):({},_1)", up(n))
    } else {
        format!("({k},{n}):(_1,{})", up(k))
    };
    let c = format!("({m},{n}):({},_1)", up(n));
    GemmSpec {
        a: l(&a),
        b: l(&b),
        c: l(&c),
        input,
        output,
        alpha: 1.0,
        beta: 0.0,
        config,
    }
}

/// Every generator in a few configurations: (label, kernel).
pub fn sample_kernels() -> Vec<(String, Kernel)> {
    let mut out = Vec::new();
    let copies = [
        (
            "copy_contiguous_f32",
            "((_4,250),1000):((_1,_4),1000)",
            "((_4,250),1000):((_1,_4),1000)",
            4,
        ),
        (
            "copy_row_to_col_f32",
            "(1000,1000):(1000,_1)",
            "(1000,1000):(_1,1000)",
            4,
        ),
        (
            "copy_hierarchical_f16",
            "((_8,_4),(3,64)):((_1,_8),(32,96))",
            "(_32,(3,64)):(_1,(6144,96))",
            2,
        ),
        (
            "copy_static_f64",
            "(_64,_64):(_1,_64)",
            "(_64,_64):(_1,_64)",
            8,
        ),
    ];
    for (name, s, d, e) in copies {
        out.push((
            name.to_string(),
            generate_copy(&CopySpec::new(l(s), l(d), e)).unwrap(),
        ));
    }
    let transposes = [
        (
            "transpose_f32_aligned",
            "(4096,4096):(4096,_1)",
            "(4096,4096):(_1,4096)",
            4,
        ),
        (
            "transpose_f32_odd",
            "(1023,2049):(2049,_1)",
            "(1023,2049):(_1,1023)",
            4,
        ),
        (
            "transpose_f64",
            "(512,256):(256,_1)",
            "(512,256):(_1,512)",
            8,
        ),
    ];
    for (name, s, d, e) in transposes {
        out.push((
            name.to_string(),
            generate_transpose(&TransposeSpec::new(l(s), l(d), e)).unwrap(),
        ));
    }
    let big = GemmConfig {
        bm: 128,
        bn: 256,
        bk: 32,
        warps_m: 2,
        warps_n: 4,
        stages: 4,
        min_blocks: 1,
        group_m: 8,
    };
    let gemms = [
        (
            "gemm_f16_f32_rr",
            true,
            true,
            DType::F16,
            DType::F32,
            GemmConfig::default(),
        ),
        (
            "gemm_bf16_bf16_rc",
            true,
            false,
            DType::BF16,
            DType::BF16,
            GemmConfig::default(),
        ),
        (
            "gemm_f16_f16_cr",
            false,
            true,
            DType::F16,
            DType::F16,
            GemmConfig::default(),
        ),
        (
            "gemm_bf16_f32_cc",
            false,
            false,
            DType::BF16,
            DType::F32,
            GemmConfig::default(),
        ),
        (
            "gemm_f16_f16_rc_128x256",
            true,
            false,
            DType::F16,
            DType::F16,
            big,
        ),
        (
            "gemm_f16_f16_rc_128x128_w2x4_2ctas",
            true,
            false,
            DType::F16,
            DType::F16,
            GemmConfig {
                bn: 128,
                min_blocks: 2,
                ..big
            },
        ),
        (
            "gemm_bf16_bf16_cr_128x128_w4x2_2ctas",
            false,
            true,
            DType::BF16,
            DType::BF16,
            GemmConfig {
                bn: 128,
                warps_m: 4,
                warps_n: 2,
                min_blocks: 2,
                ..big
            },
        ),
        (
            "gemm_bf16_bf16_rc_256x128_s3",
            true,
            false,
            DType::BF16,
            DType::BF16,
            GemmConfig {
                bm: 256,
                bn: 128,
                warps_m: 4,
                warps_n: 2,
                stages: 3,
                ..big
            },
        ),
    ];
    for (name, ar, br, i, o, cfg) in gemms {
        out.push((
            name.to_string(),
            generate_gemm(&gemm_spec(4095, 4097, 1023, ar, br, i, o, cfg)).unwrap(),
        ));
    }
    out
}
