//! GEMM configuration sweep against cuBLAS (feature `cuda`): the GEMM part of `bench`, with the
//! configurations given on the command line as `bm,bn,bk,warps_m,warps_n,stages,min_blocks,group_m`.
//!
//! `gemm_sweep 128,256,64,2,4,4,1,8 256,128,32,4,2,4,1,8 ...`

#[cfg(not(feature = "cuda"))]
fn main() {
    eprintln!("gemm_sweep needs --features cuda");
}

#[cfg(feature = "cuda")]
fn main() {
    sweep::main();
}

#[cfg(feature = "cuda")]
mod sweep {
    use gpu::DType;
    use gpu::host::{Rng, f32_to_bf16, f32_to_f16};
    use gpu::kernels::gemm_sm80::{GemmConfig, GemmOptions, GemmSpec, generate_gemm_with};
    use gpu::runtime::Runtime;
    use gpu::{GpuError, Result};

    pub fn main() {
        if let Err(e) = run() {
            eprintln!("gemm_sweep: {e}");
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
        let mut configs = Vec::new();
        for a in std::env::args().skip(1) {
            let v: Vec<i64> = a.split(',').filter_map(|x| x.parse().ok()).collect();
            if v.len() != 8 && v.len() != 9 {
                return Err(GpuError::Config {
                    kernel: "gemm_sweep",
                    reason: format!("bad config {a}"),
                });
            }
            let opts = GemmOptions {
                staged_epilogue: v.get(8).is_none_or(|&e| e != 0),
            };
            configs.push((
                GemmConfig {
                    bm: v[0],
                    bn: v[1],
                    bk: v[2],
                    warps_m: v[3],
                    warps_n: v[4],
                    stages: v[5],
                    min_blocks: v[6],
                    group_m: v[7],
                },
                opts,
            ));
        }
        let rt = Runtime::new(0)?;
        println!("device: {} ({})", rt.device_name()?, rt.arch());
        let blas = cudarc::cublas::CudaBlas::new(rt.stream().clone()).map_err(cublas_err)?;
        let handle = *blas.handle();
        for dt in [DType::F16, DType::BF16] {
            for n in [4096i64, 8192] {
                let a_l: layout_core::Layout = format!("({n},{n}):({n},_1)").parse()?;
                let b_l: layout_core::Layout = format!("({n},{n}):(_1,{n})").parse()?;
                let c_l: layout_core::Layout = format!("({n},{n}):({n},_1)").parse()?;
                let mut rng = Rng(1);
                let conv = |f: f32| {
                    if dt == DType::F16 {
                        f32_to_f16(f)
                    } else {
                        f32_to_bf16(f)
                    }
                };
                let h: Vec<u16> = (0..(n * n) as usize)
                    .map(|_| conv(rng.small_int(4) as f32 / 4.0))
                    .collect();
                let da = rt.upload(&h)?;
                let db = rt.upload(&h)?;
                let dc = rt.zeros::<u16>((n * n) as usize)?;
                let dd = rt.zeros::<u16>((n * n) as usize)?;
                let dref = rt.zeros::<u16>((n * n) as usize)?;
                let flops = 2.0 * (n * n * n) as f64;
                let (alpha, beta) = (1.0f32, 0.0f32);
                let (pa, pb, pref) = (rt.bind(&da).ptr(), rt.bind(&db).ptr(), rt.bind(&dref).ptr());
                let baseline = gpu::runtime::baseline::BaselineGemm {
                    dtype: dt,
                    m: n,
                    n,
                    k: n,
                    a: (pa, n),
                    b: (pb, n),
                    d: (pref, n),
                };
                // SAFETY: da, db and dref hold the operands' sizes and outlive the timed launches.
                let cublas = || unsafe { baseline.run(handle) };
                let iters = if n >= 8192 { 10 } else { 20 };
                let cub_tf = flops / rt.time_ms(3, iters, cublas)? / 1e9;
                let reference = rt.download(&dref)?;
                for (cfg, opts) in &configs {
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
                    let k = match generate_gemm_with(&spec, opts) {
                        Ok(k) => k,
                        Err(e) => {
                            println!("  {cfg:?} {opts:?}: {e}");
                            continue;
                        }
                    };
                    let loaded = rt.load(&k)?;
                    let ptrs = [rt.bind(&da), rt.bind(&db), rt.bind(&dc), rt.bind(&dd)];
                    let ms = rt.time_ms(3, iters, || rt.launch_loaded(&k, &loaded, &ptrs))?;
                    let same = rt.download(&dd)? == reference;
                    let tf = flops / ms / 1e9;
                    println!(
                        "  {dt:?} {n}^3 {} g{} staged={}: {tf:.0} TFLOP/s vs cuBLAS {cub_tf:.0} = {:.3} ({} regs, {} B smem, equal to cuBLAS: {same})",
                        k.name,
                        cfg.group_m,
                        opts.staged_epilogue,
                        tf / cub_tf,
                        loaded.registers,
                        k.dynamic_smem_bytes
                    );
                }
            }
        }
        Ok(())
    }
}
