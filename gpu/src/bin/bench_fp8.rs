//! FP8 GEMM on Hopper (issue 14): correctness against the exactly decoded f64 reference, the accumulation
//! error with and without promotion, and TFLOP/s against cuBLASLt FP8 (per-tensor scales, bf16 out).
//!
//! `bench_fp8 [check [small] [block]] [error] [sweep | sweep8k] [broadcast] [promotion] [streamk] [quads] [bench] [quick] [--sample-tflop F]`: `check` runs every scaling, type pair and
//! output on odd and even shapes (`small`: up to 200x136x384, for compute-sanitizer; `block`: block scaling only); `error` measures the error of
//! the per-tensor kernel (accumulation inside the tensor core over all of K) and of the block-scaled
//! kernel with unit scales (promoted to f32 every 128 of K) at K = 4096 and 16384; `bench` times ours
//! (per-tensor and block-scaled) and cuBLASLt (heuristic first and best of its top 8, 32 MiB workspace,
//! with and without fast accumulation) interleaved in rounds on uniform random data, medians, samples of `--sample-tflop` (default 40) TFLOP,
//! each after an untimed one of the same contender (`quick`:
//! 8192^3 only, two rounds); `broadcast`: the plan's large tiles with their warp group index and the other
//! one (broadcast from lane 0 or not); `promotion`: block scaling's cooperative tiles beside per-tensor
//! scaling on the same tiles at 8192^3; `streamk`: per-tensor 128x256 with and without stream-K, each with
//! and without 2-CTA clusters (stream-K in clusters also with the raster along N), and the ping-pong 128x192;
//! `quads`: the 128x256 tile (and stream-K along N) in clusters of 4 against clusters of 2.

#![allow(clippy::manual_is_multiple_of)]

#[cfg(not(feature = "cuda"))]
fn main() {
    eprintln!("bench_fp8 needs `--features cuda`");
    std::process::exit(2);
}

#[cfg(feature = "cuda")]
fn main() {
    imp::main()
}

#[cfg(feature = "cuda")]
mod imp {
    use cute_gpu::fp8::Format;
    use cute_gpu::host::{Fp8Reference, Rng, all_points, edge_points, to_f32};
    use cute_gpu::kernels::gemm_sm90::{
        Fused, HopperConfig, HopperProblem, generate_hopper_fp8_gemm,
    };
    use cute_gpu::matmul::plan::{sm90_fp8_block_cooperative, sm90_fp8_config};
    use cute_gpu::piece::fp8_scaling::Scaling;
    use cute_gpu::runtime::bench::{
        median, sample_calls, sample_tflop, settled_ms, stream_k_workspace, with_workspace,
    };
    use cute_gpu::runtime::cublaslt::{LtFp8, LtGemm, LtTypes};
    use cute_gpu::runtime::{DeviceBuffer, RawBuffer, Runtime};
    use cute_gpu::{DType, GpuError, Kernel, Result};

    pub fn main() {
        let args: Vec<String> = std::env::args().collect();
        let has = |s: &str| args.iter().any(|a| a == s);
        let r = (|| -> Result<()> {
            let rt = Runtime::new(0)?;
            println!("device: {} ({})", rt.device_name()?, rt.arch());
            if has("check") {
                check(&rt, has("small"), has("block"))?;
            }
            if has("error") {
                error(&rt)?;
            }
            if has("sweep") || has("sweep8k") {
                sweep(&rt, has("sweep8k"))?;
            }
            if has("streamk") {
                stream_k(&rt)?;
            }
            if has("quads") {
                quads(&rt)?;
            }
            if has("promotion") {
                promotion(&rt)?;
            }
            if has("narrowclusters") {
                narrow_clusters(&rt)?;
            }
            if has("broadcast") {
                broadcast(&rt)?;
            }
            if has("bench") || has("quick") {
                bench(&rt, has("quick"))?;
            }
            Ok(())
        })();
        if let Err(e) = r {
            eprintln!("bench_fp8: {e}");
            std::process::exit(1);
        }
    }

    fn format_of(dt: DType) -> Format {
        if dt == DType::E5M2 {
            cute_gpu::fp8::E5M2_FORMAT
        } else {
            cute_gpu::fp8::E4M3_FORMAT
        }
    }

    /// `(M,N,K)` with 16-byte rows of A and B (K padded to 16) and D's rows padded to 8 elements.
    fn problem(m: i64, n: i64, k: i64) -> HopperProblem {
        HopperProblem {
            lda: (k + 15) / 16 * 16,
            ldb: (k + 15) / 16 * 16,
            ..HopperProblem::padded(m, n, k)
        }
    }

    /// One problem's operands and scales, on the host (decoded values) and the device (FP8 bytes).
    struct Operands {
        types: (DType, DType),
        scaling: Scaling,
        a: Vec<f32>,
        b: Vec<f32>,
        sa: Vec<f32>,
        sb: Vec<f32>,
        dev: [DeviceBuffer<u8>; 2],
        dev_scales: [DeviceBuffer<f32>; 2],
    }

    impl Operands {
        /// Uniform `[-1, 1)` values rounded to the FP8 types, and scales in `[0.5, 2)` (unit scales with
        /// `unit`).
        fn new(
            rt: &Runtime,
            p: &HopperProblem,
            types: (DType, DType),
            scaling: Scaling,
            unit: bool,
            seed: u64,
        ) -> Result<Operands> {
            let mut rng = Rng(seed);
            let mut bytes = |dt: DType, len: i64| -> Vec<u8> {
                let f = format_of(dt);
                (0..len).map(|_| f.encode(rng.uniform())).collect()
            };
            let (ab, bb) = (bytes(types.0, p.a_len()), bytes(types.1, p.b_len()));
            let (la, lb) = scaling.scale_lens(p.m, p.n, p.k)?;
            let mut scale = |len: i64| -> Vec<f32> {
                (0..len)
                    .map(|_| {
                        if unit {
                            1.0
                        } else {
                            1.25 + 0.75 * rng.uniform()
                        }
                    })
                    .collect()
            };
            let (sa, sb) = (scale(la), scale(lb));
            let decode = |dt: DType, v: &[u8]| -> Vec<f32> {
                v.iter().map(|&x| format_of(dt).decode(x)).collect()
            };
            Ok(Operands {
                types,
                scaling,
                a: decode(types.0, &ab),
                b: decode(types.1, &bb),
                dev: [rt.upload(&ab)?, rt.upload(&bb)?],
                dev_scales: [rt.upload(&sa)?, rt.upload(&sb)?],
                sa,
                sb,
            })
        }

        fn reference<'a>(&'a self, p: &HopperProblem) -> Fp8Reference<'a> {
            Fp8Reference {
                mnk: (p.m, p.n, p.k),
                a: (&self.a, p.lda),
                b: (&self.b, p.ldb),
                scaling: self.scaling,
                scale_a: &self.sa,
                scale_b: &self.sb,
            }
        }

        /// Runs `kern` once into a D filled with sentinels (NaN, or 0x7fff for 16-bit outputs); D's values
        /// as f32, NaN where nothing was written.
        fn run(
            &self,
            rt: &Runtime,
            p: &HopperProblem,
            kern: &Kernel,
            out: DType,
        ) -> Result<Vec<f32>> {
            let len = (p.m * p.ldd) as usize;
            if out == DType::F32 {
                return self.run_into(rt, kern, vec![f32::NAN; len]);
            }
            let raw = self.run_into(rt, kern, vec![0x7fffu16; len])?;
            Ok(raw
                .iter()
                .map(|&h| {
                    if h == 0x7fff {
                        f32::NAN
                    } else {
                        to_f32(out, h)
                    }
                })
                .collect())
        }

        /// The kernel's buffers A, B, D, scale_a, scale_b with `d` as D.
        fn buffers(&self, rt: &Runtime, d: RawBuffer) -> [RawBuffer; 5] {
            let [a, b] = &self.dev;
            let [sa, sb] = &self.dev_scales;
            [rt.bind(a), rt.bind(b), d, rt.bind(sa), rt.bind(sb)]
        }

        /// Runs `kern` once with D initialized to `fill`; D downloaded.
        fn run_into<T>(&self, rt: &Runtime, kern: &Kernel, fill: Vec<T>) -> Result<Vec<T>>
        where
            T: cudarc::driver::DeviceRepr + Default + Clone,
        {
            let d = rt.upload(&fill)?;
            let ws = stream_k_workspace(rt, std::slice::from_ref(kern))?;
            let bufs = with_workspace(rt, kern, self.buffers(rt, rt.bind(&d)).to_vec(), &ws);
            rt.run(&rt.prepare(kern, &bufs)?)?;
            rt.sync()?;
            rt.download(&d)
        }
    }

    /// `(max |err| / magnitude, max |err| / rms(D))` over `pts`.
    fn errors(
        p: &HopperProblem,
        got: &[f32],
        reference: &Fp8Reference,
        pts: &[(i64, i64)],
    ) -> (f64, f64) {
        let (mut worst_mag, mut worst, mut sq) = (0.0f64, 0.0f64, 0.0f64);
        for &(i, j) in pts {
            let (want, mag) = reference.at(i, j);
            let g = got[(i * p.ldd + j) as usize] as f64;
            let e = if g.is_nan() {
                f64::INFINITY
            } else {
                (g - want).abs()
            };
            worst_mag = worst_mag.max(e / mag.max(1e-30));
            worst = worst.max(e);
            sq += want * want;
        }
        let rms = (sq / pts.len().max(1) as f64).sqrt().max(1e-30);
        (worst_mag, worst / rms)
    }

    fn check_points(p: &HopperProblem) -> Vec<(i64, i64)> {
        if p.m * p.n <= 300_000 {
            return all_points(p.m, p.n);
        }
        edge_points(
            (p.m, p.n),
            &[0, p.m - 1],
            &[0, p.n - 1],
            7,
            4000,
            &mut Rng(3),
        )
    }

    /// The configurations checked for a scaling.
    fn check_configs(scaling: Scaling) -> Vec<HopperConfig> {
        let c = match scaling {
            Scaling::PerTensor => vec![
                HopperConfig::default(),
                HopperConfig::large(),
                HopperConfig::pingpong(),
                HopperConfig::pingpong_tma_store(),
                HopperConfig::pingpong_wide(),
                // stream-K for 132 CTAs, and for 3 (small shapes then cut tiles too)
                HopperConfig {
                    stream_k: 132,
                    ..HopperConfig::large()
                },
                HopperConfig {
                    persistent: true,
                    stream_k: 3,
                    ..HopperConfig::default()
                },
                // in 2-CTA clusters, with and without stream-K
                HopperConfig {
                    cluster: 2,
                    ..HopperConfig::large()
                },
                HopperConfig {
                    cluster: 2,
                    stream_k: 132,
                    ..HopperConfig::large()
                },
            ],
            Scaling::Block => {
                let staged = [
                    HopperConfig {
                        bn: 128,
                        stages: 5,
                        smem_scales: true,
                        ..HopperConfig::large()
                    },
                    HopperConfig {
                        bm: 64,
                        stages: 8,
                        persistent: true,
                        smem_scales: true,
                        ..HopperConfig::default()
                    },
                ];
                // two product buffers: the promotion under the next k-block's wgmmas
                let overlapped = staged.map(|c| HopperConfig {
                    overlap_promotion: true,
                    ..c
                });
                let mut v = vec![
                    HopperConfig::large(),
                    HopperConfig {
                        promotion_stagger: 128,
                        ..HopperConfig::large()
                    },
                    HopperConfig {
                        bn: 128,
                        stages: 6,
                        ..HopperConfig::large()
                    },
                    HopperConfig {
                        bm: 64,
                        persistent: true,
                        ..HopperConfig::default()
                    },
                    HopperConfig {
                        bm: 64,
                        bn: 64,
                        ..HopperConfig::default()
                    },
                ];
                v.extend(staged.into_iter().chain(overlapped));
                v
            }
        };
        c.into_iter().map(|c| c.for_bits(8)).collect()
    }

    /// One kernel on one problem: errors within 2^-6 of the magnitude (an indexing or scaling mistake is
    /// off by about the magnitude itself) and no padding written. Returns whether it passed.
    fn check_kernel(
        rt: &Runtime,
        p: &HopperProblem,
        ops: &Operands,
        kern: &Kernel,
        out: DType,
        pts: &[(i64, i64)],
    ) -> Result<bool> {
        let got = ops.run(rt, p, kern, out)?;
        let (e_mag, e_rms) = errors(p, &got, &ops.reference(p), pts);
        let pad = (0..p.m)
            .flat_map(|i| (p.n..p.ldd).map(move |j| (i, j)))
            .filter(|&(i, j)| !got[(i * p.ldd + j) as usize].is_nan())
            .count();
        let ok = e_mag <= 2f64.powi(-6) && pad == 0;
        println!(
            "check {}x{}x{} {:?} {}·{}->{} {}: {} points, max err {e_mag:.2e} of |a||b|, {e_rms:.2e} of rms, {pad} padding written {}",
            p.m,
            p.n,
            p.k,
            ops.scaling,
            ops.types.0.name(),
            ops.types.1.name(),
            out.name(),
            kern.name,
            pts.len(),
            if ok { "OK" } else { "FAIL" }
        );
        Ok(ok)
    }

    /// Every scaling, type pair and output type on each shape.
    fn check(rt: &Runtime, small: bool, block_only: bool) -> Result<()> {
        let mut shapes = vec![(128i64, 128i64, 128i64), (77, 300, 40), (200, 136, 384)];
        if !small {
            shapes.extend([
                (1000, 1000, 1000),
                (4095, 4097, 1023),
                (4096, 4096, 4096),
                (256, 8192, 2048),
            ]);
        }
        let (e4, e5) = (DType::E4M3, DType::E5M2);
        let cases = [
            ((e4, e4), DType::BF16),
            ((e4, e5), DType::F16),
            ((e5, e4), DType::F32),
            ((e5, e5), DType::BF16),
        ];
        let mut failed = 0;
        for (m, n, k) in shapes {
            let p = problem(m, n, k);
            let pts = check_points(&p);
            for scaling in [Scaling::PerTensor, Scaling::Block] {
                if block_only && scaling == Scaling::PerTensor {
                    continue;
                }
                for (i, &(types, out)) in cases.iter().enumerate() {
                    let ops = Operands::new(rt, &p, types, scaling, false, 11 + i as u64)?;
                    for cfg in check_configs(scaling) {
                        let fused = Fused::default();
                        let kern = generate_hopper_fp8_gemm(&p, types, scaling, out, &cfg, &fused)?;
                        failed += usize::from(!check_kernel(rt, &p, &ops, &kern, out, &pts)?);
                    }
                }
            }
        }
        if failed > 0 {
            return Err(GpuError::CheckFailed(format!("{failed} FP8 checks failed")));
        }
        println!("check: all within bounds");
        Ok(())
    }

    /// The accumulation error without promotion (per-tensor: the tensor core sums all of K) and with it
    /// (block scaling, unit scales: f32 sums every 128 of K), f32 output, same data.
    fn error(rt: &Runtime) -> Result<()> {
        for k in [4096i64, 16384] {
            let p = problem(1024, 1024, k);
            let mut rng = Rng(5);
            let pts: Vec<(i64, i64)> = (0..3000).map(|_| rng.point(p.m, p.n)).collect();
            let types = (DType::E4M3, DType::E4M3);
            let mut row = format!("error 1024x1024x{k} e4m3, f32 out, {} points:", pts.len());
            for scaling in [Scaling::PerTensor, Scaling::Block] {
                let ops = Operands::new(rt, &p, types, scaling, true, 21)?;
                let cfg = sm90_fp8_config([p.m, p.n, p.k], p.ldd * 4, rt.sm_count(), scaling);
                let fused = Fused::default();
                let kern = generate_hopper_fp8_gemm(&p, types, scaling, DType::F32, &cfg, &fused)?;
                let got = ops.run(rt, &p, &kern, DType::F32)?;
                let (e_mag, e_rms) = errors(&p, &got, &ops.reference(&p), &pts);
                row += &format!(
                    " {}: max |err| {e_mag:.2e} of sum|a||b|, {e_rms:.2e} of rms(D);",
                    if scaling == Scaling::Block {
                        "promoted every 128"
                    } else {
                        "not promoted"
                    }
                );
            }
            println!("{row}");
        }
        Ok(())
    }

    /// TFLOP/s of each round: ours per-tensor, ours block-scaled, cuBLASLt's first and best algorithm
    /// with fast accumulation `[0]` and without `[1]`.
    #[derive(Default)]
    struct Timings {
        pt: Vec<f64>,
        bs: Vec<f64>,
        first: [Vec<f64>; 2],
        best: [Vec<f64>; 2],
    }

    /// Largest `|x - y| / max(|y|, 1)` of two bf16 results over a sample of D (padding skipped).
    fn max_diff(ours: &[u16], theirs: &[u16], n: i64, ldd: i64) -> f32 {
        (0..ours.len())
            .filter(|i| (*i as i64 % ldd) < n)
            .step_by(101)
            .map(|i| {
                let (x, y) = (to_f32(DType::BF16, ours[i]), to_f32(DType::BF16, theirs[i]));
                (x - y).abs() / y.abs().max(1.0)
            })
            .fold(0.0f32, f32::max)
    }

    /// One shape: ours per-tensor and block-scaled and cuBLASLt, interleaved rounds, medians.
    fn bench_shape(rt: &Runtime, (m, n, k): (i64, i64, i64), rounds: usize) -> Result<String> {
        let p = problem(m, n, k);
        let types = (DType::E4M3, DType::E4M3);
        let tf = |ms: f64| 2.0 * (m * n * k) as f64 / ms / 1e9;
        let iters = sample_calls(sample_tflop(40.0)?, 2.0 * (m * n * k) as f64);
        let pt = Operands::new(rt, &p, types, Scaling::PerTensor, true, 1)?;
        let bs = Operands::new(rt, &p, types, Scaling::Block, false, 1)?;
        let d = rt.zeros::<u16>((p.m * p.ldd) as usize)?;
        let mut d_lt = rt.zeros::<u16>((p.m * p.ldd) as usize)?;
        let kernel = |scaling| -> Result<Kernel> {
            let cfg = sm90_fp8_config([m, n, k], p.ldd * 2, rt.sm_count(), scaling);
            generate_hopper_fp8_gemm(&p, types, scaling, DType::BF16, &cfg, &Fused::default())
        };
        let kernels = [kernel(Scaling::PerTensor)?, kernel(Scaling::Block)?];
        let ws = stream_k_workspace(rt, &kernels)?;
        let prep = |ops: &Operands, kern: &Kernel| -> Result<_> {
            let bufs = with_workspace(rt, kern, ops.buffers(rt, rt.bind(&d)).to_vec(), &ws);
            Ok((rt.prepare(kern, &bufs)?, kern.name.clone()))
        };
        let (ours_pt, name_pt) = prep(&pt, &kernels[0])?;
        let (ours_bs, name_bs) = prep(&bs, &kernels[1])?;
        let scales = (
            rt.bind(&pt.dev_scales[0]).ptr(),
            rt.bind(&pt.dev_scales[1]).ptr(),
        );
        let lt_types = LtTypes {
            a: DType::E4M3,
            b: DType::E4M3,
            d: DType::BF16,
        };
        let lt_of = |fast_accum| {
            let fp8 = LtFp8 { scales, fast_accum };
            let (mnk, lds) = ((m as u64, n as u64, k as u64), (p.lda, p.ldb, p.ldd));
            LtGemm::new(rt, lt_types, mnk, lds, Some(fp8), 8)
        };
        // cuBLASLt's default promotes partial sums (torch's use_fast_accum=False); fast accumulation is
        // what our per-tensor kernel does
        let mut lts = [lt_of(true)?, lt_of(false)?];
        let [a, b] = &pt.dev;
        let mut t = Timings::default();
        for _ in 0..rounds {
            t.pt.push(tf(settled_ms(rt, iters, || rt.run(&ours_pt))?));
            t.bs.push(tf(settled_ms(rt, iters, || rt.run(&ours_bs))?));
            for (j, lt) in lts.iter_mut().enumerate() {
                let mut lt_ms = vec![];
                for i in 0..lt.algos.len() {
                    lt_ms.push(settled_ms(rt, iters, || {
                        lt.run(rt, i, (a.slice(), b.slice(), d_lt.slice_mut()))
                    })?);
                }
                t.first[j].push(tf(lt_ms[0]));
                t.best[j].push(tf(lt_ms.iter().cloned().fold(f64::INFINITY, f64::min)));
            }
        }
        // the last cuBLASLt run was the promoting one: ours per-tensor (not promoting) against it
        rt.run(&ours_pt)?;
        rt.sync()?;
        let diff = max_diff(&rt.download(&d)?, &rt.download(&d_lt)?, n, p.ldd);
        let (pt, bs) = (median(&t.pt), median(&t.bs));
        let [fast, slow] = [0, 1].map(|j| (median(&t.first[j]), median(&t.best[j])));
        Ok(format!(
            "| {m}x{n}x{k} | {pt:.0} | {bs:.0} | {:.0} / {:.0} | {:.0} / {:.0} | {:.2} | {:.2} | {:.2} | {:.2} | {diff:.1e} | {name_pt}, {name_bs} |",
            fast.0,
            fast.1,
            slow.0,
            slow.1,
            pt / fast.1,
            pt / slow.1,
            bs / slow.1,
            bs / pt
        ))
    }

    /// The configurations of the sweep: per-tensor's reference tiles, block scaling's candidates with the
    /// scales loaded by the consumers or staged in shared memory.
    fn sweep_configs() -> Vec<(Scaling, HopperConfig)> {
        let large = HopperConfig::large();
        let tiles = |bm, bn, stages, smem_scales| HopperConfig {
            bm,
            bn,
            stages,
            smem_scales,
            ..large
        };
        let mut v = vec![
            (Scaling::PerTensor, tiles(128, 256, 4, false)),
            (Scaling::PerTensor, tiles(128, 128, 6, false)),
            // ping-pong consumers with the TMA-store epilogue (each stores under the other's mainloop)
            (Scaling::PerTensor, HopperConfig::pingpong_wide()),
            (
                Scaling::PerTensor,
                HopperConfig {
                    tma_store: true,
                    stages: 5,
                    ..HopperConfig::pingpong()
                },
            ),
            // 2-CTA clusters, B multicast
            (
                Scaling::PerTensor,
                HopperConfig {
                    cluster: 2,
                    ..large
                },
            ),
            (
                Scaling::PerTensor,
                HopperConfig {
                    cluster: 2,
                    ..HopperConfig::pingpong_wide()
                },
            ),
        ];
        for staged in [false, true] {
            for (bm, bn, stages) in [
                (128, 256, 4),
                (128, 256, 3),
                (128, 128, 6),
                (128, 128, 5),
                (128, 64, 8),
            ] {
                v.push((Scaling::Block, tiles(bm, bn, stages, staged)));
            }
            // one consumer of 64x128 (the skinny shapes' tile)
            let small = HopperConfig {
                bm: 64,
                bn: 128,
                consumers: 1,
                stages: 8,
                tma_store: false,
                smem_scales: staged,
                ..large
            };
            v.push((Scaling::Block, small));
        }
        v.push((
            Scaling::Block,
            HopperConfig {
                tma_store: false,
                smem_scales: true,
                ..large
            },
        ));
        // the second consumer starts each tile later, so that the consumers' promotions alternate
        for (stages, smem_scales) in [(4, false), (3, true)] {
            let staggered = HopperConfig {
                promotion_stagger: 128,
                stages,
                smem_scales,
                ..large
            };
            v.push((Scaling::Block, staggered));
        }
        v.push((
            Scaling::Block,
            HopperConfig {
                bn: 128,
                stages: 5,
                smem_scales: true,
                overlap_promotion: true,
                promotion_stagger: 128,
                ..large
            },
        ));
        // two product buffers (the promotion under the next k-block's wgmmas)
        for (bm, bn, stages, consumers) in [
            (128, 128, 5, 2),
            (128, 128, 6, 2),
            (128, 64, 8, 2),
            (64, 128, 8, 1),
        ] {
            let overlapped = HopperConfig {
                bm,
                bn,
                stages,
                consumers,
                smem_scales: true,
                overlap_promotion: true,
                tma_store: consumers == 2,
                ..large
            };
            v.push((Scaling::Block, overlapped));
        }
        v
    }

    /// Tile configurations of both scalings at 8192^3, 128x8192x8192 and 4096^3 (`sweep8k`: 8192^3 only;
    /// TFLOP/s, medians of 3 interleaved rounds).
    fn sweep(rt: &Runtime, only_8k: bool) -> Result<()> {
        let shapes = [
            (8192i64, 8192i64, 8192i64),
            (128, 8192, 8192),
            (4096, 4096, 4096),
            (8192, 14336, 4096),
        ];
        for shape in shapes.into_iter().take(if only_8k { 1 } else { 4 }) {
            sweep_shape(rt, shape, &sweep_configs(), 3)?;
        }
        Ok(())
    }

    /// The plan's large tiles (block-scaled 128x256 with staggered consumers, per-tensor 128x256 and
    /// ping-pong 128x192) with their warp group index and the other one (broadcast from lane 0 or not), at 8192^3, 4096^3
    /// and 8192x14336x4096 (medians of 6 interleaved rounds).
    fn broadcast(rt: &Runtime) -> Result<()> {
        let large = HopperConfig::large();
        let staggered = HopperConfig {
            promotion_stagger: 128,
            ..large
        };
        let tiles = [
            (Scaling::Block, staggered),
            (Scaling::PerTensor, large),
            (Scaling::PerTensor, HopperConfig::pingpong_wide()),
        ];
        let configs: Vec<(Scaling, HopperConfig)> = tiles
            .iter()
            .flat_map(|&(s, c)| {
                let b = HopperConfig {
                    broadcast_wg: !c.broadcast_wg,
                    ..c
                };
                [(s, c), (s, b)]
            })
            .collect();
        for shape in [(8192, 8192, 8192), (4096, 4096, 4096), (8192, 14336, 4096)] {
            sweep_shape(rt, shape, &configs, 6)?;
        }
        Ok(())
    }

    /// Per-tensor scaling with each of `configs` at the large shapes, 8 interleaved rounds.
    fn per_tensor_sweep(rt: &Runtime, configs: &[HopperConfig]) -> Result<()> {
        let configs: Vec<_> = configs.iter().map(|&c| (Scaling::PerTensor, c)).collect();
        for shape in [
            (8192, 4096, 14336),
            (8192, 8192, 8192),
            (8192, 14336, 4096),
            (4096, 4096, 4096),
        ] {
            sweep_shape(rt, shape, &configs, 8)?;
        }
        Ok(())
    }

    /// Per-tensor 128x256 with and without stream-K, each with and without 2-CTA clusters (stream-K in
    /// clusters also with the raster along N), and the ping-pong 128x192, at the benchmark's large shapes
    /// (medians of 8 interleaved rounds).
    fn stream_k(rt: &Runtime) -> Result<()> {
        let large = HopperConfig::large();
        let sk = HopperConfig {
            stream_k: rt.sm_count(),
            ..large
        };
        let clustered = |c| HopperConfig { cluster: 2, ..c };
        let configs = [
            large,
            sk,
            clustered(large),
            clustered(sk),
            HopperConfig {
                raster_n: true,
                ..clustered(sk)
            },
            HopperConfig::pingpong_wide(),
        ];
        per_tensor_sweep(rt, &configs)
    }

    /// Per-tensor FP8 in clusters of 4 CTAs (each multicasts a quarter of B) against clusters of 2: the
    /// 128x256 tile alone and with stream-K along N (the plan's at 8192x4096x14336), and the plan's
    /// ping-pong 128x192, at `streamk`'s shapes (medians of 8 interleaved rounds).
    fn quads(rt: &Runtime) -> Result<()> {
        let large = HopperConfig::large();
        let sk = HopperConfig {
            stream_k: rt.sm_count(),
            raster_n: true,
            ..large
        };
        let cluster = |cluster, c| HopperConfig { cluster, ..c };
        let configs = [
            cluster(2, sk),
            cluster(4, sk),
            cluster(2, large),
            cluster(4, large),
            HopperConfig::pingpong_wide(),
        ];
        per_tensor_sweep(rt, &configs)
    }

    /// Block scaling's two cooperative tiles (the plan's staggered 128x256 and the 128x128 with two product
    /// buffers) beside per-tensor scaling on the same tiles, at 8192^3 (medians of 6 interleaved rounds;
    /// small enough a set to run under ncu; run137 measured them in 2-CTA clusters too:
    /// `gpu/logs/matmul/run137/block-clusters.patch`).
    fn promotion(rt: &Runtime) -> Result<()> {
        let wide = sm90_fp8_config([8192, 8192, 8192], 8192 * 2, rt.sm_count(), Scaling::Block);
        let cooperative = sm90_fp8_block_cooperative(wide);
        let per_tensor = |c: HopperConfig| HopperConfig {
            promotion_stagger: 0,
            smem_scales: false,
            overlap_promotion: false,
            ..c
        };
        let configs = [
            (Scaling::PerTensor, per_tensor(wide)),
            (Scaling::Block, wide),
            (
                Scaling::PerTensor,
                HopperConfig {
                    stages: 6,
                    ..per_tensor(cooperative)
                },
            ),
            (Scaling::Block, cooperative),
        ];
        sweep_shape(rt, (8192, 8192, 8192), &configs, 6)
    }

    /// The plan's per-tensor tile of 128x8192x8192 (one wave of two rows of 64-row tiles, each B tile read
    /// by both rows' CTAs) with the TMA-store epilogue (the plan's since run180), without it, and in
    /// 2-CTA clusters that multicast B to the pair (run175: -1.7 %), beside the plan's block-scaled
    /// kernel (clusters are not for block scaling; medians of 8 interleaved rounds).
    fn narrow_clusters(rt: &Runtime) -> Result<()> {
        let (m, n, k) = (128, 8192, 8192);
        let plan = |s| sm90_fp8_config([m, n, k], n * 2, rt.sm_count(), s);
        let tile = plan(Scaling::PerTensor);
        let direct = HopperConfig {
            tma_store: false,
            ..tile
        };
        let configs = [
            (Scaling::PerTensor, tile),
            (Scaling::PerTensor, direct),
            (
                Scaling::PerTensor,
                HopperConfig {
                    cluster: 2,
                    ..direct
                },
            ),
            (Scaling::Block, plan(Scaling::Block)),
        ];
        sweep_shape(rt, (m, n, k), &configs, 8)
    }

    /// Tile configurations at one shape (TFLOP/s, medians of `rounds` interleaved rounds).
    fn sweep_shape(
        rt: &Runtime,
        (m, n, k): (i64, i64, i64),
        configs: &[(Scaling, HopperConfig)],
        rounds: usize,
    ) -> Result<()> {
        let p = problem(m, n, k);
        let types = (DType::E4M3, DType::E4M3);
        let d = rt.zeros::<u16>((p.m * p.ldd) as usize)?;
        let mut runs = Vec::new();
        // the operands stay alive while the prepared launches (raw addresses) run
        let operands = [
            Operands::new(rt, &p, types, Scaling::PerTensor, false, 1)?,
            Operands::new(rt, &p, types, Scaling::Block, false, 1)?,
        ];
        let kernels: Vec<(usize, Kernel)> = configs
            .iter()
            .filter_map(|&(scaling, cfg)| {
                let cfg = cfg.for_bits(8);
                let f = Fused::default();
                let k = generate_hopper_fp8_gemm(&p, types, scaling, DType::BF16, &cfg, &f).ok()?;
                Some((usize::from(scaling == Scaling::Block), k))
            })
            .collect();
        let all: Vec<Kernel> = kernels.iter().map(|(_, k)| k.clone()).collect();
        let ws = stream_k_workspace(rt, &all)?;
        for (ops, kern) in &kernels {
            let bufs = operands[*ops].buffers(rt, rt.bind(&d)).to_vec();
            let bufs = with_workspace(rt, kern, bufs, &ws);
            runs.push((kern.name.clone(), rt.prepare(kern, &bufs)?, Vec::new()));
        }
        let iters = sample_calls(sample_tflop(40.0)?, 2.0 * (m * n * k) as f64);
        // each round starts later in the list (the clock falls as a round heats the GPU)
        let n_runs = runs.len();
        for round in 0..rounds {
            for i in (0..n_runs).map(|i| (i + round * n_runs / rounds) % n_runs) {
                let (_, prepared, t) = &mut runs[i];
                let ms = settled_ms(rt, iters, || rt.run(prepared))?;
                t.push(2.0 * (m * n * k) as f64 / ms / 1e9);
            }
        }
        for (name, _, t) in runs.iter_mut() {
            println!("sweep {m}x{n}x{k} {name}: {:.0} TFLOP/s", median(t));
        }
        Ok(())
    }

    fn bench(rt: &Runtime, quick: bool) -> Result<()> {
        let (shapes, rounds) = if quick {
            (vec![(8192i64, 8192i64, 8192i64)], 2)
        } else {
            (
                vec![
                    (4096, 4096, 4096),
                    (8192, 8192, 8192),
                    (8192, 14336, 4096),
                    (8192, 4096, 14336),
                    (128, 8192, 8192),
                ],
                5,
            )
        };
        let mut rows = vec![
            "| M x N x K | ours per-tensor | ours block-scaled | Lt fast accum: first / best of 8 | Lt promoted: first / best of 8 | per-tensor / Lt fast best | per-tensor / Lt promoted best | block / Lt promoted best | block / per-tensor | max rel diff vs Lt promoted | kernels |".to_string(),
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |".to_string(),
        ];
        for s in shapes {
            let row = bench_shape(rt, s, rounds)?;
            println!("{row}");
            rows.push(row);
        }
        println!(
            "\nFP8 e4m3 x e4m3 -> bf16, TFLOP/s (uniform [-1,1) rounded to e4m3; medians of {rounds} interleaved rounds)\n{}",
            rows.join("\n")
        );
        Ok(())
    }
}
