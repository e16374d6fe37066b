//! The SM80 GEMM's shared-memory operand tile: `rows x cols` 16-bit elements, cols contiguous, one per
//! pipeline stage, `Swizzle<B,3,S> o (rows,cols):(cols,_1)`; the swizzle is the one the bank model finds
//! conflict-free for the two access patterns of the tile: the 16-byte `cp.async` chunks of the global ->
//! shared copy and the rows `ldmatrix` reads ([`crate::atom::ldmatrix_lanes`]).
//!
//! ```
//! use cute_gpu::{DType, Major, atom::sm80_mma, piece::smem_tile::{TileShape, make_tile}};
//! let mma = sm80_mma(DType::BF16).unwrap();
//! let b = make_tile(&mma, TileShape { name: "B", major: Major::MN, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 }).unwrap();
//! assert_eq!((b.rows, b.cols, b.conflicts), (32, 128, 0)); // (32,128):(128,_1) under its swizzle
//! ```

use crate::atom::ldmatrix_lanes;
use crate::dtype::Major;
use crate::emit::basis_coord;
use crate::error::{Result, config};
use crate::smem::{WarpAccess, choose_swizzle, total_conflicts};
use cute_layout_core::atom::{MmaTraits, Operand};
use cute_layout_core::{Layout, Swizzle};

/// One operand's shared-memory tile.
///
/// ```
/// use cute_gpu::{DType, Major, atom::sm80_mma, piece::smem_tile::{TileShape, make_tile}};
/// let mma = sm80_mma(DType::F16).unwrap();
/// let shape = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
/// let a = make_tile(&mma, shape).unwrap();
/// assert_eq!((a.rows, a.cols, a.major), (128, 32, Major::K)); // (128,32):(32,_1), K contiguous
/// assert_eq!(a.conflicts, 0);
/// ```
#[derive(Clone, Debug)]
pub struct OperandTile {
    /// `A` or `B`.
    pub name: &'static str,
    /// Which mode is contiguous.
    pub major: Major,
    /// The CTA tile along this operand's M or N.
    pub mn_tile: i64,
    /// Rows of the stored tile (mn for K-major, k for MN-major).
    pub rows: i64,
    /// Columns (contiguous).
    pub cols: i64,
    /// lane -> (mn, k) inside one 16x16 ldmatrix.x4 block, from the copy atom.
    pub lane_layout: Layout,
    /// mn extent covered by one ldmatrix.x4 (16 for both operands).
    pub warp_mn: i64,
    /// Warps of the TiledMMA along this operand's mn.
    pub warps_along: i64,
    /// The chosen swizzle (on element offsets).
    pub swizzle: Swizzle,
    /// Bank conflicts with the swizzle.
    pub conflicts: usize,
    /// Bank conflicts of the plain tile.
    pub unswizzled_conflicts: usize,
}

impl OperandTile {
    /// Elements per stage.
    ///
    /// ```
    /// # use cute_gpu::{DType, Major, atom::sm80_mma, piece::smem_tile::{TileShape, make_tile}};
    /// # let mma = sm80_mma(DType::F16).unwrap();
    /// # let shape = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
    /// # let a = make_tile(&mma, shape).unwrap();
    /// assert_eq!(a.elems(), 128 * 32);
    /// ```
    pub fn elems(&self) -> i64 {
        self.rows * self.cols
    }
    /// Bytes per stage.
    ///
    /// ```
    /// # use cute_gpu::{DType, Major, atom::sm80_mma, piece::smem_tile::{TileShape, make_tile}};
    /// # let mma = sm80_mma(DType::F16).unwrap();
    /// # let shape = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
    /// # let a = make_tile(&mma, shape).unwrap();
    /// assert_eq!(a.bytes(), 8192); // 4096 16-bit elements
    /// ```
    pub fn bytes(&self) -> i64 {
        self.elems() * 2
    }
    /// (row, col) of the stored tile for the operand coordinate (mn, k).
    ///
    /// ```
    /// # use cute_gpu::{DType, Major, atom::sm80_mma, piece::smem_tile::{TileShape, make_tile}};
    /// # let mma = sm80_mma(DType::F16).unwrap();
    /// # let shape = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
    /// # let a = make_tile(&mma, shape).unwrap();
    /// assert_eq!(a.rc(3, 5), (3, 5)); // K-major: rows are mn
    /// let b = make_tile(&mma, TileShape { name: "B", major: Major::MN, ..shape }).unwrap();
    /// assert_eq!((b.rows, b.cols, b.rc(3, 5)), (32, 128, (5, 3))); // MN-major: rows are k
    /// ```
    pub fn rc(&self, mn: i64, k: i64) -> (i64, i64) {
        match self.major {
            Major::K => (mn, k),
            Major::MN => (k, mn),
        }
    }
    /// The lower-case name (`a`, `b`) used as a prefix of the generated variables.
    ///
    /// ```
    /// # use cute_gpu::{DType, Major, atom::sm80_mma, piece::smem_tile::{TileShape, make_tile}};
    /// # let mma = sm80_mma(DType::F16).unwrap();
    /// # let shape = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
    /// # let a = make_tile(&mma, shape).unwrap();
    /// assert_eq!(a.prefix(), "a");
    /// ```
    pub fn prefix(&self) -> String {
        self.name.to_lowercase()
    }

    /// The warp accesses of the tile under the swizzle function `f` (element offset -> element offset).
    ///
    /// ```
    /// # use cute_gpu::{DType, Major, atom::sm80_mma, piece::smem_tile::{TileShape, make_tile}};
    /// # let mma = sm80_mma(DType::F16).unwrap();
    /// # let shape = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
    /// # let a = make_tile(&mma, shape).unwrap();
    /// use cute_gpu::smem::total_conflicts;
    /// let plain = a.accesses(128, 32, &|x| x).unwrap();
    /// assert_eq!(plain.len(), 16 + 16); // 4 warps x 4 cp.async rounds, 2 warps x 4 blocks x 2 k16 ldmatrix
    /// assert_eq!(total_conflicts(&plain), a.unswizzled_conflicts);
    /// ```
    pub fn accesses(
        &self,
        threads: i64,
        bk: i64,
        f: &dyn Fn(i64) -> i64,
    ) -> Result<Vec<WarpAccess>> {
        let mut out = Vec::new();
        let chunks_per_row = self.cols / 8;
        let iters = self.elems() / 8 / threads;
        for warp in 0..threads / 32 {
            for i in 0..iters {
                let addrs = (0..32)
                    .map(|l| {
                        let q = warp * 32 + l + i * threads;
                        f((q / chunks_per_row) * self.cols + (q % chunks_per_row) * 8) * 2
                    })
                    .collect();
                out.push(WarpAccess { addrs, width: 16 });
            }
        }
        // ldmatrix: every warp position along this operand's mn, every 16x16 block.
        let per_warp = self.mn_tile / self.warps_along;
        for w in 0..self.warps_along {
            for blk in 0..per_warp / self.warp_mn {
                for ks in 0..bk / 16 {
                    let mut addrs = Vec::with_capacity(32);
                    for l in 0..32 {
                        let c = basis_coord(&self.lane_layout, l)?;
                        let (r, col) =
                            self.rc(w * per_warp + blk * self.warp_mn + c[0], ks * 16 + c[1]);
                        addrs.push(f(r * self.cols + col) * 2);
                    }
                    out.push(WarpAccess { addrs, width: 16 });
                }
            }
        }
        Ok(out)
    }
}

/// Where an operand tile sits in the CTA: its name, major, CTA extent along mn, the k tile, the warps
/// along mn and the CTA's threads.
///
/// ```
/// use cute_gpu::{Major, piece::smem_tile::TileShape};
/// let a = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
/// let b = TileShape { name: "B", major: Major::MN, ..a };
/// assert_eq!((b.mn_tile, b.bk), (128, 32));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct TileShape {
    /// `A` or `B`.
    pub name: &'static str,
    /// Contiguous mode.
    pub major: Major,
    /// CTA tile along mn.
    pub mn_tile: i64,
    /// CTA tile along k.
    pub bk: i64,
    /// Warps along mn.
    pub warps_along: i64,
    /// Threads of the CTA.
    pub threads: i64,
}

/// The tile of `shape` with its swizzle chosen by the bank search, ldmatrix lanes from `mma`'s atoms.
///
/// ```
/// use cute_gpu::{DType, Major, atom::sm80_mma, piece::smem_tile::{TileShape, make_tile}};
/// let mma = sm80_mma(DType::F16).unwrap();
/// let shape = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
/// let a = make_tile(&mma, shape).unwrap();
/// assert_eq!(a.swizzle.to_string(), "Sw<2,3,3>");
/// assert!(a.conflicts == 0 && a.unswizzled_conflicts > 0);
/// ```
pub fn make_tile(mma: &MmaTraits, shape: TileShape) -> Result<OperandTile> {
    let TileShape {
        name,
        major,
        mn_tile,
        bk,
        warps_along,
        threads,
    } = shape;
    let operand = if name == "A" { Operand::A } else { Operand::B };
    let (rows, cols) = match major {
        Major::K => (mn_tile, bk),
        Major::MN => (bk, mn_tile),
    };
    let mut t = OperandTile {
        name,
        major,
        mn_tile,
        rows,
        cols,
        lane_layout: ldmatrix_lanes(mma, operand, major)?,
        warp_mn: 16,
        warps_along,
        swizzle: Swizzle {
            bits: 0,
            base: 3,
            shift: 0,
        },
        conflicts: 0,
        unswizzled_conflicts: 0,
    };
    if (t.elems() / 8) % threads != 0 {
        return config(
            "gemm_sm80",
            format!("{name} tile {rows}x{cols} is not a whole number of 16-byte chunks per thread"),
        );
    }
    let tile_log2 = t.elems().trailing_zeros() as i64;
    t.unswizzled_conflicts = total_conflicts(&t.accesses(threads, bk, &|x| x)?);
    let probe = t.clone();
    let (sw, c) = choose_swizzle(3, tile_log2, |f| {
        probe.accesses(threads, bk, f).unwrap_or_default()
    });
    t.swizzle = sw;
    t.conflicts = c;
    Ok(t)
}
