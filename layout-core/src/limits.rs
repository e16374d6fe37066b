//! The limits that keep hostile input from exhausting the stack, memory or time.
//!
//! Every limit is checked before the work or the memory it guards is spent, and a breach is a
//! [`LayoutError::TooLarge`] that names the quantity, its value and the limit. The numbers are
//! far above what CuTe code uses (layouts of depth 3-6 with tens of modes) and far below what
//! exhausts a process with 4 GB of memory and an 8 MB stack:
//!
//! | limit | value | guards |
//! | --- | --- | --- |
//! | [`MAX_INPUT_BYTES`] | 8 MiB | the length of one expression in CuTe notation |
//! | [`MAX_DEPTH`] | 64 | nesting of parentheses and calls in notation, and of every value an expression yields |
//! | [`MAX_ELEMENTS`] | 2^20 | integers, basis elements and tuples in one parsed expression or one value |
//! | [`MAX_STEPS`] | 2^24 | (mode of B, mode of A) pairs one composition walks |
//! | [`MAX_CHECK_WORK`] | 2^26 | points times modes one point-by-point check of a result visits |
//! | [`MAX_SORT_MODES`] | 4096 | modes with tied strides the inverses sort as CuTe's exchange sort does |
//! | [`MAX_RANK`] | 2^20 | the rank `append<N>`/`prepend<N>` build (the result's elements are limited too) |
//! | [`MAX_BASIS_MODE`] | 4096 | the mode index of a basis element `_1@N` turned into a tuple |
//! | [`MAX_CELLS`] | 2^20 | cells of a text table (and each of its rows and columns); points a TV picture evaluates |
//! | [`MAX_FIGURE_CELLS`] | 2^16 | cells of an SVG or LaTeX figure (each grid of a TV picture) |
//! | [`MAX_NAME_CHARS`] | 64 | characters of an unknown name that are searched for "did you mean" and echoed |
//!
//! ```
//! use cute_layout_core::notation::eval_str;
//! let deep = format!("{}1{}", "(".repeat(100), ")".repeat(100));
//! assert!(eval_str(&deep).unwrap_err().to_string().contains("nesting depth"));
//! ```
#![deny(clippy::arithmetic_side_effects)] // integers here come from users: checked only

use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::notation::Value;
use crate::swizzle::{ComposedLayout, LayoutFn};

pub use crate::arith_tuple::MAX_BASIS_MODE;
pub use crate::inverse::MAX_SORT_MODES;
pub use crate::modes::MAX_RANK;
pub use crate::print::{MAX_CELLS, MAX_FIGURE_CELLS};

/// The longest expression the parser reads, in bytes.
///
/// ```
/// use cute_layout_core::{limits::MAX_INPUT_BYTES, notation::eval_str};
/// let long = format!("({}1)", "1,".repeat(MAX_INPUT_BYTES / 2));
/// assert!(eval_str(&long).is_err());
/// ```
pub const MAX_INPUT_BYTES: usize = 1 << 23;
/// The deepest nesting of parentheses and calls in an expression, and of any value.
///
/// ```
/// use cute_layout_core::{IntTuple, limits::MAX_DEPTH};
/// let deep = format!("{}1{}", "(".repeat(MAX_DEPTH + 1), ")".repeat(MAX_DEPTH + 1));
/// assert!(deep.parse::<IntTuple>().is_err());
/// assert!("((((1))))".parse::<IntTuple>().is_ok());
/// ```
pub const MAX_DEPTH: usize = 64;
/// The most elements (integers, basis elements, tuples) of a parsed expression or of one value.
///
/// ```
/// use cute_layout_core::limits::{MAX_ELEMENTS, check_extent, Extent};
/// assert!(check_extent("t", Extent { elements: MAX_ELEMENTS, depth: 1 }).is_ok());
/// assert!(check_extent("t", Extent { elements: MAX_ELEMENTS + 1, depth: 1 }).is_err());
/// ```
pub const MAX_ELEMENTS: usize = 1 << 20;
/// The most (mode of B, mode of A) pairs one composition walks (CuTe's algorithm splits every
/// mode of B over the modes of A).
///
/// ```
/// use cute_layout_core::limits::MAX_STEPS;
/// assert_eq!(MAX_STEPS, 1 << 24);
/// ```
pub const MAX_STEPS: usize = 1 << 24;
/// The most mode visits a point-by-point check of a result (composition, inverses) makes: up to
/// 2^20 points times 64 modes of extent other than 1.
///
/// ```
/// use cute_layout_core::limits::{MAX_CHECK_WORK, check_work};
/// assert!(check_work("check", 1 << 20, 64, MAX_CHECK_WORK).is_ok());
/// assert!(check_work("check", 1 << 20, 65, MAX_CHECK_WORK).is_err());
/// ```
pub const MAX_CHECK_WORK: usize = 1 << 26;
/// The longest unknown name that is compared with known names and echoed in full.
///
/// ```
/// use cute_layout_core::limits::{MAX_NAME_CHARS, searchable};
/// assert!(searchable(&"x".repeat(MAX_NAME_CHARS)));
/// assert!(!searchable(&"x".repeat(MAX_NAME_CHARS + 1)));
/// ```
pub const MAX_NAME_CHARS: usize = 64;

/// The error for `what` reaching `count` where at most `limit` is allowed.
///
/// ```
/// use cute_layout_core::{LayoutError, limits::too_large};
/// let e = too_large("tile", 9, 8);
/// assert_eq!(e, LayoutError::TooLarge { what: "tile".into(), count: 9, limit: 8 });
/// ```
pub fn too_large(what: impl Into<String>, count: usize, limit: usize) -> LayoutError {
    LayoutError::TooLarge {
        what: what.into(),
        count: u64::try_from(count).unwrap_or(u64::MAX),
        limit: u64::try_from(limit).unwrap_or(u64::MAX),
    }
}

/// The number of elements and the nesting depth of a value.
///
/// ```
/// use cute_layout_core::{IntTuple, limits::{extent, Extent}};
/// let t: IntTuple = "(2,(3,4))".parse().unwrap(); // 2 tuples + 3 integers
/// assert_eq!(extent(&t), Extent { elements: 5, depth: 2 });
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extent {
    /// Integers, basis elements (with their mode indices) and tuples.
    pub elements: usize,
    /// Nesting depth (0 for a leaf).
    pub depth: usize,
}

/// The extent of an IntTuple, measured without recursion.
///
/// ```
/// use cute_layout_core::{IntTuple, limits::extent};
/// let e = extent(&"(_1@0,_1@1@0)".parse::<IntTuple>().unwrap()); // basis mode indices count too
/// assert_eq!((e.elements, e.depth), (6, 1));
/// ```
pub fn extent(t: &IntTuple) -> Extent {
    let mut e = Extent::default();
    let mut stack = vec![(t, 0usize)];
    while let Some((t, d)) = stack.pop() {
        e.depth = e.depth.max(d);
        e.elements = e.elements.saturating_add(1);
        match t {
            IntTuple::Tuple(v) => stack.extend(v.iter().map(|x| (x, d.saturating_add(1)))),
            IntTuple::Basis(b) => e.elements = e.elements.saturating_add(b.modes.len()),
            IntTuple::Int(_) => {}
        }
    }
    e
}

fn both(a: Extent, b: Extent) -> Extent {
    Extent {
        elements: a.elements.saturating_add(b.elements),
        depth: a.depth.max(b.depth),
    }
}

const ONE: Extent = Extent {
    elements: 1,
    depth: 0,
};

/// The extent of a value: a layout counts its shape and its stride.
///
/// ```
/// use cute_layout_core::{limits::value_extent, notation::eval_str};
/// let e = value_extent(&eval_str("(2,3):(1,2)").unwrap()); // shape and stride
/// assert_eq!((e.elements, e.depth), (6, 1));
/// ```
pub fn value_extent(v: &Value) -> Extent {
    match v {
        Value::IntTuple(t) => extent(t),
        Value::Layout(l) => both(extent(l.shape()), extent(l.stride())),
        Value::Composed(c) => composed_extent(c),
        Value::Tuple(vs) => vs.iter().map(value_extent).fold(ONE, |acc, x| {
            let deeper = Extent {
                depth: x.depth.saturating_add(1),
                ..x
            };
            both(acc, deeper)
        }),
        Value::Swizzle(_) | Value::Underscore | Value::Tag(_) | Value::Name(_) => ONE,
    }
}

/// A composed layout: its parts, one level deeper than the deepest of them.
fn composed_extent(c: &ComposedLayout) -> Extent {
    let parts = both(
        both(fn_extent(&c.layout_a), extent(&c.offset)),
        fn_extent(&c.layout_b),
    );
    Extent {
        depth: parts.depth.saturating_add(1),
        ..parts
    }
}

fn fn_extent(f: &LayoutFn) -> Extent {
    match f {
        LayoutFn::Layout(l) => both(extent(l.shape()), extent(l.stride())),
        LayoutFn::Composed(c) => composed_extent(c),
        LayoutFn::Swizzle(_) => ONE,
    }
}

/// Check an extent against [`MAX_ELEMENTS`] and [`MAX_DEPTH`]; `what` names the value.
///
/// ```
/// use cute_layout_core::limits::{MAX_DEPTH, check_extent, Extent};
/// assert!(check_extent("shape", Extent { elements: 3, depth: MAX_DEPTH + 1 }).is_err());
/// ```
pub fn check_extent(what: &str, e: Extent) -> Result<()> {
    if e.depth > MAX_DEPTH {
        return Err(too_large(
            format!("{what}: nesting depth"),
            e.depth,
            MAX_DEPTH,
        ));
    }
    if e.elements > MAX_ELEMENTS {
        return Err(too_large(
            format!("{what}: number of elements"),
            e.elements,
            MAX_ELEMENTS,
        ));
    }
    Ok(())
}

/// Check a value against [`MAX_ELEMENTS`] and [`MAX_DEPTH`].
///
/// ```
/// use cute_layout_core::{limits::check_value, notation::eval_str};
/// assert!(check_value("layout", &eval_str("(2,3):(1,2)").unwrap()).is_ok());
/// ```
pub fn check_value(what: &str, v: &Value) -> Result<()> {
    check_extent(what, value_extent(v))
}

/// Check a tuple against [`MAX_ELEMENTS`] and [`MAX_DEPTH`].
///
/// ```
/// use cute_layout_core::{IntTuple, limits::check_tuple};
/// assert!(check_tuple("shape", &"(2,(3,4))".parse::<IntTuple>().unwrap()).is_ok());
/// ```
pub fn check_tuple(what: &str, t: &IntTuple) -> Result<()> {
    check_extent(what, extent(t))
}

/// An error when `a * b` units of work exceed `limit`; `what` names the work.
///
/// ```
/// use cute_layout_core::limits::check_work;
/// assert!(check_work("pairs", 1000, 1000, 1 << 20).is_ok());
/// assert!(check_work("pairs", 2000, 1000, 1 << 20).is_err());
/// ```
pub fn check_work(what: &str, a: usize, b: usize, limit: usize) -> Result<()> {
    let n = a.saturating_mul(b);
    if n > limit {
        return Err(too_large(format!("{what} ({a} x {b})"), n, limit));
    }
    Ok(())
}

/// A name as echoed in an error: the first [`MAX_NAME_CHARS`] characters, then `...` and its
/// length when it is longer.
///
/// ```
/// use cute_layout_core::limits::clip;
/// assert_eq!(clip("SM80_16x8x16"), "SM80_16x8x16");
/// assert!(clip(&"A".repeat(100)).ends_with("... (100 bytes)"));
/// ```
pub fn clip(name: &str) -> String {
    match name.char_indices().nth(MAX_NAME_CHARS) {
        None => name.to_string(),
        Some((end, _)) => format!("{}... ({} bytes)", &name[..end], name.len()),
    }
}

/// True when `name` is short enough to be compared with known names for a "did you mean".
///
/// ```
/// use cute_layout_core::limits::searchable;
/// assert!(searchable("SM80_16x8x16_F32F16F16F32_TN"));
/// ```
pub fn searchable(name: &str) -> bool {
    name.len() <= MAX_NAME_CHARS
}
