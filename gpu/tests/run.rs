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

    use common::{gemm_spec, l};
    use gpu::DType;
    use gpu::host::{Rng, bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};
    use gpu::kernels::copy::{CopySpec, generate_copy};
    use gpu::kernels::gemm_sm80::{GemmConfig, GemmSpec, generate_gemm};
    use gpu::kernels::transpose::{TransposeSpec, generate_transpose};
    use gpu::runtime::Runtime;
    use layout_core::tensor::{self, make_gmem_ptr, make_tensor};
    use layout_core::{IntTuple, Layout, select};

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
        layout_core::cosize(layout).unwrap().value as usize
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
        let k = if transpose {
            generate_transpose(&TransposeSpec::new(sl.clone(), dl.clone(), 4)).unwrap()
        } else {
            generate_copy(&CopySpec::new(sl.clone(), dl.clone(), 4)).unwrap()
        };
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

    fn to_f32(dt: DType, h: u16) -> f32 {
        if dt == DType::F16 {
            f16_to_f32(h)
        } else {
            bf16_to_f32(h)
        }
    }
    fn from_f32(dt: DType, f: f32) -> u16 {
        if dt == DType::F16 {
            f32_to_f16(f)
        } else {
            f32_to_bf16(f)
        }
    }

    /// Runs one GEMM and checks it. `full`: compare every element, else every row and column at the
    /// tile edges plus 20000 random points.
    fn run_gemm(rt: &Runtime, spec: &GemmSpec, full: bool) {
        let k = generate_gemm(spec).unwrap();
        let shape = |l: &Layout, i: usize| l.shape().get(i).unwrap().as_int().unwrap().value;
        let (m, kk, n) = (shape(&spec.a, 0), shape(&spec.a, 1), shape(&spec.b, 1));
        let mut rng = Rng(7 + (m * 31 + n * 7 + kk) as u64);
        let ah: Vec<u16> = (0..cosize(&spec.a))
            .map(|_| from_f32(spec.input, rng.small_int(2) as f32))
            .collect();
        let bh: Vec<u16> = (0..cosize(&spec.b))
            .map(|_| from_f32(spec.input, rng.small_int(2) as f32))
            .collect();
        let cvals: Vec<f32> = (0..cosize(&spec.c))
            .map(|_| rng.small_int(3) as f32)
            .collect();
        // The CPU reference: layout-core's host tensors over the same buffers with the kernel's
        // layouts: A (M,K), B (N,K) = select<1,0> of the kernel's (K,N) B, C (M,N), and the reference
        // `tensor::gemm` on the (1,K) x (1,K) -> (1,1) sub-tensors at each checked point (exact in f32:
        // small integers).
        let (af, bf): (Vec<f32>, Vec<f32>) = (
            ah.iter().map(|&h| to_f32(spec.input, h)).collect(),
            bh.iter().map(|&h| to_f32(spec.input, h)).collect(),
        );
        let ta = make_tensor(make_gmem_ptr(&af[..]), spec.a.clone()).unwrap();
        let tb = make_tensor(make_gmem_ptr(&bf[..]), select(&spec.b, &[1, 0]).unwrap()).unwrap();
        let tcv = make_tensor(make_gmem_ptr(&cvals[..]), spec.c.clone()).unwrap();
        // (1,K) layout of one row of a (rows,K) operand: (_1, mode 1)
        let row_of = |l: &Layout| -> Layout {
            let k = layout_core::get(l, &[1]).unwrap();
            Layout::new(
                IntTuple::Tuple(vec![IntTuple::s(1), k.shape().clone()]),
                IntTuple::Tuple(vec![IntTuple::s(0), k.stride().clone()]),
            )
            .unwrap()
        };
        let (a_row, b_row) = (row_of(ta.layout()), row_of(tb.layout()));
        let one: Layout = "(_1,_1):(_0,_0)".parse().unwrap();
        let coff = |i: i64, j: i64| tcv.index_of((i, j)).unwrap() as usize;
        let reference = |i: i64, j: i64| -> f32 {
            let ai = ta
                .relayout(a_row.clone(), ta.index_of((i, 0)).unwrap())
                .unwrap();
            let bj = tb
                .relayout(b_row.clone(), tb.index_of((j, 0)).unwrap())
                .unwrap();
            let mut acc = [0f32];
            let mut t = make_tensor(make_gmem_ptr(&mut acc[..]), one.clone()).unwrap();
            tensor::gemm(&ai, &bj, &mut t).unwrap();
            spec.alpha * acc[0] + spec.beta * cvals[coff(i, j)]
        };
        let da = rt.upload(&ah).unwrap();
        let db = rt.upload(&bh).unwrap();
        let got: Vec<f32> = if spec.output == DType::F32 {
            let dc = rt.upload(&cvals).unwrap();
            let dd = rt.upload(&vec![f32::NAN; cvals.len()]).unwrap();
            rt.launch(
                &k,
                &[rt.bind(&da), rt.bind(&db), rt.bind(&dc), rt.bind(&dd)],
            )
            .unwrap();
            rt.sync().unwrap();
            rt.download(&dd).unwrap()
        } else {
            let ch: Vec<u16> = cvals.iter().map(|&v| from_f32(spec.output, v)).collect();
            let dc = rt.upload(&ch).unwrap();
            let dd = rt.upload(&vec![0x7e00u16; ch.len()]).unwrap();
            rt.launch(
                &k,
                &[rt.bind(&da), rt.bind(&db), rt.bind(&dc), rt.bind(&dd)],
            )
            .unwrap();
            rt.sync().unwrap();
            let out = spec.output;
            rt.download(&dd)
                .unwrap()
                .iter()
                .map(|&h| to_f32(out, h))
                .collect()
        };
        let check = |i: i64, j: i64| -> Option<String> {
            let want = reference(i, j);
            let want_rounded = match spec.output {
                DType::F32 => want,
                o => to_f32(o, from_f32(o, want)),
            };
            let g = got[coff(i, j)];
            if g == want_rounded {
                None
            } else {
                Some(format!(
                    "D({i},{j}) = {g}, want {want_rounded} (exact {want})"
                ))
            }
        };
        let mut points = Vec::new();
        if full {
            for i in 0..m {
                for j in 0..n {
                    points.push((i, j));
                }
            }
        } else {
            let bm = spec.config.bm;
            let bn = spec.config.bn;
            for &i in &[
                0,
                m - 1,
                (m - 1) / bm * bm,
                ((m - 1) / bm * bm).saturating_sub(1),
            ] {
                for j in (0..n).step_by(3) {
                    points.push((i, j));
                }
            }
            for &j in &[
                0,
                n - 1,
                (n - 1) / bn * bn,
                ((n - 1) / bn * bn).saturating_sub(1),
            ] {
                for i in (0..m).step_by(3) {
                    points.push((i, j));
                }
            }
            for _ in 0..20000 {
                points.push((
                    (rng.next_u64() % m as u64) as i64,
                    (rng.next_u64() % n as u64) as i64,
                ));
            }
        }
        let threads = std::thread::available_parallelism()
            .map(|x| x.get())
            .unwrap_or(4)
            .min(32);
        let chunk = points.len().div_ceil(threads);
        let bad: Vec<String> = std::thread::scope(|s| {
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
        });
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
        // 2 CTAs per SM: 128 registers per thread, fragments single-buffered
        let two_ctas = GemmConfig {
            bn: 128,
            min_blocks: 2,
            ..big
        };
        let two_ctas_k64 = GemmConfig {
            bn: 128,
            bk: 64,
            warps_n: 2,
            stages: 3,
            min_blocks: 2,
            ..big
        };
        let cases = [
            (
                true,
                true,
                DType::F16,
                DType::F32,
                GemmConfig::default(),
                1.0,
                0.0,
            ),
            (
                true,
                false,
                DType::BF16,
                DType::F32,
                GemmConfig::default(),
                0.5,
                2.0,
            ),
            (
                false,
                true,
                DType::F16,
                DType::F16,
                GemmConfig::default(),
                1.0,
                1.0,
            ),
            (false, false, DType::BF16, DType::BF16, big, 1.0, -1.0),
            (true, false, DType::F16, DType::F16, two_ctas, 1.0, 1.0),
            (false, true, DType::BF16, DType::BF16, two_ctas, 1.0, -1.0),
            (true, false, DType::F16, DType::F16, big, 2.0, 0.0),
            // 128x128x64, 2x2 warps, 3 stages, 2 CTAs/SM (double-buffered fragments): the bench's best
            (true, false, DType::F16, DType::F16, two_ctas_k64, 1.0, 0.5),
            // beta = 0: the staged (shared-memory, 16-byte vector) epilogue on interior tiles
            (true, false, DType::F16, DType::F16, two_ctas_k64, 1.0, 0.0),
            (false, true, DType::BF16, DType::F32, two_ctas_k64, 0.5, 0.0),
            (
                false,
                true,
                DType::BF16,
                DType::BF16,
                two_ctas_k64,
                1.0,
                -1.0,
            ),
            (
                true,
                false,
                DType::BF16,
                DType::F32,
                GemmConfig {
                    bm: 256,
                    bn: 128,
                    warps_m: 4,
                    warps_n: 2,
                    stages: 3,
                    ..big
                },
                1.0,
                1.0,
            ),
        ];
        for (ar, br, i, o, cfg, alpha, beta) in cases {
            let mut spec = gemm_spec(m, n, k, ar, br, i, o, cfg);
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
}
