//! Property tests for the core algebra on random hierarchical layouts (static, dynamic and mixed):
//! coalesce keeps the function; composition computes A∘B; complement is disjoint from A and completes
//! it injectively; right and left inverses invert.
//!
//! The number of cases per property is `PROPTEST_CASES` (default 512).

use cute_layout_core::{
    IntTuple, Layout, coalesce, complement, complement_default, composition, left_inverse,
    right_inverse,
};
use proptest::prelude::*;
use std::collections::HashSet;

/// A layout as a function on all integers: flat leaves, truncating index split, last mode unbounded.
fn eval(l: &Layout, idx: i64) -> i64 {
    let shape: Vec<i64> = l
        .shape()
        .int_leaves()
        .unwrap()
        .iter()
        .map(|i| i.value)
        .collect();
    let stride: Vec<i64> = l
        .stride()
        .int_leaves()
        .unwrap()
        .iter()
        .map(|i| i.value)
        .collect();
    let mut rest = idx;
    let mut out = 0;
    for k in 0..shape.len() {
        let c = if k + 1 == shape.len() {
            rest
        } else {
            let c = rest % shape[k];
            rest /= shape[k];
            c
        };
        out += c * stride[k];
    }
    out
}

fn size(l: &Layout) -> i64 {
    l.shape()
        .int_leaves()
        .unwrap()
        .iter()
        .map(|i| i.value)
        .product()
}

fn leaf(v: i64, is_static: bool) -> IntTuple {
    if is_static {
        IntTuple::s(v)
    } else {
        IntTuple::d(v)
    }
}

/// Nest flat (shape, stride) leaves into a random hierarchy driven by `seed`.
fn nest(leaves: &[(IntTuple, IntTuple)], seed: u64) -> (IntTuple, IntTuple) {
    if leaves.len() == 1 {
        let (s, d) = leaves[0].clone();
        return if seed.is_multiple_of(4) {
            (IntTuple::Tuple(vec![s]), IntTuple::Tuple(vec![d]))
        } else {
            (s, d)
        };
    }
    // Split into up to three consecutive groups.
    let n = leaves.len();
    let parts = 1 + (seed % 3) as usize;
    let mut cuts = vec![0];
    for p in 1..parts {
        let c = (p * n) / parts;
        if c > *cuts.last().unwrap() && c < n {
            cuts.push(c);
        }
    }
    cuts.push(n);
    let mut shapes = Vec::new();
    let mut strides = Vec::new();
    for (k, w) in cuts.windows(2).enumerate() {
        let sub = &leaves[w[0]..w[1]];
        let (s, d) = if sub.len() == leaves.len() {
            // No real split: a flat tuple of the leaves.
            let (s, d): (Vec<_>, Vec<_>) = sub.iter().cloned().unzip();
            (IntTuple::Tuple(s), IntTuple::Tuple(d))
        } else {
            nest(sub, seed / 5 + k as u64 * 7)
        };
        shapes.push(s);
        strides.push(d);
    }
    if shapes.len() == 1 {
        (shapes.pop().unwrap(), strides.pop().unwrap())
    } else {
        (IntTuple::Tuple(shapes), IntTuple::Tuple(strides))
    }
}

fn build(leaves: Vec<(i64, i64, bool)>, seed: u64) -> Layout {
    let l: Vec<_> = leaves
        .into_iter()
        .map(|(s, d, st)| (leaf(s, st), leaf(d, st || seed.is_multiple_of(2))))
        .collect();
    let (s, d) = nest(&l, seed);
    Layout::new(s, d).unwrap()
}

/// Any layout: small shapes, strides including 0, each leaf static or dynamic.
fn any_layout() -> impl Strategy<Value = Layout> {
    (
        prop::collection::vec(
            (
                prop::sample::select(vec![1i64, 2, 3, 4, 6, 8]),
                prop::sample::select(vec![0i64, 1, 2, 3, 4, 6, 8, 12, 16, 32]),
                any::<bool>(),
            ),
            1..5,
        ),
        any::<u64>(),
    )
        .prop_map(|(v, seed)| build(v, seed))
}

/// Power-of-two shapes and strides (compositions of these mostly succeed).
fn pow2_layout(all_static: bool) -> impl Strategy<Value = Layout> {
    (
        prop::collection::vec(
            (
                prop::sample::select(vec![1i64, 2, 4, 8]),
                prop::sample::select(vec![0i64, 1, 2, 4, 8, 16, 32]),
                any::<bool>(),
            ),
            1..5,
        ),
        any::<u64>(),
    )
        .prop_map(move |(v, seed)| {
            let v = v
                .into_iter()
                .map(|(s, d, st)| (s, d, st || all_static))
                .collect();
            build(v, seed)
        })
}

/// An injective layout: modes in a random order, each stride the extent of the previous ones times 1
/// or 2 (a gap).
fn injective_layout(all_static: bool) -> impl Strategy<Value = Layout> {
    (
        prop::collection::vec(
            (
                prop::sample::select(vec![2i64, 3, 4, 8]),
                prop::sample::select(vec![1i64, 1, 2]),
                any::<bool>(),
            ),
            1..4,
        ),
        any::<u64>(),
        any::<u64>(),
    )
        .prop_map(move |(v, perm_seed, seed)| {
            let n = v.len();
            let mut order: Vec<usize> = (0..n).collect();
            let mut x = perm_seed;
            for i in (1..n).rev() {
                order.swap(i, (x % (i as u64 + 1)) as usize);
                x /= 7;
            }
            let mut stride = vec![0i64; n];
            let mut cover = 1;
            for &k in &order {
                stride[k] = cover * v[k].1;
                cover = stride[k] * v[k].0;
            }
            let leaves = (0..n)
                .map(|k| (v[k].0, stride[k], v[k].2 || all_static))
                .collect();
            build(leaves, seed | 1) // odd seed: strides keep the shapes' staticness
        })
}

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(512);
    ProptestConfig::with_cases(cases)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn coalesce_keeps_the_function(a in any_layout()) {
        let c = coalesce(&a).unwrap();
        prop_assert_eq!(size(&c), size(&a), "{} -> {}", a, c);
        prop_assert!(c.depth() <= 1);
        for i in 0..size(&a) {
            prop_assert_eq!(eval(&c, i), eval(&a, i), "{} -> {} at {}", a, c, i);
        }
    }

    #[test]
    fn composition_is_a_after_b(a in any_layout(), b in any_layout()) {
        if let Ok(r) = composition(&a, &b) {
            prop_assert_eq!(size(&r), size(&b), "{} o {} = {}", a, b, r);
            for i in 0..size(&b) {
                prop_assert_eq!(eval(&r, i), eval(&a, eval(&b, i)), "{} o {} = {} at {}", a, b, r, i);
            }
        }
    }

    #[test]
    fn composition_of_pow2_layouts(a in pow2_layout(false), b in pow2_layout(false)) {
        if let Ok(r) = composition(&a, &b) {
            prop_assert_eq!(size(&r), size(&b), "{} o {} = {}", a, b, r);
            for i in 0..size(&b) {
                prop_assert_eq!(eval(&r, i), eval(&a, eval(&b, i)), "{} o {} = {} at {}", a, b, r, i);
            }
        }
    }

    #[test]
    fn complement_is_disjoint_and_completes(a in injective_layout(false), k in 1i64..4) {
        let cot = IntTuple::d(size(&a).max(1) * k * 2);
        let results = [complement(&a, &cot), complement_default(&a)];
        for c in results.into_iter().flatten() {
            let image: HashSet<i64> = (0..size(&a)).map(|i| eval(&a, i)).collect();
            for i in 1..size(&c) {
                prop_assert!(!image.contains(&eval(&c, i)), "{} vs complement {} at {}", a, c, i);
                prop_assert!(eval(&c, i) > eval(&c, i - 1), "complement {} not ordered", c);
            }
            let joint = Layout::from_modes(vec![a.clone(), c.clone()]);
            let mut seen = HashSet::new();
            for i in 0..size(&joint) {
                prop_assert!(seen.insert(eval(&joint, i)), "{} not injective", joint);
            }
        }
    }

    #[test]
    fn static_complement_succeeds(a in injective_layout(true)) {
        prop_assert!(complement_default(&a).is_ok(), "{}", a);
    }

    #[test]
    fn right_inverse_inverts(a in any_layout()) {
        let r = right_inverse(&a).unwrap();
        for i in 0..size(&r) {
            prop_assert_eq!(eval(&a, eval(&r, i)), i, "{} right inverse {} at {}", a, r, i);
        }
    }

    #[test]
    fn left_inverse_inverts(a in injective_layout(true)) {
        let l = left_inverse(&a).unwrap();
        for i in 0..size(&a) {
            prop_assert_eq!(eval(&l, eval(&a, i)), i, "{} left inverse {} at {}", a, l, i);
        }
    }

    #[test]
    fn left_inverse_is_a_quasi_inverse(a in any_layout()) {
        if let Ok(l) = left_inverse(&a) {
            for i in 0..size(&a) {
                let x = eval(&a, i);
                prop_assert_eq!(eval(&a, eval(&l, x)), x, "{} left inverse {} at {}", a, l, i);
            }
        }
    }
}

/// Many compositions of power-of-two layouts must succeed (the properties above are not vacuous).
#[test]
fn most_pow2_static_compositions_succeed() {
    let mut state = 0x9e3779b97f4a7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut ok, mut total) = (0, 0);
    for _ in 0..2000 {
        let mut gen_layout = |compact: bool| {
            let n = 1 + (next() % 3) as usize;
            let mut cover = 1;
            let leaves: Vec<_> = (0..n)
                .map(|_| {
                    let s = 1i64 << (next() % 4);
                    let d = if compact { cover } else { 1i64 << (next() % 5) };
                    cover *= s;
                    (s, d, true)
                })
                .collect();
            build(leaves, next())
        };
        let a = gen_layout(true);
        let b = gen_layout(false);
        total += 1;
        if let Ok(r) = composition(&a, &b) {
            ok += 1;
            for i in 0..size(&b) {
                assert_eq!(eval(&r, i), eval(&a, eval(&b, i)), "{a} o {b} = {r} at {i}");
            }
        }
    }
    assert!(
        ok * 2 > total,
        "only {ok} of {total} compositions succeeded"
    );
}

/// Layouts with hostile values: zero and negative shapes, negative strides, values near `i64::MAX`.
fn hostile_layout() -> impl Strategy<Value = Layout> {
    let vals = vec![
        0i64,
        1,
        -1,
        2,
        -3,
        7,
        1 << 31,
        1 << 62,
        i64::MAX,
        i64::MIN,
        -(1 << 40),
    ];
    (
        prop::collection::vec(
            (
                prop::sample::select(vals.clone()),
                prop::sample::select(vals),
                any::<bool>(),
            ),
            1..5,
        ),
        any::<u64>(),
    )
        .prop_map(|(v, seed)| build(v, seed))
}

proptest! {
    #![proptest_config(config())]

    /// Every operation returns a result (value or error) on any input: no panic, no overflow.
    #[test]
    fn no_panics_on_hostile_input(a in hostile_layout(), b in hostile_layout(), c in any_layout()) {
        let t = b.shape().clone();
        let _ = coalesce(&a);
        let _ = cute_layout_core::coalesce_by_mode(&a, &t);
        let _ = cute_layout_core::coalesce_shape(&t);
        let _ = cute_layout_core::filter(&a);
        let _ = cute_layout_core::filter_zeros(&a);
        let _ = composition(&a, &b);
        let _ = composition(&a, &c);
        let _ = composition(&c, &a);
        let _ = cute_layout_core::with_shape(&a, &t);
        let _ = complement(&a, &t);
        let _ = complement_default(&a);
        let _ = right_inverse(&a);
        let _ = left_inverse(&a);
    }
}
