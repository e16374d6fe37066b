//! The Hopper GEMM compiles with NVRTC for sm_90a with no spills and no local memory, and (when
//! `cuobjdump` is on the PATH or in `$CUOBJDUMP`) its SASS contains `HGMMA`. Needs only libnvrtc.
//! Without it: a loud SKIP, or a failure when CI=true.
#![cfg(feature = "nvrtc")]

use cute_gpu::DType;
use cute_gpu::Major;
use cute_gpu::configs::sm90_persistent_tma_store;
use cute_gpu::kernels::gemm_sm90::{HopperConfig, HopperProblem, generate_hopper_gemm};

mod common;

fn configs() -> Vec<(HopperConfig, DType, DType)> {
    vec![
        (HopperConfig::default(), DType::BF16, DType::F32),
        (HopperConfig::default(), DType::F16, DType::F16),
        (HopperConfig::large(), DType::BF16, DType::BF16),
        (HopperConfig::large(), DType::F16, DType::F32),
        (
            HopperConfig {
                tma_store: false,
                ..HopperConfig::large()
            },
            DType::F16,
            DType::F16,
        ),
        (sm90_persistent_tma_store(), DType::BF16, DType::F32),
        (HopperConfig::pingpong(), DType::BF16, DType::BF16),
    ]
}

#[test]
fn hopper_gemm_compiles_without_spills() {
    if !common::nvrtc_or_skip("hopper_gemm_compiles_without_spills") {
        return;
    }
    let mut failures = Vec::new();
    // the odd size (edge paths) for all, and the shipped 128x256 TMA-store kernel at 4096^3 (no N edge)
    let odd = HopperProblem::padded(4095, 4097, 1023);
    let even = HopperProblem::padded(4096, 4096, 4096);
    let runs = configs().into_iter().map(|c| (c, odd)).chain([
        ((HopperConfig::large(), DType::F16, DType::F16), even),
        ((HopperConfig::large(), DType::BF16, DType::BF16), even),
        // MN-major operands (A column-major and/or B row-major): transposed wgmma, 64x64 TMA boxes
        (
            (HopperConfig::large(), DType::F16, DType::F16),
            odd.with_majors(Major::MN, Major::MN),
        ),
        (
            (HopperConfig::large(), DType::BF16, DType::F32),
            even.with_majors(Major::MN, Major::K),
        ),
        (
            (HopperConfig::default(), DType::BF16, DType::BF16),
            odd.with_majors(Major::K, Major::MN),
        ),
        (
            (HopperConfig::pingpong(), DType::F16, DType::F16),
            even.with_majors(Major::MN, Major::MN),
        ),
    ]);
    for ((cfg, tin, tout), problem) in runs {
        let k = generate_hopper_gemm(&problem, tin, tout, &cfg).unwrap();
        let t0 = std::time::Instant::now();
        match cute_gpu::nvrtc::compile(&k.source, &k.name, "sm_90a") {
            Ok(c) => {
                eprintln!(
                    "{:50} {}x{} {:3} regs  {:6} B dyn smem  stack {} spill st {} ld {}  ({:.0} ms)",
                    k.name,
                    problem.m,
                    problem.n,
                    c.report.registers,
                    k.dynamic_smem_bytes,
                    c.report.stack_frame,
                    c.report.spill_stores,
                    c.report.spill_loads,
                    t0.elapsed().as_secs_f64() * 1e3
                );
                if c.report.registers == 0 || !c.report.is_clean() {
                    failures.push(format!("{}: {:?}\n{}", k.name, c.report, c.log));
                }
                if let Some(sass) = sass_of(&c.cubin, &k.name) {
                    let n = sass.lines().filter(|l| l.contains("HGMMA")).count();
                    eprintln!("  cuobjdump: {n} HGMMA instructions");
                    if n == 0 || sass.contains("LDL") || sass.contains("STL") {
                        failures.push(format!(
                            "{}: SASS without HGMMA or with local memory",
                            k.name
                        ));
                    }
                }
            }
            Err(e) => failures.push(format!("{}: {e}", k.name)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `cuobjdump -sass` of a cubin, when cuobjdump can be found.
fn sass_of(cubin: &[u8], name: &str) -> Option<String> {
    let tool = std::env::var("CUOBJDUMP").unwrap_or_else(|_| "cuobjdump".into());
    let path = std::env::temp_dir().join(format!("{name}-{}.cubin", std::process::id()));
    std::fs::write(&path, cubin).ok()?;
    let out = std::process::Command::new(&tool)
        .arg("-sass")
        .arg(&path)
        .output();
    let _ = std::fs::remove_file(&path);
    match out {
        Ok(o) if o.status.success() => Some(String::from_utf8_lossy(&o.stdout).into_owned()),
        Ok(o) => {
            eprintln!("  cuobjdump failed: {}", String::from_utf8_lossy(&o.stderr));
            None
        }
        Err(_) => {
            eprintln!("  (no cuobjdump: SASS not checked; set CUOBJDUMP)");
            None
        }
    }
}
