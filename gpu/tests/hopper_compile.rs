//! The Hopper GEMM compiles with NVRTC for sm_90a with no spills and no local memory, and (when
//! `cuobjdump` is on the PATH or in `$CUOBJDUMP`) its SASS contains `HGMMA`. Needs only libnvrtc.
//! Without it: a loud SKIP, or a failure when CI=true.
#![cfg(feature = "nvrtc")]

use cute_gpu::DType;
use cute_gpu::Kernel;
use cute_gpu::Major;
use cute_gpu::configs::sm90_persistent_tma_store;
use cute_gpu::kernels::gemm_sm90::{
    Fused, HopperBatch, HopperConfig, HopperProblem, generate_hopper_fp8_gemm,
    generate_hopper_gemm, generate_hopper_gemm_with,
};
use cute_gpu::piece::epilogue_op::{Activation, BiasKind, EpilogueOp};
use cute_gpu::piece::fp8_scaling::Scaling;

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
        (HopperConfig::pingpong_tma_store(), DType::BF16, DType::BF16),
        (HopperConfig::pingpong_tma_store(), DType::F16, DType::F32),
        (HopperConfig::pingpong_wide(), DType::BF16, DType::BF16),
        (HopperConfig::pingpong_wide(), DType::F16, DType::F32),
        // 2-CTA clusters, B multicast
        (clustered(HopperConfig::large()), DType::BF16, DType::BF16),
        (clustered(HopperConfig::large()), DType::F16, DType::F32),
        (
            clustered(HopperConfig::pingpong_wide()),
            DType::BF16,
            DType::BF16,
        ),
        // 4-CTA clusters, a quarter of B multicast by each
        (
            HopperConfig {
                cluster: 4,
                ..HopperConfig::large()
            },
            DType::BF16,
            DType::BF16,
        ),
        (
            HopperConfig {
                cluster: 4,
                stream_k: 132,
                ..HopperConfig::large()
            },
            DType::F16,
            DType::F32,
        ),
        (
            HopperConfig {
                cluster: 4,
                ..HopperConfig::pingpong_tma_store()
            },
            DType::BF16,
            DType::BF16,
        ),
    ]
}

fn clustered(c: HopperConfig) -> HopperConfig {
    HopperConfig { cluster: 2, ..c }
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
        compile_clean(&k, &problem, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The strided-batched variants the planner picks (direct or TMA-store epilogue; an operand shared or
/// not; the fused beta * C and bias read at the tile's batch).
#[test]
fn batched_hopper_gemm_compiles_without_spills() {
    if !common::nvrtc_or_skip("batched_hopper_gemm_compiles_without_spills") {
        return;
    }
    let mut failures = Vec::new();
    let batch = HopperBatch {
        count: 32,
        a: 1 << 20,
        b: 1 << 20,
        d: 1 << 20,
        c: 1 << 20,
        k_slices: false,
    };
    let problem = HopperProblem {
        batch: Some(batch),
        ..HopperProblem::padded(1024, 1024, 1024)
    };
    let direct = HopperConfig {
        tma_store: false,
        ..HopperConfig::large()
    };
    let shared_b = HopperProblem {
        batch: Some(HopperBatch { b: 0, ..batch }),
        ..problem.with_majors(Major::MN, Major::MN)
    };
    let fused = Fused {
        op: EpilogueOp {
            scale: true,
            bias: BiasKind::PerColumn,
            activation: Activation::Gelu,
        },
        alpha: 1.0,
        beta: 0.5,
    };
    for (cfg, p, f) in [
        (direct, problem, Fused::default()),
        (HopperConfig::default(), shared_b, Fused::default()),
        (HopperConfig::pingpong(), problem, fused),
        (HopperConfig::pingpong_tma_store(), problem, fused),
        (sm90_persistent_tma_store(), problem, fused),
        (HopperConfig::large(), problem, Fused::default()),
    ] {
        let k = generate_hopper_gemm_with(&p, DType::BF16, DType::BF16, &cfg, &f).unwrap();
        compile_clean(&k, &p, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The stream-K variants: the 128x256 TMA-store tile, the direct epilogue with a fused op, a narrow
/// column-major (transposed) tile, a strided batch, and FP8 per tensor.
#[test]
fn stream_k_gemm_compiles_without_spills() {
    if !common::nvrtc_or_skip("stream_k_gemm_compiles_without_spills") {
        return;
    }
    let mut failures = Vec::new();
    let sk = |c: HopperConfig| HopperConfig { stream_k: 132, ..c };
    let narrow = HopperConfig {
        bm: 64,
        bn: 16,
        consumers: 1,
        stages: 16,
        tma_store: false,
        ..HopperConfig::large()
    };
    let decode = HopperProblem {
        d_column_major: true,
        ldd: 11008,
        ..HopperProblem::padded(11008, 16, 4096)
    };
    let batched = HopperProblem {
        batch: Some(HopperBatch {
            count: 32,
            a: 1 << 20,
            b: 1 << 20,
            d: 1 << 20,
            c: 1 << 20,
            k_slices: false,
        }),
        ..HopperProblem::padded(1024, 1024, 1024)
    };
    let fused = Fused {
        op: EpilogueOp {
            scale: true,
            bias: BiasKind::PerRow,
            activation: Activation::Relu,
        },
        alpha: 2.0,
        beta: 0.5,
    };
    let direct = HopperConfig {
        tma_store: false,
        ..HopperConfig::large()
    };
    let odd = HopperProblem::padded(4095, 4097, 1023);
    for (cfg, p, f) in [
        (
            HopperConfig::large(),
            HopperProblem::padded(2048, 2048, 2048),
            Fused::default(),
        ),
        (direct, odd, fused),
        (narrow, decode, fused),
        (HopperConfig::large(), batched, Fused::default()),
        (sm90_persistent_tma_store(), odd, Fused::default()),
        // in 2-CTA clusters: the clusters share the k-blocks
        (clustered(HopperConfig::large()), odd, fused),
        (clustered(HopperConfig::large()), batched, Fused::default()),
    ] {
        let k = generate_hopper_gemm_with(&p, DType::BF16, DType::BF16, &sk(cfg), &f).unwrap();
        assert!(
            k.name.contains("_sk132") && k.buffer_names().contains(&"SK"),
            "{}",
            k.name
        );
        compile_clean(&k, &p, &mut failures);
    }
    let fp8 = HopperProblem::padded(4096, 4096, 4096);
    let c = sk(HopperConfig::large().for_bits(8));
    let e4m3 = (DType::E4M3, DType::E4M3);
    let scaled = |s| generate_hopper_fp8_gemm(&fp8, e4m3, s, DType::BF16, &c, &Fused::default());
    compile_clean(&scaled(Scaling::PerTensor).unwrap(), &fp8, &mut failures);
    // the plan's FP8 stream-K: in 2-CTA clusters
    let c2 = clustered(c);
    let in_clusters = generate_hopper_fp8_gemm(
        &fp8,
        e4m3,
        Scaling::PerTensor,
        DType::BF16,
        &c2,
        &Fused::default(),
    );
    compile_clean(&in_clusters.unwrap(), &fp8, &mut failures);
    // not for ping-pong or block scaling
    assert!(
        generate_hopper_gemm(
            &fp8,
            DType::BF16,
            DType::BF16,
            &sk(HopperConfig::pingpong())
        )
        .is_err()
    );
    assert!(scaled(Scaling::Block).is_err());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fp8_gemm_compiles_without_spills() {
    if !common::nvrtc_or_skip("fp8_gemm_compiles_without_spills") {
        return;
    }
    let mut failures = Vec::new();
    let odd = HopperProblem::padded(4095, 4097, 1023);
    let even = HopperProblem::padded(4096, 4096, 4096);
    let block = HopperConfig {
        bn: 128,
        ..HopperConfig::large()
    };
    let staged = HopperConfig {
        stages: 5,
        smem_scales: true,
        ..block
    };
    let staged_64 = HopperConfig {
        bm: 64,
        stages: 8,
        persistent: true,
        smem_scales: true,
        ..HopperConfig::default()
    };
    // two product buffers (the promotion under the next k-block's wgmmas)
    let overlapped = |c| HopperConfig {
        overlap_promotion: true,
        ..c
    };
    let (e4, e5) = (DType::E4M3, DType::E5M2);
    let runs = [
        (
            HopperConfig::large(),
            (e4, e4),
            Scaling::PerTensor,
            DType::BF16,
            even,
        ),
        (
            HopperConfig::large(),
            (e4, e5),
            Scaling::PerTensor,
            DType::F16,
            odd,
        ),
        (
            HopperConfig::default(),
            (e5, e4),
            Scaling::PerTensor,
            DType::F32,
            odd,
        ),
        (
            HopperConfig::pingpong(),
            (e4, e4),
            Scaling::PerTensor,
            DType::BF16,
            even,
        ),
        (
            HopperConfig::pingpong_tma_store(),
            (e4, e4),
            Scaling::PerTensor,
            DType::BF16,
            odd,
        ),
        (
            clustered(HopperConfig::pingpong_wide()),
            (e4, e4),
            Scaling::PerTensor,
            DType::BF16,
            odd,
        ),
        (
            HopperConfig::pingpong_wide(),
            (e4, e4),
            Scaling::PerTensor,
            DType::BF16,
            odd,
        ),
        (block, (e4, e4), Scaling::Block, DType::BF16, even),
        (
            HopperConfig::large(),
            (e4, e4),
            Scaling::Block,
            DType::BF16,
            even,
        ),
        (
            HopperConfig::large(),
            (e5, e4),
            Scaling::Block,
            DType::F32,
            odd,
        ),
        (block, (e4, e4), Scaling::Block, DType::F32, odd),
        (staged, (e4, e4), Scaling::Block, DType::BF16, even),
        (
            HopperConfig {
                tma_store: false,
                smem_scales: true,
                ..HopperConfig::large()
            },
            (e4, e5),
            Scaling::Block,
            DType::F32,
            odd,
        ),
        (
            HopperConfig {
                bn: 64,
                ..staged_64
            },
            (e5, e4),
            Scaling::Block,
            DType::BF16,
            odd,
        ),
        (
            HopperConfig {
                bm: 64,
                ..HopperConfig::default()
            },
            (e5, e5),
            Scaling::Block,
            DType::F16,
            odd,
        ),
        (
            HopperConfig {
                promotion_stagger: 128,
                ..HopperConfig::large()
            },
            (e4, e4),
            Scaling::Block,
            DType::BF16,
            odd,
        ),
        (
            overlapped(staged),
            (e4, e4),
            Scaling::Block,
            DType::BF16,
            even,
        ),
        (
            overlapped(staged_64),
            (e4, e5),
            Scaling::Block,
            DType::F32,
            odd,
        ),
    ];
    for (cfg, types, scaling, out, problem) in runs {
        let cfg = cfg.for_bits(8);
        let k = generate_hopper_fp8_gemm(&problem, types, scaling, out, &cfg, &Fused::default())
            .unwrap();
        compile_clean(&k, &problem, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Compiles `k` for sm_90a and records a failure unless ptxas reports registers, no spills and no
/// local memory (and, with cuobjdump, SASS with HGMMA).
fn compile_clean(k: &Kernel, problem: &HopperProblem, failures: &mut Vec<String>) {
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
            // ptxas serializes the wgmmas where it cannot prove an accumulator untouched while in
            // flight (C7514, C7517), or fences them where a branch joins with them in flight (C7519)
            let serialized =
                c.log.contains("C7514") || c.log.contains("C7517") || c.log.contains("C7519");
            if c.report.registers == 0 || !c.report.is_clean() || serialized {
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

/// The Hopper attention kernel's other K/V tiles (the wide ones of `Sm90AttentionConfig::for_keys`, 192 keys
/// for d = 128 and d = 64 with 2 consumer warp groups, in both types; 176 and 160 for d = 128 and the former 64 for d = 256, for
/// `bench_attention --sm90-block-n`; 256 keys for d = 64 spills), causal or not, compile for sm_90a with no
/// spills.
#[test]
fn attention_sm90_tuning_tiles_compile() {
    use cute_gpu::kernels::attention_sm90::{Sm90AttentionConfig, generate_attention_sm90};
    if !common::nvrtc_or_skip("attention_sm90_tuning_tiles_compile") {
        return;
    }
    let mut failures = Vec::new();
    for (d, block_n, dtype) in [
        (256, 64, DType::BF16),
        (128, 192, DType::BF16),
        (128, 192, DType::F16),
        (128, 176, DType::BF16),
        (128, 160, DType::BF16),
        (64, 192, DType::BF16),
        (64, 192, DType::F16),
    ] {
        for causal in [false, true] {
            let cfg = Sm90AttentionConfig {
                block_n,
                ..Sm90AttentionConfig::new(dtype, d, causal)
            };
            check_clean_sm90(&generate_attention_sm90(&cfg).unwrap(), &mut failures);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every Hopper attention variant (f16/bf16, d 64/128/256, causal or not, the schedules, varlen with the
/// default schedule, persistent CTAs) compiles for sm_90a with no spills and no local memory; `CUTE_ATTN_ONLY` narrows it to kernels whose name contains the value.
#[test]
fn attention_sm90_compiles_without_spills() {
    use cute_gpu::kernels::attention_sm90::{Sm90AttentionConfig, generate_attention_sm90};
    if !common::nvrtc_or_skip("attention_sm90_compiles_without_spills") {
        return;
    }
    let only = std::env::var("CUTE_ATTN_ONLY").ok();
    let mut failures = Vec::new();
    for dtype in [DType::F16, DType::BF16] {
        for d in [64, 128, 256] {
            for (causal, overlap, pingpong, varlen, persistent) in [
                (false, true, true, false, false),
                (true, true, true, false, false),
                (false, true, false, false, false),
                (true, false, false, false, false),
                (false, true, true, true, false),
                (true, true, true, true, false),
                (false, true, true, false, true),
                (true, true, true, true, true),
                (true, true, false, false, true),
            ] {
                let cfg = plain_if_persistent_wide(Sm90AttentionConfig {
                    overlap,
                    pingpong,
                    varlen,
                    persistent,
                    ..Sm90AttentionConfig::new(dtype, d, causal)
                });
                let k = generate_attention_sm90(&cfg).unwrap();
                if only.as_deref().is_some_and(|o| !k.name.contains(o)) {
                    continue;
                }
                if let Ok(dir) = std::env::var("CUTE_ATTN_DUMP") {
                    std::fs::write(format!("{dir}/{}.cu", k.name), &k.source).unwrap();
                }
                match cute_gpu::nvrtc::compile(&k.source, &k.name, "sm_90a") {
                    Ok(c) => {
                        eprintln!(
                            "{:44} {:3} regs  {:6} B dyn smem  stack {} spill st {} ld {}",
                            k.name,
                            c.report.registers,
                            k.dynamic_smem_bytes,
                            c.report.stack_frame,
                            c.report.spill_stores,
                            c.report.spill_loads
                        );
                        if !c.report.is_clean() {
                            failures.push(format!("{}: {:?}", k.name, c.report));
                        }
                        // ptxas serializes wgmmas it cannot prove safe to keep in flight
                        if c.log.contains("serialized") {
                            failures.push(format!("{}: {}", k.name, c.log));
                        }
                    }
                    Err(e) => failures.push(format!("{}: {e}", k.name)),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The Hopper attention kernel with 3 consumer warp groups (`Sm90AttentionConfig::consumers`, d = 64: 192
/// query rows, 512 threads, `setmaxnreg` 24 / 160), f16/bf16, causal or not, the default and the wide
/// (`for_keys(16384)`, narrowed to 128 keys) tiles, persistent or not (LPT too), the schedules, varlen, 3
/// stages: no spills, no local memory, no serialized wgmma; d = 128, 3 consumers with 192 keys and 4
/// consumers are rejected.
#[test]
fn attention_sm90_consumers3_compile() {
    use cute_gpu::kernels::attention_sm90::{Sm90AttentionConfig, generate_attention_sm90};
    if !common::nvrtc_or_skip("attention_sm90_consumers3_compile") {
        return;
    }
    let mut failures = Vec::new();
    for dtype in [DType::BF16, DType::F16] {
        for causal in [false, true] {
            for keys in [1024, 16384] {
                let c = Sm90AttentionConfig::new(dtype, 64, causal)
                    .for_keys(keys)
                    .with_consumers(3);
                assert_eq!((c.consumers, c.block_m(), c.block_n), (3, 192, 128));
                let p = Sm90AttentionConfig {
                    persistent: !c.persistent,
                    ..c
                };
                for cfg in [
                    c,
                    p,
                    Sm90AttentionConfig {
                        tma_store_o: true,
                        ..p
                    },
                    Sm90AttentionConfig {
                        lpt_l2_mib: 8,
                        persistent: true,
                        ..c
                    },
                    Sm90AttentionConfig { varlen: true, ..c },
                    Sm90AttentionConfig {
                        pingpong: false,
                        ..c
                    },
                    Sm90AttentionConfig {
                        overlap: false,
                        pingpong: false,
                        persistent: false,
                        ..c
                    },
                    c.fitting_stages(3),
                    // tail tiles (persistent), with O through Q's smem and TMA too
                    Sm90AttentionConfig {
                        persistent: true,
                        tail_tiles: true,
                        ..c
                    },
                    Sm90AttentionConfig {
                        persistent: true,
                        tail_tiles: true,
                        tma_store_o: true,
                        ..c
                    },
                ] {
                    let k = generate_attention_sm90(&cfg).unwrap();
                    assert!(k.source.contains("setmaxnreg.inc.sync.aligned.u32 160;"));
                    assert_eq!(k.block.0, 512);
                    check_clean_sm90(&k, &mut failures);
                }
            }
        }
    }
    let c = Sm90AttentionConfig::new(DType::BF16, 64, false);
    for bad in [
        Sm90AttentionConfig {
            consumers: 3,
            ..Sm90AttentionConfig::new(DType::BF16, 128, false)
        },
        Sm90AttentionConfig {
            consumers: 3,
            block_n: 192,
            ..c
        },
        Sm90AttentionConfig { consumers: 4, ..c },
    ] {
        assert!(generate_attention_sm90(&bad).is_err(), "{bad:?}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `cfg` with the warp group index `threadIdx.x / 128` where it is persistent at d = 128 or 256: with
/// the broadcast index those kernels spill 8-180 bytes of per-tile values, but for the plan's (d = 256
/// causal: dynamic scheduler, O rescaled before `P·V`; `Sm90AttentionConfig::broadcast_wg`), which are
/// compiled with it in `attention_sm90_tuning_options_compile`.
fn plain_if_persistent_wide(
    cfg: cute_gpu::kernels::attention_sm90::Sm90AttentionConfig,
) -> cute_gpu::kernels::attention_sm90::Sm90AttentionConfig {
    let persistent_wide = cfg.persistent && cfg.head_dim >= 128;
    cute_gpu::kernels::attention_sm90::Sm90AttentionConfig {
        broadcast_wg: cfg.broadcast_wg && !persistent_wide,
        ..cfg
    }
}

/// Compiles `k` for sm_90a and records a failure if it spills, uses local memory, has its wgmmas
/// serialized or fenced by ptxas (C7519).
/// `CUTE_ATTN_ONLY` and `CUTE_ATTN_DUMP` as in `attention_sm90_compiles_without_spills`.
fn check_clean_sm90(k: &cute_gpu::kernel::Kernel, failures: &mut Vec<String>) {
    if std::env::var("CUTE_ATTN_ONLY").is_ok_and(|o| !k.name.contains(&o)) {
        return;
    }
    if let Ok(dir) = std::env::var("CUTE_ATTN_DUMP") {
        std::fs::write(format!("{dir}/{}.cu", k.name), &k.source).unwrap();
    }
    match cute_gpu::nvrtc::compile(&k.source, &k.name, "sm_90a") {
        Ok(c) => {
            eprintln!(
                "{:56} {:3} regs  {:6} B dyn smem  {:?}",
                k.name, c.report.registers, k.dynamic_smem_bytes, c.report
            );
            // C7519: ptxas fenced wgmmas in flight across a branch join (a narrow-tail version measured 5 % slower)
            if !c.report.is_clean() || c.log.contains("serialized") || c.log.contains("C7519") {
                failures.push(format!("{}: {:?} {}", k.name, c.report, c.log));
            }
        }
        Err(e) => failures.push(format!("{}: {e}", k.name)),
    }
}

/// The Hopper attention kernel's plan choice (`for_keys`) and tuning choices (`Sm90AttentionConfig::stages`,
/// `s_scale_d0`, `lpt_l2_mib`, `lazy_rescale`, `dynamic_tiles`, `poly_exp2_every` with 3 consumers where d = 64
/// takes them, `rescale_before_pv`, `narrow_tail`), alone and together, on the default and the wide tiles (`for_keys(16384)`), d 64/128/256, causal or not, one
/// varlen persistent case: no spills, no local memory, no serialized wgmma.
#[test]
fn attention_sm90_tuning_options_compile() {
    use cute_gpu::kernels::attention_sm90::{Sm90AttentionConfig, generate_attention_sm90};
    if !common::nvrtc_or_skip("attention_sm90_tuning_options_compile") {
        return;
    }
    let mut failures = Vec::new();
    for d in [64, 128, 256] {
        for causal in [false, true] {
            for keys in [1024, 16384] {
                let c = Sm90AttentionConfig::new(DType::BF16, d, causal).for_keys(keys);
                let lpt = Sm90AttentionConfig {
                    persistent: true,
                    lpt_l2_mib: 8,
                    ..c
                };
                for cfg in [
                    // the plan's choice, and with O rescaled at the other place
                    c,
                    Sm90AttentionConfig {
                        rescale_before_pv: !c.rescale_before_pv,
                        ..c
                    },
                    c.fitting_stages(3),
                    Sm90AttentionConfig {
                        s_scale_d0: true,
                        ..c
                    },
                    lpt,
                    Sm90AttentionConfig {
                        s_scale_d0: true,
                        ..lpt
                    }
                    .fitting_stages(3),
                    Sm90AttentionConfig {
                        varlen: true,
                        ..lpt
                    },
                    Sm90AttentionConfig {
                        lazy_rescale: true,
                        ..c
                    },
                    Sm90AttentionConfig {
                        poly_exp2_every: 4,
                        ..c.with_consumers(3)
                    },
                    Sm90AttentionConfig {
                        poly_exp2_every: 2,
                        ..lpt
                    },
                    // the dynamic tile scheduler: plain order, LPT order, varlen
                    Sm90AttentionConfig {
                        persistent: true,
                        dynamic_tiles: true,
                        ..c
                    },
                    Sm90AttentionConfig {
                        dynamic_tiles: true,
                        ..lpt
                    },
                    Sm90AttentionConfig {
                        dynamic_tiles: true,
                        varlen: true,
                        ..lpt
                    },
                    // a narrow last key block (48 keys; not causal), also with S overwritten, persistent
                    Sm90AttentionConfig {
                        narrow_tail: if causal { 0 } else { 48 },
                        ..c
                    },
                    Sm90AttentionConfig {
                        narrow_tail: if causal { 0 } else { 48 },
                        s_scale_d0: true,
                        ..lpt
                    },
                    // persistent with Q prefetched into L2 where the plan does not, and the reverse
                    Sm90AttentionConfig {
                        persistent: true,
                        dynamic_tiles: causal,
                        prefetch_q: !c.prefetch_q,
                        ..c
                    },
                ] {
                    // the plan's choice as it is, the others with the index they compile clean with
                    let cfg = if cfg == c {
                        c
                    } else {
                        plain_if_persistent_wide(cfg)
                    };
                    check_clean_sm90(&generate_attention_sm90(&cfg).unwrap(), &mut failures);
                }
            }
        }
    }
    // the plan's persistent d = 256 causal kernels (broadcast index) and d = 128 from 8k keys in f16 too
    for (d, causal, keys) in [(256, true, 1024), (256, true, 16384), (128, false, 16384)] {
        let c = Sm90AttentionConfig::new(DType::F16, d, causal).for_keys(keys);
        assert!(c.broadcast_wg);
        check_clean_sm90(&generate_attention_sm90(&c).unwrap(), &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
