//! The GEMM call on a GPU against a CPU reference: every path the heuristic takes (SM90, SM80, fallback),
//! column-major D, batches, beta with C and in place, K = 0, and bad input rejected before any launch.
//! Small-integer data, so f32 outputs are exact. Without a GPU: a loud SKIP (a failure with
//! `CUTE_REQUIRE_GPU=1`).

#[cfg(not(feature = "cuda"))]
#[test]
fn matmul_run_tests_need_the_cuda_feature() {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "\n***** SKIP matmul run tests: built without --features cuda *****\n"
    );
}

#[cfg(feature = "cuda")]
mod common;

#[cfg(feature = "cuda")]
mod matmul_run {
    use super::common;
    use cudarc::driver::{CudaSlice, CudaStream};
    use cute_gpu::emit::flat_modes;
    use cute_gpu::host::Rng;
    use cute_gpu::matmul::{Activation, Bias, BiasKind, Epilogue, Gemm, Matrix, MatrixMut};
    use cute_layout_core::Layout;
    use half::bf16;
    use std::sync::Arc;

    fn stream(test: &str) -> Option<Arc<CudaStream>> {
        common::gpu_stream(test)
    }

    /// The stream, a GEMM handle on it, and whether the device takes the SM90 path; `None` without a GPU.
    fn handle(test: &str) -> Option<(Arc<CudaStream>, Gemm, bool)> {
        let s = stream(test)?;
        let gemm = Gemm::new(&s).unwrap();
        let hopper = gemm.runtime().arch().starts_with("sm_90");
        Some((s, gemm, hopper))
    }

    /// Element offset of (i, j, batch) in a rank-2 or rank-3 layout.
    fn offset(l: &Layout, i: i64, j: i64, b: i64) -> usize {
        Strides::of(l).at(i, j, b)
    }

    /// The strides of a rank-2 or rank-3 layout (batch stride 0 for rank 2), for the reference's loops.
    #[derive(Clone, Copy)]
    struct Strides([i64; 3]);

    impl Strides {
        fn of(l: &Layout) -> Strides {
            let m = flat_modes(l).unwrap();
            let s = |x: usize| m.get(x).map_or(0, |y| y.1.value);
            Strides([s(0), s(1), s(2)])
        }
        fn at(self, i: i64, j: i64, b: i64) -> usize {
            (i * self.0[0] + j * self.0[1] + b * self.0[2]) as usize
        }
    }

    fn dims(l: &Layout) -> (i64, i64, i64) {
        let m = flat_modes(l).unwrap();
        (
            m[0].0.value,
            m[1].0.value,
            m.get(2).map_or(1, |x| x.0.value),
        )
    }

    fn cosize(l: &Layout) -> usize {
        cute_layout_core::cosize(l).unwrap().value as usize
    }

    struct Case {
        a: Layout,
        b: Layout,
        d: Layout,
        c: Option<Layout>,
        alpha: f32,
        beta: f32,
        bias: BiasKind,
        act: Activation,
    }

    fn case(a: &str, b: &str, d: &str) -> Case {
        Case {
            a: common::l(a),
            b: common::l(b),
            d: common::l(d),
            c: None,
            alpha: 1.0,
            beta: 0.0,
            bias: BiasKind::None,
            act: Activation::None,
        }
    }

    /// erf by Abramowitz and Stegun 7.1.26 (|error| < 1.5e-7), for the GELU reference.
    /// `c` with the whole fused epilogue: `D = gelu(0.5 A·B + 2 C + bias per column)`, C on `c_layout`.
    fn fused_with_c(mut c: Case, c_layout: &str) -> Case {
        c.c = Some(common::l(c_layout));
        (c.alpha, c.beta) = (0.5, 2.0);
        (c.bias, c.act) = (BiasKind::PerColumn, Activation::Gelu);
        c
    }

    fn erf(x: f64) -> f64 {
        let t = 1.0 / (1.0 + 0.3275911 * x.abs());
        let p = t
            * (0.254829592
                + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
        (1.0 - p * (-x * x).exp()).copysign(x)
    }

    fn activate(act: Activation, v: f64) -> f64 {
        match act {
            Activation::None => v,
            Activation::Relu => v.max(0.0),
            Activation::Gelu => 0.5 * v * (1.0 + erf(v / 2f64.sqrt())),
            Activation::Silu => v / (1.0 + (-v).exp()),
        }
    }

    /// Runs `c` on the GPU (D starts as small integers too, for the in-place beta) and compares with the
    /// reference computed here; returns the path taken and the launches per call.
    fn check(gemm: &Gemm, s: &Arc<CudaStream>, c: &Case) -> (&'static str, i64) {
        let mut rng = Rng(7);
        let mut ints = |n: usize| {
            (0..n)
                .map(|_| rng.small_int(2) as f32)
                .collect::<Vec<f32>>()
        };
        let (ah, bh, dh) = (
            ints(cosize(&c.a).max(1)),
            ints(cosize(&c.b).max(1)),
            ints(cosize(&c.d)),
        );
        let ch = c.c.as_ref().map(|l| ints(cosize(l)));
        let to_bf = |v: &[f32]| v.iter().map(|&x| bf16::from_f32(x)).collect::<Vec<_>>();
        let da: CudaSlice<bf16> = s.clone_htod(&to_bf(&ah)).unwrap();
        let db: CudaSlice<bf16> = s.clone_htod(&to_bf(&bh)).unwrap();
        let dc: Option<CudaSlice<f32>> = ch.as_ref().map(|v| s.clone_htod(v).unwrap());
        let mut dd: CudaSlice<f32> = s.clone_htod(&dh).unwrap();
        let cm = dc
            .as_ref()
            .zip(c.c.as_ref())
            .map(|(buf, l)| Matrix::new(buf, l.clone()));
        let ((m, k, batches), n) = (dims(&c.a), dims(&c.b).1);
        let bias_h: Vec<f32> = (0..m.max(n)).map(|i| (i % 5) as f32 - 2.0).collect();
        let bias_d: CudaSlice<f32> = s.clone_htod(&bias_h).unwrap();
        let epilogue = Epilogue {
            alpha: c.alpha,
            beta: c.beta,
            bias: (c.bias != BiasKind::None).then_some(Bias {
                data: &bias_d,
                per: c.bias,
            }),
            activation: c.act,
        };
        gemm.run_fused(
            &Matrix::new(&da, c.a.clone()),
            &Matrix::new(&db, c.b.clone()),
            cm.as_ref(),
            &mut MatrixMut::new(&mut dd, c.d.clone()),
            &epilogue,
        )
        .unwrap();
        let got = s.clone_dtoh(&dd).unwrap();
        let (sa, sb) = (Strides::of(&c.a), Strides::of(&c.b));
        for l in 0..batches {
            for i in 0..m {
                for j in 0..n {
                    let acc: f64 = (0..k)
                        .map(|x| ah[sa.at(i, x, l)] as f64 * bh[sb.at(x, j, l)] as f64)
                        .sum();
                    let old = match (&ch, &c.c) {
                        (Some(v), Some(cl)) => v[offset(cl, i, j, l)],
                        _ => dh[offset(&c.d, i, j, l)],
                    };
                    let bias = match c.bias {
                        BiasKind::None => 0.0,
                        BiasKind::PerRow => bias_h[i as usize] as f64,
                        BiasKind::PerColumn => bias_h[j as usize] as f64,
                    };
                    let linear = c.alpha as f64 * acc + c.beta as f64 * old as f64 + bias;
                    let want = activate(c.act, linear);
                    let got = got[offset(&c.d, i, j, l)] as f64;
                    let tol = match c.act {
                        Activation::None => 0.0,
                        _ => 1e-4 * (1.0 + want.abs()),
                    };
                    assert!(
                        (got - want).abs() <= tol,
                        "D({i},{j},{l}) = {got}, want {want}: {}x{}x{}",
                        c.a,
                        c.b,
                        c.d
                    );
                }
            }
        }
        let p = plan_of(gemm, c);
        p.map_or(("none", 0), |p| (p.path, p.launches))
    }

    /// The plan the call of `c` ran.
    fn plan_of(gemm: &Gemm, c: &Case) -> Option<cute_gpu::matmul::plan::Plan> {
        cute_gpu::matmul::plan::plan(&request(gemm, c)).unwrap()
    }

    fn request<'a>(gemm: &'a Gemm, c: &'a Case) -> cute_gpu::matmul::plan::Request<'a> {
        cute_gpu::matmul::plan::Request {
            a: &c.a,
            b: &c.b,
            c: c.c.as_ref(),
            d: &c.d,
            input: cute_gpu::DType::BF16,
            output: cute_gpu::DType::F32,
            alpha: c.alpha,
            beta: c.beta,
            arch: gemm.runtime().arch(),
            aligned: [true; 4],
            sm_count: gemm.runtime().sm_count(),
            op: cute_gpu::piece::epilogue_op::EpilogueOp {
                bias: c.bias,
                activation: c.act,
                scale: false,
            },
            decomposition: Default::default(),
        }
    }

    #[test]
    fn every_path_against_the_reference() {
        let Some((s, gemm, hopper)) = handle("every_path_against_the_reference") else {
            return;
        };
        let fast = if hopper { "sm90" } else { "sm80" };
        let mut beta_c = case("(192,64):(64,1)", "(64,160):(1,64)", "(192,160):(160,1)");
        beta_c.c = Some(common::l("(192,160):(160,1)"));
        (beta_c.alpha, beta_c.beta) = (2.0, 0.5);
        let mut in_place = case("(130,72):(72,1)", "(72,136):(136,1)", "(130,136):(136,1)");
        in_place.beta = 1.0;
        let mut k0 = case("(64,0):(8,1)", "(0,64):(1,8)", "(64,64):(64,1)");
        k0.c = Some(common::l("(64,64):(64,1)"));
        k0.beta = 0.5;
        let fused = |mut x: Case, bias, act, (alpha, beta)| {
            (x.bias, x.act, x.alpha, x.beta) = (bias, act, alpha, beta);
            x
        };
        let mut gelu_c = case(
            "(256,128):(128,1)",
            "(128,384):(1,128)",
            "(256,384):(384,1)",
        );
        gelu_c.c = Some(common::l("(256,384):(384,1)"));
        let sm80 = if hopper { "sm90" } else { "sm80" };
        let cases = [
            (
                fused(
                    case(
                        "(256,128):(128,1)",
                        "(128,384):(1,128)",
                        "(256,384):(384,1)",
                    ),
                    BiasKind::PerColumn,
                    Activation::Relu,
                    (1.0, 0.0),
                ),
                fast,
            ),
            (
                fused(gelu_c, BiasKind::PerRow, Activation::Gelu, (0.5, 2.0)),
                fast,
            ),
            (
                fused(
                    case("(200,72):(1,200)", "(72,136):(136,1)", "(200,136):(1,200)"),
                    BiasKind::PerRow,
                    Activation::Silu,
                    (1.0, 0.0),
                ),
                fast,
            ),
            (
                fused(
                    case("(100,101):(101,1)", "(101,50):(1,101)", "(100,50):(50,1)"),
                    BiasKind::PerColumn,
                    Activation::Gelu,
                    (1.0, 0.0),
                ),
                "simt",
            ),
            (
                case(
                    "(256,128):(128,1)",
                    "(128,384):(1,128)",
                    "(256,384):(384,1)",
                ),
                fast,
            ),
            (
                case("(200,72):(1,200)", "(72,136):(136,1)", "(200,136):(1,200)"),
                fast,
            ),
            (
                case("(100,101):(101,1)", "(101,50):(1,101)", "(100,50):(50,1)"),
                "simt",
            ),
            (
                case(
                    "(64,32,3):(32,1,2048)",
                    "(32,128,3):(1,32,4096)",
                    "(64,128,3):(128,1,8192)",
                ),
                fast,
            ),
            (beta_c, sm80),
            (in_place, sm80),
            (k0, "simt"),
        ];
        for (c, path) in &cases {
            assert_eq!(check(&gemm, &s, c).0, *path, "{} {} {}", c.a, c.b, c.d);
        }
    }

    /// Strided batches: on sm_90 one launch runs every batch (3-D tensor maps, the tiles of all batches in
    /// one schedule); shared operands (batch stride 0), odd sizes, beta * C with its own batch, bias, a
    /// column-major D (the transposed problem).
    #[test]
    fn strided_batches_in_one_launch() {
        let Some(s) = stream("strided_batches_in_one_launch") else {
            return;
        };
        let gemm = Gemm::new(&s).unwrap();
        let hopper = gemm.runtime().arch().starts_with("sm_90");
        let fused = fused_with_c(
            case(
                "(100,64,4):(64,1,6400)",
                "(64,72,4):(1,64,0)",
                "(100,72,4):(72,1,7200)",
            ),
            "(100,72,4):(72,1,7208)",
        );
        let cases = [
            case(
                "(64,32,3):(32,1,2048)",
                "(32,128,3):(1,32,4096)",
                "(64,128,3):(128,1,8192)",
            ),
            fused,
            case(
                "(96,48,3):(48,1,4608)",
                "(48,80,3):(80,1,3840)",
                "(96,80,3):(1,96,7680)",
            ),
            // enough tiles for the 128x256 TMA-store kernel (a 3-D map of D)
            case(
                "(256,64,32):(64,1,16384)",
                "(64,512,32):(1,64,32768)",
                "(256,512,32):(512,1,131072)",
            ),
            case(
                "(64,32,2):(32,1,0)",
                "(32,136,2):(1,32,4352)",
                "(64,136,2):(136,1,8704)",
            ),
            // 16 batches of 32 tiles of 128x256 (the 3-D TMA store of D), short K
            case(
                "(1024,64,16):(64,1,65536)",
                "(64,1024,16):(1,64,65536)",
                "(1024,1024,16):(1024,1,1048576)",
            ),
        ];
        for c in &cases {
            let (path, launches) = check(&gemm, &s, c);
            if hopper {
                assert_eq!((path, launches), ("sm90", 1), "{} {} {}", c.a, c.b, c.d);
            }
        }
    }

    /// Split-K on sm_90: small outputs with long K run K in slices summed in the GEMM (each warp's last
    /// slice adds the others' through the f32 workspace) or, on a third handle, by a second kernel, and
    /// alpha, beta * C, bias and the activation apply to the sum; MN-major operands step their slices by
    /// K * ld, a column-major D is the transposed problem; odd N (the workspace's rows padded to 4).
    #[test]
    fn split_k_slices_and_the_reduction() {
        let Some(s) = stream("split_k_slices_and_the_reduction") else {
            return;
        };
        let gemm = Gemm::new(&s).unwrap();
        let hopper = gemm.runtime().arch().starts_with("sm_90");
        let fused = fused_with_c(
            case(
                "(64,8192):(8192,1)",
                "(8192,136):(1,8192)",
                "(64,136):(136,1)",
            ),
            "(64,136):(136,1)",
        );
        let cases = [
            case(
                "(128,4096):(4096,1)",
                "(4096,256):(1,4096)",
                "(128,256):(256,1)",
            ),
            fused,
            case("(64,8192):(1,64)", "(8192,130):(136,1)", "(64,130):(136,1)"),
            case("(72,8192):(8192,1)", "(8192,64):(1,8192)", "(72,64):(1,72)"),
        ];
        let gemm2 = Gemm::new(&s).unwrap();
        let two_launches = Gemm::new(&s)
            .unwrap()
            .with_decomposition(cute_gpu::matmul::plan::Decomposition::SplitKReduceKernel);
        let handles = [&gemm, &gemm2, &two_launches];
        for (round, (i, c)) in (0..2).flat_map(|r| cases.iter().enumerate().map(move |x| (r, x))) {
            // twice on each of two handles: the second call reuses the workspace, the counters and
            // the bindings
            let g = handles[(i + round) % 3];
            check(g, &s, c);
            let (path, launches) = check(g, &s, c);
            let splits = plan_of(g, c).and_then(|p| p.split_k).map(|s| s.splits);
            if hopper {
                assert_eq!((path, launches), ("sm90", 1), "{} {} {}", c.a, c.b, c.d);
                assert!(
                    splits.is_some_and(|x| x >= 2),
                    "{} {} {}: {splits:?}",
                    c.a,
                    c.b,
                    c.d
                );
            }
        }
        // the same handles afterwards: plans without split-K write their own D, not the workspace
        let plain = case(
            "(256,128):(128,1)",
            "(128,384):(1,128)",
            "(256,384):(384,1)",
        );
        for g in [&gemm, &gemm2] {
            check(g, &s, &plain);
            assert!(plan_of(g, &plain).is_some_and(|p| p.split_k.is_none()));
        }
    }

    /// A narrow side (decode-like: at most 64 rows or columns): rows as the wgmma's N, with D
    /// column-major in the kernel's view where M is the narrow side (`_dT`); the fused epilogue's C and
    /// bias in that orientation; K in slices where the tiles leave most SMs idle.
    #[test]
    fn narrow_sides_against_the_reference() {
        let Some((s, gemm, hopper)) = handle("narrow_sides_against_the_reference") else {
            return;
        };
        let rows = |m: i64, n: i64, k: i64| {
            let ld = (n + 7) / 8 * 8;
            case(
                &format!("({m},{k}):({k},1)"),
                &format!("({k},{n}):(1,{k})"),
                &format!("({m},{n}):({},1)", ld + 8),
            )
        };
        let mut cases = vec![];
        for m in [1, 16, 17, 40, 64] {
            cases.push((rows(m, 300, 200), true));
        }
        cases.push((rows(16, 4100, 1024), true));
        let fused = rows(24, 300, 136);
        let d = fused.d.to_string();
        cases.push((fused_with_c(fused, &d), true));
        // K slices (5 tiles: K = 4096 in 8 slices; 65 tiles: 1024 in 2) with the whole fused epilogue
        let sliced = rows(24, 300, 4096);
        let d = sliced.d.to_string();
        cases.push((fused_with_c(sliced, &d), true));
        let mut per_row = rows(16, 260, 64);
        (per_row.bias, per_row.act, per_row.alpha) = (BiasKind::PerRow, Activation::Relu, 2.0);
        cases.push((per_row, true));
        // D column-major with 16 rows: its transpose is narrow along N, no transposition in the kernel
        cases.push((
            case("(16,200):(200,1)", "(200,300):(1,200)", "(16,300):(1,16)"),
            false,
        ));
        cases.push((
            case(
                "(16,4096):(4096,1)",
                "(4096,300):(1,4096)",
                "(16,300):(1,16)",
            ),
            false,
        ));
        for (c, transposed) in &cases {
            let (path, _) = check(&gemm, &s, c);
            if hopper {
                let name = plan_of(&gemm, c).unwrap().kernel.name;
                assert_eq!(path, "sm90", "{}", c.d);
                assert_eq!(name.contains("_dT"), *transposed, "{name}: {}", c.d);
                assert!(
                    name.contains("_64x") && !name.contains("_64x128x"),
                    "{name}"
                );
                let k = dims(&c.a).1;
                let splits = plan_of(&gemm, c).unwrap().split_k.map(|s| s.splits);
                assert_eq!(splits.is_some(), k >= 1024, "{name}: {splits:?}");
            }
        }
    }

    /// Stream-K forced: outputs of more tiles than SMs, so that tiles are cut between CTAs (the partial
    /// sums through the workspace, their flags reused by every call), with the fused epilogue, narrow and
    /// transposed, batched; and the heuristic's choice on a ragged last wave.
    #[test]
    fn stream_k_against_the_reference() {
        let Some((s, _, hopper)) = handle("stream_k_against_the_reference") else {
            return;
        };
        use cute_gpu::matmul::plan::{Decomposition, Request};
        let gemm = Gemm::new(&s)
            .unwrap()
            .with_decomposition(Decomposition::StreamK);
        let plain = case(
            "(1000,300):(304,1)",
            "(300,1000):(1,304)",
            "(1000,1000):(1000,1)",
        );
        let fused = fused_with_c(
            case(
                "(700,136):(136,1)",
                "(136,900):(1,136)",
                "(700,900):(904,1)",
            ),
            "(700,900):(904,1)",
        );
        let narrow = case(
            "(16,256):(256,1)",
            "(256,9600):(1,256)",
            "(16,9600):(9600,1)",
        );
        let batched = case(
            "(256,128,4):(128,1,32768)",
            "(128,512,4):(1,128,65536)",
            "(256,512,4):(512,1,131072)",
        );
        // 256 tiles of 128x256: the heuristic's 2-CTA clusters, whose clusters share the k-blocks
        let clustered = case(
            "(4096,256):(256,1)",
            "(256,2048):(1,256)",
            "(4096,2048):(2048,1)",
        );
        for c in [
            &plain, &plain, &plain, &fused, &narrow, &batched, &clustered,
        ] {
            check(&gemm, &s, c);
            if hopper {
                let r = Request {
                    decomposition: Decomposition::StreamK,
                    ..request(&gemm, c)
                };
                let name = cute_gpu::matmul::plan::plan(&r)
                    .unwrap()
                    .unwrap()
                    .kernel
                    .name;
                assert!(name.contains("_sk"), "{name}: {}", c.d);
                if std::ptr::eq(c, &clustered) {
                    assert!(name.contains("_cl2"), "{name}");
                }
            }
        }
        // the heuristic's choice for 172 narrow tiles of 32 k-blocks (a last wave of 40 on 132 SMs)
        let (s2, default, _) = handle("stream_k_against_the_reference").unwrap();
        let decode = case(
            "(16,2048):(2048,1)",
            "(2048,11008):(1,2048)",
            "(16,11008):(11008,1)",
        );
        check(&default, &s2, &decode);
        if hopper && default.runtime().sm_count() == 132 {
            let name = plan_of(&default, &decode).unwrap().kernel.name;
            assert!(name.contains("_sk132_dT"), "{name}");
        }
    }

    #[test]
    fn the_autotuner_picks_a_kernel_and_remembers_it() {
        let Some(s) = stream("the_autotuner_picks_a_kernel_and_remembers_it") else {
            return;
        };
        let dir = std::env::temp_dir().join(format!("cute-autotune-{}", std::process::id()));
        // SAFETY: tests in this binary run on one thread (--test-threads=1 on the GPU machine).
        unsafe { std::env::set_var("CUTE_CACHE_DIR", &dir) };
        let c = case(
            "(512,256):(256,1)",
            "(256,384):(1,256)",
            "(512,384):(384,1)",
        );
        let tuned = Gemm::new(&s).unwrap().autotune().unwrap();
        let path = check(&tuned, &s, &c);
        let table = std::fs::read_to_string(dir.join("autotune.tsv")).unwrap();
        assert_eq!(table.lines().count(), 1, "{table}");
        assert!(table.contains("\tcute_"), "{table}");
        // a second handle reads the choice instead of timing again, and computes the same D
        let again = Gemm::new(&s).unwrap().autotune().unwrap();
        assert_eq!(check(&again, &s, &c), path);
        assert_eq!(
            std::fs::read_to_string(dir.join("autotune.tsv")).unwrap(),
            table
        );
        unsafe { std::env::remove_var("CUTE_CACHE_DIR") };
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Every kernel the tuner chooses among computes D exactly (2-CTA clusters, split-K, ping-pong, the
    /// mma.sync ones): each alternative forced through the tuner's on-disk table.
    #[test]
    fn every_alternative_of_the_tuner_is_exact() {
        let Some(s) = stream("every_alternative_of_the_tuner_is_exact") else {
            return;
        };
        let dir = std::env::temp_dir().join(format!("cute-alternatives-{}", std::process::id()));
        let tsv = dir.join("autotune.tsv");
        // SAFETY: tests in this binary run on one thread (--test-threads=1 on the GPU machine).
        unsafe { std::env::set_var("CUTE_CACHE_DIR", &dir) };
        // three 128-row tiles (a cluster pairs the last with an empty one), a fused epilogue; a batch
        let mut fused = case(
            "(320,128):(128,1)",
            "(128,384):(1,128)",
            "(320,384):(384,1)",
        );
        (fused.bias, fused.act) = (BiasKind::PerRow, Activation::Relu);
        let batched = case(
            "(192,64,3):(64,1,12288)",
            "(64,256,3):(1,64,16384)",
            "(192,256,3):(256,1,49152)",
        );
        for c in [fused, batched] {
            let _ = std::fs::remove_file(&tsv);
            check(&Gemm::new(&s).unwrap().autotune().unwrap(), &s, &c); // records the class's key
            let table = std::fs::read_to_string(&tsv).unwrap();
            let key = table
                .lines()
                .last()
                .unwrap()
                .split('\t')
                .next()
                .unwrap()
                .to_string();
            let gemm = Gemm::new(&s).unwrap();
            let ids: Vec<String> = cute_gpu::matmul::plan::alternatives(&request(&gemm, &c))
                .unwrap()
                .iter()
                .map(|p| p.id())
                .collect();
            if gemm.runtime().arch().starts_with("sm_90") {
                assert!(ids.iter().any(|i| i.contains("_cl2")), "{ids:?}");
            }
            for id in ids {
                let forced = format!("{key}\t{id}\n");
                std::fs::write(&tsv, &forced).unwrap();
                check(&Gemm::new(&s).unwrap().autotune().unwrap(), &s, &c);
                // the forced kernel ran: the tuner did not time the class again
                assert_eq!(std::fs::read_to_string(&tsv).unwrap(), forced, "{id}");
            }
        }
        unsafe { std::env::remove_var("CUTE_CACHE_DIR") };
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Back-to-back calls where each reads what the one before wrote and writes what it read (D <- X·P,
    /// X <- D·P with P a permutation, exact in any type), launched with programmatic dependent launch on
    /// SM90 and without it: the kernel's wait must hold every global access until the previous grid is
    /// done, or a call reads a half-written operand.
    #[test]
    fn chained_calls_with_dependent_launch() {
        let Some(s) = stream("chained_calls_with_dependent_launch") else {
            return;
        };
        let (n, steps) = (1024usize, 16);
        let perm: Vec<usize> = (0..n).map(|j| (j * 389 + 17) % n).collect(); // 389 is odd: a bijection
        let mut p = vec![bf16::ZERO; n * n];
        for (j, &pj) in perm.iter().enumerate() {
            p[j * n + pj] = bf16::ONE; // P (K,N) column-major: column j holds its 1 at row perm[j]
        }
        let x: Vec<bf16> = (0..n * n)
            .map(|i| bf16::from_f32((i % 251) as f32 - 125.0))
            .collect();
        let (row_major, col_major) = (format!("({n},{n}):({n},1)"), format!("({n},{n}):(1,{n})"));
        for on in [true, false] {
            let gemm = Gemm::new(&s).unwrap().with_dependent_launch(on);
            let hopper = gemm.runtime().arch().starts_with("sm_90");
            assert_eq!(gemm.runtime().dependent_launch(), on && hopper);
            let pd = s.clone_htod(&p).unwrap();
            let mut bufs = [
                s.clone_htod(&x).unwrap(),
                s.alloc_zeros::<bf16>(n * n).unwrap(),
            ];
            for step in 0..steps {
                let [a, b] = &mut bufs;
                let (src, dst) = if step % 2 == 0 { (&*a, b) } else { (&*b, a) };
                gemm.run::<bf16, bf16>(
                    &Matrix::new(src, common::l(&row_major)),
                    &Matrix::new(&pd, common::l(&col_major)),
                    None,
                    &mut MatrixMut::new(dst, common::l(&row_major)),
                    1.0,
                    0.0,
                )
                .unwrap();
            }
            let got = s.clone_dtoh(&bufs[steps % 2]).unwrap();
            // after `steps` calls, column j holds X's column perm^steps(j)
            let mut from: Vec<usize> = (0..n).collect();
            for _ in 0..steps {
                from = from.iter().map(|&c| perm[c]).collect();
            }
            for i in 0..n {
                for j in 0..n {
                    assert_eq!(
                        got[i * n + j],
                        x[i * n + from[j]],
                        "dependent launch {on}: ({i}, {j})"
                    );
                }
            }
        }
    }

    #[test]
    fn bad_input_is_rejected_before_any_launch() {
        let Some(s) = stream("bad_input_is_rejected_before_any_launch") else {
            return;
        };
        let gemm = Gemm::new(&s).unwrap();
        let a: CudaSlice<bf16> = s.alloc_zeros(64 * 32 - 1).unwrap();
        let b: CudaSlice<bf16> = s.alloc_zeros(32 * 64).unwrap();
        let mut d: CudaSlice<f32> = s.clone_htod(&vec![3.0f32; 64 * 64]).unwrap();
        let e = gemm
            .run::<bf16, f32>(
                &Matrix::new(&a, common::l("(64,32):(32,1)")),
                &Matrix::new(&b, common::l("(32,64):(1,32)")),
                None,
                &mut MatrixMut::new(&mut d, common::l("(64,64):(64,1)")),
                1.0,
                0.0,
            )
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad launch: A has 4094 bytes but its tensor spans 4096"
        );
        assert!(
            s.clone_dtoh(&d).unwrap().iter().all(|&x| x == 3.0),
            "nothing was launched"
        );
        let e = gemm
            .run::<bf16, f32>(
                &Matrix::new(&b, common::l("(64,32):(32,1)")),
                &Matrix::new(&b, common::l("(33,62):(1,33)")),
                None,
                &mut MatrixMut::new(&mut d, common::l("(64,64):(64,1)")),
                1.0,
                0.0,
            )
            .unwrap_err();
        assert!(e.to_string().contains("shapes do not agree"), "{e}");
    }

    /// Operands that start inside their buffers (`Matrix::at`, a framework tensor's start offset): the
    /// product against the reference, an offset past the buffer's end and a span that no longer fits.
    #[test]
    fn operands_at_an_offset() {
        let Some(s) = stream("operands_at_an_offset") else {
            return;
        };
        let gemm = Gemm::new(&s).unwrap();
        let (m, n, k, oa, ob) = (64usize, 48usize, 32usize, 40usize, 8usize);
        let mut rng = Rng(11);
        let mut ints = |len: usize| {
            (0..len)
                .map(|_| rng.small_int(2) as f32)
                .collect::<Vec<_>>()
        };
        let (ah, bh) = (ints(oa + m * k), ints(ob + k * n));
        let to_bf = |v: &[f32]| v.iter().map(|&x| bf16::from_f32(x)).collect::<Vec<_>>();
        let da: CudaSlice<bf16> = s.clone_htod(&to_bf(&ah)).unwrap();
        let db: CudaSlice<bf16> = s.clone_htod(&to_bf(&bh)).unwrap();
        let mut dd: CudaSlice<f32> = s.alloc_zeros(m * n).unwrap();
        let (la, lb) = (
            common::l(&format!("({m},{k}):({k},1)")),
            common::l(&format!("({k},{n}):(1,{k})")),
        );
        let ld = common::l(&format!("({m},{n}):({n},1)"));
        let mut run = |a_off: usize| {
            gemm.run::<bf16, f32>(
                &Matrix::at(&da, la.clone(), a_off),
                &Matrix::at(&db, lb.clone(), ob),
                None,
                &mut MatrixMut::new(&mut dd, ld.clone()),
                1.0,
                0.0,
            )
        };
        run(oa).unwrap();
        let e1 = run(oa + m * k + 1).unwrap_err().to_string();
        let e2 = run(oa + 1).unwrap_err().to_string();
        let got = s.clone_dtoh(&dd).unwrap();
        for (i, j) in (0..m).flat_map(|i| (0..n).map(move |j| (i, j))) {
            let want: f32 = (0..k)
                .map(|p| ah[oa + i * k + p] * bh[ob + p + j * k])
                .sum();
            assert_eq!(got[i * n + j], want, "D({i},{j})");
        }
        let len = oa + m * k;
        assert!(
            e1.contains(&format!(
                "A: offset {} elements is past the end of its buffer of {len} elements",
                len + 1
            )),
            "{e1}"
        );
        assert_eq!(
            e2,
            format!(
                "bad launch: A has {} bytes but its tensor spans {}",
                (m * k - 1) * 2,
                m * k * 2
            )
        );
    }
}
