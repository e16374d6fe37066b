//! Properties of atoms and their tilings:
//! * every atom TV layout is a bijection onto its tile, except GMMA shared-memory operands, where each
//!   thread's values alone cover the tile once;
//! * TiledMMA partitions of C cover a tensor exactly once across threads, those of A (B) exactly
//!   `size(ThrN)` (`size(ThrM)`) times;
//! * TiledCopy source and destination partitions cover a tensor exactly once across threads.

use cute_layout_core::atom::svg::TvGrid;
use cute_layout_core::atom::{CopyAtom, MmaTraits, Operand, TiledCopy, TiledMma};
use cute_layout_core::notation::{Value, eval_str};
use cute_layout_core::{Layout, Tiler};
use proptest::prelude::*;

fn layout(s: &str) -> Layout {
    s.parse().unwrap()
}

/// A layout literal, or a shape meaning its compact column-major layout.
fn layout_or_shape(s: &str) -> Layout {
    if s.contains(':') {
        return layout(s);
    }
    match eval_str(&format!("make_layout({s})")) {
        Ok(Value::Layout(l)) => l,
        other => panic!("make_layout({s}) gave {other:?}"),
    }
}

/// `l(i)` for a linear index `i`.
fn eval_layout(l: &Layout, i: i64) -> i64 {
    cute_layout_core::eval(l, &cute_layout_core::IntTuple::d(i))
        .unwrap()
        .as_int()
        .unwrap()
        .value
}

/// A selection of GMMA names (the parser accepts every N and type combination, these cover the kinds).
const GMMA: &[&str] = &[
    "SM90_64x8x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>",
    "SM90_64x64x16_F32F16F16_SS<GMMA::Major::MN,GMMA::Major::K>",
    "SM90_64x128x16_F32F16F16_RS<GMMA::Major::K,GMMA::Major::MN>",
    "SM90_64x24x16_F32BF16BF16_RS<GMMA::Major::K,GMMA::Major::K>",
    "SM90_64x64x8_F32TF32TF32_SS_TN<>",
    "SM90_64x128x8_F32TF32TF32_RS_TN<>",
    "SM90_64x96x32_S32S8S8_RS_TN",
    "SM90_64x256x32_F16E5M2E4M3_SS_TN<>",
];

fn all_atoms() -> Vec<MmaTraits> {
    MmaTraits::known_names()
        .into_iter()
        .chain(GMMA.iter().copied())
        .map(|n| MmaTraits::from_name(n).unwrap_or_else(|e| panic!("{n}: {e}")))
        .collect()
}

/// Sizes of a TV layout: (threads, values).
fn tv_sizes(tv: &Layout) -> (i64, i64) {
    let size = |l: Layout| -> i64 {
        l.shape()
            .leaves()
            .iter()
            .map(|x| x.as_int().unwrap().value)
            .product()
    };
    (size(tv.mode(0).unwrap()), size(tv.mode(1).unwrap()))
}

#[test]
fn atom_tv_layouts_are_bijections_onto_their_tiles() {
    for atom in all_atoms() {
        let ext = |i: usize| atom.extent(i).unwrap();
        let gmma_smem =
            |l: &Layout| atom.op.starts_with("SM90_64x") && l.to_string().starts_with("(_128,(");
        for (name, tv, rows, cols) in [
            ("A", &atom.layout_a, ext(0), ext(2)),
            ("B", &atom.layout_b, ext(1), ext(2)),
            ("C", &atom.layout_c, ext(0), ext(1)),
        ] {
            let (t, v) = tv_sizes(tv);
            let grid = TvGrid::new(tv, rows, cols, None)
                .unwrap_or_else(|e| panic!("{} {name}: {e}", atom.op));
            let expect_holders = if gmma_smem(tv) { t } else { 1 };
            assert_eq!(
                t,
                atom.num_threads(),
                "{} {name}: thread mode size",
                atom.op
            );
            assert_eq!(
                t * v,
                rows * cols * expect_holders,
                "{} {name} {tv}: size is not the tile's",
                atom.op
            );
            for (i, c) in grid.cells.iter().enumerate() {
                let c = c.unwrap_or_else(|| {
                    panic!(
                        "{} {name} {tv}: element {i} of the tile is not held",
                        atom.op
                    )
                });
                assert_eq!(
                    c.holders, expect_holders,
                    "{} {name} {tv}: element {i}",
                    atom.op
                );
            }
        }
    }
}

/// The atom layouts of the TiledMMA oracle, and a few permutations.
const MMA_OPS: &[&str] = &[
    "SM70_8x8x4_F32F16F16F32_TN",
    "SM70_8x8x4_F16F16F16F16_NT",
    "SM75_16x8x8_F32F16F16F32_TN",
    "SM80_16x8x16_F32F16F16F32_TN",
    "SM80_16x8x8_F32TF32TF32F32_TN",
    "SM80_8x8x4_F64F64F64F64_TN",
    "SM80_16x8x32_S32S8S8S32_TN",
    "UniversalFMA_F32",
    "SM90_64x16x16_F32F16F16_RS<GMMA::Major::K,GMMA::Major::K>",
];
const ATOM_LAYOUTS: &[&str] = &[
    "(_1,_1,_1)",
    "(_2,_2,_1)",
    "(_4,_2,_1)",
    "(_2,_2,_1):(_2,_1,_0)",
    "(_1,_2,_2)",
    "(_2,_1,_2)",
];
// A permutation must be at least the tiled atoms' extent in each mode (here up to 4x64 in M, 2x16 in N).
const PERMS: &[Option<&str>] = &[None, Some("(_,_,_)"), Some("(_256,_64,_)")];

fn tiled_mma(op: usize, lay: usize, perm: usize) -> TiledMma {
    let atom = MmaTraits::from_name(MMA_OPS[op]).unwrap();
    let layout = layout_or_shape(ATOM_LAYOUTS[lay]);
    let perm: Option<Tiler> = PERMS[perm].map(|p| p.parse().unwrap());
    TiledMma::new(atom, &layout, perm.as_ref()).unwrap()
}

/// Count, for every offset of a column-major `rows x cols` tensor, how many (thread, value) pairs touch it.
fn coverage(parts: impl Iterator<Item = (i64, Layout)>, n: i64) -> Vec<i64> {
    let mut seen = vec![0i64; n as usize];
    for (offset, part) in parts {
        let size: i64 = part
            .shape()
            .leaves()
            .iter()
            .map(|x| x.as_int().unwrap().value)
            .product();
        for i in 0..size {
            let at = offset + eval_layout(&part, i);
            assert!(
                (0..n).contains(&at),
                "offset {at} outside the tensor of {n}"
            );
            seen[at as usize] += 1;
        }
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn mma_partitions_cover_the_tensor(op in 0..MMA_OPS.len(), lay in 0..ATOM_LAYOUTS.len(), perm in 0..PERMS.len(), rm in 1i64..3, rn in 1i64..3) {
        let mma = tiled_mma(op, lay, perm);
        let threads = mma.num_threads().unwrap().value;
        let sizes: Vec<i64> = (0..4).map(|k| mma.thr_layout_vmnk.mode(k).unwrap().shape().leaves().iter().map(|x| x.as_int().unwrap().value).product()).collect();
        // an operand the atom reads from shared memory (GMMA) is seen by every thread of the atom
        let atom_replicas = |op: Operand| -> i64 {
            let tv = mma.atom_layout_tv(op);
            let ext = |k: usize| mma.atom.extent(k).unwrap();
            let (r, c) = match op { Operand::A => (ext(0), ext(2)), Operand::B => (ext(1), ext(2)), Operand::C => (ext(0), ext(1)) };
            TvGrid::new(tv, r, c, None).unwrap().cells[0].unwrap().holders
        };
        for (which, (i, j), replicas) in [(Operand::A, (0, 2), sizes[2]), (Operand::B, (1, 2), sizes[1]), (Operand::C, (0, 1), sizes[3])] {
            let (rows, cols) = (mma.tile_size(i).unwrap().value * rm, mma.tile_size(j).unwrap().value * rn);
            let tensor = layout(&format!("({rows},{cols}):(1,{rows})"));
            let parts = (0..threads).map(|t| mma.partition(which, t, &tensor).unwrap());
            let seen = coverage(parts, rows * cols);
            let replicas = replicas * atom_replicas(which);
            prop_assert!(seen.iter().all(|&c| c == replicas), "{:?} of {} tiled {}: coverage {:?}", which, MMA_OPS[op], ATOM_LAYOUTS[lay], &seen[..seen.len().min(64)]);
        }
    }

    #[test]
    fn copy_partitions_cover_the_tensor(cfg in 0usize..4, rm in 1i64..3, rn in 1i64..3) {
        let (op, bits, thr, val) = [
            ("UniversalCopy<uint128_t>", 16, "(_32,_8):(_8,_1)", "(_1,_8)"),
            ("UniversalCopy<uint32_t>", 8, "(_16,_8):(_1,_16)", "(_4,_1)"),
            ("SM80_CP_ASYNC_CACHEALWAYS<uint64_t>", 16, "(_8,_16):(_16,_1)", "(_1,_4)"),
            ("SM75_U32x4_LDSM_N", 16, "(_32,_1)", "(_1,_8)"),
        ][cfg];
        let atom = CopyAtom::from_name(op, bits).unwrap();
        let tc = TiledCopy::new(atom, &layout_or_shape(thr), &layout_or_shape(val)).unwrap();
        let shape = tc.tile_shape().unwrap();
        let dims: Vec<i64> = shape.elems().iter().map(|e| e.leaves().iter().map(|x| x.as_int().unwrap().value).product()).collect();
        let (rows, cols) = (dims[0] * rm, dims[1] * rn);
        let tensor = layout(&format!("({rows},{cols}):(1,{rows})"));
        let threads = tc.num_threads().unwrap().value;
        for source in [true, false] {
            let parts = (0..threads).map(|t| tc.partition(source, t, &tensor).unwrap());
            let seen = coverage(parts, rows * cols);
            prop_assert!(seen.iter().all(|&c| c == 1), "{op} source={source}: coverage {:?}", &seen[..seen.len().min(64)]);
        }
    }
}
