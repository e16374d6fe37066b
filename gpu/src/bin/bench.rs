//! Benchmark, in one process on the same buffers: copy vs `cuMemcpyDtoD`, transpose vs that copy,
//! GEMM vs cuBLAS (`cublasGemmEx`, same dtypes and layouts): the mma.sync GEMM (`cute_gpu::kernels::gemm_sm80`) and the Hopper
//! wgmma + TMA GEMM (`cute_gpu::kernels::gemm_sm90`, sm_90a only; best of a small configuration sweep, the full sweep is
//! `bench_hopper bench`). Prints a table with ratios.
//!
//! `bench [--quick] [--gemm]` (quick: fewer GEMM configs and iterations; gemm: only the GEMM rows).

#![allow(clippy::manual_is_multiple_of)]
use cute_gpu::configs::{
    BENCH_SIZES, sm80_large, sm80_spec, sm80_two_ctas, sm80_two_ctas_k64, sm80_two_ctas_w4x2,
    sm90_persistent_tma_store,
};
use cute_gpu::host::Rng;
use cute_gpu::kernels::copy::{CopySpec, generate_copy};
use cute_gpu::kernels::gemm_sm80::{GemmConfig, generate_gemm};
use cute_gpu::kernels::gemm_sm90::{HopperConfig, HopperProblem, generate_hopper_gemm};
use cute_gpu::kernels::transpose::{TransposeSpec, generate_transpose};
use cute_gpu::runtime::bench::{Best, Cublas, DeviceGemm, Row, print_table};
use cute_gpu::runtime::{RawBuffer, Runtime};
use cute_gpu::{DType, GpuError, Kernel, Result};

fn layout(s: &str) -> Result<cute_layout_core::Layout> {
    Ok(s.parse()?)
}

/// The command line: `--quick` (one configuration each, fewer iterations), `--gemm` (GEMM rows only).
struct Options {
    quick: bool,
    gemm_only: bool,
    iters: usize,
}

fn main() {
    if let Err(e) = run() {
        eprintln!("bench: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<()> {
    let has = |flag: &str| std::env::args().any(|a| a == flag);
    let quick = has("--quick");
    let opts = Options {
        quick,
        gemm_only: has("--gemm"),
        iters: if quick { 10 } else { 30 },
    };
    let rt = Runtime::new(0)?;
    println!("device: {} ({})", rt.device_name()?, rt.arch());
    let mut rows = Vec::new();
    if !opts.gemm_only {
        rows.extend(memory_rows(&rt, opts.iters)?);
    }
    rows.extend(gemm_rows(&rt, &opts)?);
    print_table(["benchmark", "ours", "baseline", "ratio", "kernel"], &rows);
    Ok(())
}

/// GB/s of reading and writing `bytes` in `ms` milliseconds.
fn gbs(bytes: usize, ms: f64) -> f64 {
    2.0 * bytes as f64 / ms / 1e6
}

/// Copy and transpose of 1 GiB of f32 against `cuMemcpyDtoD` of the same bytes.
fn memory_rows(rt: &Runtime, iters: usize) -> Result<Vec<Row>> {
    let n: i64 = 1 << 28;
    let bytes = (n * 4) as usize;
    let src = rt.zeros::<u32>(n as usize)?;
    let dst = rt.zeros::<u32>(n as usize)?;
    let args = [rt.bind(&src), rt.bind(&dst)];
    let memcpy_ms = rt.time_ms(3, iters, || rt.memcpy_dtod(args[1], args[0], bytes))?;
    let memcpy_gbs = gbs(bytes, memcpy_ms);
    let copy = best_copy(rt, iters, &args, n)?;
    let transpose = best_transpose(rt, iters, &args)?;
    let memcpy = Some("cuMemcpyDtoD");
    Ok(vec![
        Row::versus(
            "copy 1 GiB f32 (2^28 elems), GB/s".into(),
            copy,
            memcpy_gbs,
            memcpy,
        ),
        Row::versus(
            "transpose 16384^2 f32, GB/s".into(),
            transpose,
            memcpy_gbs,
            memcpy,
        ),
    ])
}

/// GB/s of a copy-like kernel moving 1 GiB between the two buffers.
fn time_gbs(
    rt: &Runtime,
    iters: usize,
    k: &Kernel,
    args: &[RawBuffer],
    best: &mut Best,
) -> Result<()> {
    let loaded = rt.load(k)?;
    let ms = rt.time_ms(3, iters, || rt.launch_loaded(k, &loaded, args))?;
    best.offer(gbs(args[0].bytes(), ms), || {
        format!("{} ({} regs)", k.name, loaded.registers)
    });
    Ok(())
}

/// The best of a few copy configurations (threads, unroll) over `n` contiguous f32.
fn best_copy(rt: &Runtime, iters: usize, args: &[RawBuffer], n: i64) -> Result<Best> {
    let cl = layout(&format!("(_4,{}):(_1,_4)", n / 4))?;
    let mut best = Best::default();
    for (threads, unroll) in [(256, 4), (256, 2), (512, 4), (128, 8)] {
        let k = generate_copy(&CopySpec {
            src: cl.clone(),
            dst: cl.clone(),
            elem_bytes: 4,
            threads,
            unroll,
        })?;
        time_gbs(rt, iters, &k, args, &mut best)?;
    }
    Ok(best)
}

/// The best of a few transpose configurations (tile, threads) of 16384x16384 f32.
fn best_transpose(rt: &Runtime, iters: usize, args: &[RawBuffer]) -> Result<Best> {
    let m: i64 = 16384;
    let src = layout(&format!("({m},{m}):({m},_1)"))?;
    let dst = layout(&format!("({m},{m}):(_1,{m})"))?;
    let mut best = Best::default();
    for (tile_m, tile_n, threads) in [(64, 64, 256), (32, 32, 256), (64, 64, 512), (32, 64, 256)] {
        let spec = TransposeSpec {
            src: src.clone(),
            dst: dst.clone(),
            elem_bytes: 4,
            tile_m,
            tile_n,
            threads,
        };
        match generate_transpose(&spec) {
            Ok(k) => time_gbs(rt, iters, &k, args, &mut best)?,
            Err(e) => println!("transpose {tile_m}x{tile_n}/{threads}: {e}"),
        }
    }
    Ok(best)
}

/// The mma.sync configurations measured (`--quick`: one, 2 CTAs per SM).
fn sm80_configs(quick: bool) -> Vec<GemmConfig> {
    let big = sm80_large();
    if quick {
        return vec![sm80_two_ctas()];
    }
    vec![
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
        sm80_two_ctas(),
        sm80_two_ctas_w4x2(),
        GemmConfig {
            stages: 5,
            ..sm80_two_ctas()
        },
        GemmConfig {
            bk: 64,
            stages: 3,
            ..sm80_two_ctas()
        },
        GemmConfig {
            bm: 256,
            bn: 128,
            warps_m: 4,
            warps_n: 4,
            ..big
        },
        // 2 CTAs per SM, 2x2 warps of 64x64, bk 64: double-buffered fragments (gemm3)
        sm80_two_ctas_k64(),
    ]
}

/// The wgmma configurations measured (`--quick`: the large one).
fn sm90_configs(quick: bool) -> Vec<HopperConfig> {
    let large = HopperConfig::large();
    if quick {
        return vec![large];
    }
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
        sm90_persistent_tma_store(),
    ]
}

/// GEMM vs cuBLAS: A row-major (M,K), B column-major (K,N), D row-major, out = in type; the Hopper
/// GEMM too on sm_90.
fn gemm_rows(rt: &Runtime, opts: &Options) -> Result<Vec<Row>> {
    let cublas = Cublas::new(rt)?;
    let sm80 = sm80_configs(opts.quick);
    let sm90 = (rt.arch() == "sm_90a" || rt.arch() == "sm_90").then(|| sm90_configs(opts.quick));
    let mut rows = Vec::new();
    for dt in [DType::F16, DType::BF16] {
        for (m, n, k) in BENCH_SIZES {
            let mut rng = Rng(1);
            let p = HopperProblem::padded(m, n, k);
            let quarters = |g: &mut Rng| g.small_int(4) as f32 / 4.0;
            let a = rng.fill(dt, p.a_len() as usize, quarters);
            let b = rng.fill(dt, p.b_len() as usize, quarters);
            let mut g = DeviceGemm::new(rt, dt, p, &a, &b)?;
            let iters = if m >= 8192 {
                opts.iters / 2
            } else {
                opts.iters
            };
            let cublas_tf = g.time_cublas(rt, &cublas, 3, iters)?;
            let what = format!("GEMM {dt:?} {m}x{n}x{k} (A row, B col, D row)");
            let best = best_sm80(rt, &g, &sm80, iters)?;
            rows.push(gemm_row(format!("{what}, TFLOP/s"), best, cublas_tf));
            if let Some(sm90) = &sm90 {
                let best = best_sm90(rt, &g, sm90, iters)?;
                let what = format!("{what}, Hopper wgmma+TMA, TFLOP/s");
                rows.push(gemm_row(what, best, cublas_tf));
            }
        }
    }
    Ok(rows)
}

fn gemm_row(what: String, best: Best, cublas_tf: f64) -> Row {
    Row::versus(what.to_lowercase(), best, cublas_tf, Some("cublasGemmEx"))
}

/// The best of the mma.sync configurations on `g`'s buffers.
fn best_sm80(rt: &Runtime, g: &DeviceGemm, configs: &[GemmConfig], iters: usize) -> Result<Best> {
    let mut best = Best::default();
    for cfg in configs {
        let k = generate_gemm(&sm80_spec(&g.problem, g.dtype, g.dtype, *cfg)?)?;
        let loaded = rt.load(&k)?;
        let args = g.abcd(rt);
        let ms = rt.time_ms(3, iters, || rt.launch_loaded(&k, &loaded, &args))?;
        report(rt, g, &k, loaded.registers, ms, &mut best)?;
    }
    Ok(best)
}

/// The best of the wgmma configurations on `g`'s buffers.
fn best_sm90(rt: &Runtime, g: &DeviceGemm, configs: &[HopperConfig], iters: usize) -> Result<Best> {
    let mut best = Best::default();
    for cfg in configs {
        let k = generate_hopper_gemm(&g.problem, g.dtype, g.dtype, cfg)?;
        let bound = rt.prepare(&k, &g.abd(rt))?;
        let ms = rt.time_ms(3, iters, || rt.run(&bound))?;
        report(rt, g, &k, bound.loaded().registers, ms, &mut best)?;
    }
    Ok(best)
}

/// Prints one kernel's TFLOP/s and its agreement with cuBLAS (an error past 1e-2), and offers it
/// to `best`.
fn report(
    rt: &Runtime,
    g: &DeviceGemm,
    k: &Kernel,
    regs: i32,
    ms: f64,
    best: &mut Best,
) -> Result<()> {
    let worst = g.max_rel_diff(rt)?;
    let tf = g.tflops(ms);
    let (dt, p) = (g.dtype, &g.problem);
    println!(
        "  {dt:?} {}x{}x{} {}: {tf:.0} TFLOP/s ({regs} regs, {} B smem), max rel diff vs cuBLAS {worst:.2e}",
        p.m, p.n, p.k, k.name, k.dynamic_smem_bytes
    );
    if worst > 1e-2 {
        return Err(GpuError::CheckFailed(format!(
            "{} disagrees with cuBLAS: {worst}",
            k.name
        )));
    }
    best.offer(tf, || format!("{} ({regs} regs)", k.name));
    Ok(())
}
