//! The examples of the CuTe tensor seed document, in Rust, plus construction, access and slicing.

use cute_layout_core::tensor::*;
use cute_layout_core::typed::{self, C};
use cute_layout_core::{IntTuple, Layout, LayoutError, s};

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

fn iota(n: usize) -> Vec<f32> {
    (0..n).map(|x| x as f32).collect()
}

#[test]
fn seed_nonowning_views_of_global_and_shared_memory() {
    let a = iota(8 * 16);
    let gmem_8s = make_tensor(make_gmem_ptr(&a[..]), l("_8:_1")).unwrap();
    let gmem_8d = make_tensor(make_gmem_ptr(&a[..]), l("8:_1")).unwrap();
    let gmem_8sx16d = make_tensor(make_gmem_ptr(&a[..]), l("(_8,16):(_1,_8)")).unwrap();
    let gmem_8dx16s = make_tensor(make_gmem_ptr(&a[..]), l("(8,_16):(_16,_1)")).unwrap();
    assert_eq!(gmem_8s.size(), 8);
    assert_eq!(gmem_8d.size(), 8);
    assert_eq!(gmem_8sx16d[(3, 5)], (3 + 8 * 5) as f32);
    assert_eq!(gmem_8dx16s[(3, 5)], (3 * 16 + 5) as f32);
    assert_eq!(gmem_8sx16d.memory_space(), "gmem");

    let smem = iota(32);
    let smem_4x8_col = make_tensor(make_smem_ptr(&smem[..]), l("(_4,_8):(_1,_4)")).unwrap();
    let smem_4x8_row = make_tensor(make_smem_ptr(&smem[..]), l("(_4,_8):(_8,_1)")).unwrap();
    assert_eq!(smem_4x8_col[(1, 2)], 9.0);
    assert_eq!(smem_4x8_row[(1, 2)], 10.0);
    assert_eq!(smem_4x8_row.memory_space(), "smem");
}

#[test]
fn seed_owning_register_tensors() {
    // rmem_4x8_col / row / mix: static layouts in fixed-size arrays, no heap
    let col = typed::Layout::new((C::<4>, C::<8>), (C::<1>, C::<4>));
    let row = typed::Layout::new((C::<4>, C::<8>), (C::<8>, C::<1>));
    let mix = typed::Layout::new((C::<4>, C::<8>), (C::<2>, C::<32>));
    let mut rmem_4x8_col = make_tensor_array::<f32, 32, _>(col).unwrap();
    let mut rmem_4x8_row = make_tensor_array::<f32, 32, _>(row).unwrap();
    let rmem_4x8_mix = make_tensor_array::<f32, 231, _>(mix).unwrap();
    assert_eq!(rmem_4x8_col.memory_space(), "rmem");
    assert_eq!(std::mem::size_of_val(&rmem_4x8_col), 32 * 4 + 8); // the array and the offset
    rmem_4x8_col[(1, 2)] = 5.0;
    rmem_4x8_row[(1, 2)] = 5.0;
    assert_eq!(rmem_4x8_col.engine().as_slice_ref()[9], 5.0);
    assert_eq!(rmem_4x8_row.engine().as_slice_ref()[10], 5.0);
    assert_eq!(rmem_4x8_mix.size(), 32);
    // too small an array for the layout
    assert!(make_tensor_array::<f32, 31, _>(col).is_err());

    // rmem_8 = make_fragment_like(gmem_8sx16d(_,0))
    let a = iota(128);
    let gmem_8sx16d = make_tensor(make_gmem_ptr(&a[..]), l("(_8,16):(_1,_8)")).unwrap();
    let rmem_8 = make_fragment_like::<f32, _, _>(&gmem_8sx16d.slice(s![_, 0]).unwrap()).unwrap();
    assert_eq!(rmem_8.layout().to_string(), "(_8):(_1)");
    assert_eq!(rmem_8.memory_space(), "rmem");
    let rmem_8a =
        make_fragment_like_array::<f32, 8, _, _>(&gmem_8sx16d.slice(s![_, 0]).unwrap()).unwrap();
    assert_eq!(rmem_8a.size(), 8);
}

#[test]
fn seed_copy_src_column_to_dst_row() {
    // copy(src_tensor(_,3), dst_tensor(2,_));
    let src = iota(4 * 5);
    let mut dst = vec![0f32; 3 * 4];
    let src_tensor = make_tensor(make_gmem_ptr(&src[..]), l("(4,5):(1,4)")).unwrap();
    let mut dst_tensor = make_tensor(make_gmem_ptr(&mut dst[..]), l("(3,4):(4,1)")).unwrap();
    copy(
        &src_tensor.slice(s![_, 3]).unwrap(),
        &mut dst_tensor.slice_mut(s![2, _]).unwrap(),
    )
    .unwrap();
    for i in 0..4 {
        assert_eq!(dst_tensor[(2, i)], src_tensor[(i, 3)]);
    }
    assert_eq!(&dst[8..], &[12.0, 13.0, 14.0, 15.0]);
    assert!(dst[..8].iter().all(|&x| x == 0.0));
    // the same with `..` for `_`
    let mut dst2 = vec![0f32; 12];
    let mut d2 = make_tensor(make_gmem_ptr(&mut dst2[..]), l("(3,4):(4,1)")).unwrap();
    copy(
        &src_tensor.slice((.., 3)).unwrap(),
        &mut d2.slice_mut((2, Underscore)).unwrap(),
    )
    .unwrap();
    assert_eq!(dst2, dst);
}

#[test]
fn seed_copy_rows_to_registers_loop() {
    let a = iota(8 * 16);
    let gmem = make_tensor(make_gmem_ptr(&a[..]), l("(_8,16):(_1,_8)")).unwrap();
    let mut rmem = make_fragment_like::<f32, _, _>(&gmem.slice(s![_, 0]).unwrap()).unwrap();
    // rank(gmem) == 2 and shape<0>(gmem) is static
    assert_eq!(gmem.rank(), 2);
    assert!(gmem.shape().get(0).unwrap().is_static());
    let mut sums = Vec::new();
    let n = gmem.shape().get(1).unwrap().as_int().unwrap().value;
    for j in 0..n {
        copy(&gmem.slice(s![_, j]).unwrap(), &mut rmem).unwrap();
        sums.push(rmem.iter().sum::<f32>()); // do_something(rmem)
    }
    let expect: Vec<f32> = (0..16)
        .map(|j| (0..8).map(|i| (i + 8 * j) as f32).sum())
        .collect();
    assert_eq!(sums, expect);
}

#[test]
fn seed_copy_rows_with_typed_layout() {
    let a = iota(8 * 16);
    let gl = typed::Layout::new((C::<8>, 16i64), (C::<1>, C::<8>));
    let gmem = make_tensor(make_gmem_ptr(&a[..]), gl).unwrap();
    assert_eq!(gmem[(3, 2)], 19.0);
    assert_eq!(gmem.get((3i64, 2i64)), Some(&19.0));
    let mut rmem =
        make_fragment_like_array::<f32, 8, _, _>(&gmem.slice(s![_, 0]).unwrap()).unwrap();
    for j in 0..16 {
        copy(&gmem.slice(s![_, j]).unwrap(), &mut rmem).unwrap();
        assert_eq!(rmem[(0,)], (8 * j) as f32);
    }
}

#[test]
fn access_by_1d_rd_and_natural_coordinates() {
    let a = iota(24);
    let t = make_tensor(make_gmem_ptr(&a[..]), l("(4,(3,2)):(1,(4,12))")).unwrap();
    for i in 0..24i64 {
        assert_eq!(t[i], i as f32);
        assert_eq!(*t.at(i).unwrap(), i as f32);
    }
    assert_eq!(t[(1, 4)], 17.0);
    assert_eq!(t[(1, (1, 1))], 17.0);
    let c: IntTuple = "(1,(1,1))".parse().unwrap();
    assert_eq!(t[&c], 17.0);
    // checked access
    assert!(matches!(
        t.get(24),
        Err(LayoutError::IndexOutOfRange { .. })
    ));
    assert!(t.get((4, 0)).is_err());
    assert!(t.get((0, 6)).is_err());
    assert!(t.get((0, (3, 0))).is_err());
    assert!(t.get((0, 0, 0)).is_err());
    assert!(t.get(-1).is_err());
    assert!(t.at(24).is_err());
}

#[test]
#[should_panic(expected = "tensor index")]
fn index_out_of_range_panics_like_a_slice() {
    let a = iota(4);
    let t = make_tensor(make_gmem_ptr(&a[..]), l("4:1")).unwrap();
    let _ = t[4];
}

#[test]
fn typed_tensor_access() {
    let a = iota(24);
    let tl = typed::Layout::new((C::<4>, (C::<3>, C::<2>)), (C::<1>, (C::<4>, C::<12>)));
    let mut v = a.clone();
    let t = make_tensor(make_gmem_ptr(&a[..]), tl).unwrap();
    assert_eq!(t[17i64], 17.0);
    assert_eq!(t[(1i64, 4i64)], 17.0);
    assert_eq!(t[(1i64, (1i64, 1i64))], 17.0);
    assert_eq!(t.get(24i64), None);
    let mut tm = make_tensor(make_gmem_ptr(&mut v[..]), tl).unwrap();
    tm[(0i64, (2i64, 1i64))] = -1.0;
    assert_eq!(v[20], -1.0);
    // a static layout bigger than the memory is refused
    let big = typed::Layout::new((C::<5>, C::<5>), (C::<1>, C::<5>));
    assert!(make_tensor(make_gmem_ptr(&a[..]), big).is_err());
}

#[test]
fn view_whose_cosize_exceeds_the_slice_is_an_error() {
    let a = [0u8; 15];
    let e = make_tensor(make_gmem_ptr(&a[..]), l("(4,4):(1,4)")).unwrap_err();
    assert!(e.to_string().contains("cosize 16"), "{e}");
    assert!(make_tensor(make_gmem_ptr(&a[..]), l("(4,4):(1,4)")).is_err());
    assert!(make_tensor(make_gmem_ptr(&a[..]), l("(3,5):(5,1)")).is_ok());
    // strides may be negative when the view starts far enough in
    let t = Tensor::with_offset(make_gmem_ptr(&a[..]), l("4:-2"), 6).unwrap();
    assert_eq!(t.size(), 4);
    assert!(Tensor::with_offset(make_gmem_ptr(&a[..]), l("4:-2"), 5).is_err());
    // basis strides are not storage layouts
    assert!(make_tensor(make_gmem_ptr(&a[..]), l("(2,2):(_1@0,_1@1)")).is_err());
    // an overflowing layout is an error, not a wrap
    assert!(make_tensor(make_gmem_ptr(&a[..]), l("(2,2):(4611686018427387904,1)")).is_err());
}

#[test]
fn slicing_hierarchical_and_dice() {
    let a = iota(120);
    let t = make_tensor(make_gmem_ptr(&a[..]), l("((2,3),(4,5)):((1,2),(6,24))")).unwrap();
    let v = t.slice(s![(1, _), (_, 2)]).unwrap();
    assert_eq!(v.layout().to_string(), "(3,4):(2,6)");
    assert_eq!(v.offset(), 1 + 48);
    for i in 0..3i64 {
        for j in 0..4i64 {
            assert_eq!(v[(i, j)], t[((1, i), (j, 2))]);
        }
    }
    // a slice of a slice
    let w = v.slice(s![2, _]).unwrap();
    assert_eq!(w.layout().to_string(), "(4):(6)");
    assert_eq!(w[(3,)], t[((1, 2), (3, 2))]);
    // slicing with an integer per mode and everything fixed gives a rank-0 tensor
    let p = t.slice(s![(1, 1), (2, 3)]).unwrap();
    assert_eq!(p.layout().to_string(), "():()");
    assert_eq!(p.offset() as f32, t[((1, 1), (2, 3))]);
    // 1-D coordinate into a hierarchical mode
    let q = t.slice(s![4, _]).unwrap();
    assert_eq!(q.layout().to_string(), "((4,5)):((6,24))");
    assert_eq!(q[0], t[(4, 0)]);
    // dice keeps the fixed modes
    let d = t.dice(s![(1, _), (_, 2)]).unwrap();
    assert_eq!(d.layout().to_string(), "(2,5):(1,24)");
    // errors
    assert!(t.slice(s![(1, _, 0), _]).is_err());
    assert!(t.slice(s![6, _]).is_err());
    assert!(t.slice(s![_, _, _]).is_err());
}

#[test]
fn slice_mut_writes_through() {
    let mut a = vec![0i32; 12];
    let mut t = make_tensor(make_gmem_ptr(&mut a[..]), l("(3,4):(4,1)")).unwrap();
    fill(&mut t.slice_mut(s![1, _]).unwrap(), 7).unwrap();
    fill(&mut t.slice_mut(s![_, 0]).unwrap(), 1).unwrap();
    assert_eq!(a, vec![1, 0, 0, 0, 1, 7, 7, 7, 1, 0, 0, 0]);
}

#[test]
fn s_macro_forms() {
    let j = 3;
    assert_eq!(s![_, 3].to_string(), "(_,3)");
    assert_eq!(s![(1, _), _].to_string(), "((1,_),_)");
    assert_eq!(s![_, j - 1].to_string(), "(_,2)");
    assert_eq!(s![(j + 1) * 2, _].to_string(), "(8,_)");
    assert_eq!(s![((0, _), 2), _,].to_string(), "(((0,_),2),_)");
    let c: SliceCoord = (1, (.., 2)).into();
    assert_eq!(c.to_string(), "(1,(_,2))");
}

#[test]
fn owning_heap_tensor_and_views() {
    let mut t = make_tensor_owned::<i32, Gmem, _>(l("(2,3):(3,1)")).unwrap();
    for i in 0..6i64 {
        *t.at_mut(i).unwrap() = i as i32;
    }
    assert_eq!(t.engine().as_slice(), &[0, 2, 4, 1, 3, 5]);
    let v = t.view();
    assert_eq!(v[(1, 2)], 5);
    let mut m = t.view_mut();
    m[(0, 0)] = 9;
    assert_eq!(t[0], 9);
    let s = make_tensor_owned::<u8, Smem, _>(l("(_4,_8):(_8,_1)")).unwrap();
    assert_eq!(s.memory_space(), "smem");
}

#[test]
fn print_tensor_tables() {
    let a: Vec<i32> = (0..12).collect();
    let t = make_tensor(make_gmem_ptr(&a[..]), l("(3,4):(1,3)")).unwrap();
    assert_eq!(
        print_tensor(&t),
        "gmem o (3,4):(1,3):\n0 3  6  9\n1 4  7 10\n2 5  8 11\n"
            .replace("0 3  6  9", " 0  3  6  9")
            .replace("1 4  7 10", " 1  4  7 10")
            .replace("2 5  8 11", " 2  5  8 11")
    );
    let r = make_tensor(make_gmem_ptr(&a[..]), l("(2,2,3):(1,2,4)")).unwrap();
    let out = r.to_string();
    assert!(
        out.starts_with("gmem o (2,2,3):(1,2,4):\n 0  2\n 1  3\n------\n 4  6\n"),
        "{out}"
    );
    let v = make_tensor(make_gmem_ptr(&a[..]), l("3:4")).unwrap();
    assert_eq!(v.to_string(), "gmem o 3:4:\n0\n4\n8\n");
}
