//! Algebraic laws of divides, products and up/downcasts, checked on random static layouts.
//!
//! - `logical_divide(A,B)` is `composition(A, make_layout(B, complement(B, size(A))))` as a function
//!   (CuTe takes the complement in `shape(A)`; both agree wherever both are defined);
//! - `logical_product(A,B)` is `make_layout(A, composition(complement(A, size(A)*cosize(B)), B))`;
//! - blocked and raked products are permutations of the logical product's image;
//! - zipped/tiled/flat divides and products only regroup the modes of the logical ones;
//! - `upcast<N>(downcast<N>(L)) == L` for a layout with a static stride `_1`.

use cute_layout_core::notation::eval_str;
use cute_layout_core::{IntTuple, Layout};
use proptest::prelude::*;

fn leaf(t: &IntTuple) -> i64 {
    match t {
        IntTuple::Int(i) => i.value,
        other => panic!("not an integer leaf: {other}"),
    }
}

/// Value of a layout at a 1-D coordinate (colexicographic over its leaves).
fn at_1d(l: &Layout, mut i: i64) -> i64 {
    let shapes: Vec<i64> = l.shape().leaves().iter().map(leaf).collect();
    let strides: Vec<i64> = l.stride().leaves().iter().map(leaf).collect();
    let mut v = 0;
    for (k, (s, d)) in shapes.iter().zip(&strides).enumerate() {
        let last = k + 1 == shapes.len();
        let c = if last { i } else { i % s };
        i = if last { 0 } else { i / s };
        v += c * d;
    }
    v
}

fn size(l: &Layout) -> i64 {
    l.shape().leaves().iter().map(leaf).product()
}

fn image(l: &Layout) -> Vec<i64> {
    let mut v: Vec<i64> = (0..size(l)).map(|i| at_1d(l, i)).collect();
    v.sort_unstable();
    v
}

fn leaf_pairs(l: &Layout) -> Vec<(i64, i64)> {
    let mut v: Vec<(i64, i64)> = l
        .shape()
        .leaves()
        .iter()
        .zip(l.stride().leaves().iter())
        .map(|(s, d)| (leaf(s), leaf(d)))
        .collect();
    v.sort_unstable();
    v
}

fn eval(expr: &str) -> Option<Layout> {
    eval_str(expr).ok()?.into_layout().ok()
}

/// A random static layout description: modes of 1 or 2 leaves, strides compact in a random leaf
/// order, scaled by `scale`.
#[derive(Clone, Debug)]
struct Spec {
    modes: Vec<Vec<i64>>,
    order: Vec<usize>,
    scale: i64,
}

impl Spec {
    fn leaves(&self) -> Vec<i64> {
        self.modes.iter().flatten().copied().collect()
    }
    fn strides(&self) -> Vec<i64> {
        let leaves = self.leaves();
        let mut idx: Vec<usize> = (0..leaves.len()).collect();
        idx.sort_by_key(|&i| (self.order[i % self.order.len()], i));
        let mut strides = vec![0; leaves.len()];
        let mut acc = self.scale;
        for i in idx {
            strides[i] = acc;
            acc *= leaves[i];
        }
        strides
    }
    fn text(&self) -> String {
        let strides = self.strides();
        let mut k = 0;
        let mut shape = Vec::new();
        let mut stride = Vec::new();
        for m in &self.modes {
            let s: Vec<String> = m.iter().map(|x| format!("_{x}")).collect();
            let d: Vec<String> = m
                .iter()
                .map(|_| {
                    k += 1;
                    format!("_{}", strides[k - 1])
                })
                .collect();
            if m.len() == 1 {
                shape.push(s[0].clone());
                stride.push(d[0].clone());
            } else {
                shape.push(format!("({})", s.join(",")));
                stride.push(format!("({})", d.join(",")));
            }
        }
        format!("({}):({})", shape.join(","), stride.join(","))
    }
}

fn spec(max_rank: usize, scale: i64) -> impl Strategy<Value = Spec> {
    let dims = prop::sample::select(vec![1i64, 2, 2, 3, 4, 4, 6, 8]);
    let mode = prop::collection::vec(dims, 1..=2);
    (
        prop::collection::vec(mode, 1..=max_rank),
        prop::collection::vec(0usize..8, 6),
        1..=scale,
    )
        .prop_map(|(modes, order, scale)| Spec {
            modes,
            order,
            scale,
        })
}

/// A flat tiler layout made of some of `a`'s leaf extents (so its size divides `size(a)`).
fn sub_tiler(a: &Spec, pick: &[bool], order: &[usize], scale: i64) -> Spec {
    let mut modes: Vec<Vec<i64>> = a
        .leaves()
        .iter()
        .zip(pick.iter().cycle())
        .filter(|(_, p)| **p)
        .map(|(s, _)| vec![*s])
        .collect();
    if modes.is_empty() {
        modes.push(vec![a.leaves()[0]]);
    }
    Spec {
        modes,
        order: order.to_vec(),
        scale,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256), max_global_rejects: 4096, ..ProptestConfig::default() })]

    #[test]
    fn logical_divide_is_composition_with_tile_and_complement(
        a in spec(3, 2),
        pick in prop::collection::vec(any::<bool>(), 6),
        order in prop::collection::vec(0usize..8, 6),
        scale in 1i64..=2,
    ) {
        let b = sub_tiler(&a, &pick, &order, scale);
        let (at, bt) = (a.text(), b.text());
        let n = size(&eval(&at).unwrap());
        let lhs = eval(&format!("logical_divide({at},{bt})"));
        let rhs = eval(&format!("composition({at},make_layout({bt},complement({bt},_{n})))"));
        prop_assume!(lhs.is_some() && rhs.is_some());
        let (lhs, rhs) = (lhs.unwrap(), rhs.unwrap());
        // mode 0 is the tile: the same function as A∘B
        let tile = lhs.mode(0).unwrap();
        prop_assert_eq!(size(&tile), size(&eval(&bt).unwrap()));
        let common = size(&lhs).min(size(&rhs));
        for i in 0..common {
            prop_assert_eq!(at_1d(&lhs, i), at_1d(&rhs, i), "A={} B={} at {}: {} vs {}", at, bt, i, lhs, rhs);
        }
    }

    #[test]
    fn logical_product_is_block_and_complement_of_block_after_tiler(
        a in spec(3, 2),
        b in spec(2, 2),
    ) {
        let (at, bt) = (a.text(), b.text());
        let (al, bl) = (eval(&at).unwrap(), eval(&bt).unwrap());
        let cosize_b = (0..size(&bl)).map(|i| at_1d(&bl, i)).max().unwrap() + 1;
        let n = size(&al) * cosize_b;
        let lhs = eval(&format!("logical_product({at},{bt})"));
        let rhs = eval(&format!("make_layout({at},composition(complement({at},_{n}),{bt}))"));
        prop_assume!(rhs.is_some());
        prop_assert_eq!(lhs.map(|l| l.to_string()), rhs.map(|l| l.to_string()));
    }

    #[test]
    fn blocked_and_raked_products_permute_the_logical_product(
        a in spec(3, 2),
        b in spec(2, 2),
    ) {
        let (at, bt) = (a.text(), b.text());
        let lp = eval(&format!("logical_product({at},{bt})"));
        prop_assume!(lp.as_ref().is_some_and(|l| size(l) <= 1 << 14));
        let want = image(&lp.unwrap());
        // injective: the image has no repeats
        prop_assert!(want.windows(2).all(|w| w[0] < w[1]));
        let blocked = eval(&format!("blocked_product({at},{bt})"));
        let raked = eval(&format!("raked_product({at},{bt})"));
        prop_assume!(blocked.is_some() && raked.is_some());
        let (blocked, raked) = (blocked.unwrap(), raked.unwrap());
        let r = a.modes.len().max(b.modes.len());
        prop_assert_eq!(blocked.rank(), r);
        prop_assert_eq!(raked.rank(), r);
        prop_assert_eq!(image(&blocked), want.clone());
        prop_assert_eq!(image(&raked), want);
    }

    #[test]
    fn zipped_tiled_flat_only_regroup(
        a in spec(3, 2),
        pick in prop::collection::vec(any::<bool>(), 6),
        order in prop::collection::vec(0usize..8, 6),
        by_mode in any::<bool>(),
    ) {
        let at = a.text();
        // a layout tiler, or a tuple tiler with one sub-tiler per mode of A
        let tiler = if by_mode {
            let parts: Vec<String> = a.modes.iter().enumerate().map(|(i, m)| {
                let mode = Spec { modes: vec![m.clone()], order: order.clone(), scale: 1 };
                sub_tiler(&mode, &pick[i..], &order, 1).text()
            }).collect();
            format!("({})", parts.join(","))
        } else {
            sub_tiler(&a, &pick, &order, 1).text()
        };
        for (logical, forms) in [
            ("logical_divide", ["zipped_divide", "tiled_divide", "flat_divide"]),
            ("logical_product", ["zipped_product", "tiled_product", "flat_product"]),
        ] {
            let base = eval(&format!("{logical}({at},{tiler})"));
            let Some(base) = base else { continue };
            for f in forms {
                let l = eval(&format!("{f}({at},{tiler})"));
                prop_assert!(l.is_some(), "{}({},{}) failed where {} works", f, at, tiler, logical);
                prop_assert_eq!(leaf_pairs(&l.unwrap()), leaf_pairs(&base));
            }
        }
    }

    #[test]
    fn upcast_undoes_downcast(a in spec(3, 1), n in prop::sample::select(vec![2i64, 3, 4, 8])) {
        let at = a.text();
        let down = eval(&format!("downcast<{n}>({at})"));
        prop_assert!(down.is_some(), "downcast<{}>({}) failed", n, at);
        let down = down.unwrap();
        let up = eval(&format!("upcast<{n}>({down})"));
        prop_assert_eq!(up.map(|l| l.to_string()), Some(at.clone()));
        // recast from n-element vectors to elements and back is the same round trip (for the widths
        // CuTe has a `uint_bit_t` of: not 24 bits)
        let wide = 8 * n;
        if (wide as u64).is_power_of_two() {
            let rec = eval(&format!("recast_layout<8,{wide}>(recast_layout<{wide},8>({at}))"));
            prop_assert_eq!(rec.map(|l| l.to_string()), Some(at));
        } else {
            let odd = eval(&format!("recast_layout<{wide},8>({at})"));
            prop_assert!(odd.is_none(), "recast_layout<{},8> has no CuTe type", wide);
        }
    }
}
