//! Copy between two 1024x1024 f32 tensors: static typed layouts, run-time layouts, and a plain slice
//! copy loop as the baseline. A std-only harness (no criterion): each case runs `REPS` times after a
//! warm-up, the median time is reported with its ratio to the baseline.
//!
//! `cargo bench -p cute-layout-core --bench tensor_copy`

use cute_layout_core::Layout;
use cute_layout_core::tensor::{copy, copy_naive, make_gmem_ptr, make_tensor};
use cute_layout_core::typed::{self, C};
use std::hint::black_box;
use std::time::{Duration, Instant};

const N: usize = 1024;
const REPS: usize = 41;

fn median(mut f: impl FnMut()) -> Duration {
    for _ in 0..3 {
        f();
    }
    let mut t: Vec<Duration> = (0..REPS)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed()
        })
        .collect();
    t.sort();
    t[REPS / 2]
}

fn main() {
    let src: Vec<f32> = (0..N * N).map(|x| x as f32).collect();
    let mut dst = vec![0f32; N * N];

    type S = (C<1024>, C<1024>);
    let row = typed::Layout::new((C::<1024>, C::<1024>), (C::<1024>, C::<1>));
    let col = typed::Layout::new((C::<1024>, C::<1024>), (C::<1>, C::<1024>));
    let _: &typed::Layout<S, (C<1024>, C<1>)> = &row;
    let rt_row: Layout = "(1024,1024):(1024,1)".parse().unwrap();
    let rt_col: Layout = "(1024,1024):(1,1024)".parse().unwrap();

    let mut results: Vec<(&str, Duration)> = Vec::new();

    results.push((
        "plain slice copy loop (baseline)",
        median(|| {
            let s = black_box(&src[..]);
            let d = black_box(&mut dst[..]);
            #[allow(clippy::manual_memcpy)] // the baseline is the loop one would write by hand
            for i in 0..s.len() {
                d[i] = s[i];
            }
        }),
    ));
    results.push((
        "copy, static typed row-major -> row-major",
        median(|| {
            let s = make_tensor(make_gmem_ptr(black_box(&src[..])), row).unwrap();
            let mut d = make_tensor(make_gmem_ptr(black_box(&mut dst[..])), row).unwrap();
            copy(&s, &mut d).unwrap();
        }),
    ));
    results.push((
        "copy, run-time row-major -> row-major",
        median(|| {
            let s = make_tensor(make_gmem_ptr(black_box(&src[..])), rt_row.clone()).unwrap();
            let mut d =
                make_tensor(make_gmem_ptr(black_box(&mut dst[..])), rt_row.clone()).unwrap();
            copy(&s, &mut d).unwrap();
        }),
    ));
    results.push((
        "copy_naive (1-D element walk), static typed col-major",
        median(|| {
            let s = make_tensor(make_gmem_ptr(black_box(&src[..])), col).unwrap();
            let mut d = make_tensor(make_gmem_ptr(black_box(&mut dst[..])), col).unwrap();
            copy_naive(&s, &mut d).unwrap();
        }),
    ));
    results.push((
        "copy_naive (1-D element walk), run-time col-major",
        median(|| {
            let s = make_tensor(make_gmem_ptr(black_box(&src[..])), rt_col.clone()).unwrap();
            let mut d =
                make_tensor(make_gmem_ptr(black_box(&mut dst[..])), rt_col.clone()).unwrap();
            copy_naive(&s, &mut d).unwrap();
        }),
    ));
    results.push((
        "plain transpose loop (row -> col)",
        median(|| {
            let s = black_box(&src[..]);
            let d = black_box(&mut dst[..]);
            for j in 0..N {
                for i in 0..N {
                    d[i + j * N] = s[i * N + j];
                }
            }
        }),
    ));
    results.push((
        "copy, static typed row-major -> col-major",
        median(|| {
            let s = make_tensor(make_gmem_ptr(black_box(&src[..])), row).unwrap();
            let mut d = make_tensor(make_gmem_ptr(black_box(&mut dst[..])), col).unwrap();
            copy(&s, &mut d).unwrap();
        }),
    ));
    results.push((
        "copy, run-time row-major -> col-major",
        median(|| {
            let s = make_tensor(make_gmem_ptr(black_box(&src[..])), rt_row.clone()).unwrap();
            let mut d =
                make_tensor(make_gmem_ptr(black_box(&mut dst[..])), rt_col.clone()).unwrap();
            copy(&s, &mut d).unwrap();
        }),
    ));
    black_box(&dst);

    let base = results[0].1.as_secs_f64();
    let tbase = results[5].1.as_secs_f64();
    println!("copy of 1024x1024 f32 (4 MiB), median of {REPS} runs");
    println!("{:<52} {:>10} {:>8}", "case", "time", "ratio");
    for (k, (name, t)) in results.iter().enumerate() {
        let b = if k >= 5 { tbase } else { base };
        println!(
            "{:<52} {:>8.1}us {:>7.2}x",
            name,
            t.as_secs_f64() * 1e6,
            t.as_secs_f64() / b
        );
    }
    println!(
        "(ratios: first five against the plain copy loop, last three against the plain transpose loop)"
    );
}
