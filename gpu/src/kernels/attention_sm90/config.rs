//! The Hopper attention kernel's variants: [`Sm90AttentionConfig`], its defaults per head dimension and
//! key length, and its derived quantities.

use super::*;

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
    pub(super) fn consumer_regs(&self) -> u32 {
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
    pub(super) fn schedule_for_keys(self, sk: i64) -> Sm90AttentionConfig {
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
    pub(super) fn tiles_for_keys(self, sk: i64) -> Sm90AttentionConfig {
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

    pub(super) fn check(&self) -> Result<()> {
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
    pub(super) fn epilogue_barrier(&self) -> String {
        format!("{} + cw", 1 + self.consumers)
    }

    /// Whether the persistent tiles go in the LPT order ([`Self::lpt_l2_mib`]).
    pub(super) fn lpt_order(&self) -> bool {
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
    pub(super) fn units(&self) -> i64 {
        if self.tails() { self.consumers } else { 1 }
    }
}
