//! CUTLASS's classic layouts, TensorRef and TensorView: the seed examples, and each layout against its
//! CuTe layout for every coordinate of an extent.

use cute_layout_core::IntTuple;
use cute_layout_core::classic::*;
use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};

/// Check `layout.offset(c) == cute(c)` for every coordinate `c` inside `extent`, `inverse` undoes
/// `offset`, and every offset is below `capacity`.
fn check_against_cute<L: ClassicLayout>(layout: &L, extent: L::Coord) {
    let cute = layout.to_cute(extent).unwrap();
    let cap = layout.capacity(extent).unwrap();
    let ids: Vec<i64> = (0..cap).collect();
    let t = make_tensor(make_gmem_ptr(&ids[..]), cute.clone())
        .unwrap_or_else(|e| panic!("{layout:?} as {cute} over capacity {cap}: {e}"));
    let ext = extent.components();
    let total: i64 = ext.iter().product();
    let mut seen = 0;
    for lin in 0..total {
        // colexicographic enumeration of the extent (component 0 fastest)
        let mut rest = lin;
        let comps: Vec<i64> = ext
            .iter()
            .map(|&e| {
                let c = rest % e;
                rest /= e;
                c
            })
            .collect();
        let coord = L::Coord::from_components(&comps).unwrap();
        let off = layout.offset(coord).unwrap();
        let rd = IntTuple::tuple(comps.iter().map(|&c| IntTuple::d(c)).collect());
        assert_eq!(*t.get(&rd).unwrap(), off, "{layout:?} {cute} at {coord:?}");
        assert!(
            off < cap,
            "{layout:?}: offset {off} of {coord:?} not below capacity {cap}"
        );
        assert_eq!(
            layout.inverse(off).unwrap(),
            coord,
            "{layout:?} inverse({off})"
        );
        seen += 1;
    }
    assert_eq!(seen, total);
}

#[test]
fn pitch_linear_matches_cute() {
    let e = PitchLinearCoord::new(5, 3);
    check_against_cute(&PitchLinear::packed(e).unwrap(), e);
    check_against_cute(&PitchLinear::new(8), e);
    assert_eq!(<PitchLinear as ClassicLayout>::RANK, 2);
    assert_eq!(<PitchLinear as ClassicLayout>::STRIDE_RANK, 1);
}

#[test]
fn column_major_matches_cute() {
    let e = MatrixCoord::new(4, 6);
    check_against_cute(&ColumnMajor::packed(e).unwrap(), e);
    check_against_cute(&ColumnMajor::new(7), e);
}

#[test]
fn row_major_matches_cute() {
    let e = MatrixCoord::new(4, 6);
    check_against_cute(&RowMajor::packed(e).unwrap(), e);
    check_against_cute(&RowMajor::new(9), e);
}

#[test]
fn interleaved_match_cute() {
    let e = MatrixCoord::new(6, 8);
    check_against_cute(&ColumnMajorInterleaved::<2>::packed(e).unwrap(), e);
    check_against_cute(&ColumnMajorInterleaved::<4>::packed(e).unwrap(), e);
    check_against_cute(&ColumnMajorInterleaved::<4>::new(30), e);
    check_against_cute(&RowMajorInterleaved::<2>::packed(e).unwrap(), e);
    check_against_cute(&RowMajorInterleaved::<3>::packed(e).unwrap(), e);
    check_against_cute(&RowMajorInterleaved::<3>::new(40), e);
    assert_eq!(
        ColumnMajorInterleaved::<4>::packed(e)
            .unwrap()
            .to_cute(e)
            .unwrap()
            .to_string(),
        "(6,(_4,2)):(_4,(_1,24))"
    );
}

#[test]
fn interleaved_needs_whole_blocks_for_cute() {
    let e = MatrixCoord::new(6, 7);
    let l = ColumnMajorInterleaved::<4>::packed(e).unwrap();
    assert!(l.to_cute(e).is_err());
    // the classic layout itself handles the partial block: capacity rounds up
    assert_eq!(l.capacity(e).unwrap(), 2 * 24);
    assert_eq!(l.offset(MatrixCoord::new(5, 6)).unwrap(), 24 + 5 * 4 + 2);
}

#[test]
fn tensor_nhwc_nchw_match_cute() {
    let e = Tensor4DCoord::new(2, 3, 4, 5);
    check_against_cute(&TensorNHWC::packed(e).unwrap(), e);
    check_against_cute(&TensorNCHW::packed(e).unwrap(), e);
    // padded strides
    check_against_cute(&TensorNHWC::new([6, 30, 100]), e);
    assert_eq!(<TensorNHWC as ClassicLayout>::STRIDE_RANK, 3);
}

#[test]
fn seed_column_major_is_row_plus_lda_times_column() {
    let lda = 13;
    let layout = ColumnMajor::new(lda);
    for (row, column) in [(0, 0), (3, 2), (12, 7)] {
        assert_eq!(
            layout.offset(MatrixCoord::new(row, column)).unwrap(),
            row + lda * column
        );
    }
    let layout = RowMajor::new(lda);
    assert_eq!(layout.offset(MatrixCoord::new(3, 2)).unwrap(), lda * 3 + 2);
}

#[test]
fn seed_capacity_with_padding() {
    // int lda = columns + padding; RowMajor layout(lda); capacity(extent) == rows * (columns + padding)
    let (rows, columns, padding) = (5, 7, 3);
    let layout = RowMajor::new(columns + padding);
    let extent = MatrixCoord::new(rows, columns);
    assert_eq!(layout.capacity(extent).unwrap(), rows * (columns + padding));
    // packed has no padding
    assert_eq!(
        RowMajor::packed(extent).unwrap().capacity(extent).unwrap(),
        rows * columns
    );
}

#[test]
fn seed_packed_buffer_of_arbitrary_layout() {
    fn offsets<L: ClassicLayout>(extent: L::Coord, coord: L::Coord) -> i64 {
        let layout = L::packed(extent).unwrap();
        layout.offset(coord).unwrap()
    }
    let e = MatrixCoord::new(4, 4);
    let c = MatrixCoord::new(1, 2);
    assert_eq!(offsets::<ColumnMajor>(e, c), 9);
    assert_eq!(offsets::<RowMajor>(e, c), 6);
}

#[test]
fn seed_tensor_ref_at() {
    let ldm = 6;
    let mut data = [0i8; 6 * 4];
    data[2 + 6 * 3] = 3;
    let layout = ColumnMajor::new(ldm);
    let mut r = TensorRef::new(&mut data[..], layout);
    let x = *r.at(MatrixCoord::new(2, 3)).unwrap();
    *r.at_mut(MatrixCoord::new(2, 3)).unwrap() = x * 2;
    assert_eq!(data[2 + 6 * 3], 6);
}

#[test]
fn seed_tensor_view_contains() {
    let ldm = 8;
    let mut data = [1i32; 8 * 5];
    let layout = ColumnMajor::new(ldm);
    let extent = MatrixCoord::new(6, 5);
    let r = TensorRef::new(&mut data[..], layout);
    let mut view = TensorView::new(r, extent).unwrap(); // TensorView view(ref, extent)
    let mut touched = 0;
    for row in -1..9 {
        for column in -1..7 {
            let coord = MatrixCoord::new(row, column);
            if view.contains(coord) {
                let x = *view.at(coord).unwrap();
                *view.at_mut(coord).unwrap() = x * 2;
                touched += 1;
            } else {
                assert!(view.at(coord).is_err());
            }
        }
    }
    assert_eq!(touched, 30);
    assert_eq!(view.size(), 30);
    assert_eq!(view.to_cute().unwrap().to_string(), "(6,5):(_1,8)");
    // rows 6 and 7 of each column are padding: untouched
    assert_eq!(data.iter().filter(|&&v| v == 2).count(), 30);
    assert_eq!(data[6], 1);
}

#[test]
fn tensor_view_from_parts_and_capacity_check() {
    let data = [0f32; 20];
    let v = TensorView::from_parts(&data[..], RowMajor::new(5), MatrixCoord::new(4, 5)).unwrap();
    assert_eq!(v.capacity().unwrap(), 20);
    // a view that needs more storage than there is
    assert!(TensorView::from_parts(&data[..], RowMajor::new(6), MatrixCoord::new(4, 5)).is_err());
    assert!(TensorView::from_parts(&data[..], RowMajor::new(5), MatrixCoord::new(-1, 5)).is_err());
}

#[test]
fn tensor_ref_outside_storage_is_an_error() {
    let data = [0u8; 10];
    let r = TensorRef::new(&data[..], RowMajor::new(5));
    assert!(r.at(MatrixCoord::new(1, 4)).is_ok());
    assert!(r.at(MatrixCoord::new(2, 0)).is_err());
    assert!(r.at(MatrixCoord::new(0, -1)).is_err());
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    assert!(RowMajor::new(0).inverse(5).is_err());
    assert!(
        RowMajor::new(i64::MAX)
            .offset(MatrixCoord::new(2, 0))
            .is_err()
    );
    assert!(TensorNHWC::packed(Tensor4DCoord::new(1, i64::MAX, 2, 2)).is_err());
    assert!(ColumnMajorInterleaved::<0>::packed(MatrixCoord::new(2, 2)).is_err());
    assert!(
        ColumnMajorInterleaved::<0>::new(4)
            .offset(MatrixCoord::new(1, 1))
            .is_err()
    );
    assert!(MatrixCoord::from_components(&[1, 2, 3]).is_err());
}
