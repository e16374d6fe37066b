//! The SM80 mainloop's shared -> register half and the pipeline around it: `ldmatrix` fragment loaders
//! whose lane addresses come from the copy atom's lane layout ([`OperandTile::lane_layout`]), the
//! `mma.sync` loop over a warp's atoms, and the multistage loop that interleaves them with the
//! `cp.async` copies of [`crate::piece::cp_async_mainloop`].
//!
//! ```
//! use cute_gpu::{DType, Major, atom::sm80_mma, piece::{fragment::WarpMma, smem_tile::{TileShape, make_tile}}};
//! let mma = sm80_mma(DType::F16).unwrap();
//! let sa = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
//! let (a, b) = (make_tile(&mma, sa).unwrap(), make_tile(&mma, TileShape { name: "B", major: Major::MN, ..sa }).unwrap());
//! let w = WarpMma::new(&a, &b, (4, 8, 2)).unwrap(); // a 64x64 warp tile of m16n8k16 atoms, 2 k16 steps
//! assert!(w.setup().unwrap().contains("float acc[4][8][4];") && w.mma_block(0).contains("mma_16816("));
//! ```

use crate::arch::ldmatrix::ldmatrix_fn;
use crate::dtype::Major;
use crate::emit::{basis_coord, basis_coord_expr, swizzle_expr};
use crate::error::Result;
use crate::piece::smem_tile::OperandTile;

/// The ldmatrix plan of one operand: per (block along mn, k16 step), the byte delta from the step's base
/// address when it is the same for every lane and warp (then one add), else `None` (full expression);
/// with [`AddressPlan::with_xor`], also the bits by which the address differs from the step's base when
/// they are the same for every lane and warp (then one xor: the swizzle is linear over xor).
///
/// ```
/// # use cute_gpu::{DType, Major, atom::sm80_mma, piece::{fragment::*, smem_tile::{TileShape, make_tile}}};
/// # let mma = sm80_mma(DType::F16).unwrap();
/// # let sa = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
/// # let a = make_tile(&mma, sa).unwrap();
/// # let b = make_tile(&mma, TileShape { name: "B", major: Major::MN, ..sa }).unwrap();
/// let p = AddressPlan::new(&a, 2, 2).unwrap(); // 2 blocks of 16 rows along m, 2 k16 steps
/// assert_eq!(p.address(0, 1), "a_ld[1] + 0");
/// ```
pub struct AddressPlan<'a> {
    tile: &'a OperandTile,
    deltas: Vec<Vec<Option<i64>>>,
    xors: Vec<Vec<Option<i64>>>,
}

/// Fragment loads and MMAs of one warp: `mi_n x ni_n` m16n8k16 atoms per k16 step.
///
/// ```
/// # use cute_gpu::{DType, Major, atom::sm80_mma, piece::{fragment::*, smem_tile::{TileShape, make_tile}}};
/// # let mma = sm80_mma(DType::F16).unwrap();
/// # let sa = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
/// # let a = make_tile(&mma, sa).unwrap();
/// # let b = make_tile(&mma, TileShape { name: "B", major: Major::MN, ..sa }).unwrap();
/// let w = WarpMma::new(&a, &b, (2, 4, 2)).unwrap(); // 2 x 4 m16n8k16 atoms per warp, 2 k16 steps
/// assert_eq!((w.mi_n, w.ni_n, w.ks_n), (2, 4, 2));
/// ```
pub struct WarpMma<'a> {
    plans: [AddressPlan<'a>; 2],
    /// Atoms along m per warp.
    pub mi_n: i64,
    /// Atoms along n per warp.
    pub ni_n: i64,
    /// k16 steps per stage.
    pub ks_n: i64,
}

impl AddressPlan<'_> {
    /// The plan of tile `t` for `blocks` 16-wide blocks along mn and `ks_n` k16 steps.
    ///
    /// ```
    /// # use cute_gpu::{DType, Major, atom::sm80_mma, piece::{fragment::*, smem_tile::{TileShape, make_tile}}};
    /// # let mma = sm80_mma(DType::F16).unwrap();
    /// # let sa = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
    /// # let a = make_tile(&mma, sa).unwrap();
    /// # let b = make_tile(&mma, TileShape { name: "B", major: Major::MN, ..sa }).unwrap();
    /// let p = AddressPlan::new(&a, 2, 2).unwrap();
    /// assert_eq!(p.address(1, 0), "a_ld[0] + 1024"); // 16 rows of 32 halves further: the swizzle keeps the delta
    /// ```
    pub fn new(t: &OperandTile, blocks: i64, ks_n: i64) -> Result<AddressPlan<'_>> {
        let per_warp = t.mn_tile / t.warps_along;
        let mut deltas = Vec::new();
        for blk in 0..blocks {
            let mut row = Vec::new();
            for ks in 0..ks_n {
                let mut seen = std::collections::BTreeSet::new();
                for w in 0..t.warps_along {
                    for l in 0..32 {
                        let cc = basis_coord(&t.lane_layout, l)?;
                        let mn = w * per_warp + cc[0];
                        let (r0, c0) = t.rc(mn, ks * 16 + cc[1]);
                        let (r1, c1) = t.rc(mn + blk * 16, ks * 16 + cc[1]);
                        seen.insert(
                            t.swizzle.apply_i64(r1 * t.cols + c1)
                                - t.swizzle.apply_i64(r0 * t.cols + c0),
                        );
                    }
                }
                row.push(match (seen.len(), seen.first()) {
                    (1, Some(d)) => Some(d * 2),
                    _ => None,
                });
            }
            deltas.push(row);
        }
        Ok(AddressPlan {
            tile: t,
            deltas,
            xors: Vec::new(),
        })
    }

    /// The byte offsets (relative to the tile) every lane and warp reads for block `blk` at step `ks`.
    fn lane_offsets(&self, blk: i64, ks: i64) -> Result<Vec<i64>> {
        let t = self.tile;
        let per_warp = t.mn_tile / t.warps_along;
        let mut out = Vec::new();
        for w in 0..t.warps_along {
            for l in 0..32 {
                let cc = basis_coord(&t.lane_layout, l)?;
                let (r, c) = t.rc(w * per_warp + cc[0] + blk * 16, ks * 16 + cc[1]);
                out.push(t.swizzle.apply_i64(r * t.cols + c) * 2);
            }
        }
        Ok(out)
    }

    /// The plan where blocks with no constant byte delta use a constant xor of the step's base address
    /// when there is one (checked for every lane and warp).
    ///
    /// ```
    /// # use cute_gpu::{DType, Major, atom::sm80_mma, piece::{fragment::*, smem_tile::{TileShape, make_tile}}};
    /// # let mma = sm80_mma(DType::F16).unwrap();
    /// # let sa = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
    /// # let a = make_tile(&mma, sa).unwrap();
    /// # let b = make_tile(&mma, TileShape { name: "B", major: Major::MN, ..sa }).unwrap();
    /// let p = AddressPlan::new(&b, 2, 2).unwrap().with_xor().unwrap();
    /// assert!(p.address(1, 0).starts_with("b_ld[0]") || p.address(1, 0).starts_with("(b_ld[0] ^"));
    /// ```
    pub fn with_xor(mut self) -> Result<Self> {
        let mut xors = Vec::new();
        for (blk, row) in self.deltas.iter().enumerate() {
            let mut xrow = Vec::new();
            for ks in 0..row.len() as i64 {
                let (base, this) = (
                    self.lane_offsets(0, ks)?,
                    self.lane_offsets(blk as i64, ks)?,
                );
                let seen: std::collections::BTreeSet<i64> =
                    base.iter().zip(&this).map(|(a, b)| a ^ b).collect();
                xrow.push(match (seen.len(), seen.first()) {
                    (1, Some(x)) => Some(*x),
                    _ => None,
                });
            }
            xors.push(xrow);
        }
        self.xors = xors;
        Ok(self)
    }

    /// Per-thread setup: the lane's (mn, k) from the lane layout plus the warp offset, and the swizzled
    /// byte address of each k16 step's first block.
    ///
    /// ```
    /// # use cute_gpu::{DType, Major, atom::sm80_mma, piece::{fragment::*, smem_tile::{TileShape, make_tile}}};
    /// # let mma = sm80_mma(DType::F16).unwrap();
    /// # let sa = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
    /// # let a = make_tile(&mma, sa).unwrap();
    /// # let b = make_tile(&mma, TileShape { name: "B", major: Major::MN, ..sa }).unwrap();
    /// let c = AddressPlan::new(&a, 2, 2).unwrap().setup("wm").unwrap();
    /// assert!(c.contains("const int a_lmn = wm * 64 + ") && c.contains("unsigned int a_ld[2];"));
    /// ```
    pub fn setup(&self, warp_var: &str) -> Result<String> {
        let t = self.tile;
        let low = t.prefix();
        let per_warp = t.mn_tile / t.warps_along;
        let mut c = format!(
            "  const int {low}_lmn = {warp_var} * {per_warp} + {}, {low}_lk = {};\n",
            basis_coord_expr(&t.lane_layout, "lane", 0)?,
            basis_coord_expr(&t.lane_layout, "lane", 1)?
        );
        let ks_n = self.deltas.first().map_or(0, |r| r.len());
        c += &format!("  unsigned int {low}_ld[{ks_n}];\n");
        for ks in 0..ks_n {
            c += &format!("  {low}_ld[{ks}] = {};\n", self.full_address(0, ks as i64));
        }
        Ok(c)
    }

    fn full_address(&self, blk: i64, ks: i64) -> String {
        let t = self.tile;
        let low = t.prefix();
        let (mn, k) = (
            if blk == 0 {
                format!("{low}_lmn")
            } else {
                format!("{low}_lmn + {}", blk * 16)
            },
            format!("{low}_lk + {}", ks * 16),
        );
        let (r, col) = match t.major {
            Major::K => (mn, k),
            Major::MN => (k, mn),
        };
        format!(
            "{} * 2",
            swizzle_expr(t.swizzle, &format!("({r}) * {} + {col}", t.cols))
        )
    }

    /// The byte address (relative to the stage's operand base) of block `blk` at k16 step `ks`.
    ///
    /// ```
    /// # use cute_gpu::{DType, Major, atom::sm80_mma, piece::{fragment::*, smem_tile::{TileShape, make_tile}}};
    /// # let mma = sm80_mma(DType::F16).unwrap();
    /// # let sa = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
    /// # let a = make_tile(&mma, sa).unwrap();
    /// # let b = make_tile(&mma, TileShape { name: "B", major: Major::MN, ..sa }).unwrap();
    /// let p = AddressPlan::new(&a, 2, 2).unwrap();
    /// assert_eq!(p.address(0, 0), "a_ld[0] + 0");
    /// ```
    pub fn address(&self, blk: i64, ks: i64) -> String {
        let xor = self.xors.get(blk as usize).and_then(|r| r[ks as usize]);
        match (self.deltas[blk as usize][ks as usize], xor) {
            (Some(d), _) => format!("{}_ld[{ks}] + {d}", self.tile.prefix()),
            (None, Some(x)) => format!("({}_ld[{ks}] ^ {x})", self.tile.prefix()),
            (None, None) => self.full_address(blk, ks),
        }
    }
}

impl WarpMma<'_> {
    /// The plan for tiles `a` and `b` with `(mi_n, ni_n)` atoms per warp and `ks_n` k16 steps per stage.
    ///
    /// ```
    /// # use cute_gpu::{DType, Major, atom::sm80_mma, piece::{fragment::*, smem_tile::{TileShape, make_tile}}};
    /// # let mma = sm80_mma(DType::F16).unwrap();
    /// # let sa = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
    /// # let a = make_tile(&mma, sa).unwrap();
    /// # let b = make_tile(&mma, TileShape { name: "B", major: Major::MN, ..sa }).unwrap();
    /// let w = WarpMma::new(&a, &b, (2, 8, 2)).unwrap();
    /// assert_eq!(w.ni_n / 2, 4); // B's ldmatrix.x4 loads two n8 atoms at a time
    /// ```
    pub fn new<'t>(
        a: &'t OperandTile,
        b: &'t OperandTile,
        (mi_n, ni_n, ks_n): (i64, i64, i64),
    ) -> Result<WarpMma<'t>> {
        Ok(WarpMma {
            plans: [
                AddressPlan::new(a, mi_n, ks_n)?,
                AddressPlan::new(b, ni_n / 2, ks_n)?,
            ],
            mi_n,
            ni_n,
            ks_n,
        })
    }

    /// Per-thread ldmatrix address setup and the zeroed accumulators.
    ///
    /// ```
    /// # use cute_gpu::{DType, Major, atom::sm80_mma, piece::{fragment::*, smem_tile::{TileShape, make_tile}}};
    /// # let mma = sm80_mma(DType::F16).unwrap();
    /// # let sa = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
    /// # let a = make_tile(&mma, sa).unwrap();
    /// # let b = make_tile(&mma, TileShape { name: "B", major: Major::MN, ..sa }).unwrap();
    /// let c = WarpMma::new(&a, &b, (2, 4, 2)).unwrap().setup().unwrap();
    /// assert!(c.contains("float acc[2][4][4];") && c.contains("a_ld[1] = ") && c.contains("b_ld[1] = "));
    /// ```
    pub fn setup(&self) -> Result<String> {
        let mut c = "  // ldmatrix addresses: lane -> (mn,k) by the lane layouts above, + warp offset, swizzled\n".to_string();
        c += &self.plans[0].setup("wm")?;
        c += &self.plans[1].setup("wn")?;
        let (mi_n, ni_n) = (self.mi_n, self.ni_n);
        c += &format!("  float acc[{mi_n}][{ni_n}][4];\n");
        c += &format!(
            "  #pragma unroll\n  for (int i = 0; i < {mi_n}; ++i)\n    #pragma unroll\n    for (int j = 0; j < {ni_n}; ++j)\n      #pragma unroll\n      for (int v = 0; v < 4; ++v) acc[i][j][v] = 0.f;\n"
        );
        Ok(c)
    }

    /// The ldmatrix calls filling fragment buffer `buf` for k16 step `ks` from stage bases `a`, `b`.
    ///
    /// ```
    /// # use cute_gpu::{DType, Major, atom::sm80_mma, piece::{fragment::*, smem_tile::{TileShape, make_tile}}};
    /// # let mma = sm80_mma(DType::F16).unwrap();
    /// # let sa = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
    /// # let a = make_tile(&mma, sa).unwrap();
    /// # let b = make_tile(&mma, TileShape { name: "B", major: Major::MN, ..sa }).unwrap();
    /// let c = WarpMma::new(&a, &b, (2, 4, 2)).unwrap().load_fragments(0, 1, "sa", "sb");
    /// assert!(c.contains("(af[0][1], sa + ") && c.contains("bf[0][3][1] = r[3];"));
    /// ```
    pub fn load_fragments(&self, buf: i64, ks: i64, a: &str, b: &str) -> String {
        let [pa, pb] = &self.plans;
        let (opa, opb) = (ldmatrix_fn(pa.tile.major), ldmatrix_fn(pb.tile.major));
        let mut t = String::new();
        for mi in 0..self.mi_n {
            t += &format!(
                "      {opa}(af[{buf}][{mi}], {a} + {});\n",
                pa.address(mi, ks)
            );
        }
        for nj in 0..self.ni_n / 2 {
            let (j0, j1) = (2 * nj, 2 * nj + 1);
            t += &format!(
                "      {{ unsigned int r[4]; {opb}(r, {b} + {}); bf[{buf}][{j0}][0] = r[0]; bf[{buf}][{j0}][1] = r[1]; bf[{buf}][{j1}][0] = r[2]; bf[{buf}][{j1}][1] = r[3]; }}\n",
                pb.address(nj, ks)
            );
        }
        t
    }

    /// The warp's (mi_n, ni_n) atoms of one k16 step, visited serpentine along n: row i runs j forward
    /// when i is even and backward when odd, so consecutive mmas share the A fragment within a row and the
    /// B fragment at each turn, and no two consecutive mmas write the same accumulator.
    ///
    /// ```
    /// # use cute_gpu::{DType, Major, atom::sm80_mma, piece::{fragment::*, smem_tile::{TileShape, make_tile}}};
    /// # let mma = sm80_mma(DType::F16).unwrap();
    /// # let sa = TileShape { name: "A", major: Major::K, mn_tile: 128, bk: 32, warps_along: 2, threads: 128 };
    /// # let a = make_tile(&mma, sa).unwrap();
    /// # let b = make_tile(&mma, TileShape { name: "B", major: Major::MN, ..sa }).unwrap();
    /// let c = WarpMma::new(&a, &b, (2, 4, 2)).unwrap().mma_block(1);
    /// assert!(c.contains("const int jj = (i & 1) ? 3 - j : j;") && c.contains("mma_16816(acc[i][jj], af[1][i], bf[1][jj]);"));
    /// ```
    pub fn mma_block(&self, buf: i64) -> String {
        format!(
            "      #pragma unroll\n      for (int i = 0; i < {}; ++i)\n        #pragma unroll\n        for (int j = 0; j < {}; ++j) {{\n          const int jj = (i & 1) ? {} - j : j;  // serpentine n\n          mma_16816(acc[i][jj], af[{buf}][i], bf[{buf}][jj]);\n        }}\n",
            self.mi_n,
            self.ni_n,
            self.ni_n - 1
        )
    }
}

/// Statements packing a thread's f32 accumulators `s[MI][NS][4]` (C fragments, `NS` n-atoms) into the A
/// operand registers `a[MI][NS/tiles][regs]` of the next MMA, by the register map of
/// [`crate::atom::accumulator_as_a`] (`tiles` consecutive C atoms along n form one A atom along k), with
/// the conversion function `pack(lo, hi)` (f32 pair -> f16x2/bf16x2).
///
/// ```
/// use cute_gpu::{atom::{accumulator_as_a, sm80_mma}, piece::fragment::accumulators_as_a, DType};
/// let map = accumulator_as_a(&sm80_mma(DType::BF16).unwrap()).unwrap();
/// let c = accumulators_as_a(&map, ("s", "p"), (1, 8), "pack_bf16");
/// assert!(c.contains("unsigned int p[1][4][4];"));
/// assert!(c.contains("p[mi][kk][3] = pack_bf16(s[mi][kk * 2 + 1][2], s[mi][kk * 2 + 1][3]);"));
/// ```
pub fn accumulators_as_a(
    map: &[[(i64, i64); 2]],
    (s, a): (&str, &str),
    (mi_n, ns): (i64, i64),
    pack: &str,
) -> String {
    let tiles = map.iter().flatten().map(|x| x.0).max().unwrap_or(0) + 1;
    let (ks, regs) = (ns / tiles, map.len());
    let mut c = format!(
        "    unsigned int {a}[{mi_n}][{ks}][{regs}];  // C fragments of {tiles} adjacent atoms = one A fragment (atom::accumulator_as_a)
    #pragma unroll
    for (int mi = 0; mi < {mi_n}; ++mi)
      #pragma unroll
      for (int kk = 0; kk < {ks}; ++kk) {{
"
    );
    for (r, [(t0, v0), (t1, v1)]) in map.iter().enumerate() {
        c += &format!(
            "        {a}[mi][kk][{r}] = {pack}({s}[mi][kk * {tiles} + {t0}][{v0}], {s}[mi][kk * {tiles} + {t1}][{v1}]);\n"
        );
    }
    c + "      }\n"
}
