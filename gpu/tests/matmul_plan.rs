//! The GEMM call's plan, without a GPU: bad input gives its error, the heuristic picks a kernel for every
//! shape class, and every kernel variant the heuristic can pick compiles with NVRTC.
#![allow(clippy::manual_is_multiple_of)]

mod common;

use common::{k_major, l, request};
use cute_gpu::DType;
use cute_gpu::matmul::plan::{Decomposition, Plan, Request, Span, check_spans, plan};

fn planned(r: &Request) -> Plan {
    plan(r).unwrap().expect("a non-empty problem")
}

#[test]
fn heuristic_picks_a_kernel_for_every_shape_class() {
    let (a, b, d) = (
        l("(4096,4096):(4096,1)"),
        l("(4096,4096):(1,4096)"),
        l("(4096,4096):(4096,1)"),
    );
    assert_eq!(planned(&request(&a, &b, &d, "sm_90a")).path, "sm90");
    assert_eq!(planned(&request(&a, &b, &d, "sm_80")).path, "sm80");
    assert_eq!(planned(&request(&a, &b, &d, "sm_89")).path, "sm80");
    // beta reads C, alpha scales: the SM90 kernel's fused epilogue
    let mut r = request(&a, &b, &d, "sm_90a");
    (r.alpha, r.beta) = (2.0, 0.5);
    let p = planned(&r);
    assert_eq!(p.path, "sm90");
    assert!(p.kernel.name.ends_with("_ab"), "{}", p.kernel.name);
    assert_eq!(p.kernel.buffer_names(), ["A", "B", "D", "C"]);
    // decode-like and skinny shapes
    for (m, n, k) in [
        (16, 8192, 8192),
        (128, 8192, 8192),
        (4095, 4097, 1023),
        (1, 1, 1),
        (7, 300, 40),
    ] {
        let up = |x: i64| (x + 7) / 8 * 8;
        let (a, b, d) = (
            l(&format!("({m},{k}):({},1)", up(k))),
            l(&format!("({k},{n}):(1,{})", up(k))),
            l(&format!("({m},{n}):({},1)", up(n))),
        );
        let p = planned(&request(&a, &b, &d, "sm_90a"));
        assert_eq!(p.path, "sm90", "{m}x{n}x{k}");
    }
    // leading dimensions that are not multiples of 8, misaligned bases, K = 0: the fallback kernel
    let (a1, b1, d1) = (
        l("(100,101):(101,1)"),
        l("(101,50):(1,101)"),
        l("(100,50):(50,1)"),
    );
    assert_eq!(planned(&request(&a1, &b1, &d1, "sm_90a")).path, "simt");
    let mut r = request(&a, &b, &d, "sm_90a");
    r.aligned = [true, false, true, true];
    assert_eq!(planned(&r).path, "simt");
    let (a0, b0, d0) = (l("(64,0):(8,1)"), l("(0,64):(1,8)"), l("(64,64):(64,1)"));
    assert_eq!(planned(&request(&a0, &b0, &d0, "sm_90a")).path, "simt");
}

#[test]
fn tile_shapes_fill_the_sms() {
    use cute_gpu::matmul::plan::sm90_config;
    let tile = |m, n| {
        let c = sm90_config(m, n, (n + 7) / 8 * 8 * 2, 132);
        (c.bm, c.bn, c.tma_store)
    };
    assert_eq!(tile(8192, 8192), (128, 256, true));
    assert_eq!(tile(4096, 4096), (128, 256, true));
    assert_eq!(
        tile(128, 8192),
        (64, 128, true),
        "2 x 64 tiles fill 128 of 132 SMs; the output allows the TMA-store epilogue"
    );
    assert_eq!(tile(256, 8192), (128, 128, true), "2 x 64 tiles of 128x128");
    let unaligned = sm90_config(128, 8190, 8190 * 2, 132);
    assert!(!unaligned.tma_store, "rows of 16380 bytes: no TMA store");
    assert_eq!(tile(16, 8192), (64, 64, false));
    assert_eq!(
        tile(4095, 4097),
        (128, 256, true),
        "5 waves of 128x256 beat 8 of 128x128"
    );
}

#[test]
fn fused_bias_and_activation_in_every_path() {
    use cute_gpu::matmul::{Activation, BiasKind};
    use cute_gpu::piece::epilogue_op::EpilogueOp;
    let (a, b, d) = (
        l("(256,128):(128,1)"),
        l("(128,512):(1,128)"),
        l("(256,512):(512,1)"),
    );
    let (a1, b1, d1) = (
        l("(100,101):(101,1)"),
        l("(101,50):(1,101)"),
        l("(100,50):(50,1)"),
    );
    for (arch, (a, b, d), path) in [
        ("sm_90a", (&a, &b, &d), "sm90"),
        ("sm_80", (&a, &b, &d), "sm80"),
        ("sm_90a", (&a1, &b1, &d1), "simt"),
    ] {
        let mut r = request(a, b, d, arch);
        r.op = EpilogueOp {
            bias: BiasKind::PerColumn,
            activation: Activation::Gelu,
            scale: false,
        };
        let p = planned(&r);
        assert_eq!(p.path, path);
        assert!(
            p.kernel.source.contains("erff(v * 0.70710678f)")
                && p.kernel.source.contains("bias[n]"),
            "{path}"
        );
        assert_eq!(p.kernel.buffer_names().last(), Some(&"bias"));
    }
    // a column-major D is computed transposed: a bias per row of D is per column of the kernel's output
    let dc = l("(256,512):(1,256)");
    let mut r = request(&a, &b, &dc, "sm_90a");
    r.op = EpilogueOp {
        bias: BiasKind::PerRow,
        activation: Activation::None,
        scale: false,
    };
    assert!(planned(&r).kernel.source.contains("bias[n]"));
}

#[test]
fn the_autotuner_chooses_among_compilable_alternatives() {
    if !common::nvrtc_or_skip("the_autotuner_chooses_among_compilable_alternatives") {
        return;
    }
    let (a, b, d) = (
        l("(4096,4096):(4096,1)"),
        l("(4096,4096):(1,4096)"),
        l("(4096,4096):(4096,1)"),
    );
    let alts = cute_gpu::matmul::plan::alternatives(&request(&a, &b, &d, "sm_90a")).unwrap();
    assert_eq!(
        alts[0].kernel.name,
        planned(&request(&a, &b, &d, "sm_90a")).kernel.name,
        "the heuristic's choice first"
    );
    let paths: Vec<_> = alts.iter().map(|p| p.path).collect();
    assert!(
        paths.contains(&"sm90") && paths.contains(&"sm80") && alts.len() >= 5,
        "{paths:?}"
    );
    for p in &alts {
        let c = cute_gpu::nvrtc::compile(&p.kernel.source, &p.kernel.name, "sm_90a").unwrap();
        assert!(c.report.is_clean(), "{}: {:?}", p.kernel.name, c.report);
    }
    let (a1, b1, d1) = (
        l("(100,101):(101,1)"),
        l("(101,50):(1,101)"),
        l("(100,50):(50,1)"),
    );
    assert_eq!(
        cute_gpu::matmul::plan::alternatives(&request(&a1, &b1, &d1, "sm_90a"))
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn column_major_d_is_the_transposed_problem() {
    let (a, b, d) = (
        l("(256,128):(128,1)"),
        l("(128,512):(512,1)"),
        l("(256,512):(1,256)"),
    );
    let p = planned(&request(&a, &b, &d, "sm_90a"));
    assert!(p.batch.swapped);
    assert_eq!(p.batch.a.to_string(), "(512,128):(_1,512)");
    assert_eq!(p.batch.b.to_string(), "(128,256):(_1,128)");
    assert_eq!(p.batch.d.to_string(), "(512,256):(256,_1)");
}

/// A narrow side (at most 64): 64-row tiles by the narrow side rounded up to 16 (the wgmma's N); few
/// rows are computed transposed (`Dᵀ = Bᵀ·Aᵀ`, D column-major in the kernel's view, A and B swapped, a
/// per-row bias per column there), few columns as they are.
#[test]
fn narrow_sides_are_the_wgmma_n() {
    use cute_gpu::matmul::BiasKind;
    for (m, bn) in [(1, 16), (16, 16), (17, 32), (40, 48), (64, 64)] {
        let [a, b, d] = k_major(m, 8192, 8192);
        let mut r = request(&a, &b, &d, "sm_90a");
        r.op.bias = BiasKind::PerRow;
        let p = planned(&r);
        assert!(p.batch.swapped, "{m}");
        assert_eq!(p.batch.d.to_string(), format!("(8192,{m}):(_1,8192)"));
        let name = &p.kernel.name;
        assert!(
            name.contains(&format!("_64x{bn}x64_c1_")) && name.contains("_dT"),
            "{name}"
        );
        assert!(
            name.contains("_bn"),
            "a per-row bias is per column of Dᵀ: {name}"
        );
        // D column-major: its transpose (8192, m) is narrow along N, computed as it is
        let dc = l(&format!("({m},8192):(1,{})", (m + 7) / 8 * 8));
        let p = planned(&request(&a, &b, &dc, "sm_90a"));
        assert!(
            p.batch.swapped && !p.kernel.name.contains("_dT"),
            "{}",
            p.kernel.name
        );
        assert!(
            p.kernel.name.contains(&format!("_64x{bn}x64_c1_")),
            "{}",
            p.kernel.name
        );
    }
    // 64 tiles of 16x4096x4096 leave half the SMs idle: 2 K slices, each computed transposed and summed
    // in the GEMM, which applies the op in its own orientation (D's rows its columns)
    let [a, b, d] = k_major(16, 4096, 4096);
    let mut r = request(&a, &b, &d, "sm_90a");
    r.op.bias = BiasKind::PerRow;
    let p = planned(&r);
    let name = &p.kernel.name;
    assert!(
        name.contains("_64x16x64_") && name.contains("_dT_ks2_bn") && name.contains("_bf16_bf16_"),
        "{name}"
    );
    let split = p.split_k.expect("2 K slices");
    assert_eq!((split.splits, p.launches, p.batch.swapped), (2, 1, true));
    assert!(split.reduce.is_none());
    // in two launches: each slice into the workspace's (M, ldw) slice; the reduction applies the op in
    // D's own orientation
    r.decomposition = Decomposition::SplitKReduceKernel;
    let p = planned(&r);
    let name = &p.kernel.name;
    assert!(
        name.contains("_64x16x64_") && name.contains("_dT_batch") && name.contains("_f32_"),
        "{name}"
    );
    let reduce = p.split_k.and_then(|s| s.reduce).expect("the reduction");
    assert!(reduce.name.contains("_bm"), "{}", reduce.name);
    // 65 rows: the 64x128 tiles of the untransposed problem
    let [a, b, d] = k_major(65, 8192, 8192);
    let p = planned(&request(&a, &b, &d, "sm_90a"));
    assert!(
        !p.batch.swapped && !p.kernel.name.contains("_dT"),
        "{}",
        p.kernel.name
    );
}

#[test]
fn batches_and_empty_problems() {
    let (a, b, d) = (
        l("(64,32,3):(32,1,2048)"),
        l("(32,64,3):(1,32,2048)"),
        l("(64,64,3):(64,1,4096)"),
    );
    let p = planned(&request(&a, &b, &d, "sm_80"));
    assert_eq!((p.batches, p.batch_strides), (3, [2048, 2048, 0, 4096]));
    assert_eq!(p.launches, 3); // one launch per batch
    // sm_90: one launch runs every batch; 32 x 1024^3 has the tiles for the TMA-store kernel
    let p = planned(&request(&a, &b, &d, "sm_90a"));
    assert_eq!((p.path, p.launches), ("sm90", 1));
    assert!(p.kernel.name.ends_with("_batch"), "{}", p.kernel.name);
    let (a, b, d) = (
        l("(1024,1024,32):(1024,1,1048576)"),
        l("(1024,1024,32):(1,1024,1048576)"),
        l("(1024,1024,32):(1024,1,1048576)"),
    );
    let p = planned(&request(&a, &b, &d, "sm_90a"));
    // 16 k-blocks per tile: ping-pong 128x128 tiles (each consumer's epilogue under the other's
    // mainloop; 128x192 would compute 1152 of the 1024 columns)
    let pingpong = "_128x128x64_c2pp_s6_g8_p_ts_wgb_batch";
    assert!(p.kernel.name.ends_with(pingpong), "{}", p.kernel.name);
    assert_eq!(p.launches, 1);
    // 4 x 2048x1024x4096: 64 k-blocks, 256 tiles of 128x256 (more than a wave): 2-CTA clusters
    let (a, b, d) = (
        l("(2048,4096,4):(4096,1,8388608)"),
        l("(4096,1024,4):(1,4096,4194304)"),
        l("(2048,1024,4):(1024,1,2097152)"),
    );
    let p = planned(&request(&a, &b, &d, "sm_90a"));
    assert!(
        p.kernel.name.contains("128x256x64_c2_s4_g8_p_ts_cl2_batch"),
        "{}",
        p.kernel.name
    );
    assert_eq!((p.launches, p.kernel.grid.0), (1, 4 * 16 * 4));
    // a batch stride that is not a 16-byte multiple (A: 2056 bytes): the fallback kernel, per batch
    let (a, b, d) = (
        l("(64,32,3):(32,1,1028)"),
        l("(32,64,3):(1,32,2048)"),
        l("(64,64,3):(64,1,4096)"),
    );
    let p = planned(&request(&a, &b, &d, "sm_90a"));
    assert_eq!((p.path, p.launches), ("simt", 3));
    let (a, b, d) = (l("(0,32):(32,1)"), l("(32,64):(1,32)"), l("(0,64):(64,1)"));
    assert!(plan(&request(&a, &b, &d, "sm_80")).unwrap().is_none());
}

#[test]
fn bad_input_is_an_error_naming_the_values() {
    let (a, b, d) = (
        l("(64,32):(32,1)"),
        l("(33,64):(1,33)"),
        l("(64,64):(64,1)"),
    );
    let e = plan(&request(&a, &b, &d, "sm_90a"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("shapes do not agree") && e.contains("(33,64)"),
        "{e}"
    );
    let (a, b, d) = (
        l("(64,32):(32,1)"),
        l("(32,64):(1,32)"),
        l("(64,64):(64,1)"),
    );
    let c = l("(64,64):(1,64)");
    let mut r = request(&a, &b, &d, "sm_90a");
    r.c = Some(&c);
    let e = plan(&r).unwrap_err().to_string();
    assert!(e.contains("C (64,64):(1,64) must have D's strides"), "{e}");
    let mut r = request(&a, &b, &d, "sm_90a");
    r.input = DType::F32;
    assert!(plan(&r).unwrap_err().to_string().contains("f16 or bf16"));
    let rank4 = l("(2,2,2,2):(1,2,4,8)");
    assert!(
        plan(&request(&rank4, &b, &d, "sm_90a"))
            .unwrap_err()
            .to_string()
            .contains("rank 2")
    );
}

#[test]
fn short_buffers_and_aliasing_are_errors() {
    let a = l("(64,32):(32,1)");
    let span = |name, ptr, bytes| Span::new(name, ptr, bytes, &a, 2).unwrap();
    // A spans 64*32*2 = 4096 bytes
    let e = check_spans(&[span("A", 0, 4000), span("D", 1 << 20, 4096)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "bad launch: A has 4000 bytes but its tensor spans 4096"
    );
    let e = check_spans(&[span("A", 0, 4096), span("D", 2048, 4096)]).unwrap_err();
    assert!(e.to_string().contains("overlaps A"), "{e}");
    assert!(check_spans(&[span("A", 0, 4096), span("D", 4096, 4096)]).is_ok());
}

#[test]
fn every_kernel_the_heuristic_picks_compiles() {
    if !common::nvrtc_or_skip("every_kernel_the_heuristic_picks_compiles") {
        return;
    }
    let mut seen = std::collections::BTreeMap::new();
    for (m, n, k, batches) in [
        (4096, 4096, 4096, 1),
        (128, 8192, 512, 1),
        (16, 8192, 512, 1),
        (16, 4096, 4096, 1),
        (4096, 48, 1024, 1),
        (128, 128, 64, 1),
        (100, 50, 101, 1),
        (1024, 1024, 1024, 32),
        (128, 128, 64, 3),
        (1024, 1024, 65536, 1),
        (128, 256, 16384, 1),
        (8192, 4096, 14336, 1), // stream-K in 2-CTA clusters
    ] {
        for (arch, out) in [
            ("sm_90a", DType::BF16),
            ("sm_90a", DType::F32),
            ("sm_80", DType::F16),
        ] {
            let up = |x: i64| if m == 100 { x } else { (x + 7) / 8 * 8 };
            // rank 3 with a batch mode (batches packed) when batched
            let batched = |shape: String, stride: String, size: i64| match batches {
                1 => l(&format!("({shape}):({stride})")),
                _ => l(&format!("({shape},{batches}):({stride},{size})")),
            };
            let (a, b, d) = (
                batched(format!("{m},{k}"), format!("{},1", up(k)), m * up(k)),
                batched(format!("{k},{n}"), format!("1,{}", up(k)), n * up(k)),
                batched(format!("{m},{n}"), format!("{},1", up(n)), m * up(n)),
            );
            let fused = cute_gpu::piece::epilogue_op::EpilogueOp {
                bias: cute_gpu::matmul::BiasKind::PerRow,
                activation: cute_gpu::matmul::Activation::Silu,
                scale: false,
            };
            let decompositions = [Decomposition::Heuristic, Decomposition::SplitKReduceKernel];
            let ops = [(Default::default(), (1.0, 0.0)), (fused, (2.0, 0.5))];
            for (decomposition, (op, (alpha, beta))) in
                decompositions.into_iter().flat_map(|d| ops.map(|o| (d, o)))
            {
                let mut r = request(&a, &b, &d, arch);
                (r.output, r.op, r.alpha, r.beta) = (out, op, alpha, beta);
                r.decomposition = decomposition;
                let p = planned(&r);
                seen.insert(p.kernel.name.clone(), (p.kernel.source.clone(), arch));
                if let Some(reduce) = p.split_k.and_then(|s| s.reduce) {
                    seen.insert(reduce.name.clone(), (reduce.source, arch));
                }
            }
        }
    }
    assert!(seen.len() >= 5, "{:?}", seen.keys());
    let reductions = seen.keys().filter(|k| k.starts_with("cute_splitk_reduce"));
    assert!(reductions.count() >= 4, "{:?}", seen.keys()); // bf16 / f32 out, with and without the op
    for (name, (source, arch)) in &seen {
        let c =
            cute_gpu::nvrtc::compile(source, name, arch).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(c.report.is_clean(), "{name} {arch}: {:?}", c.report);
    }
}

/// Split-K: outputs whose tiles leave most SMs idle while K is long run K in slices (a strided batch
/// over K whose last slice of each tile adds the others' sums and runs the fused epilogue); shapes that
/// fill the GPU or are bound by reading B do not.
#[test]
fn split_k_for_small_outputs_with_long_k() {
    let split_of = |m: i64, n: i64, k: i64, d_cols: bool| {
        let (a, b) = (
            l(&format!("({m},{k}):({k},1)")),
            l(&format!("({k},{n}):(1,{k})")),
        );
        let d = if d_cols {
            l(&format!("({m},{n}):(1,{m})"))
        } else {
            l(&format!("({m},{n}):({n},1)"))
        };
        let p = planned(&request(&a, &b, &d, "sm_90a"));
        p.split_k.map(|s| {
            assert_eq!((p.path, p.launches), ("sm90", 1));
            match &s.reduce {
                Some(reduce) => panic!("{}: the heuristic sums in the GEMM", reduce.name),
                None => {
                    let name = &p.kernel.name;
                    assert!(name.contains(&format!("_ks{}", s.splits)), "{name}");
                    assert_eq!(p.kernel.buffer_names()[3..], ["W", "SKF"]);
                }
            }
            // all but one slice's sums of every tile
            assert_eq!(s.workspace_elems % (s.splits - 1), 0);
            (s.splits, p.kernel.grid.0)
        })
    };
    assert_eq!(split_of(1024, 1024, 65536, false), Some((4, 4 * 32)));
    assert_eq!(split_of(1024, 1024, 65536, true), Some((4, 4 * 32))); // D column-major: Dᵀ
    for (m, n, k) in [(128, 256, 16384), (64, 128, 8192), (256, 256, 4096)] {
        let s = split_of(m, n, k, false);
        assert!(s.is_some_and(|(s, _)| s >= 2), "{m}x{n}x{k}: {s:?}");
    }
    // the GPU test's cases (matmul_run::split_k_slices_and_the_reduction)
    for (a, b, d) in [
        (
            "(128,4096):(4096,1)",
            "(4096,256):(1,4096)",
            "(128,256):(256,1)",
        ),
        (
            "(64,8192):(8192,1)",
            "(8192,136):(1,8192)",
            "(64,136):(136,1)",
        ),
        ("(64,8192):(1,64)", "(8192,130):(136,1)", "(64,130):(136,1)"),
        ("(72,8192):(8192,1)", "(8192,64):(1,8192)", "(72,64):(1,72)"),
    ] {
        let (a, b, d) = (l(a), l(b), l(d));
        let p = planned(&request(&a, &b, &d, "sm_90a"));
        let splits = p.split_k.map(|s| s.splits);
        assert!(splits.is_some_and(|s| s >= 2), "{a} {b} {d}: {splits:?}");
    }
    for (m, n, k) in [
        (4096, 4096, 4096),
        (16, 8192, 8192),
        (128, 8192, 8192),
        (1024, 1024, 1000),
    ] {
        assert_eq!(split_of(m, n, k, false), None, "{m}x{n}x{k}");
    }
}

/// Short K on large outputs: the ping-pong consumers with the TMA-store epilogue (128x192 tiles), where
/// they fill the SMs as well as the cooperative 128x256 tiles, 128x128 ones up to 32 k-blocks where
/// those fill them as well; long K: the 128x256 ones.
#[test]
fn pingpong_for_short_k() {
    let name = |m: i64, n: i64, k: i64| {
        let (a, b, d) = (
            l(&format!("({m},{k}):({k},1)")),
            l(&format!("({k},{n}):(1,{k})")),
            l(&format!("({m},{n}):({n},1)")),
        );
        planned(&request(&a, &b, &d, "sm_90a")).kernel.name
    };
    for (m, n, k) in [(16384, 8192, 1024), (8192, 14336, 4096)] {
        let k = name(m, n, k);
        assert!(
            k.contains("_128x192x64_c2pp_s4") && k.contains("_ts"),
            "{k}"
        );
    }
    for (m, n, k) in [(8192, 8192, 8192), (4096, 4096, 4096)] {
        let k = name(m, n, k);
        assert!(k.contains("_128x256x64_c2_s4") && k.contains("_ts"), "{k}");
    }
    for (m, n, k) in [(2048, 2048, 2048), (4096, 4096, 2048)] {
        let k = name(m, n, k);
        assert!(
            k.contains("_128x128x64_c2pp_s6") && k.contains("_ts"),
            "{k}"
        );
    }
}

/// Stream-K where whole tiles leave the last wave idle: the 128x256 tile with 1024 tiles (a quarter of
/// a tile idle on 132 SMs) and the narrow tiles of 11008 rows (172 tiles); not 4096³ (512 tiles, 0.12
/// idle), 14336 narrow rows (224 tiles: 0.30, below the narrow tiles' 0.5), 128 narrow tiles, the
/// ping-pong tile; and every kernel decomposed as forced.
#[test]
fn stream_k_where_the_last_wave_leaves_sms_idle() {
    use cute_gpu::matmul::plan::Decomposition;
    let cases = [
        ((8192, 4096, 14336), true),
        ((4096, 4096, 4096), false),
        ((16, 11008, 4096), true),
        ((16, 14336, 4096), false),
        ((16, 8192, 8192), false),
        ((16384, 8192, 1024), false), // ping-pong 128x192
    ];
    for ((m, n, k), stream_k) in cases {
        let [a, b, d] = k_major(m, n, k);
        let r = request(&a, &b, &d, "sm_90a");
        let name = planned(&r).kernel.name;
        assert_eq!(name.contains("_sk132"), stream_k, "{m}x{n}x{k}: {name}");
        let tiles = Request {
            decomposition: Decomposition::Tiles,
            ..r.clone()
        };
        assert!(!planned(&tiles).kernel.name.contains("_sk"));
    }
    let [a, b, d] = k_major(4096, 4096, 4096);
    let forced = Request {
        decomposition: Decomposition::StreamK,
        ..request(&a, &b, &d, "sm_90a")
    };
    assert!(planned(&forced).kernel.name.contains("_sk132"));
}

/// 2-CTA clusters (B multicast) for the 128x256 tile where its tiles fill more than one wave; with
/// stream-K where that applies too (then the raster walks along N: `g8n`); not for one wave, nor for the
/// ping-pong or smaller tiles.
#[test]
fn clusters_where_large_tiles_fill_more_than_a_wave() {
    let cases = [
        ((4096, 4096, 4096), "128x256x64_c2_s4_g8_p_ts_cl2"),
        ((1024, 8192, 8192), "128x256x64_c2_s4_g8_p_ts_cl2"),
        ((8192, 4096, 14336), "128x256x64_c2_s4_g8n_p_ts_cl2_sk132"),
        ((1024, 4096, 8192), "128x256x64_c2_s4_g8_p_ts"), // 128 tiles: one wave
        ((2048, 2048, 2048), "128x128x64_c2pp_s6_g8_p_ts_wgb"), // ping-pong 128x128
        ((16384, 8192, 1024), "128x192x64_c2pp_s4_g8_p_ts_wgb_ck_pa"), // ping-pong
        ((1024, 1024, 1024), "64x128x64_c1_s8_g8_p_ts"),  // smaller tiles
    ];
    for ((m, n, k), tile) in cases {
        let [a, b, d] = k_major(m, n, k);
        let name = planned(&request(&a, &b, &d, "sm_90a")).kernel.name;
        assert!(name.ends_with(tile), "{m}x{n}x{k}: {name}");
    }
}

/// The SM90 kernels are launched with programmatic dependent launch but for the 64x128 tile, which read
/// 2.7-4.0 % slower with it at 128x8192x8192 (runs 164-165); the mma.sync and reduction kernels never.
#[test]
fn dependent_launch_by_tile() {
    let cases = [
        ((16, 8192, 8192), "sm_90a", true),   // narrow 64x16, transposed
        ((2048, 2048, 2048), "sm_90a", true), // ping-pong 128x128
        ((4096, 4096, 4096), "sm_90a", true), // clustered 128x256
        ((128, 8192, 8192), "sm_90a", false), // 64x128
        ((4096, 4096, 4096), "sm_80", false), // mma.sync
    ];
    for ((m, n, k), arch, dependent) in cases {
        let [a, b, d] = k_major(m, n, k);
        let p = planned(&request(&a, &b, &d, arch));
        assert_eq!(
            p.kernel.dependent_launch, dependent,
            "{m}x{n}x{k} {arch}: {}",
            p.kernel.name
        );
        let reduce = p.split_k.as_ref().and_then(|s| s.reduce.as_ref());
        assert!(reduce.is_none_or(|r| !r.dependent_launch));
    }
}
