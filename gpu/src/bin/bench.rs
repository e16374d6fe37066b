//! Benchmark, in one process on the same buffers: copy vs `cuMemcpyDtoD`, transpose vs that copy,
//! GEMM vs cuBLAS (`cublasGemmEx`, same dtypes and layouts): the mma.sync GEMM (`gpu::gemm`) and the Hopper
//! wgmma + TMA GEMM (`gpu::hopper`, sm_90a only; best of a small configuration sweep, the full sweep is
//! `bench_hopper bench`). Prints a table with ratios.
//!
//! `bench [--quick] [--gemm]` (quick: fewer GEMM configs and iterations; gemm: only the GEMM rows).

#![allow(clippy::manual_is_multiple_of)]
use gpu::DType;
use gpu::host::{Rng, bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};
use gpu::kernels::copy::{CopySpec, generate_copy};
use gpu::kernels::gemm_sm80::{GemmConfig, GemmSpec, generate_gemm};
use gpu::kernels::gemm_sm90::{HopperConfig, HopperProblem, generate_hopper_gemm};
use gpu::kernels::transpose::{TransposeSpec, generate_transpose};
use gpu::runtime::Runtime;
use gpu::{GpuError, Result};

fn layout(s: &str) -> Result<layout_core::Layout> {
    Ok(s.parse()?)
}

struct Row {
    what: String,
    ours: String,
    base: String,
    ratio: f64,
    note: String,
}

fn main() {
    if let Err(e) = run() {
        eprintln!("bench: {e}");
        std::process::exit(1);
    }
}

fn cublas_err<E: std::fmt::Debug>(e: E) -> GpuError {
    GpuError::Driver {
        call: "cuBLAS".into(),
        detail: format!("{e:?}"),
    }
}

fn run() -> Result<()> {
    let quick = std::env::args().any(|a| a == "--quick");
    let rt = Runtime::new(0)?;
    println!("device: {} ({})", rt.device_name()?, rt.arch());
    let mut rows = Vec::new();
    let iters = if quick { 10 } else { 30 };
    let gemm_only = std::env::args().any(|a| a == "--gemm");

    if !gemm_only {
        // ---- copy: 1 GiB of f32, contiguous; baseline cuMemcpyDtoD of the same bytes
        let n: i64 = 1 << 28;
        let bytes = (n * 4) as usize;
        let src = rt.zeros::<u32>(n as usize)?;
        let dst = rt.zeros::<u32>(n as usize)?;
        let (sp, dp) = (rt.bind(&src), rt.bind(&dst));
        let memcpy_ms = rt.time_ms(3, iters, || rt.memcpy_dtod(dp, sp, bytes))?;
        let memcpy_gbs = 2.0 * bytes as f64 / memcpy_ms / 1e6;
        let cl = layout(&format!("(_4,{}):(_1,_4)", n / 4))?;
        let mut best_copy = (0.0, String::new());
        for (t, u) in [(256, 4), (256, 2), (512, 4), (128, 8)] {
            let k = generate_copy(&CopySpec {
                src: cl.clone(),
                dst: cl.clone(),
                elem_bytes: 4,
                threads: t,
                unroll: u,
            })?;
            let loaded = rt.load(&k)?;
            let ms = rt.time_ms(3, iters, || rt.launch_loaded(&k, &loaded, &[sp, dp]))?;
            let gbs = 2.0 * bytes as f64 / ms / 1e6;
            if gbs > best_copy.0 {
                best_copy = (gbs, format!("{} ({} regs)", k.name, loaded.registers));
            }
        }
        rows.push(Row {
            what: "copy 1 GiB f32 (2^28 elems), GB/s".into(),
            ours: format!("{:.0}", best_copy.0),
            base: format!("{memcpy_gbs:.0} (cuMemcpyDtoD)"),
            ratio: best_copy.0 / memcpy_gbs,
            note: best_copy.1,
        });

        // ---- transpose 16384x16384 f32 (1 GiB) vs the same memcpy
        let m: i64 = 16384;
        let tsrc = layout(&format!("({m},{m}):({m},_1)"))?;
        let tdst = layout(&format!("({m},{m}):(_1,{m})"))?;
        let mut best_t = (0.0, String::new());
        for (tm, tn, th) in [(64, 64, 256), (32, 32, 256), (64, 64, 512), (32, 64, 256)] {
            let k = match generate_transpose(&TransposeSpec {
                src: tsrc.clone(),
                dst: tdst.clone(),
                elem_bytes: 4,
                tile_m: tm,
                tile_n: tn,
                threads: th,
            }) {
                Ok(k) => k,
                Err(e) => {
                    println!("transpose {tm}x{tn}/{th}: {e}");
                    continue;
                }
            };
            let loaded = rt.load(&k)?;
            let ms = rt.time_ms(3, iters, || rt.launch_loaded(&k, &loaded, &[sp, dp]))?;
            let gbs = 2.0 * bytes as f64 / ms / 1e6;
            if gbs > best_t.0 {
                best_t = (gbs, format!("{} ({} regs)", k.name, loaded.registers));
            }
        }
        rows.push(Row {
            what: "transpose 16384^2 f32, GB/s".into(),
            ours: format!("{:.0}", best_t.0),
            base: format!("{memcpy_gbs:.0} (cuMemcpyDtoD)"),
            ratio: best_t.0 / memcpy_gbs,
            note: best_t.1,
        });
        drop((src, dst));
    }
    // ---- GEMM vs cuBLAS: A row-major (M,K), B column-major (K,N), D row-major, out = in type
    if !std::panic::catch_unwind(|| unsafe { cudarc::cublas::sys::is_culib_present() })
        .unwrap_or(false)
    {
        return Err(GpuError::LibraryMissing("libcublas"));
    }
    let blas = cudarc::cublas::CudaBlas::new(rt.stream().clone()).map_err(cublas_err)?;
    let handle = *blas.handle();
    let configs: Vec<GemmConfig> = {
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
        let all = vec![
            big,
            GemmConfig { stages: 3, ..big },
            GemmConfig { stages: 5, ..big },
            GemmConfig { group_m: 16, ..big },
            GemmConfig {
                bm: 256,
                bn: 128,
                warps_m: 4,
                warps_n: 2,
                ..big
            },
            GemmConfig::default(),
            // 2 CTAs per SM (128 registers per thread, single-buffered fragments)
            GemmConfig {
                bn: 128,
                min_blocks: 2,
                ..big
            },
            GemmConfig {
                bn: 128,
                warps_m: 4,
                warps_n: 2,
                min_blocks: 2,
                ..big
            },
            GemmConfig {
                bn: 128,
                stages: 5,
                min_blocks: 2,
                ..big
            },
            GemmConfig {
                bn: 128,
                bk: 64,
                stages: 3,
                min_blocks: 2,
                ..big
            },
            GemmConfig {
                bm: 256,
                bn: 128,
                warps_m: 4,
                warps_n: 4,
                ..big
            },
            // 2 CTAs per SM, 2x2 warps of 64x64, bk 64: double-buffered fragments (gemm3)
            GemmConfig {
                bn: 128,
                bk: 64,
                warps_n: 2,
                stages: 3,
                min_blocks: 2,
                ..big
            },
        ];
        // --quick: one config, f16, 8192^3 only (used under ncu)
        if quick { vec![all[6]] } else { all }
    };
    for dt in [DType::F16, DType::BF16] {
        for (mm, nn, kk) in [
            (4096i64, 4096i64, 4096i64),
            (8192, 8192, 8192),
            (4095, 4097, 1023),
        ] {
            let up = |x: i64| (x + 7) / 8 * 8;
            let (lda, ldb, ldc) = (up(kk), up(kk), up(nn));
            let a_l = layout(&format!("({mm},{kk}):({lda},_1)"))?;
            let b_l = layout(&format!("({kk},{nn}):(_1,{ldb})"))?;
            let c_l = layout(&format!("({mm},{nn}):({ldc},_1)"))?;
            let mut rng = Rng(1);
            let conv = |f: f32| {
                if dt == DType::F16 {
                    f32_to_f16(f)
                } else {
                    f32_to_bf16(f)
                }
            };
            let back = |h: u16| {
                if dt == DType::F16 {
                    f16_to_f32(h)
                } else {
                    bf16_to_f32(h)
                }
            };
            let ah: Vec<u16> = (0..(mm * lda) as usize)
                .map(|_| conv(rng.small_int(4) as f32 / 4.0))
                .collect();
            let bh: Vec<u16> = (0..(nn * ldb) as usize)
                .map(|_| conv(rng.small_int(4) as f32 / 4.0))
                .collect();
            let da = rt.upload(&ah)?;
            let db = rt.upload(&bh)?;
            let dc = rt.zeros::<u16>((mm * ldc) as usize)?;
            let dd = rt.zeros::<u16>((mm * ldc) as usize)?;
            let dref = rt.zeros::<u16>((mm * ldc) as usize)?;
            let flops = 2.0 * (mm * nn * kk) as f64;
            let (alpha, beta) = (1.0f32, 0.0f32);
            let (pa, pb, pref) = (rt.bind(&da).ptr(), rt.bind(&db).ptr(), rt.bind(&dref).ptr());
            // Row-major D (M,N) = column-major D^T (N,M) = B^T A^T: cuBLAS A-operand is our B (column-major
            // K x N, transposed), B-operand is our A (row-major M x K = column-major K x M).
            let baseline = gpu::runtime::baseline::BaselineGemm {
                dtype: dt,
                m: mm,
                n: nn,
                k: kk,
                a: (pa, lda),
                b: (pb, ldb),
                d: (pref, ldc),
            };
            // SAFETY: da, db and dref hold the operands' sizes and outlive the timed launches.
            let cublas = || unsafe { baseline.run(handle) };
            let gi = if mm >= 8192 { iters / 2 } else { iters };
            let cub_ms = rt.time_ms(3, gi, cublas)?;
            let reference = rt.download(&dref)?;
            let cub_tf = flops / cub_ms / 1e9;
            let mut best = (0.0, String::new());
            for cfg in &configs {
                let spec = GemmSpec {
                    a: a_l.clone(),
                    b: b_l.clone(),
                    c: c_l.clone(),
                    input: dt,
                    output: dt,
                    alpha,
                    beta,
                    config: *cfg,
                };
                let k = generate_gemm(&spec)?;
                let loaded = rt.load(&k)?;
                let ptrs = [rt.bind(&da), rt.bind(&db), rt.bind(&dc), rt.bind(&dd)];
                let ms = rt.time_ms(3, gi, || rt.launch_loaded(&k, &loaded, &ptrs))?;
                // agreement with cuBLAS (both accumulate in f32; outputs rounded to the 16-bit type)
                let ours = rt.download(&dd)?;
                let mut worst = 0f32;
                for i in (0..mm).step_by(7) {
                    for j in (0..nn).step_by(13) {
                        let o = (i * ldc + j) as usize;
                        let (x, y) = (back(ours[o]), back(reference[o]));
                        worst = worst.max((x - y).abs() / y.abs().max(1.0));
                    }
                }
                let tf = flops / ms / 1e9;
                println!(
                    "  {:?} {mm}x{nn}x{kk} {}: {tf:.0} TFLOP/s ({} regs, {} B smem), max rel diff vs cuBLAS {worst:.2e}",
                    dt, k.name, loaded.registers, k.dynamic_smem_bytes
                );
                if worst > 1e-2 {
                    return Err(GpuError::CheckFailed(format!(
                        "{} disagrees with cuBLAS: {worst}",
                        k.name
                    )));
                }
                if tf > best.0 {
                    best = (tf, format!("{} ({} regs)", k.name, loaded.registers));
                }
            }
            rows.push(Row {
                what: format!(
                    "GEMM {:?} {mm}x{nn}x{kk} (A row, B col, D row), TFLOP/s",
                    dt
                )
                .to_lowercase(),
                ours: format!("{:.0}", best.0),
                base: format!("{cub_tf:.0} (cublasGemmEx)"),
                ratio: best.0 / cub_tf,
                note: best.1,
            });
            // ---- the Hopper GEMM (wgmma + TMA) on the same buffers, same cuBLAS baseline
            if rt.arch() != "sm_90a" && rt.arch() != "sm_90" {
                continue;
            }
            let hp = HopperProblem::padded(mm, nn, kk);
            assert_eq!((hp.lda, hp.ldb, hp.ldd), (lda, ldb, ldc));
            let large = HopperConfig::large();
            let hcfgs: Vec<HopperConfig> = if quick {
                vec![large]
            } else {
                vec![
                    large,
                    HopperConfig {
                        group_m: 16,
                        ..large
                    },
                    HopperConfig {
                        tma_store: false,
                        ..large
                    },
                    HopperConfig {
                        persistent: true,
                        stages: 6,
                        tma_store: true,
                        ..HopperConfig::default()
                    },
                ]
            };
            let mut best = (0.0, String::new());
            for cfg in &hcfgs {
                let k = generate_hopper_gemm(&hp, dt, dt, cfg)?;
                let bound = rt.prepare(&k, &[rt.bind(&da), rt.bind(&db), rt.bind(&dd)])?;
                let loaded = bound.loaded();
                let ms = rt.time_ms(3, gi, || rt.run(&bound))?;
                let ours = rt.download(&dd)?;
                let mut worst = 0f32;
                for i in (0..mm).step_by(7) {
                    for j in (0..nn).step_by(13) {
                        let o = (i * ldc + j) as usize;
                        let (x, y) = (back(ours[o]), back(reference[o]));
                        worst = worst.max((x - y).abs() / y.abs().max(1.0));
                    }
                }
                let tf = flops / ms / 1e9;
                println!(
                    "  {:?} {mm}x{nn}x{kk} {}: {tf:.0} TFLOP/s ({} regs, {} B smem), max rel diff vs cuBLAS {worst:.2e}",
                    dt, k.name, loaded.registers, k.dynamic_smem_bytes
                );
                if worst > 1e-2 {
                    return Err(GpuError::CheckFailed(format!(
                        "{} disagrees with cuBLAS: {worst}",
                        k.name
                    )));
                }
                if tf > best.0 {
                    best = (tf, format!("{} ({} regs)", k.name, loaded.registers));
                }
            }
            rows.push(Row {
                what: format!(
                    "GEMM {:?} {mm}x{nn}x{kk} (A row, B col, D row), Hopper wgmma+TMA, TFLOP/s",
                    dt
                )
                .to_lowercase(),
                ours: format!("{:.0}", best.0),
                base: format!("{cub_tf:.0} (cublasGemmEx)"),
                ratio: best.0 / cub_tf,
                note: best.1,
            });
        }
    }
    println!("\n| benchmark | ours | baseline | ratio | kernel |\n| --- | --- | --- | --- | --- |");
    for r in rows {
        println!(
            "| {} | {} | {} | {:.2} | {} |",
            r.what, r.ours, r.base, r.ratio, r.note
        );
    }
    Ok(())
}
