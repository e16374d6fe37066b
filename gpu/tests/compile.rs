//! Every generated kernel compiles with NVRTC for sm_80 and sm_90a with no spills and no local memory.
//! Needs only libnvrtc (no driver, no GPU). Without it: a loud SKIP, or a failure when CI=true.
#![allow(clippy::manual_is_multiple_of)]
#![cfg(feature = "nvrtc")]

mod common;

#[test]
fn every_kernel_compiles_without_spills() {
    if !common::nvrtc_or_skip("every_kernel_compiles_without_spills") {
        return;
    }
    let mut failures = Vec::new();
    let mut kernels = common::sample_kernels();
    // the 2-CTA/SM 128x128x64 (2x2 warps, 3 stages) GEMM: double-buffered fragments in 255 registers
    let k64 = cute_gpu::configs::sm80_two_ctas_k64();
    // (K-major A and B; with both operands MN-major it needs 16 bytes of spill at 255 registers)
    for (i, o) in [
        (cute_gpu::DType::F16, cute_gpu::DType::F16),
        (cute_gpu::DType::BF16, cute_gpu::DType::F32),
    ] {
        let majors = (cute_gpu::Major::K, cute_gpu::Major::K);
        let spec = common::gemm_spec((4095, 4097, 1023), majors, i, o, k64);
        kernels.push((
            format!("gemm_128x128x64_w2x2_s3_{i:?}_{o:?}"),
            cute_gpu::kernels::gemm_sm80::generate_gemm(&spec).unwrap(),
        ));
    }
    for (label, k) in kernels {
        for arch in ["sm_80", "sm_90a"] {
            match cute_gpu::nvrtc::compile(&k.source, &k.name, arch) {
                Ok(c) => {
                    eprintln!(
                        "{label:40} {arch:7} {:3} regs  {:6} B smem  {:6} B dyn smem  stack {} spill st {} ld {}",
                        c.report.registers,
                        c.report.smem,
                        k.dynamic_smem_bytes,
                        c.report.stack_frame,
                        c.report.spill_stores,
                        c.report.spill_loads
                    );
                    assert!(!c.cubin.is_empty());
                    assert!(
                        c.report.registers > 0,
                        "{label} {arch}: no ptxas report in the log:\n{}",
                        c.log
                    );
                    if !c.report.is_clean() {
                        failures.push(format!("{label} {arch}: {:?}\n{}", c.report, c.log));
                    }
                }
                Err(e) => failures.push(format!("{label} {arch}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn compile_errors_are_errors() {
    if !common::nvrtc_or_skip("compile_errors_are_errors") {
        return;
    }
    let e = cute_gpu::nvrtc::compile(
        "extern \"C\" __global__ void k() { undefined_thing(); }",
        "k",
        "sm_90a",
    )
    .unwrap_err();
    assert!(matches!(e, cute_gpu::GpuError::Compile { .. }), "{e}");
}

/// Every attention variant (f16/bf16, d 64/128/256, causal or not, varlen or not; default tiles and the
/// alternatives offered for tuning) compiles for sm_80 and sm_90a with no spills (d = 256 re-reads Q from shared memory per k16 step: with Q in registers it
/// spilled 12-24 bytes on sm_80).
#[test]
fn attention_kernels_compile_without_spills() {
    use cute_gpu::kernels::attention_sm80::{AttentionConfig, generate_attention};
    if !common::nvrtc_or_skip("attention_kernels_compile_without_spills") {
        return;
    }
    let mut failures = Vec::new();
    let only = std::env::var("CUTE_ATTN_ONLY").ok();
    // the default tiles of each head dim, and the alternatives `bench_attention --tiles` offers for
    // tuning: (d, block_m, block_n, Q in registers); `None` = the default
    let tiles = [
        (64, None),
        (128, None),
        (256, None),
        (128, Some((64, 128, true))),
        (64, Some((64, 64, true))),
        (64, Some((128, 32, true))),
    ];
    for dtype in [cute_gpu::DType::F16, cute_gpu::DType::BF16] {
        for (d, alt) in tiles {
            for (causal, varlen) in [(false, false), (true, false), (false, true), (true, true)] {
                let mut cfg = AttentionConfig::new(dtype, d, causal, varlen);
                if let Some((bm, bn, regs)) = alt {
                    (cfg.block_m, cfg.block_n, cfg.q_in_registers) = (bm, bn, regs);
                }
                let k = generate_attention(&cfg).unwrap();
                if only.as_deref().is_some_and(|o| !k.name.contains(o)) {
                    continue;
                }
                for arch in ["sm_80", "sm_90a"] {
                    match cute_gpu::nvrtc::compile(&k.source, &k.name, arch) {
                        Ok(c) => {
                            eprintln!(
                                "{:44} {arch:7} {:3} regs  {:6} B dyn smem  stack {} spill st {} ld {}",
                                k.name,
                                c.report.registers,
                                k.dynamic_smem_bytes,
                                c.report.stack_frame,
                                c.report.spill_stores,
                                c.report.spill_loads
                            );
                            if !c.report.is_clean() {
                                failures.push(format!("{} {arch}: {:?}", k.name, c.report));
                            }
                        }
                        Err(e) => failures.push(format!("{} {arch}: {e}", k.name)),
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
