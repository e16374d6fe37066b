//! Run depth: generated kernels on a GPU against CPU references.
//!
//! Without libcuda or a GPU each test prints a loud SKIP; with `CUTE_REQUIRE_GPU=1` (set by
//! `scripts/gpu/run.sh` on the GPU machine) they fail instead.
//! Sizes that divide the tiles and sizes that don't. Copies and transposes must be bit-exact. GEMMs
//! use small integers, so f32 outputs must be exact; f16/bf16 outputs must equal the reference
//! rounded to nearest (tolerance: one unit in the last place of the output type).
#![allow(clippy::manual_is_multiple_of)]

#[cfg(not(feature = "cuda"))]
#[test]
fn gpu_run_tests_need_the_cuda_feature() {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "\n***** SKIP GPU run tests: built without --features cuda (scripts/gpu/build.sh builds them) *****\n"
    );
}

#[cfg(feature = "cuda")]
mod common;

#[cfg(feature = "cuda")]
mod gpu_run {
    use super::common;

    use common::{copy_kernel, gemm_spec, l};
    use cudarc::driver::DeviceRepr;
    use cute_gpu::configs::{sm80_256x128_s3, sm80_large, sm80_two_ctas, sm80_two_ctas_k64};
    use cute_gpu::host::{ReferenceGemm, Rng, all_points, decode, edge_points, encode, round_to};
    use cute_gpu::kernels::gemm_sm80::{GemmConfig, GemmSpec, generate_gemm};
    use cute_gpu::runtime::Runtime;
    use cute_gpu::{DType, Kernel, Major};
    use cute_layout_core::Layout;
    use cute_layout_core::tensor::{self, make_gmem_ptr, make_tensor};

    fn runtime(test: &str) -> Option<Runtime> {
        match Runtime::new(0) {
            Ok(rt) => Some(rt),
            Err(e) => {
                if std::env::var("CUTE_REQUIRE_GPU")
                    .map(|v| v == "1")
                    .unwrap_or(false)
                {
                    panic!("CUTE_REQUIRE_GPU=1 but no GPU runtime: {e}");
                }
                common::loud(&format!("***** SKIP {test}: no GPU here ({e}) *****"));
                None
            }
        }
    }

    /// Elements a tensor of this layout spans (layout-core's `cosize`).
    fn cosize(layout: &Layout) -> usize {
        cute_layout_core::cosize(layout).unwrap().value as usize
    }

    /// dst(c) = src(c) for every coordinate c, on u32 words: the CPU reference of a copy or
    /// transpose, by layout-core's host tensors (`make_tensor` over the buffers, `tensor::copy`).
    fn reference_copy(src: &Layout, dst: &Layout, src_data: &[u32], dst_init: &[u32]) -> Vec<u32> {
        let mut out = dst_init.to_vec();
        let s = make_tensor(make_gmem_ptr(src_data), src.clone()).unwrap();
        let mut d = make_tensor(make_gmem_ptr(&mut out[..]), dst.clone()).unwrap();
        tensor::copy(&s, &mut d).unwrap();
        out
    }

    fn run_copy_case(rt: &Runtime, src: &str, dst: &str, transpose: bool) {
        let (sl, dl) = (l(src), l(dst));
        let k = copy_kernel(src, dst, 4, transpose);
        let mut rng = Rng(42);
        let src_data: Vec<u32> = (0..cosize(&sl)).map(|_| rng.next_u64() as u32).collect();
        let dst_init: Vec<u32> = vec![0xdead_beef; cosize(&dl)];
        let sb = rt.upload(&src_data).unwrap();
        let db = rt.upload(&dst_init).unwrap();
        rt.launch(&k, &[rt.bind(&sb), rt.bind(&db)]).unwrap();
        rt.sync().unwrap();
        let got = rt.download(&db).unwrap();
        let want = reference_copy(&sl, &dl, &src_data, &dst_init);
        let bad = got.iter().zip(&want).filter(|(a, b)| a != b).count();
        assert_eq!(
            bad,
            0,
            "{}: {bad} of {} words differ ({src} -> {dst})",
            k.name,
            want.len()
        );
        eprintln!("ok {} {src} -> {dst}", k.name);
    }

    #[test]
    fn copy_1000x1000() {
        let Some(rt) = runtime("copy_1000x1000") else {
            return;
        };
        // contiguous (16-byte vectors), transposing (scalar), hierarchical/strided, static
        run_copy_case(
            &rt,
            "((_4,250),1000):((_1,_4),1000)",
            "((_4,250),1000):((_1,_4),1000)",
            false,
        );
        run_copy_case(&rt, "(1000,1000):(1000,_1)", "(1000,1000):(_1,1000)", false);
        run_copy_case(
            &rt,
            "((_2,500),1000):((_1,_2),1002)",
            "((_2,500),1000):((_1,_2),1000)",
            false,
        );
        run_copy_case(
            &rt,
            "((_8,_4),(5,(20,1000))):((_1,_8),(32,(160,3200)))",
            "(_32,(100,1000)):(_1,(32,3200))",
            false,
        );
        run_copy_case(&rt, "(_64,_64):(_1,_64)", "(_64,_64):(_64,_1)", false);
    }

    #[test]
    fn transpose_4096x4096() {
        let Some(rt) = runtime("transpose_4096x4096") else {
            return;
        };
        run_copy_case(&rt, "(4096,4096):(4096,_1)", "(4096,4096):(_1,4096)", true);
    }

    #[test]
    fn transpose_1023x2049() {
        let Some(rt) = runtime("transpose_1023x2049") else {
            return;
        };
        run_copy_case(&rt, "(1023,2049):(2049,_1)", "(1023,2049):(_1,1023)", true);
        run_copy_case(&rt, "(1000,2048):(2048,_1)", "(1000,2048):(_1,1000)", true);
    }

    /// A and B (integers in [-2, 2] of the input type) and C (integers in [-3, 3]) of a GEMM: every
    /// product and sum is exact in f32.
    fn gemm_inputs(spec: &GemmSpec, rng: &mut Rng) -> (Vec<u16>, Vec<u16>, Vec<f32>) {
        let a = rng.small_ints(spec.input, cosize(&spec.a), 2);
        let b = rng.small_ints(spec.input, cosize(&spec.b), 2);
        let c = (0..cosize(&spec.c))
            .map(|_| rng.small_int(3) as f32)
            .collect();
        (a, b, c)
    }

    /// Launches a kernel taking (A, B, C, D) once, D filled with `fill` first, and downloads D.
    fn launch_abcd<T: DeviceRepr + Default + Clone>(
        rt: &Runtime,
        k: &Kernel,
        (a, b, c): (&[u16], &[u16], &[T]),
        fill: T,
    ) -> Vec<T> {
        let (da, db, dc) = (
            rt.upload(a).unwrap(),
            rt.upload(b).unwrap(),
            rt.upload(c).unwrap(),
        );
        let dd = rt.upload(&vec![fill; c.len()]).unwrap();
        let args = [rt.bind(&da), rt.bind(&db), rt.bind(&dc), rt.bind(&dd)];
        rt.launch(k, &args).unwrap();
        rt.sync().unwrap();
        rt.download(&dd).unwrap()
    }

    /// D of one run of the GEMM, as f32 (16-bit outputs start as NaN, f32 ones as NaN too).
    fn gemm_output(
        rt: &Runtime,
        k: &Kernel,
        spec: &GemmSpec,
        a: &[u16],
        b: &[u16],
        c: &[f32],
    ) -> Vec<f32> {
        match spec.output {
            DType::F32 => launch_abcd(rt, k, (a, b, c), f32::NAN),
            out => decode(out, &launch_abcd(rt, k, (a, b, &encode(out, c)), 0x7e00)),
        }
    }

    /// Every element (`full`), else every 3rd element of the rows and columns at the tile edges and
    /// 20000 random points.
    fn gemm_points(
        spec: &GemmSpec,
        (m, n): (i64, i64),
        full: bool,
        rng: &mut Rng,
    ) -> Vec<(i64, i64)> {
        if full {
            return all_points(m, n);
        }
        let edges = |extent: i64, tile: i64| {
            let last = (extent - 1) / tile * tile;
            [0, extent - 1, last, last.saturating_sub(1)]
        };
        let (rows, cols) = (edges(m, spec.config.bm), edges(n, spec.config.bn));
        edge_points((m, n), &rows, &cols, 3, 20000, rng)
    }

    /// The mismatches `check` reports at `points` (at most 5 per thread), checked on all cores.
    fn mismatches(
        points: &[(i64, i64)],
        check: impl Fn(i64, i64) -> Option<String> + Sync,
    ) -> Vec<String> {
        let threads = std::thread::available_parallelism()
            .map(|x| x.get())
            .unwrap_or(4)
            .min(32);
        let chunk = points.len().div_ceil(threads).max(1);
        std::thread::scope(|s| {
            let hs: Vec<_> = points
                .chunks(chunk)
                .map(|ps| {
                    s.spawn(|| {
                        ps.iter()
                            .filter_map(|&(i, j)| check(i, j))
                            .take(5)
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
        })
    }

    /// Runs one GEMM and checks it. `full`: compare every element, else every row and column at the
    /// tile edges plus 20000 random points.
    fn run_gemm(rt: &Runtime, spec: &GemmSpec, full: bool) {
        let k = generate_gemm(spec).unwrap();
        let shape = |l: &Layout, i: usize| l.shape().get(i).unwrap().as_int().unwrap().value;
        let (m, kk, n) = (shape(&spec.a, 0), shape(&spec.a, 1), shape(&spec.b, 1));
        let mut rng = Rng(7 + (m * 31 + n * 7 + kk) as u64);
        let (ah, bh, cvals) = gemm_inputs(spec, &mut rng);
        // The CPU reference: layout-core's host tensors over the same buffers with the kernel's
        // layouts (exact in f32: small integers).
        let (af, bf) = (decode(spec.input, &ah), decode(spec.input, &bh));
        let reference = ReferenceGemm::from_layouts(&af, &spec.a, &bf, &spec.b).unwrap();
        let tc = make_tensor(make_gmem_ptr(&cvals[..]), spec.c.clone()).unwrap();
        let coff = |i: i64, j: i64| tc.index_of((i, j)).unwrap() as usize;
        let got = gemm_output(rt, &k, spec, &ah, &bh, &cvals);
        let check = |i: i64, j: i64| -> Option<String> {
            let want = spec.alpha * reference.at(i, j) as f32 + spec.beta * cvals[coff(i, j)];
            let want_rounded = round_to(spec.output, want);
            let g = got[coff(i, j)];
            (g != want_rounded)
                .then(|| format!("D({i},{j}) = {g}, want {want_rounded} (exact {want})"))
        };
        let points = gemm_points(spec, (m, n), full, &mut rng);
        let bad = mismatches(&points, check);
        assert!(
            bad.is_empty(),
            "{} (A {} B {}): {} points checked, mismatches:\n{}",
            k.name,
            spec.a,
            spec.b,
            points.len(),
            bad.join("\n")
        );
        eprintln!("ok {} {}x{}x{} ({} points)", k.name, m, n, kk, points.len());
    }

    fn gemm_cases(m: i64, n: i64, k: i64, full: bool) {
        let Some(rt) = runtime(&format!("gemm_{m}x{n}x{k}")) else {
            return;
        };
        use Major::{K, MN};
        let (big, two_ctas, two_ctas_k64) = (sm80_large(), sm80_two_ctas(), sm80_two_ctas_k64());
        let default = GemmConfig::default();
        // (A major, B major): (K, MN) is A row-major, B row-major
        let cases = [
            ((K, MN), DType::F16, DType::F32, default, 1.0, 0.0),
            ((K, K), DType::BF16, DType::F32, default, 0.5, 2.0),
            ((MN, MN), DType::F16, DType::F16, default, 1.0, 1.0),
            ((MN, K), DType::BF16, DType::BF16, big, 1.0, -1.0),
            // 2 CTAs per SM: 128 registers per thread, fragments single-buffered
            ((K, K), DType::F16, DType::F16, two_ctas, 1.0, 1.0),
            ((MN, MN), DType::BF16, DType::BF16, two_ctas, 1.0, -1.0),
            ((K, K), DType::F16, DType::F16, big, 2.0, 0.0),
            // 128x128x64, 2x2 warps, 3 stages, 2 CTAs/SM (double-buffered fragments): the bench's best
            ((K, K), DType::F16, DType::F16, two_ctas_k64, 1.0, 0.5),
            // beta = 0: the staged (shared-memory, 16-byte vector) epilogue on interior tiles
            ((K, K), DType::F16, DType::F16, two_ctas_k64, 1.0, 0.0),
            ((MN, MN), DType::BF16, DType::F32, two_ctas_k64, 0.5, 0.0),
            ((MN, MN), DType::BF16, DType::BF16, two_ctas_k64, 1.0, -1.0),
            ((K, K), DType::BF16, DType::F32, sm80_256x128_s3(), 1.0, 1.0),
        ];
        for (majors, i, o, cfg, alpha, beta) in cases {
            let mut spec = gemm_spec((m, n, k), majors, i, o, cfg);
            spec.alpha = alpha;
            spec.beta = beta;
            run_gemm(&rt, &spec, full);
        }
    }

    #[test]
    fn gemm_128x128x128() {
        gemm_cases(128, 128, 128, true);
    }

    #[test]
    fn gemm_1000x1000x1000() {
        gemm_cases(1000, 1000, 1000, true);
    }

    #[test]
    fn gemm_4096x4096x4096() {
        gemm_cases(4096, 4096, 4096, false);
    }

    #[test]
    fn gemm_4095x4097x1023() {
        gemm_cases(4095, 4097, 1023, false);
    }

    /// `poly_exp2` (the exponential on the FMA pipe, `arch::math::poly_ex2`) against `exp2` in f64 on
    /// 65,536 arguments from -130 to 10 (every 1/64, and random ones): relative error within the
    /// polynomial's bound plus a few f32 ulp where `2^x` is normal, 0 below -127 (flushed, as
    /// `ex2.approx.ftz`), `+0` at `-inf`, NaN at NaN.
    #[test]
    fn poly_exp2_matches_exp2() {
        use cute_gpu::arch::math::{EX2, POLY_EX2_MAX_REL_ERROR, poly_ex2};
        use cute_gpu::{Arg, Buffer};
        let Some(rt) = runtime("poly_exp2_matches_exp2") else {
            return;
        };
        let n = 65536usize;
        let mut rng = Rng(7);
        let mut x: Vec<f32> = (0..n - 3)
            .map(|i| match i % 2 {
                0 => -130.0 + ((i / 2) % (140 * 64)) as f32 / 64.0,
                _ => -130.0 + 140.0 * ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32),
            })
            .collect();
        x.extend([f32::NEG_INFINITY, f32::NAN, -127.0]);
        let bytes = n * 4;
        let k = Kernel {
            name: "poly_exp2_test".into(),
            source: format!(
                "{EX2}{}extern \"C\" __global__ void poly_exp2_test(const float* x, float* y) {{\n  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n  y[i] = poly_exp2(x[i]);\n}}\n",
                poly_ex2()
            ),
            grid: ((n / 256) as u32, 1, 1),
            persistent: false,
            cluster: 1,
            block: (256, 1, 1),
            dynamic_smem_bytes: 0,
            args: vec![Arg::Ptr("x".into()), Arg::Ptr("y".into())],
            buffers: vec![
                Buffer {
                    name: "x".into(),
                    bytes,
                },
                Buffer {
                    name: "y".into(),
                    bytes,
                },
            ],
            pointer_alignment: 4,
            dependent_launch: false,
        };
        let (xb, yb) = (rt.upload(&x).unwrap(), rt.zeros::<f32>(n).unwrap());
        rt.launch(&k, &[rt.bind(&xb), rt.bind(&yb)]).unwrap();
        rt.sync().unwrap();
        let y = rt.download(&yb).unwrap();
        let bound = POLY_EX2_MAX_REL_ERROR + 4.0 * f32::EPSILON as f64;
        let mut worst = 0f64;
        for (&xi, &yi) in x.iter().zip(&y) {
            let ok = if xi.is_nan() {
                yi.is_nan()
            } else if xi < -127.0 {
                yi == 0.0
            } else if xi < -126.0 {
                (0.0..f32::MIN_POSITIVE).contains(&yi) // the subnormal range: flushed or tiny
            } else {
                let rel = (yi as f64 / (xi as f64).exp2() - 1.0).abs();
                worst = worst.max(rel);
                rel <= bound
            };
            assert!(
                ok,
                "poly_exp2({xi:e}) = {yi:e}, 2^x = {:e}",
                (xi as f64).exp2()
            );
        }
        eprintln!("poly_exp2: max relative error {worst:.3e} (bound {bound:.3e}) on {n} arguments");
    }
}
