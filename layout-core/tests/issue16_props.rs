//! Properties of the operations added for issue 16, stated as definitions: tilers dividing shapes,
//! casts, slices of swizzled layouts, and the layout analyses. `PROPTEST_CASES` raises the count.

mod common;

use cute_layout_core::analysis::{Access, bank_conflicts, from_f2, global_access, to_f2};
use cute_layout_core::notation::eval_str;
use cute_layout_core::{IntTuple, Layout, LayoutFn, Swizzle, Value};
use proptest::prelude::*;

fn ev(s: &str) -> Value {
    eval_str(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn fun(s: &str) -> LayoutFn {
    LayoutFn::from_value(&ev(s)).expect("a function")
}

fn at(f: &LayoutFn, i: i64) -> i64 {
    match f.eval(&IntTuple::d(i)).unwrap() {
        IntTuple::Int(v) => v.value,
        v => panic!("{f}({i}) = {v}"),
    }
}

/// A static injective layout with power-of-two modes: compact strides taken in a random mode order.
fn pow2_layout() -> impl Strategy<Value = Layout> {
    pow2_layout_of_rank(1..=4)
}

fn pow2_layout_of_rank(ranks: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Layout> {
    prop::collection::vec(0u32..=3, ranks)
        .prop_flat_map(|logs| {
            let n = logs.len();
            (Just(logs), Just((0..n).collect::<Vec<_>>()).prop_shuffle())
        })
        .prop_map(|(logs, order)| {
            let mut stride = vec![0i64; logs.len()];
            let mut cur = 1i64;
            for &m in &order {
                stride[m] = cur;
                cur <<= logs[m];
            }
            let shape: Vec<String> = logs.iter().map(|l| format!("_{}", 1 << l)).collect();
            let stride: Vec<String> = stride.iter().map(|d| format!("_{d}")).collect();
            format!("({}):({})", shape.join(","), stride.join(","))
                .parse()
                .unwrap()
        })
}

fn swizzle() -> impl Strategy<Value = Swizzle> {
    (0i64..=3, 0i64..=4, 1i64..=5, any::<bool>()).prop_filter_map("|S| >= B", |(b, m, s, neg)| {
        Swizzle::new(b, m, if neg { -s } else { s }).ok()
    })
}

/// A small tiler layout `(s0,s1):(d0,d1)` with d1 a multiple of s0*d0 (injective).
fn tiler() -> impl Strategy<Value = String> {
    (1i64..=4, 1i64..=4, 1i64..=3, 1i64..=2)
        .prop_map(|(s0, d0, s1, k)| format!("(_{s0},_{s1}):(_{d0},_{})", s0 * d0 * k))
}

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(common::cases(64))
}

proptest! {
    #![proptest_config(config())]

    /// `evenly_divides(n, B)` holds exactly when `B` and its complement in `n` tile `0..n` one to one.
    #[test]
    fn evenly_divides_is_an_exact_tiling(b in tiler(), n in 1i64..=48) {
        let even = ev(&format!("evenly_divides(_{n},{b})")).to_string() == "_1";
        let rest = ev(&format!("complement({b},_{n})"));
        let whole: Layout = ev(&format!("make_layout({b},{rest})")).into_layout().unwrap();
        let mut image: Vec<i64> = (0..cute_layout_core::size(&whole).unwrap().value)
            .map(|i| at(&LayoutFn::Layout(whole.clone()), i)).collect();
        image.sort();
        prop_assert_eq!(even, image == (0..n).collect::<Vec<_>>(), "{} in {}: {}", b, n, whole);
    }

    /// `ceil_div(n, B)` is the shape of B's complement in n: the tiles B needs to cover `0..n`.
    #[test]
    fn ceil_div_counts_the_tiles(b in tiler(), n in 1i64..=48) {
        let grid = ev(&format!("size(ceil_div(_{n},{b}))")).into_int().unwrap().value;
        let size_b = ev(&format!("size({b})")).into_int().unwrap().value;
        let cosize_b = ev(&format!("cosize({b})")).into_int().unwrap().value;
        // the tiles cover the shape (the complement's postcondition: size >= n / size(B))
        prop_assert!(size_b * grid >= n, "{} tiles of {} for {}", grid, b, n);
        prop_assert!(grid >= 1 && grid <= n.max(1) * cosize_b);
        // mode by mode: a tuple tiler divides each mode on its own
        let by_mode = ev(&format!("ceil_div((_{n},_{n}),({b},_3))")).to_string();
        let m0 = ev(&format!("ceil_div(_{n},{b})")).to_string();
        let m1 = ev(&format!("ceil_div(_{n},_3)")).to_string();
        prop_assert_eq!(by_mode, format!("({m0},{m1})"));
    }

    /// `upcast<n>` undoes `downcast<n>` for any layout with a static unit stride, plain or swizzled.
    #[test]
    fn upcast_undoes_downcast(l in common::layout(), sw in swizzle(), k in 0u32..=3) {
        let n = 1i64 << k;
        let unit = format!("{}", cute_layout_core::append(&l, Some(&"_2:_1".parse().unwrap()), None).unwrap());
        let back = ev(&format!("upcast<{n}>(downcast<{n}>({unit}))")).to_string();
        prop_assert_eq!(back, unit.clone());
        let c = format!("{sw} o _0 o {unit}");
        let back = ev(&format!("upcast<{n}>(downcast<{n}>({c}))")).to_string();
        prop_assert_eq!(back, c);
    }

    /// `upcast<n>` views the elements as vectors of n: when the unit-stride mode holds whole vectors,
    /// vector `c` (a coordinate of `upcast(L)`) starts at element `L(c')`, where `c'` is `c` with its
    /// unit-stride coordinate scaled by n, and `n * upcast(L)(c) == L(c')`.
    #[test]
    fn upcast_is_a_vector_view(l in pow2_layout(), k in 0u32..=2) {
        let n = 1i64 << k;
        let leaves = |t: &IntTuple| -> Vec<i64> { t.leaves().iter().map(|x| x.as_int().unwrap().value).collect() };
        let (shape, stride) = (leaves(l.shape()), leaves(l.stride()));
        let unit = stride.iter().position(|&d| d == 1).unwrap();
        prop_assume!(shape[unit] % n == 0);
        let up = ev(&format!("upcast<{n}>({l})")).into_layout().unwrap();
        let up_shape = leaves(up.shape());
        for i in 0..up_shape.iter().product::<i64>() {
            let mut rest = i;
            let c: Vec<i64> = up_shape.iter().map(|s| { let v = rest % s; rest /= s; v }).collect();
            let elem: i64 = c.iter().enumerate().map(|(j, &cj)| if j == unit { cj * n } else { cj } * stride[j]).sum();
            let vec_coord = if c.len() == 1 { IntTuple::d(c[0]) } else { IntTuple::Tuple(c.iter().map(|&v| IntTuple::d(v)).collect()) };
            let got = match cute_layout_core::eval(&up, &vec_coord).unwrap() { IntTuple::Int(v) => v.value, v => panic!("{v}") };
            prop_assert_eq!(got * n, elem, "{} at {:?}", up, c);
        }
    }

    /// A slice of a swizzled layout, plus its offset, is the layout at the filled-in coordinate:
    /// `slice(c, F)(i) + offset == F(c with its _ replaced by the coordinate of i)`.
    #[test]
    fn swizzled_slice_and_offset(l in pow2_layout_of_rank(2..=4), sw in swizzle(), picks in prop::collection::vec((any::<bool>(), any::<bool>(), 0i64..8), 4)) {
        let shape: Vec<i64> = l.shape().leaves().iter().map(|s| s.as_int().unwrap().value).collect();
        let f = format!("{sw} o _0 o {l}");
        let mut coord: Vec<String> = shape.iter().zip(&picks).map(|(s, (keep, stat, k))| {
            if *keep { "_".to_string() } else if *stat { format!("_{}", k % s) } else { format!("{}", k % s) }
        }).collect();
        if coord.iter().all(|c| c != "_") {
            coord[0] = "_".to_string();
        }
        let c = format!("({})", coord.join(","));
        let Value::Tuple(r) = ev(&format!("slice_and_offset({c},{f})")) else { panic!() };
        let sliced = LayoutFn::from_value(&r[0]).unwrap();
        let off = r[1].clone().into_int().unwrap().value;
        let kept: Vec<i64> = shape.iter().zip(&coord).filter(|(_, c)| *c == "_").map(|(s, _)| *s).collect();
        let full = fun(&f);
        for i in 0..kept.iter().product::<i64>() {
            let mut rest = i;
            let filled: Vec<String> = shape.iter().zip(&coord).map(|(s, c)| {
                if c == "_" { let v = rest % s; rest /= s; v.to_string() } else { c.trim_start_matches('_').to_string() }
            }).collect();
            let want = match full.eval(&format!("({})", filled.join(",")).parse().unwrap()).unwrap() {
                IntTuple::Int(v) => v.value, v => panic!("{v}"),
            };
            prop_assert_eq!(at(&sliced, i) + off, want, "{} at {}", c, i);
        }
    }

    /// `max_alignment` of a swizzled layout is a power of two at most `2^M`, and `upcast` by it works
    /// (CuTe: the largest N for which `upcast<N>` compiles).
    #[test]
    fn swizzled_max_alignment_upcasts(l in pow2_layout(), sw in swizzle()) {
        let f = format!("{sw} o _0 o {l}");
        let n = ev(&format!("max_alignment({f})")).into_int().unwrap().value;
        prop_assert!(n >= 1 && n.count_ones() == 1 && n <= 1 << sw.base, "{} of {}", n, f);
        prop_assert!(eval_str(&format!("upcast<{n}>({f})")).is_ok(), "upcast<{}>({})", n, f);
    }

    /// A power-of-two layout or swizzled layout is an F2-linear map, and the map converts back to a
    /// function equal to it everywhere.
    #[test]
    fn f2_round_trip(l in pow2_layout(), sw in swizzle()) {
        for f in [LayoutFn::Layout(l.clone()), fun(&format!("{sw} o _0 o {l}"))] {
            let m = to_f2(&f).unwrap();
            let back = from_f2(&m).unwrap();
            for x in 0..cute_layout_core::size(&l).unwrap().value {
                prop_assert_eq!(m.apply(x), at(&f, x));
                prop_assert_eq!(at(&back, x), at(&f, x), "{} -> {}", f, back);
            }
        }
    }

    /// Bank conflicts lie between the ideal and one wavefront per thread and word, and do not change
    /// when shared memory moves by 128 bytes.
    #[test]
    fn bank_conflict_bounds(l in pow2_layout(), sw in swizzle(), bytes in prop::sample::select(vec![4i64, 8, 16])) {
        let m = cute_layout_core::size(&l).unwrap().value;
        let smem = ev(&format!("make_layout({l},_64:_{m})"));
        let n = 64 * m;
        let tv: Layout = format!("(_32,_{}):(_1,_32)", n / 32).parse().unwrap();
        let f = fun(&format!("{sw} o _0 o {smem}"));
        let moved = fun(&format!("Sw<0,0,0> o _64 o {sw} o _0 o {smem}"));
        let x = Access { elem_bits: 16, bytes };
        if let (Ok(r), Ok(m)) = (bank_conflicts(&tv, &f, x), bank_conflicts(&tv, &moved, x)) {
            prop_assert!(r.ideal as f64 <= r.mean && r.mean <= r.worst as f64);
            prop_assert!(r.worst <= 32 * bytes / 4);
            prop_assert_eq!((r.worst, r.mean), (m.worst, m.mean));
        }
    }

    /// The vector width is the widest contiguous aligned run for every thread, and the efficiency
    /// is a fraction of the fetched bytes.
    #[test]
    fn global_vector_is_contiguous(g in pow2_layout(), v in 0u32..=3) {
        let n = cute_layout_core::size(&g).unwrap().value;
        let vals = (1i64 << v).min(n);
        let tv: Layout = format!("(_{},_{vals}):(_{vals},_1)", n / vals).parse().unwrap();
        let gm = LayoutFn::Layout(g.clone());
        let r = global_access(&tv, &gm, 32).unwrap();
        prop_assert!(r.efficiency > 0.0 && r.efficiency <= 1.0);
        let w = r.vector_elems;
        for t in 0..n / vals {
            for k in 0..vals / w {
                let base = at(&gm, t * vals + k * w);
                prop_assert_eq!(base % w, 0);
                for j in 0..w { prop_assert_eq!(at(&gm, t * vals + k * w + j), base + j); }
            }
        }
    }
}

#[test]
fn make_tile_is_the_tuple_of_its_tilers() {
    for (args, printed) in [
        ("_4:_2,_3,_", "(_4:_2,_3,_)"),
        ("_3,4", "(_3,4)"),
        ("(_2,_3),_4:_2", "((_2,_3),_4:_2)"),
    ] {
        assert_eq!(ev(&format!("make_tile({args})")).to_string(), printed);
        assert_eq!(ev(printed).to_string(), printed);
    }
}
