//! Property tests for layout construction, queries, coordinates and mode operations, on random
//! hierarchical layouts; plus a fuzz of the parser and of every operation of these areas: bad input
//! gives an error, never a panic.

mod common;

use cute_layout_core::notation::eval_str;
use cute_layout_core::*;
use proptest::prelude::*;

fn v(t: &IntTuple) -> i64 {
    t.as_int().map(|i| i.value).unwrap_or(i64::MIN)
}

/// Forget static/dynamic flags (values only).
fn values(t: &IntTuple) -> String {
    t.to_string().replace('_', "")
}

/// Up to about 300 indices spread over `0..n`, always including the first and the last.
fn indices(n: i64) -> impl Iterator<Item = i64> {
    let step = (n / 300).max(1) as usize;
    (0..n).step_by(step).chain((n > 0).then_some(n - 1))
}

fn idx(i: i64) -> IntTuple {
    IntTuple::d(i)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(200), ..ProptestConfig::default() })]

    /// Printing a layout and parsing it back gives the same layout (static flags included).
    #[test]
    fn display_fromstr_roundtrip(l in common::signed_layout()) {
        let back: Layout = l.to_string().parse().unwrap();
        prop_assert_eq!(&back, &l);
        let s = l.shape().to_string();
        prop_assert_eq!(s.parse::<IntTuple>().unwrap(), l.shape().clone());
    }

    /// On a compact layout, the hierarchical coordinate of an index maps back to it, and the
    /// colexicographic coordinate round-trips through `crd2idx(c, shape)`.
    #[test]
    fn idx2crd_crd2idx_roundtrip(l in common::compact_layout()) {
        let n = size(&l).unwrap().value;
        for i in indices(n) {
            let c = get_hier_coord(&l, &idx(i)).unwrap();
            prop_assert!(congruent(&c, l.shape()).value == 1, "{} not congruent with {}", c, l);
            prop_assert_eq!(v(&crd2idx(&c, l.shape(), l.stride()).unwrap()), i);
            let cc = idx2crd_colex(&idx(i), l.shape()).unwrap();
            prop_assert_eq!(v(&crd2idx_colex(&cc, l.shape()).unwrap()), i);
            prop_assert_eq!(v(&get_1d_coord(&l, &idx(i)).unwrap()), i);
        }
    }

    /// A layout gives the same index for a 1-D coordinate, its natural coordinate and its
    /// per-mode (R-D) coordinate.
    #[test]
    fn eval_1d_natural_rd_agree(l in common::signed_layout()) {
        let n = size(&l).unwrap().value;
        for i in indices(n) {
            let a = v(&eval(&l, &idx(i)).unwrap());
            let nat = idx2crd_colex(&idx(i), l.shape()).unwrap();
            prop_assert_eq!(v(&eval(&l, &nat).unwrap()), a);
            if l.is_tuple() {
                let rd = IntTuple::Tuple(
                    l.shape().elems().iter().zip(nat.elems())
                        .map(|(s, c)| crd2idx_colex(&c, s).unwrap()).collect());
                prop_assert_eq!(v(&eval(&l, &rd).unwrap()), a);
            }
        }
    }

    /// `size` is the product of the shape; `cosize` is one more than the spread of the image.
    #[test]
    fn size_cosize_consistent(l in common::signed_layout()) {
        let n = size(&l).unwrap().value;
        prop_assert_eq!(n, l.shape().int_leaves().unwrap().iter().map(|i| i.value).product::<i64>());
        prop_assume!(n <= 1 << 14);
        let img: Vec<i64> = (0..n).map(|i| v(&eval(&l, &idx(i)).unwrap())).collect();
        let spread = img.iter().max().unwrap() - img.iter().min().unwrap();
        prop_assert_eq!(cosize(&l).unwrap().value, spread + 1);
        prop_assert_eq!(product(&coshape(&l).unwrap()).unwrap().value, spread + 1);
        prop_assert_eq!(coprofile(&l).unwrap(), IntTuple::s(0));
    }

    /// Compact layouts (column-major, row-major, any static order) are bijections onto [0, size).
    #[test]
    fn compact_layouts_are_bijective(s in common::shape(), seed in any::<u64>()) {
        let n = product(&s).unwrap().value;
        prop_assume!(n <= 1 << 14);
        let leaves = s.leaves().len();
        // A permutation of 0..leaves from the seed, as a static order congruent with s.
        let mut perm: Vec<i64> = (0..leaves as i64).collect();
        let mut x = seed;
        for k in (1..perm.len()).rev() {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            perm.swap(k, (x >> 33) as usize % (k + 1));
        }
        let mut it = perm.into_iter();
        let order = s.map_leaves(&mut |_| Ok(IntTuple::s(it.next().unwrap()))).unwrap();
        let layouts = [
            make_layout(&s).unwrap(),
            make_layout_major(&s, notation::Tag::LayoutRight).unwrap(),
            make_ordered_layout(&s, &order).unwrap(),
        ];
        for l in &layouts {
            let mut img: Vec<i64> = (0..n).map(|i| v(&eval(l, &idx(i)).unwrap())).collect();
            img.sort_unstable();
            prop_assert_eq!(img, (0..n).collect::<Vec<_>>(), "{}", l);
            prop_assert_eq!(cosize(l).unwrap().value, n);
        }
    }

    /// The identity layout maps each index to its colexicographic coordinate, and its coshape is the shape.
    #[test]
    fn identity_layout_is_identity(s in common::shape()) {
        let l = make_identity_layout(&s).unwrap();
        let n = product(&s).unwrap().value;
        for i in indices(n) {
            let got = as_arithmetic_tuple(&eval(&l, &idx(i)).unwrap()).unwrap();
            prop_assert_eq!(values(&got), values(&idx2crd_colex(&idx(i), &s).unwrap()));
        }
        prop_assert_eq!(values(&coshape(&l).unwrap()), values(&s));
    }

    /// A slice with `_` at mode k, plus its offset, agrees with the layout along mode k.
    #[test]
    fn slice_and_offset_agrees(l in common::layout(), k in 0usize..3, seed in 0i64..1000) {
        let r = l.rank();
        prop_assume!(l.is_tuple());
        let k = k % r;
        let shapes = l.shape().elems();
        let fixed: Vec<i64> = shapes.iter().enumerate()
            .map(|(m, s)| (seed + m as i64) % product(s).unwrap().value).collect();
        let c = Coord::Tuple((0..r).map(|m| if m == k { Coord::Underscore } else { Coord::Int(Int::d(fixed[m])) }).collect());
        let (sl, off) = slice_and_offset(&c, &l).unwrap();
        for j in 0..product(&shapes[k]).unwrap().value {
            let full = IntTuple::Tuple((0..r).map(|m| idx(if m == k { j } else { fixed[m] })).collect());
            prop_assert_eq!(v(&eval(&sl, &idx(j)).unwrap()) + v(&off), v(&eval(&l, &full).unwrap()));
        }
        // dice keeps exactly the other modes
        let d = dice(&c, &l).unwrap();
        prop_assert_eq!(d.rank(), r - 1);
    }

    /// Mode operations keep the function: flatten, group and unflatten do not change any value,
    /// select/take of all modes and append-then-take give the layout back.
    #[test]
    fn mode_ops_preserve_function(l in common::layout()) {
        let n = size(&l).unwrap().value;
        let f = flatten(&l).unwrap();
        prop_assert!(f.depth() <= 1);
        let u = unflatten(&f, l.shape()).unwrap();
        prop_assert_eq!(&u, &l);
        let r = l.rank();
        let g = group(&l, 0, r).unwrap();
        for i in indices(n) {
            let a = v(&eval(&l, &idx(i)).unwrap());
            prop_assert_eq!(v(&eval(&f, &idx(i)).unwrap()), a);
            prop_assert_eq!(v(&eval(&g, &idx(i)).unwrap()), a);
        }
        if l.is_tuple() {
            let all: Vec<usize> = (0..r).collect();
            prop_assert_eq!(&select(&l, &all).unwrap(), &l);
            prop_assert_eq!(&take(&l, 0, r).unwrap(), &l);
            let a = append(&l, None, Some(r + 2)).unwrap();
            prop_assert_eq!(a.rank(), r + 2);
            prop_assert_eq!(&take(&a, 0, r).unwrap(), &l);
            let p = prepend(&l, None, None).unwrap();
            prop_assert_eq!(&take(&p, 1, r + 1).unwrap(), &l);
        }
    }
}

/// Characters the notation uses, for random strings.
const ALPHABET: &[u8] = b"_0123456789-()@:,<> oSwLayoutLeftRightmake_layoutsizecrd2idx";

/// Every operation the notation knows (the fuzz tests feed random arguments to all of them).
fn ops() -> Vec<&'static str> {
    cute_layout_core::notation::operation_names()
}

fn arg_strategy() -> BoxedStrategy<String> {
    prop_oneof![
        common::signed_layout().prop_map(|l| l.to_string()),
        common::shape().prop_map(|s| s.to_string()),
        common::shape().prop_map(|s| make_identity_layout(&s).unwrap().to_string()),
        Just("_".to_string()),
        Just("(_,1)".to_string()),
        Just("(1,(_,2))".to_string()),
        Just("LayoutRight".to_string()),
        Just("()".to_string()),
        Just("():()".to_string()),
        Just("9223372036854775807".to_string()),
        Just("_-9223372036854775808".to_string()),
        Just("(_0,0)".to_string()),
        Just("_1@4096@3".to_string()),
        Just("_1@99999999".to_string()),
        Just("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)".to_string()),
        Just("Sw<2,0,3>".to_string()),
        Just("(Sw<1,0,2> o _0 o (_4,_4):(_4,_1),2:1)".to_string()),
        (-3i64..40).prop_map(|i| i.to_string()),
    ]
    .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(1500), ..ProptestConfig::default() })]

    /// Random strings over the notation's alphabet: parse and evaluate without panicking.
    #[test]
    fn fuzz_garbage_strings(bytes in prop::collection::vec(prop::sample::select(ALPHABET), 0..48)) {
        let s = String::from_utf8(bytes).unwrap();
        let _ = eval_str(&s);
    }

    /// Valid expressions with one character deleted, inserted or replaced.
    #[test]
    fn fuzz_near_miss(l in common::signed_layout(), op in prop::sample::select(ops()),
                      pos in any::<prop::sample::Index>(), c in prop::sample::select(ALPHABET),
                      kind in 0u8..3) {
        let mut s: Vec<u8> = format!("{op}({l},{})", l.shape()).into_bytes();
        let p = pos.index(s.len() + 1);
        match kind {
            0 if p < s.len() => { s.remove(p); }
            1 => s.insert(p, c),
            _ if p < s.len() => s[p] = c,
            _ => {}
        }
        let _ = eval_str(&String::from_utf8_lossy(&s));
    }

    /// Every operation of these areas on random arguments and template arguments: errors, never panics.
    #[test]
    fn fuzz_operations(op in prop::sample::select(ops()),
                       targs in prop::collection::vec(-2i64..6, 0..3),
                       args in prop::collection::vec(arg_strategy(), 0..4)) {
        let t = if targs.is_empty() {
            String::new()
        } else {
            format!("<{}>", targs.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(","))
        };
        let e = format!("{op}{t}({})", args.join(","));
        let _ = eval_str(&e);
    }
}

#[test]
fn traps_from_the_oracle_readme() {
    let cases = [
        ("make_layout((_4,_1,_2))", "(_4,_1,_2):(_1,_0,_4)"),
        ("make_layout((4,1,2))", "(4,1,2):(_1,4,4)"),
        ("make_layout(8)", "8:_1"),
        ("make_layout((2,3),LayoutRight)", "(2,3):(3,_1)"),
        ("make_layout(_1)", "_1:_0"),
        ("make_layout(1)", "1:_1"),
        ("make_identity_layout(1)", "1:_1"),
        ("idx2crd(40,(_4,_8))", "(0,10)"),
        ("slice((_4),(_8):(_6))", "():()"),
        (
            "slice_and_offset((3,2,_),((10),9,2):((_18),_2,_1))",
            "((2):(_1),58)",
        ),
        ("eval(make_identity_layout((4,(2,3))),13)", "(1,(1,1))"),
        ("coshape(make_identity_layout((_4,_3)))", "(_4,_3)"),
    ];
    for (e, want) in cases {
        assert_eq!(
            eval_str(e)
                .map(|v| v.to_string())
                .unwrap_or_else(|e| format!("error: {e}")),
            want,
            "{e}"
        );
    }
}
