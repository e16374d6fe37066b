//! Time of the operations named by issue 17 on flat layouts of 10^3, 10^4 and 10^5 modes (parse,
//! evaluate and print, as `cute eval` does): near-linear operations grow about 10x per row.
//!
//! ```text
//! cargo run --release -p cute-layout-core --example wide_bench
//! ```

use cute_layout_core::notation::eval_str;
use std::time::Instant;

/// A flat layout of `n` modes: 20 static modes of 2 (compact), the rest static 1s.
fn wide_static(n: usize) -> String {
    let shape: Vec<String> = (0..n)
        .map(|k| if k < 20 { "_2" } else { "_1" }.into())
        .collect();
    let stride: Vec<String> = (0..n).map(|k| format!("_{}", 1i64 << k.min(20))).collect();
    format!("({}):({})", shape.join(","), stride.join(","))
}

/// A flat layout of `n` dynamic modes of 1 with distinct strides (nothing merges).
fn wide_dynamic(n: usize) -> String {
    let shape = vec!["1"; n].join(",");
    let stride: Vec<String> = (0..n).map(|k| (k + 1).to_string()).collect();
    format!("({shape}):({})", stride.join(","))
}

/// An operation: its name in the table and the expression it makes of a static and a dynamic layout.
type Op = (&'static str, fn(&str, &str) -> String);

fn main() {
    let ops: &[Op] = &[
        ("coalesce(D)", |_, d| format!("coalesce({d})")),
        ("composition(S,4)", |s, _| format!("composition({s},4)")),
        ("eval(D,5)", |_, d| format!("eval({d},5)")),
        ("idx2crd(5,shape(D))", |_, d| {
            format!("idx2crd(5,shape({d}))")
        }),
        ("compact_order(shape(D),stride(D))", |_, d| {
            format!("compact_order(shape({d}),stride({d}))")
        }),
        ("blocked_product(S,S)", |s, _| {
            format!("blocked_product({s},{s})")
        }),
        ("raked_product(S,2:1)", |s, _| {
            format!("raked_product({s},2:1)")
        }),
        ("tile_to_shape(S,shape(S))", |s, _| {
            format!("tile_to_shape({s},shape({s}))")
        }),
        ("evenly_divides(shape(D),shape(D))", |_, d| {
            format!("evenly_divides(shape({d}),shape({d}))")
        }),
        ("max_alignment(D)", |_, d| format!("max_alignment({d})")),
        ("complement(S)", |s, _| format!("complement({s})")),
        ("right_inverse(S)", |s, _| format!("right_inverse({s})")),
        ("left_inverse(D)", |_, d| format!("left_inverse({d})")),
        ("logical_divide(S,S)", |s, _| {
            format!("logical_divide({s},{s})")
        }),
        ("colex_less(shape(D),shape(D))", |_, d| {
            format!("colex_less(shape({d}),shape({d}))")
        }),
    ];
    let sizes = [1_000, 10_000, 100_000];
    println!("| operation (S static, D dynamic, flat) | 10^3 modes | 10^4 modes | 10^5 modes |");
    println!("| --- | ---: | ---: | ---: |");
    let inputs: Vec<(String, String)> = sizes
        .iter()
        .map(|&n| (wide_static(n), wide_dynamic(n)))
        .collect();
    for (name, expr) in ops {
        let cells: Vec<String> = inputs
            .iter()
            .map(|(s, d)| {
                let e = expr(s, d);
                let t0 = Instant::now();
                let r = eval_str(&e).map(|v| v.to_string());
                let ms = t0.elapsed().as_secs_f64() * 1e3;
                match r {
                    Ok(_) => format!("{ms:.1} ms"),
                    Err(_) => format!("{ms:.1} ms (error)"),
                }
            })
            .collect();
        println!("| `{name}` | {} |", cells.join(" | "));
    }
}
