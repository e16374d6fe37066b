//! The attention call on a GPU against the f64 CPU reference: lengths 1, 17, 127, 129, 256 (not multiples
//! of the tiles), Sq != Sk, the causal diagonal (bottom-right; rows that see no key), GQA and MQA, both
//! `(B,S,H,D)` and `(B,H,S,D)` arrangements, head dims 64/128/256, f16 and bf16, varlen (with an empty
//! sequence), the LSE output, and bad buffers rejected before any launch.
//!
//! Error bound (derived): P is rounded to the input type before `P·V` (relative error <= u: 2^-8 for
//! bf16, 2^-11 for f16) while the row sum `l` uses the unrounded P, so `|Σ P̃ v / l - Σ p v / l| <= u ·
//! max|V|`; O is rounded to the input type at the end (<= u · |O| <= u · max|V|); everything else is f32
//! (`ex2.approx` ~2^-22 relative). So `max |O - O_ref| <= 2u · max|V|` (2^-7 for bf16, 2^-10 for f16),
//! checked with a slack of 2^-16 · max|V|. LSE: f32 scores and `ex2.approx`/`log2f`: `<= 1e-4 + 1e-6·|LSE|`.

#[cfg(not(feature = "cuda"))]
#[test]
fn attention_run_tests_need_the_cuda_feature() {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "\n***** SKIP attention run tests: built without --features cuda *****\n"
    );
}

#[cfg(feature = "cuda")]
mod common;

#[cfg(feature = "cuda")]
mod attention_run {
    use super::common;
    use cudarc::driver::{CudaSlice, CudaStream};
    use cute_gpu::DType;
    use cute_gpu::attention::plan::dims;
    use cute_gpu::attention::reference::{RefProblem, reference_attention};
    use cute_gpu::attention::{Attention, Options, Tensor, TensorMut, Tiles, bhsd, bshd};
    use cute_gpu::host::{Rng, from_f32, to_f32};
    use cute_gpu::matmul::Element;
    use cute_layout_core::{Layout, cosize};
    use std::sync::Arc;

    fn stream(test: &str) -> Option<Arc<CudaStream>> {
        common::gpu_stream(test)
    }

    /// f16 and bf16 as their 16-bit payloads.
    trait Half: Element + Copy + Default {
        fn from_bits(b: u16) -> Self;
        fn bits(self) -> u16;
    }
    impl Half for half::bf16 {
        fn from_bits(b: u16) -> Self {
            half::bf16::from_bits(b)
        }
        fn bits(self) -> u16 {
            self.to_bits()
        }
    }
    impl Half for half::f16 {
        fn from_bits(b: u16) -> Self {
            half::f16::from_bits(b)
        }
        fn bits(self) -> u16 {
            self.to_bits()
        }
    }

    #[derive(Clone, Debug)]
    struct Case {
        b: i64,
        sq: i64,
        sk: i64,
        hq: i64,
        hkv: i64,
        d: i64,
        causal: bool,
        bhsd: bool,
        varlen: Option<(Vec<i32>, Vec<i32>)>,
        /// K's row at position `j` scaled by `1 + j / 64`: each key block's scores exceed the previous
        /// maxima by ever more (the online softmax's max moves many times, lazily or not).
        ramp: bool,
    }

    fn case(sq: i64, sk: i64, d: i64, causal: bool) -> Case {
        Case {
            b: 2,
            sq,
            sk,
            hq: 2,
            hkv: 2,
            d,
            causal,
            bhsd: false,
            varlen: None,
            ramp: false,
        }
    }

    /// A dense `(B,S,H,D)` tensor of values rounded to `dt` (uniform in `[-amp, amp)`, times
    /// `1 + position / 64` with `ramp`), and its copy in `layout` on the device.
    fn tensor<T: Half>(
        s: &Arc<CudaStream>,
        rng: &mut Rng,
        dt: DType,
        layout: &Layout,
        (amp, ramp): (f32, bool),
    ) -> (Vec<f32>, CudaSlice<T>) {
        let dm = dims(layout, "test").unwrap();
        let n = dm.shape.iter().product::<i64>() as usize;
        let [b_n, s_n, h_n, d_n] = dm.shape;
        let grow = |i: usize| match ramp {
            true => 1.0 + (i as i64 / (d_n * h_n) % s_n) as f32 / 64.0,
            false => 1.0,
        };
        let dense: Vec<f32> = (0..n)
            .map(|i| to_f32(dt, from_f32(dt, amp * grow(i) * rng.uniform())))
            .collect();
        let mut host = vec![T::default(); cosize(layout).unwrap().value as usize];
        for (i, x) in dense.iter().enumerate() {
            let i = i as i64;
            let (d, h, sq, b) = (
                i % d_n,
                i / d_n % h_n,
                i / (d_n * h_n) % s_n,
                i / (d_n * h_n * s_n),
            );
            debug_assert!(b < b_n);
            let off = b * dm.stride[0] + sq * dm.stride[1] + h * dm.stride[2] + d;
            host[off as usize] = T::from_bits(from_f32(dt, *x));
        }
        (dense, s.clone_htod(&host).unwrap())
    }

    fn layout(c: &Case, b: i64, s: i64, h: i64) -> Layout {
        if c.bhsd {
            bhsd(b, s, h, c.d).unwrap()
        } else {
            bshd(b, s, h, c.d).unwrap()
        }
    }

    /// Runs `c`; `Err` describes the first value past its bound (every case runs, then the test fails).
    fn check<T: Half>(s: &Arc<CudaStream>, attn: &Attention, c: &Case) {
        // CUTE_ATTN_VERBOSE: every case named before it runs (to find the one a sanitizer stops in)
        if std::env::var("CUTE_ATTN_VERBOSE").is_ok() {
            eprintln!("case {} {c:?}", T::DTYPE.name());
        }
        if let Err(e) = try_check::<T>(s, attn, c) {
            eprintln!("FAIL {e}");
            FAILURES.with(|f| f.borrow_mut().push(e));
        }
    }

    thread_local! {
        /// The failed cases of the running test (each test runs on its own thread).
        static FAILURES: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
    }

    fn try_check<T: Half>(s: &Arc<CudaStream>, attn: &Attention, c: &Case) -> Result<(), String> {
        let dt = T::DTYPE;
        let mut rng = Rng(0x5eed ^ (c.sq * 1000 + c.sk) as u64);
        let (bl, sql, skl) = match &c.varlen {
            Some((cq, ck)) => (1, *cq.last().unwrap() as i64, *ck.last().unwrap() as i64),
            None => (c.b, c.sq, c.sk),
        };
        let (lq, lk) = (layout(c, bl, sql, c.hq), layout(c, bl, skl, c.hkv));
        let (q, dq) = tensor::<T>(s, &mut rng, dt, &lq, (2.0, false));
        let (k, dk) = tensor::<T>(s, &mut rng, dt, &lk, (2.0, c.ramp));
        let (v, dv) = tensor::<T>(s, &mut rng, dt, &lk, (1.0, false));
        let mut d_o = s
            .alloc_zeros::<T>(cosize(&lq).unwrap().value as usize)
            .unwrap();
        let lse_n = (bl * c.hq * sql) as usize;
        let mut d_lse = s.alloc_zeros::<f32>(lse_n).unwrap();
        let varlen = c.varlen.as_ref().map(|(a, b)| (a.as_slice(), b.as_slice()));
        let opts = Options {
            scale: None,
            causal: c.causal,
            varlen,
        };
        attn.run(
            &Tensor::new(&dq, lq.clone()),
            &Tensor::new(&dk, lk.clone()),
            &Tensor::new(&dv, lk.clone()),
            &mut TensorMut::new(&mut d_o, lq.clone()),
            Some(&mut d_lse),
            &opts,
        )
        .map_err(|e| format!("{dt:?} {c:?}: {e}"))?;
        let o_host: Vec<T> = s.clone_dtoh(&d_o).unwrap();
        let lse_host: Vec<f32> = s.clone_dtoh(&d_lse).unwrap();
        let scale = 1.0 / (c.d as f64).sqrt();
        let dm = dims(&lq, "O").unwrap();
        let seqs = sequences(c);
        let (hq, hkv, d) = (c.hq as usize, c.hkv as usize, c.d as usize);
        let (mut err_o, mut err_lse) = (0f64, 0f64);
        for (b, q0, k0, sq, sk) in seqs {
            let rows = |x: &[f32], s0: i64, n: i64, h: usize, sl: i64| -> Vec<f32> {
                let start = ((b * sl + s0) as usize) * h * d;
                x[start..start + n as usize * h * d].to_vec()
            };
            let p = RefProblem {
                batch: 1,
                sq: sq as usize,
                sk: sk as usize,
                hq,
                hkv,
                d,
                causal: c.causal,
                scale,
            };
            let (o_ref, lse_ref) = reference_attention(
                &p,
                &rows(&q, q0, sq, hq, sql),
                &rows(&k, k0, sk, hkv, skl),
                &rows(&v, k0, sk, hkv, skl),
            );
            for i in 0..sq as usize {
                for h in 0..hq {
                    let row = q0 + i as i64;
                    for e in 0..d {
                        let off = b * dm.stride[0]
                            + row * dm.stride[1]
                            + h as i64 * dm.stride[2]
                            + e as i64;
                        let got = to_f32(dt, o_host[off as usize].bits()) as f64;
                        let diff = (got - o_ref[(i * hq + h) * d + e]).abs();
                        err_o = if diff.is_nan() || err_o.is_nan() {
                            f64::NAN
                        } else {
                            err_o.max(diff)
                        };
                    }
                    let lse_at = if c.varlen.is_some() {
                        h * sql as usize + row as usize
                    } else {
                        (b as usize * hq + h) * sql as usize + i
                    };
                    let (got, want) = (lse_host[lse_at] as f64, lse_ref[h * sq as usize + i]);
                    let e = if got == want { 0.0 } else { (got - want).abs() };
                    if e.is_nan() || e > 1e-4 + 1e-6 * want.abs() {
                        return Err(format!(
                            "{dt:?} {c:?}: LSE row {row} head {h}: {got} vs {want}"
                        ));
                    }
                    err_lse = err_lse.max(e);
                }
            }
        }
        let vmax = v.iter().fold(0f32, |a, x| a.max(x.abs())) as f64;
        let bound = o_bound(dt, skl, vmax);
        if err_o.is_nan() || err_o > bound {
            return Err(format!(
                "{dt:?} {c:?}: max |O - ref| = {err_o} > {bound} (2u max|V|)"
            ));
        }
        eprintln!(
            "{:?} {c:?}: max|O-ref| = {err_o:.3e} (bound {bound:.3e}), max|LSE-ref| = {err_lse:.3e}",
            dt
        );
        Ok(())
    }

    /// (batch, first query row, first key row, query rows, keys) of each sequence.
    fn sequences(c: &Case) -> Vec<(i64, i64, i64, i64, i64)> {
        match &c.varlen {
            Some((cq, ck)) => (0..cq.len() - 1)
                .map(|i| {
                    let (q0, k0) = (cq[i] as i64, ck[i] as i64);
                    (0, q0, k0, cq[i + 1] as i64 - q0, ck[i + 1] as i64 - k0)
                })
                .collect(),
            None => (0..c.b).map(|b| (b, 0, 0, c.sq, c.sk)).collect(),
        }
    }

    /// The bound on max |O - O_ref| (module docs): 2u·max|V| plus the f32 accumulation over `sk` keys.
    fn o_bound(dt: DType, sk: i64, vmax: f64) -> f64 {
        let u = if dt == DType::BF16 {
            2f64.powi(-8)
        } else {
            2f64.powi(-11)
        };
        (2.0 * u + 2f64.powi(-16) + sk as f64 * 2f64.powi(-22)) * vmax
    }

    /// Runs `f` with the default handle (the Hopper kernel on an sm_90 device) and with the mma.sync
    /// kernel only, so that on an H100 both paths run every case.
    fn with_gpu(test: &str, f: impl Fn(&Arc<CudaStream>, &Attention)) {
        with_gpu_variants(test, &[(true, true, true), (false, true, true)], f)
    }

    /// [`with_gpu`] over the Hopper kernel's schedules too: `(Hopper allowed, overlap, ping-pong)`;
    /// `(_, true, true)` is the plan's schedule (ping-pong but on the shapes where the plan drops it,
    /// `Sm90AttentionConfig::for_keys`), the others are forced.
    fn with_gpu_variants(
        test: &str,
        variants: &[(bool, bool, bool)],
        f: impl Fn(&Arc<CudaStream>, &Attention),
    ) {
        if let Some(s) = stream(test) {
            for &(sm90, overlap, pingpong) in variants {
                let attn = Attention::new(&s).unwrap().with_sm90(sm90);
                let attn = if overlap && pingpong {
                    attn
                } else {
                    attn.with_sm90_schedule(overlap, pingpong).unwrap()
                };
                eprintln!(
                    "{test}: Hopper kernel allowed: {sm90} (overlap {overlap}, ping-pong {pingpong})"
                );
                f(&s, &attn);
            }
            let failures = FAILURES.with(|f| f.take());
            assert!(
                failures.is_empty(),
                "{} failed:\n{}",
                failures.len(),
                failures.join("\n")
            );
        }
    }

    #[test]
    fn square_lengths_bf16_d64() {
        with_gpu("square_lengths_bf16_d64", |s, a| {
            for n in [1, 17, 127, 129, 256] {
                for causal in [false, true] {
                    check::<half::bf16>(s, a, &case(n, n, 64, causal));
                }
            }
        });
    }

    #[test]
    fn different_lengths_bhsd_d128() {
        with_gpu_variants(
            "different_lengths_bhsd_d128",
            &[
                (true, true, true),
                (true, true, false),
                (true, false, false),
                (false, true, true),
            ],
            |s, a| {
                for (sq, sk) in [(17, 129), (129, 17), (127, 256), (256, 1), (1, 256)] {
                    for causal in [false, true] {
                        check::<half::bf16>(
                            s,
                            a,
                            &Case {
                                bhsd: true,
                                ..case(sq, sk, 128, causal)
                            },
                        );
                        check::<half::f16>(s, a, &case(sq, sk, 128, causal));
                    }
                }
            },
        );
    }

    #[test]
    fn grouped_query_and_multi_query() {
        with_gpu("grouped_query_and_multi_query", |s, a| {
            for (hq, hkv) in [(4, 2), (4, 1), (6, 3)] {
                for causal in [false, true] {
                    check::<half::f16>(
                        s,
                        a,
                        &Case {
                            hq,
                            hkv,
                            ..case(129, 127, 128, causal)
                        },
                    );
                    check::<half::bf16>(
                        s,
                        a,
                        &Case {
                            hq,
                            hkv,
                            bhsd: true,
                            ..case(200, 64, 64, causal)
                        },
                    );
                }
            }
        });
    }

    #[test]
    fn head_dim_256() {
        with_gpu("head_dim_256", |s, a| {
            for causal in [false, true] {
                check::<half::bf16>(s, a, &case(129, 129, 256, causal));
                check::<half::f16>(
                    s,
                    a,
                    &Case {
                        bhsd: true,
                        ..case(17, 100, 256, causal)
                    },
                );
            }
        });
    }

    /// Many key blocks (the K/V ring wraps several times), causal tile skipping, Sq != Sk, GQA; every
    /// schedule of the Hopper kernel.
    fn long_sequences(d: i64) {
        let test = format!("long_sequences_d{d}");
        with_gpu_variants(&test, ALL_SCHEDULES, |s, a| {
            for causal in [false, true] {
                check::<half::bf16>(
                    s,
                    a,
                    &Case {
                        b: 1,
                        ..case(520, 520, d, causal)
                    },
                );
                check::<half::f16>(
                    s,
                    a,
                    &Case {
                        b: 1,
                        hq: 2,
                        hkv: 1,
                        bhsd: true,
                        ..case(200, 900, d, causal)
                    },
                );
                // enough keys for the wide tiles of Sm90AttentionConfig::for_keys, ending mid-tile
                check::<half::bf16>(
                    s,
                    a,
                    &Case {
                        b: 1,
                        hq: 1,
                        hkv: 1,
                        ..case(130, 8200, d, causal)
                    },
                );
            }
        });
    }

    /// (Hopper allowed, overlap, ping-pong): the Hopper kernel's three schedules and the mma.sync kernel.
    const ALL_SCHEDULES: &[(bool, bool, bool)] = &[
        (true, true, true),
        (true, true, false),
        (true, false, false),
        (false, true, true),
    ];

    /// A few small cases over every schedule (the racecheck case: ping-pong barriers, the ring).
    #[test]
    fn schedules_small() {
        with_gpu_variants("schedules_small", ALL_SCHEDULES, |s, a| {
            for causal in [false, true] {
                check::<half::bf16>(s, a, &case(129, 300, 64, causal));
                check::<half::f16>(
                    s,
                    a,
                    &Case {
                        b: 1,
                        ..case(300, 129, 128, causal)
                    },
                );
                // d = 256: lazy rescaling by default in the overlapped schedules
                let wide = Case {
                    b: 1,
                    ramp: true,
                    ..case(77, 200, 256, causal)
                };
                check::<half::bf16>(s, a, &wide);
            }
        });
    }

    /// The Hopper kernel with O stored from the registers (`with_sm90_tma_store_o(false)`, the epilogue
    /// before the TMA store), one-per-tile and persistent CTAs.
    #[test]
    fn direct_o_epilogue() {
        with_gpu_variants("direct_o_epilogue", &[(true, true, true)], |s, _| {
            for persistent in [false, true] {
                let a = Attention::new(s)
                    .unwrap()
                    .with_sm90_persistent(persistent)
                    .unwrap()
                    .with_sm90_tma_store_o(false);
                for causal in [false, true] {
                    check::<half::bf16>(s, &a, &case(129, 300, 64, causal));
                    check::<half::f16>(
                        s,
                        &a,
                        &Case {
                            b: 1,
                            ..case(300, 129, 256, causal)
                        },
                    );
                }
            }
        });
    }

    #[test]
    fn long_sequences_d64() {
        long_sequences(64);
    }

    #[test]
    fn long_sequences_d128() {
        long_sequences(128);
    }

    #[test]
    fn long_sequences_d256() {
        long_sequences(256);
    }

    /// A fixed-length bf16 request with Q, K, V and O on layout `l`.
    fn bf16_request(l: &Layout, causal: bool) -> cute_gpu::attention::plan::Request<'_> {
        cute_gpu::attention::plan::Request {
            q: l,
            k: l,
            v: l,
            o: l,
            dtype: DType::BF16,
            scale: None,
            causal,
            varlen: None,
        }
    }

    /// On an sm_90 device the default handle runs the Hopper kernel (varlen too), and the mma.sync one
    /// when told to.
    #[test]
    fn hopper_kernel_is_chosen_on_sm90() {
        use cute_gpu::attention::plan::{Request, plan};
        let Some(s) = stream("hopper_kernel_is_chosen_on_sm90") else {
            return;
        };
        let l = bshd(2, 100, 4, 128).unwrap();
        let lv = bshd(1, 100, 4, 128).unwrap();
        let cu = [0, 100];
        let r = bf16_request(&l, true);
        let rv = Request {
            q: &lv,
            k: &lv,
            v: &lv,
            o: &lv,
            varlen: Some((&cu, &cu)),
            ..r.clone()
        };
        for sm90 in [true, false] {
            let a = Attention::new(&s).unwrap().with_sm90(sm90);
            let name = a.kernel_name(&plan(&r).unwrap()).unwrap();
            let varlen = a.kernel_name(&plan(&rv).unwrap()).unwrap();
            eprintln!(
                "{} sm90 {sm90}: {name}, varlen {varlen}",
                a.runtime().arch()
            );
            let hopper = sm90 && a.runtime().arch() == "sm_90a";
            assert_eq!(name.starts_with("cute_attention90_"), hopper, "{name}");
            assert_eq!(varlen.starts_with("cute_attention90_"), hopper, "{varlen}");
            assert!(varlen.contains("_varlen"), "{varlen}");
        }
    }

    #[test]
    fn varlen_packed_sequences() {
        with_gpu("varlen_packed_sequences", |s, a| {
            let cq = vec![0, 17, 146, 147, 403, 403];
            let ck = vec![0, 17, 17, 273, 402, 500];
            for causal in [false, true] {
                for d in [64, 128] {
                    let c = Case {
                        b: 5,
                        varlen: Some((cq.clone(), ck.clone())),
                        ..case(0, 0, d, causal)
                    };
                    check::<half::bf16>(s, a, &c);
                    check::<half::f16>(s, a, &Case { bhsd: true, ..c });
                }
            }
        });
    }

    /// Packed sequences of lengths 1, 17, 127, 129 (Q and K/V lengths different, a sequence crossing
    /// a 128-row block, the last one ending at the buffer's end), causal and not, grouped-query and
    /// multi-query heads, d = 64, 128, 256: on an H100 through the Hopper kernel and the mma.sync one.
    #[test]
    fn varlen_lengths_and_heads() {
        with_gpu("varlen_lengths_and_heads", |s, a| {
            let cq = vec![0, 1, 18, 145, 274, 403];
            let ck = vec![0, 129, 130, 147, 274, 401];
            for causal in [false, true] {
                for (d, hq, hkv) in [(64, 4, 1), (128, 6, 2), (256, 2, 2)] {
                    let c = Case {
                        b: 5,
                        hq,
                        hkv,
                        varlen: Some((cq.clone(), ck.clone())),
                        ..case(0, 0, d, causal)
                    };
                    check::<half::bf16>(s, a, &c);
                    // Q's lengths as K's and back: more rows than keys in some sequences
                    let swapped = Case {
                        varlen: Some((ck.clone(), cq.clone())),
                        bhsd: true,
                        ..c
                    };
                    check::<half::f16>(s, a, &swapped);
                }
            }
        });
    }

    /// The cases of a tile choice for head dim `d`: 17 x 129, 129 x 17 and `n` x `n` (bf16), varlen with
    /// three sequences (f16), causal and not.
    fn tile_cases(s: &Arc<CudaStream>, a: &Attention, d: i64, n: i64) {
        for causal in [false, true] {
            for (sq, sk) in [(17, 129), (129, 17), (n, n)] {
                check::<half::bf16>(s, a, &case(sq, sk, d, causal));
            }
            let c = Case {
                b: 3,
                varlen: Some((vec![0, 100, 101, 300], vec![0, 1, 200, 333])),
                ..case(0, 0, d, causal)
            };
            check::<half::f16>(s, a, &c);
        }
    }

    /// The tile choices `bench_attention --tiles` offers for tuning (compile-checked in `compile.rs`), on
    /// the same kinds of cases: 128-key tiles for d = 128, 64-row CTAs and 32-key tiles for d = 64.
    #[test]
    fn alternative_tiles() {
        with_gpu("alternative_tiles", |s, _| {
            let tiles = |block_m, block_n, q_in_registers| Tiles {
                block_m,
                block_n,
                q_in_registers,
            };
            for (d, t) in [
                (128, tiles(64, 128, true)),
                (64, tiles(64, 64, true)),
                (64, tiles(128, 32, true)),
            ] {
                let a = Attention::new(s).unwrap().with_tiles(d, t).unwrap();
                tile_cases(s, &a, d, 256);
            }
        });
    }

    /// The Hopper kernel's K/V tiles other than the plan's for these lengths (`bench_attention
    /// --sm90-block-n`): 64 keys for d = 256, 192, 176 and 160 for d = 128 (176, 160: V in one chunk of all
    /// the keys), 192 for d = 64, on lengths that end mid-tile, causal and not, varlen.
    #[test]
    fn sm90_block_n_tiles() {
        with_gpu_variants("sm90_block_n_tiles", &[(true, true, true)], |s, a| {
            if a.runtime().arch() != "sm_90a" {
                return;
            }
            for (d, bn) in [(256, 64), (128, 192), (128, 176), (128, 160), (64, 192)] {
                let a = Attention::new(s).unwrap().with_sm90_block_n(d, bn).unwrap();
                tile_cases(s, &a, d, 300);
            }
        });
    }

    /// Varlen, d = 64, GQA 16:4, five sequences: some shorter than others (their later query blocks
    /// skipped), an empty query and an empty key sequence.
    fn varlen_skipping(causal: bool) -> Case {
        Case {
            b: 5,
            hq: 16,
            hkv: 4,
            varlen: Some((
                vec![0, 17, 146, 147, 403, 403],
                vec![0, 17, 17, 273, 402, 500],
            )),
            ..case(0, 0, 64, causal)
        }
    }

    /// The Hopper kernel's persistent CTAs (with and without ping-pong): lengths that end mid-tile, causal
    /// and not, grouped-query heads, d = 64, 128, 256, more tiles than SMs (a CTA loops over several),
    /// varlen with tiles past the shorter sequences skipped and a sequence without keys.
    #[test]
    fn persistent_tiles() {
        with_gpu_variants("persistent_tiles", &[(true, true, true)], |s, _| {
            for pingpong in [true, false] {
                let a = Attention::new(s)
                    .unwrap()
                    .with_sm90_schedule(true, pingpong)
                    .unwrap()
                    .with_sm90_persistent(true)
                    .unwrap();
                if a.runtime().arch() != "sm_90a" {
                    return;
                }
                for causal in [false, true] {
                    for (sq, sk, d) in [(1, 1, 64), (17, 129, 128), (129, 17, 256), (300, 300, 64)]
                    {
                        check::<half::bf16>(s, &a, &case(sq, sk, d, causal));
                    }
                    let many = Case {
                        b: 4,
                        hq: 8,
                        hkv: 2,
                        ..case(600, 520, 128, causal)
                    };
                    check::<half::bf16>(s, &a, &many);
                    check::<half::f16>(s, &a, &varlen_skipping(causal));
                }
            }
        });
    }

    /// The cases of a Hopper tuning choice (`bench_attention --stages3 --sd0 --lpt MIB`), the handle from
    /// `make`: lengths that end mid-tile, causal and not, d = 64, 128, 256; GQA with 192 tiles (more
    /// than the SMs: the LPT snake's backward round); 8500 keys at d = 256 (LPT sections of 3 of the 4
    /// (head, batch) pairs with 32 MiB, the last narrower; of 1 with 8 MiB); varlen with skipped tiles.
    /// `CUTE_ATTN_SHORT`: without the 8500 keys and the d = 64 many-tile case.
    fn tuning_cases(test: &str, make: impl Fn(&Arc<CudaStream>) -> Attention) {
        with_gpu_variants(test, &[(true, true, true)], |s, a| {
            if a.runtime().arch() != "sm_90a" {
                return;
            }
            let a = &make(s);
            for causal in [false, true] {
                for (sq, sk, d) in [(17, 129, 128), (129, 17, 256), (300, 300, 64)] {
                    check::<half::bf16>(s, a, &case(sq, sk, d, causal));
                }
                // CUTE_ATTN_SHORT (for the sanitizers): one many-tile case, not the 8500 keys
                let short = std::env::var("CUTE_ATTN_SHORT").is_ok();
                for d in if short { &[128][..] } else { &[64, 128][..] } {
                    let many = Case {
                        b: 4,
                        hq: 16,
                        hkv: 4,
                        ..case(300, 310, *d, causal)
                    };
                    check::<half::bf16>(s, a, &many);
                }
                if !short {
                    let sections = Case {
                        hq: 2,
                        hkv: 2,
                        ..case(130, 8500, 256, causal)
                    };
                    check::<half::bf16>(s, a, &sections);
                }
                check::<half::f16>(s, a, &varlen_skipping(causal));
            }
        });
    }

    /// 3 K/V stages where they fit.
    #[test]
    fn sm90_tuning_stages3() {
        tuning_cases("sm90_tuning_stages3", |s| {
            Attention::new(s).unwrap().with_sm90_stages(3).unwrap()
        });
    }

    /// The first `S` wgmma at scale-d = 0.
    #[test]
    fn sm90_tuning_sd0() {
        tuning_cases("sm90_tuning_sd0", |s| {
            Attention::new(s).unwrap().with_sm90_s_scale_d0(true)
        });
    }

    /// The dynamic tile scheduler (persistent CTAs taking their next tile from a counter zeroed before
    /// each launch: the back-to-back launches of one handle check the reset), in the plain and the LPT
    /// order, and with tail tiles (1024 rows at d = 64, three consumers).
    #[test]
    fn sm90_tuning_dynamic() {
        let dynamic = |s: &Arc<CudaStream>| {
            Attention::new(s)
                .unwrap()
                .with_sm90_persistent(true)
                .unwrap()
                .with_sm90_dynamic_tiles(true)
        };
        tuning_cases("sm90_tuning_dynamic", dynamic);
        tuning_cases("sm90_tuning_dynamic_lpt", |s| dynamic(s).with_sm90_lpt(32));
        with_gpu_variants("sm90_dynamic_tail_tiles", &[(true, true, true)], |s, a| {
            if a.runtime().arch() != "sm_90a" {
                return;
            }
            let tails = Case {
                b: 2,
                hq: 4,
                hkv: 2,
                ..case(1024, 1000, 64, false)
            };
            check::<half::bf16>(s, &dynamic(s).with_sm90_tail_tiles(true), &tails);
        });
    }

    /// Q prefetched into L2 before the producer waits for its shared memory, persistent CTAs in the
    /// static and the dynamic order.
    #[test]
    fn sm90_tuning_prefetch_q() {
        let pq = |s: &Arc<CudaStream>| Attention::new(s).unwrap().with_sm90_prefetch_q(true);
        tuning_cases("sm90_tuning_prefetch_q_persistent", |s| {
            pq(s).with_sm90_persistent(true).unwrap()
        });
        tuning_cases("sm90_tuning_prefetch_q_dynamic", |s| {
            pq(s)
                .with_sm90_persistent(true)
                .unwrap()
                .with_sm90_dynamic_tiles(true)
        });
    }

    /// The narrow last key block (`Sm90AttentionConfig::narrow_tail`, the plan's where the key length
    /// leaves one): lengths whose last block takes it (one block only, several, 192-key tiles), with
    /// ping-pong, without, serial, S overwritten by its first wgmma, persistent CTAs, 3 consumers with tail
    /// tiles; and the tuning cases with it off.
    #[test]
    fn sm90_narrow_tail() {
        use cute_gpu::attention::plan::plan;
        with_gpu_variants("sm90_narrow_tail", &[(true, true, true)], |s, a| {
            if a.runtime().arch() != "sm_90a" {
                return;
            }
            let l = bshd(2, 450, 4, 128).unwrap();
            let name = a
                .kernel_name(&plan(&bf16_request(&l, false)).unwrap())
                .unwrap();
            assert!(name.ends_with("_nt80"), "{name}"); // 450 = 3 x 128 + 66
            let new = || Attention::new(s).unwrap();
            let handles = [
                new(),
                new().with_sm90_schedule(true, false).unwrap(),
                new().with_sm90_schedule(false, false).unwrap(),
                new().with_sm90_s_scale_d0(true),
                new().with_sm90_persistent(true).unwrap(),
                new().with_sm90_block_n(128, 192).unwrap(),
            ];
            for a in &handles {
                // last blocks of 66, 40, 17 (the only block) and 64 keys (192-key tiles: 640 = 3 x 192 + 64)
                for (sq, sk, d) in [
                    (70, 450, 128),
                    (65, 200, 256),
                    (200, 17, 64),
                    (129, 640, 128),
                ] {
                    check::<half::bf16>(s, a, &case(sq, sk, d, false));
                }
                check::<half::f16>(s, a, &case(300, 300, 64, false));
            }
        });
        tuning_cases("sm90_narrow_tail_off", |s| {
            Attention::new(s).unwrap().with_sm90_narrow_tail(false)
        });
    }

    /// Keys whose scores grow along the sequence (a row's max moves often), d = 64, 128, 256, causal and
    /// not, bf16 and f16.
    fn ramp_cases(s: &Arc<CudaStream>, a: &Attention) {
        for causal in [false, true] {
            for (sq, sk, d) in [(300, 700, 64), (129, 1000, 128), (200, 500, 256)] {
                let ramp = Case {
                    ramp: true,
                    ..case(sq, sk, d, causal)
                };
                check::<half::bf16>(s, a, &ramp);
                check::<half::f16>(s, a, &ramp);
            }
        }
    }

    /// Lazy rescaling of O, also on keys whose scores grow along the sequence (the max moves often).
    #[test]
    fn sm90_tuning_lazy() {
        let lazy = |s: &Arc<CudaStream>| Attention::new(s).unwrap().with_sm90_lazy_rescale(true);
        tuning_cases("sm90_tuning_lazy", lazy);
        with_gpu_variants("sm90_tuning_lazy_ramp", &[(true, true, true)], |s, _| {
            ramp_cases(s, &lazy(s));
        });
    }

    /// O rescaled just before each `P·V` (with and without ping-pong, with lazy rescaling): the tuning
    /// cases and keys whose scores grow along the sequence (every block moves the max).
    #[test]
    fn sm90_tuning_rescale_before_pv() {
        let early =
            |s: &Arc<CudaStream>| Attention::new(s).unwrap().with_sm90_rescale_before_pv(true);
        tuning_cases("sm90_tuning_rescale_before_pv", early);
        with_gpu_variants(
            "sm90_rescale_before_pv_ramp",
            &[(true, true, true)],
            |s, _| {
                ramp_cases(s, &early(s));
                ramp_cases(s, &early(s).with_sm90_schedule(true, false).unwrap());
                ramp_cases(s, &early(s).with_sm90_lazy_rescale(true));
            },
        );
    }

    /// Exponentials on the FMA pipe, one of every 2 score atoms: the tuning cases.
    #[test]
    fn sm90_tuning_poly_exp2() {
        tuning_cases("sm90_tuning_poly_exp2", |s| {
            Attention::new(s).unwrap().with_sm90_poly_exp2(2).unwrap()
        });
    }

    /// Exponentials on the FMA pipe on keys whose scores grow along the sequence: one of every 2 score
    /// atoms, and every atom with lazy rescaling (arguments up to 2^8); the kernel's name checked. Short
    /// (for the sanitizers).
    #[test]
    fn sm90_poly_exp2_ramp() {
        with_gpu_variants("sm90_poly_exp2_ramp", &[(true, true, true)], |s, _| {
            let every = |n| Attention::new(s).unwrap().with_sm90_poly_exp2(n).unwrap();
            let all = every(1).with_sm90_lazy_rescale(true);
            if all.runtime().arch() != "sm_90a" {
                return;
            }
            let l = bshd(2, 300, 4, 64).unwrap();
            let name = all
                .kernel_name(&cute_gpu::attention::plan::plan(&bf16_request(&l, false)).unwrap())
                .unwrap();
            assert!(name.contains("_lz_px1"), "{name}");
            ramp_cases(s, &every(2));
            ramp_cases(s, &all);
        });
    }

    /// Persistent CTAs in the LPT order, 8 MiB sections.
    #[test]
    fn sm90_tuning_lpt() {
        tuning_cases("sm90_tuning_lpt", |s| {
            Attention::new(s)
                .unwrap()
                .with_sm90_persistent(true)
                .unwrap()
                .with_sm90_lpt(8)
        });
    }

    /// 3 consumer warp groups for d = 64 (192 query rows per CTA, `with_sm90_consumers(3)`; the kernel's
    /// name checked): lengths that end mid-tile (of 192 rows and of 128 keys), Sq != Sk both ways, a
    /// sequence of 1, the wide-key plan (2100 keys) narrowed to 128 keys, GQA with more tiles than SMs
    /// (persistent CTAs loop), causal and not, f16 and bf16, with and without persistent CTAs (and the LPT
    /// order), without ping-pong, varlen with skipped tiles (`CUTE_ATTN_SHORT`: not the 2100 keys, varlen).
    #[test]
    fn sm90_tuning_consumers3() {
        use cute_gpu::attention::plan::plan;
        with_gpu_variants("sm90_tuning_consumers3", &[(true, true, true)], |s, _| {
            // CUTE_ATTN_SHORT (for the sanitizers): without the 2100-key and varlen cases
            let short = std::env::var("CUTE_ATTN_SHORT").is_ok();
            let c3 = || Attention::new(s).unwrap().with_sm90_consumers(3).unwrap();
            let a = c3();
            if a.runtime().arch() != "sm_90a" {
                return;
            }
            let l = bshd(2, 300, 4, 64).unwrap();
            let name = a
                .kernel_name(&plan(&bf16_request(&l, false)).unwrap())
                .unwrap();
            assert!(name.contains("_d64_192x128"), "{name}");
            let handles = [
                a,
                c3().with_sm90_persistent(true).unwrap(),
                c3().with_sm90_persistent(true).unwrap().with_sm90_lpt(8),
                c3().with_sm90_schedule(true, false).unwrap(),
            ];
            for (i, a) in handles.iter().enumerate() {
                for causal in [false, true] {
                    for (sq, sk) in [(1, 1), (191, 193), (193, 191), (385, 100), (100, 385)] {
                        check::<half::bf16>(s, a, &case(sq, sk, 64, causal));
                    }
                    if i > 1 {
                        continue; // the LPT order and no ping-pong: the short cases
                    }
                    let many = Case {
                        b: 4,
                        hq: 16,
                        hkv: 4,
                        ..case(400, 310, 64, causal)
                    };
                    check::<half::bf16>(s, a, &many);
                    if short {
                        continue;
                    }
                    check::<half::f16>(s, a, &case(577, 2100, 64, causal));
                    check::<half::f16>(s, a, &varlen_skipping(causal));
                }
            }
        });
    }

    /// Tail tiles (d = 64, 3 consumers, persistent): query lengths whose last 192-row block has 1 to
    /// 64 rows (and 65: none), (head, batch) pairs not a multiple of 3 (the last group's idle
    /// consumers), one pair (every consumer but one idle), GQA, BHSD, more tiles than SMs, Sq != Sk, causal
    /// (forced: not a default) and not, f16 and bf16, without ping-pong; the handle without them alike.
    #[test]
    fn sm90_tail_tiles() {
        use cute_gpu::attention::plan::plan;
        with_gpu_variants("sm90_tail_tiles", &[(true, true, true)], |s, _| {
            let tails = || {
                Attention::new(s)
                    .unwrap()
                    .with_sm90_persistent(true)
                    .unwrap()
                    .with_sm90_consumers(3)
                    .unwrap()
                    .with_sm90_lpt(0)
                    .with_sm90_tail_tiles(true)
            };
            let a = tails();
            if a.runtime().arch() != "sm_90a" {
                return;
            }
            let name = |a: &Attention, causal| {
                let l = bshd(2, 300, 4, 64).unwrap();
                a.kernel_name(&plan(&bf16_request(&l, causal)).unwrap())
                    .unwrap()
            };
            let default = Attention::new(s).unwrap();
            assert!(
                name(&default, false).contains("_tt"),
                "{}",
                name(&default, false)
            );
            assert!(name(&a, true).contains("_tt"), "{}", name(&a, true));
            let handles = [
                a,
                tails().with_sm90_schedule(true, false).unwrap(),
                Attention::new(s).unwrap().with_sm90_tail_tiles(false),
            ];
            // CUTE_ATTN_SHORT (for the sanitizers): the first handle, three lengths, ten pairs
            let short = std::env::var("CUTE_ATTN_SHORT").is_ok();
            let lengths: &[(i64, i64)] = if short {
                &[(17, 300), (200, 200), (449, 448)]
            } else {
                &[
                    (1, 1),
                    (17, 300),
                    (200, 200),
                    (256, 100),
                    (448, 449),
                    (449, 448),
                ]
            };
            let pairs: &[(i64, i64, i64)] = if short {
                &[(2, 5, 5)]
            } else {
                &[(1, 1, 1), (2, 5, 5), (2, 6, 2)]
            };
            for (i, a) in handles.iter().enumerate().take(if short { 1 } else { 3 }) {
                for causal in [false, true] {
                    for &(sq, sk) in lengths {
                        for &(b, hq, hkv) in pairs {
                            check::<half::bf16>(
                                s,
                                a,
                                &Case {
                                    b,
                                    hq,
                                    hkv,
                                    ..case(sq, sk, 64, causal)
                                },
                            );
                        }
                    }
                    if i > 0 || short {
                        continue;
                    }
                    let many = Case {
                        b: 4,
                        hq: 16,
                        hkv: 4,
                        ..case(400, 310, 64, causal)
                    };
                    check::<half::bf16>(s, a, &many);
                    check::<half::f16>(
                        s,
                        a,
                        &Case {
                            bhsd: true,
                            ..case(1024, 1024, 64, causal)
                        },
                    );
                }
            }
        });
    }

    /// All together: LPT with 32 MiB sections, 3 stages, scale-d = 0.
    #[test]
    fn sm90_tuning_all() {
        tuning_cases("sm90_tuning_all", |s| {
            Attention::new(s)
                .unwrap()
                .with_sm90_persistent(true)
                .unwrap()
                .with_sm90_lpt(32)
                .with_sm90_stages(3)
                .unwrap()
                .with_sm90_s_scale_d0(true)
        });
    }

    /// Back-to-back causal calls, each reading as Q the O the call before it wrote, with and without
    /// programmatic dependent launch. 256 (batch, head) tiles of 128 rows are more than the SMs, so the
    /// persistent CTAs take most of their tiles from the dynamic scheduler's counter, which each grid
    /// zeroes at its last fetch for the next one: a grid that saw it unzeroed would skip tiles, and one
    /// that read Q before its wait for the grid before it would read half-written rows.
    #[test]
    fn chained_calls_with_dependent_launch() {
        use cute_gpu::kernels::attention_sm90::Sm90AttentionConfig;
        let Some(s) = stream("chained_calls_with_dependent_launch") else {
            return;
        };
        let (b, sq, h, d, calls) = (16i64, 128i64, 16i64, 64i64, 4usize);
        let planned = Sm90AttentionConfig::new(DType::BF16, d, true).for_keys(sq);
        assert!(
            planned.dynamic() && b * h > 132,
            "the case must take the dynamic scheduler"
        );
        let l = bshd(b, sq, h, d).unwrap();
        let n = (b * sq * h * d) as usize;
        let mut rng = Rng(0xc4a1);
        let (q, dq) = tensor::<half::bf16>(&s, &mut rng, DType::BF16, &l, (2.0, false));
        let (k, dk) = tensor::<half::bf16>(&s, &mut rng, DType::BF16, &l, (2.0, false));
        let (v, dv) = tensor::<half::bf16>(&s, &mut rng, DType::BF16, &l, (1.0, false));
        let p = RefProblem {
            batch: b as usize,
            sq: sq as usize,
            sk: sq as usize,
            hq: h as usize,
            hkv: h as usize,
            d: d as usize,
            causal: true,
            scale: 1.0 / (d as f64).sqrt(),
        };
        let bound = o_bound(
            DType::BF16,
            sq,
            v.iter().fold(0f32, |a, x| a.max(x.abs())) as f64,
        );
        for dependent in [true, false] {
            let attn = Attention::new(&s).unwrap().with_dependent_launch(dependent);
            let mut outs: Vec<_> = (0..calls)
                .map(|_| s.alloc_zeros::<half::bf16>(n).unwrap())
                .collect();
            for i in 0..calls {
                let (done, rest) = outs.split_at_mut(i);
                let qi = if i == 0 { &dq } else { &done[i - 1] };
                let (qi, ki, vi) = (
                    Tensor::new(qi, l.clone()),
                    Tensor::new(&dk, l.clone()),
                    Tensor::new(&dv, l.clone()),
                );
                let mut o = TensorMut::new(&mut rest[0], l.clone());
                let opts = Options {
                    causal: true,
                    ..Options::default()
                };
                attn.run(&qi, &ki, &vi, &mut o, None, &opts).unwrap();
            }
            let mut input = q.clone();
            for (i, out) in outs.iter().enumerate() {
                let got: Vec<f32> = s
                    .clone_dtoh(out)
                    .unwrap()
                    .iter()
                    .map(|x: &half::bf16| x.to_f32())
                    .collect();
                let (o_ref, _) = reference_attention(&p, &input, &k, &v);
                let err = got
                    .iter()
                    .zip(&o_ref)
                    .map(|(&g, &r)| (g as f64 - r).abs())
                    .fold(0f64, |a, e| {
                        if e.is_nan() || a.is_nan() {
                            f64::NAN
                        } else {
                            a.max(e)
                        }
                    });
                assert!(
                    err <= bound,
                    "call {i} (dependent launch {dependent}): max |O - ref| = {err} > {bound}"
                );
                eprintln!("call {i} (dependent launch {dependent}): max |O - ref| = {err:.3e}");
                input = got;
            }
        }
    }

    #[test]
    fn bad_buffers_fail_before_launch() {
        with_gpu("bad_buffers_fail_before_launch", |s, a| {
            let l = bshd(1, 64, 2, 64).unwrap();
            let n = 64 * 2 * 64;
            let x = s.alloc_zeros::<half::bf16>(n).unwrap();
            let short = s.alloc_zeros::<half::bf16>(n - 1).unwrap();
            let mut o = s.alloc_zeros::<half::bf16>(n).unwrap();
            let e = a.run(
                &Tensor::new(&x, l.clone()),
                &Tensor::new(&short, l.clone()),
                &Tensor::new(&x, l.clone()),
                &mut TensorMut::new(&mut o, l.clone()),
                None,
                &Options::default(),
            );
            assert!(
                matches!(e, Err(cute_gpu::GpuError::BufferTooSmall { ref arg, .. }) if arg == "K"),
                "{e:?}"
            );
            let mut lse = s.alloc_zeros::<f32>(10).unwrap();
            let e = a.run(
                &Tensor::new(&x, l.clone()),
                &Tensor::new(&x, l.clone()),
                &Tensor::new(&x, l.clone()),
                &mut TensorMut::new(&mut o, l),
                Some(&mut lse),
                &Options::default(),
            );
            assert!(
                matches!(e, Err(cute_gpu::GpuError::BufferTooSmall { ref arg, .. }) if arg == "LSE"),
                "{e:?}"
            );
        });
    }
}
