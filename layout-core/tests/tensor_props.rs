//! Property tests of the tensor layer on random layouts: a view reaches exactly its layout's index
//! range, `copy` pairs elements by coordinate whatever the two layouts, slicing a mode matches
//! access at the full coordinate.

mod common;

use cute_layout_core::notation::Tag;
use cute_layout_core::tensor::*;
use cute_layout_core::{Coord, Int, IntTuple, Layout, crd2idx, make_layout, make_layout_major};
use proptest::prelude::*;

fn index_of(l: &Layout, i: i64) -> i64 {
    crd2idx(&IntTuple::d(i), l.shape(), l.stride())
        .unwrap()
        .as_int()
        .unwrap()
        .value
}

fn size(l: &Layout) -> i64 {
    cute_layout_core::size(l).unwrap().value
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Post: a view over exactly `max - min + 1` elements, placed at `-min`, is accepted and reads
    /// `storage[offset + L(i)]` at every 1-D coordinate; one element less is refused.
    #[test]
    fn view_reaches_exactly_its_index_range(l in common::signed_layout()) {
        let n = size(&l);
        let idx: Vec<i64> = (0..n).map(|i| index_of(&l, i)).collect();
        let (lo, hi) = (*idx.iter().min().unwrap(), *idx.iter().max().unwrap());
        let storage: Vec<i64> = (0..=hi - lo).collect();
        let t = Tensor::with_offset(make_gmem_ptr(&storage[..]), l.clone(), -lo).unwrap();
        for (i, &x) in idx.iter().enumerate() {
            prop_assert_eq!(*t.at(i as i64).unwrap(), x - lo);
        }
        let all: Vec<i64> = t.iter().copied().collect();
        prop_assert_eq!(all, idx.iter().map(|x| x - lo).collect::<Vec<_>>());
        let short = &storage[..storage.len() - 1];
        prop_assert!(Tensor::with_offset(make_gmem_ptr(short), l.clone(), -lo).is_err());
        prop_assert!(t.at(n).is_err());
    }

    /// Post: after `copy(src, dst)`, `dst(i) == src(i)` for every `i`, for a compact destination in
    /// either order; `copy` and `copy_naive` agree.
    #[test]
    fn copy_pairs_elements_by_coordinate(l in common::layout(), right in any::<bool>()) {
        let n = size(&l);
        let cos = (0..n).map(|i| index_of(&l, i)).max().unwrap() + 1;
        let src: Vec<i64> = (0..cos).map(|x| x * 3 + 1).collect();
        let s = make_tensor(make_gmem_ptr(&src[..]), l.clone()).unwrap();
        let dl = if right {
            make_layout_major(l.shape(), Tag::LayoutRight).unwrap()
        } else {
            make_layout(l.shape()).unwrap()
        };
        let mut a = vec![-1i64; n as usize];
        let mut b = vec![-1i64; n as usize];
        {
            let mut da = make_tensor(make_gmem_ptr(&mut a[..]), dl.clone()).unwrap();
            copy(&s, &mut da).unwrap();
            for i in 0..n {
                prop_assert_eq!(da.at(i).unwrap(), s.at(i).unwrap());
            }
        }
        {
            let mut db = make_tensor(make_gmem_ptr(&mut b[..]), dl.clone()).unwrap();
            copy_naive(&s, &mut db).unwrap();
        }
        prop_assert_eq!(a, b);
    }

    /// Post: fixing top-level mode `k` at `c` gives the view whose element `i` is the element at the
    /// R-D coordinate with `c` in mode `k` and `i` spread over the other modes.
    #[test]
    fn slicing_a_mode_matches_full_access(l in common::layout(), k in 0usize..3, c in 0i64..6) {
        prop_assume!(l.is_tuple() && l.rank() >= 2);
        let k = k % l.rank();
        let nk = size(&l.mode(k).unwrap());
        let c = c % nk;
        let n = size(&l);
        let cos = (0..n).map(|i| index_of(&l, i)).max().unwrap() + 1;
        let data: Vec<i64> = (0..cos).collect();
        let t = make_tensor(make_gmem_ptr(&data[..]), l.clone()).unwrap();
        let sc = Coord::Tuple(
            (0..l.rank())
                .map(|m| if m == k { Coord::Int(Int::d(c)) } else { Coord::Underscore })
                .collect(),
        );
        let v = t.slice(sc).unwrap();
        prop_assert_eq!(v.size(), n / nk);
        let others: Vec<i64> = (0..l.rank()).filter(|&m| m != k).map(|m| size(&l.mode(m).unwrap())).collect();
        for i in 0..v.size() {
            let mut rest = i;
            let mut o = others.iter();
            let full: Vec<IntTuple> = (0..l.rank())
                .map(|m| {
                    if m == k {
                        IntTuple::d(c)
                    } else {
                        let e = *o.next().unwrap();
                        let x = rest % e;
                        rest /= e;
                        IntTuple::d(x)
                    }
                })
                .collect();
            prop_assert_eq!(v.at(i).unwrap(), t.get(IntTuple::Tuple(full)).unwrap());
        }
    }

    /// Post: `fill(t, v)` sets exactly the elements in the layout's image.
    #[test]
    fn fill_sets_exactly_the_image(l in common::layout()) {
        let n = size(&l);
        let idx: Vec<i64> = (0..n).map(|i| index_of(&l, i)).collect();
        let cos = idx.iter().max().unwrap() + 1;
        let mut data = vec![0i64; cos as usize + 2];
        {
            let mut t = make_tensor(make_gmem_ptr(&mut data[..]), l.clone()).unwrap();
            fill(&mut t, 7).unwrap();
        }
        for (p, &v) in data.iter().enumerate() {
            prop_assert_eq!(v == 7, idx.contains(&(p as i64)));
        }
    }

    /// Post: `axpby(a, x, b, y)` gives `y(i) = a x(i) + b y0(i)` for every `i`.
    #[test]
    fn axpby_by_coordinate(l in common::layout(), right in any::<bool>()) {
        let n = size(&l);
        let cos = (0..n).map(|i| index_of(&l, i)).max().unwrap() + 1;
        let xs: Vec<i64> = (0..cos).map(|v| v * 5 - 7).collect();
        let x = make_tensor(make_gmem_ptr(&xs[..]), l.clone()).unwrap();
        let yl = if right {
            make_layout_major(l.shape(), Tag::LayoutRight).unwrap()
        } else {
            make_layout(l.shape()).unwrap()
        };
        let mut ys: Vec<i64> = (0..n).collect();
        let y0 = ys.clone();
        let mut y = make_tensor(make_gmem_ptr(&mut ys[..]), yl.clone()).unwrap();
        axpby(2, &x, 3, &mut y).unwrap();
        for i in 0..n {
            let p = index_of(&yl, i) as usize;
            prop_assert_eq!(*y.at(i).unwrap(), 2 * x.at(i).unwrap() + 3 * y0[p]);
        }
    }
}
