//! Tensor algorithms: copy, copy_if, fill, clear, axpby, the reference gemm, and tiling
//! (composition, zipped/flat divide, local_tile, local_partition).

use cute_layout_core::tensor::*;
use cute_layout_core::typed::{self, C};
use cute_layout_core::{IntTuple, Layout, Tiler, elem_less};

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

/// C(m,n) += sum_k A(m,k) * B(n,k), by the textbook triple loop over plain row-major arrays.
fn naive(m: usize, n: usize, k: usize, a: &[i64], b: &[i64], c: &mut [i64]) {
    for i in 0..m {
        for j in 0..n {
            for p in 0..k {
                c[i * n + j] += a[i * k + p] * b[j * k + p];
            }
        }
    }
}

fn vals(n: usize, seed: i64) -> Vec<i64> {
    (0..n as i64).map(|i| (i * 7 + seed) % 11 - 5).collect()
}

/// Store the row-major `(rows, cols)` matrix `m` into storage through `layout`, R-D coordinates.
fn store(m: &[i64], rows: usize, cols: usize, layout: &Layout) -> Vec<i64> {
    let mut t = make_tensor_owned::<i64, Gmem, _>(layout.clone()).unwrap();
    for i in 0..rows {
        for j in 0..cols {
            t[(i, j)] = m[i * cols + j];
        }
    }
    t.into_parts().0.into_inner()
}

fn check_gemm(la: &str, lb: &str, lc: &str, (m, n, k): (usize, usize, usize)) {
    let (la, lb, lc) = (l(la), l(lb), l(lc));
    let (a, b, c0) = (vals(m * k, 1), vals(n * k, 2), vals(m * n, 3));
    let mut expect = c0.clone();
    naive(m, n, k, &a, &b, &mut expect);
    let (sa, sb) = (store(&a, m, k, &la), store(&b, n, k, &lb));
    let mut sc = store(&c0, m, n, &lc);
    let ta = make_tensor(make_gmem_ptr(&sa[..]), la).unwrap();
    let tb = make_tensor(make_gmem_ptr(&sb[..]), lb).unwrap();
    let mut tc = make_tensor(make_gmem_ptr(&mut sc[..]), lc).unwrap();
    gemm(&ta, &tb, &mut tc).unwrap();
    for i in 0..m {
        for j in 0..n {
            assert_eq!(tc[(i, j)], expect[i * n + j], "C({i},{j})");
        }
    }
}

#[test]
fn gemm_row_major() {
    check_gemm("(5,3):(3,1)", "(4,3):(3,1)", "(5,4):(4,1)", (5, 4, 3));
}

#[test]
fn gemm_column_major() {
    check_gemm("(5,3):(1,5)", "(4,3):(1,4)", "(5,4):(1,5)", (5, 4, 3));
}

#[test]
fn gemm_mixed_and_padded() {
    check_gemm("(6,4):(1,8)", "(5,4):(4,1)", "(6,5):(7,1)", (6, 5, 4));
}

#[test]
fn gemm_hierarchical_layouts() {
    // M = (2,3), N = (2,2), K = (2,2): tiled / interleaved storage orders
    check_gemm(
        "((2,3),(2,2)):((1,8),(2,4))",
        "((2,2),(2,2)):((4,1),(2,8))",
        "((2,3),(2,2)):((_1,2),(6,12))",
        (6, 4, 4),
    );
}

#[test]
fn gemm_typed_layouts_and_errors() {
    let a: Vec<f32> = (0..6).map(|x| x as f32).collect(); // A (2,3) row-major
    let b: Vec<f32> = (0..6).map(|x| (x % 3) as f32).collect(); // B (2,3) row-major
    let mut c = vec![0f32; 4];
    let ta = make_tensor(
        make_gmem_ptr(&a[..]),
        typed::Layout::new((C::<2>, C::<3>), (C::<3>, C::<1>)),
    )
    .unwrap();
    let tb = make_tensor(make_gmem_ptr(&b[..]), l("(2,3):(3,1)")).unwrap();
    {
        let mut tc = make_tensor(
            make_gmem_ptr(&mut c[..]),
            typed::Layout::new((C::<2>, C::<2>), (C::<1>, C::<2>)),
        )
        .unwrap();
        gemm(&ta, &tb, &mut tc).unwrap();
        let bad = make_tensor(make_gmem_ptr(&b[..]), l("(3,2):(2,1)")).unwrap();
        assert!(gemm(&ta, &bad, &mut tc).is_err());
        let rank1 = make_tensor(make_gmem_ptr(&b[..]), l("6:1")).unwrap();
        assert!(gemm(&ta, &rank1, &mut tc).is_err());
    }
    // C(m,n) = sum_k A(m,k) B(n,k) with B(n,k) = k
    assert_eq!(c, vec![5.0, 14.0, 5.0, 14.0]);
}

#[test]
fn copy_between_layouts_and_sizes() {
    let src: Vec<i32> = (0..24).collect();
    let s = make_tensor(make_gmem_ptr(&src[..]), l("(4,6):(6,1)")).unwrap();
    let mut dst = vec![0; 24];
    let mut d = make_tensor(make_gmem_ptr(&mut dst[..]), l("((2,2),6):((1,12),2)")).unwrap();
    copy(&s, &mut d).unwrap();
    for i in 0..24i64 {
        assert_eq!(d[i], s[i]);
    }
    let mut naive = vec![0; 24];
    let mut n = make_tensor(make_gmem_ptr(&mut naive[..]), l("((2,2),6):((1,12),2)")).unwrap();
    copy_naive(&s, &mut n).unwrap();
    assert_eq!(naive, dst);
    // contiguous fast path with offsets
    let mut out = [0; 30];
    {
        let mut o = Tensor::with_offset(make_gmem_ptr(&mut out[..]), l("(4,6):(1,4)"), 3).unwrap();
        let s2 = make_tensor(make_gmem_ptr(&src[..]), l("24:1")).unwrap();
        copy(&s2, &mut o).unwrap();
        // size mismatch
        let small = make_tensor(make_gmem_ptr(&src[..]), l("5:1")).unwrap();
        assert!(copy(&small, &mut o).is_err());
    }
    assert_eq!(&out[3..27], &src[..]);
}

#[test]
fn copy_typed_static_layouts() {
    let src: Vec<f32> = (0..64).map(|x| x as f32).collect();
    let mut dst = vec![0f32; 64];
    let row = typed::Layout::new((C::<8>, C::<8>), (C::<8>, C::<1>));
    let col = typed::Layout::new((C::<8>, C::<8>), (C::<1>, C::<8>));
    let s = make_tensor(make_gmem_ptr(&src[..]), row).unwrap();
    let mut d = make_tensor(make_gmem_ptr(&mut dst[..]), col).unwrap();
    copy(&s, &mut d).unwrap();
    for i in 0..8 {
        for j in 0..8 {
            assert_eq!(dst[i + 8 * j], src[8 * i + j]);
        }
    }
    // register fragment
    let mut frag = make_tensor_array::<f32, 64, _>(col).unwrap();
    copy(&s, &mut frag).unwrap();
    assert_eq!(frag[(2i64, 3i64)], 19.0);
}

#[test]
fn copy_if_with_identity_predicate() {
    // residue handling: a 5x7 matrix copied through 4x4 tiles, predicated by coordinates
    let (m, n) = (5i64, 7i64);
    let src: Vec<i32> = (0..(m * n) as i32).collect();
    let mut dst = vec![-1; (m * n) as usize];
    let shape: IntTuple = "(5,7)".parse().unwrap();
    let id = make_identity_tensor(&shape).unwrap();
    let s = make_tensor(make_gmem_ptr(&src[..]), l("(5,7):(1,5)")).unwrap();
    let mut d = make_tensor(make_gmem_ptr(&mut dst[..]), l("(5,7):(7,1)")).unwrap();
    let bound: IntTuple = "(3,4)".parse().unwrap();
    let pred = id.map(|c| elem_less(c, &bound).map(|b| b.value != 0).unwrap_or(false));
    assert_eq!(pred.size(), 35);
    copy_if(&pred, &s, &mut d).unwrap();
    for i in 0..m {
        for j in 0..n {
            let want = if i < 3 && j < 4 { s[(i, j)] } else { -1 };
            assert_eq!(d[(i, j)], want, "({i},{j})");
        }
    }
    let short = pred.slice(s_all_first()).unwrap();
    assert!(copy_if(&short, &s, &mut d).is_err());
}

fn s_all_first() -> SliceCoord {
    cute_layout_core::s![_, 0]
}

#[test]
fn fill_clear_axpby() {
    let mut y = [1.0f64; 8];
    let x: Vec<f64> = (0..8).map(|v| v as f64).collect();
    let tx = make_tensor(make_gmem_ptr(&x[..]), l("(2,4):(4,1)")).unwrap();
    let mut ty = make_tensor(make_gmem_ptr(&mut y[..]), l("(2,4):(1,2)")).unwrap();
    axpby(2.0, &tx, 3.0, &mut ty).unwrap();
    for i in 0..2i64 {
        for j in 0..4i64 {
            assert_eq!(ty[(i, j)], 2.0 * tx[(i, j)] + 3.0);
        }
    }
    clear(&mut ty).unwrap();
    assert!(y.iter().all(|&v| v == 0.0));
    let mut z = vec![0u8; 10];
    let mut tz = make_tensor(make_gmem_ptr(&mut z[..]), l("(2,2):(1,5)")).unwrap();
    fill(&mut tz, 4).unwrap();
    assert_eq!(z, vec![4, 4, 0, 0, 0, 4, 4, 0, 0, 0]);
    let short = make_tensor(make_gmem_ptr(&x[..]), l("3:1")).unwrap();
    let mut y2 = [0.0; 4];
    let mut ty2 = make_tensor(make_gmem_ptr(&mut y2[..]), l("4:1")).unwrap();
    assert!(axpby(1.0, &short, 1.0, &mut ty2).is_err());
}

#[test]
fn composition_and_divides() {
    let a: Vec<i32> = (0..48).collect();
    let t = make_tensor(make_gmem_ptr(&a[..]), l("(6,8):(1,6)")).unwrap();
    let tiler: Tiler = "(_3,_4)".parse().unwrap();
    let z = t.zipped_divide(&tiler).unwrap();
    assert_eq!(z.layout().to_string(), "((_3,_4),(2,2)):((1,6),(3,24))");
    let f = t.flat_divide(&tiler).unwrap();
    assert_eq!(f.layout().to_string(), "(_3,_4,2,2):(1,6,3,24)");
    // every element appears once in the zipped view
    let mut seen: Vec<i32> = z.iter().copied().collect();
    seen.sort();
    assert_eq!(seen, a);
    // a tiler layout with a stride: every other row
    let zt = t.zipped_divide(&"(3:2,4:1)".parse().unwrap()).unwrap();
    for (i, j, r, q) in [(1, 0, 1, 0), (2, 3, 0, 1), (0, 2, 1, 1)] {
        let want = (2 * i + r) + 6 * (j + 4 * q);
        assert_eq!(*zt.get(((i, j), (r, q))).unwrap(), want);
    }
    // composition with a layout
    let c = t.compose(&l("(2,24):(24,1)")).unwrap();
    for i in 0..2i64 {
        for j in 0..24i64 {
            assert_eq!(c[(i, j)], t[i * 24 + j]);
        }
    }
    // a non-dividing tile reaches outside the storage: an error
    assert!(t.zipped_divide(&"(_4,_4)".parse().unwrap()).is_err());
}

#[test]
fn local_tile_covers_the_tensor() {
    let a: Vec<i32> = (0..96).collect();
    let t = make_tensor(make_gmem_ptr(&a[..]), l("(8,12):(12,1)")).unwrap();
    let tiler: Tiler = "(_4,_3)".parse().unwrap();
    let mut all = Vec::new();
    for bm in 0..2i64 {
        for bn in 0..4i64 {
            let tile = t.local_tile(&tiler, (bm, bn)).unwrap();
            assert_eq!(tile.layout().to_string(), "(_4,_3):(12,1)");
            for i in 0..4i64 {
                for j in 0..3i64 {
                    assert_eq!(tile[(i, j)], t[(bm * 4 + i, bn * 3 + j)]);
                }
            }
            all.extend(tile.iter().copied());
        }
    }
    all.sort();
    assert_eq!(all, a);
    // a 1-D tile coordinate into the grid of tiles
    let tile5 = t.local_tile(&tiler, 5).unwrap();
    assert_eq!(tile5[(0, 0)], t[(4, 6)]);
    // writing through a tile
    let mut b = vec![0; 96];
    let mut tb = make_tensor(make_gmem_ptr(&mut b[..]), l("(8,12):(12,1)")).unwrap();
    fill(&mut tb.local_tile_mut(&tiler, (1, 3)).unwrap(), 1).unwrap();
    assert_eq!(b.iter().filter(|&&x| x == 1).count(), 12);
    assert_eq!(b[4 * 12 + 9], 1);
}

#[test]
fn local_partition_gives_each_thread_its_elements() {
    let a: Vec<i32> = (0..128).collect();
    let t = make_tensor(make_gmem_ptr(&a[..]), l("(16,8):(1,16)")).unwrap();
    let thr = l("(_4,_8):(_8,_1)"); // 32 threads, row-major numbering
    let mut all = Vec::new();
    for tid in 0..32i64 {
        let p = t.local_partition(&thr, tid).unwrap();
        assert_eq!(p.size(), 4);
        let (ti, tj) = (tid / 8, tid % 8);
        for i in 0..4i64 {
            assert_eq!(p[(i, 0)], t[(ti + 4 * i, tj)]);
        }
        all.extend(p.iter().copied());
    }
    all.sort();
    assert_eq!(all, a);
    assert!(t.local_partition(&thr, 32).is_err());
}
