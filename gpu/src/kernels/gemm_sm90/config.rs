//! The Hopper GEMM's tile configuration ([`HopperConfig`]): tile, warp groups, stages, schedule,
//! epilogue, clusters, and what they cost in threads, registers and shared memory.

/// Tile configuration of the Hopper GEMM.
///
/// ```
/// use cute_gpu::kernels::gemm_sm90::HopperConfig;
/// let c = HopperConfig::default();
/// assert_eq!((c.bm, c.bn, c.bk, c.consumers, c.stages, c.persistent), (128, 128, 64, 1, 4, false));
/// let deep = HopperConfig { stages: 6, ..c };
/// assert_eq!(deep.smem_bytes(), 6 * 32768 + 1024 + 6 * 16);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HopperConfig {
    /// CTA tile rows (a multiple of `64 * consumers`).
    pub bm: i64,
    /// CTA tile columns = the wgmma N (multiple of 16, at most 256).
    pub bn: i64,
    /// K per stage: one 128-byte swizzle row (64 16-bit values, 128 FP8 values).
    pub bk: i64,
    /// Consumer warp groups (1 or 2); each owns `bm / consumers` rows of the tile.
    pub consumers: u32,
    /// Pipeline stages (>= 2).
    pub stages: u32,
    /// Persistent CTAs (one per SM, looping over tiles) instead of one CTA per tile.
    pub persistent: bool,
    /// Raster grouping: tiles are visited in groups of `group_m` tile rows.
    pub group_m: i64,
    /// Ping-pong: each consumer warp group owns whole tiles (alternating), so one's epilogue overlaps the
    /// other's MMAs (needs `persistent` and 2 consumers; then `bm` is the rows of one consumer's tile).
    pub pingpong: bool,
    /// Epilogue through shared memory and TMA stores (`cp.async.bulk.tensor` shared -> global): each
    /// consumer warp writes its accumulators, 16 rows x one 128-byte swizzle row of columns at a time, into
    /// one of its two staging buffers and its lane 0 stores the box asynchronously (no warp-group barrier),
    /// so the consumers return to the next tile's wgmma while the stores drain. Needs `ldd * sizeof(out)`
    /// a multiple of 16 bytes.
    pub tma_store: bool,
    /// Registers per thread of the producer warp group after `setmaxnreg.dec`.
    pub producer_regs: u32,
    /// Registers per thread of the consumer warp groups after `setmaxnreg.inc`.
    pub consumer_regs: u32,
    /// Block-scaled FP8: a producer warp stages each k-block's scales (the tile's rows of A, B's per
    /// 128 columns) in shared memory with the operands, so the consumers read them there when they promote
    /// instead of loading them from global memory a k-block ahead.
    pub smem_scales: bool,
    /// CTAs per thread-block cluster along M (1, 2 or 4): the `n` CTAs compute `n` vertically adjacent
    /// tiles, each loads `1/n` of their common B tile and multicasts it to all (TMA `.multicast::cluster`),
    /// dividing B's L2 reads by `n`. On the H100 only 30 clusters of 4 are resident at once (120 of 132
    /// SMs), and they measured slower than clusters of 2 at every shape of the issue's sweep (run 187), so
    /// the plan takes 2.
    pub cluster: u32,
    /// Block-scaled FP8: two product buffers, so that each k-block's promotion runs while the next
    /// k-block's wgmmas do (needs staged scales, `bn` <= 128 and 64 rows per consumer: the f32 sums and
    /// two products are 3 x 64 registers per thread).
    pub overlap_promotion: bool,
    /// Block-scaled FP8 with cooperative consumers: cycles the second consumer waits at the start of each
    /// tile, so that the consumers promote at different times (0: none).
    pub promotion_stagger: u32,
    /// The consumers' warp group index broadcast from lane 0 (`__shfl_sync`,
    /// [`crate::arch::sync::warp_group_index`]) instead of `threadIdx.x / 128`: ptxas then knows it to be
    /// warp-uniform and keeps what derives from it (descriptors, stage offsets) in uniform registers.
    /// On for the ping-pong tiles ([`Self::pingpong`]); the cooperative 128x256 tile measured -0.8 to
    /// +0.5 % with it and the block-scaled FP8 one -5 to +4 % (gpu/logs/matmul/run78), so they keep
    /// `threadIdx.x / 128`.
    pub broadcast_wg: bool,
    /// Stream-K ([`crate::piece::stream_k`]) planned for this many CTAs (the SMs; 0: whole tiles): each
    /// persistent CTA computes an equal share of the tiles' k-blocks, a tile cut between two CTAs summed
    /// through the workspace buffer `SK` (zeroed once, [`stream_k::workspace_bytes`](crate::piece::stream_k::workspace_bytes) for this many CTAs).
    /// Cooperative consumers, not block-scaled; at least as many tiles as CTAs (clusters) are used. In
    /// clusters, the clusters share the k-blocks, each CTA computing its row of the cluster's tiles.
    pub stream_k: u32,
    /// The raster along N: groups of `group_m` tile columns walked row by row, so that the tiles that
    /// start together share their A rows instead of their B columns. The plan takes it for stream-K in
    /// 2-CTA clusters ([`crate::matmul::plan::sm90_stream_k_raster`]: +0.1 to +5.2 % measured).
    pub raster_n: bool,
    /// Each 64-row chunk's wgmmas of a k-block issued back to back, K step after K step into the same
    /// accumulators, instead of K step by K step across the chunks ([`crate::piece::tma_mainloop`]).
    pub chain_k: bool,
    /// The next k-block's stage probed while this one's wgmmas run
    /// ([`WarpSpecialized::probe_ahead`](crate::piece::tma_mainloop::WarpSpecialized::probe_ahead)).
    pub probe_ahead: bool,
    /// Launched with programmatic dependent launch on SM90 ([`Kernel::dependent_launch`](crate::kernel::Kernel::dependent_launch)): the kernel
    /// waits for the grid before it in the stream before touching global memory and lets the next one
    /// launch once its producer has issued its last load, whatever this says; this chooses only how
    /// the runtime launches it.
    pub dependent_launch: bool,
}

impl Default for HopperConfig {
    /// The simple version: one consumer warp group, 128x128x64, 4 stages, no persistence.
    fn default() -> Self {
        HopperConfig {
            bm: 128,
            bn: 128,
            bk: 64,
            consumers: 1,
            stages: 4,
            persistent: false,
            group_m: 8,
            pingpong: false,
            tma_store: false,
            producer_regs: 40,
            consumer_regs: 232,
            smem_scales: false,
            cluster: 1,
            overlap_promotion: false,
            promotion_stagger: 0,
            broadcast_wg: false,
            stream_k: 0,
            raster_n: false,
            chain_k: false,
            probe_ahead: false,
            // bench_matmul --dependent-launch-ab (gpu/logs/matmul/run163 to run165): +2.5 to +6.6 % at
            // 16x8192x8192 and 2048³, within the noise on the long shapes
            dependent_launch: true,
        }
    }
}

impl HopperConfig {
    /// 128x256x64, two consumer warp groups (64x256 each), 4 stages, persistent, TMA-store epilogue.
    ///
    /// ```
    /// use cute_gpu::kernels::gemm_sm90::HopperConfig;
    /// let c = HopperConfig::large();
    /// assert_eq!((c.bm, c.bn, c.consumers, c.persistent, c.tma_store), (128, 256, 2, true, true));
    /// assert_eq!(c.threads(), 384);
    /// ```
    pub fn large() -> Self {
        HopperConfig {
            bm: 128,
            bn: 256,
            consumers: 2,
            stages: 4,
            persistent: true,
            tma_store: true,
            ..Self::default()
        }
    }
    /// Ping-pong, 128x128x64 tiles per consumer warp group, 6 stages, persistent.
    ///
    /// ```
    /// use cute_gpu::kernels::gemm_sm90::HopperConfig;
    /// let c = HopperConfig::pingpong();
    /// assert!(c.pingpong && c.persistent);
    /// assert_eq!((c.bm, c.bn, c.consumers, c.stages), (128, 128, 2, 6));
    /// ```
    pub fn pingpong() -> Self {
        HopperConfig {
            bm: 128,
            bn: 128,
            consumers: 2,
            stages: 6,
            persistent: true,
            pingpong: true,
            // measured with the 128x192 tile against `threadIdx.x / 128` on an H200, one process
            // (gpu/logs/matmul/run78): +0.3 to +0.7 % on each of seven bf16 shapes; ptxas no longer
            // moves 436 per-thread values into uniform registers (nvdisasm: R2UR 436 -> 21)
            broadcast_wg: true,
            ..Self::default()
        }
    }
    /// Ping-pong with the TMA-store epilogue, 128x192x64 tiles per consumer, 4 stages: each consumer's
    /// epilogue runs under the other's mainloop, and the 192-column tile keeps the accumulators (96 f32
    /// per thread x 2 chunks) within the consumers' registers; each chunk's K steps back to back
    /// ([`Self::chain_k`]), the next k-block's stage probed ahead ([`Self::probe_ahead`]).
    ///
    /// ```
    /// use cute_gpu::kernels::gemm_sm90::HopperConfig;
    /// let c = HopperConfig::pingpong_wide();
    /// assert!(c.pingpong && c.tma_store && c.persistent && c.broadcast_wg && c.chain_k && c.probe_ahead);
    /// assert_eq!((c.bm, c.bn, c.stages), (128, 192, 4));
    /// assert!(c.smem_bytes() <= 232448);
    /// ```
    pub fn pingpong_wide() -> Self {
        HopperConfig {
            bn: 192,
            stages: 4,
            tma_store: true,
            // measured against K step by K step on an H200, interleaved (gpu/logs/matmul/run149 and
            // run152): +0.1 to +8.4 % on each of seven bf16 shapes in both (the 128x128 ping-pong: -5.0
            // to 0 %; the control, one code under two names, -3.5 to +3.9 %)
            chain_k: true,
            // measured against the wait at the top of each k-block, interleaved (run161 and run162):
            // +1.0 to +9.1 % on six of seven bf16 shapes in both, 8192³ +1.4 / 0.0 (the 128x128
            // ping-pong -4.9 to +0.6 %, the cooperative 128x256 -3.5 to +3.6 %: only this tile takes it)
            probe_ahead: true,
            ..Self::pingpong()
        }
    }
    /// [`Self::pingpong`] with the TMA-store epilogue: 128x128 tiles per consumer whose epilogue runs under
    /// the other consumer's mainloop, without the 192-column tile's ragged last column on outputs 1024 (or
    /// any multiple of 128 but not of 192) wide.
    ///
    /// ```
    /// use cute_gpu::kernels::gemm_sm90::HopperConfig;
    /// let c = HopperConfig::pingpong_tma_store();
    /// assert!(c.pingpong && c.tma_store && (c.bm, c.bn, c.stages) == (128, 128, 6));
    /// ```
    pub fn pingpong_tma_store() -> Self {
        HopperConfig {
            tma_store: true,
            ..Self::pingpong()
        }
    }
    /// Threads per CTA: one producer warp group plus the consumers.
    ///
    /// ```
    /// use cute_gpu::kernels::gemm_sm90::HopperConfig;
    /// assert_eq!(HopperConfig::default().threads(), 256); // producer + 1 consumer warp group
    /// assert_eq!(HopperConfig::pingpong().threads(), 384);
    /// ```
    pub fn threads(&self) -> u32 {
        128 * (1 + self.consumers)
    }
    /// The configuration for inputs of `bits` bits: `bk` = one 128-byte row (64 or 128 values).
    ///
    /// ```
    /// use cute_gpu::kernels::gemm_sm90::HopperConfig;
    /// assert_eq!(HopperConfig::default().for_bits(16).bk, 64);
    /// assert_eq!(HopperConfig::large().for_bits(8).bk, 128); // FP8
    /// ```
    pub fn for_bits(self, bits: i64) -> Self {
        HopperConfig {
            bk: 1024 / bits,
            ..self
        }
    }
    /// Bytes of one pipeline stage (A tile + B tile; K per stage is one 128-byte row).
    ///
    /// ```
    /// use cute_gpu::kernels::gemm_sm90::HopperConfig;
    /// assert_eq!(HopperConfig::default().stage_bytes(), (128 + 128) * 128);
    /// assert_eq!(HopperConfig::large().stage_bytes(), 49152);
    /// ```
    pub fn stage_bytes(&self) -> i64 {
        (self.bm + self.bn) * 128
    }
    /// Bytes of the epilogue staging buffers: two 16-row x 128-byte boxes per consumer warp.
    ///
    /// ```
    /// use cute_gpu::kernels::gemm_sm90::HopperConfig;
    /// assert_eq!(HopperConfig::large().epi_bytes(), 2 * 2 * 64 * 128);
    /// assert_eq!(HopperConfig::default().epi_bytes(), 0); // no TMA store
    /// ```
    pub fn epi_bytes(&self) -> i64 {
        if self.tma_store {
            2 * 4 * 16 * 128 * self.consumers as i64
        } else {
            0
        }
    }
    /// Dynamic shared memory: the stages, the epilogue staging buffers, 1024 bytes of alignment slack,
    /// the mbarriers, the staged scales ([`smem_scales`](Self::smem_scales)).
    ///
    /// ```
    /// use cute_gpu::kernels::gemm_sm90::HopperConfig;
    /// assert_eq!(HopperConfig::default().smem_bytes(), 4 * 32768 + 1024 + 4 * 16);
    /// assert_eq!(HopperConfig::large().smem_bytes(), 4 * 49152 + 32768 + 1024 + 4 * 16);
    /// // 128 A scales + 1 B scale per stage, padded to 16 bytes
    /// let staged = HopperConfig { bn: 128, stages: 5, smem_scales: true, ..HopperConfig::large() };
    /// assert_eq!(staged.smem_bytes(), 5 * 32768 + 32768 + 1024 + 5 * 16 + 5 * 528);
    /// ```
    pub fn smem_bytes(&self) -> u32 {
        let scales = if self.smem_scales {
            crate::piece::fp8_scaling::scale_slot_bytes(self.bm, self.bn) * self.stages as i64
        } else {
            0
        };
        (self.stage_bytes() * self.stages as i64
            + self.epi_bytes()
            + 1024
            + 16 * self.stages as i64
            + scales) as u32
    }
}
