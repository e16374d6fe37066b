//! Benchmark of the GEMM call (`cute_gpu::matmul::Gemm`) against cuBLASLt (the heuristic's first algorithm and
//! the best of its top 8, 32 MiB workspace: what torch.matmul uses) and `cublasGemmEx`, all on the same
//! buffers, interleaved in rounds in one process (every other round in the reverse order, so that no
//! contender is always timed first; each timed sample after an untimed one of the same contender,
//! `runtime::bench::settled_ms`); medians of the rounds (cuBLASLt's best: the highest median of its
//! algorithms). Data: uniform [-1, 1) with full
//! mantissas. The `mma.sync` path (what sm_80/86/89 get) is measured too. Then the host cost of one call
//! with the kernel cached (back-to-back tiny GEMMs).
//!
//! `bench_matmul [--quick] [--host] [--skinny] [--tuned] [--stream-k-ab | --split-k-ab | --dependent-launch-ab | --control-ab] [--shape L,M,N,K] [--sample-tflop F] [--steady SECONDS]`
//! (stream-k-ab: also the call with whole tiles and with stream-K forced, a line after each row; split-k-ab:
//! also the call with split-K's slices summed by a second kernel; dependent-launch-ab: also the call
//! without programmatic dependent launch; control-ab: also an identical handle in the alternative's
//! place in the round, an A/A control of the A/Bs; sample-tflop: the work of one timed
//! sample, default 20 TFLOP, tens of ms: `cute_gpu::runtime::bench::sample_tflop`; shape: one bf16 shape, L batches; quick: three shapes and the batched one, two
//! rounds; host: only the host cost; skinny: only the small-output shapes, 128 and 16 rows and the long-K ones; tuned:
//! "ours" is the autotuned call, tuned in the warm-up, its choices in `$CUTE_CACHE_DIR/autotune.tsv`; steady: with
//! `--shape 1,M,N,K`, each contender run back to back for that long, its wall-clock window printed, for a
//! power trace).

#[cfg(not(feature = "cuda"))]
fn main() {
    eprintln!("bench_matmul needs --features cuda");
    std::process::exit(2);
}

#[cfg(feature = "cuda")]
fn main() {
    if let Err(e) = bench::run() {
        eprintln!("bench_matmul: {e}");
        std::process::exit(1);
    }
}

#[cfg(feature = "cuda")]
mod bench {
    use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut};
    use cute_gpu::Result;
    use cute_gpu::host::Rng;
    use cute_gpu::matmul::plan::Decomposition;
    use cute_gpu::matmul::{Element, Gemm, Matrix, MatrixMut};
    use cute_gpu::runtime::Runtime;
    use cute_gpu::runtime::baseline::BaselineGemm;
    use cute_gpu::runtime::bench::{Cublas, median, sample_calls, sample_tflop, settled_ms};
    use cute_gpu::runtime::cublaslt::{LtGemm, LtTypes};
    use half::{bf16, f16};

    /// The shapes (M, N, K).
    const SHAPES: &[(usize, usize, usize)] = &[
        (4096, 4096, 4096),
        (8192, 8192, 8192),
        (8192, 14336, 4096),
        (8192, 4096, 14336),
        (16384, 8192, 1024),
        (2048, 2048, 2048),
        (1024, 8192, 8192),
        (128, 8192, 8192),
        (16, 8192, 8192),
        (4095, 4097, 1023),
    ];

    /// Small outputs with long K (split-K on sm_90).
    const SPLIT_SHAPES: &[(usize, usize, usize)] = &[(1024, 1024, 65536), (256, 2048, 32768)];

    /// The strided-batched shape: `(batches, (M, N, K))`.
    const BATCHED: (usize, (usize, usize, usize)) = (32, (1024, 1024, 1024));

    /// 16-bit element types built from raw bits.
    trait Half: Element + Copy {
        fn from_bits(b: u16) -> Self;
        fn to_f32(self) -> f32;
    }
    impl Half for bf16 {
        fn from_bits(b: u16) -> Self {
            bf16::from_bits(b)
        }
        fn to_f32(self) -> f32 {
            bf16::to_f32(self)
        }
    }
    impl Half for f16 {
        fn from_bits(b: u16) -> Self {
            f16::from_bits(b)
        }
        fn to_f32(self) -> f32 {
            f16::to_f32(self)
        }
    }

    /// One shape's buffers: A (M,K) row-major, B (K,N) column-major, D (M,N) row-major (ours, Lt).
    struct Buffers<T> {
        a: CudaSlice<T>,
        b: CudaSlice<T>,
        d: CudaSlice<T>,
        d_lt: CudaSlice<T>,
    }

    fn buffers<T: Half>(
        rt: &Runtime,
        (m, n, k): (usize, usize, usize),
        batches: usize,
        rng: &mut Rng,
    ) -> Result<Buffers<T>> {
        let up = |x: usize| x.div_ceil(8) * 8;
        let mut upload = |len: usize| -> Result<CudaSlice<T>> {
            let host: Vec<T> = rng
                .uniforms(T::DTYPE, len)
                .into_iter()
                .map(T::from_bits)
                .collect();
            rt.stream()
                .clone_htod(&host)
                .map_err(cute_gpu::error::driver("htod"))
        };
        Ok(Buffers {
            a: upload(batches * m * up(k))?,
            b: upload(batches * n * up(k))?,
            d: upload(batches * m * up(n))?,
            d_lt: upload(batches * m * up(n))?,
        })
    }

    /// TFLOP/s per round of each contender (`lt[i]`: cuBLASLt's algorithm `i`, 0 its heuristic's first).
    struct Times {
        ours: Vec<f64>,
        mma_sync: Vec<f64>,
        lt: Vec<Vec<f64>>,
        gemm_ex: Vec<f64>,
        /// The alternatives of the row's A/B ([`Ab::alternatives`]), in order.
        alt: Vec<Vec<f64>>,
    }

    impl Times {
        /// cuBLASLt's best of its algorithms: the highest of their medians. (The median of each round's
        /// fastest algorithm, as before, leans towards cuBLASLt where several algorithms are about as
        /// fast: each round then takes the luckiest of their noisy times.)
        fn lt_best(&self) -> f64 {
            self.lt.iter().map(|t| median(t)).fold(f64::NAN, f64::max)
        }

        /// The median of each round's fastest algorithm (the figure before session 8, for comparison).
        fn lt_fastest_per_round(&self) -> f64 {
            let rounds = self.lt.first().map_or(0, Vec::len);
            let fastest: Vec<f64> = (0..rounds)
                .map(|r| self.lt.iter().map(|t| t[r]).fold(f64::NAN, f64::max))
                .collect();
            median(&fastest)
        }
    }

    /// `D = A·B` with the GEMM call on `buf`.
    fn ours<T: Half>(
        gemm: &Gemm,
        buf: &mut Buffers<T>,
        [la, lb, ld]: [&cute_layout_core::Layout; 3],
    ) -> Result<()> {
        gemm.run::<T, T>(
            &Matrix::new(&buf.a, la.clone()),
            &Matrix::new(&buf.b, lb.clone()),
            None,
            &mut MatrixMut::new(&mut buf.d, ld.clone()),
            1.0,
            0.0,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn round<T: Half>(
        rt: &Runtime,
        gemms: (&Gemm, &Gemm, &[Gemm]),
        lt: &mut LtGemm,
        cublas: &Cublas,
        buf: &mut Buffers<T>,
        ((m, n, k), batches): ((usize, usize, usize), usize),
        (iters, backwards): (usize, bool),
        t: &mut Times,
    ) -> Result<()> {
        let up = |x: usize| x.div_ceil(8) * 8;
        let flops = flops(batches, (m, n, k));
        let tf = |ms: f64| flops / ms / 1e9;
        // rank 3 (a batch mode, batches packed one after the other) when batched
        let l = |shape: String, stride: String, size: usize| -> Result<cute_layout_core::Layout> {
            Ok(match batches {
                1 => format!("({shape}):({stride})"),
                _ => format!("({shape},{batches}):({stride},{size})"),
            }
            .parse()?)
        };
        let (la, lb, ld) = (
            l(format!("{m},{k}"), format!("{},1", up(k)), m * up(k))?,
            l(format!("{k},{n}"), format!("1,{}", up(k)), n * up(k))?,
            l(format!("{m},{n}"), format!("{},1", up(n)), m * up(n))?,
        );
        // every other round backwards: no contender is always the first (or last) timed
        let mut order: Vec<Contender> = [Contender::Ours, Contender::MmaSync]
            .into_iter()
            .chain((0..gemms.2.len()).map(Contender::Alt))
            .chain((0..lt.algos.len()).map(Contender::Lt))
            .chain((batches == 1).then_some(Contender::GemmEx))
            .collect();
        if backwards {
            order.reverse();
        }
        let handle = cublas.handle();
        for c in order {
            match c {
                Contender::Ours => t.ours.push(tf(settled_ms(rt, iters, || {
                    ours(gemms.0, buf, [&la, &lb, &ld])
                })?)),
                Contender::MmaSync => t.mma_sync.push(tf(settled_ms(rt, iters, || {
                    ours(gemms.1, buf, [&la, &lb, &ld])
                })?)),
                Contender::Alt(i) => t.alt[i].push(tf(settled_ms(rt, iters, || {
                    ours(&gemms.2[i], buf, [&la, &lb, &ld])
                })?)),
                Contender::Lt(i) => t.lt[i].push(tf(settled_ms(rt, iters, || {
                    lt.run(rt, i, (&buf.a, &buf.b, &mut buf.d_lt))
                })?)),
                Contender::GemmEx => {
                    let s = rt.stream();
                    let (pa, _ga) = buf.a.device_ptr(s);
                    let (pb, _gb) = buf.b.device_ptr(s);
                    let (pd, _gd) = buf.d_lt.device_ptr_mut(s);
                    let ex = BaselineGemm {
                        dtype: T::DTYPE,
                        m: m as i64,
                        n: n as i64,
                        k: k as i64,
                        a: (pa, up(k) as i64),
                        b: (pb, up(k) as i64),
                        d: (pd, up(n) as i64),
                    };
                    // SAFETY: the buffers hold the operands and outlive the timed calls (time_ms
                    // synchronizes).
                    t.gemm_ex
                        .push(tf(settled_ms(rt, iters, || unsafe { ex.run(handle) })?))
                }
            }
        }
        if batches > 1 {
            t.gemm_ex.push(f64::NAN); // cublasGemmEx has no batch
        }
        Ok(())
    }

    /// The A/B a row adds (`--control-ab`, `--dependent-launch-ab`, `--stream-k-ab` or `--split-k-ab`; of
    /// several, the first in that order): the alternative handles timed beside ours, and the line
    /// reporting them.
    #[derive(Clone, Copy)]
    enum Ab {
        None,
        StreamK,
        SplitK,
        DependentLaunch,
        Control,
    }

    impl Ab {
        fn from_args() -> Ab {
            let has = |flag: &str| std::env::args().any(|a| a == flag);
            [
                ("--control-ab", Ab::Control),
                ("--dependent-launch-ab", Ab::DependentLaunch),
                ("--stream-k-ab", Ab::StreamK),
                ("--split-k-ab", Ab::SplitK),
            ]
            .into_iter()
            .find(|(flag, _)| has(flag))
            .map_or(Ab::None, |(_, ab)| ab)
        }

        /// The handles timed beside ours: whole tiles and stream-K, split-K summed by a second kernel,
        /// without dependent launch, or a twin of ours.
        fn alternatives(self, rt: &Runtime) -> Result<Vec<Gemm>> {
            let gemm = || Gemm::new(rt.stream());
            Ok(match self {
                Ab::None => Vec::new(),
                Ab::StreamK => vec![
                    gemm()?.with_decomposition(Decomposition::Tiles),
                    gemm()?.with_decomposition(Decomposition::StreamK),
                ],
                Ab::SplitK => vec![gemm()?.with_decomposition(Decomposition::SplitKReduceKernel)],
                Ab::DependentLaunch => vec![gemm()?.with_dependent_launch(false)],
                Ab::Control => vec![gemm()?],
            })
        }

        /// The line after a row: ours (`o`) against the alternatives' medians, and them against
        /// cuBLASLt's best (`l8`).
        fn report(self, o: f64, l8: f64, alt: &[Vec<f64>]) {
            let m: Vec<f64> = alt.iter().map(|t| median(t)).collect();
            match (self, &m[..]) {
                (Ab::Control, &[twin]) => println!(
                    "|   ours / an identical second handle in the alternative's place: {:.3} (it {twin:.0}) |",
                    o / twin
                ),
                (Ab::DependentLaunch, &[serial]) => println!(
                    "|   with / without programmatic dependent launch: {:.3} (without {serial:.0}; / Lt best {:.2}) |",
                    o / serial,
                    serial / l8
                ),
                (Ab::SplitK, &[reduce]) => println!(
                    "|   summed in the GEMM / by a second kernel: {:.3} (second kernel {reduce:.0}; / Lt best {:.2}) |",
                    o / reduce,
                    reduce / l8
                ),
                (Ab::StreamK, &[tiles, sk]) => println!(
                    "|   stream-K / whole tiles: {:.3} (stream-K {sk:.0}, whole tiles {tiles:.0}; / Lt best {:.2}, {:.2}) |",
                    sk / tiles,
                    sk / l8,
                    tiles / l8
                ),
                _ => {}
            }
        }
    }

    /// What a round times, in its order.
    enum Contender {
        Ours,
        MmaSync,
        Alt(usize),
        Lt(usize),
        GemmEx,
    }

    /// Largest relative difference of ours and cuBLASLt's D over a sample of points.
    fn max_diff<T: Half>(rt: &Runtime, buf: &Buffers<T>, n: usize) -> Result<f32> {
        let download = |d: &CudaSlice<T>| {
            rt.stream()
                .clone_dtoh(d)
                .map_err(cute_gpu::error::driver("dtoh"))
        };
        let (ours, theirs) = (download(&buf.d)?, download(&buf.d_lt)?);
        let ldd = n.div_ceil(8) * 8;
        // padding columns (n..ldd of each row) are written by neither
        let pairs = (0..ours.len()).filter(|i| i % ldd < n).step_by(97);
        Ok(cute_gpu::host::max_rel_error(
            pairs.map(|i| (ours[i].to_f32(), theirs[i].to_f32())),
        ))
    }

    fn shape<T: Half>(
        rt: &Runtime,
        cublas: &Cublas,
        (batches, dims): (usize, (usize, usize, usize)),
        rounds: usize,
    ) -> Result<()> {
        let (m, n, k) = dims;
        let up = |x: usize| (x.div_ceil(8) * 8) as i64;
        let mut rng = Rng(m as u64 * 31 + n as u64 * 7 + k as u64);
        let mut buf = buffers::<T>(rt, dims, batches, &mut rng)?;
        let ours = if std::env::args().any(|a| a == "--tuned") {
            Gemm::new(rt.stream())?.autotune()?
        } else {
            Gemm::new(rt.stream())?
        };
        let mma_sync = Gemm::new(rt.stream())?.mma_sync_only();
        let ab = Ab::from_args();
        let alts = ab.alternatives(rt)?;
        let mut lt = LtGemm::new(
            rt,
            LtTypes::half(T::DTYPE),
            (m as u64, n as u64, k as u64),
            (up(k), up(k), up(n)),
            None,
            8,
        )?;
        if batches > 1 {
            let (m, n, k) = (m as i64, n as i64, k as i64);
            let strides = (m * up(k as usize), n * up(k as usize), m * up(n as usize));
            lt = lt.strided_batch(batches as i32, strides, 8)?;
        }
        let iters = sample_calls(sample_tflop(20.0)?, flops(batches, dims));
        let mut t = Times {
            ours: vec![],
            mma_sync: vec![],
            lt: vec![Vec::new(); lt.algos.len()],
            gemm_ex: vec![],
            alt: vec![Vec::new(); alts.len()],
        };
        for r in 0..rounds {
            round(
                rt,
                (&ours, &mma_sync, &alts),
                &mut lt,
                cublas,
                &mut buf,
                (dims, batches),
                (iters, r % 2 == 1),
                &mut t,
            )?;
        }
        let diff = max_diff(rt, &buf, n)?;
        let (o, s, l1, l8, ex) = (
            median(&t.ours),
            median(&t.mma_sync),
            median(&t.lt[0]),
            t.lt_best(),
            median(&t.gemm_ex),
        );
        let batch = if batches > 1 {
            format!("{batches}x")
        } else {
            String::new()
        };
        println!(
            "| {} {batch}{m}x{n}x{k} | {o:.0} | {s:.0} | {l1:.0} | {l8:.0} ({} algos) | {ex:.0} | {:.2} | {:.2} | {:.2} | {diff:.1e} | {:.2} |",
            T::DTYPE.name(),
            lt.algos.len(),
            o / l8,
            o / l1,
            s / l8,
            o / t.lt_fastest_per_round()
        );
        ab.report(o, l8, &t.alt);
        Ok(())
    }

    /// `--steady S --shape 1,M,N,K`: ours, cuBLASLt's fastest algorithm (of one sample each), its
    /// heuristic's first and the `mma.sync` path, each run back to back for `S` seconds, in three rounds;
    /// a line per run with its wall-clock window (Unix ms) and TFLOP/s, for the power and clock trace
    /// taken beside it (`scripts/gpu/power_trace.sh` joins them).
    fn steady<T: Half>(rt: &Runtime, dims: (usize, usize, usize), secs: f64) -> Result<()> {
        let (m, n, k) = dims;
        let up = |x: usize| (x.div_ceil(8) * 8) as i64;
        let mut buf = buffers::<T>(rt, dims, 1, &mut Rng(m as u64 * 31 + n as u64 + k as u64))?;
        let (ours_gemm, mma_sync) = (
            Gemm::new(rt.stream())?,
            Gemm::new(rt.stream())?.mma_sync_only(),
        );
        let types = LtTypes::half(T::DTYPE);
        let sizes = (m as u64, n as u64, k as u64);
        let mut lt = LtGemm::new(rt, types, sizes, (up(k), up(k), up(n)), None, 8)?;
        let l = |s: String| -> Result<cute_layout_core::Layout> { Ok(s.parse()?) };
        let la = l(format!("({m},{k}):({},1)", up(k)))?;
        let lb = l(format!("({k},{n}):(1,{})", up(k)))?;
        let ld = l(format!("({m},{n}):({},1)", up(n)))?;
        let iters = sample_calls(sample_tflop(20.0)?, flops(1, dims));
        let mut fastest = (0, f64::INFINITY);
        for i in 0..lt.algos.len() {
            let ms = settled_ms(rt, iters, || lt.run(rt, i, (&buf.a, &buf.b, &mut buf.d_lt)))?;
            fastest = if ms < fastest.1 { (i, ms) } else { fastest };
        }
        let now_ms = || -> f64 {
            let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            t.map_or(0.0, |d| d.as_secs_f64() * 1e3)
        };
        for round in 0..3 {
            for name in ["ours", "lt_fastest", "lt_top1", "mma_sync"] {
                let (start, mut calls, mut ms) = (now_ms(), 0, 0.0);
                while now_ms() - start < secs * 1e3 {
                    ms += iters as f64
                        * match name {
                            "ours" => settled_ms(rt, iters, || {
                                ours(&ours_gemm, &mut buf, [&la, &lb, &ld])
                            })?,
                            "mma_sync" => settled_ms(rt, iters, || {
                                ours(&mma_sync, &mut buf, [&la, &lb, &ld])
                            })?,
                            lt_name => {
                                let i = if lt_name == "lt_top1" { 0 } else { fastest.0 };
                                settled_ms(rt, iters, || {
                                    lt.run(rt, i, (&buf.a, &buf.b, &mut buf.d_lt))
                                })?
                            }
                        };
                    calls += iters;
                }
                let tflops = flops(1, dims) * calls as f64 / ms / 1e9;
                println!(
                    "steady {m}x{n}x{k} round {round} {name} {start:.0} {:.0} {tflops:.1}",
                    now_ms()
                );
            }
        }
        Ok(())
    }

    /// Host cost of one call with everything cached: back-to-back 64^3 GEMMs, then one synchronize.
    fn host_cost(rt: &Runtime) -> Result<()> {
        let gemm = Gemm::new(rt.stream())?;
        let mut rng = Rng(5);
        let mut buf = buffers::<bf16>(rt, (64, 64, 64), 1, &mut rng)?;
        let l = |s: &str| -> Result<cute_layout_core::Layout> { Ok(s.parse()?) };
        let (la, lb, ld) = (
            l("(64,64):(64,1)")?,
            l("(64,64):(1,64)")?,
            l("(64,64):(64,1)")?,
        );
        let mut call = || ours(&gemm, &mut buf, [&la, &lb, &ld]);
        for _ in 0..100 {
            call()?;
        }
        rt.sync()?;
        let calls = 5000;
        // bursts of 200 calls after a sync stay below the launch queue's depth, so the host never
        // waits for the GPU: their time is the host's; 5,000 back to back fill the queue, so that
        // figure is the GPU's throughput of tiny GEMMs
        let (burst, bursts) = (200, 25);
        let mut per_call = |what: &str| -> Result<()> {
            let mut host = Vec::with_capacity(bursts);
            for _ in 0..bursts {
                rt.sync()?;
                let t0 = std::time::Instant::now();
                for _ in 0..burst {
                    call()?;
                }
                host.push(t0.elapsed().as_secs_f64() * 1e6 / burst as f64);
            }
            rt.sync()?;
            let t0 = std::time::Instant::now();
            for _ in 0..calls {
                call()?;
            }
            rt.sync()?;
            let all = t0.elapsed().as_secs_f64() * 1e6 / calls as f64;
            println!(
                "host cost of one cached call (64^3 bf16, {what}): {:.2} us to enqueue (median of {bursts} bursts of {burst} after a sync); {all:.2} us per call for {calls} back to back including the GPU",
                median(&host)
            );
            Ok(())
        };
        let tracking = rt.context().is_event_tracking();
        per_call(if tracking {
            "cudarc event tracking on"
        } else {
            "event tracking off"
        })?;
        if tracking {
            // SAFETY: one stream uses these buffers; nothing else reads or writes them meanwhile.
            unsafe { rt.context().disable_event_tracking() };
            per_call("cudarc event tracking off")?;
            // SAFETY: as above; tracking is restored for whatever runs next.
            unsafe { rt.context().enable_event_tracking() };
        }
        Ok(())
    }

    /// `L` batches of an (M, N, K) problem.
    type Batched = (usize, (usize, usize, usize));

    fn flops(batches: usize, (m, n, k): (usize, usize, usize)) -> f64 {
        2.0 * (batches * m * n * k) as f64
    }

    /// `--shape L,M,N,K`: one (batched when `L > 1`) bf16 shape only (for ncu).
    fn shape_arg() -> Result<Option<Batched>> {
        let args: Vec<String> = std::env::args().collect();
        let Some(i) = args.iter().position(|a| a == "--shape") else {
            return Ok(None);
        };
        let v: Vec<usize> = args
            .get(i + 1)
            .map(|s| s.split(',').filter_map(|x| x.parse().ok()).collect())
            .unwrap_or_default();
        match v[..] {
            [l, m, n, k] => Ok(Some((l, (m, n, k)))),
            _ => Err(cute_gpu::GpuError::Config {
                kernel: "bench_matmul",
                reason: format!("--shape takes L,M,N,K: got {:?}", args.get(i + 1)),
            }),
        }
    }

    pub fn run() -> Result<()> {
        let quick = std::env::args().any(|a| a == "--quick");
        let rt = Runtime::new(0)?;
        if std::env::args().any(|a| a == "--host") {
            return host_cost(&rt);
        }
        let cublas = Cublas::new(&rt)?;
        println!(
            "device: {} ({}, {} SMs)",
            rt.device_name()?,
            rt.arch(),
            rt.sm_count()
        );
        println!("data: uniform [-1, 1), full mantissas; medians of rounds; TFLOP/s");
        println!(
            "| shape | ours | ours mma.sync | cuBLASLt top-1 | cuBLASLt best of top 8 | cublasGemmEx | ours/Lt best | ours/Lt top-1 | mma.sync/Lt best | max rel diff vs Lt | ours / each round's fastest Lt |"
        );
        println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        let (shapes, rounds) = if quick {
            (&SHAPES[..3], 2)
        } else {
            (SHAPES, 5)
        };
        let skinny = std::env::args().any(|a| a == "--skinny");
        if std::env::args().any(|a| a == "--tuned") {
            println!("ours: autotuned (the choices: autotune.tsv in the CUBIN cache directory)");
        }
        let args: Vec<String> = std::env::args().collect();
        if let (Some(i), Some((1, dims))) =
            (args.iter().position(|a| a == "--steady"), shape_arg()?)
        {
            let secs = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(4.0);
            return steady::<bf16>(&rt, dims, secs);
        }
        if let Some(dims) = shape_arg()? {
            return shape::<bf16>(&rt, &cublas, dims, rounds);
        }
        let shapes: Vec<_> = if skinny {
            let thin = SHAPES.iter().filter(|d| d.0 <= 128);
            thin.chain(SPLIT_SHAPES).map(|&d| (1, d)).collect()
        } else {
            let singles = shapes.iter().chain(SPLIT_SHAPES).map(|&d| (1, d));
            singles.chain([BATCHED]).collect()
        };
        for &dims in &shapes {
            shape::<bf16>(&rt, &cublas, dims, rounds)?;
        }
        for &dims in &shapes {
            shape::<f16>(&rt, &cublas, dims, rounds)?;
        }
        host_cost(&rt)
    }
}
