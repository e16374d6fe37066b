//! The SM80 multistage mainloop's global -> shared half: each operand's k-tile copied by 16-byte
//! `cp.async` chunks into a `stages`-deep ring of swizzled shared tiles, with residue predication.
//!
//! Thread `tid` copies chunks `q = tid + i*threads` (TV layout `(threads, iters):(1, threads)` over the
//! tile's chunks, chunk `q -> (row, col) = (q / cpr, (q % cpr) * 8)`). Chunks past M, N or K are
//! zero-filled (`cp.async` with a source size), chunks straddling the K or MN edge are assembled element by
//! element; interior tiles take an unpredicated copy. The pipeline loop itself is in
//! [`crate::piece::fragment`], which interleaves these copies with the fragment loads and MMAs.
//!
//! ```
//! use cute_gpu::piece::cp_async_mainloop::Pipeline;
//! let p = Pipeline { stages: 3, threads: 256, min_blocks: 1, stage_bytes: 32768, a_bytes: 16384 };
//! assert_eq!(p.stages * p.stage_bytes, 98304); // the ring: 3 stages of A (16 KiB) + B (16 KiB)
//! ```

use crate::dtype::Major;
use crate::emit::{Leaf, basis_coord_expr, swizzle_expr};
use crate::error::{Result, config};
use crate::piece::smem_tile::OperandTile;
use cute_layout_core::Layout;

/// One operand as the copy sees it: the tile, the global leading dimension, the extent expression of
/// its mn mode (`M` or `N`) and the tile origin variable (`m0` or `n0`).
///
/// ```
/// # use cute_gpu::{DType, Major, atom::sm80_mma, emit::Leaf, piece::smem_tile::{TileShape, make_tile}};
/// # use cute_gpu::piece::cp_async_mainloop::{CopiedOperand, StageCopy};
/// # use cute_layout_core::Int;
/// # let mma = sm80_mma(DType::F16).unwrap();
/// # let sa = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
/// # let (a, b) = (make_tile(&mma, sa).unwrap(), make_tile(&mma, TileShape { name: "B", ..sa }).unwrap());
/// # let (lda, ldb) = (Leaf::new(Int::d(4096), "lda"), Leaf::new(Int::d(4096), "ldb"));
/// # let copy = StageCopy {
/// #     operands: [
/// #         CopiedOperand { tile: &a, ld: &lda, mn_extent: "M".into(), mn0: "m0", stage_offset: 0 },
/// #         CopiedOperand { tile: &b, ld: &ldb, mn_extent: "N".into(), mn0: "n0", stage_offset: 8192 },
/// #     ],
/// #     threads: 128, bk: 32, stage_bytes: 16384, k_extent: "K".into(), tile_mn: (128, 128),
/// # };
/// let c = copy.emit().unwrap();
/// // A is K-major: its global offset walks rows of lda from the tile origin m0
/// assert!(c.contains("const long long a_goff = (long long)(m0 + a_row) * (long long)(lda) + a_col;"));
/// assert!(c.contains("const long long b_goff = (long long)(n0 + b_row) * (long long)(ldb) + b_col;"));
/// ```
pub struct CopiedOperand<'a> {
    /// The shared tile.
    pub tile: &'a OperandTile,
    /// Leading dimension of the global operand.
    pub ld: &'a Leaf,
    /// The extent of mn (`M` for A, `N` for B), a C expression.
    pub mn_extent: String,
    /// The tile origin along mn (`m0`, `n0`).
    pub mn0: &'static str,
    /// Byte offset of this operand's tile inside a stage.
    pub stage_offset: i64,
}

/// The copies of both operands of one CTA.
///
/// ```
/// # use cute_gpu::{DType, Major, atom::sm80_mma, emit::Leaf, piece::smem_tile::{TileShape, make_tile}};
/// # use cute_gpu::piece::cp_async_mainloop::{CopiedOperand, StageCopy};
/// # use cute_layout_core::Int;
/// # let mma = sm80_mma(DType::F16).unwrap();
/// # let sa = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
/// # let (a, b) = (make_tile(&mma, sa).unwrap(), make_tile(&mma, TileShape { name: "B", ..sa }).unwrap());
/// # let (lda, ldb) = (Leaf::new(Int::d(4096), "lda"), Leaf::new(Int::d(4096), "ldb"));
/// # let copy = StageCopy {
/// #     operands: [
/// #         CopiedOperand { tile: &a, ld: &lda, mn_extent: "M".into(), mn0: "m0", stage_offset: 0 },
/// #         CopiedOperand { tile: &b, ld: &ldb, mn_extent: "N".into(), mn0: "n0", stage_offset: 8192 },
/// #     ],
/// #     threads: 128, bk: 32, stage_bytes: 16384, k_extent: "K".into(), tile_mn: (128, 128),
/// # };
/// assert_eq!(copy.operands[1].stage_offset, a.bytes()); // B's tile follows A's in a stage
/// assert!(copy.emit().unwrap().contains("const bool interior = m0 + 128 <= M && n0 + 128 <= N;"));
/// ```
pub struct StageCopy<'a> {
    /// A and B.
    pub operands: [CopiedOperand<'a>; 2],
    /// Threads of the CTA.
    pub threads: i64,
    /// K per stage.
    pub bk: i64,
    /// Bytes of one stage (A + B).
    pub stage_bytes: i64,
    /// The K extent, a C expression.
    pub k_extent: String,
    /// The CTA tile (bm, bn).
    pub tile_mn: (i64, i64),
}

impl CopiedOperand<'_> {
    fn iters(&self, threads: i64) -> i64 {
        self.tile.elems() / 8 / threads
    }
    fn chunks_per_row(&self) -> i64 {
        self.tile.cols / 8
    }
    /// Whether the swizzled offset of chunk `i` is the offset of chunk 0 plus a constant for every thread
    /// (the row step keeps the swizzle's source bits): then one base offset per thread suffices.
    fn constant_row_step(&self, threads: i64) -> bool {
        let (t, cpr) = (self.tile, self.chunks_per_row());
        let rstep = threads / cpr;
        (0..threads).all(|tid| {
            let (r0, c0) = (tid / cpr, (tid % cpr) * 8);
            (0..self.iters(threads)).all(|i| {
                t.swizzle.apply_i64((r0 + i * rstep) * t.cols + c0)
                    - t.swizzle.apply_i64(r0 * t.cols + c0)
                    == i * rstep * t.cols
            })
        })
    }
    /// The shared byte offset of chunk `i` of this thread inside the tile.
    fn smem_offset(&self, threads: i64) -> String {
        let (t, low) = (self.tile, self.tile.prefix());
        let rstep = threads / self.chunks_per_row();
        if self.constant_row_step(threads) {
            format!("{low}_soff + i * {}", rstep * t.cols * 2)
        } else {
            let x = format!("({low}_row + i * {rstep}) * {} + {low}_col", t.cols);
            format!("{} * 2", swizzle_expr(t.swizzle, &x))
        }
    }

    /// Per-thread setup: the chunk's row and column, its swizzled shared offset, its global offset and
    /// the predicate of its rows (K-major) or the elements left before the mn edge (MN-major).
    fn setup(&self, threads: i64) -> Result<String> {
        let (t, g, low) = (self.tile, self.tile.name, self.tile.prefix());
        let (iters, cpr, ld, mn0) = (
            self.iters(threads),
            self.chunks_per_row(),
            self.ld.expr(),
            self.mn0,
        );
        let mn_ext = &self.mn_extent;
        if threads % cpr != 0 {
            return config(
                "gemm_sm80",
                format!("{threads} threads do not cover whole rows of {g}'s {cpr}-chunk tile rows"),
            );
        }
        let mut c = format!(
            "  // {g}: cp.async TV layout (_{threads},_{iters}):(_1,_{threads}) over 16-byte chunks, chunk q -> (row,col) = (_{cpr},_{}):(_8@1,_1@0)\n",
            t.rows
        );
        // chunk q -> (row, col) by the chunk layout; thread tid's first chunk is q = tid
        let chunks: Layout = format!("(_{cpr},_{}):(_8@1,_1@0)", t.rows).parse()?;
        c += &format!(
            "  const int {low}_row = {}, {low}_col = {};\n",
            basis_coord_expr(&chunks, "tid", 0)?,
            basis_coord_expr(&chunks, "tid", 1)?
        );
        c += &format!(
            "  const unsigned int {low}_soff = {} * 2;\n",
            swizzle_expr(t.swizzle, &format!("{low}_row * {} + {low}_col", t.cols))
        );
        match t.major {
            Major::K => {
                c += &format!("  // K-major: row = mn, col = k; {g}(mn, k) = mn*{ld} + k\n");
                c += &format!(
                    "  const long long {low}_goff = (long long)({mn0} + {low}_row) * (long long)({ld}) + {low}_col;\n"
                );
                c += &format!(
                    "  unsigned int {low}_rows_ok = 0;  // bit i: row of chunk i is inside {mn_ext}\n"
                );
                c += &format!(
                    "  #pragma unroll\n  for (int i = 0; i < {iters}; ++i) {low}_rows_ok |= ({mn0} + {low}_row + i * {} < {mn_ext} ? 1u : 0u) << i;\n",
                    threads / cpr
                );
            }
            Major::MN => {
                c += &format!("  // MN-major: row = k, col = mn; {g}(mn, k) = mn + k*{ld}\n");
                c += &format!(
                    "  const long long {low}_goff = (long long){low}_row * (long long)({ld}) + {mn0} + {low}_col;\n"
                );
                c += &format!(
                    "  const int {low}_mn_left = {mn_ext} - ({mn0} + {low}_col);  // elements before the edge\n"
                );
            }
        }
        Ok(c)
    }

    /// The predicated copy of this operand's chunks of k-tile `kt` into `stage` (inside `load_stage`).
    fn predicated(&self, s: &StageCopy) -> String {
        let (t, g, low) = (self.tile, self.tile.name, self.tile.prefix());
        let (threads, kx, ld) = (s.threads, &s.k_extent, self.ld.expr());
        let rstep = threads / self.chunks_per_row();
        let mut c = format!(
            "    #pragma unroll\n    for (int i = 0; i < {}; ++i) {{\n",
            self.iters(threads)
        );
        let src = match t.major {
            Major::K => {
                c += &format!(
                    "      const int left = (({low}_rows_ok >> i) & 1) ? {kx} - k0 - {low}_col : 0;\n"
                );
                format!("{g} + {low}_goff + (long long)(i * {rstep}) * (long long)({ld}) + k0")
            }
            Major::MN => {
                c += &format!(
                    "      const int left = k0 + {low}_row + i * {rstep} < {kx} ? {low}_mn_left : 0;\n"
                );
                format!("{g} + {low}_goff + (long long)(k0 + i * {rstep}) * (long long)({ld})")
            }
        };
        c += "      const int bytes = left >= 8 ? 16 : (left > 0 ? left * 2 : 0);\n";
        c += &format!("      const unsigned short* src = bytes ? {src} : {g};\n");
        c += &format!(
            "      const unsigned int dst = sbase + stage * {} + {} + {};\n",
            s.stage_bytes,
            self.stage_offset,
            self.smem_offset(threads)
        );
        c += "      if (bytes == 16 || bytes == 0) {\n        cp_async_16(dst, src, bytes);  // whole chunk, or zero-fill past the edge\n";
        c += "      } else {\n        // chunk straddling the edge: only its first bytes/2 elements exist; read them one by one\n";
        c += "        unsigned int w[4];\n        #pragma unroll\n        for (int e = 0; e < 4; ++e) {\n";
        c += "          const unsigned int lo = 4 * e < bytes ? src[2 * e] : 0u, hi = 4 * e + 2 < bytes ? src[2 * e + 1] : 0u;\n";
        c += "          w[e] = lo | (hi << 16);\n        }\n        st_shared_16(dst, w);\n      }\n    }\n";
        c
    }

    /// The unpredicated copy of an interior k-tile (inside `load_stage_full`).
    fn full(&self, s: &StageCopy) -> String {
        let (g, low, ld) = (self.tile.name, self.tile.prefix(), self.ld.expr());
        let rstep = s.threads / self.chunks_per_row();
        let kterm = match self.tile.major {
            Major::K => "k0".to_string(),
            Major::MN => format!("(long long)k0 * (long long)({ld})"),
        };
        let mut c = format!(
            "    #pragma unroll\n    for (int i = 0; i < {}; ++i)\n",
            self.iters(s.threads)
        );
        c += &format!(
            "      cp_async_16_full(sbase + stage * {} + {} + {}, {g} + {low}_goff + (long long)(i * {rstep}) * (long long)({ld}) + {kterm});\n",
            s.stage_bytes,
            self.stage_offset,
            self.smem_offset(s.threads)
        );
        c
    }
}

impl StageCopy<'_> {
    /// The per-thread setup and the `load(stage, kt)` lambda: unpredicated for interior tiles, predicated
    /// at the M, N and K edges.
    ///
    /// ```
    /// # use cute_gpu::{DType, Major, atom::sm80_mma, emit::Leaf, piece::smem_tile::{TileShape, make_tile}};
    /// # use cute_gpu::piece::cp_async_mainloop::{CopiedOperand, StageCopy};
    /// # use cute_layout_core::Int;
    /// # let mma = sm80_mma(DType::F16).unwrap();
    /// # let sa = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
    /// # let (a, b) = (make_tile(&mma, sa).unwrap(), make_tile(&mma, TileShape { name: "B", ..sa }).unwrap());
    /// # let (lda, ldb) = (Leaf::new(Int::d(4096), "lda"), Leaf::new(Int::d(4096), "ldb"));
    /// # let copy = StageCopy {
    /// #     operands: [
    /// #         CopiedOperand { tile: &a, ld: &lda, mn_extent: "M".into(), mn0: "m0", stage_offset: 0 },
    /// #         CopiedOperand { tile: &b, ld: &ldb, mn_extent: "N".into(), mn0: "n0", stage_offset: 8192 },
    /// #     ],
    /// #     threads: 128, bk: 32, stage_bytes: 16384, k_extent: "K".into(), tile_mn: (128, 128),
    /// # };
    /// let c = copy.emit().unwrap();
    /// assert!(c.contains("auto load_stage = [&](int stage, int kt) {"));
    /// assert!(c.contains("if (interior && (kt + 1) * 32 <= K) load_stage_full(stage, kt);"));
    /// ```
    pub fn emit(&self) -> Result<String> {
        let mut c = String::new();
        for op in &self.operands {
            c += &op.setup(self.threads)?;
        }
        let bk = self.bk;
        c += "  auto load_stage = [&](int stage, int kt) {\n";
        c += &format!("    const int k0 = kt * {bk};\n");
        for op in &self.operands {
            c += &op.predicated(self);
        }
        c += "  };\n";
        // Interior tiles (the whole CTA tile and k-tile inside M, N, K) take the unpredicated path.
        let (bm, bn) = self.tile_mn;
        let (mx, nx) = (&self.operands[0].mn_extent, &self.operands[1].mn_extent);
        c += &format!("  const bool interior = m0 + {bm} <= {mx} && n0 + {bn} <= {nx};\n");
        c += "  auto load_stage_full = [&](int stage, int kt) {\n";
        c += &format!("    const int k0 = kt * {bk};\n");
        for op in &self.operands {
            c += &op.full(self);
        }
        c += "  };\n";
        c += &format!(
            "  auto load = [&](int stage, int kt) {{\n    if (interior && (kt + 1) * {bk} <= {}) load_stage_full(stage, kt);\n    else load_stage(stage, kt);\n  }};\n",
            self.k_extent
        );
        Ok(c)
    }
}

/// The pipeline's shape: stages, threads, the CTAs per SM asked for, and the stage geometry in bytes.
///
/// ```
/// use cute_gpu::piece::cp_async_mainloop::Pipeline;
/// let p = Pipeline { stages: 4, threads: 128, min_blocks: 2, stage_bytes: 16384, a_bytes: 8192 };
/// assert_eq!(p.stages * p.stage_bytes, 65536); // the ring's shared memory
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Pipeline {
    /// Stages of the ring (>= 3).
    pub stages: i64,
    /// Threads of the CTA.
    pub threads: i64,
    /// CTAs per SM (`__launch_bounds__`), which sets the register budget.
    pub min_blocks: i64,
    /// Bytes of one stage.
    pub stage_bytes: i64,
    /// Bytes of A's tile in a stage (B's follows).
    pub a_bytes: i64,
}

impl Pipeline {
    /// Fragments are double-buffered across k16 steps (the next step's ldmatrix overlaps this step's mma)
    /// unless the register budget of `min_blocks` CTAs per SM (65536 / (threads * min_blocks)) is at most
    /// 128: then one buffer, loaded right before its mma, and the second CTA hides latency.
    fn single_buffer(&self) -> bool {
        65536 / (self.threads * self.min_blocks.max(1)) <= 128
    }

    fn stage_bases(&self, name: (&str, &str), kt: &str) -> String {
        let (s, a) = (self.stages, self.a_bytes);
        format!(
            "    const unsigned int {} = sbase + ({kt} % {s}) * {}, {} = {} + {a};\n",
            name.0, self.stage_bytes, name.1, name.0
        )
    }

    fn refill(&self, indent: &str) -> String {
        let ahead = self.stages - 1;
        format!(
            "{indent}{{  // refill the stage read in iteration kt-1 with k-tile kt+{ahead}\n{indent}  const int nk = kt + {ahead};\n{indent}  if (nk < KT) load(nk % {}, nk);\n{indent}  cp_async_commit();\n{indent}}}\n",
            self.stages
        )
    }

    /// Prologue (fill `stages - 1` stages), the k-tile loop interleaving copies, fragment loads and MMAs,
    /// and the final drain of the copy groups.
    ///
    /// ```
    /// # use cute_gpu::{DType, Major, atom::sm80_mma, emit::Leaf, piece::smem_tile::{TileShape, make_tile}};
    /// # use cute_gpu::piece::cp_async_mainloop::{CopiedOperand, StageCopy};
    /// # use cute_layout_core::Int;
    /// # let mma = sm80_mma(DType::F16).unwrap();
    /// # let sa = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
    /// # let (a, b) = (make_tile(&mma, sa).unwrap(), make_tile(&mma, TileShape { name: "B", ..sa }).unwrap());
    /// # let (lda, ldb) = (Leaf::new(Int::d(4096), "lda"), Leaf::new(Int::d(4096), "ldb"));
    /// use cute_gpu::piece::{cp_async_mainloop::Pipeline, fragment::WarpMma};
    /// let warp = WarpMma::new(&a, &b, (4, 8, 2)).unwrap(); // 64x64 warp tile of m16n8k16, bk = 32
    /// let p = Pipeline { stages: 4, threads: 128, min_blocks: 2, stage_bytes: 16384, a_bytes: 8192 };
    /// let c = p.emit(&warp);
    /// assert!(c.contains("for (int s = 0; s < 3; ++s) {") && c.contains("cp_async_wait<2>();"));
    /// ```
    pub fn emit(&self, warp: &crate::piece::fragment::WarpMma) -> String {
        let (stages, mi_n, ni_n, ks_n) = (self.stages, warp.mi_n, warp.ni_n, warp.ks_n);
        let wait = format!("cp_async_wait<{}>();", stages - 2);
        let mut c =
            "  // prologue: fill stages 0..STAGES-2, wait for stage 0, load its first fragments\n"
                .to_string();
        c += &format!(
            "  #pragma unroll\n  for (int s = 0; s < {}; ++s) {{\n    if (s < KT) load(s, s);\n    cp_async_commit();\n  }}\n",
            stages - 1
        );
        c += &format!("  {wait}\n  __syncthreads();\n");
        if self.single_buffer() {
            c += &format!(
                "  unsigned int af[1][{mi_n}][4], bf[1][{ni_n}][2];  // fragments, one buffer (register budget of {} CTAs/SM)\n",
                self.min_blocks
            );
            c += "  for (int kt = 0; kt < KT; ++kt) {\n";
            c += &self.stage_bases(("sa", "sb"), "kt");
            c += &self.refill("    ");
            for ks in 0..ks_n {
                c += &format!("    {{  // k16 step {ks}\n");
                c += &warp.load_fragments(0, ks, "sa", "sb");
                c += &warp.mma_block(0);
                c += "    }\n";
            }
            c += &format!(
                "    {wait}\n    __syncthreads();  // next stage landed; every warp is done reading stage kt\n  }}\n"
            );
        } else {
            c += &format!(
                "  unsigned int af[2][{mi_n}][4], bf[2][{ni_n}][2];  // fragments, double-buffered across k16 steps\n"
            );
            c += &format!(
                "  {{\n    const unsigned int sa = sbase, sb = sa + {};\n",
                self.a_bytes
            );
            c += &warp.load_fragments(0, 0, "sa", "sb");
            c += "  }\n  for (int kt = 0; kt < KT; ++kt) {\n";
            c += &self.stage_bases(("sa", "sb"), "kt");
            c += &self.stage_bases(("na", "nb"), "(kt + 1)");
            // Step ks multiplies fragments[ks%2] while fragments[(ks+1)%2] load for the next step; the
            // last step first waits for the next stage and synchronizes, then loads its first fragments.
            for ks in 0..ks_n {
                c += &format!("    {{  // k16 step {ks}\n");
                if ks == ks_n - 1 {
                    c += &format!(
                        "      {wait}\n      __syncthreads();  // next stage landed; every warp is done reading stage kt-1\n"
                    );
                }
                let (a, b) = if ks + 1 < ks_n {
                    ("sa", "sb")
                } else {
                    ("na", "nb")
                };
                c += &warp.load_fragments((ks + 1) % 2, (ks + 1) % ks_n, a, b);
                if ks == 0 {
                    c += &self.refill("      ");
                }
                c += &warp.mma_block(ks % 2);
                c += "    }\n";
            }
            c += "  }\n";
        }
        c += "  cp_async_wait<0>();\n";
        c
    }
}
