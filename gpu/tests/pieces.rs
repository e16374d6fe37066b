//! Each piece of the kernel-building layer on its own: built from layouts for one small configuration,
//! its emitted text snapshotted and its plan checked (no GPU, no NVRTC needed).

use cute_gpu::atom::{Fragment, sm80_mma};
use cute_gpu::emit::Leaf;
use cute_gpu::piece::cp_async_mainloop::{CopiedOperand, Pipeline, StageCopy};
use cute_gpu::piece::epilogue_op::{Activation, BiasKind, EpilogueOp};
use cute_gpu::piece::epilogue_sm80::Epilogue;
use cute_gpu::piece::epilogue_sm90::{Accumulators, Sm90Epilogue, Staging};
use cute_gpu::piece::fragment::WarpMma;
use cute_gpu::piece::gmma_operand::gmma_operand;
use cute_gpu::piece::smem_tile::{OperandTile, TileShape, make_tile};
use cute_gpu::piece::tma_mainloop::WarpSpecialized;
use cute_gpu::{DType, Major};
use cute_layout_core::Int;

/// A and B tiles of a 64x64x32 CTA tile, 2x2 warps, A K-major, B MN-major.
fn sm80_tiles() -> (OperandTile, OperandTile) {
    let mma = sm80_mma(DType::F16).unwrap();
    let shape = |name, major| TileShape {
        name,
        major,
        mn_tile: 64,
        bk: 32,
        warps_along: 2,
        threads: 128,
    };
    (
        make_tile(&mma, shape("A", Major::K)).unwrap(),
        make_tile(&mma, shape("B", Major::MN)).unwrap(),
    )
}

#[test]
fn smem_tiles_are_conflict_free_and_the_plain_ones_are_not() {
    let (a, b) = sm80_tiles();
    for t in [&a, &b] {
        assert_eq!(t.conflicts, 0, "{t:?}");
        assert!(
            t.unswizzled_conflicts > 0,
            "the plain tile must conflict: {t:?}"
        );
    }
    assert_eq!(a.lane_layout.to_string(), "(_8,_2,_2):(_1@0,_8@0,_8@1)");
    assert_eq!(b.lane_layout.to_string(), "(_8,_2,_2):(_1@1,_8@1,_8@0)");
}

#[test]
fn sm80_mainloop_pieces() {
    let (a, b) = sm80_tiles();
    let (lda, ldb) = (Leaf::new(Int::d(1000), "lda"), Leaf::new(Int::s(64), "ldb"));
    let copied = |tile, ld, mn_extent: &str, mn0, stage_offset| CopiedOperand {
        tile,
        ld,
        mn_extent: mn_extent.into(),
        mn0,
        stage_offset,
    };
    let copy = StageCopy {
        operands: [
            copied(&a, &lda, "M", "m0", 0),
            copied(&b, &ldb, "N", "n0", a.bytes()),
        ],
        threads: 128,
        bk: 32,
        stage_bytes: a.bytes() + b.bytes(),
        k_extent: "K".into(),
        tile_mn: (64, 64),
    };
    insta::assert_snapshot!("piece_stage_copy", copy.emit().unwrap());
    let warp = WarpMma::new(&a, &b, (2, 4, 2)).unwrap();
    let pipeline = Pipeline {
        stages: 3,
        threads: 128,
        min_blocks: 1,
        stage_bytes: a.bytes() + b.bytes(),
        a_bytes: a.bytes(),
    };
    let text = warp.setup().unwrap() + &pipeline.emit(&warp);
    assert!(
        text.contains("ldmatrix_x4(af[1][0], sa + a_ld[1]"),
        "{text}"
    );
    assert!(text.contains("ldmatrix_x4_trans(r, sb + b_ld[1]"), "{text}");
    insta::assert_snapshot!("piece_sm80_pipeline", text);
}

#[test]
fn sm80_epilogues() {
    let mma = sm80_mma(DType::BF16).unwrap();
    let fragment = Fragment::new(&mma.layout_c, 16, "lane").unwrap();
    let ldc = Leaf::new(Int::d(72), "ldc");
    let e = Epilogue {
        tile: (64, 64),
        warp_tile: (32, 32),
        atoms: (2, 4),
        threads: 128,
        output: DType::BF16,
        ldc: &ldc,
        extents: ("M".into(), "N".into()),
        fragment: &fragment,
        atom_mn: (16, 8),
        op: Default::default(),
    };
    assert!(e.can_stage(16384));
    assert!(!e.can_stage(1024));
    insta::assert_snapshot!("piece_sm80_epilogues", e.staged() + &e.direct());
}

#[test]
fn sm90_pieces() {
    let (a, b) = (
        gmma_operand(Major::K, 128, 64, 16, "A").unwrap(),
        gmma_operand(Major::MN, 128, 64, 16, "B").unwrap(),
    );
    assert_eq!(b.boxes, vec![(0, 0), (8192, 64)]);
    let ws = WarpSpecialized {
        operands: [&a, &b],
        tile: (128, 128, 64),
        stages: 4,
        consumers: 2,
        pingpong: false,
        group_m: 8,
        m_chunks: 1,
        consumer_a_bytes: 8192,
        epi_bytes: 32768,
        regs: (40, 232),
        coords: [
            ["kb * 64".into(), "tm * 128".into()],
            ["tn * 128".into(), "kb * 64".into()],
        ],
        elem_bytes: 2,
        promotion: None,
        batch: None,
        cluster: 1,
        broadcast_wg: false,
        stream_k: 0,
        raster_n: false,
        chain_k: false,
        probe_ahead: false,
    };
    let acc = Accumulators::new(128).unwrap();
    assert_eq!((acc.h_rows, acc.j_cols), (8, 8));
    let epi = Sm90Epilogue {
        acc: &acc,
        tile: (128, 128),
        m_chunks: 1,
        cw_row: " + cw * 64".into(),
        osz: 2,
        op: Default::default(),
    };
    let staging = Staging::per_warp(DType::F16).unwrap();
    assert_eq!(staging.byte_swizzle.to_string(), "Sw<3,4,3>");
    let text = ws.setup(&["tmA", "tmB", "tmD"])
        + &ws.producer()
        + &ws.consumer("cooperative", &epi.tma_store(&staging), "");
    assert!(
        text.contains("tma_load_2d(sb + 8192u, &tmB, full_bar + 8 * s, tn * 128 + 64, kb * 64)")
    );
    insta::assert_snapshot!("piece_sm90_mainloop_tma_store", text);
    insta::assert_snapshot!("piece_sm90_direct_epilogue", epi.direct());
    // stream-K: whole tiles, then a share of the rest's k-blocks; a cut tile's sums through `SK`
    let sk = WarpSpecialized {
        stream_k: 132,
        ..ws
    };
    let text = sk.setup(&["tmA", "tmB"]) + &sk.producer() + &sk.consumer("cooperative", "", "");
    assert!(text.contains("for (int kb = kb0; kb < kb1; ++kb, ++it)"));
    assert!(text.contains("if (kb > kb0 && tid == 0) mbar_arrive(empty_bar + 8 * prev);"));
    insta::assert_snapshot!("piece_sm90_mainloop_stream_k", text);
    // the fused op: alpha/beta*C, a per-column bias and GELU, applied where each value is stored
    let fused = Sm90Epilogue {
        op: EpilogueOp {
            bias: BiasKind::PerColumn,
            activation: Activation::Gelu,
            scale: true,
        },
        ..epi
    };
    let text = fused.direct() + &fused.tma_store(&staging);
    assert!(text.contains(
        "store_pair(drow + col, epi_post(epi_scale(acc[c][4 * j + 2 * h], row, col), row, col)"
    ));
    // stmatrix's register 3: the pair 8 rows down and 8 columns right of the thread's value 0
    assert!(text.contains("epi_post(epi_scale(acc[c][4 * (q * 8 + 2 * jp + 1) + 3], (tm * 128 + cw * 64 + c * 64 + frag_row + 8), (col0 + 16 * jp + frag_col + 8) + 1)"), "{text}");
}

/// The online softmax's rows and row-sharing lanes come from the C layout: the same answer for the
/// m16n8k16 atom (a warp) and a wgmma accumulator (`gmma_c_layout`, a warp group), and the emitted
/// update names the accumulators through the given naming function.
#[test]
fn online_softmax_from_mma_and_wgmma_fragments() {
    use cute_gpu::piece::online_softmax::{OnlineSoftmax, mma_index};
    let mma = sm80_mma(DType::BF16).unwrap();
    let f = Fragment::new(&mma.layout_c, 16, "lane").unwrap();
    let sm = OnlineSoftmax::new(&f, 2, mma_index).unwrap();
    assert_eq!(
        (sm.rows, sm.row_offsets.clone(), sm.xor_masks.clone()),
        (2, vec![0, 8], vec![1, 2])
    );
    let update = sm.update("s", 8, "o", 16, "scale_log2");
    assert!(
        update.contains("__shfl_xor_sync(0xffffffffu, mx[1], 2)"),
        "{update}"
    );
    assert!(update.contains("s[mi][nj][3] = fast_exp2(fmaf(s[mi][nj][3], scale_log2, -ms[1]));"));
    // wgmma m64n64: 128 threads, each owning 2 rows per 8-column group, rows shared by lanes ^1, ^2
    let c = cute_layout_core::atom::gmma::gmma_c_layout(64).unwrap();
    let g = Fragment::new(&c, 64, "tid").unwrap();
    fn flat(name: &str, _mi: &str, nj: &str, v: i64) -> String {
        format!("{name}[{nj} * 4 + {v}]")
    }
    let gs = OnlineSoftmax::new(&g, 1, flat).unwrap();
    assert_eq!(gs.xor_masks, vec![1, 2]);
    assert_eq!(gs.rows, 2);
    assert!(gs.finalize("d", 8, "scale_log2").contains("d[dj * 4 + "));
}

/// Two adjacent n8 accumulator tiles are one k16 A operand tile, thread for thread.
#[test]
fn accumulator_registers_are_the_a_operand() {
    for dt in [DType::F16, DType::BF16] {
        let mma = cute_gpu::atom::sm80_mma(dt).unwrap();
        let map = cute_gpu::atom::accumulator_as_a(&mma).unwrap();
        assert_eq!(
            map,
            [
                [(0, 0), (0, 1)],
                [(0, 2), (0, 3)],
                [(1, 0), (1, 1)],
                [(1, 2), (1, 3)]
            ]
        );
    }
}

/// `stmatrix.x4` as the PTX ISA defines it (lane `l`'s register `j` holds row `l / 4`, columns
/// `2 (l % 4)` and `+ 1` of matrix `j`; row `r` of matrix `j` goes to the address lane `8 j + r` gives),
/// run on the lane and register plan derived from the copy atom: every accumulator value of every thread
/// of the warp group lands at its own `gmma_c_layout` coordinate, and every element of the warp's 16 x 16
/// block is written once.
#[test]
fn stmatrix_puts_every_accumulator_at_its_c_layout_coordinate() {
    use cute_gpu::atom::stmatrix_gmma_c;
    use cute_gpu::emit::basis_coord;
    let st = stmatrix_gmma_c("lane").unwrap();
    let c = Fragment::new(
        &cute_layout_core::atom::gmma::gmma_c_layout(16).unwrap(),
        64,
        "tid",
    )
    .unwrap();
    let threads = c.layout.mode(0).unwrap();
    for warp in 0..4 {
        let mut written = [[0; 16]; 16];
        for lane in 0..32 {
            let t = warp * 32 + lane;
            let first = basis_coord(&threads, t).unwrap();
            for (j, [dr, dc]) in st.registers.iter().enumerate() {
                let row_start = basis_coord(&st.lanes, 8 * j as i64 + lane / 4).unwrap();
                for e in 0..2 {
                    // where stmatrix stores the value, relative to the warp's first row
                    let stored = [row_start[0], row_start[1] + 2 * (lane % 4) + e];
                    // where the accumulator layout says the value belongs
                    let value = [first[0] - 16 * warp + dr, first[1] + dc + e];
                    assert_eq!(
                        stored, value,
                        "warp {warp} lane {lane} register {j} half {e}"
                    );
                    written[stored[0] as usize][stored[1] as usize] += 1;
                }
            }
        }
        assert!(written.iter().flatten().all(|&n| n == 1), "{written:?}");
    }
    assert_eq!(st.cols, 16);
}
