//! Benchmark of the attention call (`cute_gpu::attention::Attention`, the `mma.sync` kernel) on the sweep
//! of issue 15: bf16, 16k tokens per batch (`B = 16384 / S`), hidden 2048 (`H = 2048 / D`), `(B,S,H,D)`
//! layout, D in {64, 128}, S in {1k, 4k}, causal or not. Random normal data; rounds interleave the
//! shapes, medians of the rounds. FLOPs = 4·B·H·S²·D, halved for causal. torch's SDPA on the same shapes:
//! `scripts/gpu/torch_attention.py`.
//!
//! `bench_attention [--quick] [--d256]` (quick: one round of 3 runs; d256: add D = 256).

#[cfg(not(feature = "cuda"))]
fn main() {
    eprintln!("bench_attention needs --features cuda");
    std::process::exit(2);
}

#[cfg(feature = "cuda")]
fn main() {
    if let Err(e) = bench::run() {
        eprintln!("bench_attention: {e}");
        std::process::exit(1);
    }
}

#[cfg(feature = "cuda")]
mod bench {
    use cudarc::driver::CudaContext;
    use cute_gpu::Result;
    use cute_gpu::attention::{Attention, Options, Tensor, TensorMut, bshd};
    use cute_gpu::host::Rng;
    use half::bf16;

    const TOKENS: i64 = 16384;
    const HIDDEN: i64 = 2048;

    fn normal(rng: &mut Rng) -> f32 {
        let u1 = ((rng.next_u64() >> 11) as f64 + 1.0) / (1u64 << 53) as f64;
        let u2 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()) as f32
    }

    fn median(mut v: Vec<f64>) -> f64 {
        v.sort_by(|a, b| a.total_cmp(b));
        v[v.len() / 2]
    }

    pub fn run() -> Result<()> {
        let args: Vec<String> = std::env::args().collect();
        let quick = args.iter().any(|a| a == "--quick");
        let mut dims = vec![64, 128];
        if args.iter().any(|a| a == "--d256") {
            dims.push(256);
        }
        let (rounds, iters) = if quick { (1, 3) } else { (5, 10) };
        let ctx = CudaContext::new(0).map_err(cute_gpu::error::driver("cuInit"))?;
        let stream = ctx.default_stream();
        let attn = Attention::new(&stream)?;
        let n = (TOKENS * HIDDEN) as usize;
        let mut rng = Rng(2026);
        let mut upload = || -> Result<_> {
            let host: Vec<bf16> = (0..n).map(|_| bf16::from_f32(normal(&mut rng))).collect();
            stream
                .clone_htod(&host)
                .map_err(cute_gpu::error::driver("cuMemcpyHtoD"))
        };
        let (q, k, v) = (upload()?, upload()?, upload()?);
        let mut o = stream
            .alloc_zeros::<bf16>(n)
            .map_err(cute_gpu::error::driver("alloc"))?;
        let mut shapes = Vec::new();
        for &d in &dims {
            for s in [1024i64, 4096] {
                for causal in [false, true] {
                    shapes.push((s, d, causal));
                }
            }
        }
        let mut times = vec![Vec::new(); shapes.len()];
        for _ in 0..rounds {
            for (i, &(s, d, causal)) in shapes.iter().enumerate() {
                let l = bshd(TOKENS / s, s, HIDDEN / d, d)?;
                let opts = Options {
                    causal,
                    ..Options::default()
                };
                let mut call = || {
                    attn.run(
                        &Tensor::new(&q, l.clone()),
                        &Tensor::new(&k, l.clone()),
                        &Tensor::new(&v, l.clone()),
                        &mut TensorMut::new(&mut o, l.clone()),
                        None,
                        &opts,
                    )
                };
                times[i].push(attn.runtime().time_ms(2, iters, &mut call)?);
            }
        }
        println!(
            "device: {}, {} rounds x {iters} runs, medians",
            attn.runtime().device_name()?,
            rounds
        );
        println!(
            "{:>6} {:>5} {:>5} {:>5} {:>7} {:>10} {:>9}",
            "seq", "batch", "heads", "d", "causal", "ms", "TFLOP/s"
        );
        for (&(s, d, causal), t) in shapes.iter().zip(times) {
            let (b, h) = (TOKENS / s, HIDDEN / d);
            let flops =
                4.0 * (b * h) as f64 * (s * s) as f64 * d as f64 / if causal { 2.0 } else { 1.0 };
            let ms = median(t);
            println!(
                "{s:>6} {b:>5} {h:>5} {d:>5} {causal:>7} {ms:>10.3} {:>9.1}",
                flops / ms / 1e9
            );
        }
        Ok(())
    }
}
