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
    use cute_gpu::configs::sm80_spec;
    use cute_gpu::host::Rng;
    use cute_gpu::kernels::gemm_sm80::{GemmConfig, GemmOptions, generate_gemm_with};
    use cute_gpu::kernels::gemm_sm90::HopperProblem;
    use cute_gpu::runtime::Runtime;
    use cute_gpu::runtime::bench::{Cublas, DeviceGemm};
    use cute_gpu::{DType, GpuError, Result};

    pub fn main() {
        if let Err(e) = run() {
            eprintln!("gemm_sweep: {e}");
            std::process::exit(1);
        }
    }

    /// `bm,bn,bk,warps_m,warps_n,stages,min_blocks,group_m[,staged_epilogue]`.
    fn parse_config(arg: &str) -> Result<(GemmConfig, GemmOptions)> {
        let v: Vec<i64> = arg.split(',').filter_map(|x| x.parse().ok()).collect();
        if v.len() != 8 && v.len() != 9 {
            return Err(GpuError::Config {
                kernel: "gemm_sweep",
                reason: format!("bad config {arg}"),
            });
        }
        let opts = GemmOptions {
            staged_epilogue: v.get(8).is_none_or(|&e| e != 0),
            ..GemmOptions::default()
        };
        let config = GemmConfig {
            bm: v[0],
            bn: v[1],
            bk: v[2],
            warps_m: v[3],
            warps_n: v[4],
            stages: v[5],
            min_blocks: v[6],
            group_m: v[7],
        };
        Ok((config, opts))
    }

    fn run() -> Result<()> {
        let configs = std::env::args()
            .skip(1)
            .map(|a| parse_config(&a))
            .collect::<Result<Vec<_>>>()?;
        let rt = Runtime::new(0)?;
        println!("device: {} ({})", rt.device_name()?, rt.arch());
        let cublas = Cublas::new(&rt)?;
        for dt in [DType::F16, DType::BF16] {
            for n in [4096i64, 8192] {
                let h = Rng(1).fill(dt, (n * n) as usize, |g| g.small_int(4) as f32 / 4.0);
                let mut g = DeviceGemm::new(&rt, dt, HopperProblem::padded(n, n, n), &h, &h)?;
                let iters = if n >= 8192 { 10 } else { 20 };
                let cublas_tf = g.time_cublas(&rt, &cublas, 3, iters)?;
                for (cfg, opts) in &configs {
                    sweep_one(&rt, &g, *cfg, *opts, iters, cublas_tf)?;
                }
            }
        }
        Ok(())
    }

    /// Times one configuration on `g`'s buffers and prints it against cuBLAS.
    fn sweep_one(
        rt: &Runtime,
        g: &DeviceGemm,
        cfg: GemmConfig,
        opts: GemmOptions,
        iters: usize,
        cublas_tf: f64,
    ) -> Result<()> {
        let spec = sm80_spec(&g.problem, g.dtype, g.dtype, cfg)?;
        let k = match generate_gemm_with(&spec, &opts) {
            Ok(k) => k,
            Err(e) => {
                println!("  {cfg:?} {opts:?}: {e}");
                return Ok(());
            }
        };
        let loaded = rt.load(&k)?;
        let args = g.abcd(rt);
        let ms = rt.time_ms(3, iters, || rt.launch_loaded(&k, &loaded, &args))?;
        let same = g.equals_reference(rt)?;
        let tf = g.tflops(ms);
        println!(
            "  {:?} {}^3 {} g{} staged={}: {tf:.0} TFLOP/s vs cuBLAS {cublas_tf:.0} = {:.3} ({} regs, {} B smem, equal to cuBLAS: {same})",
            g.dtype,
            g.problem.n,
            k.name,
            cfg.group_m,
            opts.staged_epilogue,
            tf / cublas_tf,
            loaded.registers,
            k.dynamic_smem_bytes
        );
        Ok(())
    }
}
