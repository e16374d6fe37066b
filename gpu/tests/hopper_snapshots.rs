//! The generated Hopper GEMM text, snapshot-tested (no GPU or NVRTC needed): a change in what the
//! generator writes (descriptors, TMA boxes, layouts in the comments) shows up as a reviewed diff.

use gpu::DType;
use gpu::Major;
use gpu::kernels::gemm_sm90::{HopperConfig, HopperProblem, generate_hopper_gemm};

fn snapshot(label: &str, problem: HopperProblem, cfg: HopperConfig, tin: DType, tout: DType) {
    let k = generate_hopper_gemm(&problem, tin, tout, &cfg).unwrap();
    insta::assert_snapshot!(label, k.source);
}

#[test]
fn hopper_128x256_tma_store_bf16() {
    let p = HopperProblem::padded(4096, 4096, 4096);
    snapshot(
        "hopper_128x256_tma_store_bf16",
        p,
        HopperConfig::large(),
        DType::BF16,
        DType::BF16,
    );
}

#[test]
fn hopper_128x128_one_consumer_f16_to_f32_odd() {
    let p = HopperProblem::padded(4095, 4097, 1023);
    snapshot(
        "hopper_128x128_f16_f32_odd",
        p,
        HopperConfig::default(),
        DType::F16,
        DType::F32,
    );
}

#[test]
fn hopper_mn_major_operands_f16() {
    let p = HopperProblem::padded(4096, 4096, 4096).with_majors(Major::MN, Major::MN);
    snapshot(
        "hopper_mn_major_f16",
        p,
        HopperConfig::large(),
        DType::F16,
        DType::F16,
    );
}

#[test]
fn one_kernel_serves_many_sizes_of_one_alignment_class() {
    let source = |m, n, k| {
        generate_hopper_gemm(
            &HopperProblem::padded(m, n, k),
            DType::F16,
            DType::F16,
            &HopperConfig::large(),
        )
        .unwrap()
        .source
    };
    let (a, b) = (source(4096, 4096, 4096), source(8192, 8192, 8192));
    let diff: Vec<_> = a
        .lines()
        .zip(b.lines())
        .filter(|(x, y)| x != y && !x.trim_start().starts_with("//"))
        .take(3)
        .collect();
    assert!(
        diff.is_empty(),
        "extents must be kernel parameters (only comments may quote the concrete layouts): {diff:#?}"
    );
}
