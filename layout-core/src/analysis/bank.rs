//! Shared-memory bank conflicts of a thread-value access.
//!
//! Shared memory has 32 banks of 4-byte words; one wavefront serves at most one word per bank (threads
//! reading the same word share it). A warp's request of `w`-byte vectors is served in phases of
//! `128 / w` threads (a whole warp for 4 bytes, half-warps for 8, quarter-warps for 16); a phase takes
//! as many wavefronts as the most distinct words any one bank holds among its accesses. A request
//! without conflicts takes `w / 4` wavefronts, its ideal.
//!
//! ```
//! use cute_layout_core::analysis::{Access, bank_conflicts};
//! use cute_layout_core::{notation::eval_str, Layout, LayoutFn};
//! // 8 threads x 8 f16 (16-byte vectors) down the column of a 8x64 row-major f16 tile
//! let smem = LayoutFn::from_value(&eval_str("(_8,_64):(_64,_1)").unwrap()).unwrap();
//! let tv: Layout = "((_8,_8),_8):((_1,_64),_8)".parse().unwrap();
//! let r = bank_conflicts(&tv, &smem, Access { elem_bits: 16, bytes: 16 }).unwrap();
//! assert_eq!((r.worst, r.ideal), (32, 4));
//! ```

use super::TvTable;
use crate::error::{LayoutError, Result};
use crate::layout::Layout;
use crate::swizzle::LayoutFn;
use std::collections::{BTreeMap, BTreeSet};

/// The element width and the width of each access (4, 8 or 16 bytes).
///
/// ```
/// use cute_layout_core::analysis::Access;
/// let a = Access { elem_bits: 16, bytes: 16 }; // 128-bit vectors of f16
/// assert_eq!(a.elems().unwrap(), 8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// Bits per element (16 for f16).
    pub elem_bits: i64,
    /// Bytes each thread moves per instruction (4, 8 or 16).
    pub bytes: i64,
}

impl Access {
    /// Elements per access, checking that the widths fit together.
    ///
    /// ```
    /// use cute_layout_core::analysis::Access;
    /// assert_eq!(Access { elem_bits: 32, bytes: 8 }.elems().unwrap(), 2);
    /// assert!(Access { elem_bits: 32, bytes: 2 }.elems().is_err()); // 2-byte accesses are not modelled
    /// assert!(Access { elem_bits: 48, bytes: 16 }.elems().is_err()); // not whole elements
    /// ```
    pub fn elems(&self) -> Result<i64> {
        let bits = self.bytes.saturating_mul(8);
        if ![4, 8, 16].contains(&self.bytes) || self.elem_bits <= 0 || bits % self.elem_bits != 0 {
            return Err(LayoutError::invalid(format!(
                "an access of {} bytes cannot move whole {}-bit elements (widths are 4, 8 or 16 bytes)",
                self.bytes, self.elem_bits
            )));
        }
        Ok(bits / self.elem_bits)
    }
}

/// Wavefronts per warp request: the worst request, the mean over all requests, and the ideal.
///
/// ```
/// use cute_layout_core::analysis::{Access, bank_conflicts};
/// use cute_layout_core::{notation::eval_str, Layout, LayoutFn};
/// // each thread reads a column of a 32x32 row-major f32 tile: every thread of a request in one bank
/// let tv: Layout = "(_32,_32):(_1,_32)".parse().unwrap();
/// let smem = LayoutFn::from_value(&eval_str("(_32,_32):(_32,_1)").unwrap()).unwrap();
/// let r = bank_conflicts(&tv, &smem, Access { elem_bits: 32, bytes: 4 }).unwrap();
/// assert_eq!((r.requests, r.worst, r.mean, r.ideal), (32, 32, 32.0, 1));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct BankReport {
    /// The access analysed.
    pub access: Access,
    /// Warp requests (warps x vectors per thread).
    pub requests: usize,
    /// Wavefronts of the worst request.
    pub worst: i64,
    /// Mean wavefronts per request.
    pub mean: f64,
    /// Wavefronts of a conflict-free full-warp request (`bytes / 4`).
    pub ideal: i64,
    /// `(warp, vector)` of the first worst request.
    pub worst_at: (i64, i64),
}

impl BankReport {
    /// True when every request takes its ideal number of wavefronts.
    ///
    /// ```
    /// use cute_layout_core::analysis::{Access, bank_conflicts};
    /// use cute_layout_core::{notation::eval_str, Layout, LayoutFn};
    /// let tv: Layout = "(_32,_32):(_1,_32)".parse().unwrap();
    /// let acc = Access { elem_bits: 32, bytes: 4 };
    /// let plain = LayoutFn::from_value(&eval_str("(_32,_32):(_32,_1)").unwrap()).unwrap();
    /// assert!(!bank_conflicts(&tv, &plain, acc).unwrap().conflict_free());
    /// // Sw<5,0,5> XORs the row into the column bits: the column read spreads over all 32 banks
    /// let sw = LayoutFn::from_value(&eval_str("Sw<5,0,5> o _0 o (_32,_32):(_32,_1)").unwrap()).unwrap();
    /// assert!(bank_conflicts(&tv, &sw, acc).unwrap().conflict_free());
    /// ```
    pub fn conflict_free(&self) -> bool {
        self.worst <= self.ideal
    }
}

/// Bank conflicts of the accesses `smem(tv(t, v))`: each thread moves its values `access.elems()` at a
/// time (values `k*n .. k*n+n-1` form vector `k`), warps are threads `32w .. 32w+31`.
///
/// Errors: `tv` is not rank 2, its value count is not a multiple of the vector, or a vector is not
/// contiguous and aligned in shared memory (the message names the thread, the values and the offsets).
///
/// ```
/// use cute_layout_core::analysis::{bank_conflicts, Access};
/// use cute_layout_core::{notation::eval_str, LayoutFn};
/// let f = |s: &str| LayoutFn::from_value(&eval_str(s).unwrap()).unwrap();
/// // A 16x64 tile of halves, row-major in smem; 128 threads, thread (r, c) copies the 8 halves
/// // at row r, columns 8c..8c+7 (16 bytes). A quarter-warp (8 rows, one column) hits the same 4 banks.
/// let tv: cute_layout_core::Layout = "((_16,_8),_8):((_1,_128),_16)".parse().unwrap();
/// let x = Access { elem_bits: 16, bytes: 16 };
/// let plain = bank_conflicts(&tv, &f("(_16,_64):(_64,_1)"), x).unwrap();
/// assert_eq!((plain.worst, plain.ideal), (32, 4));
/// // the 128-byte swizzle spreads the 8 rows over all banks
/// let swizzled = bank_conflicts(&tv, &f("Sw<3,3,3> o _0 o (_16,_64):(_64,_1)"), x).unwrap();
/// assert!(swizzled.conflict_free());
/// ```
pub fn bank_conflicts(tv: &Layout, smem: &LayoutFn, access: Access) -> Result<BankReport> {
    let n = access.elems()?;
    let table = TvTable::new(tv, smem)?;
    if table.values % n != 0 {
        return Err(LayoutError::invalid(format!(
            "{tv}: {} values per thread are not a whole number of {}-byte vectors ({n} elements)",
            table.values, access.bytes
        )));
    }
    let phase = 128 / access.bytes;
    let (mut worst, mut worst_at, mut total, mut requests) = (0, (0, 0), 0i64, 0usize);
    for warp in 0..(table.threads + 31) / 32 {
        for k in 0..table.values / n {
            let mut wavefronts = 0;
            for p in (warp * 32..(warp * 32 + 32).min(table.threads)).step_by(phase as usize) {
                let last = (p + phase).min(table.threads);
                wavefronts += phase_wavefronts(&table, p..last, k, n, access, tv, smem)?;
            }
            if wavefronts > worst {
                (worst, worst_at) = (wavefronts, (warp, k));
            }
            total += wavefronts;
            requests += 1;
        }
    }
    Ok(BankReport {
        access,
        requests,
        worst,
        mean: total as f64 / requests.max(1) as f64,
        ideal: access.bytes / 4,
        worst_at,
    })
}

/// Wavefronts of one phase: the most distinct 4-byte words in one bank.
fn phase_wavefronts(
    table: &TvTable,
    threads: std::ops::Range<i64>,
    k: i64,
    n: i64,
    access: Access,
    tv: &Layout,
    smem: &LayoutFn,
) -> Result<i64> {
    let mut addrs = Vec::new();
    for t in threads {
        let base = table.vector(t, k, n).ok_or_else(|| {
            let offs: Vec<i64> = (0..n).map(|j| table.at(t, k * n + j)).collect();
            LayoutError::invalid(format!(
                "{smem} o {tv}: thread {t}'s values {}..{} are at offsets {offs:?}, not one aligned {}-byte vector",
                k * n,
                k * n + n - 1,
                access.bytes
            ))
        })?;
        addrs.push(base.saturating_mul(access.elem_bits) / 8);
    }
    Ok(phase_wavefronts_at(addrs, access.bytes))
}

/// Wavefronts of one phase of a shared-memory request: the most distinct 4-byte words any one bank holds
/// among accesses of `bytes` bytes (4, 8 or 16) at the byte addresses `addrs` (0 when there are none).
/// The bank model of [`bank_conflicts`], for callers that have addresses rather than layouts (the GPU
/// crate's swizzle search).
///
/// ```
/// use cute_layout_core::analysis::bank::phase_wavefronts_at;
/// assert_eq!(phase_wavefronts_at((0..32).map(|l| 4 * l), 4), 1); // consecutive words
/// assert_eq!(phase_wavefronts_at((0..32).map(|l| 128 * l), 4), 32); // one column: 32-way
/// assert_eq!(phase_wavefronts_at([64; 32], 4), 1); // one word: broadcast
/// ```
pub fn phase_wavefronts_at(addrs: impl IntoIterator<Item = i64>, bytes: i64) -> i64 {
    let mut banks: BTreeMap<i64, BTreeSet<i64>> = BTreeMap::new();
    for byte in addrs {
        for w in 0..(bytes / 4).max(1) {
            let word = byte.div_euclid(4) + w;
            banks.entry(word.rem_euclid(32)).or_default().insert(word);
        }
    }
    banks.values().map(|s| s.len() as i64).max().unwrap_or(0)
}
