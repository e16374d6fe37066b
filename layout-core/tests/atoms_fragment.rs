//! partition_fragment_A/B/C of a TiledMMA and retile_S/D of a TiledCopy, on layouts.

use cute_layout_core::atom::{CopyAtom, MmaTraits, Operand, TiledCopy, TiledMma};
use cute_layout_core::{Layout, cosize, make_fragment_like, make_layout, size};

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

fn mma(op: &str, atoms: &str) -> TiledMma {
    TiledMma::new(MmaTraits::from_name(op).unwrap(), &l(atoms), None).unwrap()
}

#[test]
fn partition_fragment_abc() {
    let m = mma("SM80_16x8x16_F32F16F16F32_TN", "(_2,_2,_1):(_1,_2,_0)");
    let row = l("(_64,_32):(_32,_1)");
    let cases = [
        (Operand::A, "((_2,_2,_2),_2,_2):((_1,_2,_4),_16,_8)"),
        (Operand::B, "((_2,_2),_4,_2):((_1,_2),_8,_4)"),
        (Operand::C, "((_2,_2),_2,_2):((_1,_2),_4,_8)"),
    ];
    for (op, want) in cases {
        let frag = m.partition_fragment(op, 0, &row).unwrap();
        assert_eq!(frag.to_string(), want, "{op:?}");
        // same shape as the partition, compact (one register per value)
        for t in 0..m.num_threads().unwrap().value {
            let (_, part) = m.partition(op, t, &row).unwrap();
            let f = m.partition_fragment(op, t, &row).unwrap();
            assert_eq!(f.shape(), part.shape());
            assert_eq!(size(&f).unwrap(), cosize(&f).unwrap());
            let expect = match op {
                Operand::C => make_layout(part.shape()).unwrap(),
                _ => make_fragment_like(&part).unwrap(),
            };
            assert_eq!(f, expect);
        }
    }
    assert_eq!(
        m.partition_fragment_a(3, &row).unwrap(),
        m.partition_fragment(Operand::A, 3, &row).unwrap()
    );
    assert_eq!(
        m.partition_fragment_b(3, &row).unwrap(),
        m.partition_fragment(Operand::B, 3, &row).unwrap()
    );
    assert_eq!(
        m.partition_fragment_c(3, &row).unwrap(),
        m.partition_fragment(Operand::C, 3, &row).unwrap()
    );
}

#[test]
fn partition_fragment_sm70_quad_pairs() {
    // SM70's ThrID has holes; every thread's C fragment is 8 accumulators per atom repeat.
    let m = mma("SM70_8x8x4_F32F16F16F32_NT", "(_1,_2,_1):(_0,_1,_0)");
    let c = m.partition_fragment_c(5, &l("(_16,_32):(_1,_16)")).unwrap();
    assert_eq!(c.to_string(), "((_2,_2,_2),_2,_2):((_1,_2,_4),_8,_16)");
}

#[test]
fn partition_fragment_gmma_descriptors() {
    let ss = mma(
        "SM90_64x64x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>",
        "(_1,_1,_1):(_0,_0,_0)",
    );
    let a = l("(_64,_16):(_16,_1)");
    assert!(ss.partition_fragment_a(0, &a).is_err());
    assert!(ss.partition_fragment_b(0, &a).is_err());
    assert!(ss.partition_fragment_c(0, &l("(_64,_64):(_1,_64)")).is_ok());
    let rs = mma(
        "SM90_64x64x16_F32F16F16_RS<GMMA::Major::K,GMMA::Major::K>",
        "(_1,_1,_1):(_0,_0,_0)",
    );
    assert!(rs.partition_fragment_a(0, &a).is_ok());
    assert!(rs.partition_fragment_b(0, &a).is_err());
}

#[test]
fn retile_matches_partition() {
    let m = mma("SM80_16x8x16_F16F16F16F16_TN", "(_2,_2,_1):(_1,_2,_0)");
    let cases = [
        (
            "SM75_U32x4_LDSM_N",
            Operand::A,
            "(_64,_32):(_1,_64)",
            "((_8,_1),_2,_2):((_1,_0),_8,_16)",
        ),
        (
            "SM75_U32x2_LDSM_N",
            Operand::B,
            "(_32,_32):(_1,_32)",
            "((_4,_1),_2,_2):((_1,_0),_4,_8)",
        ),
        (
            "UniversalCopy<uint32_t>",
            Operand::C,
            "(_64,_32):(_1,_64)",
            "((_2,_2),_2,_2):((_1,_2),_4,_8)",
        ),
    ];
    for (copy, op, tile, want) in cases {
        let tc = TiledCopy::for_mma(CopyAtom::from_name(copy, 16).unwrap(), &m, op).unwrap();
        let tile = l(tile);
        let frag = m.partition_fragment(op, 0, &tile).unwrap();
        let re = tc.retile(&frag).unwrap();
        assert_eq!(re.to_string(), want, "{copy}");
        assert_eq!(tc.retile_s(&frag).unwrap(), re);
        assert_eq!(tc.retile_d(&frag).unwrap(), re);
        // the retiled fragment has the copy partition's mode sizes and still covers every register once
        let source = op == Operand::C;
        let (_, part) = tc.partition(source, 0, &tile).unwrap();
        assert_eq!(re.rank(), part.rank());
        for k in 0..re.rank() {
            assert_eq!(
                size(&re.mode(k).unwrap()).unwrap(),
                size(&part.mode(k).unwrap()).unwrap()
            );
        }
        let mut offsets: Vec<i64> = (0..size(&re).unwrap().value)
            .map(|i| {
                cute_layout_core::eval(&re, &cute_layout_core::IntTuple::d(i))
                    .unwrap()
                    .as_int()
                    .unwrap()
                    .value
            })
            .collect();
        offsets.sort();
        offsets.dedup();
        assert_eq!(offsets.len() as i64, size(&frag).unwrap().value);
    }
}

#[test]
fn retile_rejects_low_rank() {
    let m = mma("SM80_16x8x16_F16F16F16F16_TN", "(_1,_1,_1):(_0,_0,_0)");
    let tc = TiledCopy::for_mma(
        CopyAtom::from_name("SM75_U32x4_LDSM_N", 16).unwrap(),
        &m,
        Operand::A,
    )
    .unwrap();
    assert!(tc.retile(&l("_8:_1")).is_err());
}
