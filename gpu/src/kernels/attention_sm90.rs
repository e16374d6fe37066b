//! Forward attention on Hopper (sm_90a), FlashAttention-3 style: `O = softmax(scale * Q·Kᵀ + mask)·V`
//! and the log-sum-exp of each row, with TMA, mbarriers and `wgmma`.
//!
//! - One CTA per (128 query rows, head, batch): a producer warp group (one thread issues the TMA loads:
//!   Q once, then K and V tiles of `block_n` keys into a 2-stage ring, K and V each with their own full
//!   and empty mbarriers, so a K slot is free again as soon as its `Q·Kᵀ` is done, before the `P·V`) and
//!   two consumer warp groups of 64 query rows each ([`crate::piece::tma_mainloop`]'s roles,
//!   `setmaxnreg` 24 / 240); or, for d = 64, three ([`Sm90AttentionConfig::consumers`]: 192 rows, 512
//!   threads, `setmaxnreg` 24 / 160).
//! - The tensor maps view Q, K, V as `(D, S, H, B)` (4-D, strides from the layouts): rows past a sequence
//!   are zero-filled by the TMA unit, never read from the next batch or head.
//! - Varlen (packed sequences, `cu_q`/`cu_k` offsets): one CTA per (query block, head, sequence), the maps
//!   span the packed `(total, H, D)` tensors (one batch) and the boxes start at the sequence's first row;
//!   key rows past the sequence (the next sequence's, or zeros past the total) are masked like any
//!   sequence end, query rows past it are computed but never stored; blocks past a shorter sequence exit.
//! - `S = Q·Kᵀ`: `wgmma m64n{block_n}k16` with both operands K-major in shared memory (the 128-byte
//!   swizzled GMMA atoms of [`crate::piece::gmma_operand`]); the online softmax
//!   ([`crate::piece::online_softmax`]) on the accumulators (`gmma_c_layout`, rows shared by lane quads),
//!   `scale * log2(e)` folded into `exp2`; masks ([`crate::piece::score_mask`]) only on the blocks that
//!   need them (the sequence end, the causal diagonal, bottom-right aligned as FlashAttention 2).
//! - `O += P·V`: P packed to f16/bf16 in registers as the A operand of a register-A wgmma
//!   (`m64n{d}k16`), the register map derived by [`gmma_accumulator_as_a`]; V from shared memory as the
//!   MN-major B operand (transposed descriptor).
//! - Causal: the key blocks past the diagonal of the CTA's last row are never loaded (tile skipping);
//!   CTAs with the longest rows are launched first.
//! - Persistent ([`Sm90AttentionConfig::persistent`]; by the plan for short non-causal sequences and
//!   every causal one): one CTA per SM loops over the tiles; Q has an empty mbarrier too, the K/V ring
//!   and the ping-pong phases run on across tiles, so the next tile's loads overlap the last `P·V` and
//!   the epilogue. The tiles go in a static order, or (causal) come from the dynamic scheduler
//!   ([`Sm90AttentionConfig::dynamic_tiles`]): the producer takes each next tile from an atomic counter
//!   and hands it to the consumers through shared memory.
//! - Epilogue: O scaled by `1/l`, written by each consumer into its 64 rows of Q's shared memory (free
//!   after the tile's last `S = Q·Kᵀ`; persistent, into staging boxes of its own where shared memory has
//!   room, so that the next tile's Q may land meanwhile, else into Q's, released after the store) as the
//!   output atom's swizzled 128-byte rows ([`crate::piece::epilogue_sm90::StagedStore`]), and TMA-stored
//!   by one thread (whole 32-byte sectors; rows past the sequence clipped by the map); with varlen (the
//!   packed tensor goes on with the next sequence), or [`Sm90AttentionConfig::tma_store_o`] off, stored
//!   by each thread from the registers (value pairs, rows past the sequence skipped). The LSE by one lane
//!   per row.
//!
//! ```
//! use cute_gpu::{kernels::attention_sm90::{generate_attention_sm90, Sm90AttentionConfig}, DType};
//! let k = generate_attention_sm90(&Sm90AttentionConfig::new(DType::F16, 64, true)).unwrap();
//! assert!(k.source.contains("setmaxnreg.inc.sync.aligned.u32 240;") && k.source.contains("mbar_expect_tx("));
//! ```

use crate::arch::convert::{PACK, pack_fn};
use crate::arch::math::{EX2, poly_ex2};
use crate::arch::memory::SMEM_ADDR;
use crate::arch::{mbarrier, sync, tma, wgmma};
use crate::atom::{Fragment, gmma_accumulator_as_a, gmma_n8_values};
use crate::dtype::{DType, Major};
use crate::error::{GpuError, Result, ceil_div, config, mul, to_u32};
use crate::kernel::{Arg, Buffer, Kernel, TensorMapArg};
use crate::kernels::attention_sm80::AttentionArgs;
use crate::piece::epilogue_sm90::{StagedStore, Staging};
use crate::piece::gmma_operand::{GmmaOperand, gmma_operand};
use crate::piece::online_softmax::{OnlineSoftmax, gmma_index};
use crate::piece::score_mask::{ScoreMask, key_limit};
use cute_layout_core::atom::gmma::gmma_c_layout;

/// Query rows per consumer warp group (the wgmma M).
const WG_ROWS: i64 = 64;
/// Head-dim (or key) columns of one 128-byte swizzle row of 16-bit values: one TMA box's inner extent.
const CHUNK: i64 = 64;
/// Registers of the producer warp group after its `setmaxnreg.dec`.
const PRODUCER_REGS: u32 = 24;
/// Most stages of the K/V ring ([`Sm90AttentionConfig::stages`]).
const MAX_STAGES: i64 = 3;
/// Dynamic shared memory of one sm_90 CTA (227 KiB).
const SMEM_LIMIT: i64 = 232448;

/// The compiled variant of the Hopper kernel (problem sizes are arguments).
///
/// ```
/// use cute_gpu::{kernels::attention_sm90::Sm90AttentionConfig, DType};
/// let c = Sm90AttentionConfig::new(DType::BF16, 128, true);
/// assert_eq!((c.block_m(), c.block_n, c.overlap, c.pingpong, c.varlen), (128, 128, true, true, false));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sm90AttentionConfig {
    /// f16 or bf16.
    pub dtype: DType,
    /// Head dimension (64, 128 or 256).
    pub head_dim: i64,
    /// Causal mask (bottom-right aligned).
    pub causal: bool,
    /// Keys per K/V tile (a multiple of 16 from 64 to 256, within shared memory and registers).
    pub block_n: i64,
    /// Intra-warp-group overlap: `S(j) = Q·K(j)ᵀ` is issued before `O += P(j-1)·V(j-1)`, and the softmax
    /// of `S(j)` runs while that `P·V` is in flight (O is rescaled after it).
    pub overlap: bool,
    /// Ping-pong of the two consumer warp groups (with `overlap`): named barriers make them take turns
    /// issuing their wgmmas, so one's softmax runs under the other's GEMMs.
    pub pingpong: bool,
    /// Packed variable-length batches (FlashAttention's `varlen`): parameters `cu_q`, `cu_k` hold the
    /// sequences' first rows; a CTA is one (query block, head, sequence), its TMA boxes start at the
    /// sequence's rows of the packed `(total, H, D)` tensors.
    pub varlen: bool,
    /// Persistent CTAs (one per SM, with the overlap): each loops over (query block, head, batch) tiles, the
    /// producer loading the next tile's Q (once both consumers have read the last one) and K/V while the
    /// consumers finish the previous tile's last P·V and store it.
    pub persistent: bool,
    /// O through shared memory and TMA: each consumer writes its `64 x d` tile of O into its rows of Q's
    /// shared memory (read for the last time by the tile's last `S = Q·Kᵀ`) as swizzled 128-byte rows, and
    /// one thread TMA-stores them (full 32-byte sectors; rows past the sequence clipped by the tensor map).
    /// Not with varlen (the packed tensor goes on with the next sequence): there O is stored from the
    /// registers, as with `false`. Persistent, O has staging boxes of its own where shared memory has
    /// room (d 64, 128), else Q is released after the store has read it. Measured on an H100 against
    /// `false` in the same run (gpu/logs/attention90/run9-bench.log): +2-13% at 1k and 4k keys for d = 128
    /// and 256, within ±3% at 16k; d = 64 +1/+4% at 1k, -7% (persistent) and -2% at 4k, so the default
    /// ([`Sm90AttentionConfig::new`]) is on for d = 128 and 256 only; [`Sm90AttentionConfig::for_keys`]
    /// turns it on for d = 64 causal up to 1k keys (2 consumers, persistent: +4 %, run 48).
    pub tma_store_o: bool,
    /// Stages of the K/V ring (2 or 3; 3 only where shared memory has room: [`Self::fitting_stages`]).
    /// Measured on an H100 against 2 (gpu/logs/attention90/run11-bench.err, run12-bench.err: first-round
    /// times, adjacent): d = 64 0 to -2.5%, d = 128 1k -11% non-causal (persistent: O loses its own
    /// staging boxes), equal causal; the default stays 2.
    pub stages: i64,
    /// The first `S = Q·Kᵀ` wgmma of each key block with scale-d = 0 (`S = Q·Kᵀ` overwrites the
    /// accumulators) instead of zeroing S before it. Measured (same logs, first-round times): equal at 1k,
    /// -4% at d = 64 4k causal, -7 to -9% at d = 64 16k; off by default. Timed again in medians with the
    /// benchmark's handles rotated, two handles, two processes (gpu/logs/attention90/run87, H200): d = 64
    /// 4k +2.0 / +1.9 % (causal +1.2 / +1.2 %), 16k causal +2.5 / +1.9 %, 16k non-causal -3.6 / -3.6 %, 1k
    /// causal -3.9 / -3.8 %, 1k non-causal -0.2 / -0.4 % (run86, twelve handles: the same signs);
    /// [`Self::for_keys`] takes it for d = 64 from 2k keys, but non-causal from 8k.
    pub s_scale_d0: bool,
    /// Persistent tile order, longest-processing-time first (with [`Self::persistent`]; ignored without),
    /// when not 0: the tiles of a section of (head, batch) pairs whose K and V fit in `lpt_l2_mib` MiB
    /// (of the 50 MiB L2) go heaviest query blocks first (causal: the rows with the most keys), and the
    /// CTAs take them in a snake order (rounds of one tile per CTA, every other round backwards), so
    /// each CTA's total work evens out. With 0, CTA `i` takes tiles `i, i + grid, ...` of the (query
    /// block, head, batch) order.
    pub lpt_l2_mib: i64,
    /// Consumer warp groups of 64 query rows (2, or 3 for d = 64 as FlashAttention 3's hdim-64 kernel:
    /// 192 query rows per CTA, 512 threads, `setmaxnreg` 24 / 160, so each K/V tile loaded serves 1.5x
    /// the rows). With ping-pong the consumers take their turns in a ring (consumer `c` waits on named
    /// barrier `1 + c`, hands over on that of `(c + 1) % consumers`); 3 only for d = 64 with at most 128
    /// keys per tile (S, P and O within 160 registers: 144 keys spill 96 bytes, 192 keys 416).
    /// [`Self::new`] takes 2, [`Self::for_keys`] 3 for d = 64 except causal up to 1024 keys (measured).
    pub consumers: i64,
    /// Lazy rescaling of O (FlashAttention 4; with [`Self::overlap`], ignored without): a row's running
    /// max moves only when a key block raises it by more than 2^8 (the probabilities stay below 256 and
    /// are exactly normalized at the end), and a warp whose rows all kept their max skips the
    /// multiplication of its O accumulators ([`OnlineSoftmax::lazy`]). Measured on an H100 against
    /// `false` in one process (`gpu/logs/attention90/run17-bench-lazy.log`, bf16): d = 256 +4 to +8 %
    /// on every shape of the sweep (O is 128 registers per thread there, S only 40); d = 128 0 to -9 %,
    /// d = 64 -5 to +4 %. [`Self::new`] turns it on for d = 256, [`Self::for_keys`] for d = 128 causal
    /// with 128-key tiles (below 8k keys) and non-causal with 192-key tiles from 8k: timed again against
    /// `false` with the benchmark's handles rotated (run84, H200, three processes): d = 128 causal 1k
    /// +1.2 / +1.0 / +1.2 %, 4k +1.6 / +1.5 / +1.6 %, 16k -1.2 / -1.2 / -1.3 %; non-causal 16k +0.9 / +0.6 /
    /// +0.9 %, 4k -3.9 / -4.3 / -4.0 %, 1k -1.5 / -0.8 / -1.0 %.
    ///
    /// ```
    /// use cute_gpu::{kernels::attention_sm90::{Sm90AttentionConfig, generate_attention_sm90}, DType};
    /// let c = Sm90AttentionConfig::new(DType::BF16, 256, false);
    /// let k = generate_attention_sm90(&c).unwrap();
    /// assert!(c.lazy_rescale && k.name.ends_with("_lz") && k.source.contains("if (__any_sync(0xffffffffu, sm_grew))"));
    /// assert!(!Sm90AttentionConfig::new(DType::BF16, 128, false).lazy_rescale);
    /// let serial = Sm90AttentionConfig { overlap: false, pingpong: false, ..c };
    /// assert!(!generate_attention_sm90(&serial).unwrap().name.contains("_lz")); // O rescaled in place
    /// ```
    pub lazy_rescale: bool,
    /// One of every this many score atoms (8 keys) of the softmax takes its exponentials on the FMA
    /// pipe ([`crate::arch::math::poly_ex2`], FlashAttention 4's offload) instead of `ex2.approx`; 0
    /// (the default): none. At d = 64 a key block's exponentials keep the special-function unit (16
    /// per clock per SM) as busy as its two GEMMs keep the tensor core. Measured on an H100 against 0
    /// in one process (`gpu/logs/attention90/run19-bench-poly.log`, bf16, d = 64 and 128, 1k and 4k keys,
    /// causal and not): one atom in 8 -2.5 to -6 %, in 4 -1 to -12 %, in 2 -9 to -27 %: the softmax is
    /// not bound by the special-function unit (ncu on an H200, run 21: 52 % busy at d = 64, 1k keys), and each
    /// offloaded exponential costs 9 issue slots instead of 1. So it stays off.
    ///
    /// ```
    /// use cute_gpu::{kernels::attention_sm90::{Sm90AttentionConfig, generate_attention_sm90}, DType};
    /// let c = Sm90AttentionConfig { poly_exp2_every: 4, ..Sm90AttentionConfig::new(DType::BF16, 64, false) };
    /// let k = generate_attention_sm90(&c).unwrap();
    /// assert!(k.name.ends_with("_px4") && k.source.contains("nj % 4 == 3 ? poly_exp2(x0) : fast_exp2(x0)"));
    /// ```
    pub poly_exp2_every: i64,
    /// Tail tiles (persistent, 3 consumer warp groups, fixed-length, not in the LPT order; ignored
    /// otherwise, [`Self::tails`]): when a sequence's query rows leave a last block of at most 64 rows
    /// (`Sq mod 192` in 1..=64: 1024 and 4096 rows leave 64), the last blocks of three (head, batch) pairs
    /// run as one tile, each consumer warp group with its own pair's 64 rows, K and V (three K/V boxes per
    /// stage, Q in three 64-row boxes), instead of three tiles with one live consumer each. A tile's
    /// time is its consumers' chain (ncu, run 21), so a tile with one live consumer costs about as much
    /// as a full one: 1024 rows took 6 tiles per head for 5.33 tiles of work. The stages are three
    /// pairs' wide (216 KiB at d = 64); with any other `Sq` the kernel runs the usual tiles.
    /// [`Self::for_keys`] turns them on with 3 consumers, [`Self::for_rows`] keeps them below 2048 query
    /// rows (measured there).
    pub tail_tiles: bool,
    /// Dynamic tile scheduler (with [`Self::persistent`]; ignored without, [`Self::dynamic`]): CTA `i`
    /// starts with tile `i`, and the producer takes each next tile from a counter in global memory
    /// (`gridDim.x + atomicAdd(&tile_sched[0], 1)`; allocated zeroed, and zeroed again by the grid's last
    /// fetch, `tiles - 1`, after which no CTA of the grid reads it, so no memset stands between two
    /// launches and the next grid's wait for this one, [`sync::GRID_DEPENDENCY_WAIT`], sees it zero), so a CTA
    /// that finished its tiles early takes the next one, as one CTA per tile gets from the hardware,
    /// while the loads of the next tile still overlap the end of the current one. The producer warp
    /// hands each tile to the consumers in the CTA's mailbox `tile_sched[1 + blockIdx.x]` between two
    /// named barriers (FlashAttention 3's arrangement: mailbox full, the producer warp arrives and the
    /// consumers wait; mailbox read, the other way round); a tile past the last tells them to stop.
    /// The mailbox is in global memory, not shared: racecheck does not take a `bar.arrive` ->
    /// `bar.sync` pair as ordering, so a shared-memory slot read by the consumers and rewritten by the
    /// producer for the next tile shows as a WAR hazard there (gpu/logs/attention90/run34-summary.log),
    /// and the tool then fails on whole test suites. The tiles go in the static order's sequence (LPT
    /// sections with [`Self::lpt_l2_mib`]: heaviest first).
    pub dynamic_tiles: bool,
    /// With [`Self::overlap`] (ignored without): O is rescaled by the last block's factors just before
    /// the next `P·V` is issued, while that turn's `S = Q·Kᵀ` runs on the tensor core (FlashAttention
    /// 3's order for d > 128), instead of right after the `P·V` it waited for, where the rescale sits
    /// between that wait and the next turn's issue.
    pub rescale_before_pv: bool,
    /// Persistent CTAs (ignored otherwise, and with tail tiles: [`Self::prefetches_q`]): the producer
    /// prefetches a tile's Q boxes into L2 (`cp.async.bulk.prefetch.tensor`) as soon as it reaches the
    /// tile, after the last tile's loads and before it waits for Q's shared memory to be free (after the
    /// last tile's epilogue where O is staged there), so that the load of Q then hits L2. [`Self::for_keys`]
    /// takes it for d = 256 causal and d = 128 non-causal: measured on H100s against the same kernels
    /// without it, one process each (gpu/logs/attention90/run60, run61, run63). (Runs 60-61 measured a
    /// version that also loaded Q after the tile's first K/V block, block 0 peeled out of the load loop:
    /// d = 256 causal +2.6 / +1.8 / +2.0 % (1k), +1.2 / +1.2 / +1.0 % (4k), d = 128 non-causal 1k +2.6 /
    /// +2.4 / +2.5 %, d = 128 causal 1k -1.9 / -1.8 %; with 192-key tiles it spilled in the producer's 24
    /// registers. For one CTA per tile, prefetching the Q of the CTA one wave further in launch order
    /// measured -3 to -5 % at d = 128 4k and d = 256 1k non-causal: not kept.)
    pub prefetch_q: bool,
    /// Keys of the narrow wgmmas of a tile's last key block, 0 for none (a multiple of 16 below
    /// [`Self::block_n`], not causal): a block with at most this many keys left before `Sk` runs
    /// `S = Q·Kᵀ` as `wgmma m64n{narrow_tail}k16` into the first accumulators of S (the rest are masked
    /// as keys past the end) and `O += P·V` over `narrow_tail / 16` k-steps instead of `block_n / 16`:
    /// 4096 keys in 192-key blocks leave a last block of 64, which otherwise costs as much as a full one.
    /// The last block runs in a copy of the loop body of its own (a branch around the wgmmas alone,
    /// joining with them in flight, made ptxas fence them, C7519: 4-6 % slower). [`Self::with_narrow_tail`]
    /// sets it for a key length; any other length runs the full wgmmas (the kernel is right for every
    /// length). Measured on an H100 and an H200 against the same kernels without it, two processes each
    /// (gpu/logs/attention90/run71, run72): d = 128 4k +1.1 / +1.1 / +1.0 / +2.5 %, 16k +2.8 / +3.5 /
    /// +1.5 / +4.7 %, d = 256 4k +0.3 / +2.8 / +1.3 / +1.2 %. Causal, for the first consumer's half of
    /// each diagonal block (d = 64 and 128, 128-key blocks), it measured -6 to -9 % at 1k and 4k (run72),
    /// so causal variants do not take it: the choice of the copy then depends on the consumer's rows,
    /// i.e. on `wg`, which ptxas does not know to be warp-uniform unless it is broadcast
    /// ([`crate::arch::sync::warp_group_index`]), and it compiled the wgmmas' surroundings per thread.
    pub narrow_tail: i64,
    /// The warp group index broadcast from lane 0 (`__shfl_sync`, [`crate::arch::sync::warp_group_index`])
    /// instead of `threadIdx.x / 128`: ptxas then knows it to be warp-uniform and keeps what derives from
    /// it (the descriptors, the consumer's rows) in uniform registers instead of computing it per thread
    /// and moving it over (R2UR) before the wgmmas (nvdisasm: 106 R2UR -> 2 at d = 256). [`Self::new`]
    /// takes it for d = 64 and d = 256, [`Self::for_keys`] for d = 128 non-causal from 8k keys: against
    /// `threadIdx.x / 128`, two processes each on an H100 (gpu/logs/attention90/run77, old and new binaries)
    /// and on an H200 (run78, both in one process): d = 256 +2.5 to +6.8 % and +0.9 to +5.0 % on every row
    /// (persistent causal ones included since the producer re-reads its CTA index for the dynamic
    /// scheduler's mailbox: kept live, it spilled in the producer's 24 registers), d = 64
    /// -1.8 to +7.6 % and -0.8 to +7.2 %; d = 128 16k non-causal +2.7 / +1.7 % (run78), but 16k causal
    /// -7.2 / -7.7 % and -8.8 / -8.7 %, 1k non-causal -1.7 / -1.8 %, 4k within 0.3 %. Persistent variants
    /// at d = 128 and 256 other than the plan's (d = 256 causal: dynamic scheduler, O rescaled before
    /// `P·V`) spill 8-180 bytes of per-tile values with it (the consumers' registers are full; reloaded
    /// once per tile), so the compile tests check those with the plain index, and the plan takes the
    /// plain one for packed (varlen) persistent d = 256 kernels (8-12 bytes).
    pub broadcast_wg: bool,
}

impl Sm90AttentionConfig {
    /// The default tile for `head_dim`: 128 keys per tile (80 for d = 256, FlashAttention 3's: O, S and P
    /// fit 240 registers, two stages of K and V fit shared memory). [`Self::for_keys`] widens it for long
    /// sequences.
    ///
    /// ```
    /// use cute_gpu::{kernels::attention_sm90::Sm90AttentionConfig, DType};
    /// assert_eq!(Sm90AttentionConfig::new(DType::F16, 256, false).block_n, 80);
    /// assert_eq!(Sm90AttentionConfig::new(DType::F16, 128, true).block_n, 128);
    /// assert!(!Sm90AttentionConfig::new(DType::F16, 64, true).tma_store_o); // O via TMA from d = 128
    /// ```
    pub fn new(dtype: DType, head_dim: i64, causal: bool) -> Sm90AttentionConfig {
        Sm90AttentionConfig {
            dtype,
            head_dim,
            causal,
            block_n: if head_dim == 256 { 80 } else { 128 },
            overlap: true,
            pingpong: true,
            varlen: false,
            persistent: false,
            tma_store_o: head_dim >= 128,
            stages: 2,
            s_scale_d0: false,
            lpt_l2_mib: 0,
            consumers: 2,
            lazy_rescale: head_dim == 256,
            poly_exp2_every: 0,
            tail_tiles: false,
            dynamic_tiles: false,
            rescale_before_pv: false,
            prefetch_q: false,
            narrow_tail: 0,
            broadcast_wg: broadcasts_by_default(head_dim),
        }
    }

    /// The same variant with [`Self::narrow_tail`] for `sk` keys: the last key block's keys rounded up to
    /// 16 where that is at least 32 keys short of a full block, fixed-length and not causal; else 0.
    ///
    /// ```
    /// use cute_gpu::{kernels::attention_sm90::Sm90AttentionConfig, DType};
    /// let c = |d, causal| Sm90AttentionConfig::new(DType::BF16, d, causal).for_keys(4096);
    /// assert_eq!(c(128, false).with_narrow_tail(4096).narrow_tail, 64); // 21 blocks of 192 and one of 64
    /// assert_eq!(c(256, false).with_narrow_tail(4096).narrow_tail, 16); // 51 of 80 and one of 16
    /// assert_eq!(c(128, false).with_narrow_tail(4090).narrow_tail, 64); // 58 keys: one k-step of 16 more
    /// assert_eq!(c(128, false).with_narrow_tail(4202).narrow_tail, 0); // 170 of 192: too close to full
    /// assert_eq!(c(128, true).with_narrow_tail(4096).narrow_tail, 0);
    /// ```
    pub fn with_narrow_tail(self, sk: i64) -> Sm90AttentionConfig {
        let bn = self.block_n;
        let rest = sk.rem_euclid(bn);
        let keys = (rest + 15) / 16 * 16;
        let narrow = !self.causal && !self.varlen && rest > 0 && keys + 32 <= bn;
        Sm90AttentionConfig {
            narrow_tail: if narrow { keys } else { 0 },
            ..self
        }
    }

    /// The same variant with `consumers` consumer warp groups where the head dim takes them (3: d = 64
    /// only, its K/V tile narrowed to 128 keys if wider; [`Self::consumers`]); else unchanged.
    ///
    /// ```
    /// use cute_gpu::{kernels::attention_sm90::Sm90AttentionConfig, DType};
    /// let c = |d| Sm90AttentionConfig::new(DType::BF16, d, false).for_keys(16384).with_consumers(3);
    /// assert_eq!((c(64).consumers, c(64).block_m(), c(64).block_n), (3, 192, 128));
    /// assert_eq!((c(128).consumers, c(128).block_m()), (2, 128));
    /// ```
    pub fn with_consumers(self, consumers: i64) -> Sm90AttentionConfig {
        if consumers == 3 && self.head_dim != 64 {
            return self;
        }
        let block_n = if consumers == 3 {
            self.block_n.min(128)
        } else {
            self.block_n
        };
        Sm90AttentionConfig {
            consumers,
            block_n,
            ..self
        }
    }

    /// The consumers' registers after their `setmaxnreg.inc`: what `128 * (1 + consumers)` threads leave
    /// beside the producer's 24 (a multiple of 8: 240 with 2 consumers, 160 with 3).
    fn consumer_regs(&self) -> u32 {
        if self.consumers == 3 { 160 } else { 240 }
    }

    /// The tile and schedule for sequences of `sk` keys (the longest, for varlen): wider K/V tiles, 192
    /// keys for d = 64 and d = 128, once there are at least 2048 keys (8192 when causal: a wide tile
    /// wastes more at the diagonal of short rows; d = 128 had FlashAttention 3's 176 until session 6:
    /// 192 measured +2.1 % at 4k non-causal in run 42 and +2.9 / +2.4 % in two processes of run 62, +0.2 %
    /// at 16k, +0.6 / +1.3 % at 16k causal, gpu/logs/attention90/run62-summary.log); persistent CTAs for short non-causal sequences
    /// (up to 1024 keys, 4096 for d = 64; not d = 256), where a tile's epilogue and the next one's loads
    /// are a large share. Measured on an H100 (gpu/logs/attention90/run6-bench.log): at 16k keys +6% (d = 64) and
    /// +13% (d = 128), at 1k keys 2-5% slower; persistent (gpu/logs/final2/bench_attention.log) at 1k
    /// non-causal +8% (d = 64), +10% (d = 128), +2% (d = 256), at 4k +3% (d = 64), elsewhere slower (causal
    /// tiles are not balanced across the persistent CTAs of the static order). Causal: persistent with
    /// the dynamic tile scheduler ([`Self::dynamic_tiles`]), in the LPT order of 32 MiB sections
    /// ([`Self::lpt_l2_mib`]) from 2048 keys on. Measured on H100s against one CTA per tile in one
    /// process, two calls (gpu/logs/attention90/run30-summary.log, run31-summary.log): d = 128 1k +15 %
    /// (dynamic; +6 % with LPT), 4k +9 / +11 % (LPT; +4 / +6 % without), 16k +1 %; d = 256 4k +13 / +12 %,
    /// 16k +5 %, 1k equal; d = 64 4k +7 / +4.5 %, 16k +1 %; d = 64 1k +4.4 % against the static LPT order
    /// it had before (run39), which had measured +8.5 / +9 % against one CTA per tile (run11-bench.err,
    /// run12-bench.err). The hand-off's cost was measured in runs 32-38 (run32-38-commands.md).
    /// Non-causal it pays nothing over the static order (0 to -10 %). At d = 256 non-causal the
    /// persistent CTAs measured 3-4 % slower than one CTA per tile at 1k in four calls (run35-38: the
    /// next tile's Q waits for the last one's O store, staged in Q's shared memory), so d = 256 runs one
    /// CTA per tile there.
    ///
    /// d = 64 takes 3 consumer warp groups ([`Self::with_consumers`]: 192 query rows, at most 128 keys per
    /// tile) except causal up to 1024 keys: measured on an H100 against 2 in the same call
    /// (gpu/logs/attention90/run13-bench-consumers3.log, medians): non-causal +4% (1k), +10% (4k), +12%
    /// (16k), causal +3% (4k), +6% (16k), but -7% at 1k causal (192-row blocks of 1024 rows, LPT); with
    /// the dynamic scheduler -8 % there (run39).
    ///
    /// ```
    /// use cute_gpu::{kernels::attention_sm90::Sm90AttentionConfig, DType};
    /// let c = |d, causal| Sm90AttentionConfig::new(DType::BF16, d, causal);
    /// assert_eq!(c(128, false).for_keys(4096).block_n, 192);
    /// assert_eq!(c(128, true).for_keys(4096).block_n, 128);
    /// assert_eq!(c(64, true).for_keys_with_consumers(16384, 2).block_n, 192);
    /// assert_eq!(c(256, false).for_keys(16384).block_n, 80);
    /// assert!(c(128, false).for_keys(1024).persistent && !c(128, false).for_keys(4096).persistent);
    /// assert!(!c(256, false).for_keys(1024).persistent && c(256, true).for_keys(1024).persistent);
    /// assert!(c(64, false).for_keys(4096).persistent && !c(64, false).for_keys(4096).dynamic());
    /// let (dynamic, lpt) = (c(128, true).for_keys(1024), c(128, true).for_keys(4096));
    /// assert!(dynamic.dynamic() && dynamic.lpt_l2_mib == 0 && lpt.dynamic() && lpt.lpt_l2_mib == 32);
    /// let short = c(64, true).for_keys(1024);
    /// assert!(short.dynamic() && short.lpt_l2_mib == 0 && c(64, true).for_keys(4096).consumers == 3);
    /// assert!(short.tma_store_o && !c(64, true).for_keys(4096).tma_store_o);
    /// let wide = c(64, false).for_keys(16384);
    /// assert_eq!((wide.consumers, wide.block_m(), wide.block_n, short.consumers), (3, 192, 128, 2));
    /// ```
    pub fn for_keys(self, sk: i64) -> Sm90AttentionConfig {
        let c = self.tiles_for_keys(sk).schedule_for_keys(sk);
        match c.head_dim {
            64 if !(c.causal && sk <= 1024) => Sm90AttentionConfig {
                tail_tiles: true,
                ..c.with_consumers(3)
            },
            // causal up to 1k keys: 2 consumers, persistent, O through its own staging boxes and TMA
            // (run 48: +4 % against the direct stores in one process; -6 % non-causal 1k, 3 consumers)
            64 => Sm90AttentionConfig {
                tma_store_o: true,
                ..c
            },
            _ => c,
        }
    }

    /// [`Self::for_keys`]' ping-pong, [`Self::rescale_before_pv`], [`Self::prefetch_q`],
    /// [`Self::broadcast_wg`], [`Self::lazy_rescale`] and [`Self::s_scale_d0`] (measured there). Measured on an H100 against the
    /// default schedule (ping-pong, O rescaled after each `P·V`), two calls of `bench_attention
    /// --schedules --rescale-early --rescale-early-nopp` (gpu/logs/attention90/run55, run56):
    /// - O rescaled before each `P·V`: d = 256 non-causal +1.9 / +1.3 % (1k), +2.7 / +2.0 % (4k), +1.1 /
    ///   +4.4 % (16k), causal -1.6 to +0.7 %; d = 128 non-causal 16k +4.3 / +9.8 %, but 4k -0.4 / -2.6 %
    ///   and 1k -0.5 / -1.1 %; d = 64 -1 to -5 %;
    /// - without ping-pong: d = 64 causal 1k +2.1 / +1.6 % (elsewhere at d = 64 -1 to -7 %); d = 128
    ///   non-causal 1k +2.5 / +1.9 % with O rescaled before each `P·V` (-0.7 / -1.4 % without).
    ///
    /// With the Q prefetch (session 6, five processes of two calls, gpu/logs/attention90/run64, run66):
    /// O rescaled before each `P·V` for d = 256 causal +0.5 to +1.0 % (1k), +1.0 to +2.3 % (4k), +1.0 to
    /// +4.4 % (16k), positive in all five; d = 128 causal without ping-pong +1.1 / +1.9 % (1k), +1.8 to
    /// +1.9 % (4k), +0.5 to +2.1 % (16k) (run66; runs 55/56 had +0.8 to +1.9 % but -1.6 % once at 16k):
    /// both taken.
    ///
    /// ```
    /// use cute_gpu::{kernels::attention_sm90::Sm90AttentionConfig, DType};
    /// let c = |d, causal| Sm90AttentionConfig::new(DType::BF16, d, causal);
    /// assert!(c(256, false).for_keys(4096).rescale_before_pv && c(256, true).for_keys(4096).rescale_before_pv);
    /// assert!(c(128, false).for_keys(16384).rescale_before_pv && !c(128, false).for_keys(4096).rescale_before_pv);
    /// assert!(!c(64, true).for_keys(1024).pingpong && c(64, true).for_keys(4096).pingpong);
    /// assert!(!c(128, true).for_keys(1024).pingpong && !c(128, true).for_keys(16384).pingpong);
    /// let short = c(128, false).for_keys(1024);
    /// assert!(!short.pingpong && short.rescale_before_pv && c(128, false).for_keys(4096).pingpong);
    /// assert!(short.prefetches_q() && c(256, true).for_keys(1024).prefetches_q());
    /// assert!(c(128, false).for_keys(16384).broadcast_wg && !c(128, false).for_keys(4096).broadcast_wg);
    /// assert!(!c(128, true).for_keys(16384).broadcast_wg && c(256, true).for_keys(1024).broadcast_wg);
    /// assert!(c(128, true).for_keys(4096).lazy_rescale && !c(128, true).for_keys(16384).lazy_rescale);
    /// assert!(c(128, false).for_keys(16384).lazy_rescale && !c(128, false).for_keys(4096).lazy_rescale);
    /// assert!(c(64, false).for_keys(4096).s_scale_d0 && !c(64, false).for_keys(16384).s_scale_d0);
    /// assert!(c(64, true).for_keys(16384).s_scale_d0 && !c(64, true).for_keys(1024).s_scale_d0);
    /// assert!(!c(128, true).for_keys(1024).prefetches_q() && !c(256, false).for_keys(1024).prefetches_q());
    /// ```
    fn schedule_for_keys(self, sk: i64) -> Sm90AttentionConfig {
        let (d, causal, short) = (self.head_dim, self.causal, sk <= 1024);
        // d = 128 causal; d = 64 causal and d = 128 non-causal up to 1k keys
        let no_pingpong = (d == 128 && causal) || (short && d == if causal { 64 } else { 128 });
        let rescale_early = d == 256 || (!causal && d == 128 && (short || sk >= 8192));
        Sm90AttentionConfig {
            broadcast_wg: self.broadcast_wg || (!causal && d == 128 && sk >= 8192),
            // d = 128: causal below 8k keys, non-causal from 8k (Self::lazy_rescale)
            lazy_rescale: self.lazy_rescale || (d == 128 && causal == (sk < 8192)),
            // d = 64 from 2k keys, but non-causal from 8k (Self::s_scale_d0)
            s_scale_d0: self.s_scale_d0 || (d == 64 && sk > 1024 && (causal || sk < 8192)),
            pingpong: self.pingpong && !no_pingpong,
            rescale_before_pv: self.rescale_before_pv || rescale_early,
            prefetch_q: self.prefetch_q || d == if causal { 256 } else { 128 },
            ..self
        }
    }

    /// The variant for `sq` query rows: tail tiles ([`Self::tail_tiles`]) only below 2048 rows. Measured
    /// on H100s against the same kernel without them, in one process each (`bench_attention
    /// --no-tails`, gpu/logs/attention90/run25-summary.log, run27-summary.log): 1024 rows (5 full blocks
    /// and a 64-row one per pair) +7.6, +13.5 and +7.4 %; 4096 rows (21 and 64 rows) -0.4, -0.6 and -6.8 %.
    ///
    /// ```
    /// use cute_gpu::{kernels::attention_sm90::Sm90AttentionConfig, DType};
    /// let c = Sm90AttentionConfig::new(DType::BF16, 64, false);
    /// assert!(c.for_keys(1024).for_rows(1024).tails() && !c.for_keys(4096).for_rows(4096).tails());
    /// ```
    pub fn for_rows(self, sq: i64) -> Sm90AttentionConfig {
        Sm90AttentionConfig {
            tail_tiles: self.tail_tiles && sq < 2048,
            ..self
        }
    }

    /// [`Self::for_keys`] with `consumers` consumer warp groups where the head dim takes them (the tile
    /// narrowed for 3, as wide as for 2 consumers otherwise).
    ///
    /// ```
    /// use cute_gpu::{kernels::attention_sm90::Sm90AttentionConfig, DType};
    /// let c = Sm90AttentionConfig::new(DType::BF16, 64, false);
    /// assert_eq!((c.for_keys_with_consumers(4096, 2).block_n, c.for_keys_with_consumers(4096, 3).block_n), (192, 128));
    /// ```
    pub fn for_keys_with_consumers(self, sk: i64, consumers: i64) -> Sm90AttentionConfig {
        self.tiles_for_keys(sk).with_consumers(consumers)
    }

    /// [`Self::for_keys`]' tile and schedule for 2 consumer warp groups.
    fn tiles_for_keys(self, sk: i64) -> Sm90AttentionConfig {
        let long = sk >= if self.causal { 8192 } else { 2048 };
        let block_n = match (self.head_dim, long) {
            (64, true) => 192,
            (128, true) => 192,
            _ => self.block_n,
        };
        // d = 256: O has no staging boxes of its own beside two K/V stages, so a persistent CTA's next Q
        // waits for the last one's store
        let short = match self.head_dim {
            64 => sk <= 4096,
            128 => sk <= 1024,
            _ => false,
        };
        // causal: the dynamic scheduler, in the LPT order of 32 MiB sections from 2048 keys
        let lpt = self.causal && sk > 1024;
        Sm90AttentionConfig {
            block_n,
            persistent: self.overlap && (self.causal || short),
            dynamic_tiles: self.causal,
            lpt_l2_mib: if lpt { 32 } else { self.lpt_l2_mib },
            ..self
        }
    }

    fn check(&self) -> Result<()> {
        if !self.dtype.is_half()
            || ![64, 128, 256].contains(&self.head_dim)
            || self.block_n % 16 != 0
            || !(64..=256).contains(&self.block_n)
            || (self.pingpong && !self.overlap)
            || (self.persistent && !self.overlap)
            || !(2..=MAX_STAGES).contains(&self.stages)
            || self.poly_exp2_every < 0
            || (self.narrow_tail != 0
                && (self.causal
                    || self.narrow_tail % 16 != 0
                    || !(16..self.block_n).contains(&self.narrow_tail)))
        {
            return config(
                "attention_sm90",
                format!(
                    "{}, d = {}, block_n = {}, overlap {}, pingpong {}, {} stages, poly_exp2_every {}, narrow_tail {}: f16/bf16, d 64|128|256, block_n a multiple of 16 in 64..=256, ping-pong and persistent need overlap, 2..={MAX_STAGES} stages, poly_exp2_every >= 0, narrow_tail 0 or (not causal) a multiple of 16 below block_n",
                    self.dtype.name(),
                    self.head_dim,
                    self.block_n,
                    self.overlap,
                    self.pingpong,
                    self.stages,
                    self.poly_exp2_every,
                    self.narrow_tail
                ),
            );
        }
        if !(2..=3).contains(&self.consumers)
            || (self.consumers == 3 && (self.head_dim != 64 || self.block_n > 128))
        {
            return config(
                "attention_sm90",
                format!(
                    "{} consumer warp groups with d = {}, block_n = {}: 2, or 3 for d = 64 with block_n <= 128 (S, P and O in 160 registers)",
                    self.consumers, self.head_dim, self.block_n
                ),
            );
        }
        Ok(())
    }

    /// Query rows per CTA.
    ///
    /// ```
    /// use cute_gpu::{kernels::attention_sm90::Sm90AttentionConfig, DType};
    /// assert_eq!(Sm90AttentionConfig::new(DType::F16, 64, false).block_m(), 128); // two consumer warp groups x 64
    /// assert_eq!(Sm90AttentionConfig::new(DType::F16, 64, false).with_consumers(3).block_m(), 192);
    /// ```
    pub fn block_m(&self) -> i64 {
        WG_ROWS * self.consumers
    }

    /// Whether O is stored through shared memory and TMA ([`Self::tma_store_o`], not varlen).
    ///
    /// ```
    /// use cute_gpu::{kernels::attention_sm90::Sm90AttentionConfig, DType};
    /// let c = Sm90AttentionConfig::new(DType::F16, 128, false);
    /// assert!(c.stages_o() && !Sm90AttentionConfig { varlen: true, ..c }.stages_o());
    /// ```
    pub fn stages_o(&self) -> bool {
        self.tma_store_o && !self.varlen
    }

    /// The same variant with `want` stages of the K/V ring, or as many as shared memory has room for
    /// (at least 2).
    ///
    /// ```
    /// use cute_gpu::{kernels::attention_sm90::Sm90AttentionConfig, DType};
    /// let c = |d, causal| Sm90AttentionConfig::new(DType::BF16, d, causal);
    /// assert_eq!(c(64, false).fitting_stages(3).stages, 3);
    /// assert_eq!(c(128, false).fitting_stages(3).stages, 3); // 128 keys: 225 KiB
    /// assert_eq!(c(128, false).for_keys(4096).fitting_stages(3).stages, 2); // 192 keys: 2 stages only
    /// assert_eq!(c(256, false).fitting_stages(3).stages, 2);
    /// ```
    pub fn fitting_stages(self, want: i64) -> Sm90AttentionConfig {
        (2..=want.clamp(2, MAX_STAGES))
            .rev()
            .map(|stages| Sm90AttentionConfig { stages, ..self })
            .find(|c| Operands::new(c).is_ok_and(|ops| ops.smem() <= SMEM_LIMIT))
            .unwrap_or(Sm90AttentionConfig { stages: 2, ..self })
    }

    /// The named barrier (a C expression of `cw`) of each consumer's epilogue: `1 + consumers + cw`, past
    /// the ping-pong ring's `1 .. consumers` (at most 7 of a CTA's 16).
    fn epilogue_barrier(&self) -> String {
        format!("{} + cw", 1 + self.consumers)
    }

    /// Whether the persistent tiles go in the LPT order ([`Self::lpt_l2_mib`]).
    fn lpt_order(&self) -> bool {
        self.persistent && self.lpt_l2_mib > 0
    }

    /// Whether the variant has tail tiles ([`Self::tail_tiles`] where it applies: persistent, 3
    /// consumers, fixed-length, not in the LPT order).
    ///
    /// ```
    /// use cute_gpu::{kernels::attention_sm90::Sm90AttentionConfig, DType};
    /// let c = Sm90AttentionConfig::new(DType::BF16, 64, false).for_keys(1024);
    /// assert!(c.tail_tiles && c.tails());
    /// assert!(!Sm90AttentionConfig { varlen: true, ..c }.tails());
    /// assert!(!Sm90AttentionConfig::new(DType::BF16, 64, false).for_keys(16384).tails()); // one CTA per tile
    /// ```
    pub fn tails(&self) -> bool {
        self.tail_tiles
            && self.persistent
            && self.consumers == 3
            && !self.varlen
            && !self.lpt_order()
    }

    /// Whether the tiles come from the dynamic scheduler ([`Self::dynamic_tiles`], persistent).
    ///
    /// ```
    /// use cute_gpu::{kernels::attention_sm90::{generate_attention_sm90, Sm90AttentionConfig}, DType};
    /// let c = Sm90AttentionConfig { dynamic_tiles: true, ..Sm90AttentionConfig::new(DType::BF16, 128, true) };
    /// assert!(!c.dynamic()); // not persistent: one CTA per tile
    /// let p = Sm90AttentionConfig { persistent: true, ..c };
    /// let k = generate_attention_sm90(&p).unwrap();
    /// assert!(p.dynamic() && k.name.ends_with("_dyn") && k.source.contains("atomicAdd(tile_sched, 1u)"));
    /// ```
    pub fn dynamic(&self) -> bool {
        self.dynamic_tiles && self.persistent
    }

    /// Whether the producer prefetches Q into L2 ([`Self::prefetch_q`] where it applies: persistent,
    /// not with tail tiles).
    ///
    /// ```
    /// use cute_gpu::{kernels::attention_sm90::{generate_attention_sm90, Sm90AttentionConfig}, DType};
    /// let c = Sm90AttentionConfig { prefetch_q: true, ..Sm90AttentionConfig::new(DType::BF16, 256, true) };
    /// assert!(!c.prefetches_q()); // one CTA per tile
    /// let p = Sm90AttentionConfig { persistent: true, ..c };
    /// let k = generate_attention_sm90(&p).unwrap();
    /// assert!(p.prefetches_q() && k.name.ends_with("_pq") && k.source.contains("tma_prefetch_4d(&tmQ"));
    /// assert!(!generate_attention_sm90(&c).unwrap().source.contains("tma_prefetch_4d(&tmQ"));
    /// ```
    pub fn prefetches_q(&self) -> bool {
        self.prefetch_q && self.persistent && !self.tails()
    }

    /// K/V boxes per stage: one per consumer with tail tiles ([`Self::tails`]), else one.
    fn units(&self) -> i64 {
        if self.tails() { self.consumers } else { 1 }
    }
}

/// The shared-memory operands: Q (`128 x d`), K (`block_n x d`) as `d/64` K-major chunks of 64 columns,
/// V (`d x block_n` MN-major, the B of P·V) as `block_n/64` chunks of 64 keys (one chunk of `block_n`
/// keys when 64 does not divide it).
struct Operands {
    q: GmmaOperand,
    k: GmmaOperand,
    v: GmmaOperand,
    /// Bytes of one chunk of Q, K, V.
    chunk: [i64; 3],
    /// Chunks of Q/K (along d) and of V (along keys).
    chunks: [i64; 2],
    /// Keys per V chunk.
    v_keys: i64,
    /// mbarriers: Q, the K and V full and empty ones per stage (and Q's empty one when persistent, the
    /// mailbox's full and read ones with the dynamic scheduler).
    barriers: i64,
    /// Stages of the K/V ring.
    stages: i64,
    /// K and V boxes per stage ([`Sm90AttentionConfig::units`]).
    units: i64,
    /// Bytes of O's own staging boxes (persistent, where they fit: the next tile's Q may land during the
    /// epilogue), or 0: O is staged in Q's shared memory, or not at all.
    o_stage: i64,
}

impl Operands {
    fn new(cfg: &Sm90AttentionConfig) -> Result<Operands> {
        let (d, bn, bm) = (cfg.head_dim, cfg.block_n, cfg.block_m());
        let q = gmma_operand(Major::K, bm, CHUNK, 16, "Q")?;
        let k = gmma_operand(Major::K, bn, CHUNK, 16, "K")?;
        let v_keys = if bn % CHUNK == 0 { CHUNK } else { bn };
        let v = gmma_operand(Major::MN, d, v_keys, 16, "V")?;
        let bytes = |rows: i64| rows * CHUNK * 2;
        let mut ops = Operands {
            chunk: [bytes(bm), bytes(bn), d * v_keys * 2],
            chunks: [d / CHUNK, bn / v_keys],
            q,
            k,
            v,
            v_keys,
            barriers: 1 + 4 * cfg.stages + i64::from(cfg.persistent) + 2 * i64::from(cfg.dynamic()),
            stages: cfg.stages,
            units: cfg.units(),
            o_stage: 0,
        };
        // persistent: O in its own staging boxes where shared memory has room, else in Q's
        let own = bm * d * 2;
        if cfg.persistent && cfg.stages_o() && ops.smem() + own <= SMEM_LIMIT {
            ops.o_stage = own;
        }
        Ok(ops)
    }
    /// Whether O is staged in Q's shared memory (Q is free only after the epilogue).
    fn o_in_q(&self, cfg: &Sm90AttentionConfig) -> bool {
        cfg.stages_o() && self.o_stage == 0
    }
    fn q_bytes(&self) -> i64 {
        self.chunk[0] * self.chunks[0]
    }
    fn k_bytes(&self) -> i64 {
        self.chunk[1] * self.chunks[0]
    }
    fn v_bytes(&self) -> i64 {
        self.chunk[2] * self.chunks[1]
    }
    /// Bytes of one stage of K (all its units' boxes).
    fn k_stage(&self) -> i64 {
        self.units * self.k_bytes()
    }
    /// Bytes of one stage of V (all its units' boxes).
    fn v_stage(&self) -> i64 {
        self.units * self.v_bytes()
    }
    /// Shared memory: 1024 bytes of alignment slack, Q, the K and V stages, O's staging boxes, the
    /// mbarriers.
    fn smem(&self) -> i64 {
        1024 + self.q_bytes()
            + self.stages * (self.k_stage() + self.v_stage())
            + self.o_stage
            + 8 * self.barriers
    }
}

/// The consumers as a whole, for the generated comments.
fn all_consumers(cfg: &Sm90AttentionConfig) -> String {
    if cfg.consumers == 2 {
        "both consumers".into()
    } else {
        format!("all {} consumers", cfg.consumers)
    }
}

fn name(cfg: &Sm90AttentionConfig) -> String {
    format!(
        "cute_attention90_{}_d{}_{}x{}{}{}",
        cfg.dtype.name(),
        cfg.head_dim,
        cfg.block_m(),
        cfg.block_n,
        if cfg.causal { "_causal" } else { "" },
        match (cfg.overlap, cfg.pingpong) {
            (false, _) => "_serial",
            (true, false) => "_nopp",
            (true, true) => "",
        }
    ) + if cfg.varlen { "_varlen" } else { "" }
        + if cfg.persistent { "_persistent" } else { "" }
        + if cfg.tma_store_o || cfg.varlen {
            ""
        } else {
            "_direct_o"
        }
        + &if cfg.stages == 2 {
            String::new()
        } else {
            format!("_{}st", cfg.stages)
        }
        + if cfg.s_scale_d0 { "_sd0" } else { "" }
        + if cfg.lazy_rescale && cfg.overlap {
            "_lz"
        } else {
            ""
        }
        + &if cfg.lpt_order() {
            format!("_lpt{}", cfg.lpt_l2_mib)
        } else {
            String::new()
        }
        + &match cfg.poly_exp2_every {
            0 => String::new(),
            n => format!("_px{n}"),
        }
        + if cfg.tails() { "_tt" } else { "" }
        + if cfg.dynamic() { "_dyn" } else { "" }
        + if cfg.rescale_before_pv && cfg.overlap {
            "_rb"
        } else {
            ""
        }
        + if cfg.prefetches_q() { "_pq" } else { "" }
        + &match cfg.narrow_tail {
            0 => String::new(),
            n => format!("_nt{n}"),
        }
        // the index other than the head dim's default
        + match (cfg.broadcast_wg, broadcasts_by_default(cfg.head_dim)) {
            (true, false) => "_wgb",
            (false, true) => "_wgp",
            _ => "",
        }
}

/// [`Sm90AttentionConfig::new`]'s warp group index for `head_dim`: broadcast from lane 0 but at d = 128
/// ([`Sm90AttentionConfig::broadcast_wg`]); kernel names mark the other choice.
fn broadcasts_by_default(head_dim: i64) -> bool {
    head_dim != 128
}

fn header(cfg: &Sm90AttentionConfig, ops: &Operands, f: &Fragment) -> Result<String> {
    let (d, bn, ty, stages) = (cfg.head_dim, cfg.block_n, cfg.dtype.name(), cfg.stages);
    let (bm, consumers) = (cfg.block_m(), cfg.consumers);
    let mut c = format!(
        "// Generated by gpu::kernels::attention_sm90. O = softmax(scale*Q*K^T + mask)*V, LSE per row; {ty} in/out, f32 accumulation.\n\
// sm_90a: CTA = {bm} query rows x (head, batch); producer warp group (TMA) + {consumers} consumer warp groups x {WG_ROWS} rows;\n\
// K/V tiles of {bn} keys in a {stages}-stage ring; mask: {}keys past Sk\n",
        if cfg.causal {
            "causal (bottom-right: key j <= i + Sk - Sq, blocks past the diagonal skipped) + "
        } else {
            ""
        }
    );
    c += &format!(
        "// S = Q*K^T: wgmma m64n{bn}k16 (Q, K K-major in smem); O += P*V: wgmma m64n{d}k16, P from registers, V MN-major\n"
    );
    for (op, n) in [
        (&ops.q, d / CHUNK),
        (&ops.k, d / CHUNK),
        (&ops.v, ops.chunks[1]),
    ] {
        c += &format!("{}\n//   x {n} chunk(s)\n", op.doc);
    }
    c += "// TMA here: rank-4 maps (D, S, H, B) of Q, K, V (strides from the layouts, box extent 1 in H, B):\n//   a box at {64*chunk (+64j for V's MN boxes), first row, head, batch}; rows past S zero-filled\n";
    c += &format!(
        "// accumulators: gmma_c_layout(n) = n/8 copies of gmma_c_layout(8) as coordinates {} (atom::gmma_n8_values)\n",
        f.layout
    );
    c += &format!(
        "// P as A: k16 block kk, A register r <- accumulator values {:?} (atom::gmma_accumulator_as_a)\n",
        gmma_accumulator_as_a(16)?[0]
    );
    c += &format!("// shared memory: {} bytes\n", ops.smem());
    if cfg.tails() {
        c += &format!(
            "// tail tiles: a stage holds {0} K and {0} V boxes, one per consumer: in a tail tile each consumer has its own (head, batch)\n",
            cfg.consumers
        );
    }
    if cfg.stages_o() {
        c += &format!(
            "// O: staged in {} (the output atom's swizzled 128-byte rows), TMA-stored (rank-4 map of O)\n",
            if ops.o_in_q(cfg) {
                "each consumer's 64 rows of Q's smem"
            } else {
                "its own boxes"
            }
        );
    }
    Ok(c)
}

fn device_fns(cfg: &Sm90AttentionConfig, ops: &Operands) -> String {
    let mut s = "typedef unsigned int u32;\ntypedef unsigned long long u64;\n".to_string();
    for f in [
        SMEM_ADDR,
        mbarrier::MBARRIER,
        tma::TMA_2D,
        tma::TMA_4D,
        PACK,
        EX2,
    ] {
        s += f;
    }
    if cfg.poly_exp2_every > 0 {
        s += &poly_ex2();
    }
    let lt = wgmma::layout_type(3);
    for (n, op) in [("smem_desc_k", &ops.k), ("smem_desc_v", &ops.v)] {
        s += &wgmma::descriptor_fn(n, op.lbo, op.sbo, lt);
    }
    let (d, bn) = (cfg.head_dim, cfg.block_n);
    let types = (cfg.dtype, cfg.dtype);
    s += &wgmma::Wgmma {
        n: bn,
        types,
        tnsp: (ops.q.tnsp, ops.k.tnsp),
        accumulate_arg: false,
    }
    .device_fns();
    if cfg.s_scale_d0 {
        s += &wgmma::Wgmma {
            n: bn,
            types,
            tnsp: (ops.q.tnsp, ops.k.tnsp),
            accumulate_arg: false,
        }
        .device_fn_zero();
    }
    if cfg.narrow_tail > 0 {
        s += &wgmma::Wgmma {
            n: cfg.narrow_tail,
            types,
            tnsp: (ops.q.tnsp, ops.k.tnsp),
            accumulate_arg: false,
        }
        .device_fn();
    }
    s += &wgmma::Wgmma {
        n: d,
        types,
        tnsp: (0, ops.v.tnsp),
        accumulate_arg: false,
    }
    .device_fns_rs();
    if d != bn {
        s += &wgmma::fence_acc_fn(d / 2);
    }
    if cfg.stages_o() {
        s += &StagedStore::device_fns();
    }
    s
}

fn signature(cfg: &Sm90AttentionConfig) -> String {
    let mut maps = vec!["tmQ", "tmK", "tmV"];
    if cfg.tails() {
        maps.push("tmQt");
    }
    if cfg.stages_o() {
        maps.push("tmO");
    }
    let mut p: Vec<String> = maps
        .iter()
        .map(|n| format!("const __grid_constant__ TmaDesc {n}"))
        .collect();
    p.push("unsigned short* __restrict__ O".into());
    p.push("float* __restrict__ LSE".into());
    if cfg.varlen {
        p.push("const int* __restrict__ cu_q".into());
        p.push("const int* __restrict__ cu_k".into());
    }
    if cfg.dynamic() {
        p.push("unsigned int* __restrict__ tile_sched".into());
    }
    p.extend(["int Sq", "int Sk", "int group"].map(String::from));
    if cfg.persistent {
        p.extend(["int heads", "int batches"].map(String::from));
    }
    for n in STRIDES {
        p.push(format!("long long {n}"));
    }
    p.push("float scale_log2".into());
    p.join(",\n    ")
}

/// The strides the kernel reads (O and LSE; Q, K, V are in the tensor maps).
const STRIDES: [&str; 6] = ["o_b", "o_s", "o_h", "lse_b", "lse_h", "lse_s"];

/// Shared memory carve-up, barriers, the CTA's block and its key blocks.
fn prologue(cfg: &Sm90AttentionConfig, ops: &Operands) -> String {
    let (qb, kb, vb, ob) = (ops.q_bytes(), ops.k_stage(), ops.v_stage(), ops.o_stage);
    let (stages, consumers, bm) = (cfg.stages, cfg.consumers, cfg.block_m());
    let mut q_empty_init = if cfg.persistent {
        format!(
            "    mbar_init(q_empty, {consumers});   // {} have read Q (persistent)\n",
            all_consumers(cfg)
        )
    } else {
        String::new()
    };
    let mut q_empty_decl = if cfg.persistent {
        format!(
            "  const u32 q_empty = v_empty + {stages}u * 8u;   // Q read by {} (persistent)\n",
            all_consumers(cfg)
        )
    } else {
        String::new()
    };
    if cfg.dynamic() {
        q_empty_decl += "  const u32 tile_full = q_empty + 8u, tile_read = q_empty + 16u;   // the dynamic scheduler's mailbox\n";
        q_empty_init += &format!(
            "    mbar_init(tile_full, 1); mbar_init(tile_read, {consumers});   // next tile written; read by {}\n",
            all_consumers(cfg)
        );
    }
    let warp_group = sync::warp_group_index(cfg.broadcast_wg);
    let mut c = format!(
        r#"  extern __shared__ __align__(1024) unsigned char smem_raw[];
  const u32 q_s = (smem_u32(smem_raw) + 1023u) & ~1023u;   // 128-byte swizzle atoms repeat every 1024 B
  const u32 k_s = q_s + {qb}u, v_s = k_s + {stages}u * {kb}u;
  const u32 o_stg = v_s + {stages}u * {vb}u;   // O's staging boxes ({ob} bytes)
  const u32 q_bar = o_stg + {ob}u;    // Q landed (count 1 + tx)
  const u32 k_full = q_bar + 8u, v_full = k_full + {stages}u * 8u;   // K, V of a stage landed
  // {every} are done with a stage's K, V (count {consumers})
  const u32 k_empty = v_full + {stages}u * 8u, v_empty = k_empty + {stages}u * 8u;
{q_empty_decl}{warp_group}  if (threadIdx.x == 0) {{
    mbar_init(q_bar, 1);
{q_empty_init}    for (int s = 0; s < {stages}; ++s) {{ mbar_init(k_full + 8 * s, 1); mbar_init(v_full + 8 * s, 1); mbar_init(k_empty + 8 * s, {consumers}); mbar_init(v_empty + 8 * s, {consumers}); }}
    {}
    {} {} {}
  }}
  __syncthreads();
  {}   // global memory only once the grid before this one in the stream is done (dependent launch)
"#,
        mbarrier::INIT_FENCE,
        tma::prefetch("tmQ"),
        tma::prefetch("tmK"),
        tma::prefetch("tmV"),
        sync::GRID_DEPENDENCY_WAIT,
        every = all_consumers(cfg)
    );
    if cfg.tails() {
        c += &format!(
            "  // tail tiles: when the last query block of a (head, batch) pair has at most {WG_ROWS} rows, the last\n  // blocks of {consumers} pairs form one tile (a consumer each), after those pairs' full blocks\n  const int hbs = heads * batches, m_full = Sq / {bm};\n  const bool tails = Sq % {bm} != 0 && Sq % {bm} <= {WG_ROWS};\n  const int m_blocks = tails ? m_full : (Sq + {bm} - 1) / {bm};\n  const int tiles = tails ? hbs * m_full + (hbs + {}) / {consumers} : m_blocks * hbs;\n",
            consumers - 1
        );
    } else if cfg.persistent {
        c += &format!(
            "  const int m_blocks = (Sq + {bm} - 1) / {bm}, tiles = m_blocks * heads * batches;\n"
        );
        if cfg.lpt_order() {
            c += &lpt_section(cfg);
        }
    } else {
        c += &coords(cfg, "return");
    }
    c
}

/// The (head, batch) pairs per section of the LPT order ([`Sm90AttentionConfig::lpt_l2_mib`]): as many
/// as have K and V (`Sk` keys) in that many MiB, times the query heads sharing a K/V head
/// (FlashAttention 3's choice, with 32 MiB).
fn lpt_section(cfg: &Sm90AttentionConfig) -> String {
    let (kv_bytes, mib) = (2 * cfg.head_dim * 2, cfg.lpt_l2_mib);
    format!(
        "  // LPT order: sections of (head, batch) pairs whose K, V fit in {mib} MiB, heaviest query blocks first\n  const int hb_section = (int)min((long long)heads * batches, max(1LL, ({mib}LL << 20) / max(1LL, (long long)Sk * {kv_bytes})) * group);\n"
    )
}

/// The persistent tile loop's header: CTA `blockIdx.x` takes tiles `blockIdx.x + k·gridDim.x`, or in
/// the LPT order ([`Sm90AttentionConfig::lpt_l2_mib`]), round `r`'s tile `r·gridDim.x + i` with `i` = `blockIdx.x`
/// in even rounds and `gridDim.x - 1 - blockIdx.x` in odd ones (a snake: the CTAs that took the
/// heavier tiles of a round take the lighter ones of the next).
fn tile_loop(cfg: &Sm90AttentionConfig) -> &'static str {
    if cfg.lpt_order() {
        "for (int round = 0; ; ++round) {\n    const int tile = round * gridDim.x + ((round & 1) ? gridDim.x - 1 - blockIdx.x : blockIdx.x);\n    if (tile >= tiles) break;\n"
    } else {
        "for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {\n"
    }
}

/// The tile's (query block, head, batch), its sequence bounds and key blocks; a tile past a shorter
/// sequence (varlen) does `leave` (`return` for one CTA per tile, `continue` in a persistent tile loop).
fn coords(cfg: &Sm90AttentionConfig, leave: &str) -> String {
    let (bn, bm) = (cfg.block_n, cfg.block_m());
    let mut c = match (cfg.persistent, cfg.causal) {
        _ if cfg.tails() => tail_decode(cfg),
        (false, true) => {
            "  const int m_block = gridDim.x - 1 - blockIdx.x;  // causal: the longest rows first\n"
                .to_string()
        }
        (false, false) => "  const int m_block = blockIdx.x;\n".to_string(),
        (true, causal) => format!(
            "{}  const int m_block = {};\n",
            if cfg.lpt_order() {
                "  // section of hb_section (head, batch) pairs (the last one may be narrower), query-block major\n  const int sec = tile / (hb_section * m_blocks), rest = tile % (hb_section * m_blocks);\n  const int sec_hbs = min(hb_section, heads * batches - sec * hb_section);\n  const int m_rank = rest / sec_hbs, hb = sec * hb_section + rest % sec_hbs;\n"
            } else {
                "  const int m_rank = tile % m_blocks, hb = tile / m_blocks;\n"
            },
            if causal {
                "m_blocks - 1 - m_rank;  // causal: the longest rows first"
            } else {
                "m_rank"
            }
        ),
    };
    c += if cfg.tails() {
        "  int h = hb % heads, b = hb / heads;  // a tail tile's first pair (the units' K/V heads: u_hk)\n"
    } else if cfg.persistent {
        "  const int h = hb % heads, b = hb / heads, hk = h / group;  // GQA: group query heads share K/V head hk\n"
    } else {
        "  const int h = blockIdx.y, b = blockIdx.z, hk = h / group;  // GQA: group query heads share K/V head hk\n"
    };
    c += &if cfg.varlen {
        let why = if leave == "return" {
            "(the whole CTA leaves)"
        } else {
            "(every role skips the tile)"
        };
        format!(
            "  const int q_row0 = cu_q[b], k_row0 = cu_k[b];  // packed sequences: the first rows of sequence b\n  const int sq = cu_q[b + 1] - q_row0, sk = cu_k[b + 1] - k_row0, m0 = m_block * {bm};\n  if (m0 >= sq) {leave};  // a shorter sequence: no rows in this block {why}\n"
        )
    } else {
        format!("  const int sq = Sq, sk = Sk, m0 = m_block * {bm};\n")
    };
    c += &if cfg.causal {
        format!(
            "  // keys the block sees: j <= i + sk - sq for its last row (later key blocks are never loaded)\n  const int n_end = max(0, min(sk, min(m0 + {bm}, sq) + sk - sq));\n"
        )
    } else {
        "  const int n_end = sk;\n".to_string()
    };
    c += &format!("  const int NB = (n_end + {bn} - 1) / {bn};\n");
    c
}

/// The tile's query block and (head, batch) pair with tail tiles ([`Sm90AttentionConfig::tails`]): in
/// groups of `consumers` pairs, each pair's full blocks, then (with `tails`) one tile of the group's last
/// blocks, `hb` its first pair.
fn tail_decode(cfg: &Sm90AttentionConfig) -> String {
    let n = cfg.consumers;
    let order = if cfg.causal {
        "tail ? m_full : m_blocks - 1 - m_rank;  // causal: the longest rows first"
    } else {
        "m_rank"
    };
    format!(
        "  int m_rank, hb;\n  bool tail = false;\n  if (tails) {{\n    const int g = tile / ({n} * m_full + 1), w = tile % ({n} * m_full + 1);\n    if (w < min({n}, hbs - {n} * g) * m_full) {{ hb = {n} * g + w / m_full; m_rank = w % m_full; }}\n    else {{ hb = {n} * g; m_rank = m_full; tail = true; }}   // the group's last blocks (fewer pairs in the last group)\n  }} else {{ m_rank = tile % m_blocks; hb = tile / m_blocks; }}\n  const int m_block = {order};\n"
    )
}

/// The TMA coordinates of the CTA's first query row, of key block `n0`'s first row, and of the batch:
/// the sequence's rows of the packed tensors for varlen (whose maps have one batch).
struct Rows {
    q: &'static str,
    k: &'static str,
    batch: &'static str,
}

impl Rows {
    fn of(cfg: &Sm90AttentionConfig) -> Rows {
        if cfg.varlen {
            Rows {
                q: "q_row0 + m0",
                k: "k_row0 + n0",
                batch: "0",
            }
        } else {
            Rows {
                q: "m0",
                k: "n0",
                batch: "b",
            }
        }
    }
}

/// The producer: one thread loads Q, then for each key block waits for a free stage and loads K and V
/// (the TMA coordinates are `(d, row, head, batch)`, innermost first).
fn producer(cfg: &Sm90AttentionConfig, ops: &Operands) -> String {
    let (bn, stages) = (cfg.block_n, cfg.stages);
    let loads = producer_kv_loads(cfg, ops);
    let (q_loads, q_prefetch) = producer_q_loads(cfg, ops);
    // with the dynamic scheduler, the next tile is published after the loads (at once if skipped)
    let publish = if cfg.dynamic() { PUBLISH_NEXT_TILE } else { "" };
    let skip = if cfg.dynamic() {
        format!("{{\n{publish}      continue;\n      }}")
    } else {
        "continue".to_string()
    };
    let (tile_loop, q_free, it, next, end) = if cfg.persistent {
        (
            format!(
                "      int it = 0, tcount = 0;   // K/V blocks and tiles loaded so far\n      {}{}",
                producer_tile_loop(cfg),
                coords(cfg, &skip)
            ),
            "      if (tcount > 0) mbar_wait(q_empty, (tcount - 1) & 1);   // the consumers have read the last Q\n",
            "it",
            ", ++it",
            format!("      ++tcount;\n{publish}      }}\n"),
        )
    } else {
        (String::new(), "", "j", "", String::new())
    };
    format!(
        r#"  if (wg == 0) {{
    // producer warp group: one thread issues the TMA loads
    {}
    if (tid == 0) {{
{tile_loop}{q_prefetch}{q_free}      mbar_expect_tx(q_bar, {}u);   // whole boxes count, out-of-bounds rows zero-filled
{q_loads}      for (int j = 0; j < NB; ++j{next}) {{
        const u32 s = {it} % {stages}, phase = ({it} / {stages}) & 1;
        const int n0 = j * {bn};
        mbar_wait(k_empty + 8 * s, phase ^ 1u);
        mbar_expect_tx(k_full + 8 * s, {});
{loads}      }}
{end}      {}   // every load issued: the next grid in the stream may launch (its own wait holds it)
    }}
  }}
"#,
        sync::setmaxnreg(false, PRODUCER_REGS),
        ops.q_bytes(),
        unit_bytes(cfg, ops.k_bytes()),
        sync::LAUNCH_DEPENDENTS
    )
}

/// The K and V loads of key block `j` into stage `s` (K's boxes, the wait for V's stage, V's boxes);
/// with tail tiles, each unit `c` loads its own K/V head and batch into box `c` of the stage.
fn producer_kv_loads(cfg: &Sm90AttentionConfig, ops: &Operands) -> String {
    let [nd, nk] = ops.chunks;
    let [_, ck, cv] = ops.chunk;
    let Rows {
        k: kr, batch: b, ..
    } = Rows::of(cfg);
    let (hk, b) = if cfg.tails() {
        ("uhk", "ub")
    } else {
        ("hk", b)
    };
    let at = |bytes: i64| {
        if cfg.tails() {
            format!(" + c * {bytes}u")
        } else {
            String::new()
        }
    };
    let mut k_loads = String::new();
    for c in 0..nd {
        k_loads += &format!(
            "        tma_load_4d(k_s + s * {}u{} + {}u, &tmK, k_full + 8 * s, {}, {kr}, {hk}, {b});\n",
            ops.k_stage(),
            at(ops.k_bytes()),
            c * ck,
            c * CHUNK
        );
    }
    let mut v_loads = String::new();
    for c in 0..nk {
        for &(off, mn) in &ops.v.boxes {
            v_loads += &format!(
                "        tma_load_4d(v_s + s * {}u{} + {}u, &tmV, v_full + 8 * s, {mn}, {kr} + {}, {hk}, {b});\n",
                ops.v_stage(),
                at(ops.v_bytes()),
                c * cv + off,
                c * ops.v_keys
            );
        }
    }
    let mut loads = per_unit(cfg, &k_loads);
    loads += &format!(
        "        mbar_wait(v_empty + 8 * s, phase ^ 1u);\n        mbar_expect_tx(v_full + 8 * s, {});\n",
        unit_bytes(cfg, ops.v_bytes())
    );
    loads + &per_unit(cfg, &v_loads)
}

/// The tile's Q loads (with tail tiles, the units' coordinates first and no load for a tail tile), and
/// with [`Sm90AttentionConfig::prefetches_q`] its Q boxes prefetched into L2 before the wait for Q's
/// shared memory (the last tile's epilogue, where O is staged there).
fn producer_q_loads(cfg: &Sm90AttentionConfig, ops: &Operands) -> (String, String) {
    let nd = ops.chunks[0];
    let cq = ops.chunk[0];
    let Rows {
        q: qr, batch: b, ..
    } = Rows::of(cfg);
    let q_box = |(h, b): (&str, &str)| -> String {
        (0..nd)
            .map(|c| {
                format!(
                    "      tma_load_4d(q_s + {}u, &tmQ, q_bar, {}, {qr}, {h}, {b});\n",
                    c * cq,
                    c * CHUNK
                )
            })
            .collect()
    };
    let q_loads = if cfg.tails() {
        format!(
            "{}      if (!tail) {{\n{}      }}\n",
            unit_coords(cfg, ops, qr),
            q_box(("h", "b"))
        )
    } else {
        q_box(("h", b))
    };
    let q_prefetch = if cfg.prefetches_q() {
        let boxes: String = (0..nd)
            .map(|c| format!("tma_prefetch_4d(&tmQ, {}, {qr}, h, {b}); ", c * CHUNK))
            .collect();
        format!(
            "      if (tcount > 0) {{ {boxes}}}   // the tile's Q into L2 while the last tile ends\n"
        )
    } else {
        String::new()
    };
    (q_loads, q_prefetch)
}

/// The producer's persistent tile loop: [`tile_loop`]'s, or with the dynamic scheduler
/// ([`Sm90AttentionConfig::dynamic`]) CTA `i`'s tile `i` (the consumers know it), then each next one
/// from [`publish_next_tile`] once this one's loads are issued (or at once for a skipped tile).
fn producer_tile_loop(cfg: &Sm90AttentionConfig) -> String {
    if cfg.dynamic() {
        "int published = 0;   // tiles written into the mailbox\n      for (int tile = blockIdx.x; tile < tiles; ) {\n".to_string()
    } else {
        tile_loop(cfg).to_string()
    }
}

/// The producer thread's next tile (`gridDim.x + atomicAdd(&tile_sched[0], 1)`), written into the CTA's
/// mailbox `tile_sched[1 + blockIdx.x]` once the consumers have read the last one (mbarrier `tile_read`)
/// and announced on mbarrier `tile_full` (its arrival releases the write); past the last tile it tells
/// the consumers to stop. The mailbox is in global memory, not shared: racecheck takes neither an
/// mbarrier nor a `bar.arrive` -> `bar.sync` pair as ordering, so a shared-memory slot read by the
/// consumers and rewritten by the producer showed as a WAR hazard there (gpu/logs/attention90/run33, 34),
/// and the tool then failed on whole test suites.
const PUBLISH_NEXT_TILE: &str = "      {   // the next tile, into the mailbox\n        const u32 fetch = atomicAdd(tile_sched, 1u);\n        if (fetch == (u32)tiles - 1u) atomicExch(tile_sched, 0u);   // the grid's last fetch: zero for the next launch\n        const int next = gridDim.x + (int)fetch;\n        if (published > 0) mbar_wait(tile_read, (published - 1) & 1);   // the consumers have read the last one\n        u32 cta; asm volatile(\"mov.u32 %0, %%ctaid.x;\" : \"=r\"(cta));   // read here, not kept live in 24 registers\n        tile_sched[1 + cta] = (u32)next;\n        mbar_arrive(tile_full);\n        ++published; tile = next;\n      }\n";

/// The consumers' fetch of their next tile from the producer's mailbox ([`PUBLISH_NEXT_TILE`]): at the
/// end of a tile's key blocks, before its epilogue (which does not need it), so that the load's latency
/// runs under the epilogue; the producer has published it by then (once it issued this tile's last
/// loads). Each consumer waits on its own and acknowledges once its whole warp group has read it.
fn fetch_next_tile(cfg: &Sm90AttentionConfig) -> String {
    format!(
        "    mbar_wait(tile_full, fetched & 1);   // the producer's next tile, or the end\n    tile = (int)*(volatile u32*)&tile_sched[1 + blockIdx.x];\n    ++fetched;\n    {}   // the warp group has read it\n    if (tid == 0) mbar_arrive(tile_read);\n",
        sync::named_barrier_sync(&cfg.epilogue_barrier(), 128)
    )
}

/// `body` once per unit of the tile with tail tiles (unit `c`: K/V head `uhk` and batch `ub` of
/// [`unit_coords`]), else as is.
fn per_unit(cfg: &Sm90AttentionConfig, body: &str) -> String {
    if !cfg.tails() {
        return body.to_string();
    }
    format!(
        "#pragma unroll\n        for (int c = 0; c < {}; ++c) if (c == 0 || tail) {{\n          const int uhk = u_hk[c], ub = u_b[c];\n  {}        }}\n",
        cfg.consumers,
        body.replace("\n        ", "\n          ")
    )
}

/// The producer's (head, batch) coordinates of a tile's units, once per tile (with tail tiles): unit `c`
/// is the pair `hb + c`, clamped to the last one for the missing pairs of the last group (whose
/// consumers store nothing); Q's 64-row boxes of a tail tile.
fn unit_coords(cfg: &Sm90AttentionConfig, ops: &Operands, qr: &str) -> String {
    let n = cfg.consumers;
    let mut c = format!(
        "      int u_hk[{n}], u_b[{n}];   // the units' K/V heads and batches\n#pragma unroll\n      for (int c = 0; c < {n}; ++c) {{\n        const int u = min(hb + c, hbs - 1), uh = u % heads;\n        u_hk[c] = uh / group; u_b[c] = u / heads;\n        if (tail) {{   // unit c's 64 query rows at consumer c's rows of Q\n"
    );
    for ch in 0..cfg.head_dim / CHUNK {
        c += &format!(
            "          tma_load_4d(q_s + {}u + c * {}u, &tmQt, q_bar, {}, {qr}, uh, u_b[c]);\n",
            ch * ops.chunk[0],
            ops.q.mn64,
            ch * CHUNK
        );
    }
    c + "        }\n      }\n"
}

/// The bytes a stage's full barrier expects: `bytes` per unit of the tile.
fn unit_bytes(cfg: &Sm90AttentionConfig, bytes: i64) -> String {
    if cfg.tails() {
        format!("tail ? {}u : {bytes}u", cfg.consumers * bytes)
    } else {
        format!("{bytes}u")
    }
}

/// Issues `S = Q·Kᵀ` of the consumer's 64 rows and stage `s`'s keys once K has landed: d/16 wgmmas
/// (descriptors advanced by the stage layouts' offsets: per k16 within a 64-column chunk, per chunk),
/// one group, not waited for.
fn issue_scores(cfg: &Sm90AttentionConfig, ops: &Operands, narrow: bool) -> String {
    let (bn, narrow) = (cfg.block_n, narrow && cfg.narrow_tail > 0);
    // a narrow S accumulates into zeroed accumulators (with scale-d = 0 ptxas serializes it: C7511)
    let mut c = if cfg.s_scale_d0 && !narrow {
        String::new() // the first wgmma overwrites S
    } else {
        format!(
            "#pragma unroll\n      for (int i = 0; i < {}; ++i) sc[i] = 0.f;\n",
            bn / 2
        )
    };
    c += &format!(
        "      mbar_wait(k_full + 8 * s, phase);\n      fence_acc(sc);\n      {}\n",
        wgmma::FENCE
    );
    c += &if narrow {
        let t = cfg.narrow_tail;
        let first = format!("*reinterpret_cast<float (*)[{}]>(sc)", t / 2);
        "      // the tile's last keys: a narrow S into the first accumulators (the rest masked)\n"
            .to_string()
            + &scores_wgmmas(cfg, ops, t, &first, false)
    } else {
        scores_wgmmas(cfg, ops, bn, "sc", cfg.s_scale_d0)
    };
    c + &format!("      {}\n", wgmma::COMMIT)
}

/// `nb_full`, the tile's key blocks but a narrow last one ([`Sm90AttentionConfig::narrow_tail`]; with
/// the overlap, block 0 is never narrow): the loops run blocks below it full, then the last one narrow,
/// each in a copy of its own, so that no branch joins with wgmmas in flight (where ptxas fences them).
/// Without a narrow tail, the loops run to `NB` (no `nb_full`).
fn full_blocks(cfg: &Sm90AttentionConfig) -> (String, &'static str) {
    match cfg.narrow_tail {
        0 => (String::new(), "NB"),
        t => (
            format!(
                "    const int nb_full = NB - (NB > {} && n_end - (NB - 1) * {} <= {t} ? 1 : 0);   // a narrow last block: its own copy\n",
                if cfg.overlap { 1 } else { 0 },
                cfg.block_n
            ),
            "nb_full",
        ),
    }
}

/// The `d/16` wgmmas `S = Q·Kᵀ` of `n` keys into the accumulators `acc`, the first with scale-d = 0
/// (`overwrite`) or all accumulating.
fn scores_wgmmas(
    cfg: &Sm90AttentionConfig,
    ops: &Operands,
    n: i64,
    acc: &str,
    overwrite: bool,
) -> String {
    let steps = CHUNK / ops.q.mma_k;
    let mut c = String::new();
    for ks in 0..cfg.head_dim / 16 {
        let (ch, k) = (ks / steps, ks % steps);
        let zero = if overwrite && ks == 0 { "_zero" } else { "" };
        c += &format!(
            "      wgmma_m64n{n}k16{zero}({acc}, smem_desc_k(q_s + cw * {}u + {}u), smem_desc_k(ks_ + {}u));\n",
            ops.q.mn64,
            ch * ops.chunk[0] + k * ops.q.k_step,
            ch * ops.chunk[1] + k * ops.k.k_step
        );
    }
    c
}

/// Waits until at most `pending` wgmma groups are in flight, then fences the accumulators `acc`.
fn wait(pending: u32, acc: &str) -> String {
    format!("      {}\n      fence_acc({acc});\n", wgmma::wait(pending))
}

/// P packed into A registers `p` (the register map of [`gmma_accumulator_as_a`]).
fn pack_p(cfg: &Sm90AttentionConfig) -> Result<String> {
    let pack = pack_fn(cfg.dtype);
    let mut c =
        "      // P = the accumulators as A fragments (atom::gmma_accumulator_as_a)\n".to_string();
    for (kk, regs) in gmma_accumulator_as_a(cfg.block_n)?.iter().enumerate() {
        for (r, [v0, v1]) in regs.iter().enumerate() {
            c += &format!("      p[{kk}][{r}] = {pack}(sc[{v0}], sc[{v1}]);\n");
        }
    }
    Ok(c)
}

/// Issues `O += P·V` over the stage `st` (V at `vs`, landed in phase `ph`): bn/16 register-A wgmmas, one
/// group, not waited for; `narrow_tail/16` of them for a narrow last block (`narrow`).
fn issue_pv(
    cfg: &Sm90AttentionConfig,
    ops: &Operands,
    (st, ph, vs): (&str, &str, &str),
    narrow: bool,
) -> String {
    let keys = match cfg.narrow_tail {
        t if narrow && t > 0 => t,
        _ => cfg.block_n,
    };
    let mut c = format!(
        "      mbar_wait(v_full + 8 * {st}, {ph});\n      fence_acc(o);\n      {}\n",
        wgmma::FENCE
    );
    c += &pv_wgmmas(cfg, ops, vs, keys);
    c + &format!("      {}\n", wgmma::COMMIT)
}

/// The `keys/16` wgmmas `O += P·V` of the first `keys` keys of V at `vs`.
fn pv_wgmmas(cfg: &Sm90AttentionConfig, ops: &Operands, vs: &str, keys: i64) -> String {
    let steps = ops.v_keys / ops.v.mma_k;
    let mut c = String::new();
    for kk in 0..keys / 16 {
        let (ch, k) = (kk / steps, kk % steps);
        c += &format!(
            "      wgmma_rs_m64n{}k16(o, p[{kk}], smem_desc_v({vs} + {}u));\n",
            cfg.head_dim,
            ch * ops.chunk[2] + k * ops.v.k_step
        );
    }
    c
}

/// The stage of key block `j`: ring slot, phase, first key, K and V addresses.
fn stage(cfg: &Sm90AttentionConfig, ops: &Operands, j: &str) -> String {
    let (slot, stages) = (slot(cfg, j), cfg.stages);
    format!(
        "      const u32 s = ({slot}) % {stages}, phase = (({slot}) / {stages}) & 1;\n      const int n0 = ({j}) * {};\n      const u32 ks_ = k_s + s * {}u{unit}, vs_ = v_s + s * {}u{unit};\n      (void)ks_; (void)vs_; (void)n0;\n",
        cfg.block_n,
        ops.k_stage(),
        ops.v_stage(),
        unit = unit_offset(cfg, ops.k_bytes())
    )
}

/// The offset of this consumer's box within a stage (` + (tail ? cw * bytes : 0)` with tail tiles, else
/// nothing): in a tail tile each consumer reads its own (head, batch)'s K and V.
fn unit_offset(cfg: &Sm90AttentionConfig, bytes: i64) -> String {
    if cfg.tails() {
        format!(" + (tail ? (u32)cw * {bytes}u : 0u)")
    } else {
        String::new()
    }
}

/// The ring index of the tile's key block `j`: `j`, or `it0 + j` when persistent (the ring runs on across
/// tiles).
fn slot(cfg: &Sm90AttentionConfig, j: &str) -> String {
    if cfg.persistent {
        format!("it0 + {j}")
    } else {
        j.to_string()
    }
}

/// `Q` read by this consumer for the tile (persistent: the producer may load the next one), when `when`.
/// With O staged in Q's shared memory, Q is released after the epilogue instead ([`epilogue`]).
fn release_q(cfg: &Sm90AttentionConfig, ops: &Operands, when: &str) -> String {
    if cfg.persistent && !ops.o_in_q(cfg) {
        format!(
            "      if (({when}) && tid == 0) mbar_arrive(q_empty);   // Q read: the next tile's may land\n"
        )
    } else {
        String::new()
    }
}

/// The mask of block `n0` where it is needed (the sequence end, the causal diagonal of this consumer's rows).
fn mask(cfg: &Sm90AttentionConfig, f: &Fragment) -> Result<String> {
    let bn = cfg.block_n;
    let needs = if cfg.causal {
        format!("n0 + {bn} > sk || n0 + {} > crow0 + sk - sq", bn - 1)
    } else {
        format!("n0 + {bn} > sk")
    };
    let limit = |row: &str| key_limit(cfg.causal, row);
    let mask = ScoreMask {
        fragment: f,
        atoms: (1, bn / 8),
        atom: (WG_ROWS, 8),
        index: gmma_index,
    };
    Ok(format!(
        "      if ({needs}) {{\n{}      }}\n",
        mask.emit("sc", "crow0", "n0", &limit)?
    ))
}

/// The consumer's arrival on the empty barrier of K or V (`which`) of stage `st`: that slot is read.
fn release(which: &str, st: &str) -> String {
    format!(
        "      if (tid == 0) mbar_arrive({which}_empty + 8 * {st});   // this {which} slot is read\n"
    )
}

/// Powers of two a row max may grow by before [`Sm90AttentionConfig::lazy_rescale`] moves it (FA4's 8).
const LAZY_LOG2: f64 = 8.0;

/// The online softmax of the key-block loops, with the variant's lazy rescaling and exponential offload
/// (the serial loop's `update` rescales O at once whatever the laziness).
fn key_block_softmax(cfg: &Sm90AttentionConfig, f: &Fragment) -> Result<OnlineSoftmax> {
    Ok(OnlineSoftmax::new(f, 1, gmma_index)?
        .lazy(cfg.lazy_rescale.then_some(LAZY_LOG2))
        .with_poly_exp2(cfg.poly_exp2_every))
}

/// One block at a time: S, wait, mask, softmax (O rescaled), P, P·V, wait, release.
fn serial_loop(cfg: &Sm90AttentionConfig, ops: &Operands, f: &Fragment) -> Result<String> {
    let softmax = key_block_softmax(cfg, f)?;
    let body = |narrow: bool| -> Result<String> {
        let mut c = stage(cfg, ops, "j");
        c += &issue_scores(cfg, ops, narrow);
        c += &wait(0, "sc");
        c += &release("k", "s");
        c += &mask(cfg, f)?;
        c += &softmax.update("sc", cfg.block_n / 8, "o", cfg.head_dim / 8, "scale_log2");
        c += &pack_p(cfg)?;
        c += &issue_pv(cfg, ops, ("s", "phase", "vs_"), narrow);
        c += &wait(0, "o");
        Ok(c + &release("v", "s"))
    };
    block_loop(cfg, 0, body)
}

/// The loop over key blocks `first..NB` with `body(narrow)` for block `j`: the full blocks, then the
/// narrow last one in a copy of its own ([`full_blocks`]).
fn block_loop(
    cfg: &Sm90AttentionConfig,
    first: i64,
    body: impl Fn(bool) -> Result<String>,
) -> Result<String> {
    let (nb_full, end) = full_blocks(cfg);
    let mut c = nb_full + &format!("    for (int j = {first}; j < {end}; ++j) {{\n");
    c += &body(false)?;
    c += "    }\n";
    if cfg.narrow_tail > 0 {
        c += "    if (nb_full < NB) {   // the narrow last block\n      const int j = NB - 1;\n";
        c += &body(true)?;
        c += "    }\n";
    }
    Ok(c)
}

/// Intra-warp-group overlap (FlashAttention 3): block 0's S and softmax; then per block j, S(j) issued,
/// P(j-1)·V(j-1) issued, S(j) waited for, its mask and softmax while P·V runs, P·V waited for, stage
/// j-1 released, O rescaled, P(j) packed; the last P·V at the end. With
/// [`Sm90AttentionConfig::rescale_before_pv`], O is rescaled after each S issue instead (by the
/// factors of the block before, ahead of its P·V).
fn overlapped_loop(cfg: &Sm90AttentionConfig, ops: &Operands, f: &Fragment) -> Result<String> {
    let softmax = key_block_softmax(cfg, f)?;
    let (s_n, o_n) = (cfg.block_n / 8, cfg.head_dim / 8);
    let mut c = softmax.declare_corr();
    c += "    if (NB > 0) {  // block 0: S, softmax, P\n";
    c += &stage(cfg, ops, "0");
    let (before, after) = turn(cfg, "0");
    c += &before;
    c += &issue_scores(cfg, ops, false);
    c += &after;
    c += &wait(0, "sc");
    c += &release("k", "s");
    c += &release_q(cfg, ops, "NB == 1");
    c += &mask(cfg, f)?;
    c += &softmax.update_scores("sc", s_n, "scale_log2");
    c += &pack_p(cfg)?;
    c += "    }\n";
    // block j: S(j) with P(j-1)·V(j-1) (never narrow: j-1 < NB-1), S(j)'s softmax under P·V
    let body = |narrow: bool| -> Result<String> {
        let mut c = stage(cfg, ops, "j");
        let (prev, stages) = (slot(cfg, "j - 1"), cfg.stages);
        c += &format!(
            "      const u32 sp = ({prev}) % {stages}, php = (({prev}) / {stages}) & 1, vsp = v_s + sp * {}u{};\n",
            ops.v_stage(),
            unit_offset(cfg, ops.v_bytes())
        );
        let (before, after) = turn(cfg, "j");
        c += &before;
        c += &issue_scores(cfg, ops, narrow);
        if cfg.rescale_before_pv {
            c += &softmax.rescale("o", o_n); // by block j-1's factors, while S(j) runs
        }
        c += &issue_pv(cfg, ops, ("sp", "php", "vsp"), false);
        c += &after;
        c += &wait(1, "sc");
        c += &release("k", "s");
        c += &release_q(cfg, ops, "j == NB - 1");
        c += &mask(cfg, f)?;
        c += &softmax.update_scores("sc", s_n, "scale_log2");
        c += &wait(0, "o");
        c += &release("v", "sp");
        if !cfg.rescale_before_pv {
            c += &softmax.rescale("o", o_n);
        }
        Ok(c + &pack_p(cfg)?)
    };
    c += &block_loop(cfg, 1, body)?;
    // the last block's P·V, narrow or not, each waited for in its own branch
    let last_pv = |narrow: bool| {
        let mut c = String::new();
        if cfg.rescale_before_pv {
            c += &softmax.rescale("o", o_n);
        }
        c += &issue_pv(cfg, ops, ("s", "phase", "vs_"), narrow);
        c += &turn(cfg, "NB").1;
        c + &wait(0, "o")
    };
    c += "    if (NB > 0) {  // the last block's P·V\n";
    c += &stage(cfg, ops, "NB - 1");
    c += &turn(cfg, "NB").0;
    c += &if cfg.narrow_tail > 0 {
        format!(
            "      if (nb_full < NB) {{\n{}      }} else {{\n{}      }}\n",
            last_pv(true),
            last_pv(false)
        )
    } else {
        last_pv(false)
    };
    c += &release("v", "s");
    Ok(c + "    }\n")
}

/// Ping-pong: the turns of issuing wgmmas, phase `k` of `NB + 1` (block 0's S; S(j) with P·V(j-1); the
/// last P·V), in a ring of the consumers. Consumer `c` waits on named barrier `1 + c` (consumer 0 except
/// in phase 0) and hands over on that of consumer `(c + 1) % consumers` after each phase, the last
/// consumer except after its last, so the arrivals and waits of each barrier pair up (256 threads: the
/// warp group handing over and the one waiting).
///
/// Persistent, the phases run on across the tiles (`g` before this tile's): consumer 0 waits except in
/// the very first, all hand over after every phase, and consumer 0 takes the last consumer's last
/// hand-back after its tile loop ([`persistent_consumer`]).
fn turn(cfg: &Sm90AttentionConfig, k: &str) -> (String, String) {
    if !cfg.pingpong {
        return (String::new(), String::new());
    }
    // 2 consumers: 1 <-> 2; 3: 1 -> 2 -> 3 -> 1 (each consumer waits on its own)
    let (first, last, mine, next, whose) = if cfg.consumers == 2 {
        (
            "cw == 1",
            "cw == 0",
            "cw == 0 ? 1 : 2",
            "cw == 0 ? 2 : 1",
            "other",
        )
    } else {
        (
            "cw != 0",
            "cw != 2",
            "1 + cw",
            "cw == 2 ? 1 : 2 + cw",
            "next",
        )
    };
    // persistent: phases counted from the CTA's first tile, every phase handed over
    let (phase, hand) = if cfg.persistent {
        (format!("g + ({k})"), String::new())
    } else {
        (format!("({k})"), format!("if ({last} || ({k}) < NB) "))
    };
    (
        format!(
            "      if ({first} || {phase} > 0) {}   // ping-pong: my turn to issue\n",
            sync::named_barrier_sync(mine, 256)
        ),
        format!(
            "      {hand}{}   // the {whose} consumer's turn\n",
            sync::named_barrier_arrive(next, 256)
        ),
    )
}

/// The consumers' key-block loop and the final `1/l`.
fn main_loop(cfg: &Sm90AttentionConfig, ops: &Operands, f: &Fragment) -> Result<String> {
    let (bn, d) = (cfg.block_n, cfg.head_dim);
    let softmax = OnlineSoftmax::new(f, 1, gmma_index)?;
    let mut c = format!(
        "    float o[{}];\n#pragma unroll\n    for (int i = 0; i < {}; ++i) o[i] = 0.f;\n    float sc[{}];\n    u32 p[{}][4];\n",
        d / 2,
        d / 2,
        bn / 2,
        bn / 16
    );
    c += &softmax.declare();
    c += match (cfg.persistent, cfg.dynamic()) {
        (true, _) => "    mbar_wait(q_bar, tcount & 1);\n",
        (false, _) => "    mbar_wait(q_bar, 0);\n",
    };
    c += &release_q(cfg, ops, "NB == 0");
    c += &if cfg.overlap {
        overlapped_loop(cfg, ops, f)?
    } else {
        serial_loop(cfg, ops, f)?
    };
    c += &softmax.finalize("o", d / 8, "scale_log2");
    Ok(c)
}

/// The consumer's first query row `crow0` (and, in a tail tile, its own (head, batch) pair: a consumer
/// past the last pair gets no rows, `crow0 = sq`).
fn consumer_rows(cfg: &Sm90AttentionConfig) -> String {
    if cfg.tails() {
        format!(
            "    if (tail) {{ const int u = min(hb + cw, hbs - 1); h = u % heads; b = u / heads; }}   // this consumer's pair\n    const int crow0 = tail ? (hb + cw < hbs ? m0 : sq) : m0 + cw * {WG_ROWS};   // its first query row\n"
        )
    } else {
        format!("    const int crow0 = m0 + cw * {WG_ROWS};   // this consumer's first query row\n")
    }
}

/// A persistent consumer: its tiles (those of the producer, skipped alike), each with its key-block
/// loop and epilogue; the ring index, the tiles and the ping-pong phases run on across them.
fn persistent_consumer(cfg: &Sm90AttentionConfig, ops: &Operands, f: &Fragment) -> Result<String> {
    let mut c = format!(
        "    int it0 = 0, tcount = 0, g = 0;   // K/V blocks, tiles, ping-pong phases so far\n    {}",
        if cfg.dynamic() {
            "int fetched = 0;   // tiles read from the mailbox\n    for (int tile = blockIdx.x; tile < tiles; ) {   // the first tile, then the producer's\n"
        } else {
            tile_loop(cfg)
        }
    );
    if cfg.dynamic() {
        // a skipped tile (varlen) fetches the next one at once
        c += &coords(
            cfg,
            &format!("{{\n{}    continue;\n    }}", fetch_next_tile(cfg)),
        );
    } else {
        c += &coords(cfg, "continue");
    }
    c += &consumer_rows(cfg);
    c += &main_loop(cfg, ops, f)?;
    if cfg.dynamic() {
        c += &fetch_next_tile(cfg);
    }
    c += &epilogue(cfg, ops, f)?;
    c += "    it0 += NB; ++tcount; g += NB > 0 ? NB + 1 : 0;\n    }\n";
    if ops.o_stage > 0 {
        c += &format!(
            "    if (tid == 0) {}   // the last O store has read its boxes\n",
            tma::store_wait_read(0)
        );
    }
    if cfg.pingpong {
        c += &format!(
            "    if (cw == 0 && g > 0) {}   // consumer {}'s last hand-back\n",
            sync::named_barrier_sync("1", 256),
            cfg.consumers - 1
        );
    }
    Ok(c)
}

/// O (through shared memory and TMA, [`store_o_staged`], or from the registers, [`store_o_direct`]) and
/// LSE (one lane per row), rows past the sequence not stored.
fn epilogue(cfg: &Sm90AttentionConfig, ops: &Operands, f: &Fragment) -> Result<String> {
    let sm = OnlineSoftmax::new(f, 1, gmma_index)?;
    let row0 = format!("crow0 + {}", f.row);
    let lse_row = if cfg.varlen { "(q_row0 + row)" } else { "row" };
    let mut c = if cfg.stages_o() {
        store_o_staged(cfg, ops, f)?
    } else {
        store_o_direct(cfg, f)?
    };
    c += &format!(
        "    if (LSE != nullptr && {} == 0) {{  // one lane per row\n",
        f.col
    );
    for (r, dr) in sm.row_offsets.iter().enumerate() {
        c += &format!(
            "      {{ const int row = {row0} + {dr}; if (row < sq) LSE[(long long)b * lse_b + (long long)h * lse_h + (long long){lse_row} * lse_s] = sm_lse[0][{r}]; }}\n"
        );
    }
    c += "    }\n";
    Ok(c)
}

/// O through this consumer's 64 rows of Q's shared memory (`d / 64` boxes of 64 rows x 128 bytes, the
/// staging boxes of [`Staging`]: the same 128-byte swizzled K-major atom as Q's TMA boxes), TMA-stored
/// by one thread; rows past the sequence are clipped by the tensor map. Persistent, Q is released once
/// the store has read it.
fn store_o_staged(cfg: &Sm90AttentionConfig, ops: &Operands, f: &Fragment) -> Result<String> {
    let staging = Staging::new(cfg.dtype)?;
    if ops.q.mn64 != WG_ROWS * 128 || staging.cols != CHUNK {
        return config(
            "attention_sm90",
            format!(
                "staging {}: Q's 64-row blocks ({} bytes) are not (64, {CHUNK}) boxes of 128-byte rows",
                staging.layout, ops.q.mn64
            ),
        );
    }
    let st = StagedStore {
        fragment: f,
        staging: &staging,
        n: cfg.head_dim,
        pack: pack_fn(cfg.dtype),
        barrier: cfg.epilogue_barrier(),
    };
    // Q's smem: this consumer's 64 rows of each chunk; own boxes: the consumer's d/64 boxes in a row
    let (o_st, cq) = if ops.o_in_q(cfg) {
        (
            format!(
                "q_s + cw * {}u;   // this consumer's rows of Q (read for the last time by the last S)",
                ops.q.mn64
            ),
            ops.chunk[0],
        )
    } else {
        (
            format!(
                "o_stg + cw * {}u;   // this consumer's staging boxes",
                ops.o_stage / cfg.consumers
            ),
            ops.q.mn64,
        )
    };
    let mut c =
        format!("    {{  // O -> staging boxes in smem -> TMA\n      const u32 o_st = {o_st}\n");
    if ops.o_stage > 0 {
        // the last tile's store has read the boxes: tid 0 waits, the warp group waits for tid 0
        c += &format!(
            "      if (tid == 0) {}   // the last tile's O\n      {}\n",
            tma::store_wait_read(0),
            sync::named_barrier_sync(&cfg.epilogue_barrier(), 128)
        );
    }
    c += &st.write(&|j, v| gmma_index("o", "0", j, v), &|q| {
        format!("o_st + {}u", q * cq)
    })?;
    let tma_store = |q: i64| {
        format!(
            "tma_store_4d(&tmO, o_st + {}u, {}, crow0, h, b);",
            q * cq,
            q * CHUNK
        )
    };
    // own boxes: the TMA unit reads them under the next tile (waited for above, and at the exit)
    c += &if ops.o_stage > 0 {
        st.store_unwaited(&tma_store)
    } else {
        st.store(&tma_store)
    };
    if cfg.persistent && ops.o_in_q(cfg) {
        c += "      if (tid == 0) mbar_arrive(q_empty);   // Q (and O) read: the next tile's Q may land\n";
    }
    Ok(c + "    }\n")
}

/// O from the registers: value pairs along columns as one 32-bit store, rows past the sequence skipped.
fn store_o_direct(cfg: &Sm90AttentionConfig, f: &Fragment) -> Result<String> {
    let values = cute_layout_core::size(&f.layout.mode(1)?)?.value;
    let pack = pack_fn(cfg.dtype);
    let row0 = format!("crow0 + {}", f.row);
    let o_row0 = if cfg.varlen {
        " + (long long)q_row0 * o_s"
    } else {
        ""
    };
    let mut c =
        format!("    unsigned short* o_g = O + (long long)b * o_b + (long long)h * o_h{o_row0};\n");
    for v in (0..values).step_by(2) {
        let [dr, dc] = f.value(v)?;
        c += &format!(
            "    {{\n      const int row = {row0} + {dr};\n      if (row < sq) {{\n#pragma unroll\n        for (int dj = 0; dj < {}; ++dj)\n          *(u32*)(o_g + (long long)row * o_s + dj * 8 + {} + {dc}) = {pack}({}, {});\n      }}\n    }}\n",
            cfg.head_dim / 8,
            f.col,
            gmma_index("o", "0", "dj", v),
            gmma_index("o", "0", "dj", v + 1)
        );
    }
    Ok(c)
}

/// The parameters (tensor maps with placeholder extents: [`set_tensor_maps`] fills them per call) and
/// the buffers (bytes set by the caller).
fn parameters(cfg: &Sm90AttentionConfig, ops: &Operands) -> (Vec<Arg>, Vec<Buffer>) {
    let map = |name: &str, buffer: &str, box_dims: [u32; 2]| {
        Arg::TensorMap(TensorMapArg {
            name: name.into(),
            buffer: buffer.into(),
            dtype: cfg.dtype,
            extents: [cfg.head_dim as u64, 1],
            ld: 8,
            box_dims,
            swizzle_bytes: 128,
            outer: vec![(1, 8), (1, 8)],
        })
    };
    let mut args = vec![
        map("tmQ", "Q", ops.q.tma_box),
        map("tmK", "K", ops.k.tma_box),
        map("tmV", "V", ops.v.tma_box),
    ];
    if cfg.tails() {
        // a tail tile's Q: one consumer's 64 rows
        args.push(map("tmQt", "Q", [ops.q.tma_box[0], WG_ROWS as u32]));
    }
    if cfg.stages_o() {
        // one consumer's 64 rows x 64 columns (a staging box)
        args.push(map("tmO", "O", [CHUNK as u32, WG_ROWS as u32]));
    }
    let offsets: &[&str] = if cfg.varlen { &["cu_q", "cu_k"] } else { &[] };
    let counter: &[&str] = if cfg.dynamic() { &["tile_sched"] } else { &[] };
    for n in ["O", "LSE"].iter().chain(offsets).chain(counter) {
        args.push(Arg::Ptr(n.to_string()));
    }
    let tiles: &[&str] = if cfg.persistent {
        &["heads", "batches"]
    } else {
        &[]
    };
    for n in ["Sq", "Sk", "group"].iter().chain(tiles) {
        args.push(Arg::I32(n.to_string(), 0));
    }
    for n in STRIDES {
        args.push(Arg::I64(n.into(), 0));
    }
    args.push(Arg::F32("scale_log2".into(), 0.0));
    let buffers = ["Q", "K", "V", "O", "LSE"]
        .iter()
        .chain(offsets)
        .chain(counter)
        .map(|n| Buffer {
            name: n.to_string(),
            bytes: 0,
        })
        .collect();
    (args, buffers)
}

fn kind(varlen: bool) -> &'static str {
    if varlen { "varlen" } else { "fixed-length" }
}

/// The extents the tensor maps span: rows of Q, rows of K/V, batches (the packed totals and one batch
/// for varlen).
fn map_extents(args: &AttentionArgs) -> [i64; 3] {
    match args.packed {
        Some([q, k]) => [q, k, 1],
        None => [args.sq, args.sk, args.batch],
    }
}

/// Whether the Hopper kernel can take a problem with these strides (elements, `(batch, sequence, head)`
/// of Q, K, V): TMA strides are positive multiples of 16 bytes below 2^40 (the stride of an extent-1
/// mode does not matter); rows below 2^31. Packed varlen batches are taken (one batch of `total` rows).
///
/// ```
/// # use cute_gpu::{attention::{bshd, plan::{plan, Request}}, DType};
/// # let l = bshd(2, 100, 8, 128).unwrap(); // (2,100,8,128):(102400,1024,128,1)
/// # let r = Request { q: &l, k: &l, v: &l, o: &l, dtype: DType::BF16, scale: None, causal: true, varlen: None };
/// # let p = plan(&r).unwrap();
/// use cute_gpu::kernels::attention_sm90::takes;
/// assert!(takes(&p.args));
/// let mut odd = p.args;
/// odd.strides[1][1] = 1028; // K rows 2056 bytes apart: not a multiple of 16 bytes
/// assert!(!takes(&odd));
/// // packed sequences (varlen): the batch stride is 0, the maps span one batch of 300 rows
/// let packed = cute_gpu::kernels::attention_sm80::AttentionArgs { strides: [[0, 1024, 128]; 4], packed: Some([300, 300]), ..p.args };
/// assert!(takes(&packed));
/// ```
pub fn takes(args: &AttentionArgs) -> bool {
    let [rq, rk, batch] = map_extents(args);
    let extents = [
        [batch, rq, args.hq],
        [batch, rk, args.hkv],
        [batch, rk, args.hkv],
    ];
    args.strides[..3]
        .iter()
        .zip(extents)
        .all(|(st, ext)| tma_strides(st, ext))
        && [rq, rk, args.sq, args.sk].iter().all(|&r| r < (1 << 31))
}

/// Whether a TMA map can describe a tensor with these `(batch, sequence, head)` strides and extents.
fn tma_strides(st: &[i64; 3], ext: [i64; 3]) -> bool {
    st.iter()
        .zip(ext)
        .all(|(&x, e)| (x > 0 || e <= 1) && x >= 0 && (x * 2) % 16 == 0 && x * 2 < (1i64 << 40))
}

/// Whether O can be stored through a TMA map ([`Sm90AttentionConfig::tma_store_o`]): fixed-length, O's
/// strides describable by TMA (the plan's choice; otherwise O is stored from the registers).
///
/// ```
/// # use cute_gpu::{attention::{bshd, plan::{plan, Request}}, DType};
/// # let l = bshd(2, 100, 8, 128).unwrap();
/// # let r = Request { q: &l, k: &l, v: &l, o: &l, dtype: DType::BF16, scale: None, causal: true, varlen: None };
/// # let p = plan(&r).unwrap();
/// use cute_gpu::kernels::attention_sm90::takes_o;
/// assert!(takes_o(&p.args) && p.sm90.unwrap().tma_store_o);
/// let mut odd = p.args;
/// odd.strides[3][1] = 1028; // O rows 2056 bytes apart
/// assert!(!takes_o(&odd));
/// ```
pub fn takes_o(args: &AttentionArgs) -> bool {
    args.packed.is_none() && tma_strides(&args.strides[3], [args.batch, args.sq, args.hq])
}

/// Sets the values of the kernel's parameters for `args`: the scalars, the tensor maps' extents and
/// strides (`(D, S, H, B)`), the grid.
///
/// ```
/// # use cute_gpu::{attention::{bshd, plan::{plan, Request}}, DType};
/// # let l = bshd(2, 100, 8, 128).unwrap(); // (2,100,8,128):(102400,1024,128,1)
/// # let r = Request { q: &l, k: &l, v: &l, o: &l, dtype: DType::BF16, scale: None, causal: true, varlen: None };
/// # let p = plan(&r).unwrap();
/// use cute_gpu::kernels::attention_sm90::{apply, generate_attention_sm90, Sm90AttentionConfig};
/// let cfg = p.sm90.unwrap();
/// let mut k = generate_attention_sm90(&cfg).unwrap();
/// apply(&cfg, &p.args, &mut k).unwrap();
/// assert_eq!(k.grid, (16, 1, 1)); // causal, persistent: ceil(100 / 128) query blocks x heads x batches
/// let per_tile = Sm90AttentionConfig { persistent: false, ..cfg };
/// let mut k = generate_attention_sm90(&per_tile).unwrap();
/// apply(&per_tile, &p.args, &mut k).unwrap();
/// assert_eq!(k.grid, (1, 8, 2)); // one CTA per (query block, head, batch)
/// ```
pub fn apply(cfg: &Sm90AttentionConfig, args: &AttentionArgs, k: &mut Kernel) -> Result<()> {
    if !takes(args) {
        return config(
            "attention_sm90",
            format!("strides {:?}: not describable by TMA", args.strides),
        );
    }
    if cfg.varlen != args.packed.is_some() {
        return config(
            "attention_sm90",
            format!(
                "{}: a {} kernel, {} arguments",
                name(cfg),
                kind(cfg.varlen),
                kind(args.packed.is_some())
            ),
        );
    }
    if cfg.stages_o() && !takes_o(args) {
        return config(
            "attention_sm90",
            format!(
                "O strides {:?}: not describable by TMA (tma_store_o)",
                args.strides[3]
            ),
        );
    }
    args.set_scalars(k)?;
    let fix = |extent: i64, stride: i64| (extent.max(1) as u64, stride.max(8) as u64);
    let [rq, rk, batch] = map_extents(args);
    for a in k.args.iter_mut() {
        if let Arg::TensorMap(m) = a {
            let (i, s, heads) = match m.buffer.as_str() {
                "Q" => (0, rq, args.hq),
                "O" => (3, rq, args.hq),
                "K" => (1, rk, args.hkv),
                _ => (2, rk, args.hkv),
            };
            let st = args.strides[i];
            m.extents = [cfg.head_dim as u64, s.max(1) as u64];
            m.ld = st[1].max(8) as u64;
            m.outer = vec![fix(heads, st[2]), fix(batch, st[0])];
        }
    }
    let blocks = ceil_div("attention query blocks", args.sq, cfg.block_m())?;
    if cfg.persistent {
        // one CTA per tile, at most one per SM (the runtime's clamp of persistent kernels)
        let pairs = args.hq.max(1) * args.batch.max(1);
        let (full, rest) = (args.sq / cfg.block_m(), args.sq % cfg.block_m());
        let tiles = if cfg.tails() && rest > 0 && rest <= WG_ROWS {
            mul("attention tiles", full, pairs)?
                + ceil_div("attention tail tiles", pairs, cfg.consumers)?
        } else {
            blocks.max(1) * pairs
        };
        let tiles = i32::try_from(tiles).map_err(|_| GpuError::Overflow {
            what: "attention tiles (query blocks x heads x batches)".into(),
            value: tiles,
            limit: i32::MAX as i64,
        })?;
        k.grid = (tiles as u32, 1, 1);
        return Ok(());
    }
    k.grid = (
        to_u32("attention grid.x (query blocks)", blocks.max(1))?,
        to_u32("attention grid.y (heads)", args.hq)?,
        to_u32("attention grid.z (batches)", args.batch)?,
    );
    Ok(())
}

/// The kernel of variant `cfg` (problem values are arguments: set them with [`apply`]).
///
/// ```
/// use cute_gpu::{kernels::attention_sm90::{generate_attention_sm90, Sm90AttentionConfig}, DType};
/// let k = generate_attention_sm90(&Sm90AttentionConfig::new(DType::BF16, 128, false)).unwrap();
/// assert!(k.source.contains("m64n128k16.f32.bf16.bf16") && k.source.contains("tma_load_4d("));
/// ```
pub fn generate_attention_sm90(cfg: &Sm90AttentionConfig) -> Result<Kernel> {
    cfg.check()?;
    let ops = Operands::new(cfg)?;
    if ops.smem() > SMEM_LIMIT {
        return config(
            "attention_sm90",
            format!(
                "d = {}, block_n = {}: {} bytes of shared memory, more than the {SMEM_LIMIT} of an sm_90 CTA",
                cfg.head_dim,
                cfg.block_n,
                ops.smem()
            ),
        );
    }
    if gmma_n8_values(cfg.block_n.max(cfg.head_dim))? != 4 {
        return config(
            "attention_sm90",
            "gmma_c_layout(8) has not 4 values per thread",
        );
    }
    let f = Fragment::new(&gmma_c_layout(8)?, WG_ROWS, "tid")?;
    f.pairs_along_columns()?;
    let name = name(cfg);
    let threads = 128 * (1 + cfg.consumers);
    let mut c = header(cfg, &ops, &f)?;
    c += &device_fns(cfg, &ops);
    c += &format!(
        "\nextern \"C\" __global__ void __launch_bounds__({threads}, 1) {name}(\n    {}) {{\n",
        signature(cfg)
    );
    c += &prologue(cfg, &ops);
    c += &producer(cfg, &ops);
    c += &format!(
        "  else {{\n    {}\n    const int cw = wg - 1;   // consumer: query rows [m0 + cw*{WG_ROWS}, +{WG_ROWS})\n",
        sync::setmaxnreg(true, cfg.consumer_regs())
    );
    c += &if cfg.persistent {
        persistent_consumer(cfg, &ops, &f)?
    } else {
        consumer_rows(cfg) + &main_loop(cfg, &ops, &f)? + &epilogue(cfg, &ops, &f)?
    };
    c += "  }\n}\n";
    let (args, buffers) = parameters(cfg, &ops);
    Ok(Kernel {
        name,
        source: c,
        grid: (1, 1, 1),
        persistent: cfg.persistent,
        cluster: 1,
        block: (threads as u32, 1, 1),
        dynamic_smem_bytes: to_u32("shared memory bytes", ops.smem())?,
        args,
        buffers,
        pointer_alignment: 16,
        dependent_launch: true,
    })
}
