//! Analyses of layouts that CuTe does not offer: shared-memory bank conflicts of a thread-value
//! access ([`bank`]), vector width and coalescing of a global-memory access ([`global`]), and the
//! F2-linear form of power-of-two layouts and swizzles, as Triton's linear layouts ([`linear`]).
//!
//! A thread-value (TV) layout maps `(thread, value)` to an index of a tile; a memory layout maps that
//! index to an element offset (a plain, swizzled or composed layout). Thread `t`'s value `v` lives at
//! `mem(tv(t, v))`.
//!
//! ```
//! use cute_layout_core::analysis::{bank_conflicts, Access};
//! use cute_layout_core::notation::eval_str;
//! use cute_layout_core::LayoutFn;
//! // 32 threads each read one 4-byte column element of a 32x32 row-major f32 tile: all in one bank.
//! let tv: cute_layout_core::Layout = "(_32,_32):(_1,_32)".parse().unwrap();
//! let smem = LayoutFn::from_value(&eval_str("(_32,_32):(_32,_1)").unwrap()).unwrap();
//! let r = bank_conflicts(&tv, &smem, Access { elem_bits: 32, bytes: 4 }).unwrap();
//! assert_eq!((r.worst, r.ideal), (32, 1));
//! ```

pub mod bank;
pub mod global;
pub mod linear;
pub mod svg;

pub use bank::{Access, BankReport, bank_conflicts};
pub use global::{GlobalReport, global_access};
pub use linear::{F2Map, from_f2, to_f2};
pub use svg::{bank_svg, sector_svg};

use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::query::size;
use crate::swizzle::LayoutFn;

/// The most points an analysis evaluates (threads x values, or a domain for the F2 check).
///
/// ```
/// use cute_layout_core::analysis::{MAX_POINTS, global_access};
/// use cute_layout_core::{Layout, LayoutFn};
/// let g = LayoutFn::Layout("8192:1".parse().unwrap());
/// let huge: Layout = "(_4096,_2048):(_1,_4096)".parse().unwrap(); // 2^23 points > MAX_POINTS
/// assert!(huge.shape().int_leaves().unwrap().iter().map(|i| i.value).product::<i64>() > MAX_POINTS);
/// assert!(global_access(&huge, &g, 32).is_err());
/// ```
pub const MAX_POINTS: i64 = 1 << 22;

/// The values `f(0), f(1), ..., f(n-1)` of a function on integers.
pub(crate) fn table(f: &LayoutFn, n: i64) -> Result<Vec<i64>> {
    if !(0..=MAX_POINTS).contains(&n) {
        return Err(LayoutError::invalid(format!(
            "{f}: {n} points is more than the {MAX_POINTS} an analysis evaluates"
        )));
    }
    (0..n).map(|i| point(f, i)).collect()
}

/// `f(i)` as an integer.
pub(crate) fn point(f: &LayoutFn, i: i64) -> Result<i64> {
    match f.eval(&IntTuple::d(i))? {
        IntTuple::Int(v) => Ok(v.value),
        v => Err(LayoutError::invalid(format!(
            "{f} at {i} gives {v}, not an integer offset"
        ))),
    }
}

/// The number of elements of a function's domain (the size of its innermost layout).
pub(crate) fn domain_size(f: &LayoutFn) -> Result<i64> {
    match f {
        LayoutFn::Layout(l) => Ok(size(l)?.value),
        LayoutFn::Composed(c) => Ok(size(c.domain_layout()?)?.value),
        LayoutFn::Swizzle(s) => Ok(1 << (s.base + s.bits + s.shift.abs())),
    }
}

/// A TV layout evaluated: `threads`, `values`, and `mem(tv(t, v))` at `t + threads * v`.
pub(crate) struct TvTable {
    pub threads: i64,
    pub values: i64,
    pub offsets: Vec<i64>,
}

impl TvTable {
    /// Evaluate `mem o tv` where `tv` has rank 2 `(threads, values)`.
    pub fn new(tv: &Layout, mem: &LayoutFn) -> Result<TvTable> {
        if tv.rank() != 2 {
            return Err(LayoutError::invalid(format!(
                "{tv} is not a thread-value layout: it needs rank 2 (threads, values), it has rank {}",
                tv.rank()
            )));
        }
        let threads = size(&tv.mode(0)?)?.value;
        let values = size(&tv.mode(1)?)?.value;
        let idx = table(
            &LayoutFn::Layout(tv.clone()),
            threads.saturating_mul(values),
        )?;
        let offsets = idx.iter().map(|&i| point(mem, i)).collect::<Result<_>>()?;
        Ok(TvTable {
            threads,
            values,
            offsets,
        })
    }
    /// The offset of thread `t`'s value `v`.
    pub fn at(&self, t: i64, v: i64) -> i64 {
        self.offsets[(t + self.threads * v) as usize]
    }
    /// The first offset of thread `t`'s `k`-th vector of `n` values, if the vector is contiguous in
    /// memory and aligned to `n` elements.
    pub fn vector(&self, t: i64, k: i64, n: i64) -> Option<i64> {
        let base = self.at(t, k * n);
        let contiguous = (1..n).all(|j| self.at(t, k * n + j) == base + j);
        (contiguous && base.rem_euclid(n) == 0).then_some(base)
    }
}
