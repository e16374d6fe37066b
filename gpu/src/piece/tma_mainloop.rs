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
//!     coords: [["kb * 64".into(), "tm * 128".into()], ["kb * 64".into(), "tn * 256".into()]], elem_bytes: 2, promotion: None, batch: None, cluster: 1, broadcast_wg: false, stream_k: 0, raster_n: false, chain_k: false, probe_ahead: false };
//! assert!(ws.producer().contains("mbar_expect_tx(full_bar + 8 * s, 49152u);")); // (128 + 256) * 64 * 2 bytes
//! ```

use crate::arch::{cluster, mbarrier, sync, tma, wgmma};
use crate::piece::fp8_scaling::Promotion;
use crate::piece::gmma_operand::GmmaOperand;
use crate::piece::schedule::{batched_raster, grouped_raster_over, persistent_loop};
use crate::piece::stream_k;

/// The pipeline of one CTA.
///
/// ```
/// # use cute_gpu::{piece::{gmma_operand::gmma_operand, tma_mainloop::WarpSpecialized}, Major};
/// # let (a, b) = (gmma_operand(Major::K, 128, 64, 16, "A").unwrap(), gmma_operand(Major::K, 128, 64, 16, "B").unwrap());
/// # let ws = WarpSpecialized { operands: [&a, &b], tile: (128, 128, 64), stages: 4, consumers: 2, pingpong: false,
/// #     group_m: 8, m_chunks: 1, consumer_a_bytes: 64 * 64 * 2, epi_bytes: 0, regs: (40, 232),
/// #     coords: [["kb * 64".into(), "tm * 128".into()], ["kb * 64".into(), "tn * 128".into()]], elem_bytes: 2, promotion: None, batch: None, cluster: 1, broadcast_wg: false, stream_k: 0, raster_n: false, chain_k: false, probe_ahead: false };
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
    /// CTAs per thread-block cluster (1: none). A cluster of `n` computes `n` vertically adjacent tiles
    /// (the same B tile): each CTA loads its own A and the B boxes `j` with `j % n` = its rank, multicast
    /// to every CTA of the cluster, and a stage is free only once every CTA's consumers released it.
    pub cluster: i64,
    /// The warp group index broadcast from lane 0 ([`crate::arch::sync::warp_group_index`]).
    pub broadcast_wg: bool,
    /// Stream-K ([`crate::piece::stream_k`]) for at most this many CTAs (the workspace's slots; 0: one
    /// whole tile at a time; in clusters, the clusters are its units). Cooperative consumers, no
    /// promotion.
    pub stream_k: i64,
    /// The raster walks groups of tile columns row by row ([`grouped_raster_over`] along N): consecutive
    /// tiles (clusters) read the same A rows.
    pub raster_n: bool,
    /// A k-block's wgmmas chunk by chunk (each 64-row chunk's K steps back to back, chaining its
    /// accumulators) instead of K step by K step across the chunks.
    pub chain_k: bool,
    /// The next k-block's stage probed (`mbar_test`, which does not block) once this k-block's wgmmas
    /// are committed, before the previous ones are waited for, so that the next k-block starts without
    /// waiting on the probe's latency when its stage is already full (cuBLASLt's kernels do this).
    /// Plain k-blocks only (not block-scaled).
    pub probe_ahead: bool,
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

    /// Shared-memory carve-up, barrier initialization, tensor-map prefetch and the tile counts, then the
    /// wait for the grid before this one in the stream (`griddepcontrol.wait`: no global memory before it;
    /// the producer lets the next grid launch once it has issued its last load).
    ///
    /// ```
    /// # use cute_gpu::{piece::{gmma_operand::gmma_operand, tma_mainloop::WarpSpecialized}, Major};
    /// # let (a, b) = (gmma_operand(Major::K, 128, 64, 16, "A").unwrap(), gmma_operand(Major::K, 128, 64, 16, "B").unwrap());
    /// # let ws = WarpSpecialized { operands: [&a, &b], tile: (128, 128, 64), stages: 4, consumers: 2, pingpong: false,
    /// #     group_m: 8, m_chunks: 1, consumer_a_bytes: 64 * 64 * 2, epi_bytes: 0, regs: (40, 232),
    /// #     coords: [["kb * 64".into(), "tm * 128".into()], ["kb * 64".into(), "tn * 128".into()]], elem_bytes: 2, promotion: None, batch: None, cluster: 1, broadcast_wg: false, stream_k: 0, raster_n: false, chain_k: false, probe_ahead: false };
    /// let c = ws.setup(&["tmA", "tmB"]);
    /// assert!(c.contains("for (int s = 0; s < 4; ++s) { mbar_init(full_bar + 8 * s, 1);") && c.contains("(u64)&tmB"));
    /// ```
    pub fn setup(&self, maps: &[&str]) -> String {
        let (stages, epi_bytes, stage_bytes) = (self.stages, self.epi_bytes, self.stage_bytes());
        let empty_count = if self.pingpong { 1 } else { self.consumers } * self.cluster as u32;
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
        let warp_group = crate::arch::sync::warp_group_index(self.broadcast_wg);
        format!(
            r#"  extern __shared__ __align__(1024) unsigned char smem_raw[];
  // stages at a 1024-byte boundary (128-byte swizzle atoms repeat every 8 rows x 128 B)
  const u32 sbase = (smem_u32(smem_raw) + 1023u) & ~1023u;
  const u32 ebase = sbase + {stages}u * {stage_bytes}u;      // epilogue staging boxes ({epi_bytes} B)
  const u32 full_bar = ebase + {epi_bytes}u;   // TMA bytes landed (count 1 + tx)
  const u32 empty_bar = full_bar + {stages}u * 8u;            // consumers released the stage (count {empty_count}){scl}
{warp_group}  if (threadIdx.x == 0) {{
    for (int s = 0; s < {stages}; ++s) {{ mbar_init(full_bar + 8 * s, {full_count}); mbar_init(empty_bar + 8 * s, {empty_count}); }}
    {}
{prefetch}  }}
  {}
  const int tiles_m = (M + {bm} - 1) / {bm}, tiles_n = (N + {bn} - 1) / {bn}, ktiles = (K + {bk} - 1) / {bk};
{}  {}
  {}   // global memory only once the grid before this one in the stream is done (dependent launch)
"#,
            mbarrier::INIT_FENCE,
            match self.cluster {
                1 => "__syncthreads();".to_string(),
                _ => format!(
                    "{}   // the cluster's barriers initialized",
                    cluster::cluster_sync()
                ),
            },
            self.cluster_ids(),
            match self.batch {
                Some(_) => format!(
                    "const int tiles_mn = {} * tiles_n, tiles = tiles_mn * L;   // L batches",
                    self.tile_rows()
                ),
                None => format!("const int tiles = {} * tiles_n;", self.tile_rows()),
            },
            sync::GRID_DEPENDENCY_WAIT
        ) + &self.share()
    }

    /// The CTA's (or cluster's) index among `ctas` persistent CTAs (or clusters), and its rank `crank`
    /// in its cluster.
    fn cluster_ids(&self) -> String {
        match self.cluster {
            1 if self.stream_k > 0 => "  const int cta = blockIdx.x;   // `ctas`: the stream-K share's\n".into(),
            1 => "  const int cta = blockIdx.x, ctas = gridDim.x;\n".into(),
            n => [
                format!("// clusters of {n} CTAs: cluster `cta` of `ctas` takes tiles of {n} tile rows, this CTA row `crank` of each"),
                match self.stream_k {
                    0 => format!("const int cta = blockIdx.x / {n}, ctas = gridDim.x / {n};"),
                    _ => format!("const int cta = blockIdx.x / {n};   // `ctas`: the stream-K share's"),
                },
                format!("const u32 crank = blockIdx.x % {n};"),
                format!("const int cluster_rows = (tiles_m + {}) / {n};", n - 1),
            ]
            .map(|l| format!("  {l}\n"))
            .concat(),
        }
    }

    /// The rows of (cluster) tiles the schedule runs over.
    fn tile_rows(&self) -> &'static str {
        match self.cluster {
            1 => "tiles_m",
            _ => "cluster_rows",
        }
    }

    /// Stream-K: this CTA's share of the k-block iterations (after the tile counts).
    fn share(&self) -> String {
        match self.stream_k {
            0 => String::new(),
            slots => stream_k::share(slots, self.cluster),
        }
    }

    /// The loop over the CTA's tiles, opened (`t` the tile): persistent from `first` by `step`, or the
    /// stream-K share's segments (each tile `t`'s k-blocks `[kb0, kb1)`).
    fn tile_loop(&self, first: &str, step: &str, indent: &str) -> String {
        match self.stream_k {
            0 => persistent_loop(first, step) + " {\n",
            _ => stream_k::segment_loop(indent),
        }
    }

    /// The first and the end k-block of a tile's loop.
    fn k_range(&self) -> (&'static str, &'static str) {
        match self.stream_k {
            0 => ("0", "ktiles"),
            _ => ("kb0", "kb1"),
        }
    }

    /// What every thread runs before the kernel returns: with a cluster, a cluster barrier, so that no
    /// CTA exits while another may still arrive on its mbarriers.
    ///
    /// ```
    /// # use cute_gpu::{piece::{gmma_operand::gmma_operand, tma_mainloop::WarpSpecialized}, Major};
    /// # let (a, b) = (gmma_operand(Major::K, 128, 64, 16, "A").unwrap(), gmma_operand(Major::K, 256, 64, 16, "B").unwrap());
    /// # let b = b.split_boxes(2).unwrap();
    /// # let ws = WarpSpecialized { operands: [&a, &b], tile: (128, 256, 64), stages: 4, consumers: 2, pingpong: false,
    /// #     group_m: 8, m_chunks: 1, consumer_a_bytes: 64 * 64 * 2, epi_bytes: 0, regs: (40, 232),
    /// #     coords: [["kb * 64".into(), "tm * 128".into()], ["kb * 64".into(), "tn * 256".into()]], elem_bytes: 2, promotion: None, batch: None, cluster: 2, broadcast_wg: false, stream_k: 0, raster_n: false, chain_k: false, probe_ahead: false };
    /// assert!(ws.teardown().contains("barrier.cluster.wait"));
    /// // the second B box (rows 128..256) is rank 1's, multicast to both CTAs
    /// assert!(ws.producer().contains("if (crank == 1u) tma_load_2d_mc(sb + 16384u, &tmB, full_bar + 8 * s, kb * 64, tn * 256 + 128, 3);"));
    /// assert!(ws.consumer("", "", "").contains("mbar_arrive_cluster(empty_bar + 8 * prev, tid)"));
    /// ```
    pub fn teardown(&self) -> String {
        match self.cluster {
            1 => String::new(),
            _ => format!(
                "  {}   // peers done with this CTA's barriers\n",
                cluster::cluster_sync()
            ),
        }
    }

    /// Releases stage `stage` (a C expression) when `when`: one arrival per consumer on the empty barrier
    /// of every CTA of the cluster (lanes `0..cluster` arrive on CTA `tid`'s).
    fn release(&self, when: &str, stage: &str) -> String {
        match self.cluster {
            1 => format!("if ({when}tid == 0) mbar_arrive(empty_bar + 8 * {stage});"),
            n => format!("if ({when}tid < {n}) mbar_arrive_cluster(empty_bar + 8 * {stage}, tid);"),
        }
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
            persistent_loop("cta", "ctas"),
            self.raster("        "),
            p.stage_scales(),
            stages = self.stages,
        )
    }

    /// Tile `t` -> (`tm`, `tn`) (and its batch `tb` when batched).
    fn raster(&self, indent: &str) -> String {
        let (rows, n) = (self.tile_rows(), self.cluster);
        let tm = if n == 1 { "tm" } else { "tcm" };
        let r = match self.batch {
            Some(_) => batched_raster(
                indent,
                "t",
                self.group_m,
                (tm, "tn"),
                "tb",
                rows,
                self.raster_n,
            ),
            None => grouped_raster_over(indent, "t", self.group_m, (tm, "tn"), rows, self.raster_n),
        };
        match n {
            1 => r,
            _ => {
                r + &format!(
                    "{indent}const int tm = tcm * {n} + (int)crank;   // this CTA's row of the cluster tile\n"
                )
            }
        }
    }

    fn loads(&self) -> String {
        let mut l = String::new();
        for (i, (sx, tmx)) in [("sa", "tmA"), ("sb", "tmB")].into_iter().enumerate() {
            let [c0, c1] = &self.coords[i];
            let multicast = i == 1 && self.cluster > 1;
            for (j, &(off, mn)) in self.operands[i].boxes.iter().enumerate() {
                let (c0, c1) = match (self.operands[i].tnsp, mn) {
                    (_, 0) => (c0.clone(), c1.clone()),
                    (0, _) => (c0.clone(), format!("{c1} + {mn}")),
                    _ => (format!("{c0} + {mn}"), c1.clone()),
                };
                let batched = matches!(self.batch, Some(b) if b[i]);
                let (dims, tb) = if batched { (3, ", tb") } else { (2, "") };
                l += &if multicast {
                    format!(
                        "          if (crank == {}u) tma_load_{dims}d_mc({sx} + {off}u, &{tmx}, full_bar + 8 * s, {c0}, {c1}{tb}, {});   // TMA {{{c0}, {c1}{tb}}} to the cluster\n",
                        j as i64 % self.cluster,
                        (1 << self.cluster) - 1
                    )
                } else {
                    format!(
                        "          tma_load_{dims}d({sx} + {off}u, &{tmx}, full_bar + 8 * s, {c0}, {c1}{tb});   // TMA {{{c0}, {c1}{tb}}}\n"
                    )
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
    /// #     coords: [["kb * 64".into(), "tm * 128".into()], ["kb * 64".into(), "tn * 128".into()]], elem_bytes: 2, promotion: None, batch: None, cluster: 1, broadcast_wg: false, stream_k: 0, raster_n: false, chain_k: false, probe_ahead: false };
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
      {}        // raster: groups of {} tile rows
{}        for (int kb = {kb0}; kb < {kb1}; ++kb, ++it) {{
          const u32 s = it % {stages}u, phase = (it / {stages}u) & 1u;
          mbar_wait(empty_bar + 8 * s, phase ^ 1u);
          mbar_expect_tx(full_bar + 8 * s, {stage_bytes}u);   // whole boxes count, out-of-bounds parts zero-filled
          const u32 sa = sbase + s * {stage_bytes}u, sb = sa + {a_bytes}u;
{}        }}
      }}
      {}   // every load issued: the next grid in the stream may launch (its own wait holds it)
    }}{}
"#,
            sync::setmaxnreg(false, self.regs.0),
            self.tile_loop("cta", "ctas", "        "),
            self.group_m,
            self.raster("        "),
            self.loads(),
            sync::LAUNCH_DEPENDENTS,
            self.scale_warp(),
            kb0 = self.k_range().0,
            kb1 = self.k_range().1,
        )
    }

    /// The wgmmas of one k-block: for each K step of the instruction and 64-row chunk, descriptors advanced
    /// by the stage layout's offsets. The descriptors are built once from the stage's base addresses and
    /// advanced in their 16-byte address field (`(c * a_chunk + k * a_step) >> 4`, constants once
    /// unrolled; shared addresses stay below 2^18, so the field never carries), not rebuilt per wgmma.
    /// `b_rows`: the first B row (N) of the wgmmas (a promotion split's).
    fn wgmmas(&self, target: &str, accumulate: &str, b_rows: i64) -> String {
        let [a, b] = self.operands;
        let (m_chunks, bk) = (self.m_chunks, self.tile.2);
        let b_off = match b.mn64 * b_rows / 64 {
            0 => String::new(),
            bytes => format!(" + {bytes}u"),
        };
        let (k_loop, c_loop) = (
            format!("k = 0; k < {}; ++k", bk / a.mma_k),
            format!("c = 0; c < {m_chunks}; ++c"),
        );
        let (outer, inner) = match self.chain_k {
            true => (c_loop, k_loop),
            false => (k_loop, c_loop),
        };
        format!(
            r#"#pragma unroll
        for (int c = 0; c < {m_chunks}; ++c) fence_acc({target}[c]);
        {}
        {{
          const u64 da = smem_desc_a(sa), db = smem_desc_b(sb{b_off});
#pragma unroll
          for (int {outer}) {{
#pragma unroll
            for (int {inner})
              wgmma_m64n{}k{}({target}[c], da + (u64)((c * {}u + k * {}u) >> 4), db + (u64)((k * {}u) >> 4){accumulate});
          }}
        }}
        {}
"#,
            wgmma::FENCE,
            self.mma_n(),
            a.mma_k,
            a.mn64,
            a.k_step,
            b.k_step,
            wgmma::COMMIT,
        )
    }

    /// One k-block keeping one k-block of wgmma in flight; the stage of the previous one is released.
    /// `handoff` (ping-pong: the turn passed to the other consumer, if it has a next tile) runs when the
    /// last k-block's wgmmas are committed, before the previous k-block's are waited for.
    fn k_block(&self, handoff: Option<&str>) -> String {
        let handoff = match handoff {
            Some(arrive) => format!(
                "        if (kb == {} - 1 && t + ctas < tiles) {arrive}\n",
                self.k_range().1
            ),
            None => String::new(),
        };
        let (stages, kb1) = (self.stages, self.k_range().1);
        let probe = match self.probe_ahead {
            true => format!(
                "        // the next k-block's stage, probed while this one's wgmmas run
        ready = kb + 1 < {kb1} && mbar_test(full_bar + 8 * ((it + 1u) % {stages}u), ((it + 1u) / {stages}u) & 1u);
"
            ),
            false => String::new(),
        };
        format!(
            r#"{}#pragma unroll
        for (int c = 0; c < {}; ++c) fence_acc(acc[c]);
{handoff}{probe}        // keep one k-block of wgmma in flight; the previous one has finished reading its stage
        {}
        {}
        prev = s;
"#,
            self.wgmmas("acc", "", 0),
            self.m_chunks,
            wgmma::wait(1),
            self.release(&format!("kb > {} && ", self.k_range().0), "prev")
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
                c += &format!(
                    "        {}   // the stage is read: release it\n",
                    self.release("", "s")
                );
            }
            c += &p.promote(s, "tmp");
        }
        c
    }

    /// Block-scaled k-blocks with two product buffers: k-block `kb + 1`'s wgmmas are issued into one
    /// buffer before k-block `kb`'s product in the other is promoted, so the tensor core works on the next
    /// k-block during the promotion (`wgmma.wait_group 1`: only the older group must be done). The loop
    /// runs two k-blocks per turn so that each buffer's registers are named statically, and leaves only
    /// once nothing is in flight: no branch joins a path where a buffer is being written with one where it
    /// is not (ptxas would serialize every wgmma).
    fn k_blocks_overlapped(&self, p: &Promotion) -> String {
        let (stages, m_chunks) = (self.stages, self.m_chunks);
        // k-block `kb + j` is the ring's `it + j`-th (`it` counts this tile's k-blocks before `kb`)
        let issue = |j: i64, target: &str| {
            format!(
                r#"{{   // k-block kb + {j}: wait for its stage, issue its wgmmas into {target}
          const u32 s = (it + {j}) % {stages}u, phase = ((it + {j}) / {stages}u) & 1u;
          mbar_wait(full_bar + 8 * s, phase);
          {}
        {}        }}"#,
                self.stage_operands(),
                self.wgmmas(target, ", k > 0", 0)
            )
        };
        let finish = |j: i64, cur: &str| {
            format!(
                r#"#pragma unroll
        for (int c = 0; c < {m_chunks}; ++c) fence_acc({cur}[c]);
        {{   // k-block kb + {j} is done: its scales, its stage released, its product promoted
          const u32 s = (it + {j}) % {stages}u;
  {}          {}
{}        }}
"#,
                p.scales(),
                self.release("", "s"),
                p.promote(0, cur),
            )
        };
        let half = |j: i64, cur: &str, next: &str| {
            format!(
                r#"        if (kb + {n} >= ktiles) {{   // k-block kb + {j} is the tile's last
        {}
{}        break;
        }}
        {}
        {}
{}"#,
                wgmma::wait(0),
                finish(j, cur),
                issue(j + 1, next),
                wgmma::wait(1),
                finish(j, cur),
                n = j + 1,
            )
        };
        format!(
            r#"      {}
      for (int kb = 0;; kb += 2, it += 2) {{
{}{}      }}
"#,
            issue(0, "tmp0"),
            half(0, "tmp0", "tmp1"),
            half(1, "tmp1", "tmp0"),
        )
    }

    /// The shared-memory addresses of stage `s`'s A rows of this consumer (`sa`) and B (`sb`).
    fn stage_operands(&self) -> String {
        let cw_off = if self.pingpong {
            String::new()
        } else {
            format!(" + cw * {}u", self.consumer_a_bytes)
        };
        format!(
            "const u32 sa = sbase + s * {0}u{cw_off}, sb = sbase + s * {0}u + {1}u;",
            self.stage_bytes(),
            self.a_bytes()
        )
    }

    /// The consumer warp groups: for each tile, zero the accumulators, run the k-blocks, release the
    /// stages, then `epilogue`; `drain` runs once after the last tile.
    ///
    /// ```
    /// # use cute_gpu::{piece::{gmma_operand::gmma_operand, tma_mainloop::WarpSpecialized}, Major};
    /// # let (a, b) = (gmma_operand(Major::K, 128, 64, 16, "A").unwrap(), gmma_operand(Major::K, 128, 64, 16, "B").unwrap());
    /// # let ws = WarpSpecialized { operands: [&a, &b], tile: (128, 128, 64), stages: 4, consumers: 2, pingpong: false,
    /// #     group_m: 8, m_chunks: 1, consumer_a_bytes: 64 * 64 * 2, epi_bytes: 0, regs: (40, 232),
    /// #     coords: [["kb * 64".into(), "tm * 128".into()], ["kb * 64".into(), "tn * 128".into()]], elem_bytes: 2, promotion: None, batch: None, cluster: 1, broadcast_wg: false, stream_k: 0, raster_n: false, chain_k: false, probe_ahead: false };
    /// let c = ws.consumer("", "    // epilogue\n", "");
    /// assert!(c.contains("setmaxnreg.inc.sync.aligned.u32 232;") && c.contains("mbar_wait(full_bar + 8 * s, phase);"));
    /// assert!(c.contains("// epilogue"));
    /// // ping-pong: the turn passes to the other consumer when the last k-block's wgmmas are committed,
    /// // before the previous k-block's are waited for
    /// let pp = WarpSpecialized { pingpong: true, m_chunks: 2, ..ws }.consumer("", "", "");
    /// let handoff = pp.find("if (kb == ktiles - 1 && t + ctas < tiles) asm volatile(\"bar.arrive").unwrap();
    /// assert!(pp.find("wgmma.commit_group").unwrap() < handoff);
    /// assert!(handoff < pp.find("wgmma.wait_group.sync.aligned 1;").unwrap());
    /// ```
    pub fn consumer(&self, doc: &str, epilogue: &str, drain: &str) -> String {
        let (m_chunks, nacc) = (self.m_chunks, self.tile.1 / 2);
        let (first, step, pp_wait, pp_arrive) = if self.pingpong {
            (
                "cta + cw * ctas",
                "2 * ctas",
                format!(
                    "\n      // ping-pong order: this mainloop starts after the other consumer's mainloop of the previous tile\n      // (named barrier 1: consumer 0 -> 1, 2: consumer 1 -> 0), so the full-barrier phases waited on are the next ones\n      if (cw == 1 || t != cta) {}",
                    sync::named_barrier_sync("cw == 0 ? 2 : 1", 256)
                ),
                Some(sync::named_barrier_arrive("cw == 0 ? 1 : 2", 256)),
            )
        } else {
            ("cta", "ctas", String::new(), None)
        };
        let prev_decl = match &self.promotion {
            Some(p) => p.prologue() + &p.delay(),
            None => "u32 prev = 0;".to_string(),
        };
        let (mainloop, tmp_decl) = self.mainloop(pp_arrive.as_deref());
        let (it_decl, it_tile, fixup) = match self.stream_k {
            0 => (
                "",
                "      u32 it = (u32)((t - cta) / ctas) * (u32)ktiles;   // k-blocks the producer loaded before this tile\n",
                String::new(),
            ),
            _ => (
                "\n    u32 it = 0;   // k-blocks the producer loaded before this segment",
                "",
                stream_k::fixup(self.consumers, m_chunks, nacc, self.cluster),
            ),
        };
        format!(
            r#"  }} else {{
    {}
    const int cw = wg - 1;   // {doc}
    float acc[{m_chunks}][{nacc}];{tmp_decl}
    u32 eb = 0;   // epilogue boxes stored by this consumer (staging buffer eb % 2)
    (void)eb;{it_decl}
    {}{it_tile}{}#pragma unroll
      for (int c = 0; c < {m_chunks}; ++c)
#pragma unroll
        for (int i = 0; i < {nacc}; ++i) acc[c][i] = 0.0f;
      {prev_decl}{pp_wait}
{mainloop}
{fixup}{epilogue}    }}{drain}
  }}
"#,
            sync::setmaxnreg(true, self.regs.1),
            self.tile_loop(first, step, "      "),
            self.raster("      "),
        )
    }

    /// One tile's k-blocks (and the declaration of the block-scaled product buffers); `handoff` (the
    /// ping-pong turn passed to the other consumer, if it has a next tile) runs in [`Self::k_block`]
    /// once the last k-block's wgmmas are committed, before the previous k-block's are waited for, so
    /// that the other consumer's wgmmas queue behind them and the tensor core does not drain between the
    /// two consumers' mainloops (after the block-scaled loops: once they end). Passing it after the last
    /// k-block's `wait_group 1` instead (the previous k-block done) measured 4 % more cycles on the
    /// 32 x 1024³ batch in 128x128 tiles (run126: 146,837 at the commit, 153,072 after the wait;
    /// cuBLASLt's 142,870).
    fn mainloop(&self, handoff: Option<&str>) -> (String, String) {
        let (m_chunks, stages) = (self.m_chunks, self.stages);
        let after_loop = handoff
            .map(|arrive| format!("\n      if (t + ctas < tiles) {arrive}"))
            .unwrap_or_default();
        // the plain k-block hands the turn over itself; the block-scaled loops, after they end
        let (body, after, tail, tmp_decl) = match &self.promotion {
            Some(p) if p.overlap => {
                return (
                    self.k_blocks_overlapped(p) + &after_loop,
                    format!(
                        "\n    float tmp0[{m_chunks}][{0}], tmp1[{m_chunks}][{0}];   // two k-blocks' products, before promotion",
                        p.split_n() / 2
                    ),
                );
            }
            Some(p) => (
                self.k_block_promoted(p),
                after_loop,
                String::new(),
                format!(
                    "\n    float tmp[{m_chunks}][{}];   // one split's product of one k-block, before promotion",
                    p.split_n() / 2
                ),
            ),
            None => (
                self.k_block(handoff),
                String::new(),
                format!(
                    "      {}\n#pragma unroll\n      for (int c = 0; c < {m_chunks}; ++c) fence_acc(acc[c]);\n      {}",
                    wgmma::wait(0),
                    self.release("", "prev")
                ),
                String::new(),
            ),
        };
        // probing ahead: `ready` says the stage was seen full by the previous k-block's probe
        let probed = self.probe_ahead && self.promotion.is_none();
        let (ready, wait) = match probed {
            true => (
                "      bool ready = false;
",
                "if (!ready) ",
            ),
            false => ("", ""),
        };
        let mainloop = format!(
            r#"{ready}      for (int kb = {kb0}; kb < {kb1}; ++kb, ++it) {{
        const u32 s = it % {stages}u, phase = (it / {stages}u) & 1u;
        {wait}mbar_wait(full_bar + 8 * s, phase);
        {}
{body}      }}{after}
{tail}"#,
            self.stage_operands(),
            kb0 = self.k_range().0,
            kb1 = self.k_range().1,
        );
        (mainloop, tmp_decl)
    }
}
