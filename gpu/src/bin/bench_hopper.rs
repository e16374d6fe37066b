//! Hopper GEMM (wgmma + TMA): correctness against a CPU reference, then TFLOP/s against cuBLAS
//! (`cublasGemmEx`, same process, same buffers and layouts: A row-major, B column-major, D row-major).
//!
//! `bench_hopper [check [small|tiny]] [bench] [quick]`: `check` runs the exactness checks for the four
//! operand-major combinations (`small`: up to 1000^3, for memcheck; `tiny`: 128^3 and 77x300x40, for
//! racecheck), `bench` the benchmark
//! (all configurations), `quick` only one configuration of the benchmark at 8192^3 bf16 (for ncu).

#![allow(clippy::manual_is_multiple_of)]

#[cfg(not(feature = "cuda"))]
fn main() {
    eprintln!("bench_hopper needs `--features cuda`");
    std::process::exit(2);
}

#[cfg(feature = "cuda")]
fn main() {
    imp::main()
}

#[cfg(feature = "cuda")]
mod imp {
    use gpu::DType;
    use gpu::Major;
    use gpu::host::{Rng, bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};
    use gpu::kernels::gemm_sm90::{HopperConfig, HopperProblem, generate_hopper_gemm};
    use gpu::runtime::Runtime;
    use gpu::{GpuError, Result};

    pub fn main() {
        let args: Vec<String> = std::env::args().collect();
        let has = |s: &str| args.iter().any(|a| a == s);
        let r = (|| -> Result<()> {
            let rt = Runtime::new(0)?;
            println!("device: {} ({})", rt.device_name()?, rt.arch());
            if has("check") {
                check(&rt, has("small"), has("tiny"))?;
            }
            if has("bench") || has("quick") {
                bench(&rt, has("quick"))?;
            }
            Ok(())
        })();
        if let Err(e) = r {
            eprintln!("bench_hopper: {e}");
            std::process::exit(1);
        }
    }

    fn conv(dt: DType, f: f32) -> u16 {
        if dt == DType::F16 {
            f32_to_f16(f)
        } else {
            f32_to_bf16(f)
        }
    }
    fn back(dt: DType, h: u16) -> f32 {
        if dt == DType::F16 {
            f16_to_f32(h)
        } else {
            bf16_to_f32(h)
        }
    }

    fn inputs(p: &HopperProblem, dt: DType, seed: u64) -> (Vec<u16>, Vec<u16>) {
        let mut rng = Rng(seed);
        let a = (0..p.a_len() as usize)
            .map(|_| conv(dt, rng.small_int(2) as f32))
            .collect();
        let b = (0..p.b_len() as usize)
            .map(|_| conv(dt, rng.small_int(2) as f32))
            .collect();
        (a, b)
    }

    fn configs_for_check() -> Vec<HopperConfig> {
        vec![
            HopperConfig::default(),
            HopperConfig {
                tma_store: true,
                ..HopperConfig::default()
            },
            HopperConfig::large(),
            HopperConfig {
                tma_store: false,
                ..HopperConfig::large()
            },
            HopperConfig::pingpong(),
        ]
    }

    /// Exactness on small integers: f32 outputs equal the exact sums, 16-bit outputs their correct rounding.
    fn check(rt: &Runtime, small: bool, tiny: bool) -> Result<()> {
        let all = [
            (128i64, 128i64, 128i64),
            (1000, 1000, 1000),
            (4096, 4096, 4096),
            (4095, 4097, 1023),
            (8192, 128, 8192),
            (77, 300, 40),
        ];
        let sizes: Vec<(i64, i64, i64)> = if tiny {
            all.iter()
                .copied()
                .filter(|&(m, n, k)| m * n * k <= 3_000_000)
                .collect()
        } else if small {
            all.iter()
                .copied()
                .filter(|&(m, _, k)| m * k <= 1_000_000)
                .collect()
        } else {
            all.to_vec()
        };
        let mut failed = 0;
        let majors = [
            (Major::K, Major::K),
            (Major::MN, Major::K),
            (Major::K, Major::MN),
            (Major::MN, Major::MN),
        ];
        for (m, n, k) in sizes {
            for (am, bmj) in majors {
                let p = HopperProblem::padded(m, n, k).with_majors(am, bmj);
                for (tin, tout) in [
                    (DType::BF16, DType::F32),
                    (DType::F16, DType::F16),
                    (DType::BF16, DType::BF16),
                ] {
                    let (ah, bh) = inputs(&p, tin, 7);
                    let af: Vec<f32> = ah.iter().map(|&h| back(tin, h)).collect();
                    let bf: Vec<f32> = bh.iter().map(|&h| back(tin, h)).collect();
                    let da = rt.upload(&ah)?;
                    let db = rt.upload(&bh)?;
                    // element strides of A (m, k) and B (n, k) in their buffers
                    let (sam, sak) = if am == Major::K {
                        (p.lda, 1)
                    } else {
                        (1, p.lda)
                    };
                    let (sbn, sbk) = if bmj == Major::K {
                        (p.ldb, 1)
                    } else {
                        (1, p.ldb)
                    };
                    // K-contiguous copies for the reference
                    let ak: Vec<f32> = (0..m * k)
                        .map(|x| af[((x / k) * sam + (x % k) * sak) as usize])
                        .collect();
                    let bk: Vec<f32> = (0..n * k)
                        .map(|x| bf[((x / k) * sbn + (x % k) * sbk) as usize])
                        .collect();
                    let refv = |i: i64, j: i64| -> f32 {
                        let mut s = 0f32;
                        for kk in 0..k {
                            s += ak[(i * k + kk) as usize] * bk[(j * k + kk) as usize];
                        }
                        s
                    };
                    // points: everything up to 1000^3, else edges + random points
                    let mut pts = Vec::new();
                    if m * n <= 1_100_000 && m * n * k <= 1_100_000_000 {
                        for i in 0..m {
                            for j in 0..n {
                                pts.push((i, j));
                            }
                        }
                    } else {
                        let mut r = Rng(3);
                        for i in 0..m {
                            pts.push((i, 0));
                            pts.push((i, n - 1));
                        }
                        for j in 0..n {
                            pts.push((0, j));
                            pts.push((m - 1, j));
                        }
                        for _ in 0..20000 {
                            pts.push((
                                (r.next_u64() % m as u64) as i64,
                                (r.next_u64() % n as u64) as i64,
                            ));
                        }
                    }
                    let exp: Vec<f32> = pts.iter().map(|&(i, j)| refv(i, j)).collect();
                    // the MN-major combinations with the three schedules (the K-major one with all five)
                    let cfgs: Vec<HopperConfig> = if (am, bmj) == (Major::K, Major::K) {
                        configs_for_check()
                    } else {
                        vec![
                            HopperConfig::default(),
                            HopperConfig::large(),
                            HopperConfig::pingpong(),
                        ]
                    };
                    for cfg in cfgs {
                        let kern = generate_hopper_gemm(&p, tin, tout, &cfg)?;
                        let l = rt.load(&kern)?;
                        let bad;
                        if tout == DType::F32 {
                            let dd = rt.upload(&vec![f32::NAN; (p.m * p.ldd) as usize])?;
                            let b =
                                rt.prepare(&kern, &[rt.bind(&da), rt.bind(&db), rt.bind(&dd)])?;
                            rt.run(&b)?;
                            rt.sync()?;
                            let out = rt.download(&dd)?;
                            bad = pts
                                .iter()
                                .zip(&exp)
                                .filter(|&(&(i, j), &e)| out[(i * p.ldd + j) as usize] != e)
                                .count();
                            // padding columns untouched
                            let pad_bad = (0..m)
                                .flat_map(|i| (n..p.ldd).map(move |j| (i, j)))
                                .filter(|&(i, j)| !out[(i * p.ldd + j) as usize].is_nan())
                                .count();
                            if pad_bad > 0 {
                                println!("  {} wrote {pad_bad} padding elements", kern.name);
                                failed += 1;
                            }
                        } else {
                            let dd = rt.upload(&vec![0x7fffu16; (p.m * p.ldd) as usize])?;
                            let b =
                                rt.prepare(&kern, &[rt.bind(&da), rt.bind(&db), rt.bind(&dd)])?;
                            rt.run(&b)?;
                            rt.sync()?;
                            let out = rt.download(&dd)?;
                            bad = pts
                                .iter()
                                .zip(&exp)
                                .filter(|&(&(i, j), &e)| {
                                    out[(i * p.ldd + j) as usize] != conv(tout, e)
                                })
                                .count();
                            let pad_bad = (0..m)
                                .flat_map(|i| (n..p.ldd).map(move |j| (i, j)))
                                .filter(|&(i, j)| out[(i * p.ldd + j) as usize] != 0x7fff)
                                .count();
                            if pad_bad > 0 {
                                println!("  {} wrote {pad_bad} padding elements", kern.name);
                                failed += 1;
                            }
                        }
                        println!(
                            "check {m}x{n}x{k} {} {tin:?}->{tout:?} {}: {} points, {bad} wrong ({} regs, {} B local, compile {:.0} ms) {}",
                            p.majors_tag(),
                            kern.name,
                            pts.len(),
                            l.registers,
                            l.local_bytes,
                            l.compile_s * 1e3,
                            if bad == 0 { "OK" } else { "FAIL" }
                        );
                        if bad > 0 {
                            failed += 1;
                        }
                    }
                }
            }
        }
        if failed > 0 {
            return Err(GpuError::CheckFailed(format!("{failed} checks failed")));
        }
        println!("check: all exact");
        Ok(())
    }

    fn bench(rt: &Runtime, quick: bool) -> Result<()> {
        let blas =
            cudarc::cublas::CudaBlas::new(rt.stream().clone()).map_err(|e| GpuError::Driver {
                call: "cuBLAS".into(),
                detail: format!("{e:?}"),
            })?;
        let handle = *blas.handle();
        let large = HopperConfig::large();
        let configs: Vec<HopperConfig> = if quick {
            vec![large]
        } else {
            vec![
                HopperConfig {
                    persistent: true,
                    stages: 6,
                    ..HopperConfig::default()
                },
                HopperConfig {
                    persistent: true,
                    stages: 6,
                    tma_store: true,
                    ..HopperConfig::default()
                },
                large,
                HopperConfig {
                    tma_store: false,
                    ..large
                },
                HopperConfig {
                    group_m: 16,
                    ..large
                },
                HopperConfig {
                    group_m: 4,
                    ..large
                },
                HopperConfig {
                    bm: 256,
                    bn: 128,
                    ..large
                },
            ]
        };
        let dts: &[DType] = if quick {
            &[DType::BF16]
        } else {
            &[DType::F16, DType::BF16]
        };
        let sizes: &[(i64, i64, i64)] = if quick {
            &[(8192, 8192, 8192)]
        } else {
            &[
                (4096, 4096, 4096),
                (8192, 8192, 8192),
                (4095, 4097, 1023),
                (8192, 128, 8192),
            ]
        };
        let mut table = Vec::new();
        for &dt in dts {
            for &(m, n, k) in sizes {
                let p = HopperProblem::padded(m, n, k);
                let (ah, bh) = inputs(&p, dt, 1);
                let da = rt.upload(&ah)?;
                let db = rt.upload(&bh)?;
                let dd = rt.zeros::<u16>((p.m * p.ldd) as usize)?;
                let dref = rt.zeros::<u16>((p.m * p.ldd) as usize)?;
                let flops = 2.0 * (m * n * k) as f64;
                let (pa, pb, pref) = (rt.bind(&da).ptr(), rt.bind(&db).ptr(), rt.bind(&dref).ptr());
                let baseline = gpu::runtime::baseline::BaselineGemm {
                    dtype: dt,
                    m,
                    n,
                    k,
                    a: (pa, p.lda),
                    b: (pb, p.ldb),
                    d: (pref, p.ldd),
                };
                // SAFETY: da, db and dref hold the operands' sizes and outlive the timed launches.
                let cublas = || unsafe { baseline.run(handle) };
                let iters = if m * n * k >= 8192 * 8192 * 8192 {
                    20
                } else {
                    50
                };
                let cub_ms = rt.time_ms(5, iters, cublas)?;
                let cub_tf = flops / cub_ms / 1e9;
                let reference = rt.download(&dref)?;
                let mut best = (0.0f64, String::new());
                for cfg in &configs {
                    let kern = match generate_hopper_gemm(&p, dt, dt, cfg) {
                        Ok(k) => k,
                        Err(e) => {
                            println!("  skip {cfg:?}: {e}");
                            continue;
                        }
                    };
                    let b = rt.prepare(&kern, &[rt.bind(&da), rt.bind(&db), rt.bind(&dd)])?;
                    let l = b.loaded();
                    let ms = rt.time_ms(5, iters, || rt.run(&b))?;
                    let out = rt.download(&dd)?;
                    let mut bad = 0usize;
                    for i in (0..m).step_by(7) {
                        for j in (0..n).step_by(13) {
                            let o = (i * p.ldd + j) as usize;
                            if out[o] != reference[o] {
                                bad += 1;
                            }
                        }
                    }
                    let tf = flops / ms / 1e9;
                    println!(
                        "  {dt:?} {m}x{n}x{k} {}: {tf:.0} TFLOP/s ({:.3} ms; cuBLAS {cub_tf:.0}; {} regs; NVRTC {:.0} ms; {bad} differ from cuBLAS)",
                        kern.name,
                        ms,
                        l.registers,
                        l.compile_s * 1e3
                    );
                    if bad > 0 {
                        return Err(GpuError::CheckFailed(format!(
                            "{} disagrees with cuBLAS at {bad} points",
                            kern.name
                        )));
                    }
                    if tf > best.0 {
                        best = (tf, kern.name.clone());
                    }
                }
                table.push(format!(
                    "| {} {m}x{n}x{k} | {:.0} | {cub_tf:.0} | {:.2} | `{}` |",
                    format!("{dt:?}").to_lowercase(),
                    best.0,
                    best.0 / cub_tf,
                    best.1
                ));
            }
        }
        println!(
            "\n| GEMM (TFLOP/s) | ours | cuBLAS | ratio | best kernel |\n| --- | --- | --- | --- | --- |"
        );
        for r in table {
            println!("{r}");
        }
        Ok(())
    }
}
