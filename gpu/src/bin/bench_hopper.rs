//! Hopper GEMM (wgmma + TMA): correctness against a CPU reference, then TFLOP/s against cuBLAS
//! (`cublasGemmEx`, same process, same buffers and layouts: A row-major, B column-major, D row-major).
//!
//! `bench_hopper [check [small|tiny]] [bench] [quick]`: `check` runs the exactness checks for the four
//! operand-major combinations (`small`: up to 1000^3, for memcheck; `tiny`: 128^3 and 77x300x40, for
//! racecheck), `bench` the benchmark
//! (all configurations), `quick` only one configuration of the benchmark at 8192^3 bf16 (for ncu),
//! `sweep` every configuration and the ping-pong ones on seven of the shapes, `clusters` the
//! shipped tiles with and without 2-CTA clusters (B multicast), `broadcast` with the warp group index
//! their configuration has and the other one (broadcast from lane 0 or not), `streamk` tiles with and
//! without stream-K, `groups` the raster's group sizes, `rasters` the raster along M or N, `narrow` the
//! decode tiles (a narrow side of 16-64) with and without 2-CTA clusters and stream-K, `probe` the next
//! k-block's stage probed ahead or not, interleaved in rounds on uniform data.

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
    use cute_gpu::configs::{BENCH_SIZES, sm90_persistent_tma_store};
    use cute_gpu::host::{ReferenceGemm, Rng, all_points, decode, edge_points, from_f32};
    use cute_gpu::kernels::gemm_sm90::{HopperConfig, HopperProblem, generate_hopper_gemm};
    use cute_gpu::runtime::bench::{
        Best, Cublas, DeviceGemm, Row, median, print_table, sample_calls, sample_tflop, settled_ms,
        stream_k_workspace, with_workspace,
    };
    use cute_gpu::runtime::{DeviceBuffer, Runtime};
    use cute_gpu::{DType, GpuError, Kernel, Major, Result};

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
            if has("sweep") {
                sweep(&rt)?;
            }
            if has("clusters") {
                variants(&rt, clustered)?;
            }
            if has("broadcast") {
                variants(&rt, broadcast)?;
            }
            if has("streamk") {
                stream_k_ab(&rt)?;
            }
            if has("groups") {
                groups(&rt)?;
            }
            if has("rasters") {
                rasters(&rt)?;
            }
            if has("narrow") {
                narrow(&rt)?;
            }
            if has("chain") {
                chain(&rt)?;
            }
            if has("probe") {
                probe_ahead(&rt)?;
            }
            if has("narrowstages") {
                narrow_stages(&rt)?;
            }
            if has("wavefill") {
                wave_filling(&rt)?;
            }
            if has("narrowclusters") {
                narrow_clusters(&rt)?;
            }
            if has("shortm") {
                short_m(&rt)?;
            }
            if has("quads") {
                quads(&rt)?;
            }
            Ok(())
        })();
        if let Err(e) = r {
            eprintln!("bench_hopper: {e}");
            std::process::exit(1);
        }
    }

    /// A and B of a problem: integers in [-2, 2] of `dt`.
    fn inputs(p: &HopperProblem, dt: DType, seed: u64) -> (Vec<u16>, Vec<u16>) {
        let mut rng = Rng(seed);
        let a = rng.small_ints(dt, p.a_len() as usize, 2);
        (a, rng.small_ints(dt, p.b_len() as usize, 2))
    }

    /// The check's sizes: all, `small` (M K up to 10^6, for memcheck), `tiny` (M N K up to 3 10^6,
    /// for racecheck).
    fn check_sizes(small: bool, tiny: bool) -> Vec<(i64, i64, i64)> {
        let all = [
            (128i64, 128i64, 128i64),
            (1000, 1000, 1000),
            (4096, 4096, 4096),
            (4095, 4097, 1023),
            (8192, 128, 8192),
            (77, 300, 40),
            (130, 130, 128), // 4 tiles of 128x128 in 2 k-blocks: stream-K over 3 CTAs cuts one
            (65, 260, 128), // 3 cluster tiles of 2 x 128x128 in 2 k-blocks: over 2 clusters, one cut
        ];
        let keep = |&(m, n, k): &(i64, i64, i64)| {
            if tiny {
                m * n * k <= 3_000_000
            } else {
                !small || m * k <= 1_000_000
            }
        };
        all.into_iter().filter(keep).collect()
    }

    /// The configurations checked: all seven with K-major operands, four schedules otherwise.
    fn check_configs(p: &HopperProblem) -> Vec<HopperConfig> {
        if (p.a_major, p.b_major) != (Major::K, Major::K) {
            return vec![
                HopperConfig::default(),
                HopperConfig::large(),
                HopperConfig::pingpong(),
                HopperConfig::pingpong_wide(),
                along_n(clustered(HopperConfig::large())),
            ];
        }
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
            HopperConfig::pingpong_tma_store(),
            HopperConfig::pingpong_wide(),
            // the plan's 128x128 (two consumers) and 64x128, with the TMA-store epilogue
            HopperConfig {
                consumers: 2,
                ..sm90_persistent_tma_store()
            },
            HopperConfig {
                bm: 64,
                stages: 8,
                ..sm90_persistent_tma_store()
            },
            clustered(HopperConfig::large()),
            clustered(HopperConfig::pingpong_wide()),
            // stream-K: for 132 CTAs (4096³ and 4095x4097x1023 cut tiles), and for 3 (every size with
            // more than 3 tiles of 2 or more k-blocks cuts tiles)
            HopperConfig {
                stream_k: 132,
                ..HopperConfig::large()
            },
            HopperConfig {
                stream_k: 3,
                ..sm90_persistent_tma_store()
            },
            // in 2-CTA clusters: 66 clusters, and 2 (the 128x128 tile: 65x260x128 cuts one)
            HopperConfig {
                stream_k: 132,
                ..clustered(HopperConfig::large())
            },
            HopperConfig {
                stream_k: 4,
                ..clustered(sm90_persistent_tma_store())
            },
            // the narrow (decode) tile of 16 columns in clusters, with stream-K too
            clustered(narrow16()),
            HopperConfig {
                stream_k: 4,
                ..clustered(narrow16())
            },
            // the raster along N, in clusters (and with stream-K)
            along_n(clustered(HopperConfig::large())),
            along_n(clustered(HopperConfig::pingpong_tma_store())),
            along_n(HopperConfig {
                stream_k: 4,
                ..clustered(sm90_persistent_tma_store())
            }),
            HopperConfig {
                probe_ahead: true,
                ..clustered(HopperConfig::large())
            },
            // 4-CTA clusters, with stream-K over 33 clusters and 1 (65x260x128: one cluster tile)
            quad(HopperConfig::large()),
            quad(HopperConfig::pingpong_tma_store()),
            HopperConfig {
                stream_k: 132,
                ..quad(HopperConfig::large())
            },
            along_n(HopperConfig {
                stream_k: 8,
                ..quad(sm90_persistent_tma_store())
            }),
            quad(HopperConfig::pingpong_wide()),
            HopperConfig {
                probe_ahead: true,
                ..HopperConfig::pingpong_tma_store()
            },
        ]
    }

    /// Seven of the shapes (M, N, K), for `sweep` and `clusters`.
    const SWEEP_SHAPES: [(i64, i64, i64); 7] = [
        (16384, 8192, 1024),
        (8192, 14336, 4096),
        (2048, 2048, 2048),
        (4096, 4096, 4096),
        (8192, 8192, 8192),
        (8192, 4096, 14336),
        (1024, 8192, 8192),
    ];

    /// The narrow (decode) tile of 16 columns.
    fn narrow16() -> HopperConfig {
        cute_gpu::matmul::plan::sm90_narrow_config(16).expect("narrow")
    }

    /// The configuration with stream-K over the device's SMs.
    fn stream_k_over(rt: &Runtime, c: HopperConfig) -> HopperConfig {
        HopperConfig {
            stream_k: rt.sm_count(),
            ..c
        }
    }

    /// The configuration in 4-CTA clusters along M (each CTA loads a quarter of B and multicasts it).
    fn quad(c: HopperConfig) -> HopperConfig {
        HopperConfig { cluster: 4, ..c }
    }

    /// Clusters of 4 against clusters of 2 (B's L2 reads halved again) for the 128x256 tile (also with
    /// stream-K) and the ping-pong 128x128 and 128x192 tiles, at the sweep's shapes.
    fn quads(rt: &Runtime) -> Result<()> {
        let cublas = Cublas::new(rt)?;
        let sk = |c| stream_k_over(rt, c);
        let large = HopperConfig::large();
        let pingpong = HopperConfig::pingpong_tma_store();
        let wide = HopperConfig::pingpong_wide();
        let configs = [
            clustered(large),
            quad(large),
            along_n(sk(clustered(large))),
            along_n(sk(quad(large))),
            clustered(pingpong),
            quad(pingpong),
            clustered(wide),
            quad(wide),
        ];
        for (m, n, k) in SWEEP_SHAPES {
            interleaved(rt, &cublas, (m, n, k), &configs)?;
        }
        Ok(())
    }

    /// The configuration in 2-CTA clusters along M (B multicast).
    fn clustered(c: HopperConfig) -> HopperConfig {
        HopperConfig { cluster: 2, ..c }
    }

    /// The configuration with the raster along N (consecutive tiles share their A rows).
    fn along_n(c: HopperConfig) -> HopperConfig {
        HopperConfig {
            raster_n: true,
            ..c
        }
    }

    /// The configuration with the other warp group index: broadcast from lane 0 or `threadIdx.x / 128`.
    fn broadcast(c: HopperConfig) -> HopperConfig {
        HopperConfig {
            broadcast_wg: !c.broadcast_wg,
            ..c
        }
    }

    /// Each shipped tile (128x256, ping-pong 128x192, 128x128 cooperative and ping-pong) as it is and
    /// changed by `variant`, and cublasGemmEx, on uniform [-1, 1) bf16
    /// data: interleaved rounds in rotating order, medians (TFLOP/s) and the largest relative
    /// difference from cuBLAS.
    fn variants(rt: &Runtime, variant: fn(HopperConfig) -> HopperConfig) -> Result<()> {
        let cublas = Cublas::new(rt)?;
        let tiles = [
            HopperConfig::large(),
            HopperConfig::pingpong_wide(),
            sm90_persistent_tma_store(),
            HopperConfig::pingpong_tma_store(),
        ];
        let configs: Vec<HopperConfig> = tiles.iter().flat_map(|&c| [c, variant(c)]).collect();
        for (m, n, k) in SWEEP_SHAPES {
            interleaved(rt, &cublas, (m, n, k), &configs)?;
        }
        Ok(())
    }

    /// The raster's group of tile rows (2, 4, 8, 16) for the clustered 128x256 and ping-pong 128x128
    /// tiles at 4096³ and 8192³: how much of A the L2 request coalescer merges across CTAs depends on
    /// which CTAs read the same rows at the same time (run131).
    fn groups(rt: &Runtime) -> Result<()> {
        let cublas = Cublas::new(rt)?;
        let tiles = [HopperConfig::large(), HopperConfig::pingpong_tma_store()].map(clustered);
        let configs: Vec<HopperConfig> = tiles
            .iter()
            .flat_map(|&c| [2, 4, 8, 16].map(|group_m| HopperConfig { group_m, ..c }))
            .collect();
        for (m, n, k) in [(4096, 4096, 4096), (8192, 8192, 8192)] {
            interleaved(rt, &cublas, (m, n, k), &configs)?;
        }
        Ok(())
    }

    /// The narrow (decode) tiles alone and in 2-CTA clusters (the narrow operand multicast, as cuBLASLt's
    /// `nvjet_sm90_tst_64x16_64x16_2x1` does), each with and without stream-K: 8192 rows of 64-row tiles
    /// (one wave) by 16, 32 and 64 columns, K 8192; 11008, 14336 and 28672 rows (more than a wave) by 16
    /// or 32, K 4096.
    fn narrow(rt: &Runtime) -> Result<()> {
        let cublas = Cublas::new(rt)?;
        let sk = |c| stream_k_over(rt, c);
        let shapes = [
            (8192, 16, 8192),
            (8192, 32, 8192),
            (8192, 64, 8192),
            (11008, 16, 4096),
            (14336, 16, 4096),
            (14336, 32, 4096),
            (28672, 16, 4096),
        ];
        for (m, n, k) in shapes {
            let tile = cute_gpu::matmul::plan::sm90_narrow_config(n).expect("narrow");
            let configs = [tile, clustered(tile), sk(tile), sk(clustered(tile))];
            interleaved(rt, &cublas, (m, n, k), &configs)?;
        }
        Ok(())
    }

    /// Each 64-row chunk's wgmmas back to back (`chain_k`, as cuBLASLt's ping-pong 128x128 issues them,
    /// run148) against K step by K step across the chunks, for the tiles the plan ships.
    fn chain(rt: &Runtime) -> Result<()> {
        switched(rt, |c, chain_k| HopperConfig { chain_k, ..c })
    }

    /// The next k-block's stage probed ahead ([`HopperConfig::probe_ahead`]) against waiting for it at
    /// the top of the k-block, for the tiles the plan ships.
    fn probe_ahead(rt: &Runtime) -> Result<()> {
        switched(rt, |c, probe_ahead| HopperConfig { probe_ahead, ..c })
    }

    /// The tiles the plan ships (the clustered 128x256, also with stream-K along N; the ping-pong 128x128
    /// and 128x192), each with `switch` off and on, interleaved on the sweep's shapes.
    fn switched(rt: &Runtime, switch: fn(HopperConfig, bool) -> HopperConfig) -> Result<()> {
        let cublas = Cublas::new(rt)?;
        let tiles = [
            clustered(HopperConfig::large()),
            stream_k_over(rt, along_n(clustered(HopperConfig::large()))),
            HopperConfig::pingpong_tma_store(),
            HopperConfig::pingpong_wide(),
        ];
        let configs: Vec<HopperConfig> = tiles
            .iter()
            .flat_map(|&c| [false, true].map(|on| switch(c, on)))
            .collect();
        for (m, n, k) in SWEEP_SHAPES {
            interleaved(rt, &cublas, (m, n, k), &configs)?;
        }
        Ok(())
    }

    /// Ping-pong tiles whose width makes the tile count nearly a whole number of waves (as cuBLASLt's
    /// fastest kernels at these shapes, `nvjet_sm90_tst_112x128` and `_176x128`, run145): 128x112 (4096³:
    /// 1,184 tiles, 8.97 waves of 132) and 128x176 (1024x8192x8192: 376 tiles, 2.85 waves), alone and in
    /// 2-CTA clusters, against the plan's clustered 128x256 and the clustered ping-pong 128x128. Their
    /// widths are not multiples of 64, so they take the direct epilogue.
    fn wave_filling(rt: &Runtime) -> Result<()> {
        let cublas = Cublas::new(rt)?;
        let pingpong = |bn, stages| HopperConfig {
            bn,
            stages,
            ..HopperConfig::pingpong()
        };
        let configs = [
            clustered(HopperConfig::large()),
            clustered(HopperConfig::pingpong_tma_store()),
            pingpong(112, 7),
            clustered(pingpong(112, 7)),
            pingpong(176, 5),
            clustered(pingpong(176, 5)),
        ];
        for (m, n, k) in [
            (4096, 4096, 4096),
            (1024, 8192, 8192),
            (2048, 2048, 2048),
            (8192, 8192, 8192),
        ] {
            interleaved(rt, &cublas, (m, n, k), &configs)?;
        }
        Ok(())
    }

    /// The narrow (decode) tiles' pipeline depth: 8 stages, the plan's (16, or 12 for 64 columns), and as
    /// many as fit in shared memory (more bytes of the streamed operand in flight per SM), memory-bound
    /// shapes of one wave and of more.
    fn narrow_stages(rt: &Runtime) -> Result<()> {
        let cublas = Cublas::new(rt)?;
        for (m, n, k) in [
            (8192, 16, 8192),
            (8192, 32, 8192),
            (8192, 64, 8192),
            (28672, 16, 4096),
        ] {
            let tile = cute_gpu::matmul::plan::sm90_narrow_config(n).expect("narrow");
            let fit = (0..=64u32)
                .rev()
                .find(|&stages| HopperConfig { stages, ..tile }.smem_bytes() <= 232448)
                .expect("one stage fits");
            let configs = [8, tile.stages, fit].map(|stages| HopperConfig { stages, ..tile });
            interleaved(rt, &cublas, (m, n, k), &configs)?;
        }
        Ok(())
    }

    /// The plan's tile of two short-M shapes (one wave of two tile rows, 64 or 128 rows each, so that each
    /// B tile is read by two CTAs) alone and in 2-CTA clusters, which multicast B to the pair (medians of
    /// interleaved rounds, against cublasGemmEx).
    fn narrow_clusters(rt: &Runtime) -> Result<()> {
        let cublas = Cublas::new(rt)?;
        for (m, n, k) in [(128, 8192, 8192), (256, 8192, 8192)] {
            let tile = cute_gpu::matmul::plan::sm90_config(m, n, 2 * n, rt.sm_count());
            // the plan's tiles of run175: one consumer storing from its registers
            let tile = HopperConfig {
                cluster: 1,
                consumers: 1,
                tma_store: false,
                ..tile
            };
            interleaved(rt, &cublas, (m, n, k), &[tile, clustered(tile)])?;
        }
        Ok(())
    }

    /// Tiles of short-M shapes on the same CTA count: at 128x8192x8192 64x128 storing from its registers
    /// (one consumer; the plan's before run180) against 128x64 with two consumers (lost 3.5-4 % in
    /// run176) and against 64x128 with the TMA-store epilogue (the plan's since run180); at
    /// 256x8192x8192 one consumer of 128x128 against two (the plan's since run177, with the TMA-store
    /// epilogue); at 1024x8192x8192 the plan's clustered 128x256 against the two-consumer
    /// 128x128 alone and in clusters (medians of interleaved rounds, against cublasGemmEx).
    fn short_m(rt: &Runtime) -> Result<()> {
        let cublas = Cublas::new(rt)?;
        let plan = |m: i64, n: i64| cute_gpu::matmul::plan::sm90_config(m, n, 2 * n, rt.sm_count());
        let stored = |c: HopperConfig| HopperConfig {
            tma_store: true,
            ..c
        };
        let narrow = HopperConfig {
            tma_store: false,
            ..plan(128, 8192)
        };
        let wide = HopperConfig {
            bm: 128,
            bn: 64,
            consumers: 2,
            ..narrow
        };
        interleaved(
            rt,
            &cublas,
            (128, 8192, 8192),
            &[narrow, wide, stored(narrow)],
        )?;
        let square = plan(256, 8192);
        let one = HopperConfig {
            consumers: 1,
            tma_store: false,
            ..square
        };
        interleaved(rt, &cublas, (256, 8192, 8192), &[one, square])?;
        let large = clustered(plan(1024, 8192));
        interleaved(
            rt,
            &cublas,
            (1024, 8192, 8192),
            &[large, square, clustered(square)],
        )?;
        Ok(())
    }

    /// The raster along M (the default) against along N for the clustered 128x256 and ping-pong 128x128
    /// tiles, stream-K's clustered 128x256 and the ping-pong 128x192, on the sweep's shapes (`ONLY_4096`
    /// in the environment: 4096³ only, for ncu).
    fn rasters(rt: &Runtime) -> Result<()> {
        let cublas = Cublas::new(rt)?;
        let tiles = [
            clustered(HopperConfig::large()),
            clustered(HopperConfig::pingpong_tma_store()),
            stream_k_over(rt, clustered(HopperConfig::large())),
            HopperConfig::pingpong_wide(),
        ];
        let configs: Vec<HopperConfig> = tiles.iter().flat_map(|&c| [c, along_n(c)]).collect();
        let only = std::env::var("ONLY_4096").is_ok();
        for (m, n, k) in SWEEP_SHAPES.into_iter().filter(|s| !only || s.0 == 4096) {
            interleaved(rt, &cublas, (m, n, k), &configs)?;
        }
        Ok(())
    }

    /// Stream-K against the same tiles without it: the sweep's shapes with the 128x256 tile (also in 2-CTA
    /// clusters, and the ping-pong 128x192 the plan takes for short mainloops), 2048³ with 128x128 (and the ping-pong
    /// 128x128 the tuner liked there), decode-like shapes (11008 or 14336 rows of 64-row tiles, 16 or 32
    /// columns: a ragged last wave of narrow tiles).
    fn stream_k_ab(rt: &Runtime) -> Result<()> {
        let cublas = Cublas::new(rt)?;
        let sk = |c| stream_k_over(rt, c);
        let large = HopperConfig::large();
        let small = sm90_persistent_tma_store();
        let wide = HopperConfig::pingpong_wide();
        for (m, n, k) in SWEEP_SHAPES {
            let clustered_sk = sk(clustered(large));
            interleaved(
                rt,
                &cublas,
                (m, n, k),
                &[large, sk(large), clustered_sk, wide],
            )?;
        }
        let pingpong = HopperConfig::pingpong_tma_store();
        interleaved(
            rt,
            &cublas,
            (2048, 2048, 2048),
            &[small, sk(small), pingpong],
        )?;
        for (m, n) in [(11008, 16), (11008, 32), (14336, 16)] {
            let narrow = cute_gpu::matmul::plan::sm90_narrow_config(n).expect("narrow");
            interleaved(rt, &cublas, (m, n, 4096), &[narrow, sk(narrow)])?;
        }
        Ok(())
    }

    /// `configs` on one bf16 problem, and cublasGemmEx, on uniform [-1, 1) data: interleaved rounds in
    /// rotating order, each timed sample after an untimed one of the same kernel (`settled_ms`; runs
    /// 98-101 timed without), medians (TFLOP/s) and the largest relative difference from cuBLAS.
    fn interleaved(
        rt: &Runtime,
        cublas: &Cublas,
        (m, n, k): (i64, i64, i64),
        configs: &[HopperConfig],
    ) -> Result<()> {
        let p = HopperProblem::padded(m, n, k);
        let mut rng = Rng(m as u64 + 3 * n as u64 + 7 * k as u64);
        let (a, b) = (
            rng.uniforms(DType::BF16, p.a_len() as usize),
            rng.uniforms(DType::BF16, p.b_len() as usize),
        );
        let mut g = DeviceGemm::new(rt, DType::BF16, p, &a, &b)?;
        let iters = sample_calls(sample_tflop(20.0)?, g.flops());
        let kernels = configs
            .iter()
            .map(|c| generate_hopper_gemm(&p, DType::BF16, DType::BF16, c))
            .collect::<Result<Vec<_>>>()?;
        let workspace = stream_k_workspace(rt, &kernels)?;
        let prepared = kernels
            .iter()
            .map(|k| rt.prepare(k, &with_workspace(rt, k, g.abd(rt).to_vec(), &workspace)))
            .collect::<Result<Vec<_>>>()?;
        let nk = kernels.len();
        let mut times = vec![Vec::new(); nk + 1];
        // rounds starting one kernel later each: every kernel runs in every position of a round
        // (the GPU's clock falls as a round heats it)
        for round in 0..2 * nk.max(4) {
            times[nk].push(g.time_cublas(rt, cublas, iters, iters)?);
            for i in (0..nk).map(|i| (i + round) % nk) {
                times[i].push(g.tflops(settled_ms(rt, iters, || rt.run(&prepared[i]))?));
            }
        }
        let lt = median(&times[nk]);
        println!("{m}x{n}x{k}: cublasGemmEx {lt:.0} TFLOP/s");
        for (i, b) in prepared.iter().enumerate() {
            rt.run(b)?;
            let diff = g.max_rel_diff(rt)?;
            let tf = median(&times[i]);
            println!(
                "  {}: {tf:.0} TFLOP/s ({:.3} of cuBLAS; grid {}; max rel diff {diff:.2e})",
                kernels[i].name,
                tf / lt,
                b.grid().0
            );
        }
        Ok(())
    }

    /// Exactness on small integers: f32 outputs equal the exact sums, 16-bit outputs their correct rounding.
    fn check(rt: &Runtime, small: bool, tiny: bool) -> Result<()> {
        let majors = [
            (Major::K, Major::K),
            (Major::MN, Major::K),
            (Major::K, Major::MN),
            (Major::MN, Major::MN),
        ];
        let types = [
            (DType::BF16, DType::F32),
            (DType::F16, DType::F16),
            (DType::BF16, DType::BF16),
        ];
        let mut failed = 0;
        for (m, n, k) in check_sizes(small, tiny) {
            for (am, bm) in majors {
                let p = HopperProblem::padded(m, n, k).with_majors(am, bm);
                for (tin, tout) in types {
                    failed += check_problem(rt, &p, tin, tout)?;
                }
            }
        }
        if failed > 0 {
            return Err(GpuError::CheckFailed(format!("{failed} checks failed")));
        }
        println!("check: all exact");
        Ok(())
    }

    /// The points of D checked: everything up to 1000^3, else the edges and 20000 random points.
    fn check_points(p: &HopperProblem) -> Vec<(i64, i64)> {
        let (m, n) = (p.m, p.n);
        if m * n <= 1_100_000 && m * n * p.k <= 1_100_000_000 {
            return all_points(m, n);
        }
        edge_points((m, n), &[0, m - 1], &[0, n - 1], 1, 20000, &mut Rng(3))
    }

    /// Checks every configuration of one problem and type pair; returns the number of failures.
    fn check_problem(rt: &Runtime, p: &HopperProblem, tin: DType, tout: DType) -> Result<usize> {
        let (ah, bh) = inputs(p, tin, 7);
        let (af, bf) = (decode(tin, &ah), decode(tin, &bh));
        let (da, db) = (rt.upload(&ah)?, rt.upload(&bh)?);
        let reference = ReferenceGemm::from_majors(
            (p.m, p.n, p.k),
            (&af, p.a_major, p.lda),
            (&bf, p.b_major, p.ldb),
        );
        let pts = check_points(p);
        let exp: Vec<f32> = pts
            .iter()
            .map(|&(i, j)| reference.at(i, j) as f32)
            .collect();
        let mut failed = 0;
        // `check cl4`: only the configurations in 4-CTA clusters
        let only_quads = std::env::args().any(|a| a == "cl4");
        for cfg in check_configs(p)
            .into_iter()
            .filter(|c| !only_quads || c.cluster == 4)
        {
            let kern = generate_hopper_gemm(p, tin, tout, &cfg)?;
            let (bad, pad_bad) = if tout == DType::F32 {
                let out = run_once(rt, p, &kern, &da, &db, f32::NAN)?;
                compare(p, &out, &pts, &exp, |e| e, |x| x.is_nan())
            } else {
                let out = run_once(rt, p, &kern, &da, &db, 0x7fffu16)?;
                compare(p, &out, &pts, &exp, |e| from_f32(tout, e), |&h| h == 0x7fff)
            };
            if pad_bad > 0 {
                println!("  {} wrote {pad_bad} padding elements", kern.name);
                failed += 1;
            }
            print_check(rt, p, &kern, (tin, tout), pts.len(), bad)?;
            if bad > 0 {
                failed += 1;
            }
        }
        Ok(failed)
    }

    /// Runs a kernel once on D filled with `fill` and downloads D.
    fn run_once<T>(
        rt: &Runtime,
        p: &HopperProblem,
        kern: &Kernel,
        da: &DeviceBuffer<u16>,
        db: &DeviceBuffer<u16>,
        fill: T,
    ) -> Result<Vec<T>>
    where
        T: cudarc::driver::DeviceRepr + Default + Clone,
    {
        let dd = rt.upload(&vec![fill; (p.m * p.ldd) as usize])?;
        let workspace = stream_k_workspace(rt, std::slice::from_ref(kern))?;
        let buffers = vec![rt.bind(da), rt.bind(db), rt.bind(&dd)];
        let b = rt.prepare(kern, &with_workspace(rt, kern, buffers, &workspace))?;
        rt.run(&b)?;
        rt.sync()?;
        rt.download(&dd)
    }

    /// (points where `out` differs from `encode(expected)`, padding columns not `untouched`).
    fn compare<T: PartialEq>(
        p: &HopperProblem,
        out: &[T],
        pts: &[(i64, i64)],
        exp: &[f32],
        encode: impl Fn(f32) -> T,
        untouched: impl Fn(&T) -> bool,
    ) -> (usize, usize) {
        let at = |i: i64, j: i64| &out[(i * p.ldd + j) as usize];
        let bad = pts
            .iter()
            .zip(exp)
            .filter(|&(&(i, j), &e)| *at(i, j) != encode(e))
            .count();
        let pad_bad = (0..p.m)
            .flat_map(|i| (p.n..p.ldd).map(move |j| (i, j)))
            .filter(|&(i, j)| !untouched(at(i, j)))
            .count();
        (bad, pad_bad)
    }

    fn print_check(
        rt: &Runtime,
        p: &HopperProblem,
        kern: &Kernel,
        (tin, tout): (DType, DType),
        points: usize,
        bad: usize,
    ) -> Result<()> {
        let l = rt.load(kern)?;
        println!(
            "check {}x{}x{} {} {tin:?}->{tout:?} {}: {points} points, {bad} wrong ({} regs, {} B local, compile {:.0} ms) {}",
            p.m,
            p.n,
            p.k,
            p.majors_tag(),
            kern.name,
            l.registers,
            l.local_bytes,
            l.compile_s * 1e3,
            if bad == 0 { "OK" } else { "FAIL" }
        );
        Ok(())
    }

    /// The benchmark's configurations (`quick`: the large one).
    fn bench_configs(quick: bool) -> Vec<HopperConfig> {
        let large = HopperConfig::large();
        if quick {
            return vec![large];
        }
        vec![
            HopperConfig {
                persistent: true,
                stages: 6,
                ..HopperConfig::default()
            },
            sm90_persistent_tma_store(),
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
    }

    /// Every configuration and the ping-pong ones on the shapes where the tile choice is in doubt (small
    /// K, wide N), bf16: one line per kernel.
    fn sweep(rt: &Runtime) -> Result<()> {
        let cublas = Cublas::new(rt)?;
        let pingpong = HopperConfig::pingpong();
        let mut configs = bench_configs(false);
        configs.extend([
            pingpong,
            HopperConfig {
                stages: 4,
                ..pingpong
            },
            HopperConfig {
                bn: 192,
                stages: 4,
                ..pingpong
            },
            HopperConfig {
                tma_store: true,
                ..pingpong
            },
            HopperConfig {
                tma_store: true,
                stages: 5,
                ..pingpong
            },
            HopperConfig {
                tma_store: true,
                bn: 192,
                stages: 4,
                ..pingpong
            },
        ]);
        for (m, n, k) in SWEEP_SHAPES {
            let p = HopperProblem::padded(m, n, k);
            let (a, b) = inputs(&p, DType::BF16, 1);
            let mut g = DeviceGemm::new(rt, DType::BF16, p, &a, &b)?;
            let cublas_tf = g.time_cublas(rt, &cublas, 5, 30)?;
            bench_problem(rt, &g, &configs, 30, cublas_tf)?;
        }
        Ok(())
    }

    /// TFLOP/s of every configuration against cuBLAS (results equal to cuBLAS's at sampled points).
    fn bench(rt: &Runtime, quick: bool) -> Result<()> {
        let cublas = Cublas::new(rt)?;
        let configs = bench_configs(quick);
        let (dts, sizes) = if quick {
            (vec![DType::BF16], vec![(8192, 8192, 8192)])
        } else {
            let mut sizes = BENCH_SIZES.to_vec();
            sizes.push((8192, 128, 8192));
            (vec![DType::F16, DType::BF16], sizes)
        };
        let mut table = Vec::new();
        for dt in dts {
            for &(m, n, k) in &sizes {
                let p = HopperProblem::padded(m, n, k);
                let (a, b) = inputs(&p, dt, 1);
                let mut g = DeviceGemm::new(rt, dt, p, &a, &b)?;
                let iters = if m * n * k >= 8192 * 8192 * 8192 {
                    20
                } else {
                    50
                };
                let cublas_tf = g.time_cublas(rt, &cublas, 5, iters)?;
                let best = bench_problem(rt, &g, &configs, iters, cublas_tf)?;
                let what = format!("{} {m}x{n}x{k}", format!("{dt:?}").to_lowercase());
                table.push(Row::versus(what, best, cublas_tf, None));
            }
        }
        let header = ["GEMM (TFLOP/s)", "ours", "cuBLAS", "ratio", "best kernel"];
        print_table(header, &table);
        Ok(())
    }

    /// Times every configuration on `g`'s buffers; the best, its kernel's name in backquotes.
    fn bench_problem(
        rt: &Runtime,
        g: &DeviceGemm,
        configs: &[HopperConfig],
        iters: usize,
        cublas_tf: f64,
    ) -> Result<Best> {
        let mut best = Best::default();
        for cfg in configs {
            let kern = match generate_hopper_gemm(&g.problem, g.dtype, g.dtype, cfg) {
                Ok(k) => k,
                Err(e) => {
                    println!("  skip {cfg:?}: {e}");
                    continue;
                }
            };
            let b = rt.prepare(&kern, &g.abd(rt))?;
            let l = b.loaded();
            let ms = rt.time_ms(5, iters, || rt.run(&b))?;
            let bad = g.differing(rt)?;
            let tf = g.tflops(ms);
            let (dt, p) = (g.dtype, &g.problem);
            println!(
                "  {dt:?} {}x{}x{} {}: {tf:.0} TFLOP/s ({ms:.3} ms; cuBLAS {cublas_tf:.0}; {} regs; NVRTC {:.0} ms; {bad} differ from cuBLAS)",
                p.m,
                p.n,
                p.k,
                kern.name,
                l.registers,
                l.compile_s * 1e3
            );
            if bad > 0 {
                return Err(GpuError::CheckFailed(format!(
                    "{} disagrees with cuBLAS at {bad} points",
                    kern.name
                )));
            }
            best.offer(tf, || format!("`{}`", kern.name));
        }
        Ok(best)
    }
}
