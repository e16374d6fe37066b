//! The few layout operations the generators need, on flattened layouts.
//!
//! TODO(layout-core): layout-core's algebra (`size`, `coalesce`, `max_common_vector`,
//! `zipped_divide`, swizzle evaluation, `crd2idx` on basis strides) is being written in parallel.
//! These private helpers implement exactly the special cases the generators use, with CuTe's
//! semantics (static leaves only count for vectorization), and should be replaced by the crate-root
//! functions of layout-core once they land. Each helper names the CuTe operation it stands for.

use crate::error::{Result, unsupported};
use layout_core::{Int, IntTuple, Layout, Swizzle};

/// One flattened mode: (shape, stride), both integer leaves.
pub type Mode = (Int, Int);

/// `flatten(layout)` as a list of integer modes (strides must be integers, not basis elements).
pub fn flat_modes(l: &Layout) -> Result<Vec<Mode>> {
    let shapes = l.shape().leaves();
    let strides = l.stride().leaves();
    let mut out = Vec::with_capacity(shapes.len());
    for (s, d) in shapes.iter().zip(&strides) {
        match (s, d) {
            (IntTuple::Int(s), IntTuple::Int(d)) => out.push((*s, *d)),
            _ => return unsupported(format!("layout {l}: expected integer shapes and strides")),
        }
    }
    Ok(out)
}

/// CuTe `size(layout)`: the product of the shape's leaves.
pub fn size(modes: &[Mode]) -> Result<Int> {
    let mut n = Int::s(1);
    for (s, _) in modes {
        n = n.mul(*s)?;
    }
    Ok(n)
}

/// The number of leading elements on which the layout is the identity `i -> i`, counting static
/// modes only (CuTe's vectorization only trusts static leaves): the size of the leading
/// stride-1 mode of `coalesce(layout)` when that mode is static.
pub fn static_contiguous_prefix(modes: &[Mode]) -> i64 {
    let mut n = 1i64;
    for (s, d) in modes {
        if !s.is_static {
            break;
        }
        if s.value == 1 {
            continue; // size-1 modes do not move the offset
        }
        if d.is_static && d.value == n {
            n *= s.value;
        } else {
            break;
        }
    }
    n
}

/// CuTe `max_common_vector(a, b)` for two layouts of the same size: the largest `v` such that
/// every aligned run of `v` consecutive logical indices is contiguous in both `a` and `b`.
pub fn max_common_vector(a: &[Mode], b: &[Mode]) -> i64 {
    layout_core::int::gcd_i64(static_contiguous_prefix(a), static_contiguous_prefix(b)).max(1)
}

/// Mode 1 of CuTe `zipped_divide(layout, v:_1)`, flattened: the layout of the vectors once the first
/// `v` elements form the vector mode. `v` must divide the layout's static contiguous prefix.
pub fn divide_out_vector(modes: &[Mode], v: i64) -> Result<Vec<Mode>> {
    let mut rest = v;
    let mut out = Vec::new();
    for &(s, d) in modes {
        if rest == 1 {
            out.push((s, d));
            continue;
        }
        if !s.is_static {
            return unsupported(format!("vector {v} does not divide the static prefix"));
        }
        if s.value == 1 {
            continue;
        }
        if rest % s.value == 0 {
            rest /= s.value;
        } else if s.value % rest == 0 {
            out.push((Int::s(s.value / rest), d.mul(Int::s(rest))?));
            rest = 1;
        } else {
            return unsupported(format!("vector {v} does not divide mode {s}"));
        }
    }
    if rest != 1 {
        return unsupported(format!("vector {v} is larger than the layout"));
    }
    Ok(out)
}

/// CuTe `layout(i)` on flat integer modes: `crd2idx(idx2crd(i, shape), shape, stride)`.
pub fn eval_offset(modes: &[Mode], i: i64) -> i64 {
    let mut rem = i;
    let mut off = 0;
    let n = modes.len();
    for (k, (s, d)) in modes.iter().enumerate() {
        let c = if k + 1 == n { rem } else { rem % s.value };
        rem /= s.value.max(1);
        off += c * d.value;
    }
    off
}

/// CuTe `coalesce` restricted to what is decidable from static leaves: drops static size-1 modes and
/// merges neighbours `(s0,s1):(d0,d1)` when `d1 == s0*d0` is known statically.
pub fn coalesce_static(modes: &[Mode]) -> Result<Vec<Mode>> {
    let mut out: Vec<Mode> = Vec::new();
    for &(s, d) in modes {
        if s.is_static_eq(1) {
            continue;
        }
        if let Some(last) = out.last_mut() {
            let (ls, ld) = *last;
            if ls.is_static
                && ld.is_static
                && s.is_static
                && d.is_static
                && d.value == ls.value * ld.value
            {
                *last = (ls.mul(s)?, ld);
                continue;
            }
        }
        out.push((s, d));
    }
    if out.is_empty() {
        out.push((Int::s(1), Int::s(0)));
    }
    Ok(out)
}

/// A layout whose strides are scaled basis elements, evaluated to a coordinate:
/// CuTe `layout(i)` for a coordinate layout such as `(_8,_2,_2):(_1@0,_8@0,_8@1)`.
/// Returns `rank` coordinates.
pub fn eval_coord_layout(l: &Layout, i: i64, rank: usize) -> Result<Vec<i64>> {
    let shapes = l.shape().leaves();
    let strides = l.stride().leaves();
    let mut out = vec![0i64; rank];
    let mut rem = i;
    for (s, d) in shapes.iter().zip(&strides) {
        let s = s.expect_int("coordinate layout shape")?.value;
        let c = rem % s;
        rem /= s;
        match d {
            IntTuple::Basis(b) if b.modes.len() == 1 && b.modes[0] < rank => {
                out[b.modes[0]] += c * b.scale.value
            }
            IntTuple::Int(z) if z.value == 0 => {}
            other => {
                return unsupported(format!(
                    "coordinate layout {l}: stride {other} is not a basis element of rank {rank}"
                ));
            }
        }
    }
    Ok(out)
}

/// Parses a layout written in CuTe notation (the generators' thread-value maps are written that way).
pub fn parse_layout(s: &str) -> Result<Layout> {
    Ok(s.parse::<Layout>()?)
}

/// CuTe `Swizzle<B,M,S>` applied to an offset: `x ^ ((x & (mask << (M+S))) >> S)`.
pub fn swizzle(sw: Swizzle, x: i64) -> i64 {
    let mask = ((1i64 << sw.bits) - 1) << (sw.base + sw.shift);
    x ^ ((x & mask) >> sw.shift)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(s: &str) -> Vec<Mode> {
        flat_modes(&s.parse().unwrap()).unwrap()
    }

    #[test]
    fn common_vector_follows_static_prefixes() {
        assert_eq!(
            max_common_vector(&m("((_4,250),1000):((_1,_4),1000)"), &m("(_8,_2):(_1,_8)")),
            4
        );
        assert_eq!(
            max_common_vector(&m("(_12,_2):(_1,_20)"), &m("(_8,_3):(_1,_9)")),
            4
        );
        assert_eq!(
            max_common_vector(&m("(_12,_2):(_1,_20)"), &m("(_8,_3):(_1,_8)")),
            12
        );
        assert_eq!(
            max_common_vector(&m("(_12,_2):(_1,_12)"), &m("(_8,_3):(_1,_8)")),
            24
        );
        assert_eq!(
            max_common_vector(&m("(1000,1000):(1,1000)"), &m("(1000,1000):(1,1000)")),
            1
        );
        assert_eq!(
            max_common_vector(&m("(_4,_4):(_4,_1)"), &m("(_4,_4):(_1,_4)")),
            1
        );
    }

    #[test]
    fn agrees_with_layout_core_when_the_run_is_a_logical_prefix() {
        // layout-core's max_common_vector counts the run in b's codomain order; on layouts whose
        // shared run starts at logical index 0 (what the copy generator walks) the two agree.
        for (a, b) in [
            ("(_4,_8):(_1,_4)", "(_4,_8):(_1,_4)"),
            ("(_8,_4):(_1,_16)", "(_8,_4):(_1,_8)"),
            ("((_4,_2),_4):((_1,_4),_8)", "(_32):(_1)"),
            ("(_2,_16):(_1,_2)", "(_2,_16):(_16,_1)"),
        ] {
            let (la, lb): (Layout, Layout) = (a.parse().unwrap(), b.parse().unwrap());
            let theirs = layout_core::max_common_vector(&la, &lb).unwrap().value;
            assert_eq!(max_common_vector(&m(a), &m(b)), theirs, "{a} vs {b}");
        }
    }

    #[test]
    fn vector_division() {
        let r = divide_out_vector(&m("(_8,5):(_1,100)"), 4).unwrap();
        assert_eq!(r, vec![(Int::s(2), Int::s(4)), (Int::d(5), Int::d(100))]);
        assert!(divide_out_vector(&m("(_6,5):(_1,100)"), 4).is_err());
    }

    #[test]
    fn coordinate_layouts_and_swizzles() {
        let l = parse_layout("(_8,_2,_2):(_1@0,_8@0,_8@1)").unwrap();
        assert_eq!(eval_coord_layout(&l, 9, 2).unwrap(), vec![9, 0]);
        assert_eq!(eval_coord_layout(&l, 17, 2).unwrap(), vec![1, 8]);
        let sw = Swizzle {
            bits: 3,
            base: 3,
            shift: 3,
        };
        assert_eq!(swizzle(sw, 64), 64 ^ 8);
        assert_eq!(swizzle(sw, 7), 7);
    }
}
