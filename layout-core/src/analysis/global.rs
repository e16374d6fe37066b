//! Vector width and coalescing of a copy between registers (a thread-value layout) and global memory.
//!
//! Each thread moves its values in the widest vectors (up to 16 bytes) that are contiguous and aligned
//! in global memory for every thread; a warp's request then touches some 32-byte sectors. The
//! efficiency is the bytes the warp asked for divided by the bytes of the sectors it touched.
//!
//! ```
//! use cute_layout_core::analysis::global_access;
//! use cute_layout_core::{Layout, LayoutFn};
//! let g = LayoutFn::Layout("(_32,_128):(_128,_1)".parse().unwrap());
//! let tv: Layout = "((_32,_32),_4):((_128,_1),_32)".parse().unwrap(); // 4 consecutive floats per thread
//! assert_eq!(global_access(&tv, &g, 32).unwrap().efficiency, 1.0);
//! ```

use super::TvTable;
use crate::error::Result;
use crate::layout::Layout;
use crate::swizzle::LayoutFn;
use std::collections::BTreeSet;

/// What a copy between a TV layout and a global layout achieves.
///
/// ```
/// use cute_layout_core::analysis::global_access;
/// use cute_layout_core::{Layout, LayoutFn};
/// let g = LayoutFn::Layout("(_32,_128):(_128,_1)".parse().unwrap());
/// let tv: Layout = "((_32,_32),_4):((_128,_1),_32)".parse().unwrap(); // 4 consecutive floats per thread
/// let r = global_access(&tv, &g, 32).unwrap();
/// assert_eq!((r.vector_elems, r.vector_bits, r.efficiency), (4, 128, 1.0));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalReport {
    /// Elements per vector access.
    pub vector_elems: i64,
    /// Bits per vector access.
    pub vector_bits: i64,
    /// Warp requests (warps x vectors per thread).
    pub requests: usize,
    /// Mean 32-byte sectors per request.
    pub sectors_mean: f64,
    /// Bytes requested / bytes of the sectors touched, over all requests (1.0 is perfect).
    pub efficiency: f64,
}

/// The widest vector (a power of two elements, at most 128 bits, dividing the values per thread)
/// that is contiguous and aligned for every thread, and the sectors each warp request touches.
/// Offsets are in elements of `elem_bits` bits (1 to 128), counted from a 16-byte aligned base.
///
/// ```
/// use cute_layout_core::analysis::global_access;
/// use cute_layout_core::{notation::eval_str, LayoutFn};
/// let g = LayoutFn::from_value(&eval_str("(_32,_128):(_128,_1)").unwrap()).unwrap();
/// // each thread reads 4 consecutive floats of a row: 16-byte vectors, every byte used
/// let rows: cute_layout_core::Layout = "((_32,_32),_4):((_128,_1),_32)".parse().unwrap();
/// let r = global_access(&rows, &g, 32).unwrap();
/// assert_eq!((r.vector_bits, r.efficiency), (128, 1.0));
/// // each thread reads 4 floats of its own row: 16-byte vectors 512 bytes apart, half of each sector used
/// let cols: cute_layout_core::Layout = "(_32,_4):(_1,_32)".parse().unwrap();
/// let r = global_access(&cols, &g, 32).unwrap();
/// assert_eq!((r.vector_bits, r.sectors_mean, r.efficiency), (128, 32.0, 0.5));
/// ```
pub fn global_access(tv: &Layout, gmem: &LayoutFn, elem_bits: i64) -> Result<GlobalReport> {
    if !(1..=128).contains(&elem_bits) {
        return Err(crate::error::LayoutError::invalid(format!(
            "elements of {elem_bits} bits: the width must be 1 to 128 bits"
        )));
    }
    let table = TvTable::new(tv, gmem)?;
    let n = widest_vector(&table, elem_bits);
    let (mut sectors, mut used, mut requests) = (0usize, 0i64, 0usize);
    for warp in 0..(table.threads + 31) / 32 {
        for k in 0..table.values / n {
            let mut touched = BTreeSet::new();
            for t in warp * 32..(warp * 32 + 32).min(table.threads) {
                for j in 0..n {
                    let bit = table.at(t, k * n + j).saturating_mul(elem_bits);
                    touched.insert(bit.div_euclid(8).div_euclid(32));
                    used += elem_bits;
                }
            }
            sectors += touched.len();
            requests += 1;
        }
    }
    let fetched = (sectors as f64) * 256.0;
    Ok(GlobalReport {
        vector_elems: n,
        vector_bits: n * elem_bits,
        requests,
        sectors_mean: sectors as f64 / requests.max(1) as f64,
        efficiency: if fetched > 0.0 {
            used as f64 / fetched
        } else {
            1.0
        },
    })
}

fn widest_vector(table: &TvTable, elem_bits: i64) -> i64 {
    let mut n = 1;
    while n * 2 * elem_bits <= 128
        && table.values % (n * 2) == 0
        && (0..table.threads)
            .all(|t| (0..table.values / (n * 2)).all(|k| table.vector(t, k, n * 2).is_some()))
    {
        n *= 2;
    }
    n
}
