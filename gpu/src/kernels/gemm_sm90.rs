//! Hopper (sm_90a) GEMM: `wgmma.mma_async` fed by TMA (`cp.async.bulk.tensor`) through a warp-specialized,
//! multistage mbarrier pipeline, generated from layouts.
//!
//! `D (M,N) row-major = A (M,K) row-major * B (K,N) column-major`, both operands K-major (the "TN" GEMM),
//! f16 or bf16 in, f32 accumulation, D in f32, f16 or bf16.
//!
//! What comes from the layout algebra (and is stated in the generated text's comments):
//! - the shared-memory stage layouts: the GMMA atom `GMMA::Layout_K_SW128_Atom` (`smem_atom`:
//!   `Sw<3,3,3> o (8,64):(64,1)` for 16-bit values) tiled to the CTA tile with `tile_to_shape`;
//! - the swizzle mode of the TMA box and of the wgmma descriptor, from the atom's swizzle (`Sw<3,..>`: 128 B);
//! - the descriptor's stride byte offset (between 8-row core-matrix groups), the per-k16 and per-64-row
//!   descriptor advances: offsets of the tiled smem layout at `(8,0)`, `(0,16)`, `(64,0)`;
//! - the TMA box (one atom row of 128 B times the tile's rows) and the TMA coordinates: the tile modes of
//!   `zipped_divide(make_identity_layout((M,K)), (BM,BK))` (coordinates, innermost first for TMA);
//! - the accumulator fragment: `gmma_c_layout` `((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))` gives the row
//!   and column of every accumulator register in the epilogue.
//! - the TMA-store epilogue's staging box: the 128-byte-swizzled K-major atom of the output type tiled to
//!   `(16, 128 B of columns)` (one warp's rows of the accumulator); its row pitch and swizzle give the
//!   `stmatrix` (16-bit) or `st.shared` (f32) addresses, the `CU_TENSOR_MAP_SWIZZLE_128B` mode and the
//!   store box of D.
//!
//! ```
//! use cute_gpu::{DType, kernels::gemm_sm90::{HopperConfig, HopperProblem, generate_hopper_gemm}};
//! let k = generate_hopper_gemm(&HopperProblem::padded(2048, 2048, 2048), DType::BF16, DType::F32,
//!     &HopperConfig::pingpong()).unwrap();
//! assert!(k.persistent && k.source.contains("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16"));
//! ```

use crate::arch::cluster::{CLUSTER, cluster_dims};
use crate::arch::memory::SMEM_ADDR;
use crate::arch::{mbarrier::MBARRIER, tma, tma::TMA_2D, tma::TMA_3D, tma::TMA_MULTICAST, wgmma};
use crate::dtype::{DType, Major};
use crate::emit::{Leaf, Params, offset_at, pattern, tile_origin_expr};
use crate::error::{Result, ceil_div, mul, to_u32};
use crate::kernel::{Buffer, Kernel, TensorMapArg};
use crate::piece::epilogue_op::EpilogueOp;
use crate::piece::epilogue_sm90::{Accumulators, Sm90Epilogue, Staging, store_fns};
use crate::piece::fp8_scaling::{Promotion, SCALE_BLOCK, Scaling};
use crate::piece::gmma_operand::{GmmaOperand, gmma_operand};
use crate::piece::split_sum::{self, SplitSum};
use crate::piece::stream_k;
use crate::piece::tma_mainloop::WarpSpecialized;
use cute_layout_core::atom::gmma::{SmemSwizzle, smem_atom};
use cute_layout_core::{Int, Layout, Tiler, make_identity_layout, zipped_divide};

fn unsupported<T>(reason: String) -> Result<T> {
    crate::error::config("gemm_sm90", reason)
}

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
    /// CTAs per thread-block cluster along M (1 or 2): a pair of CTAs computes two vertically adjacent
    /// tiles, each loads half of their common B tile and multicasts it to both (TMA `.multicast::cluster`),
    /// halving B's L2 reads.
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
    /// through the workspace buffer `SK` (zeroed once, [`stream_k::workspace_bytes`] for this many CTAs).
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
    /// ([`WarpSpecialized::probe_ahead`]).
    pub probe_ahead: bool,
    /// Launched with programmatic dependent launch on SM90 ([`Kernel::dependent_launch`]): the kernel
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

/// The problem: sizes, operand majors and leading dimensions (in elements) of A (M,K), B (K,N) and
/// D (M,N), row-major (`D[m*ldd + n]`) or, with `d_column_major`, column-major (`D[m + n*ldd]`).
/// A K-major = row-major (`A[m*lda + k]`), A MN-major = column-major (`A[k*lda + m]`);
/// B K-major = column-major (`B[n*ldb + k]`), B MN-major = row-major (`B[k*ldb + n]`).
///
/// ```
/// use cute_gpu::{Major, kernels::gemm_sm90::HopperProblem};
/// let p = HopperProblem { ldd: 4096, ..HopperProblem::padded(4000, 4000, 4096) };
/// assert_eq!((p.lda, p.ldb, p.ldd, p.a_major), (4096, 4096, 4096, Major::K));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HopperProblem {
    /// Rows of A and D.
    pub m: i64,
    /// Columns of B and D.
    pub n: i64,
    /// The reduction extent.
    pub k: i64,
    /// Leading dimension of A (multiple of 8: TMA needs 16-byte global strides).
    pub lda: i64,
    /// Leading dimension of B (multiple of 8).
    pub ldb: i64,
    /// Leading dimension of D (even): its row stride, or its column stride when `d_column_major`.
    pub ldd: i64,
    /// Which mode of A is contiguous in global (and shared) memory: K (row-major) or M (column-major).
    pub a_major: Major,
    /// Which mode of B is contiguous: K (column-major) or N (row-major).
    pub b_major: Major,
    /// A strided batch of problems computed by one launch, or `None` for one problem.
    pub batch: Option<HopperBatch>,
    /// D (and C) column-major: a decode-like `D = A·B` with few rows is computed as `Dᵀ = Bᵀ·Aᵀ`, its
    /// rows the wgmma's N (16 and up) instead of 64-row tiles mostly idle; its stores are the direct
    /// epilogue's (no TMA store).
    pub d_column_major: bool,
}

/// `count` problems of one shape computed by one launch (the tiles of every batch in one schedule):
/// batch `l` of an operand starts `l * stride` elements after batch 0. A and B strides of 0 share the
/// operand between batches; otherwise they must be 16-byte multiples (a third tensor-map dimension).
///
/// ```
/// use cute_gpu::kernels::gemm_sm90::{HopperBatch, HopperProblem};
/// let b = HopperBatch { count: 32, a: 1024 * 1024, b: 0, d: 1024 * 1024, c: 1024 * 1024, k_slices: false };
/// let p = HopperProblem { batch: Some(b), ..HopperProblem::padded(1024, 1024, 1024) };
/// assert_eq!(p.batch.unwrap().count, 32);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HopperBatch {
    /// Batches (at least 1).
    pub count: i64,
    /// Elements between batches of A (0: one A for every batch).
    pub a: i64,
    /// Elements between batches of B (0: one B for every batch).
    pub b: i64,
    /// Elements between batches of D.
    pub d: i64,
    /// Elements between batches of C (read by the fused `beta * C`).
    pub c: i64,
    /// The batches are K slices of one product summed in the kernel ([`crate::piece::split_sum`]):
    /// D and C are shared (`d` and `c` 0); the slices' partial sums go through the f32 buffer `W` (`count`
    /// slices of `M x ((N + 3) / 4 * 4)`, row-major in the kernel's view) and the counters `SKF` (zero
    /// when allocated; the kernel leaves them zero).
    pub k_slices: bool,
}

impl HopperProblem {
    /// Dense problem with leading dimensions rounded up to multiples of 8.
    ///
    /// ```
    /// use cute_gpu::{Major, kernels::gemm_sm90::HopperProblem};
    /// let p = HopperProblem::padded(100, 60, 30);
    /// assert_eq!((p.lda, p.ldb, p.ldd), (32, 32, 64)); // K, K and N rounded up to 8
    /// assert_eq!((p.a_major, p.b_major), (Major::K, Major::K));
    /// ```
    pub fn padded(m: i64, n: i64, k: i64) -> Self {
        let up = |x: i64| (x + 7) / 8 * 8;
        HopperProblem {
            m,
            n,
            k,
            lda: up(k),
            ldb: up(k),
            ldd: up(n),
            a_major: Major::K,
            b_major: Major::K,
            batch: None,
            d_column_major: false,
        }
    }
    /// The same sizes with the given operand majors (leading dimensions recomputed, rounded up to 8).
    ///
    /// ```
    /// use cute_gpu::{Major, kernels::gemm_sm90::HopperProblem};
    /// let p = HopperProblem::padded(100, 60, 30).with_majors(Major::MN, Major::MN);
    /// assert_eq!((p.lda, p.ldb), (104, 64)); // M and N rounded up to 8
    /// ```
    pub fn with_majors(self, a_major: Major, b_major: Major) -> Self {
        let up = |x: i64| (x + 7) / 8 * 8;
        HopperProblem {
            lda: up(if a_major == Major::K { self.k } else { self.m }),
            ldb: up(if b_major == Major::K { self.k } else { self.n }),
            a_major,
            b_major,
            ..self
        }
    }
    /// Elements of A's and B's buffers.
    ///
    /// ```
    /// use cute_gpu::{Major, kernels::gemm_sm90::HopperProblem};
    /// let p = HopperProblem::padded(100, 60, 30);
    /// assert_eq!(p.a_len(), 100 * 32); // M rows of lda = 32
    /// assert_eq!(p.with_majors(Major::MN, Major::K).a_len(), 30 * 104); // K columns of lda = 104
    /// ```
    pub fn a_len(&self) -> i64 {
        self.lda
            * if self.a_major == Major::K {
                self.m
            } else {
                self.k
            }
    }
    /// Elements of B's buffer.
    ///
    /// ```
    /// use cute_gpu::{Major, kernels::gemm_sm90::HopperProblem};
    /// let p = HopperProblem::padded(100, 60, 30);
    /// assert_eq!(p.b_len(), 60 * 32); // N columns of ldb = 32
    /// assert_eq!(p.with_majors(Major::K, Major::MN).b_len(), 30 * 64); // K rows of ldb = 64
    /// ```
    pub fn b_len(&self) -> i64 {
        self.ldb
            * if self.b_major == Major::K {
                self.n
            } else {
                self.k
            }
    }
    /// Short name of the operand majors: `kk` (A row-major, B column-major), `mk` (A column-major),
    /// `km` (B row-major), `mm` (both MN-major).
    ///
    /// ```
    /// use cute_gpu::{Major, kernels::gemm_sm90::HopperProblem};
    /// let p = HopperProblem::padded(256, 256, 256);
    /// assert_eq!(p.majors_tag(), "kk");
    /// assert_eq!(p.with_majors(Major::MN, Major::K).majors_tag(), "mk");
    /// ```
    pub fn majors_tag(&self) -> &'static str {
        match (self.a_major, self.b_major) {
            (Major::K, Major::K) => "kk",
            (Major::MN, Major::K) => "mk",
            (Major::K, Major::MN) => "km",
            (Major::MN, Major::MN) => "mm",
        }
    }
}

/// The operand types and, for FP8, the scaling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Inputs {
    a: DType,
    b: DType,
    scaling: Option<Scaling>,
}

impl Inputs {
    fn bytes(&self) -> i64 {
        self.a.bytes()
    }
    /// `bf16`, or both FP8 types (`e4m3e5m2`) when they differ.
    fn name(&self) -> String {
        if self.a == self.b {
            self.a.name().to_string()
        } else {
            format!("{}{}", self.a.name(), self.b.name())
        }
    }
}

/// What the kernel is generated from: validated problem and configuration, the operand stages and the
/// layouts the comments and index expressions come from.
struct Plan {
    op_a: GmmaOperand,
    op_b: GmmaOperand,
    /// Swizzle span of the TMA boxes and descriptors, and the descriptor layout type.
    swizzle: (u32, u64),
    /// Rows per consumer, 64-row chunks per consumer.
    wg_rows: i64,
    m_chunks: i64,
    /// `zipped_divide(make_identity_layout((M,K)), (BM,BK))`, and for (N,K).
    tiles_a: Layout,
    tiles_b: Layout,
    acc: Accumulators,
    staging: Option<Staging>,
}

fn check_inputs(p: &HopperProblem, inp: &Inputs, output: DType, c: &HopperConfig) -> Result<()> {
    let half = inp.a.is_half() && inp.a == inp.b && inp.scaling.is_none();
    let fp8 = inp.a.is_fp8() && inp.b.is_fp8() && inp.scaling.is_some();
    if !(half || fp8) || !output.is_output() {
        return unsupported(format!(
            "wgmma inputs are f16 or bf16 (both the same, no scaling) or FP8 with a scaling, outputs f16, bf16 or f32: got {}·{} -> {} ({:?})",
            inp.a.name(),
            inp.b.name(),
            output.name(),
            inp.scaling
        ));
    }
    if c.bk * inp.bytes() != 128 {
        return unsupported(format!(
            "bk = {} must be {} (one 128-byte swizzle row of {}-bit values)",
            c.bk,
            128 / inp.bytes(),
            inp.a.bits()
        ));
    }
    if fp8 && (p.a_major != Major::K || p.b_major != Major::K) {
        return unsupported(format!(
            "FP8 wgmma reads K-major operands only (A row-major, B column-major): got A {:?}-major, B {:?}-major",
            p.a_major, p.b_major
        ));
    }
    let rows = c.bm / if c.pingpong { 1 } else { c.consumers as i64 };
    let split_n = c.bn.min(SCALE_BLOCK);
    let aligned = SCALE_BLOCK % c.bn == 0 || c.bn % SCALE_BLOCK == 0;
    if inp.scaling == Some(Scaling::Block) && (!aligned || rows * (c.bn + split_n) > 64 * 384) {
        return unsupported(format!(
            "block scaling needs bn dividing {SCALE_BLOCK} or a multiple of it (B scales per 128 columns), and \
             at most 64 x 384 accumulators per consumer (f32 sums + one 128-column split's product): bn = {}, {rows} rows",
            c.bn
        ));
    }
    if c.cluster > 1 && (c.cluster != 2 || inp.scaling == Some(Scaling::Block)) {
        return unsupported(format!(
            "clusters are of 2 CTAs along M, not for block-scaled FP8: cluster = {}, {:?}",
            c.cluster, inp.scaling
        ));
    }
    if c.overlap_promotion
        && (inp.scaling != Some(Scaling::Block)
            || !c.smem_scales
            || c.bn > SCALE_BLOCK
            || rows != 64)
    {
        return unsupported(format!(
            "overlapped promotion (two product buffers) is for block-scaled FP8 with staged scales, bn <= {SCALE_BLOCK} \
             and 64 rows per consumer: got {:?}, smem_scales = {}, bn = {}, {rows} rows",
            inp.scaling, c.smem_scales, c.bn
        ));
    }
    if c.promotion_stagger > 0
        && (inp.scaling != Some(Scaling::Block) || c.pingpong || c.consumers != 2)
    {
        return unsupported(format!(
            "a promotion stagger is for block-scaled FP8 with two cooperative consumers: got {:?}, {} consumers, ping-pong {}",
            inp.scaling, c.consumers, c.pingpong
        ));
    }
    let sk_slots = c.stream_k as i64 * c.consumers as i64;
    if c.stream_k > 0
        && (!c.persistent
            || c.pingpong
            || inp.scaling == Some(Scaling::Block)
            || sk_slots > stream_k::FLAG_SLOTS)
    {
        return unsupported(format!(
            "stream-K is for persistent cooperative kernels without block scaling, at most {} \
             flags (CTAs x consumers): persistent {}, ping-pong {}, {:?}, {sk_slots} flags",
            stream_k::FLAG_SLOTS,
            c.persistent,
            c.pingpong,
            inp.scaling
        ));
    }
    if c.smem_scales && inp.scaling != Some(Scaling::Block) {
        return unsupported(format!(
            "staged scales (smem_scales) are for block-scaled FP8: got {:?}",
            inp.scaling
        ));
    }
    Ok(())
}

fn check(p: &HopperProblem, inp: &Inputs, output: DType, c: &HopperConfig) -> Result<()> {
    check_inputs(p, inp, output, c)?;
    let owners = if c.pingpong { 1 } else { c.consumers as i64 };
    if c.pingpong && (!c.persistent || c.consumers != 2) {
        return unsupported("ping-pong needs 2 consumers and a persistent grid".into());
    }
    if !(1..=2).contains(&c.consumers) || c.bm % (64 * owners) != 0 {
        return unsupported(format!(
            "bm = {} must be a multiple of 64 x {} consumers",
            c.bm, c.consumers
        ));
    }
    if c.bn % 16 != 0 || !(16..=256).contains(&c.bn) || c.bm > 256 {
        return unsupported(format!(
            "bn = {} must be a multiple of 16 in [16,256]",
            c.bn
        ));
    }
    if c.stages < 2 || c.smem_bytes() > 232448 {
        return unsupported(format!(
            "{} stages, {} bytes of shared memory: at least 2 stages, at most 227 KiB",
            c.stages,
            c.smem_bytes()
        ));
    }
    let a_inner = if p.a_major == Major::K { p.k } else { p.m };
    let b_inner = if p.b_major == Major::K { p.k } else { p.n };
    let align = 16 / inp.bytes();
    if p.lda % align != 0
        || p.ldb % align != 0
        || p.ldd % 2 != 0
        || p.m < 1
        || p.n < 1
        || p.k < 1
        || p.lda < a_inner
        || p.ldb < b_inner
    {
        return unsupported(format!(
            "lda, ldb must be multiples of {align} (16-byte TMA strides) covering the contiguous mode, ldd even: {p:?}"
        ));
    }
    check_batch(p, inp, output, c)?;
    if p.d_column_major && (c.tma_store || p.ldd < p.m) {
        return unsupported(format!(
            "a column-major D takes the direct epilogue (tma_store {}), ldd >= M: {p:?}",
            c.tma_store
        ));
    }
    let osz = output.bytes();
    if c.tma_store && (c.bn % (128 / osz) != 0 || (p.ldd * osz) % 16 != 0) {
        return unsupported(format!(
            "the TMA-store epilogue needs bn a multiple of {} and 16-byte rows of D: {p:?}",
            128 / osz
        ));
    }
    Ok(())
}

/// A batch: 16-bit inputs, batch strides of A and B that a tensor map can step (0 or 16-byte multiples),
/// D's and C's even (the direct epilogue's paired stores), the direct epilogue.
fn check_batch(p: &HopperProblem, inp: &Inputs, output: DType, c: &HopperConfig) -> Result<()> {
    let Some(b) = p.batch else { return Ok(()) };
    let steppable = |s: i64| s == 0 || (s > 0 && (s * inp.bytes()) % 16 == 0);
    let paired = |s: i64| s >= 0 && s % 2 == 0;
    let stored = (b.d != 0 || b.k_slices) && (!c.tma_store || (b.d * output.bytes()) % 16 == 0);
    if b.k_slices && (b.count < 2 || b.d != 0 || b.c != 0 || c.stream_k > 0) {
        return unsupported(format!(
            "K slices summed in the kernel need 2 or more slices, a shared D and C (strides 0), no stream-K: {b:?}, stream_k {}",
            c.stream_k
        ));
    }
    if b.count < 1
        || inp.scaling.is_some()
        || !stored
        || !steppable(b.a)
        || !steppable(b.b)
        || !paired(b.d)
        || !paired(b.c)
    {
        return unsupported(format!(
            "a batch needs count >= 1, 16-bit inputs, A and B strides of 0 or 16-byte multiples, D and C \
             strides even (16-byte multiples for the TMA-store epilogue): {b:?}, {} inputs, tma_store {}, D {}",
            inp.name(),
            c.tma_store,
            output.name()
        ));
    }
    Ok(())
}

fn plan(p: &HopperProblem, inp: &Inputs, output: DType, c: &HopperConfig) -> Result<Plan> {
    let (bm, bn, bk, bits) = (c.bm, c.bn, c.bk, inp.a.bits());
    let atom = smem_atom(p.a_major, SmemSwizzle::Sw128, bits)?;
    let sw = atom.swizzle().ok_or_else(|| crate::GpuError::Config {
        kernel: "gemm_sm90",
        reason: format!("the GMMA atom {atom} has no swizzle"),
    })?;
    if (16i64 << sw.bits) / inp.bytes() != bk {
        return unsupported(format!(
            "swizzle row of {} elements != bk {bk}",
            (16i64 << sw.bits) / inp.bytes()
        ));
    }
    let swizzle_bytes: u32 = if sw.bits == 0 { 0 } else { 16u32 << sw.bits };
    let owners = if c.pingpong { 1 } else { c.consumers as i64 };
    let tiler = |rows: i64| -> Result<Tiler> { Ok(format!("(_{rows},_{bk})").parse()?) };
    let identity = |rows: i64| make_identity_layout(&format!("({rows},{})", p.k).parse()?);
    Ok(Plan {
        op_a: gmma_operand(p.a_major, bm, bk, bits, "A")?,
        op_b: gmma_operand(p.b_major, bn, bk, bits, "B")?.split_boxes(c.cluster as i64)?,
        swizzle: (swizzle_bytes, wgmma::layout_type(sw.bits)),
        wg_rows: bm / owners,
        m_chunks: bm / owners / 64,
        tiles_a: zipped_divide(&identity(p.m)?, &tiler(bm)?)?,
        tiles_b: zipped_divide(&identity(p.n)?, &tiler(bn)?)?,
        acc: Accumulators::new(bn)?,
        staging: if c.tma_store {
            Some(Staging::per_warp(output)?)
        } else {
            None
        },
    })
}

/// The TMA coordinates (innermost first) of a tile's box: from the rest mode of the identity layout's
/// `zipped_divide`, K-major boxes `(k, mn)`, MN-major `(mn, k)`.
fn coords(tiles: &Layout, mn_var: &str, major: Major) -> Result<[String; 2]> {
    let rest = tiles.mode(1)?;
    let vars = [mn_var, "kb"];
    let (mn, k) = (
        tile_origin_expr(&rest, &vars, 0)?,
        tile_origin_expr(&rest, &vars, 1)?,
    );
    Ok(match major {
        Major::K => [k, mn],
        Major::MN => [mn, k],
    })
}

fn kernel_name(p: &HopperProblem, inp: &Inputs, output: DType, c: &HopperConfig) -> String {
    format!(
        "cute_hgemm_{}_{}_{}x{}x{}_c{}{}_s{}_g{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}",
        inp.name(),
        output.name(),
        c.bm,
        c.bn,
        c.bk,
        c.consumers,
        if c.pingpong { "pp" } else { "" },
        c.stages,
        c.group_m,
        if c.raster_n { "n" } else { "" },
        if c.persistent { "_p" } else { "" },
        if c.tma_store { "_ts" } else { "" },
        if c.smem_scales { "_ss" } else { "" },
        if c.overlap_promotion { "_ov" } else { "" },
        if c.promotion_stagger > 0 {
            format!("_st{}", c.promotion_stagger)
        } else {
            String::new()
        },
        if c.cluster > 1 {
            format!("_cl{}", c.cluster)
        } else {
            String::new()
        },
        if c.broadcast_wg { "_wgb" } else { "" },
        if c.chain_k { "_ck" } else { "" },
        if c.probe_ahead { "_pa" } else { "" },
        if c.stream_k > 0 {
            format!("_sk{}", c.stream_k)
        } else {
            String::new()
        },
        if p.majors_tag() == "kk" {
            String::new()
        } else {
            format!("_{}", p.majors_tag())
        },
        inp.scaling.map_or("", Scaling::tag),
        if p.d_column_major { "_dT" } else { "" }
    ) + &batch_tag(p)
}

/// `_batch`, and which operands every batch shares (`_sa`, `_sb`: no batch mode, a 2-D tensor map).
fn batch_tag(p: &HopperProblem) -> String {
    match p.batch {
        None => String::new(),
        Some(b) if b.k_slices => format!("_ks{}", b.count),
        Some(b) => format!(
            "_batch{}{}",
            if b.a == 0 { "_sa" } else { "" },
            if b.b == 0 { "_sb" } else { "" }
        ),
    }
}

fn header(
    name: &str,
    p: &HopperProblem,
    inp: &Inputs,
    output: DType,
    c: &HopperConfig,
    plan: &Plan,
) -> String {
    let (tin, tout, (bm, bn, bk)) = (inp.name(), output.name(), (c.bm, c.bn, c.bk));
    let mk = plan.op_a.mma_k;
    let a_desc = if p.a_major == Major::K {
        "row-major (K-major)"
    } else {
        "column-major (M-major)"
    };
    let b_desc = if p.b_major == Major::K {
        "column-major (K-major)"
    } else {
        "row-major (N-major)"
    };
    let mut h = format!(
        "// {name}: D (M,N) row-major = A (M,K) {a_desc} * B (K,N) {b_desc}, {tin} in, f32 accumulate, {tout} out.\n\
// sm_90a: TMA (cp.async.bulk.tensor) -> {}-stage mbarrier pipeline -> wgmma.mma_async m64n{bn}k{mk}.\n\
// CTA: 1 producer warp group (TMA, setmaxnreg.dec {}) + {} consumer warp group(s) (wgmma, setmaxnreg.inc {}),\n\
// CTA tile {bm}x{bn}x{bk}, each consumer {}x{bn} = {} x m64n{bn}k{mk} per k{mk} step.{}\n//\n\
// 128-byte swizzle of the atoms -> TMA CU_TENSOR_MAP_SWIZZLE_{}B, descriptor layout type {}\n",
        c.stages,
        c.producer_regs,
        c.consumers,
        c.consumer_regs,
        plan.wg_rows,
        plan.m_chunks,
        if c.persistent {
            " Persistent: CTAs loop over tiles (stride gridDim.x)."
        } else {
            ""
        },
        plan.swizzle.0,
        plan.swizzle.1
    );
    h += &format!(
        "{}   ({} B)\n{}   ({} B)\n",
        plan.op_a.doc,
        bm * bk * inp.bytes(),
        plan.op_b.doc,
        bn * bk * inp.bytes()
    );
    h += &format!(
        "// TMA coordinates: the rest mode of zipped_divide(make_identity_layout((M,K)), ({bm},{bk})) = {}\n\
//   and of zipped_divide(make_identity_layout((N,K)), ({bn},{bk})) = {}: tile (t, kb) starts at the basis strides\n",
        pattern(&plan.tiles_a),
        pattern(&plan.tiles_b)
    );
    h += &format!(
        "// accumulator: gmma_c_layout({bn}) as coordinates = {}\n",
        plan.acc.fragment.layout
    );
    if let Some(st) = &plan.staging {
        h += &format!(
            "// epilogue (TMA store): smem box = tile_to_shape(atom<{tout}> {}, ({},{})) = {}; swizzle {} on bytes\n\
//   -> CU_TENSOR_MAP_SWIZZLE_128B; TMA store box D = ({},{}) innermost first; 2 staging boxes per consumer warp\n",
            st.atom, st.rows, st.cols, st.layout, st.byte_swizzle, st.cols, st.rows
        );
    }
    h
}

fn device_fns(inp: &Inputs, output: DType, c: &HopperConfig, plan: &Plan, split: bool) -> String {
    let (op_a, op_b, lt) = (&plan.op_a, &plan.op_b, plan.swizzle.1);
    let mut s = "typedef unsigned int u32;\ntypedef unsigned long long u64;\n".to_string();
    for f in [SMEM_ADDR, MBARRIER, TMA_2D] {
        s += f;
    }
    s += &format!(
        "// descriptors: A LBO {} B, SBO {} B; B LBO {} B, SBO {} B (from the stage layouts above)\n",
        op_a.lbo, op_a.sbo, op_b.lbo, op_b.sbo
    );
    s += &wgmma::descriptor_fn("smem_desc_a", op_a.lbo, op_a.sbo, lt);
    s += &wgmma::descriptor_fn("smem_desc_b", op_b.lbo, op_b.sbo, lt);
    let block = inp.scaling == Some(Scaling::Block);
    let mma = wgmma::Wgmma {
        n: if block { c.bn.min(SCALE_BLOCK) } else { c.bn },
        types: (inp.a, inp.b),
        tnsp: (op_a.tnsp, op_b.tnsp),
        accumulate_arg: block,
    };
    s += &mma.device_fns();
    if block && c.smem_scales {
        s += crate::piece::fp8_scaling::STAGED_SCALE_FNS;
    }
    if c.cluster > 1 {
        s += CLUSTER;
        s += TMA_MULTICAST;
    }
    if c.stream_k > 0 {
        s += stream_k::DEVICE_FNS;
    }
    if split {
        s += split_sum::DEVICE_FNS;
    }
    s += &store_fns(output);
    s
}

fn params(p: &HopperProblem, inp: &Inputs, output: DType, plan: &Plan) -> Result<Params> {
    let mut params = Params::default();
    let map =
        |name: &str, buffer: &str, dtype, extents: [i64; 2], ld: i64, box_dims, swizzle_bytes| {
            TensorMapArg {
                name: name.into(),
                buffer: buffer.into(),
                dtype,
                extents: [extents[0] as u64, extents[1] as u64],
                ld: ld as u64,
                box_dims,
                swizzle_bytes,
                outer: Vec::new(),
            }
        };
    // a batched operand: a third dimension of `count` batches `stride` elements apart
    let batched = |m: TensorMapArg, stride: fn(&HopperBatch) -> i64| match p.batch {
        Some(b) if stride(&b) != 0 => TensorMapArg {
            outer: vec![(b.count as u64, stride(&b) as u64)],
            ..m
        },
        _ => m,
    };
    // (contiguous extent, lines): K-major (K, M or N), MN-major (M or N, K)
    let a_ext = if p.a_major == Major::K {
        [p.k, p.m]
    } else {
        [p.m, p.k]
    };
    let b_ext = if p.b_major == Major::K {
        [p.k, p.n]
    } else {
        [p.n, p.k]
    };
    params.tensor_map(batched(
        map(
            "tmA",
            "A",
            inp.a,
            a_ext,
            p.lda,
            plan.op_a.tma_box,
            plan.swizzle.0,
        ),
        |b| b.a,
    ));
    params.tensor_map(batched(
        map(
            "tmB",
            "B",
            inp.b,
            b_ext,
            p.ldb,
            plan.op_b.tma_box,
            plan.swizzle.0,
        ),
        |b| b.b,
    ));
    if let Some(st) = &plan.staging {
        // D (M,N) row-major: N contiguous; the smem box is 128-byte swizzled like the staging layout
        params.tensor_map(batched(
            map(
                "tmD",
                "D",
                output,
                [p.n, p.m],
                p.ldd,
                [st.cols as u32, st.rows as u32],
                128,
            ),
            |b| b.d,
        ));
    }
    params.ptr("out_t* __restrict__", "D");
    if inp.scaling.is_some() {
        params.ptr("const float* __restrict__", "scale_a");
        params.ptr("const float* __restrict__", "scale_b");
    }
    for (name, v) in [("M", p.m), ("N", p.n), ("K", p.k)] {
        params.extent(&Leaf::new(Int::d(v), name))?;
    }
    params.stride(&Leaf::new(Int::d(p.ldd), "ldd"));
    if p.batch.is_some_and(|b| b.k_slices) {
        params.ptr("float* __restrict__", "W");
        params.ptr("unsigned* __restrict__", "SKF");
    }
    if let Some(b) = p.batch {
        params.extent(&Leaf::new(Int::d(b.count), "L"))?;
        params.stride(&Leaf::new(Int::d(b.d), "batch_d"));
        params.stride(&Leaf::new(Int::d(b.c), "batch_c"));
    }
    Ok(params)
}

fn buffers(p: &HopperProblem, inp: &Inputs, output: DType, op: &EpilogueOp) -> Result<Vec<Buffer>> {
    let span = |ld: i64, lines: i64, inner: i64| (ld * (lines - 1) + inner) as usize;
    let (a_in, a_out) = if p.a_major == Major::K {
        (p.k, p.m)
    } else {
        (p.m, p.k)
    };
    let (b_in, b_out) = if p.b_major == Major::K {
        (p.k, p.n)
    } else {
        (p.n, p.k)
    };
    let osz = output.bytes() as usize;
    let d_span = if p.d_column_major {
        span(p.ldd, p.n, p.m)
    } else {
        span(p.ldd, p.m, p.n)
    };
    let buffer = |name: &str, bytes| Buffer {
        name: name.into(),
        bytes,
    };
    // batch `count - 1` starts `(count - 1) * stride` elements after batch 0
    let last = |stride: fn(&HopperBatch) -> i64| {
        p.batch.map_or(0, |b| ((b.count - 1) * stride(&b)) as usize)
    };
    let mut v = vec![
        buffer(
            "A",
            (span(p.lda, a_out, a_in) + last(|b| b.a)) * inp.bytes() as usize,
        ),
        buffer(
            "B",
            (span(p.ldb, b_out, b_in) + last(|b| b.b)) * inp.bytes() as usize,
        ),
        buffer("D", (d_span + last(|b| b.d)) * osz),
    ];
    if let Some(scaling) = inp.scaling {
        let (sa, sb) = scaling.scale_lens(p.m, p.n, p.k)?;
        v.push(buffer("scale_a", sa as usize * 4));
        v.push(buffer("scale_b", sb as usize * 4));
    }
    if op.scale {
        v.push(buffer("C", (d_span + last(|b| b.c)) * osz));
    }
    v.extend(op.bias_buffer(p.m, p.n, output));
    Ok(v)
}

/// Generates the kernel for `problem` with `config`: the warp-specialized TMA mainloop with the direct or
/// TMA-store epilogue. The extents are parameters: one kernel serves every problem of its alignment class.
///
/// ```
/// use cute_gpu::{DType, kernels::gemm_sm90::{HopperConfig, HopperProblem, generate_hopper_gemm}};
/// let c = HopperConfig::default();
/// let k = generate_hopper_gemm(&HopperProblem::padded(4096, 4096, 4096), DType::F16, DType::F16, &c).unwrap();
/// assert!(k.source.contains("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16"));
/// assert_eq!((k.block, k.dynamic_smem_bytes), ((256, 1, 1), c.smem_bytes()));
/// assert_eq!(k.buffer_names(), ["A", "B", "D"]);
/// ```
pub fn generate_hopper_gemm(
    problem: &HopperProblem,
    input: DType,
    output: DType,
    config: &HopperConfig,
) -> Result<Kernel> {
    generate_hopper_gemm_with(problem, input, output, config, &Fused::default())
}

/// The fused epilogue of an SM90 GEMM: the op and the scalars it reads.
///
/// ```
/// use cute_gpu::{kernels::gemm_sm90::Fused, piece::epilogue_op::EpilogueOp};
/// let f = Fused { op: EpilogueOp { scale: true, ..Default::default() }, alpha: 2.0, beta: 1.0 };
/// assert_eq!(f.op.tag(), "_ab");
/// assert!(Fused::default().op.is_identity());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Fused {
    /// Bias, activation, and whether alpha/beta*C apply.
    pub op: EpilogueOp,
    /// alpha (with `op.scale`).
    pub alpha: f32,
    /// beta (with `op.scale`).
    pub beta: f32,
}

/// [`generate_hopper_gemm`] with a fused epilogue: `D = act(alpha*A·B + beta*C + bias)`, C laid out as D.
///
/// ```
/// use cute_gpu::{DType, kernels::gemm_sm90::*, piece::epilogue_op::{Activation, BiasKind, EpilogueOp}};
/// let op = EpilogueOp { bias: BiasKind::PerColumn, activation: Activation::Gelu, scale: false };
/// let (p, c) = (HopperProblem::padded(4096, 4096, 4096), HopperConfig::large());
/// let k = generate_hopper_gemm_with(&p, DType::BF16, DType::BF16, &c, &Fused { op, ..Default::default() }).unwrap();
/// assert!(k.name.ends_with("_bn_gelu") && k.source.contains("erff("));
/// assert_eq!(k.buffer_names(), ["A", "B", "D", "bias"]);
/// ```
pub fn generate_hopper_gemm_with(
    problem: &HopperProblem,
    input: DType,
    output: DType,
    config: &HopperConfig,
    fused: &Fused,
) -> Result<Kernel> {
    let inputs = Inputs {
        a: input,
        b: input,
        scaling: None,
    };
    generate(problem, &inputs, output, config, fused)
}

/// The FP8 GEMM: A and B of types `types` (e4m3 or e5m2, K-major), `D = act(s·A·B ...)` with the
/// per-tensor or block `scaling` (buffers `scale_a`, `scale_b`; layouts in
/// [`fp8_scaling`](crate::piece::fp8_scaling)), f32 accumulation, D in f32, f16 or bf16. `config.bk` must
/// be 128 ([`HopperConfig::for_bits`]).
///
/// ```
/// use cute_gpu::kernels::gemm_sm90::*;
/// use cute_gpu::piece::fp8_scaling::Scaling;
/// use cute_gpu::DType;
/// let p = HopperProblem::padded(4096, 4096, 4096);
/// let c = HopperConfig::large().for_bits(8);
/// let types = (DType::E4M3, DType::E4M3);
/// let k = generate_hopper_fp8_gemm(&p, types, Scaling::PerTensor, DType::BF16, &c, &Fused::default()).unwrap();
/// assert!(k.source.contains("wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3"));
/// assert_eq!(k.buffer_names(), ["A", "B", "D", "scale_a", "scale_b"]);
/// ```
pub fn generate_hopper_fp8_gemm(
    problem: &HopperProblem,
    types: (DType, DType),
    scaling: Scaling,
    output: DType,
    config: &HopperConfig,
    fused: &Fused,
) -> Result<Kernel> {
    let inputs = Inputs {
        a: types.0,
        b: types.1,
        scaling: Some(scaling),
    };
    generate(problem, &inputs, output, config, fused)
}

/// The summation of K slices before the epilogue ([`SplitSum`]): a consumer owns its rows of the tile
/// (cooperative) or the whole tile (ping-pong).
fn split_sum(c: &HopperConfig, epi: &Sm90Epilogue, splits: i64) -> String {
    let (owner, owners) = match c.pingpong {
        true => ("0", 1),
        false => ("cw", c.consumers as i64),
    };
    SplitSum {
        epi,
        owner: owner.into(),
        owners,
        splits,
    }
    .code()
}

fn cw_row(c: &HopperConfig, plan: &Plan) -> String {
    if c.pingpong {
        String::new()
    } else {
        format!(" + cw * {}", plan.wg_rows)
    }
}

fn mainloop<'a>(
    p: &HopperProblem,
    inp: &Inputs,
    c: &HopperConfig,
    plan: &'a Plan,
) -> Result<WarpSpecialized<'a>> {
    Ok(WarpSpecialized {
        operands: [&plan.op_a, &plan.op_b],
        tile: (c.bm, c.bn, c.bk),
        stages: c.stages,
        consumers: c.consumers,
        pingpong: c.pingpong,
        group_m: c.group_m,
        m_chunks: plan.m_chunks,
        consumer_a_bytes: offset_at(&plan.op_a.stage, plan.wg_rows, 0)? * inp.bytes(),
        epi_bytes: c.epi_bytes(),
        regs: (c.producer_regs, c.consumer_regs),
        coords: [
            coords(&plan.tiles_a, "tm", p.a_major)?,
            coords(&plan.tiles_b, "tn", p.b_major)?,
        ],
        elem_bytes: inp.bytes(),
        batch: p.batch.map(|b| [b.a != 0, b.b != 0]),
        promotion: (inp.scaling == Some(Scaling::Block)).then(|| Promotion {
            acc: &plan.acc,
            m_chunks: plan.m_chunks,
            tile: (c.bm, c.bn),
            row_base: cw_row(c, plan),
            staged: c.smem_scales,
            overlap: c.overlap_promotion,
            stagger: c.promotion_stagger,
        }),
        cluster: c.cluster as i64,
        broadcast_wg: c.broadcast_wg,
        stream_k: c.stream_k as i64,
        raster_n: c.raster_n,
        chain_k: c.chain_k,
        probe_ahead: c.probe_ahead,
    })
}

/// The epilogue (with the per-tensor scaling first) and what runs after the last tile.
fn epilogue(
    p: &HopperProblem,
    inp: &Inputs,
    output: DType,
    c: &HopperConfig,
    plan: &Plan,
    fused: &Fused,
) -> (String, String) {
    let epilogue = Sm90Epilogue {
        acc: &plan.acc,
        tile: (c.bm, c.bn),
        m_chunks: plan.m_chunks,
        cw_row: cw_row(c, plan),
        osz: output.bytes(),
        op: fused.op,
    };
    let mut epi = match inp.scaling {
        Some(Scaling::PerTensor) => Scaling::per_tensor_prologue(plan.m_chunks, c.bn / 2),
        _ => String::new(),
    };
    if let Some(b) = p.batch.filter(|b| b.k_slices) {
        epi += &split_sum(c, &epilogue, b.count);
    }
    match &plan.staging {
        Some(st) => {
            let batched_d = p.batch.filter(|b| b.d != 0).map(|_| "tb");
            epi += &epilogue.tma_store_at(st, batched_d);
            // the staging boxes must stay valid until the stores have read them; their global writes
            // complete with the grid (as CUTLASS's epilogue tail: wait_group.read)
            let drain = format!(
                "\n    if (tid % 32 == 0) {}   // each warp's stores have read shared memory before exit",
                tma::store_wait_read(0)
            );
            (epi, drain)
        }
        None if p.d_column_major => (epi + &epilogue.direct_column_major(), String::new()),
        None => (epi + &epilogue.direct(), String::new()),
    }
}

/// The epilogue lambdas (kernel scope) and the epilogue; with a batch, the tile's D and C (shadows of
/// the kernel parameters at the tile's batch) are declared first and the lambdas after them, in the tile
/// loop, so that they read the tile's C.
fn batch_scope(p: &HopperProblem, output: DType, fused: &Fused, epi: String) -> (String, String) {
    let c_offset = if p.d_column_major {
        "m + (long long)n * ldd"
    } else {
        "(long long)m * ldd + n"
    };
    let lambdas = fused.op.lambdas_at(output, ("M", "N"), c_offset);
    if p.batch.is_none() {
        return (lambdas, epi);
    }
    let (c_all, c_tile) = if fused.op.scale {
        (
            "  const out_t* const C_all = C;\n",
            "      const out_t* const C = C_all + (long long)tb * batch_c;\n",
        )
    } else {
        ("", "")
    };
    (
        format!("  out_t* const D_all = D;\n{c_all}"),
        format!(
            "      out_t* const D = D_all + (long long)tb * batch_d;   // this tile's batch\n{c_tile}{lambdas}{epi}"
        ),
    )
}

/// The kernel's tiles: rows of tiles (whole clusters: a last odd tile row pairs with an empty one),
/// columns, and all of them over the batches (the grid of a non-persistent launch).
struct TileGrid {
    rows: i64,
    cols: i64,
    total: i64,
}

fn tile_grid(p: &HopperProblem, c: &HopperConfig) -> Result<TileGrid> {
    let cl = c.cluster as i64;
    let tile_rows = ceil_div("hopper gemm tiles along M", p.m, c.bm)?;
    let rows = mul(
        "hopper gemm tile rows",
        ceil_div("hopper gemm clusters along M", tile_rows, cl)?,
        cl,
    )?;
    let cols = ceil_div("hopper gemm tiles along N", p.n, c.bn)?;
    let total = mul(
        "hopper gemm tiles",
        mul("hopper gemm tiles", rows, cols)?,
        p.batch.map_or(1, |b| b.count),
    )?;
    Ok(TileGrid { rows, cols, total })
}

/// The workspaces of K slices summed in the GEMM (`W`, the f32 sums; `SKF`, the arrival counters) and of
/// stream-K (`SK`, with its parameter).
fn workspace_buffers(
    p: &HopperProblem,
    c: &HopperConfig,
    tiles: &TileGrid,
    params: &mut Params,
    buffers: &mut Vec<Buffer>,
) -> Result<()> {
    if let Some(b) = p.batch.filter(|b| b.k_slices) {
        let owners = if c.pingpong { 1 } else { c.consumers as i64 };
        let (rows, cols) = (tiles.rows, tiles.cols);
        let sizes = [
            (
                "W",
                split_sum::workspace_elems(b.count, rows, cols, (c.bm, c.bn)) * 4,
            ),
            ("SKF", SplitSum::counter_bytes(rows, cols, owners)),
        ];
        for (name, bytes) in sizes {
            buffers.push(Buffer {
                name: name.into(),
                bytes: bytes as usize,
            });
        }
    }
    if c.stream_k > 0 {
        params.ptr("float* __restrict__", "SK");
        let bytes = stream_k::workspace_bytes(c.stream_k as i64, c.bm, c.bn);
        buffers.push(Buffer {
            name: "SK".into(),
            bytes: bytes as usize,
        });
    }
    Ok(())
}

fn generate(
    p: &HopperProblem,
    inp: &Inputs,
    output: DType,
    c: &HopperConfig,
    fused: &Fused,
) -> Result<Kernel> {
    check(p, inp, output, c)?;
    let plan = plan(p, inp, output, c)?;
    let name = kernel_name(p, inp, output, c) + &fused.op.tag();
    let mut params = params(p, inp, output, &plan)?;
    fused
        .op
        .params(&mut params, output, fused.alpha, fused.beta);
    let mut buffers = buffers(p, inp, output, &fused.op)?;
    let tiles = tile_grid(p, c)?;
    workspace_buffers(p, c, &tiles, &mut params, &mut buffers)?;
    let mainloop = mainloop(p, inp, c, &plan)?;
    let (epi, drain) = epilogue(p, inp, output, c, &plan, fused);
    let (lambdas, epi) = batch_scope(p, output, fused, epi);
    let doc = if c.pingpong {
        "ping-pong: consumer cw takes the CTA's tiles cw, cw+2, ... (all rows)".to_string()
    } else {
        format!(
            "consumer: rows [cw*{0}, (cw+1)*{0}) of every tile",
            plan.wg_rows
        )
    };
    let maps: Vec<&str> = if c.tma_store {
        vec!["tmA", "tmB", "tmD"]
    } else {
        vec!["tmA", "tmB"]
    };
    let mut s = header(&name, p, inp, output, c, &plan);
    s += &device_fns(inp, output, c, &plan, p.batch.is_some_and(|b| b.k_slices));
    if p.batch.is_some() {
        s += TMA_3D;
    }
    if !fused.op.is_identity() {
        s += crate::arch::convert::CONVERT;
    }
    s += &format!(
        "\nextern \"C\" __global__ void {}\n{name}(\n    {}) {{\n",
        format!(
            "__launch_bounds__({}, 1) {}",
            c.threads(),
            cluster_dims(c.cluster)
        )
        .trim_end(),
        params.signature()
    );
    s += &mainloop.setup(&maps);
    s += &lambdas;
    s += &mainloop.producer();
    s += &mainloop.consumer(&doc, &epi, &drain);
    s += &mainloop.teardown();
    s += "}\n";
    Ok(Kernel {
        name,
        source: s,
        grid: (to_u32("hopper gemm tiles", tiles.total)?, 1, 1),
        persistent: c.persistent,
        cluster: c.cluster,
        block: (c.threads(), 1, 1),
        dynamic_smem_bytes: c.smem_bytes(),
        args: params.args,
        buffers,
        pointer_alignment: 16,
        dependent_launch: c.dependent_launch,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Arg;

    fn maps(k: &Kernel) -> Vec<&TensorMapArg> {
        k.args
            .iter()
            .filter_map(|a| match a {
                Arg::TensorMap(m) => Some(m),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn tensor_maps_and_descriptors_come_from_the_stage_layouts() {
        let p = HopperProblem::padded(4095, 4097, 1023);
        let k =
            generate_hopper_gemm(&p, DType::BF16, DType::F32, &HopperConfig::default()).unwrap();
        let m = maps(&k);
        assert_eq!((m[0].box_dims, m[0].swizzle_bytes), ([64, 128], 128));
        assert_eq!((m[0].extents, m[0].ld), ([1023, 4095], 1024));
        assert!(k.source.contains("SBO = s(8,0) = 1024 B"));
        assert!(
            k.source
                .contains("tma_load_2d(sa + 0u, &tmA, full_bar + 8 * s, kb * 64, tm * 128)")
        );
        assert!(
            k.source
                .contains("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16")
        );
        assert_eq!(k.buffer_names(), ["A", "B", "D"]);
    }

    #[test]
    fn a_strided_batch_in_one_launch() {
        let batch = HopperBatch {
            count: 5,
            a: 1024 * 1024,
            b: 0,
            d: 1024 * 1030,
            c: 0,
            k_slices: false,
        };
        let p = HopperProblem {
            batch: Some(batch),
            ..HopperProblem::padded(1000, 1024, 1024)
        };
        let k =
            generate_hopper_gemm(&p, DType::BF16, DType::F32, &HopperConfig::default()).unwrap();
        assert!(k.name.ends_with("_batch_sb"), "{}", k.name);
        // every batch's tiles in one grid; A stepped by a third tensor-map dimension, B shared (2-D)
        assert_eq!(k.grid.0, 8 * 8 * 5);
        let m = maps(&k);
        assert_eq!(
            (m[0].outer.clone(), m[1].outer.len()),
            (vec![(5, 1 << 20)], 0)
        );
        for want in [
            "tma_load_3d(sa + 0u, &tmA, full_bar + 8 * s, kb * 64, tm * 128, tb)",
            "tma_load_2d(sb + 0u, &tmB",
            "const int tb = t / tiles_mn, t_mn = t % tiles_mn;",
            "out_t* const D = D_all + (long long)tb * batch_d;",
        ] {
            assert!(k.source.contains(want), "{want}");
        }
        assert_eq!(k.buffers[0].bytes, (1000 * 1024 + 4 * (1 << 20)) * 2);
        assert_eq!(
            k.buffers[2].bytes,
            (999 * 1024 + 1024 + 4 * 1024 * 1030) * 4
        );
        // the TMA-store epilogue stores at the tile's batch (a 3-D map of D)
        let k = generate_hopper_gemm(&p, DType::BF16, DType::F32, &HopperConfig::large()).unwrap();
        assert!(
            k.source.contains(
                "tma_store_3d(&tmD, buf, col0, tm * 128 + cw * 64 + c * 64 + ew * 16, tb);"
            )
        );
        assert_eq!(maps(&k)[2].outer, vec![(5, 1024 * 1030)]);
        // batch strides a tensor map cannot step (A: 2008 bytes) are refused
        let odd = HopperProblem {
            batch: Some(HopperBatch { a: 1004, ..batch }),
            ..p
        };
        let err = generate_hopper_gemm(&odd, DType::BF16, DType::F32, &HopperConfig::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("a: 1004"), "{err}");
    }

    #[test]
    fn clusters_multicast_b_and_release_stages_to_both_ctas() {
        let c = HopperConfig {
            cluster: 2,
            ..HopperConfig::large()
        };
        let k = generate_hopper_gemm(
            &HopperProblem::padded(4000, 4096, 4096),
            DType::BF16,
            DType::BF16,
            &c,
        )
        .unwrap();
        if std::env::var("CUTE_PRINT").is_ok() {
            println!("{}", k.source);
        }
        assert!(k.name.ends_with("_cl2"), "{}", k.name);
        // 32 tile rows -> 16 cluster rows (the last pairs tile row 31 with an empty 32nd)
        assert_eq!((k.grid.0, k.cluster), (32 * 16, 2));
        assert_eq!(maps(&k)[1].box_dims, [64, 128]); // half of B's 256 rows per CTA
        for want in [
            "__cluster_dims__(2, 1, 1)",
            "const int tm = tcm * 2 + (int)crank;",
            "if (crank == 0u) tma_load_2d_mc(sb + 0u, &tmB, full_bar + 8 * s, kb * 64, tn * 256, 3);",
            "tma_load_2d(sa + 0u, &tmA, full_bar + 8 * s, kb * 64, tm * 128);",
            "mbar_init(empty_bar + 8 * s, 4);", // 2 consumers x 2 CTAs
            "if (tid < 2) mbar_arrive_cluster(empty_bar + 8 * prev, tid);",
            "barrier.cluster.wait.acquire.aligned",
        ] {
            assert!(k.source.contains(want), "{want}");
        }
        // not for block-scaled FP8
        let block = generate_hopper_fp8_gemm(
            &HopperProblem::padded(4096, 4096, 4096),
            (DType::E4M3, DType::E4M3),
            Scaling::Block,
            DType::BF16,
            &HopperConfig {
                cluster: 2,
                bn: 128,
                ..HopperConfig::large().for_bits(8)
            },
            &Fused::default(),
        );
        assert!(block.unwrap_err().to_string().contains("cluster = 2"));
    }

    #[test]
    fn mn_major_boxes_and_tma_store() {
        let p = HopperProblem::padded(4096, 4096, 4096).with_majors(Major::MN, Major::MN);
        let k = generate_hopper_gemm(&p, DType::F16, DType::F16, &HopperConfig::large()).unwrap();
        let m = maps(&k);
        assert_eq!(m.len(), 3);
        assert_eq!(
            (m[0].box_dims, m[1].box_dims, m[2].box_dims),
            ([64, 64], [64, 64], [64, 16]) // D: one warp's 16 rows per store
        );
        assert!(
            k.source.contains(
                "tma_load_2d(sb + 24576u, &tmB, full_bar + 8 * s, tn * 256 + 192, kb * 64)"
            )
        );
        assert!(k.source.contains("1, 1, 1, 1, 1;"), "tnspA = tnspB = 1");
        assert!(k.persistent);
    }
}
