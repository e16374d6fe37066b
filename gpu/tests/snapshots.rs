//! Text depth: the generated CUDA sources, snapshotted (no GPU, no NVRTC needed).

#![allow(clippy::manual_is_multiple_of)]
mod common;

use cute_gpu::kernels::gemm_sm80::{GemmConfig, plan_gemm};
use cute_gpu::kernels::transpose::{TransposeSpec, plan_transpose};
use cute_gpu::{DType, Major};

#[test]
fn generated_sources() {
    for (label, k) in common::sample_kernels() {
        assert!(
            k.source
                .contains("extern \"C\" __global__ void __launch_bounds__"),
            "{label}"
        );
        assert!(
            !k.source.contains("#include"),
            "{label}: generated code must not include headers"
        );
        insta::assert_snapshot!(label.clone(), k.source);
    }
}

#[test]
fn same_source_for_other_dynamic_sizes() {
    // Dynamic leaves are parameters: a different M/N/K (same alignment class) gives the same text.
    let generate = |mnk| {
        let majors = (Major::K, Major::K);
        let spec = common::gemm_spec(mnk, majors, DType::F16, DType::F32, GemmConfig::default());
        cute_gpu::kernels::gemm_sm80::generate_gemm(&spec).unwrap()
    };
    let (a, b) = (generate((1000, 1000, 1000)), generate((4096, 512, 2048)));
    assert_eq!(a.source, b.source);
    assert_ne!(a.args, b.args);
}

#[test]
fn swizzles_remove_every_bank_conflict() {
    let t = plan_transpose(&TransposeSpec::new(
        common::l("(4096,4096):(4096,_1)"),
        common::l("(4096,4096):(_1,4096)"),
        4,
    ))
    .unwrap();
    assert_eq!(t.conflicts, 0);
    assert!(
        t.unswizzled_conflicts > 0,
        "the plain tile should conflict, else the test proves nothing"
    );
    assert_eq!((t.v_in, t.v_out), (4, 4));
    let t = plan_transpose(&TransposeSpec::new(
        common::l("(1023,2049):(2049,_1)"),
        common::l("(1023,2049):(_1,1023)"),
        4,
    ))
    .unwrap();
    assert_eq!((t.v_in, t.v_out, t.conflicts), (1, 1, 0));
    assert!(t.unswizzled_conflicts > 0);
    use Major::{K, MN};
    for (am, bm) in [(K, MN), (K, K), (MN, MN), (MN, K)] {
        let p = plan_gemm(&common::gemm_spec(
            (256, 256, 256),
            (am, bm),
            DType::BF16,
            DType::F32,
            GemmConfig::default(),
        ))
        .unwrap();
        assert_eq!(
            (p.a_swizzle.1, p.b_swizzle.1),
            (0, 0),
            "{am:?} {bm:?}: {p:?}"
        );
        assert!(p.a_swizzle.2 > 0 && p.b_swizzle.2 > 0, "{p:?}");
    }
}

#[test]
fn bad_inputs_are_errors() {
    use cute_gpu::kernels::copy::{CopySpec, generate_copy};
    let e = generate_copy(&CopySpec::new(
        common::l("(8,8):(1,8)"),
        common::l("(8,4):(1,8)"),
        4,
    ))
    .unwrap_err();
    assert!(e.to_string().contains("size"), "{e}");
    let mut spec = common::gemm_spec(
        (100, 100, 100),
        (Major::K, Major::MN),
        DType::F16,
        DType::F32,
        GemmConfig::default(),
    );
    spec.a = common::l("(100,100):(101,_1)");
    assert!(
        cute_gpu::kernels::gemm_sm80::generate_gemm(&spec)
            .unwrap_err()
            .to_string()
            .contains("multiple of 8")
    );
    spec = common::gemm_spec(
        (100, 100, 100),
        (Major::K, Major::MN),
        DType::F16,
        DType::F32,
        GemmConfig {
            stages: 2,
            ..GemmConfig::default()
        },
    );
    assert!(cute_gpu::kernels::gemm_sm80::generate_gemm(&spec).is_err());
}

#[test]
fn attention_sources() {
    use cute_gpu::kernels::attention_sm80::{AttentionConfig, generate_attention};
    // the causal bf16 d = 128 kernel, and the varlen d = 64 one (128 query rows: two row atoms per warp)
    for (label, cfg) in [
        (
            "attention_bf16_d128_causal",
            AttentionConfig::new(DType::BF16, 128, true, false),
        ),
        (
            "attention_f16_d64_varlen",
            AttentionConfig::new(DType::F16, 64, false, true),
        ),
    ] {
        let k = generate_attention(&cfg).unwrap();
        assert!(!k.source.contains("#include"), "{label}");
        insta::assert_snapshot!(label, k.source);
    }
}
