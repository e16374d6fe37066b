//! The attention call's CPU side: layouts helpers, every bad input rejected with a typed error naming the
//! values (before any launch), the kernel arguments, and the f64 reference on hand-checkable cases.

use cute_gpu::GpuError;
use cute_gpu::attention::plan::{Bound, Request, check_bound, dims, plan};
use cute_gpu::attention::reference::{RefProblem, reference_attention};
use cute_gpu::attention::{bhsd, bshd};
use cute_gpu::kernels::attention_sm80::generate_attention;
use cute_gpu::{DType, kernel::Arg};
use cute_layout_core::Layout;

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

fn request<'a>(q: &'a Layout, k: &'a Layout, v: &'a Layout, o: &'a Layout) -> Request<'a> {
    Request {
        q,
        k,
        v,
        o,
        dtype: DType::BF16,
        scale: None,
        causal: false,
        varlen: None,
    }
}

fn config_error(r: &Request, needle: &str) {
    match plan(r) {
        Err(GpuError::Config {
            kernel: "attention",
            reason,
        }) => {
            assert!(
                reason.contains(needle),
                "{reason:?} should mention {needle:?}"
            )
        }
        other => panic!("expected a Config error mentioning {needle:?}, got {other:?}"),
    }
}

#[test]
fn layouts_and_good_plan() {
    let (q, kv) = (bshd(2, 100, 8, 128).unwrap(), bhsd(2, 300, 2, 128).unwrap());
    assert_eq!(
        dims(&kv, "K").unwrap().stride,
        [2 * 300 * 128, 128, 300 * 128, 1]
    );
    let p = plan(&Request {
        causal: true,
        ..request(&q, &kv, &kv, &q)
    })
    .unwrap();
    assert_eq!(
        (p.args.batch, p.args.sq, p.args.sk, p.args.hq, p.args.hkv),
        (2, 100, 300, 8, 2)
    );
    assert_eq!(
        p.needed,
        [
            2 * 100 * 8 * 128 * 2,
            2 * 300 * 2 * 128 * 2,
            2 * 300 * 2 * 128 * 2,
            2 * 100 * 8 * 128 * 2,
            2 * 8 * 100 * 4
        ]
    );
    assert!((p.args.scale - 1.0 / 128f32.sqrt()).abs() < 1e-7);
    assert!(p.config.causal && !p.config.varlen && !p.empty);
    let mut k = generate_attention(&p.config).unwrap();
    p.args.apply(&p.config, &mut k).unwrap();
    assert_eq!(k.grid, (2, 8, 2));
    assert!(k.args.contains(&Arg::I32("group".into(), 4)));
    assert!(k.args.contains(&Arg::I64("k_h".into(), 300 * 128)));
    assert!(k.args.contains(&Arg::I32("Sk".into(), 300)));
    assert!(k.args.contains(&Arg::I64("lse_b".into(), 8 * 100)));
    let scale_log2 = p.args.scale * std::f32::consts::LOG2_E;
    // the whole list, in the kernel's parameter order
    let mut want: Vec<Arg> = ["Q", "K", "V", "O", "LSE"]
        .map(|n| Arg::Ptr(n.into()))
        .to_vec();
    want.extend([("Sq", 100), ("Sk", 300), ("group", 4)].map(|(n, v)| Arg::I32(n.into(), v)));
    let (qs, ks) = (
        [100 * 8 * 128, 8 * 128, 128],
        [2 * 300 * 128, 128, 300 * 128],
    );
    let strides = [("q", qs), ("k", ks), ("v", ks), ("o", qs)];
    for (t, [b, s, h]) in strides {
        want.extend([("b", b), ("s", s), ("h", h)].map(|(m, v)| Arg::I64(format!("{t}_{m}"), v)));
    }
    want.extend([("lse_b", 800), ("lse_h", 100), ("lse_s", 1)].map(|(n, v)| Arg::I64(n.into(), v)));
    want.push(Arg::F32("scale_log2".into(), scale_log2));
    assert_eq!(k.args, want);
}

#[test]
fn bad_inputs_are_errors() {
    let q = bshd(1, 64, 4, 128).unwrap();
    let k64 = bshd(1, 64, 4, 64).unwrap();
    config_error(
        &request(&q, &k64, &k64, &q),
        "head dims differ: Q 128, K 64, V 64, O 128",
    );
    let k3 = bshd(1, 64, 3, 128).unwrap();
    config_error(
        &request(&q, &k3, &k3, &q),
        "3 K/V heads do not divide 4 query heads",
    );
    let q96 = bshd(1, 64, 4, 96).unwrap();
    config_error(&request(&q96, &q96, &q96, &q96), "head dim 96");
    let strided_d = l("(1,64,4,128):(65536,1024,256,2)");
    config_error(&request(&strided_d, &q, &q, &q), "must be contiguous");
    let odd = l("(1,64,4,128):(32772,516,129,1)");
    config_error(&request(&odd, &q, &q, &q), "multiple of 8");
    config_error(&request(&l("(64,4,128):(512,128,1)"), &q, &q, &q), "rank-4");
    let other_b = bshd(2, 64, 4, 128).unwrap();
    config_error(&request(&q, &other_b, &other_b, &q), "batches differ");
    let o_short = bshd(1, 63, 4, 128).unwrap();
    config_error(&request(&q, &q, &q, &o_short), "query lengths differ");
    let v_other = bshd(1, 65, 4, 128).unwrap();
    config_error(&request(&q, &q, &v_other, &q), "key lengths differ");
    config_error(
        &Request {
            scale: Some(-1.0),
            ..request(&q, &q, &q, &q)
        },
        "scale -1",
    );
    config_error(
        &Request {
            scale: Some(f32::NAN),
            ..request(&q, &q, &q, &q)
        },
        "scale NaN",
    );
    config_error(
        &Request {
            dtype: DType::F32,
            ..request(&q, &q, &q, &q)
        },
        "f32",
    );
}

#[test]
fn bad_varlen_offsets_are_errors() {
    let q = bshd(1, 100, 2, 64).unwrap();
    let r = |cq: &'static [i32], ck: &'static [i32]| Request {
        varlen: Some((cq, ck)),
        ..request(&q, &q, &q, &q)
    };
    config_error(
        &r(&[0, 10, 5], &[0, 10, 20]),
        "cu_seqlens_q decreases: 10 then 5",
    );
    config_error(&r(&[1, 10], &[0, 10]), "starting at 0");
    config_error(
        &r(&[0, 10, 101], &[0, 10, 20]),
        "cu_seqlens_q ends at 101, past the 100 rows",
    );
    config_error(
        &r(&[0, 10], &[0, 10, 20]),
        "cu_seqlens_q has 2 offsets, cu_seqlens_k 3",
    );
    let q2 = bshd(2, 100, 2, 64).unwrap();
    config_error(
        &Request {
            varlen: Some((&[0, 10], &[0, 10])),
            ..request(&q2, &q2, &q2, &q2)
        },
        "B must be 1",
    );
    let p = plan(&r(&[0, 10, 40, 100], &[0, 1, 99, 100])).unwrap();
    assert_eq!(
        (p.args.batch, p.args.sq, p.args.sk, p.args.lse),
        (3, 60, 98, [0, 100, 1])
    );
    assert_eq!(p.args.strides[0], [0, 128, 64]); // rows of sequence b start at cu_seqlens[b], no batch stride
    assert_eq!(p.needed[4], 2 * 100 * 4);
}

#[test]
fn short_misaligned_and_overlapping_buffers_are_errors() {
    let q = bshd(1, 64, 4, 128).unwrap();
    let p = plan(&request(&q, &q, &q, &q)).unwrap();
    let n = 64 * 4 * 128 * 2;
    let at = |i: u64| i * (1 << 20);
    let good = |name, i| Bound {
        name,
        ptr: at(i),
        bytes: n,
    };
    let mut b = [
        good("Q", 1),
        good("K", 2),
        good("V", 3),
        good("O", 4),
        Bound {
            name: "LSE",
            ptr: at(5),
            bytes: 4 * 4 * 64,
        },
    ];
    check_bound(&p, &b).unwrap();
    b[1].bytes = n - 2;
    assert!(
        matches!(check_bound(&p, &b), Err(GpuError::BufferTooSmall { ref arg, bytes, needed }) if arg == "K" && bytes == n - 2 && needed == n)
    );
    b[1].bytes = n;
    b[2].ptr += 8;
    assert!(
        matches!(check_bound(&p, &b), Err(GpuError::Misaligned { ref arg, alignment: 16, .. }) if arg == "V")
    );
    b[2].ptr = at(3);
    b[4].bytes = 16;
    assert!(
        matches!(check_bound(&p, &b), Err(GpuError::BufferTooSmall { ref arg, .. }) if arg == "LSE")
    );
    b[4].bytes = 4 * 4 * 64;
    b[3].ptr = at(1) + 256;
    assert!(
        matches!(check_bound(&p, &b), Err(GpuError::Config { ref reason, .. }) if reason.contains("O overlaps Q"))
    );
}

#[test]
fn reference_masks_and_lse() {
    // causal, Sq = 3 > Sk = 2: row 0 sees no key (O = 0, LSE = -inf), row 1 sees key 0, row 2 both.
    let p = RefProblem {
        batch: 1,
        sq: 3,
        sk: 2,
        hq: 1,
        hkv: 1,
        d: 1,
        causal: true,
        scale: 1.0,
    };
    let (o, lse) = reference_attention(&p, &[1.0, 1.0, 1.0], &[0.0, 0.0], &[2.0, 4.0]);
    assert_eq!(o, [0.0, 2.0, 3.0]);
    assert_eq!(lse[0], f64::NEG_INFINITY);
    assert!(lse[1].abs() < 1e-15 && (lse[2] - 2f64.ln()).abs() < 1e-15);
    // GQA: two query heads share one K/V head
    let p = RefProblem {
        batch: 1,
        sq: 1,
        sk: 1,
        hq: 2,
        hkv: 1,
        d: 1,
        causal: false,
        scale: 1.0,
    };
    assert_eq!(
        reference_attention(&p, &[1.0, 5.0], &[3.0], &[7.0]).0,
        [7.0, 7.0]
    );
}

/// The Hopper kernel's plan: taken for BSHD and BHSD (not for varlen or a broadcast K/V head stride),
/// and its tensor maps set per call as rank-4 `(D, S, H, B)` views with the layouts' strides.
#[test]
fn hopper_plan_and_tensor_maps() {
    use cute_gpu::kernels::attention_sm90::{apply, generate_attention_sm90};
    let (q, kv) = (
        bhsd(2, 300, 8, 128).unwrap(),
        bshd(2, 1000, 2, 128).unwrap(),
    );
    let p = plan(&Request {
        causal: true,
        ..request(&q, &kv, &kv, &q)
    })
    .unwrap();
    let cfg = p.sm90.expect("the Hopper kernel takes BSHD/BHSD");
    // d = 128 causal: intra-warp-group overlap without ping-pong (the plan's schedule since session 6)
    assert!(cfg.causal && cfg.overlap && !cfg.pingpong);
    // causal: persistent CTAs taking their tiles from the dynamic scheduler's counter
    assert!(cfg.persistent && cfg.dynamic());
    let mut k = generate_attention_sm90(&cfg).unwrap();
    assert_eq!(k.buffer_names(), ["Q", "K", "V", "O", "LSE", "tile_sched"]);
    apply(&cfg, &p.args, &mut k).unwrap();
    let maps: Vec<_> = k
        .args
        .iter()
        .filter_map(|a| match a {
            Arg::TensorMap(m) => Some(m),
            _ => None,
        })
        .collect();
    // Q (B,H,S,D) storage: row stride D, head stride S*D, batch stride H*S*D
    assert_eq!(
        (maps[0].extents, maps[0].ld, maps[0].outer.clone()),
        ([128, 300], 128, vec![(8, 300 * 128), (2, 8 * 300 * 128)])
    );
    // K (B,S,H,D) storage: row stride H*D, head stride D; 128-key boxes of 64 columns
    assert_eq!(
        (
            maps[1].extents,
            maps[1].ld,
            maps[1].outer.clone(),
            maps[1].box_dims
        ),
        ([128, 1000], 256, vec![(2, 128), (2, 1000 * 256)], [64, 128])
    );
    // V: MN-major 64x64 boxes
    assert_eq!((maps[2].box_dims, maps[2].swizzle_bytes), ([64, 64], 128));
    // one CTA per tile (3 query blocks x 8 heads x 2 batches), at most one per SM at launch
    assert_eq!(k.grid, (48, 1, 1));
    let one_per_tile = cute_gpu::kernels::attention_sm90::Sm90AttentionConfig {
        persistent: false,
        ..cfg
    };
    let mut k = generate_attention_sm90(&one_per_tile).unwrap();
    assert_eq!(k.buffer_names(), ["Q", "K", "V", "O", "LSE"]);
    apply(&one_per_tile, &p.args, &mut k).unwrap();
    assert_eq!(k.grid, (3, 8, 2));
    // a broadcast K/V head (stride 0 over 2 heads) cannot be a TMA stride: the mma.sync kernel runs it
    let bcast = l("(2,1000,2,128):(128000,128,0,1)");
    assert!(
        plan(&request(&q, &bcast, &bcast, &q))
            .unwrap()
            .sm90
            .is_none()
    );
    let cu = [0, 300, 600];
    let packed = bshd(1, 600, 8, 128).unwrap();
    let r = Request {
        varlen: Some((&cu, &cu)),
        ..request(&packed, &packed, &packed, &packed)
    };
    // varlen: the maps span the packed rows (one batch), a CTA per (query block, head, sequence)
    let p = plan(&r).unwrap();
    let cfg = p.sm90.expect("the Hopper kernel takes packed sequences");
    assert!(cfg.varlen && !cfg.causal);
    assert!(
        cfg.persistent,
        "short non-causal sequences: persistent CTAs by default"
    );
    // one CTA per tile: the grid below
    let cfg = cute_gpu::kernels::attention_sm90::Sm90AttentionConfig {
        persistent: false,
        ..cfg
    };
    let mut k = generate_attention_sm90(&cfg).unwrap();
    assert_eq!(
        k.buffer_names(),
        ["Q", "K", "V", "O", "LSE", "cu_q", "cu_k"]
    );
    apply(&cfg, &p.args, &mut k).unwrap();
    let Arg::TensorMap(mq) = &k.args[0] else {
        panic!("Q's tensor map first")
    };
    assert_eq!(
        (mq.extents, mq.ld, mq.outer.clone()),
        ([128, 600], 1024, vec![(8, 128), (1, 8)])
    );
    assert_eq!(k.grid, (3, 8, 2));
    // a fixed-length variant does not take packed arguments
    let fixed = cute_gpu::kernels::attention_sm90::Sm90AttentionConfig {
        varlen: false,
        ..cfg
    };
    let mut kf = generate_attention_sm90(&fixed).unwrap();
    assert!(
        apply(&fixed, &p.args, &mut kf)
            .unwrap_err()
            .to_string()
            .contains("a fixed-length kernel, varlen arguments")
    );
}

/// Tail tiles (d = 64, non-causal, persistent, 3 consumers): the plan's default below 2048 query rows;
/// the grid counts the full blocks of every (head, batch) pair plus one tile per 3 pairs' last blocks
/// when those have at most 64 rows, else every block; Q has a second map of 64-row boxes; varlen has no
/// tail tiles.
#[test]
fn hopper_tail_tiles() {
    use cute_gpu::kernels::attention_sm90::{Sm90AttentionConfig, apply, generate_attention_sm90};
    let grid = |sq: i64, heads: i64, batch: i64| {
        let q = bshd(batch, sq, heads, 64).unwrap();
        let p = plan(&request(&q, &q, &q, &q)).unwrap();
        let cfg = p.sm90.unwrap();
        // the plan takes them below 2048 rows (where they measured faster); the variant, at any length
        let cfg = Sm90AttentionConfig {
            tail_tiles: true,
            ..cfg
        };
        assert!(cfg.tails(), "{cfg:?}");
        let mut k = generate_attention_sm90(&cfg).unwrap();
        assert!(k.name.contains("_tt"), "{}", k.name);
        apply(&cfg, &p.args, &mut k).unwrap();
        let boxes: Vec<_> = k
            .args
            .iter()
            .filter_map(|a| match a {
                Arg::TensorMap(m) => Some((m.name.clone(), m.box_dims, m.extents[1])),
                _ => None,
            })
            .collect();
        assert_eq!(boxes[3], ("tmQt".to_string(), [64, 64], sq as u64));
        k.grid.0
    };
    // 1024 rows: 5 full 192-row blocks per pair + ceil(512 / 3) tail tiles
    assert_eq!(grid(1024, 32, 16), 512 * 5 + 171);
    assert_eq!(grid(4096, 32, 4), 128 * 21 + 43);
    assert_eq!(grid(17, 5, 2), 4); // every tile a tail tile: ceil(10 / 3)
    assert_eq!(grid(449, 5, 2), 10 * 3); // 65 rows left: no tail tiles
    let tails = |sq: i64| {
        let q = bshd(2, sq, 4, 64).unwrap();
        plan(&request(&q, &q, &q, &q))
            .unwrap()
            .sm90
            .unwrap()
            .tails()
    };
    assert!(tails(1024) && tails(17) && !tails(4096));
    let packed = bshd(1, 600, 8, 64).unwrap();
    let cu = [0, 300, 600];
    let r = Request {
        varlen: Some((&cu, &cu)),
        ..request(&packed, &packed, &packed, &packed)
    };
    assert!(!plan(&r).unwrap().sm90.unwrap().tails());
}

/// The narrow last key block: the plan's where the key length leaves a last block at least 32 keys
/// short of the tile (non-causal, fixed-length), named in the kernel, its copy of the last block in the
/// source; refused for causal variants.
#[test]
fn hopper_narrow_tail() {
    use cute_gpu::kernels::attention_sm90::{Sm90AttentionConfig, generate_attention_sm90};
    let cfg = |seq: i64, d: i64, causal: bool| {
        let q = bshd(4, seq, 2048 / d, d).unwrap();
        plan(&Request {
            causal,
            ..request(&q, &q, &q, &q)
        })
        .unwrap()
        .sm90
        .unwrap()
    };
    // d = 128: 4096 keys = 21 blocks of 192 + 64; d = 256: 51 of 80 + 16; 16384 = 85 of 192 + 64
    assert_eq!(cfg(4096, 128, false).narrow_tail, 64);
    assert_eq!(cfg(4096, 256, false).narrow_tail, 16);
    assert_eq!(cfg(16384, 128, false).narrow_tail, 64);
    // blocks that divide the keys, 170 of 192 keys (too close to a full block)
    assert_eq!(cfg(1024, 128, false).narrow_tail, 0);
    assert_eq!(cfg(4202, 128, false).narrow_tail, 0);
    // causal: never (measured slower, see Sm90AttentionConfig::narrow_tail), and refused
    assert_eq!(cfg(4096, 128, true).narrow_tail, 0);
    let forced = Sm90AttentionConfig {
        narrow_tail: 64,
        ..cfg(4096, 128, true)
    };
    assert!(generate_attention_sm90(&forced).is_err());
    let k = generate_attention_sm90(&cfg(4096, 128, false)).unwrap();
    assert!(k.name.ends_with("_nt64"), "{}", k.name);
    assert!(
        k.source
            .contains("if (nb_full < NB) {   // the narrow last block")
    );
    assert!(
        k.source
            .contains("wgmma_m64n64k16(*reinterpret_cast<float (*)[32]>(sc)")
    );
    let packed = bshd(1, 600, 8, 64).unwrap();
    let cu = [0, 300, 600];
    let r = Request {
        varlen: Some((&cu, &cu)),
        ..request(&packed, &packed, &packed, &packed)
    };
    assert_eq!(plan(&r).unwrap().sm90.unwrap().narrow_tail, 0);
}
