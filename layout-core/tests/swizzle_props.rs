//! Swizzles and composed layouts: the oracle lines that mention `Sw<`, and properties.

use cute_layout_core::notation::eval_str;
use cute_layout_core::{
    ComposedLayout, Int, IntTuple, Layout, LayoutError, Swizzle, Value, composition_layout_swizzle,
    layout_eval,
};
use proptest::prelude::*;

/// Every oracle line with a swizzle gives what CuTe printed. Lines whose evaluation needs an
/// operation on plain layouts that has not landed yet (an `UnknownOperation` error) are counted
/// apart instead of failing.
#[test]
fn oracle_swizzle_lines() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/oracle_public.tsv"
    );
    let text = std::fs::read_to_string(path).expect("oracle file");
    let (mut pass, mut pending, mut fail) = (0, Vec::new(), Vec::new());
    for line in text.lines().skip(1).filter(|l| l.contains("Sw<")) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (id, expr, expected) = (cols[0], cols[3], cols[4]);
        let got = match eval_str(expr) {
            Ok(v) => v.to_string(),
            Err(LayoutError::UnknownOperation { name, .. }) if expected != "error" => {
                pending.push(format!("{id} needs `{name}`"));
                continue;
            }
            Err(_) => "error".to_string(),
        };
        if got == expected {
            pass += 1;
        } else {
            fail.push(format!(
                "{id} {expr}\n  expected {expected}\n  got      {got}"
            ));
        }
    }
    eprintln!(
        "Sw< oracle lines: {pass} pass, {} pending on other branches {pending:?}, {} fail",
        pending.len(),
        fail.len()
    );
    assert!(fail.is_empty(), "{}", fail.join("\n"));
    assert!(pass >= 190, "only {pass} lines checked");
}

fn swizzle() -> impl Strategy<Value = Swizzle> {
    (0i64..=4, 0i64..=5, 0i64..=6, any::<bool>()).prop_filter_map("|S| >= B", |(b, m, s, neg)| {
        let s = if neg { -s } else { s };
        Swizzle::new(b, m, s).ok()
    })
}

proptest! {
    /// A swizzle maps [0, 2^(M+B+|S|)) onto itself one to one, and is its own inverse.
    #[test]
    fn swizzle_is_a_bijection_and_an_involution(sw in swizzle()) {
        let n = sw.domain_size();
        let mut seen = vec![false; n as usize];
        for x in 0..n {
            let y = sw.apply(Int::d(x)).unwrap();
            prop_assert!(!y.is_static);
            prop_assert!((0..n).contains(&y.value), "{sw}({x}) = {} leaves the domain", y.value);
            prop_assert!(!seen[y.value as usize], "{sw} is not injective at {x}");
            seen[y.value as usize] = true;
            prop_assert_eq!(sw.apply(y).unwrap().value, x);
        }
    }

    /// Static in, static out; and the value does not depend on staticness.
    #[test]
    fn swizzle_keeps_staticness(sw in swizzle(), x in 0i64..100_000) {
        let s = sw.apply(Int::s(x)).unwrap();
        let d = sw.apply(Int::d(x)).unwrap();
        prop_assert!(s.is_static && !d.is_static);
        prop_assert_eq!(s.value, d.value);
    }

    /// `make_swizzle<Y,Z>` recovers a swizzle from its masks.
    #[test]
    fn masks_round_trip(sw in swizzle()) {
        prop_assume!(sw.bits > 0);
        prop_assert_eq!(Swizzle::from_masks(sw.yyy_mask(), sw.zzz_mask()).unwrap(), sw);
    }

    /// `(Sw o _0 o L)(i) == Sw(L(i))` for every i in the domain, through the notation too.
    #[test]
    fn composed_eval_is_swizzle_after_layout(sw in swizzle(), m in 1i64..9, n in 1i64..9, row in any::<bool>()) {
        let stride = if row { format!("(_{n},_1)") } else { format!("(_1,_{m})") };
        let l: Layout = format!("(_{m},_{n}):{stride}").parse().unwrap();
        let c = ComposedLayout::swizzled(sw, l.clone());
        for i in 0..m * n {
            let li = layout_eval(&l, &IntTuple::s(i)).unwrap().as_int().unwrap();
            let want = sw.apply(li).unwrap();
            prop_assert_eq!(c.eval(&IntTuple::s(i)).unwrap(), IntTuple::Int(want));
            let via = eval_str(&format!("eval({c},{i})")).unwrap();
            prop_assert_eq!(via, Value::int(Int::d(want.value)));
        }
    }

    /// `composition(L, Sw)`, where CuTe defines it (the masks' images must form a swizzle: "works
    /// in simple cases"), is the function `L o Sw` on L's domain: `Sw'(L(i)) == L(Sw(i))`.
    #[test]
    fn layout_after_swizzle_moves_the_swizzle(sw in swizzle(), row in any::<bool>()) {
        let k = sw.base + sw.bits + sw.shift.abs();
        prop_assume!(k <= 10);
        let (m, n) = (1i64 << (k / 2), 1i64 << (k - k / 2));
        let stride = if row { format!("(_{n},_1)") } else { format!("(_1,_{m})") };
        let l: Layout = format!("(_{m},_{n}):{stride}").parse().unwrap();
        let Ok(r) = composition_layout_swizzle(&l, &sw) else { return Ok(()) };
        for i in 0..m * n {
            let want = layout_eval(&l, &IntTuple::Int(sw.apply(Int::s(i)).unwrap())).unwrap();
            prop_assert_eq!(r.eval(&IntTuple::s(i)).unwrap(), want);
        }
    }
}

#[test]
fn bad_swizzles_are_errors_not_panics() {
    for e in [
        "Sw<3,4,2>",
        "Sw<-1,4,3>",
        "eval(Sw<3,4,3>,(1,2))",
        "size(Sw<3,4,3>)",
        "composition(Sw<3,4,3>,Sw<3,4,2>)",
        "Sw<40,30,40>",
        "eval(Sw<3,4,3> o _0 o (_8,_64):(_64,_1),(1,2,3))",
    ] {
        assert!(eval_str(e).is_err(), "{e} should be an error");
    }
}
