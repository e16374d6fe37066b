//! The SM90 tile heuristic: the candidate tiles and what each costs (wave fill, a model of the
//! tensor-core and memory time), ping-pong for short mainloops, clusters, FP8 tiles, and the K
//! slices a model says pay.

use super::*;

/// The SM90 tile configurations the heuristic chooses from, with the relative efficiency of one tile
/// (larger tiles reuse more data per byte loaded; measured on the H100, 2026-11-24): 128x256 and
/// 128x128 cooperative, 64x128 and 64x64 persistent with one consumer. `tma_store(bm, bn)` says where
/// the output allows a tile the TMA-store epilogue; the 128x256 tile needs it.
pub(super) fn sm90_candidates(tma_store: impl Fn(i64, i64) -> bool) -> Vec<(HopperConfig, f64)> {
    let persistent = |bm, bn, stages| HopperConfig {
        bm,
        bn,
        stages,
        persistent: true,
        tma_store: tma_store(bm, bn),
        ..HopperConfig::default()
    };
    // The 64x128 tile launched after the previous grid has completed: with programmatic dependent
    // launch it read 2.7-4.0 % slower at 128x8192x8192 in three A/Bs (runs 164-165, bf16 and f16).
    // With the TMA-store epilogue it read +1.4 / +1.4 % there (`bench_hopper shortm`, run179).
    let serialized = |c| HopperConfig {
        dependent_launch: false,
        ..c
    };
    // 128x128 with two consumers of 64x128 and the TMA-store epilogue instead of one consumer storing
    // from its registers: 256x8192x8192 +5.2 / +5.1 % (0.96 -> 1.01-1.02 of cublasGemmEx), two consumers
    // alone +0.8 / +0.9 % (`bench_hopper shortm`, gpu/logs/matmul/run176)
    let cooperative = HopperConfig {
        consumers: 2,
        ..persistent(128, 128, 6)
    };
    let mut c = vec![
        (cooperative, 0.8),
        (serialized(persistent(64, 128, 8)), 0.62),
        // the 64x64 tile keeps the register epilogue (not measured with the TMA store)
        (
            HopperConfig {
                tma_store: false,
                ..persistent(64, 64, 8)
            },
            0.45,
        ),
    ];
    if tma_store(128, 256) {
        c.insert(0, (HopperConfig::large(), 1.0));
    }
    c
}

/// [`sm90_candidates`] for an `m x n` output whose rows allow the TMA-store epilogue (`rows_ok`: 16-byte
/// row pitch) or not: a tile takes it where the output is at least the tile.
pub(super) fn sm90_candidates_for(m: i64, n: i64, rows_ok: bool) -> Vec<(HopperConfig, f64)> {
    sm90_candidates(|bm, bn| rows_ok && m >= bm && n >= bn)
}

/// The SM90 configuration by shape: the candidate with the best tile efficiency times the fraction of the
/// SMs its waves keep busy (`tiles / (waves * sms)`), so that skinny and small outputs get enough tiles.
///
/// ```
/// use cute_gpu::{kernels::gemm_sm90::HopperConfig, matmul::plan::sm90_config};
/// assert_eq!(sm90_config(8192, 8192, 8192 * 2, 132), HopperConfig::large());
/// let small = sm90_config(512, 512, 512 * 2, 132); // 4x2 large tiles would leave most SMs idle
/// assert_eq!((small.bm, small.bn), (64, 64));
/// ```
pub fn sm90_config(m: i64, n: i64, ldd_bytes: i64, sms: u32) -> HopperConfig {
    let candidates = sm90_candidates_for(m, n, ldd_bytes % 16 == 0);
    best_filling(&candidates, m, n, sms).unwrap_or(HopperConfig::large())
}

/// The SM90 FP8 configuration by shape (`bk` = 128): per-tensor scaling chooses as [`sm90_config`] (with [`pingpong_if_short`] and [`sm90_stream_k`]);
/// block scaling holds one 128-column split's product besides the f32 sums, so its candidates have 64
/// rows per consumer: cooperative 128x256 and 128x128 (TMA-store epilogue when D's rows allow), one
/// consumer of 64x128 or 64x64 for small outputs. All but 128x256 (which has no shared memory left for
/// them, and measured slower with them at 3 stages) stage the scales in shared memory
/// ([`HopperConfig::smem_scales`]): the 64x128 tile of a 128x8192x8192 GEMM went from 399 to 576 TFLOP/s
/// with them, 128x128 from 837 to 913 (8192^3). Tiles of 64 x 128 per consumer hold two products
/// ([`HopperConfig::overlap_promotion`]: 128x128 931 -> 995-1006, 64x128 579-589 -> 588-604), and the
/// 128x256 tile staggers its consumers ([`HopperConfig::promotion_stagger`]: 1,077 -> 1,199 at 8192^3).
///
/// ```
/// use cute_gpu::{matmul::plan::sm90_fp8_config, piece::fp8_scaling::Scaling};
/// let c = sm90_fp8_config([8192, 8192, 8192], 8192 * 2, 132, Scaling::Block);
/// assert_eq!((c.bm, c.bn, c.bk, c.consumers, c.smem_scales), (128, 256, 128, 2, false));
/// let skinny = sm90_fp8_config([128, 8192, 8192], 8192 * 2, 132, Scaling::Block);
/// let pt = sm90_fp8_config([8192, 8192, 8192], 8192 * 2, 132, Scaling::PerTensor); // 64 k-blocks
/// assert_eq!((pt.bn, pt.pingpong, pt.bk), (192, true, 128));
/// let long_k = sm90_fp8_config([8192, 4096, 14336], 4096 * 2, 132, Scaling::PerTensor);
/// assert_eq!((long_k.bn, long_k.stream_k, long_k.cluster), (256, 132, 2)); // 1024 tiles: stream-K, in clusters
/// assert_eq!((skinny.bm, skinny.bn, skinny.consumers, skinny.smem_scales), (64, 128, 1, true));
/// assert!(skinny.overlap_promotion && c.promotion_stagger > 0);
/// ```
pub fn sm90_fp8_config(
    [m, n, k]: [i64; 3],
    ldd_bytes: i64,
    sms: u32,
    scaling: Scaling,
) -> HopperConfig {
    let config = match scaling {
        Scaling::PerTensor => {
            let c = pingpong_if_short(sm90_config(m, n, ldd_bytes, sms), [m, n], k / 128, sms, 8);
            let k_blocks = (k + 127) / 128;
            let h = Decomposition::Heuristic;
            let sk = sm90_stream_k(c, tile_count(&c, m, n), k_blocks, sms, h, STREAM_K_MIN_IDLE);
            // stream-K's 128x256 tile in 2-CTA clusters: +2.3 / +2.2 % at 8192x4096x14336, +2.2 /
            // +2.9 % at 8192³ (runs 107 / 109); without stream-K, 4096³ read -1.8 % (run 107)
            match sk.stream_k > 0 && c == HopperConfig::large() {
                true => HopperConfig { cluster: 2, ..sk },
                false => sk,
            }
        }
        Scaling::Block => {
            let tma_store = ldd_bytes % 16 == 0;
            let wide = HopperConfig {
                tma_store,
                promotion_stagger: 128,
                ..HopperConfig::large()
            };
            let cooperative = sm90_fp8_block_cooperative(wide);
            let small = sm90_candidates(|_, _| false)
                .into_iter()
                .filter(|(c, _)| c.bm == 64)
                .map(|(c, eff)| {
                    let staged = HopperConfig {
                        smem_scales: true,
                        overlap_promotion: c.bn == 128,
                        ..c
                    };
                    (staged, eff)
                })
                .collect::<Vec<_>>();
            let candidates: Vec<_> = [(wide, 1.0), (cooperative, 0.75)]
                .into_iter()
                .chain(small)
                .collect();
            best_filling(&candidates, m, n, sms).unwrap_or(wide)
        }
    };
    config.for_bits(8)
}

/// Block scaling's cooperative 128x128 tile from its 128x256 one (`wide`): scales staged in shared
/// memory, two product buffers, five stages ([`sm90_fp8_config`]'s second candidate).
///
/// ```
/// use cute_gpu::{kernels::gemm_sm90::HopperConfig, matmul::plan::sm90_fp8_block_cooperative};
/// let c = sm90_fp8_block_cooperative(HopperConfig::large());
/// assert!((c.bn, c.stages, c.smem_scales, c.overlap_promotion) == (128, 5, true, true));
/// ```
pub fn sm90_fp8_block_cooperative(wide: HopperConfig) -> HopperConfig {
    HopperConfig {
        bn: 128,
        stages: 5,
        smem_scales: true,
        overlap_promotion: true,
        ..wide
    }
}

/// Tiles of an `(m, n)` output in `c`'s tiles.
pub(super) fn tile_count(c: &HopperConfig, m: i64, n: i64) -> i64 {
    ((m + c.bm - 1) / c.bm) * ((n + c.bn - 1) / c.bn)
}

/// The share of `sms` SMs that `tiles` keep busy over their waves: `tiles / (waves * sms)`.
pub(super) fn wave_fill(tiles: i64, sms: u32) -> f64 {
    let sms = sms.max(1) as i64;
    let waves = (tiles + sms - 1) / sms;
    tiles as f64 / (waves.max(1) * sms) as f64
}

pub(super) fn best_filling(
    candidates: &[(HopperConfig, f64)],
    m: i64,
    n: i64,
    sms: u32,
) -> Option<HopperConfig> {
    let score = |(c, eff): &(HopperConfig, f64)| eff * wave_fill(tile_count(c, m, n), sms);
    candidates
        .iter()
        .max_by(|x, y| score(x).total_cmp(&score(y)))
        .map(|(c, _)| *c)
}

/// A ping-pong tile in place of the cooperative 128x256 one where a tile's mainloop is short (at most 64
/// k-blocks of 128 bytes of K: K <= 4096 for 16-bit inputs, 8192 for FP8), so that its epilogue, a larger
/// share of the tile's time, runs under the other consumer's mainloop: [`HopperConfig::pingpong_wide`]
/// (given 4 % more per tile) and, for at most [`pingpong_128_max_k_blocks`] k-blocks,
/// [`HopperConfig::pingpong_tma_store`] (2 % more), whichever fills the SMs best counting the tiles'
/// ragged edges as lost (a 1024-wide output in 192-column tiles computes 1152 columns). Measured on the
/// H100 against 128x256 in one call
/// (`gpu/logs/final4/sweep.log`, `fp8-sweep.log`): bf16 16384x8192x1024 +7 %, 8192x14336x4096 +3 %,
/// 8192³ equal (128 k-blocks), 8192x4096x14336 -10 %; FP8 per-tensor 8192³ +5 %, 8192x14336x4096 +6 %.
/// The autotuner's settled times on an H200 (run 113, with the hand-off before the last wait): strided
/// batch 32 x 1024³ 128x128 0.1002 ms, 128x256 0.1027, 128x192 0.1024; 4096³ (64 k-blocks) 128x128
/// 0.1938 against 128x256's 0.1747. With the turn passed at the last commit (run128): 2048³ (32
/// k-blocks) 128x128 0.0235 ms, 128x256 0.0240; 4096x4096x2048 128x128 0.0874, 128x256 in clusters
/// 0.0897; 4096³ 128x128 0.1882, 128x256 in clusters 0.1702.
///
/// ```
/// use cute_gpu::{kernels::gemm_sm90::HopperConfig, matmul::plan::pingpong_if_short};
/// let large = HopperConfig::large();
/// assert_eq!(pingpong_if_short(large, [16384, 8192], 16, 132, 16), HopperConfig::pingpong_wide());
/// assert_eq!(pingpong_if_short(large, [8192, 4096], 224, 132, 16), large); // a long mainloop
/// assert_eq!(pingpong_if_short(large, [4096, 4096], 64, 132, 16), large); // 704 tiles fill 5.3 waves
/// // 32 batches of 1024³ (their rows stacked): 128x192 tiles would compute 1152 of 1024 columns
/// let batch = [32 * 1024, 1024];
/// assert_eq!(pingpong_if_short(large, batch, 16, 132, 16), HopperConfig::pingpong_tma_store());
/// // 2048³: one wave of 128x256 tiles or two of 128x128 (FP8: not measured past 16 k-blocks)
/// assert_eq!(pingpong_if_short(large, [2048, 2048], 32, 132, 16), HopperConfig::pingpong_tma_store());
/// assert_eq!(pingpong_if_short(large, [2048, 2048], 32, 132, 8), large);
/// ```
pub fn pingpong_if_short(
    config: HopperConfig,
    [m, n]: [i64; 2],
    k_blocks: i64,
    sms: u32,
    input_bits: i64,
) -> HopperConfig {
    if k_blocks > 64 || config != HopperConfig::large() {
        return config;
    }
    let mut options = vec![(config, 1.0), (HopperConfig::pingpong_wide(), 1.04)];
    if k_blocks <= pingpong_128_max_k_blocks(input_bits) {
        options.push((HopperConfig::pingpong_tma_store(), 1.02));
    }
    // a tile's efficiency counts only the share of its tiles that is output
    let options: Vec<_> = options
        .into_iter()
        .map(|(c, eff)| (c, eff * output_share(&c, m, n)))
        .collect();
    best_filling(&options, m, n, sms).unwrap_or(config)
}

/// The most k-blocks (of 128 bytes of K) for which [`pingpong_if_short`] weighs the 128x128 ping-pong
/// tile: 32 for 16-bit inputs (2048³ and 4096x4096x2048 measured 2-3 % faster than 128x256 in run128),
/// 16 for FP8 (measured only up to there).
///
/// ```
/// assert_eq!(cute_gpu::matmul::plan::pingpong_128_max_k_blocks(16), 32);
/// ```
pub fn pingpong_128_max_k_blocks(input_bits: i64) -> i64 {
    if input_bits == 16 { 32 } else { 16 }
}

/// The share of `c`'s tiles over an `(m, n)` output that lies inside it.
pub(super) fn output_share(c: &HopperConfig, m: i64, n: i64) -> f64 {
    (m * n) as f64 / (tile_count(c, m, n) * c.bm * c.bn) as f64
}

/// [`pingpong_if_short`] unless the request asks for stream-K, which the ping-pong tiles do not run.
pub(super) fn short_mainloop_tile(
    r: &Request,
    config: HopperConfig,
    mn: [i64; 2],
    k_blocks: i64,
) -> HopperConfig {
    match r.decomposition {
        Decomposition::StreamK => config,
        _ => pingpong_if_short(config, mn, k_blocks, r.sm_count, 16),
    }
}

/// The cooperative 128x256 tile in 2-CTA clusters (B multicast: each CTA of a pair loads half of their
/// common B tile) where its `tiles` fill more than one wave of the `sms` SMs. Not for the ping-pong or
/// 128x128 tiles, nor for one wave. The multicast moves a third less from L2 to shared memory, and on a
/// GPU at its power cap (the H100/H200 at 700 W on random data) that is clock: at base clocks (ncu, run
/// 105) our 4096³ kernel took 287k cycles against cuBLAS's 128x256 and 256x128 kernels' 283k (both in
/// 2-CTA clusters), but moved 952 GB/s against their 794-807 and ran at 0.91-0.94 of them at the power
/// cap. Measured against the same tiles without clusters, every sample after an untimed one, bf16
/// (`bench_hopper clusters`, runs 105 / 107): 4096³ +2.3 / +1.1 %, 8192³ +3.8 / +0.6 %,
/// 8192x4096x14336 +2.8 / +1.2 %, 1024x8192x8192 +2.4 / +2.3 %, 16384x8192x1024 +2.9 / +2.9 % and
/// 8192x14336x4096 +2.6 / +2.1 % (these two take ping-pong 128x192); 2048³ (one wave) -3.5 / -3.1 %;
/// the 128x128 tiles -10 to +1 %, ping-pong 128x192 -4 to +2 %. (Session 7's measurement, -1 to +1 %,
/// timed each kernel right after another kernel: `runtime::bench::settled_ms`.) FP8 per-tensor takes
/// clusters only with stream-K ([`sm90_fp8_config`]: 4096³ read -1.8 % in clusters).
///
/// ```
/// use cute_gpu::{kernels::gemm_sm90::HopperConfig, matmul::plan::sm90_cluster};
/// let large = HopperConfig::large();
/// assert_eq!(sm90_cluster(large, 512, 132).cluster, 2); // 4096³
/// assert_eq!(sm90_cluster(large, 128, 132).cluster, 1); // 2048³: one wave
/// assert_eq!(sm90_cluster(HopperConfig::pingpong_wide(), 704, 132).cluster, 1);
/// ```
pub fn sm90_cluster(config: HopperConfig, tiles: i64, sms: u32) -> HopperConfig {
    match config == HopperConfig::large() && tiles > sms as i64 {
        true => HopperConfig {
            cluster: 2,
            ..config
        },
        false => config,
    }
}

/// Modeled seconds of one SM90 GEMM `[m, n, k, output bytes]` in `splits` K slices with the tile
/// `(config, efficiency)`: the larger of the tensor-core time (the tile's efficiency times the share of
/// the SMs its waves keep busy, of a nominal 700 TFLOP/s) and the time to read A and B once (3 TB/s),
/// plus, split, the workspace's traffic (f32 slices written and read, D written) at an effective 1 TB/s:
/// the slices are written by every CTA at once at the end of its only wave, not under other tiles'
/// mainloops, and read back by a second launch. Fitted to the tuner's times (`CUTE_AUTOTUNE_LOG`,
/// `gpu/logs/final7/autotune-log.txt`): at 256x2048x32768, 128x256 tiles in 8 slices (33.5 MB of
/// slices) took 71.1 us against 65.1 us for 128x128 tiles in 4; at 3 TB/s the model preferred the former.
pub(super) fn modeled_seconds(
    tile: (HopperConfig, f64),
    shape: [i64; 4],
    splits: i64,
    sms: u32,
) -> f64 {
    let [compute, inputs, workspace] = model_terms(tile, shape, splits, sms);
    compute.max(inputs) + workspace
}

/// The terms of [`modeled_seconds`]: tensor-core seconds, seconds to read A and B, workspace seconds.
pub(super) fn model_terms(
    (c, eff): (HopperConfig, f64),
    [m, n, k, osz]: [i64; 4],
    splits: i64,
    sms: u32,
) -> [f64; 3] {
    let (peak, bandwidth, workspace_bandwidth) = (700e12, 3e12, 1e12);
    let fill = wave_fill(tile_count(&c, m, n) * splits, sms);
    let (m, n, k) = (m as f64, n as f64, k as f64);
    let workspace = if splits > 1 {
        (2.0 * splits as f64 * m * n * 4.0 + m * n * osz as f64) / workspace_bandwidth
    } else {
        0.0
    };
    [
        2.0 * m * n * k / (eff * fill * peak),
        2.0 * (m * k + k * n) / bandwidth,
        workspace,
    ]
}

/// A GEMM `[m, n, k, output bytes]` that the model finds bound by reading A and B with the tile
/// `unsplit` (decode-like M): the candidate of the best tile efficiency among those of at most
/// `max(m, 64)` rows whose tensor-core time stays under that read time. Measured (autotuned, H100,
/// `gpu/logs/final4/bench_skinny_tuned.log`): 64x128 tiles read B in 128-row boxes and reach 0.98 of
/// cuBLASLt at 16x8192x8192, where 64x64 tiles (twice the CTAs) reach 0.89.
///
/// ```
/// use cute_gpu::matmul::plan::{sm90_config, sm90_read_bound_tile};
/// let unsplit = sm90_config(16, 8192, 16384, 132);
/// let c = sm90_read_bound_tile(unsplit, [16, 8192, 8192, 2], true, 132);
/// assert_eq!((unsplit.bm, unsplit.bn, c.bm, c.bn), (64, 64, 64, 128));
/// let big = sm90_config(4096, 4096, 8192, 132);
/// assert_eq!(sm90_read_bound_tile(big, [4096, 4096, 4096, 2], true, 132), big); // compute-bound
/// ```
pub fn sm90_read_bound_tile(
    unsplit: HopperConfig,
    shape: [i64; 4],
    rows_ok: bool,
    sms: u32,
) -> HopperConfig {
    let [m, n, ..] = shape;
    let candidates = sm90_candidates_for(m, n, rows_ok);
    let terms = |c: (HopperConfig, f64)| model_terms(c, shape, 1, sms);
    let Some(&own) = candidates.iter().find(|(c, _)| *c == unsplit) else {
        return unsplit;
    };
    let [compute, inputs, _] = terms(own);
    if compute > inputs {
        return unsplit;
    }
    candidates
        .into_iter()
        .filter(|&(c, e)| c.bm <= m.max(64) && terms((c, e))[0] <= inputs)
        .max_by(|x, y| x.1.total_cmp(&y.1))
        .map_or(unsplit, |x| x.0)
}

/// Split-K for an SM90 GEMM `[m, n, k, output bytes]` whose [`sm90_config`] is `unsplit`: the tile and the
/// slice count (2 to 16, dividing K into slices of at least 512 that are multiples of 8) that the model
/// (tensor-core time at the tile's efficiency and SM fill, time to read A and B, workspace traffic) puts at
/// least 10 % ahead of the unsplit kernel, if any.
///
/// ```
/// use cute_gpu::{kernels::gemm_sm90::HopperConfig, matmul::plan::{sm90_config, sm90_splits}};
/// // 1024x1024 outputs leave 128x256 tiles 32 of 132 SMs: K = 65536 in 4 slices of 128x256 tiles
/// let unsplit = sm90_config(1024, 1024, 2048, 132);
/// let (c, splits) = sm90_splits(unsplit, [1024, 1024, 65536, 2], true, 132).unwrap();
/// assert_eq!((c, splits), (HopperConfig::large(), 4));
/// assert!(sm90_splits(sm90_config(4096, 4096, 8192, 132), [4096, 4096, 4096, 2], true, 132).is_none());
/// assert!(sm90_splits(sm90_config(16, 8192, 16384, 132), [16, 8192, 8192, 2], true, 132).is_none()); // reading B bounds it
/// // 256x2048 outputs: 128x128 tiles in 4 slices, half the workspace of 128x256 tiles in 8
/// let (c, splits) = sm90_splits(sm90_config(256, 2048, 4096, 132), [256, 2048, 32768, 2], true, 132).unwrap();
/// assert_eq!((c.bm, c.bn, splits), (128, 128, 4));
/// ```
pub fn sm90_splits(
    unsplit: HopperConfig,
    shape: [i64; 4],
    rows_ok: bool,
    sms: u32,
) -> Option<(HopperConfig, i64)> {
    let [m, n, k, _] = shape;
    let candidates = sm90_candidates_for(m, n, rows_ok);
    let eff = candidates
        .iter()
        .find(|(c, _)| *c == unsplit)
        .map_or(1.0, |x| x.1);
    let base = modeled_seconds((unsplit, eff), shape, 1, sms);
    let mut best: Option<(f64, HopperConfig, i64)> = None;
    for splits in [2, 3, 4, 6, 8, 12, 16] {
        let slice = k / splits;
        if k % splits != 0 || slice % 8 != 0 || slice < 512 {
            continue;
        }
        for &(c, e) in &candidates {
            let t = modeled_seconds((c, e), shape, splits, sms);
            if best.is_none_or(|b| t < b.0) {
                best = Some((t, c, splits));
            }
        }
    }
    best.filter(|b| b.0 < 0.9 * base).map(|b| (b.1, b.2))
}
