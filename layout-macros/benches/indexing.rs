//! Indexing a static typed layout (`layout!`) in a loop vs the same index written by hand.
//!
//! `cargo bench -p cute-layout-macros --bench indexing` prints, for 1-D and natural coordinates, the fastest
//! pass of each variant over many alternating passes and their ratio (typed / hand).
//! Both loops sum the indices of every coordinate of the layout; the bounds go through `black_box`
//! so that neither loop is folded to a constant.

use std::hint::black_box;
use std::time::Instant;

const SAMPLES: usize = 20_000;

/// ((8,4),(4,16)):((4,128),(1,32)): size 2048, a 2-level tiled layout.
#[inline(never)]
fn typed_1d(n: i64) -> i64 {
    let l = cute::layout!(((8,4),(4,16)):((4,128),(1,32)));
    let mut acc = 0i64;
    for i in 0..n {
        acc = acc.wrapping_add(l.call(i));
    }
    acc
}

#[inline(never)]
fn hand_1d(n: i64) -> i64 {
    let mut acc = 0i64;
    for i in 0..n {
        let idx = (i % 8) * 4 + (i / 8 % 4) * 128 + (i / 32 % 4) + (i / 128) * 32;
        acc = acc.wrapping_add(idx);
    }
    acc
}

// Natural coordinates: the indices are combined with xor (so the loop cannot be summed in closed form).
#[inline(never)]
fn typed_nat(m: i64, n: i64) -> i64 {
    let l = cute::layout!(((8,4),(4,16)):((4,128),(1,32)));
    let mut acc = 0;
    for j1 in 0..n {
        for j0 in 0..4 {
            for i1 in 0..4 {
                for i0 in 0..m {
                    acc ^= l.call(((i0, i1), (j0, j1)));
                }
            }
        }
    }
    acc
}

#[inline(never)]
fn hand_nat(m: i64, n: i64) -> i64 {
    let mut acc = 0;
    for j1 in 0..n {
        for j0 in 0..4 {
            for i1 in 0..4 {
                for i0 in 0..m {
                    acc ^= i0 * 4 + i1 * 128 + j0 + j1 * 32;
                }
            }
        }
    }
    acc
}

/// Time one pass.
fn once(f: &dyn Fn() -> i64) -> f64 {
    let t = Instant::now();
    black_box(f());
    t.elapsed().as_secs_f64()
}

/// Alternate single passes of the two variants and keep each one's fastest pass: the machine may be
/// shared, and the minimum over many alternating samples is what the code costs when undisturbed.
fn compare(name: &str, typed: &dyn Fn() -> i64, hand: &dyn Fn() -> i64) -> f64 {
    assert_eq!(
        typed(),
        hand(),
        "{name}: the typed layout and the hand-written index disagree"
    );
    let (mut bt, mut bh) = (f64::MAX, f64::MAX);
    for _ in 0..SAMPLES {
        bt = bt.min(once(typed));
        bh = bh.min(once(hand));
    }
    let ratio = bt / bh;
    println!(
        "{name:<20} typed {:>8.1} ns/pass   hand {:>8.1} ns/pass   ratio {ratio:.3}",
        bt * 1e9,
        bh * 1e9
    );
    ratio
}

fn main() {
    let size = cute::layout!(((8,4),(4,16)):((4,128),(1,32))).size();
    println!(
        "layout ((8,4),(4,16)):((4,128),(1,32)), {size} coordinates per pass, fastest of {SAMPLES} alternating passes each"
    );
    let r1 = compare("1-D coordinate", &|| typed_1d(black_box(size)), &|| {
        hand_1d(black_box(size))
    });
    let r2 = compare(
        "natural coordinate",
        &|| typed_nat(black_box(8), black_box(16)),
        &|| hand_nat(black_box(8), black_box(16)),
    );
    println!("max ratio {:.3} (target <= 1.05)", r1.max(r2));
}
