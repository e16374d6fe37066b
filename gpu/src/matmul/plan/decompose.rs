//! How an SM90 GEMM is decomposed beyond one tile per output tile: K slices (summed in the GEMM or
//! by a reduction kernel), narrow sides (few rows computed as `Dᵀ`), and stream-K.

use super::*;

/// Split-K: `splits` K slices as a strided batch (slice `s` at `s * K/splits` along K) summed in the GEMM
/// ([`crate::piece::split_sum`]: each warp's last slice adds the others' through the f32 workspace, then
/// runs the fused epilogue); with [`Decomposition::SplitKReduceKernel`] written into an f32 workspace of
/// `(M, ldw)` slices and summed by [`generate_splitk_reduce`] with the fused epilogue.
/// `transpose`: the slices are computed as [`transposed`] (a narrow M), each written column-major in the
/// kernel's view, which is the same `(M, ldw)` slice.
pub(super) fn sm90_split_k(
    r: &Request,
    p: &Batch,
    op: EpilogueOp,
    (config, splits): (HopperConfig, i64),
    transpose: bool,
) -> Result<Choice> {
    let problem = hopper_problem(p)?;
    let slice = problem.k / splits;
    if splits < 2 || problem.k % splits != 0 || slice % 8 != 0 {
        return bad(format!(
            "split-K needs 2 or more slices of K = {} that are multiples of 8: {splits}",
            problem.k
        ));
    }
    let reduce = SplitKReduce {
        m: problem.m,
        n: problem.n,
        ldd: problem.ldd,
        splits,
        output: r.output,
        fused: fused(r, op),
    };
    let step = |major: Major, ld: i64| if major == Major::K { slice } else { slice * ld };
    let t = transpose.then(|| transposed(p)).transpose()?;
    let gemm = match &t {
        Some(t) => hopper_problem(t)?,
        None => problem,
    };
    let slices = |d, k_slices| HopperBatch {
        count: splits,
        a: step(gemm.a_major, gemm.lda),
        b: step(gemm.b_major, gemm.ldb),
        d,
        c: 0,
        k_slices,
    };
    // summed in the GEMM unless asked for the second kernel: against it (`bench_matmul --split-k-ab`,
    // run 156, H200) 256x2048x32768 1.00, 1024x1024x65536 1.03, 128x1024x16384 1.02, 16x4096x4096
    // 1.08, 64x4096x8192 1.10 (with the sums at their places in the output, runs 154 / 155, the first
    // read 0.74: its loads went out two at a time)
    let two_launches = r.decomposition == Decomposition::SplitKReduceKernel;
    let (kernel, reduce, workspace_elems) = match two_launches {
        true => {
            let sliced = HopperProblem {
                k: slice,
                ldd: reduce.ldw(),
                batch: Some(slices(reduce.split_stride(), false)),
                ..gemm
            };
            let kernel = generate_hopper_gemm_with(
                &sliced,
                r.input,
                DType::F32,
                &config,
                &Fused::default(),
            )?;
            let elems = reduce.workspace_elems();
            (kernel, Some(generate_splitk_reduce(&reduce)?), elems)
        }
        false => {
            let sliced = HopperProblem {
                k: slice,
                batch: Some(slices(0, true)),
                ..gemm
            };
            let fused = fused(r, oriented(op, transpose));
            let kernel = generate_hopper_gemm_with(&sliced, r.input, r.output, &config, &fused)?;
            let Some(w) = kernel.buffers.iter().find(|b| b.name == "W") else {
                return bad(format!(
                    "{}: a split-K kernel without its workspace W",
                    kernel.name
                ));
            };
            let elems = w.bytes as i64 / 4;
            (kernel, None, elems)
        }
    };
    Ok(Choice {
        all_batches: true,
        split_k: Some(SplitK {
            splits,
            workspace_elems,
            reduce,
        }),
        batch: t,
        ..Choice::of(kernel, "sm90")
    })
}

/// The batch computed transposed, `Dᵀ (N,M) = Bᵀ (N,K) · Aᵀ (K,M)`: A and B swap roles (and buffers), D
/// stays where it is, column-major in the kernel's view (for GEMMs with few rows, [`sm90_narrow_config`]).
///
/// ```
/// # use cute_gpu::{DType, matmul::plan::*};
/// # let l = |s: &str| s.parse::<cute_layout_core::Layout>().unwrap();
/// let (a, b, d) = (l("(16,4096):(4096,_1)"), l("(4096,8192):(_1,4096)"), l("(16,8192):(8192,_1)"));
/// # let r = Request {
/// #     a: &a, b: &b, c: None, d: &d, input: DType::BF16, output: DType::BF16, alpha: 1.0, beta: 0.0,
/// #     arch: "sm_90a", aligned: [true; 4], sm_count: 132, op: Default::default(),
/// #     decomposition: Default::default(),
/// # };
/// // 16 rows: the kernel computes Dᵀ, its 16 columns the wgmma's N
/// let p = plan(&r).unwrap().unwrap();
/// assert!(p.batch.swapped && p.kernel.name.contains("_64x16x64_") && p.kernel.name.contains("_dT"));
/// assert_eq!(p.batch.d.to_string(), "(8192,16):(_1,8192)");
/// ```
pub fn transposed(p: &Batch) -> Result<Batch> {
    let two = |l: &Layout| -> Result<[(i64, i64); 2]> {
        let m = flat_modes(l)?;
        Ok([0, 1].map(|i| (m[i].0.value, m[i].1.value)))
    };
    let ([(m, a0), (k, a1)], [(_, b0), (n, b1)], [(_, d0), (_, d1)]) =
        (two(&p.a)?, two(&p.b)?, two(&p.d)?);
    Ok(Batch {
        a: normalized([n, k], [b1, b0])?,
        b: normalized([k, m], [a1, a0])?,
        d: normalized([n, m], [d1, d0])?,
        swapped: !p.swapped,
    })
}

/// The configuration of a GEMM with a narrow side of `rows` (at most 64; decode-like): 64-row tiles
/// along the long side by `rows` rounded up to 16 (the wgmma's N), one consumer, as many stages as fit in
/// 192 KiB (16 at most), persistent, the direct epilogue. A 16x8192x8192 GEMM then reads B in 128 tiles
/// of 10 KiB stages, where 64x128 tiles read it in 64 tiles whose A boxes are three quarters padding
/// (cuBLASLt's kernel for it: `nvjet_sm90_tst_64x16_64x16`, 128 CTAs, `gpu/logs/matmul/run90/ncu-decode.log`).
///
/// ```
/// use cute_gpu::matmul::plan::sm90_narrow_config;
/// let c = sm90_narrow_config(16).unwrap();
/// assert_eq!((c.bm, c.bn, c.consumers, c.stages, c.tma_store), (64, 16, 1, 16, false));
/// assert_eq!(sm90_narrow_config(64).unwrap().stages, 12);
/// assert!(sm90_narrow_config(65).is_none());
/// ```
pub fn sm90_narrow_config(rows: i64) -> Option<HopperConfig> {
    if !(1..=64).contains(&rows) {
        return None;
    }
    let bn = (rows + 15) / 16 * 16;
    let stage_bytes = (64 + bn) * 128;
    Some(HopperConfig {
        bm: 64,
        bn,
        consumers: 1,
        stages: (196608 / stage_bytes).min(16) as u32,
        persistent: true,
        tma_store: false,
        ..HopperConfig::default()
    })
}

/// K slices for a narrow GEMM whose `tiles` 64-row tiles leave more than half of the `sms` SMs idle: the
/// most slices (up to 8) whose tiles still fit in one wave, each slice of K at least 512 and a multiple
/// of 8. 16x4096x4096: 64 tiles, 2 slices (0.88 -> 1.00 of cuBLASLt, `gpu/logs/matmul/run95`). Tiles
/// whose last wave is mostly idle are not split: 16x11008x4096 (172 tiles, waves 65 % full) measured
/// 0.87 unsplit and 0.85 in 2 slices (`run96`).
///
/// ```
/// use cute_gpu::matmul::plan::sm90_narrow_splits;
/// assert_eq!(sm90_narrow_splits(64, 4096, 132), Some(2));
/// assert_eq!(sm90_narrow_splits(16, 65536, 132), Some(8));
/// assert_eq!(sm90_narrow_splits(128, 8192, 132), None); // 128 tiles fill the SMs
/// assert_eq!(sm90_narrow_splits(64, 512, 132), None); // K too short to split
/// ```
pub fn sm90_narrow_splits(tiles: i64, k: i64, sms: u32) -> Option<i64> {
    let sms = sms as i64;
    if tiles < 1 || 2 * tiles > sms {
        return None;
    }
    (2..=8)
        .rev()
        .find(|&s| tiles * s <= sms && k % s == 0 && (k / s) % 8 == 0 && k / s >= 512)
}

/// One batch with a narrow side ([`sm90_narrow_config`]): N as it is, or M by computing the batch
/// [`transposed`] (its rows become the wgmma's N; D column-major in the kernel's view); in K slices
/// where its tiles leave most SMs idle ([`sm90_narrow_splits`]); `op` oriented for `p`.
pub(super) fn sm90_narrow(r: &Request, p: &Batch, op: EpilogueOp) -> Result<Choice> {
    let d = flat_modes(&p.d)?;
    let (m, n) = (d[0].0.value, d[1].0.value);
    let k = flat_modes(&p.a)?[1].0.value;
    let (config, transpose) = match (sm90_narrow_config(n), sm90_narrow_config(m)) {
        (Some(c), _) => (c, false),
        (None, Some(c)) => (c, true),
        (None, None) => return bad(format!("no side of {m}x{n} is at most 64")),
    };
    let long = if transpose { n } else { m };
    if let Some(splits) = sm90_narrow_splits((long + 63) / 64, k, r.sm_count) {
        if let Ok(choice) = sm90_split_k(r, p, op, (config, splits), transpose) {
            return Ok(choice);
        }
    }
    if !transpose {
        return sm90_kernel_with(r, p, op, config, (1, [0; 4]));
    }
    let t = transposed(p)?;
    let fused = fused(r, oriented(op, true));
    let problem = hopper_problem(&t)?;
    let config = stream_k_for(r, &problem, config);
    let kernel = generate_hopper_gemm_with(&problem, r.input, r.output, &config, &fused)?;
    Ok(Choice {
        batch: Some(t),
        ..Choice::of(kernel, "sm90")
    })
}

/// `config` with stream-K ([`crate::piece::stream_k`]) for `tiles` tiles of `k_blocks` k-blocks on `sms`
/// SMs where `decomposition` asks for it or, by the heuristic, where there are more tiles than SMs and
/// whole tiles leave the SMs idle for at least `min_idle` of a tile in the last wave ([`STREAM_K_MIN_IDLE`]
/// for tiles bound by the tensor cores, [`STREAM_K_MIN_IDLE_NARROW`] for the narrow tiles that stream
/// B at the memory's rate) and for at least [`STREAM_K_FIXUP_K_BLOCKS`] k-blocks' time (what a cut
/// tile's partial sums cost). Only for what the kernel allows (persistent cooperative consumers, no
/// cluster).
///
/// Measured against the same tiles without it (`bench_hopper streamk`, H200, runs 100 and 101, idle
/// share of a tile in brackets): bf16 8192³ +2.8 / +1.5 % (0.48), 8192x4096x14336 +6.7 / +2.6 % (0.24),
/// 8192x14336x4096 +2.0 / +3.9 % (0.85), 16384x8192x1024 +0.9 / +1.5 % (0.97); 4096³ -0.1 / -5.1 %
/// (0.12), 1024x8192x8192 -4.2 / -3.6 % (0.06), 2048³ in 128x128 tiles -16 / -15 % (0.06): the cut
/// tiles' partial sums cost more than the idle time they save. FP8 per tensor (`bench_fp8 streamk`, run
/// 101): 8192x4096x14336 +2.1 %, 8192³ +2.7 %, 8192x14336x4096 +3.8 %, 4096³ -3.8 %. Narrow (decode)
/// tiles: 11008x16x4096 +5.6 / +7.4 % (0.70), 11008x32 +6.2 / +8.6 %, but 14336x16 -4.0 / -2.6 % (0.30;
/// +4.7 % in run 99): a last wave of 92 narrow tiles keeps the memory nearly as busy as a full one.
/// The strided batch 32 x 1024³ (1024 tiles of 16 k-blocks, 0.24 idle: 4 k-blocks' time) read 0.86 of
/// whole tiles with it (`bench_matmul --stream-k-ab`, run 103, two processes).
///
/// ```
/// use cute_gpu::{kernels::gemm_sm90::HopperConfig, matmul::plan::*};
/// let large = HopperConfig::large();
/// let h = Decomposition::Heuristic;
/// assert_eq!(sm90_stream_k(large, 172, 64, 132, h, STREAM_K_MIN_IDLE).stream_k, 132); // 40 in the last wave
/// assert_eq!(sm90_stream_k(large, 512, 64, 132, h, STREAM_K_MIN_IDLE).stream_k, 0); // 116 of 132: 0.12 idle
/// assert_eq!(sm90_stream_k(large, 224, 64, 132, h, STREAM_K_MIN_IDLE_NARROW).stream_k, 0); // 0.30 idle
/// assert_eq!(sm90_stream_k(large, 264, 64, 132, h, STREAM_K_MIN_IDLE).stream_k, 0); // two full waves
/// assert_eq!(sm90_stream_k(large, 1024, 16, 132, h, STREAM_K_MIN_IDLE).stream_k, 0); // 0.24 x 16 k-blocks
/// assert_eq!(sm90_stream_k(large, 64, 64, 132, h, STREAM_K_MIN_IDLE).stream_k, 0); // split-K's
/// let forced = Decomposition::StreamK;
/// assert_eq!(sm90_stream_k(large, 264, 64, 132, forced, STREAM_K_MIN_IDLE).stream_k, 132);
/// let pingpong = HopperConfig::pingpong();
/// assert_eq!(sm90_stream_k(pingpong, 172, 64, 132, forced, STREAM_K_MIN_IDLE).stream_k, 0);
/// ```
pub fn sm90_stream_k(
    config: HopperConfig,
    tiles: i64,
    k_blocks: i64,
    sms: u32,
    decomposition: Decomposition,
    min_idle: f64,
) -> HopperConfig {
    let sms_i = sms.max(1) as i64;
    let allowed = config.persistent
        && !config.pingpong
        && k_blocks <= crate::piece::stream_k::max_k_blocks(sms_i);
    let idle = ((tiles + sms_i - 1) / sms_i * sms_i - tiles) as f64 / sms_i as f64;
    let wanted = match decomposition {
        Decomposition::Tiles => false,
        Decomposition::StreamK => true,
        Decomposition::Heuristic | Decomposition::SplitKReduceKernel => {
            tiles > sms_i && idle >= min_idle && idle * k_blocks as f64 >= STREAM_K_FIXUP_K_BLOCKS
        }
    };
    if allowed && wanted {
        HopperConfig {
            stream_k: sms,
            ..config
        }
    } else {
        config
    }
}

/// The heuristic takes stream-K for tiles bound by the tensor cores where whole tiles leave every SM
/// idle for at least this share of a tile's time in the last wave, on average ([`sm90_stream_k`]).
pub const STREAM_K_MIN_IDLE: f64 = 0.2;

/// The heuristic takes stream-K only where the last wave's idle time is worth at least this many
/// k-blocks: about what cutting tiles costs, fitted to the measurements of [`sm90_stream_k`]
/// (16384x8192x1024 gained 1.2 % where a tile's idle time over 32 waves would be 3 %).
pub const STREAM_K_FIXUP_K_BLOCKS: f64 = 10.0;

/// [`STREAM_K_MIN_IDLE`] for the narrow (decode) tiles, which read B at the memory's rate: a last wave
/// that keeps half the SMs busy keeps the memory about as busy as a full one.
pub const STREAM_K_MIN_IDLE_NARROW: f64 = 0.5;

/// [`sm90_stream_k`] for the kernel of `p` (every batch's tiles) with `config`, the narrow threshold for
/// a [`sm90_narrow_config`] tile.
pub(super) fn stream_k_for(r: &Request, p: &HopperProblem, config: HopperConfig) -> HopperConfig {
    let tiles = tile_count(&config, p.m, p.n) * p.batch.map_or(1, |b| b.count);
    let k_blocks = (p.k + config.bk - 1) / config.bk;
    let min_idle = match sm90_narrow_config(config.bn) == Some(config) {
        true => STREAM_K_MIN_IDLE_NARROW,
        false => STREAM_K_MIN_IDLE,
    };
    sm90_stream_k_raster(sm90_stream_k(
        config,
        tiles,
        k_blocks,
        r.sm_count,
        r.decomposition,
        min_idle,
    ))
}

/// Stream-K in 2-CTA clusters walks the raster along N ([`HopperConfig::raster_n`]; the 16-bit GEMM's
/// choice, FP8 not measured). Against the raster along M (`bench_hopper rasters`, runs 135 / 136, bf16,
/// H200, two processes): 16384x8192x1024 +4.8 / +5.2 %, 8192x14336x4096 +1.8 / +1.6 %, 2048³ +0.7 /
/// +0.3 %, 4096³ +2.7 / +3.9 %, 8192³ +2.0 / +2.8 %, 8192x4096x14336 +0.1 / +4.0 %, 1024x8192x8192
/// +3.8 / +3.6 %; the same clustered tile without stream-K read -4.8 to +4.6 % and the clustered
/// ping-pong 128x128 -5 to -1 %, so they keep the raster along M.
///
/// ```
/// use cute_gpu::{kernels::gemm_sm90::HopperConfig, matmul::plan::sm90_stream_k_raster};
/// let clustered = HopperConfig { cluster: 2, ..HopperConfig::large() };
/// assert!(sm90_stream_k_raster(HopperConfig { stream_k: 132, ..clustered }).raster_n);
/// assert!(!sm90_stream_k_raster(clustered).raster_n);
/// assert!(!sm90_stream_k_raster(HopperConfig { stream_k: 132, ..HopperConfig::large() }).raster_n);
/// ```
pub fn sm90_stream_k_raster(config: HopperConfig) -> HopperConfig {
    HopperConfig {
        raster_n: config.stream_k > 0 && config.cluster > 1,
        ..config
    }
}
