//! The complement, product and divide examples of the MoYe.jl documentation
//! (`shared/seeds/002_428f501a33685199.txt`), checked against their printed layouts and their
//! `print_layout` tables. MoYe prints tables 1-based; the tables below are copied as printed and
//! compared with `layout(m, n) + 1`.

use cute_layout_core::notation::eval_str;
use cute_layout_core::{IntTuple, Layout};

fn eval_layout(expr: &str) -> Layout {
    eval_str(expr)
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
        .into_layout()
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
}

/// Value of a (sub)layout at a 1-D coordinate (colexicographic over its leaves), computed here
/// independently of the library's coordinate functions.
fn at_1d(l: &Layout, mut i: i64) -> i64 {
    let shapes: Vec<i64> = l.shape().leaves().iter().map(leaf).collect();
    let strides: Vec<i64> = l.stride().leaves().iter().map(leaf).collect();
    let mut v = 0;
    for (k, (s, d)) in shapes.iter().zip(&strides).enumerate() {
        let c = if k + 1 == shapes.len() { i } else { i % s };
        i = if k + 1 == shapes.len() { 0 } else { i / s };
        v += c * d;
    }
    v
}

fn leaf(t: &IntTuple) -> i64 {
    match t {
        IntTuple::Int(i) => i.value,
        other => panic!("not an integer leaf: {other}"),
    }
}

fn size_of(t: &IntTuple) -> i64 {
    t.leaves().iter().map(leaf).product()
}

/// `layout(m, n)` of a rank-2 layout.
fn at_2d(l: &Layout, m: i64, n: i64) -> i64 {
    at_1d(&l.mode(0).unwrap(), m) + at_1d(&l.mode(1).unwrap(), n)
}

/// Compare a rank-2 layout with a 1-based table as MoYe's `print_layout` draws it.
fn assert_table(l: &Layout, table: &[&[i64]]) {
    let rows = size_of(l.mode(0).unwrap().shape());
    let cols = size_of(l.mode(1).unwrap().shape());
    assert_eq!(rows as usize, table.len(), "rows of {l}");
    for (m, row) in table.iter().enumerate() {
        assert_eq!(cols as usize, row.len(), "columns of {l}");
        for (n, &want) in row.iter().enumerate() {
            assert_eq!(at_2d(l, m as i64, n as i64) + 1, want, "{l} at ({m},{n})");
        }
    }
}

const TILE: &str = "(_2,_2):(_1,_2)";
const MATRIX_OF_TILES: &str = "(_3,_4):(_4,_1)";

#[test]
fn complement_of_4_2_in_24() {
    // MoYe: complement(@Layout(4,2), 24) prints (_2, 3):(_1, _8).
    let c = eval_layout("complement(_4:_2,24)");
    assert_eq!(c.to_string(), "(_2,3):(_1,_8)");
    assert_table(&c, &[&[1, 9, 17], &[2, 10, 18]]);
}

#[test]
fn layout_with_its_complement() {
    let l = eval_layout("make_layout(_4:_2,complement(_4:_2,24))");
    assert_eq!(l.to_string(), "(_4,(_2,3)):(_2,(_1,_8))");
    assert_table(
        &l,
        &[
            &[1, 2, 9, 10, 17, 18],
            &[3, 4, 11, 12, 19, 20],
            &[5, 6, 13, 14, 21, 22],
            &[7, 8, 15, 16, 23, 24],
        ],
    );
}

#[test]
fn logical_product_table() {
    let l = eval_layout(&format!("logical_product({TILE},{MATRIX_OF_TILES})"));
    assert_eq!(l.to_string(), "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))");
    assert_table(
        &l,
        &[
            &[1, 17, 33, 5, 21, 37, 9, 25, 41, 13, 29, 45],
            &[2, 18, 34, 6, 22, 38, 10, 26, 42, 14, 30, 46],
            &[3, 19, 35, 7, 23, 39, 11, 27, 43, 15, 31, 47],
            &[4, 20, 36, 8, 24, 40, 12, 28, 44, 16, 32, 48],
        ],
    );
}

const BLOCKED_TABLE: &[&[i64]] = &[
    &[1, 3, 5, 7, 9, 11, 13, 15],
    &[2, 4, 6, 8, 10, 12, 14, 16],
    &[17, 19, 21, 23, 25, 27, 29, 31],
    &[18, 20, 22, 24, 26, 28, 30, 32],
    &[33, 35, 37, 39, 41, 43, 45, 47],
    &[34, 36, 38, 40, 42, 44, 46, 48],
];

#[test]
fn blocked_product_table() {
    let l = eval_layout(&format!("blocked_product({TILE},{MATRIX_OF_TILES})"));
    assert_eq!(l.to_string(), "((_2,_3),(_2,_4)):((_1,_16),(_2,_4))");
    assert_table(&l, BLOCKED_TABLE);
}

const RAKED: &str = "((_3,_2),(_4,_2)):((_16,_1),(_4,_2))";

#[test]
fn raked_product_table() {
    let l = eval_layout(&format!("raked_product({TILE},{MATRIX_OF_TILES})"));
    assert_eq!(l.to_string(), RAKED);
    assert_table(
        &l,
        &[
            &[1, 5, 9, 13, 3, 7, 11, 15],
            &[17, 21, 25, 29, 19, 23, 27, 31],
            &[33, 37, 41, 45, 35, 39, 43, 47],
            &[2, 6, 10, 14, 4, 8, 12, 16],
            &[18, 22, 26, 30, 20, 24, 28, 32],
            &[34, 38, 42, 46, 36, 40, 44, 48],
        ],
    );
}

/// MoYe fails on `logical_divide(raked_prod, (Layout(2,3), Layout(2,4)))` (a tuple of dynamic
/// layouts as tiler). By definition the tiler divides mode by mode: in mode 0 (6 rows) the tile
/// `2:3` takes rows {0,3} and its complement in `(_3,_2)` steps over the offsets {0,1,2}; in mode 1
/// (8 columns) the tile `2:4` takes columns {0,4} and the rest steps over {0,1,2,3}. So the result
/// at ((i,j),(k,l)) is raked(3i+j, 4k+l): exactly the blocked product's table (the divide undoes
/// the raking). With dynamic tiles the shapes carry dynamic size-1 modes, CuTe's ceil-division
/// leftovers: ((2,(3,1)),(2,(4,1))) with those 1s merged into the printed layout.
#[test]
fn logical_divide_of_raked_product_by_tuple_of_layouts() {
    let raked = eval_layout(RAKED);
    for tiler in ["(2:3,2:4)", "(_2:_3,_2:_4)"] {
        let d = eval_layout(&format!("logical_divide({RAKED},{tiler})"));
        let (m0, m1) = (d.mode(0).unwrap(), d.mode(1).unwrap());
        // sizes: 2 x 3 rows, 2 x 4 columns
        assert_eq!(size_of(m0.mode(0).unwrap().shape()), 2, "{d}");
        assert_eq!(size_of(m0.mode(1).unwrap().shape()), 3, "{d}");
        assert_eq!(size_of(m1.mode(0).unwrap().shape()), 2, "{d}");
        assert_eq!(size_of(m1.mode(1).unwrap().shape()), 4, "{d}");
        for i in 0..2 {
            for j in 0..3 {
                for k in 0..2 {
                    for l in 0..4 {
                        let got = at_1d(&m0.mode(0).unwrap(), i)
                            + at_1d(&m0.mode(1).unwrap(), j)
                            + at_1d(&m1.mode(0).unwrap(), k)
                            + at_1d(&m1.mode(1).unwrap(), l);
                        assert_eq!(got, at_2d(&raked, 3 * i + j, 4 * k + l), "{d}");
                    }
                }
            }
        }
        // Read as a 6x8 matrix ((i,j),(k,l)), it is the blocked product's table.
        assert_table(&d, BLOCKED_TABLE);
    }
    // With static tiles everything is static and coalesced per mode: the blocked product itself.
    assert_eq!(
        eval_layout(&format!("logical_divide({RAKED},(_2:_3,_2:_4))")).to_string(),
        "((_2,_3),(_2,_4)):((_1,_16),(_2,_4))"
    );
}

/// MoYe's zipped_divide of the same: the tiles in mode 0, the rests in mode 1.
#[test]
fn zipped_divide_of_raked_product_by_tuple_of_layouts() {
    let z = eval_layout(&format!("zipped_divide({RAKED},(_2:_3,_2:_4))"));
    assert_eq!(z.to_string(), "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))");
    // ... which is the logical product of the seed: every tile is one copy of `tile`.
    assert_eq!(
        z.to_string(),
        eval_layout(&format!("logical_product({TILE},{MATRIX_OF_TILES})")).to_string()
    );
    let zd = eval_layout(&format!("zipped_divide({RAKED},(2:3,2:4))"));
    let (tile, rest) = (zd.mode(0).unwrap(), zd.mode(1).unwrap());
    assert_eq!(size_of(tile.shape()), 4, "{zd}");
    assert_eq!(size_of(rest.shape()), 12, "{zd}");
    let lp = eval_layout(&format!("logical_product({TILE},{MATRIX_OF_TILES})"));
    for t in 0..4 {
        for r in 0..12 {
            assert_eq!(at_2d(&zd, t, r), at_2d(&lp, t, r), "{zd} at ({t},{r})");
        }
    }
}
