//! Proptest strategies for random hierarchical IntTuples and layouts, shared by the property tests.
//!
//! ```ignore
//! mod common;
//! proptest! { #[test] fn t(l in common::layout()) { ... } }
//! ```
#![allow(dead_code)]

use cute_layout_core::{Int, IntTuple, Layout, make_layout};
use proptest::prelude::*;

/// An integer leaf in `lo..=hi`, static or dynamic at random.
pub fn int_leaf(lo: i64, hi: i64) -> impl Strategy<Value = Int> + Clone {
    (lo..=hi, any::<bool>()).prop_map(|(v, s)| Int::new(v, s))
}

/// A hierarchical tuple of depth at most `depth`, rank at most `rank` per level, leaves from `leaf`.
pub fn tuple_of<S>(leaf: S, depth: u32, rank: usize) -> BoxedStrategy<IntTuple>
where
    S: Strategy<Value = Int> + Clone + 'static,
{
    let base = leaf.clone().prop_map(IntTuple::Int).boxed();
    base.prop_recursive(depth, 16, rank as u32, move |inner| {
        prop::collection::vec(inner, 1..=rank)
            .prop_map(IntTuple::Tuple)
            .boxed()
    })
    .boxed()
}

/// A random shape: leaves 1..=6, depth <= 3, rank <= 3 per level (small enough to enumerate).
pub fn shape() -> BoxedStrategy<IntTuple> {
    tuple_of(int_leaf(1, 6), 3, 3)
}

/// A stride congruent with `shape`, leaves in `lo..=hi`, static or dynamic at random.
pub fn stride_like(shape: &IntTuple, lo: i64, hi: i64) -> BoxedStrategy<IntTuple> {
    match shape {
        IntTuple::Tuple(v) => v
            .iter()
            .map(|s| stride_like(s, lo, hi))
            .collect::<Vec<_>>()
            .prop_map(IntTuple::Tuple)
            .boxed(),
        _ => int_leaf(lo, hi).prop_map(IntTuple::Int).boxed(),
    }
}

/// A random layout with non-negative strides (0..=40).
pub fn layout() -> BoxedStrategy<Layout> {
    shape()
        .prop_flat_map(|s| {
            let d = stride_like(&s, 0, 40);
            (Just(s), d)
        })
        .prop_map(|(s, d)| Layout::new(s, d).expect("congruent by construction"))
        .boxed()
}

/// A random layout with strides of either sign (-40..=40).
pub fn signed_layout() -> BoxedStrategy<Layout> {
    shape()
        .prop_flat_map(|s| {
            let d = stride_like(&s, -40, 40);
            (Just(s), d)
        })
        .prop_map(|(s, d)| Layout::new(s, d).expect("congruent by construction"))
        .boxed()
}

/// A random compact column-major layout (`make_layout(shape)`).
pub fn compact_layout() -> BoxedStrategy<Layout> {
    shape()
        .prop_map(|s| make_layout(&s).expect("compact layout of a positive shape"))
        .boxed()
}

/// The number of cases a property runs: `default` (sized for CI), or `PROPTEST_CASES` when set, so a
/// long run is `PROPTEST_CASES=100000 cargo test -p cute-layout-core --test core_props`.
#[allow(dead_code)] // not every test file that shares this module runs properties
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
