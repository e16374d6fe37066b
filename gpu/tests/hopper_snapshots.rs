//! The generated Hopper GEMM text, snapshot-tested (no GPU or NVRTC needed): a change in what the
//! generator writes (descriptors, TMA boxes, layouts in the comments) shows up as a reviewed diff.

use cute_gpu::DType;
use cute_gpu::Major;
use cute_gpu::kernels::gemm_sm90::{
    Fused, HopperConfig, HopperProblem, generate_hopper_fp8_gemm, generate_hopper_gemm,
};
use cute_gpu::piece::fp8_scaling::Scaling;

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

/// A decode-like GEMM (16 rows) computed transposed: `Dᵀ (8192,16) = Bᵀ·Aᵀ`, 64x16 tiles (m64n16 wgmma),
/// D column-major in the kernel's view (each value stored on its own, C read at `m + n·ldd`), with the
/// fused `alpha·acc + beta·C` and a bias per row of the kernel's problem.
#[test]
fn hopper_narrow_transposed_bf16() {
    use cute_gpu::matmul::plan::sm90_narrow_config;
    use cute_gpu::piece::epilogue_op::{BiasKind, EpilogueOp};
    let p = HopperProblem {
        d_column_major: true,
        ldd: 8192,
        ..HopperProblem::padded(8192, 16, 8192)
    };
    let op = EpilogueOp {
        bias: BiasKind::PerRow,
        scale: true,
        ..EpilogueOp::default()
    };
    let fused = Fused {
        op,
        alpha: 1.0,
        beta: 0.5,
    };
    let cfg = sm90_narrow_config(16).unwrap();
    let k = cute_gpu::kernels::gemm_sm90::generate_hopper_gemm_with(
        &p,
        DType::BF16,
        DType::BF16,
        &cfg,
        &fused,
    )
    .unwrap();
    assert!(
        k.name.contains("_64x16x64_") && k.name.contains("_dT"),
        "{}",
        k.name
    );
    insta::assert_snapshot!("hopper_narrow_transposed_bf16", k.source);
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
    let source = |m, n, k, cfg: HopperConfig| {
        generate_hopper_gemm(
            &HopperProblem::padded(m, n, k),
            DType::F16,
            DType::F16,
            &cfg,
        )
        .unwrap()
        .source
    };
    // extents (even ones that end inside a tile or a 16-byte group) are kernel parameters: the whole text,
    // comments included, is the same, so one compiled kernel serves them all
    for cfg in [HopperConfig::large(), HopperConfig::default()] {
        let a = source(4096, 4096, 4096, cfg);
        for (m, n, k) in [(8192, 8192, 8192), (77, 301, 40), (4095, 4097, 1023)] {
            assert_eq!(a, source(m, n, k, cfg), "{m}x{n}x{k} {cfg:?}");
        }
    }
}

/// FP8 with per-tensor scales (k32 wgmma, 128-value K stages) and with block scales (128-column splits,
/// promotion every 128 of K), the latter also with the scales staged in shared memory by the producer,
/// with the consumers staggered, and with two product buffers.
#[test]
fn hopper_fp8_per_tensor_and_block_scaled() {
    let p = HopperProblem {
        lda: 4096,
        ldb: 4096,
        ..HopperProblem::padded(4096, 4096, 4096)
    };
    let large = HopperConfig::large().for_bits(8);
    let staged = HopperConfig {
        bn: 128,
        stages: 5,
        smem_scales: true,
        ..large
    };
    for (label, scaling, cfg) in [
        ("hopper_fp8_per_tensor", Scaling::PerTensor, large),
        ("hopper_fp8_block_scaled", Scaling::Block, large),
        (
            "hopper_fp8_block_scaled_smem_scales",
            Scaling::Block,
            staged,
        ),
        (
            "hopper_fp8_block_scaled_staggered",
            Scaling::Block,
            HopperConfig {
                promotion_stagger: 128,
                ..large
            },
        ),
        (
            "hopper_fp8_block_scaled_overlapped",
            Scaling::Block,
            HopperConfig {
                overlap_promotion: true,
                ..staged
            },
        ),
    ] {
        let types = (DType::E4M3, DType::E4M3);
        let k = generate_hopper_fp8_gemm(&p, types, scaling, DType::BF16, &cfg, &Fused::default())
            .unwrap();
        insta::assert_snapshot!(label, k.source);
    }
}

/// The Hopper attention kernel (bf16, d = 128, causal, overlap and ping-pong), the serial d = 256 one and
/// the varlen d = 64 one.
#[test]
fn attention_sm90_sources() {
    use cute_gpu::kernels::attention_sm90::{Sm90AttentionConfig, generate_attention_sm90};
    let serial = Sm90AttentionConfig {
        overlap: false,
        pingpong: false,
        ..Sm90AttentionConfig::new(DType::F16, 256, false)
    };
    for (label, cfg) in [
        (
            "attention90_bf16_d128_causal",
            Sm90AttentionConfig::new(DType::BF16, 128, true),
        ),
        ("attention90_f16_d256_serial", serial),
        (
            "attention90_f16_d64_causal_varlen",
            Sm90AttentionConfig {
                varlen: true,
                ..Sm90AttentionConfig::new(DType::F16, 64, true)
            },
        ),
        (
            "attention90_bf16_d64_tail_tiles",
            Sm90AttentionConfig::new(DType::BF16, 64, false).for_keys(1024),
        ),
        (
            "attention90_bf16_d128_causal_dynamic_lpt",
            Sm90AttentionConfig::new(DType::BF16, 128, true).for_keys(4096),
        ),
    ] {
        let k = generate_attention_sm90(&cfg).unwrap();
        assert!(!k.source.contains("#include"), "{label}");
        insta::assert_snapshot!(label, k.source);
    }
}
