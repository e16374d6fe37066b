//! Every generated kernel compiles with NVRTC for sm_80 and sm_90a with no spills and no local memory.
//! Needs only libnvrtc (no driver, no GPU). Without it: a loud SKIP, or a failure when CI=true.
#![allow(clippy::manual_is_multiple_of)]
#![cfg(feature = "nvrtc")]

mod common;

#[test]
fn every_kernel_compiles_without_spills() {
    if !gpu::nvrtc::nvrtc_available() {
        let msg = "libnvrtc cannot be loaded: source .ci/nvrtc.sh (installs NVRTC 13.0 from PyPI)";
        if std::env::var("CI").map(|v| v == "true").unwrap_or(false) {
            panic!("CI=true and {msg}");
        }
        common::loud(&format!(
            "***** SKIP every_kernel_compiles_without_spills: {msg} *****"
        ));
        return;
    }
    let mut failures = Vec::new();
    let mut kernels = common::sample_kernels();
    // the 2-CTA/SM 128x128x64 (2x2 warps, 3 stages) GEMM: double-buffered fragments in 255 registers
    let k64 = gpu::kernels::gemm_sm80::GemmConfig {
        bm: 128,
        bn: 128,
        bk: 64,
        warps_m: 2,
        warps_n: 2,
        stages: 3,
        min_blocks: 2,
        group_m: 8,
    };
    // (K-major A and B; with both operands MN-major it needs 16 bytes of spill at 255 registers)
    for (i, o) in [
        (gpu::DType::F16, gpu::DType::F16),
        (gpu::DType::BF16, gpu::DType::F32),
    ] {
        let spec = common::gemm_spec(4095, 4097, 1023, true, false, i, o, k64);
        kernels.push((
            format!("gemm_128x128x64_w2x2_s3_{i:?}_{o:?}"),
            gpu::kernels::gemm_sm80::generate_gemm(&spec).unwrap(),
        ));
    }
    for (label, k) in kernels {
        for arch in ["sm_80", "sm_90a"] {
            match gpu::nvrtc::compile(&k.source, &k.name, arch) {
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
    if !gpu::nvrtc::nvrtc_available() {
        common::loud("***** SKIP compile_errors_are_errors: libnvrtc missing *****");
        return;
    }
    let e = gpu::nvrtc::compile(
        "extern \"C\" __global__ void k() { undefined_thing(); }",
        "k",
        "sm_90a",
    )
    .unwrap_err();
    assert!(matches!(e, gpu::GpuError::Compile { .. }), "{e}");
}
