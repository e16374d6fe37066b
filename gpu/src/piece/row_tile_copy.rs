//! A `(rows, cols)` tile of 16-bit values whose columns are contiguous in global memory (rows at any
//! stride) copied by 16-byte `cp.async` chunks into a swizzled shared tile ([`OperandTile`]); rows at or
//! past a limit are zero-filled (`cp.async` with source size 0), never read. Attention's Q, K and V tiles
//! (a row is one token's head vector). Thread `tid` copies chunks `q = tid + i*threads`, chunk
//! `q -> (row, col) = (q / cpr, (q % cpr) * 8)`: the same TV layout as [`crate::piece::cp_async_mainloop`],
//! so the tile's swizzle (chosen by the bank search over these chunks and the ldmatrix rows) applies.
//!
//! ```
//! use cute_gpu::{DType, Major, atom::sm80_mma, piece::{row_tile_copy::RowTileCopy, smem_tile::{TileShape, make_tile}}};
//! // a 64x128 K tile of attention (64 keys, head dim 128), 128 threads: 1024 chunks, 8 per thread
//! let shape = TileShape { name: "K", major: Major::K, mn_tile: 64, bk: 128, warps_along: 1, threads: 128 };
//! let tile = make_tile(&sm80_mma(DType::BF16).unwrap(), shape).unwrap();
//! assert!(RowTileCopy { tile: &tile, threads: 128 }.emit().unwrap().contains("(_128,_8):(_1,_128)"));
//! ```

use crate::emit::{basis_coord_expr, swizzle_expr};
use crate::error::{Result, config};
use crate::piece::smem_tile::OperandTile;
use cute_layout_core::Layout;

/// The copy of one tile by `threads` threads.
///
/// ```
/// use cute_gpu::{DType, Major, atom::sm80_mma, piece::{row_tile_copy::RowTileCopy, smem_tile::{TileShape, make_tile}}};
/// let shape = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
/// let tile = make_tile(&sm80_mma(DType::F16).unwrap(), shape).unwrap();
/// let c = RowTileCopy { tile: &tile, threads: 128 }.emit().unwrap();
/// assert!(c.contains("cp.async TV layout (_128,_4):(_1,_128)")); // 512 chunks of 16 bytes, 4 per thread
/// ```
pub struct RowTileCopy<'a> {
    /// The shared tile (its prefix names the generated variables).
    pub tile: &'a OperandTile,
    /// Threads of the CTA.
    pub threads: i64,
}

impl RowTileCopy<'_> {
    fn cpr(&self) -> i64 {
        self.tile.cols / 8
    }
    fn iters(&self) -> i64 {
        self.tile.elems() / 8 / self.threads
    }
    /// Whether chunk `i`'s swizzled offset is chunk 0's plus `i * rstep * cols` for every thread.
    fn constant_row_step(&self) -> bool {
        let (t, cpr) = (self.tile, self.cpr());
        let rstep = self.threads / cpr;
        (0..self.threads).all(|tid| {
            let x0 = (tid / cpr) * t.cols + (tid % cpr) * 8;
            (0..self.iters()).all(|i| {
                t.swizzle.apply_i64(x0 + i * rstep * t.cols) - t.swizzle.apply_i64(x0)
                    == i * rstep * t.cols
            })
        })
    }

    /// Per-thread setup (the chunk's row, column and swizzled shared offset) and the lambda
    /// `copy_<prefix>(dst, base, stride, r0, limit)`: rows `r0 ..` of the tensor at `base` (row stride
    /// `stride` elements) into the shared tile at `dst`, rows `>= limit` zero-filled.
    ///
    /// ```
    /// use cute_gpu::{DType, Major, atom::sm80_mma, piece::{row_tile_copy::RowTileCopy, smem_tile::{TileShape, make_tile}}};
    /// let shape = TileShape { name: "A", major: Major::K, mn_tile: 64, bk: 64, warps_along: 2, threads: 128 };
    /// let tile = make_tile(&sm80_mma(DType::F16).unwrap(), shape).unwrap();
    /// assert!(RowTileCopy { tile: &tile, threads: 128 }.emit().unwrap().contains("chunk q -> (row,col) = (_8,_64):(_8@1,_1@0)"));
    /// assert!(RowTileCopy { tile: &tile, threads: 96 }.emit().is_err()); // 512 chunks do not split over 96 threads
    /// ```
    pub fn emit(&self) -> Result<String> {
        let (t, threads, cpr) = (self.tile, self.threads, self.cpr());
        let low = t.prefix();
        if cpr == 0 || threads % cpr != 0 || (t.elems() / 8) % threads != 0 {
            return config(
                "row_tile_copy",
                format!(
                    "{}x{} tile: {threads} threads do not cover whole rows of 16-byte chunks",
                    t.rows, t.cols
                ),
            );
        }
        let (iters, rstep) = (self.iters(), threads / cpr);
        let chunks: Layout = format!("(_{cpr},_{}):(_8@1,_1@0)", t.rows).parse()?;
        let mut c = format!(
            "  // {}: cp.async TV layout (_{threads},_{iters}):(_1,_{threads}) over 16-byte chunks, chunk q -> (row,col) = {chunks}\n",
            t.name
        );
        c += &format!(
            "  const int {low}_crow = {}, {low}_ccol = {};\n",
            basis_coord_expr(&chunks, "tid", 0)?,
            basis_coord_expr(&chunks, "tid", 1)?
        );
        c += &format!(
            "  const unsigned int {low}_soff = {} * 2;\n",
            swizzle_expr(t.swizzle, &format!("{low}_crow * {} + {low}_ccol", t.cols))
        );
        let dst = if self.constant_row_step() {
            format!("{low}_soff + i * {}", rstep * t.cols * 2)
        } else {
            let x = format!("({low}_crow + i * {rstep}) * {} + {low}_ccol", t.cols);
            format!("{} * 2", swizzle_expr(t.swizzle, &x))
        };
        c += &format!(
            "  auto copy_{low} = [&](unsigned int dst, const unsigned short* base, long long stride, int r0, int limit) {{\n    #pragma unroll\n    for (int i = 0; i < {iters}; ++i) {{\n      const int r = r0 + {low}_crow + i * {rstep};\n      const bool in = r < limit;  // rows past the limit: zero-filled, not read\n      cp_async_16(dst + {dst}, in ? base + (long long)r * stride + {low}_ccol : base, in ? 16 : 0);\n    }}\n  }};\n"
        );
        Ok(c)
    }
}
