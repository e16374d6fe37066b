//! The SM90 warp-specialized mainloop: a producer warp group whose one thread issues the TMA loads of each
//! k-block into a `stages`-deep ring of shared-memory stages (full/empty mbarrier pairs), and consumer warp
//! groups that wait for a stage, run the wgmmas of its k16 steps from shared-memory descriptors, keep one
//! k-block of wgmma in flight and release the stage. Cooperative (consumers split each tile's rows) or
//! ping-pong (consumers alternate whole tiles, ordered by named barriers).
//!
//! ```
//! use cute_gpu::{piece::{gmma_operand::gmma_operand, tma_mainloop::WarpSpecialized}, Major};
//! let (a, b) = (gmma_operand(Major::K, 128, 64, 16, "A").unwrap(), gmma_operand(Major::K, 256, 64, 16, "B").unwrap());
//! let ws = WarpSpecialized { operands: [&a, &b], tile: (128, 256, 64), stages: 3, consumers: 2, pingpong: false,
//!     group_m: 8, m_chunks: 1, consumer_a_bytes: 64 * 64 * 2, epi_bytes: 0, regs: (40, 232),
//!     coords: [["kb * 64".into(), "tm * 128".into()], ["kb * 64".into(), "tn * 256".into()]], elem_bytes: 2, promotion: None, batch: None };
//! assert!(ws.producer().contains("mbar_expect_tx(full_bar + 8 * s, 49152u);")); // (128 + 256) * 64 * 2 bytes
//! ```

use crate::arch::{mbarrier, sync, tma, wgmma};
use crate::piece::fp8_scaling::Promotion;
use crate::piece::gmma_operand::GmmaOperand;
use crate::piece::schedule::{batched_raster, grouped_raster, persistent_loop};

/// The pipeline of one CTA.
///
/// ```
/// # use cute_gpu::{piece::{gmma_operand::gmma_operand, tma_mainloop::WarpSpecialized}, Major};
/// # let (a, b) = (gmma_operand(Major::K, 128, 64, 16, "A").unwrap(), gmma_operand(Major::K, 128, 64, 16, "B").unwrap());
/// # let ws = WarpSpecialized { operands: [&a, &b], tile: (128, 128, 64), stages: 4, consumers: 2, pingpong: false,
/// #     group_m: 8, m_chunks: 1, consumer_a_bytes: 64 * 64 * 2, epi_bytes: 0, regs: (40, 232),
/// #     coords: [["kb * 64".into(), "tm * 128".into()], ["kb * 64".into(), "tn * 128".into()]], elem_bytes: 2, promotion: None, batch: None };
/// // 128x128x64 bf16 tiles, a 4-stage ring, two cooperative consumers of 64 rows each
/// assert!(ws.producer().contains("mbar_expect_tx(full_bar + 8 * s, 32768u);")); // (128 + 128) * 64 * 2 bytes
/// ```
pub struct WarpSpecialized<'a> {
    /// Operand stages of A and B.
    pub operands: [&'a GmmaOperand; 2],
    /// CTA tile (bm, bn, bk).
    pub tile: (i64, i64, i64),
    /// Stages of the ring.
    pub stages: u32,
    /// Consumer warp groups.
    pub consumers: u32,
    /// Consumers alternate whole tiles (ping-pong) instead of splitting rows.
    pub pingpong: bool,
    /// Tile rows per raster group.
    pub group_m: i64,
    /// 64-row chunks per consumer.
    pub m_chunks: i64,
    /// Byte offset of a consumer's rows in A's stage (cooperative).
    pub consumer_a_bytes: i64,
    /// Bytes of the epilogue staging boxes after the stages.
    pub epi_bytes: i64,
    /// Registers per thread after `setmaxnreg` (producer, consumers).
    pub regs: (u32, u32),
    /// TMA coordinates of a tile's box, innermost first, for A and B (C expressions of `tm`/`tn`, `kb`).
    pub coords: [[String; 2]; 2],
    /// A strided batch of `L` problems (the tiles run over `L * tiles_m * tiles_n`, `tb` is a tile's
    /// batch): whether A and B have a batch mode (a 3-D tensor map loaded at batch `tb`; `false`: one
    /// operand shared by every batch). `None`: one problem.
    pub batch: Option<[bool; 2]>,
    /// Bytes per operand element (2, or 1 for FP8).
    pub elem_bytes: i64,
    /// Block-scaled FP8: each k-block's wgmmas start from zero into `tmp`, then are promoted into `acc`.
    pub promotion: Option<Promotion<'a>>,
}

impl WarpSpecialized<'_> {
    fn stage_bytes(&self) -> i64 {
        let (bm, bn, bk) = self.tile;
        (bm + bn) * bk * self.elem_bytes
    }

    fn a_bytes(&self) -> i64 {
        self.tile.0 * self.tile.2 * self.elem_bytes
    }

    /// The wgmma's N: the tile's, or one promotion split's.
    fn mma_n(&self) -> i64 {
        self.promotion
            .as_ref()
            .map_or(self.tile.1, Promotion::split_n)
    }

    /// Shared-memory carve-up, barrier initialization, tensor-map prefetch and the tile counts.
    ///
    /// ```
    /// # use cute_gpu::{piece::{gmma_operand::gmma_operand, tma_mainloop::WarpSpecialized}, Major};
    /// # let (a, b) = (gmma_operand(Major::K, 128, 64, 16, "A").unwrap(), gmma_operand(Major::K, 128, 64, 16, "B").unwrap());
    /// # let ws = WarpSpecialized { operands: [&a, &b], tile: (128, 128, 64), stages: 4, consumers: 2, pingpong: false,
    /// #     group_m: 8, m_chunks: 1, consumer_a_bytes: 64 * 64 * 2, epi_bytes: 0, regs: (40, 232),
    /// #     coords: [["kb * 64".into(), "tm * 128".into()], ["kb * 64".into(), "tn * 128".into()]], elem_bytes: 2, promotion: None, batch: None };
    /// let c = ws.setup(&["tmA", "tmB"]);
    /// assert!(c.contains("for (int s = 0; s < 4; ++s) { mbar_init(full_bar + 8 * s, 1);") && c.contains("(u64)&tmB"));
    /// ```
    pub fn setup(&self, maps: &[&str]) -> String {
        let (stages, epi_bytes, stage_bytes) = (self.stages, self.epi_bytes, self.stage_bytes());
        let empty_count = if self.pingpong { 1 } else { self.consumers };
        // staged scales: the full barrier also counts the 32 lanes of the producer's scale warp
        let (full_count, scl) = match self.staged() {
            true => (
                33,
                format!(
                    "\n  const u32 scl = empty_bar + {stages}u * 8u;   // staged scales, one slot per stage"
                ),
            ),
            false => (1, String::new()),
        };
        let (bm, bn, bk) = self.tile;
        let prefetch: String = maps
            .iter()
            .map(|m| format!("    {}\n", tma::prefetch(m)))
            .collect();
        format!(
            r#"  extern __shared__ __align__(1024) unsigned char smem_raw[];
  // stages at a 1024-byte boundary (128-byte swizzle atoms repeat every 8 rows x 128 B)
  const u32 sbase = (smem_u32(smem_raw) + 1023u) & ~1023u;
  const u32 ebase = sbase + {stages}u * {stage_bytes}u;      // epilogue staging boxes ({epi_bytes} B)
  const u32 full_bar = ebase + {epi_bytes}u;   // TMA bytes landed (count 1 + tx)
  const u32 empty_bar = full_bar + {stages}u * 8u;            // consumers released the stage (count {empty_count}){scl}
  const int wg = threadIdx.x / 128, tid = threadIdx.x % 128;
  if (threadIdx.x == 0) {{
    for (int s = 0; s < {stages}; ++s) {{ mbar_init(full_bar + 8 * s, {full_count}); mbar_init(empty_bar + 8 * s, {empty_count}); }}
    {}
{prefetch}  }}
  __syncthreads();
  const int tiles_m = (M + {bm} - 1) / {bm}, tiles_n = (N + {bn} - 1) / {bn}, ktiles = (K + {bk} - 1) / {bk};
  {}
"#,
            mbarrier::INIT_FENCE,
            match self.batch {
                Some(_) =>
                    "const int tiles_mn = tiles_m * tiles_n, tiles = tiles_mn * L;   // L batches",
                None => "const int tiles = tiles_m * tiles_n;",
            }
        )
    }

    fn staged(&self) -> bool {
        self.promotion.as_ref().is_some_and(|p| p.staged)
    }

    /// The producer's second warp with staged scales: the same walk over tiles and k-blocks as the TMA
    /// thread, copying each k-block's scales into its stage's slot.
    fn scale_warp(&self) -> String {
        let Some(p) = self.promotion.as_ref().filter(|p| p.staged) else {
            return String::new();
        };
        format!(
            r#" else if (tid / 32 == 1) {{
      // the scale warp: each k-block's scales into its stage's slot (cp.async, counted by the full barrier)
      const int lane = tid % 32;
      u32 it = 0;
      {} {{
{}        for (int kb = 0; kb < ktiles; ++kb, ++it) {{
          const u32 s = it % {stages}u, phase = (it / {stages}u) & 1u;
          mbar_wait(empty_bar + 8 * s, phase ^ 1u);
{}        }}
      }}
    }}"#,
            persistent_loop("blockIdx.x", "gridDim.x"),
            self.raster("        "),
            p.stage_scales(),
            stages = self.stages,
        )
    }

    /// Tile `t` -> (`tm`, `tn`) (and its batch `tb` when batched).
    fn raster(&self, indent: &str) -> String {
        match self.batch {
            Some(_) => batched_raster(indent, "t", self.group_m, ("tm", "tn"), "tb"),
            None => grouped_raster(indent, "t", self.group_m, ("tm", "tn")),
        }
    }

    fn loads(&self) -> String {
        let mut l = String::new();
        for (i, (sx, tmx)) in [("sa", "tmA"), ("sb", "tmB")].into_iter().enumerate() {
            let [c0, c1] = &self.coords[i];
            for &(off, mn) in &self.operands[i].boxes {
                let (c0, c1) = match self.operands[i].tnsp {
                    0 => (c0.clone(), c1.clone()),
                    _ => (format!("{c0} + {mn}"), c1.clone()),
                };
                l += &match self.batch {
                    Some(b) if b[i] => format!(
                        "          tma_load_3d({sx} + {off}u, &{tmx}, full_bar + 8 * s, {c0}, {c1}, tb);   // TMA {{{c0}, {c1}, tb}}\n"
                    ),
                    _ => format!(
                        "          tma_load_2d({sx} + {off}u, &{tmx}, full_bar + 8 * s, {c0}, {c1});   // TMA {{{c0}, {c1}}}\n"
                    ),
                };
            }
        }
        l
    }

    /// The producer warp group: one thread walks the CTA's tiles and k-blocks, waits for a free stage and
    /// issues its TMA loads.
    ///
    /// ```
    /// # use cute_gpu::{piece::{gmma_operand::gmma_operand, tma_mainloop::WarpSpecialized}, Major};
    /// # let (a, b) = (gmma_operand(Major::K, 128, 64, 16, "A").unwrap(), gmma_operand(Major::K, 128, 64, 16, "B").unwrap());
    /// # let ws = WarpSpecialized { operands: [&a, &b], tile: (128, 128, 64), stages: 4, consumers: 2, pingpong: false,
    /// #     group_m: 8, m_chunks: 1, consumer_a_bytes: 64 * 64 * 2, epi_bytes: 0, regs: (40, 232),
    /// #     coords: [["kb * 64".into(), "tm * 128".into()], ["kb * 64".into(), "tn * 128".into()]], elem_bytes: 2, promotion: None, batch: None };
    /// let c = ws.producer();
    /// assert!(c.contains("setmaxnreg.dec.sync.aligned.u32 40;") && c.contains("tma_load_2d("));
    /// ```
    pub fn producer(&self) -> String {
        let (stages, stage_bytes, a_bytes) = (self.stages, self.stage_bytes(), self.a_bytes());
        format!(
            r#"  if (wg == 0) {{
    // producer warp group: one thread issues the TMA loads
    {}
    if (tid == 0) {{
      u32 it = 0;
      {} {{
        // raster: groups of {} tile rows
{}        for (int kb = 0; kb < ktiles; ++kb, ++it) {{
          const u32 s = it % {stages}u, phase = (it / {stages}u) & 1u;
          mbar_wait(empty_bar + 8 * s, phase ^ 1u);
          mbar_expect_tx(full_bar + 8 * s, {stage_bytes}u);   // whole boxes count, out-of-bounds parts zero-filled
          const u32 sa = sbase + s * {stage_bytes}u, sb = sa + {a_bytes}u;
{}        }}
      }}
    }}{}
"#,
            sync::setmaxnreg(false, self.regs.0),
            persistent_loop("blockIdx.x", "gridDim.x"),
            self.group_m,
            self.raster("        "),
            self.loads(),
            self.scale_warp()
        )
    }

    /// The wgmmas of one k-block: for each K step of the instruction and 64-row chunk, descriptors advanced
    /// by the stage layout's offsets.
    /// `b_rows`: the first B row (N) of the wgmmas (a promotion split's).
    fn wgmmas(&self, target: &str, accumulate: &str, b_rows: i64) -> String {
        let [a, b] = self.operands;
        let (m_chunks, bk) = (self.m_chunks, self.tile.2);
        let b_off = match b.mn64 * b_rows / 64 {
            0 => String::new(),
            bytes => format!("{bytes}u + "),
        };
        format!(
            r#"#pragma unroll
        for (int c = 0; c < {m_chunks}; ++c) fence_acc({target}[c]);
        {}
#pragma unroll
        for (int k = 0; k < {}; ++k) {{
#pragma unroll
          for (int c = 0; c < {m_chunks}; ++c)
            wgmma_m64n{}k{}({target}[c], smem_desc_a(sa + c * {}u + k * {}u), smem_desc_b(sb + {b_off}k * {}u){accumulate});
        }}
        {}
"#,
            wgmma::FENCE,
            bk / a.mma_k,
            self.mma_n(),
            a.mma_k,
            a.mn64,
            a.k_step,
            b.k_step,
            wgmma::COMMIT,
        )
    }

    /// One k-block keeping one k-block of wgmma in flight; the stage of the previous one is released.
    fn k_block(&self) -> String {
        format!(
            r#"{}#pragma unroll
        for (int c = 0; c < {}; ++c) fence_acc(acc[c]);
        // keep one k-block of wgmma in flight; the previous one has finished reading its stage
        {}
        if (kb > 0 && tid == 0) mbar_arrive(empty_bar + 8 * prev);
        prev = s;
"#,
            self.wgmmas("acc", "", 0),
            self.m_chunks,
            wgmma::wait(1)
        )
    }

    /// One block-scaled k-block: per column split, the wgmmas into `tmp` from zero (the first split with
    /// the next k-block's scale loads behind it), the wait, and the promotion into `acc`; the stage is
    /// released after the last split's wgmmas.
    fn k_block_promoted(&self, p: &Promotion) -> String {
        let mut c = String::new();
        for s in 0..p.splits() {
            c += &self.wgmmas("tmp", ", k > 0", s * p.split_n());
            if s == 0 {
                c += &p.scales();
            }
            c += &format!(
                "        {}\n#pragma unroll\n        for (int c = 0; c < {}; ++c) fence_acc(tmp[c]);\n",
                wgmma::wait(0),
                self.m_chunks
            );
            if s + 1 == p.splits() {
                c += "        if (tid == 0) mbar_arrive(empty_bar + 8 * s);   // the stage is read: release it\n";
            }
            c += &p.promote(s);
        }
        c
    }

    /// The consumer warp groups: for each tile, zero the accumulators, run the k-blocks, release the
    /// stages, then `epilogue`; `drain` runs once after the last tile.
    ///
    /// ```
    /// # use cute_gpu::{piece::{gmma_operand::gmma_operand, tma_mainloop::WarpSpecialized}, Major};
    /// # let (a, b) = (gmma_operand(Major::K, 128, 64, 16, "A").unwrap(), gmma_operand(Major::K, 128, 64, 16, "B").unwrap());
    /// # let ws = WarpSpecialized { operands: [&a, &b], tile: (128, 128, 64), stages: 4, consumers: 2, pingpong: false,
    /// #     group_m: 8, m_chunks: 1, consumer_a_bytes: 64 * 64 * 2, epi_bytes: 0, regs: (40, 232),
    /// #     coords: [["kb * 64".into(), "tm * 128".into()], ["kb * 64".into(), "tn * 128".into()]], elem_bytes: 2, promotion: None, batch: None };
    /// let c = ws.consumer("", "    // epilogue\n", "");
    /// assert!(c.contains("setmaxnreg.inc.sync.aligned.u32 232;") && c.contains("mbar_wait(full_bar + 8 * s, phase);"));
    /// assert!(c.contains("// epilogue"));
    /// ```
    pub fn consumer(&self, doc: &str, epilogue: &str, drain: &str) -> String {
        let (stages, stage_bytes, a_bytes) = (self.stages, self.stage_bytes(), self.a_bytes());
        let (m_chunks, nacc) = (self.m_chunks, self.tile.1 / 2);
        let (first, step, cw_off, pp_wait, pp_arrive) = if self.pingpong {
            (
                "blockIdx.x + cw * gridDim.x",
                "2 * gridDim.x",
                String::new(),
                format!(
                    "\n      // ping-pong order: this mainloop starts after the other consumer's mainloop of the previous tile\n      // (named barrier 1: consumer 0 -> 1, 2: consumer 1 -> 0), so the full-barrier phases waited on are the next ones\n      if (cw == 1 || t != (int)blockIdx.x) {}",
                    sync::named_barrier_sync("cw == 0 ? 2 : 1", 256)
                ),
                format!(
                    "\n      if (t + (int)gridDim.x < tiles) {}",
                    sync::named_barrier_arrive("cw == 0 ? 1 : 2", 256)
                ),
            )
        } else {
            (
                "blockIdx.x",
                "gridDim.x",
                format!(" + cw * {}u", self.consumer_a_bytes),
                String::new(),
                String::new(),
            )
        };
        let prev_decl = match &self.promotion {
            Some(p) => p.prologue(),
            None => "u32 prev = 0;".to_string(),
        };
        let (body, tail, tmp_decl) = match &self.promotion {
            Some(p) => (
                self.k_block_promoted(p),
                String::new(),
                format!(
                    "\n    float tmp[{m_chunks}][{}];   // one split's product of one k-block, before promotion",
                    p.split_n() / 2
                ),
            ),
            None => (
                self.k_block(),
                format!(
                    "      {}\n#pragma unroll\n      for (int c = 0; c < {m_chunks}; ++c) fence_acc(acc[c]);\n      if (tid == 0) mbar_arrive(empty_bar + 8 * prev);",
                    wgmma::wait(0)
                ),
                String::new(),
            ),
        };
        format!(
            r#"  }} else {{
    {}
    const int cw = wg - 1;   // {doc}
    float acc[{m_chunks}][{nacc}];{tmp_decl}
    u32 eb = 0;   // epilogue boxes stored by this consumer (staging buffer eb % 2)
    (void)eb;
    {} {{
      u32 it = (u32)((t - blockIdx.x) / gridDim.x) * (u32)ktiles;   // k-blocks the producer loaded before this tile
{}#pragma unroll
      for (int c = 0; c < {m_chunks}; ++c)
#pragma unroll
        for (int i = 0; i < {nacc}; ++i) acc[c][i] = 0.0f;
      {prev_decl}{pp_wait}
      for (int kb = 0; kb < ktiles; ++kb, ++it) {{
        const u32 s = it % {stages}u, phase = (it / {stages}u) & 1u;
        mbar_wait(full_bar + 8 * s, phase);
        const u32 sa = sbase + s * {stage_bytes}u{cw_off}, sb = sbase + s * {stage_bytes}u + {a_bytes}u;
{}      }}
{}{pp_arrive}
{epilogue}    }}{drain}
  }}
"#,
            sync::setmaxnreg(true, self.regs.1),
            persistent_loop(first, step),
            self.raster("      "),
            body,
            tail,
        )
    }
}
