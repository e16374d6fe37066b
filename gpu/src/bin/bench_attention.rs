//! Benchmark of the attention call (`cute_gpu::attention::Attention`: the Hopper kernel on an sm_90
//! device, else the `mma.sync` one) on the sweep of issue 15: bf16, 16k tokens per batch
//! (`B = 16384 / S`), hidden 2048 (`H = 2048 / D`), `(B,S,H,D)` layout, D in {64, 128}, S in {1k, 4k}
//! (and 16k with `--seq16k`), causal or not. Random normal data; 6 rounds interleave the
//! shapes and rotate the handles within each, medians of the rounds. FLOPs = 4·B·H·S²·D, halved for causal. torch's SDPA on the same shapes:
//! `scripts/gpu/torch_attention.py`.
//!
//! `bench_attention [--quick] [--d256] [--seq16k] [--sm80] [--schedules] [--tiles D:BMxBN[:qsmem]]... [--sm90-block-n D:BN]... [--persistent] [--direct-o] [--stages3] [--sd0] [--lazy] [--eager] [--lpt MIB]... [--poly N]... [--consumers2] [--consumers3] [--dynamic] [--dynamic-lpt] [--rescale-early] [--rescale-early-nopp] [--pp-rescale-after] [--per-tile] [--prefetch-q] [--no-prefetch-q] [--persistent-pq] [--no-narrow-tail] [--wg-broadcast] [--wg-plain] [--d D]... [--no-default] [--serialized] [--control] [--rounds N] [--sample-tflop F]` (sample-tflop: the work of one timed sample,
//! default 20 TFLOP, tens of ms; quick: one round of 2-TFLOP samples; d256: add D = 256; sm80: also time the `mma.sync` kernel (label `sm80`); schedules: also the Hopper kernel without
//! ping-pong (`nopp`) and without any overlap (`serial`); tiles: also time head dim D with BM query rows per CTA and BN keys per tile, Q re-read from
//! shared memory with `qsmem`, interleaved with the default tiles; sm90-block-n: also time the Hopper kernel with BN keys per
//! K/V tile for head dim D, label `bnBN`; persistent: also the Hopper kernel with persistent CTAs; direct-o: also the Hopper kernel
//! storing O from the registers instead of through shared memory and TMA, label `direct_o`; stages3: also the
//! Hopper kernel with 3 K/V stages where they fit; sd0: also with the first `S` wgmma at scale-d = 0; lazy / eager: also with lazy rescaling of O on / off; lpt: also
//! with persistent CTAs in the LPT tile order over L2 sections of MIB MiB, label `persistent_lptMIB`; poly: also with one of every N score atoms' exponentials on the FMA pipe, label `polyN`; consumers2, consumers3: also the Hopper kernel with 2 (128 query rows per CTA) or 3 (192) consumer warp
//! groups for D = 64 only (the default: 3 but for causal up to 1k keys), label `consumersN`; dynamic: also with persistent CTAs taking their tiles from the dynamic scheduler (an atomic counter), dynamic-lpt: the same in the LPT order of 32 MiB sections; rescale-early: also with O rescaled just before each P·V (label `rescale_early`; `rescale_early_nopp`: the same without ping-pong); pp-rescale-after: also with ping-pong and O rescaled after each P·V everywhere (the schedule of every shape before session 5), label `pp_rescale_after`; per-tile: one CTA per tile (not persistent), label `per_tile`; prefetch-q, no-prefetch-q: also with persistent CTAs' Q prefetched into L2 or not (labels `prefetch_q`, `no_prefetch_q`), persistent-pq: persistent CTAs with it (label `persistent_pq`); no-narrow-tail: also without the narrow last key block (label `no_narrow_tail`); wg-broadcast, wg-plain: also with the warp group index broadcast from lane 0 or not (labels `wg_broadcast`, `wg_plain`); d: only these head dims (repeatable); no-default: without the default handle, e.g. to compile only an option's
//! kernels into the on-disk cache; serialized: also the Hopper kernel launched without programmatic
//! dependent launch; control: a second default handle, the spread of two identical contenders; rounds:
//! that many rounds instead of 6).

#[cfg(not(feature = "cuda"))]
fn main() {
    eprintln!("bench_attention needs --features cuda");
    std::process::exit(2);
}

#[cfg(feature = "cuda")]
fn main() {
    if let Err(e) = bench::run() {
        eprintln!("bench_attention: {e}");
        std::process::exit(1);
    }
}

#[cfg(feature = "cuda")]
mod bench {
    use cudarc::driver::CudaContext;
    use cute_gpu::Result;
    use cute_gpu::attention::{Attention, Options, Tensor, TensorMut, Tiles, bshd};
    use cute_gpu::host::Rng;
    use cute_gpu::runtime::bench::{median, sample_calls, sample_tflop, settled_ms};
    use half::bf16;

    const TOKENS: i64 = 16384;
    const HIDDEN: i64 = 2048;

    /// FLOPs of one call on the sweep's shape: `4·B·H·S²·D`, halved for causal.
    fn flops(s: i64, d: i64, causal: bool) -> f64 {
        let (b, heads) = (TOKENS / s, HIDDEN / d);
        4.0 * (b * heads) as f64 * (s * s) as f64 * d as f64 / if causal { 2.0 } else { 1.0 }
    }

    fn normal(rng: &mut Rng) -> f32 {
        let u1 = ((rng.next_u64() >> 11) as f64 + 1.0) / (1u64 << 53) as f64;
        let u2 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()) as f32
    }

    /// `D:BMxBN[:qsmem]` -> (D, tiles).
    fn parse_tiles(s: &str) -> Option<(i64, Tiles)> {
        let mut parts = s.split(':');
        let d = parts.next()?.parse().ok()?;
        let (bm, bn) = parts.next()?.split_once('x')?;
        let q_in_registers = parts.next() != Some("qsmem");
        let tiles = Tiles {
            block_m: bm.parse().ok()?,
            block_n: bn.parse().ok()?,
            q_in_registers,
        };
        Some((d, tiles))
    }

    /// A handle variant: its label, the head dim it applies to (all when `None`), the handle.
    type Handle = (String, Option<i64>, Attention);

    /// How a switch's handle is built from a fresh one.
    type Build = fn(Attention) -> Result<Attention>;

    /// The switches: flag, label, head dim it applies to, how the handle is built.
    const SWITCHES: [(&str, &str, Option<i64>, Build); 28] = [
        ("--serialized", "serialized", None, |a| {
            Ok(a.with_dependent_launch(false))
        }),
        // a second default handle: the spread of two identical contenders (an A/A control)
        ("--control", "control", None, Ok),
        ("--schedules", "nopp", None, |a| {
            a.with_sm90_schedule(true, false)
        }),
        ("--schedules", "serial", None, |a| {
            a.with_sm90_schedule(false, false)
        }),
        ("--persistent", "persistent", None, |a| {
            a.with_sm90_persistent(true)
        }),
        ("--stages3", "stages3", None, |a| a.with_sm90_stages(3)),
        ("--consumers2", "consumers2", Some(64), |a| {
            a.with_sm90_consumers(2)
        }),
        ("--consumers3", "consumers3", Some(64), |a| {
            a.with_sm90_consumers(3)
        }),
        ("--sd0", "sd0", None, |a| Ok(a.with_sm90_s_scale_d0(true))),
        ("--lazy", "lazy", None, |a| {
            Ok(a.with_sm90_lazy_rescale(true))
        }),
        ("--eager", "eager", None, |a| {
            Ok(a.with_sm90_lazy_rescale(false))
        }),
        ("--direct-o", "direct_o", None, |a| {
            Ok(a.with_sm90_tma_store_o(false))
        }),
        ("--tma-o", "tma_o", Some(64), |a| {
            Ok(a.with_sm90_tma_store_o(true))
        }),
        ("--sm80", "sm80", None, |a| Ok(a.with_sm90(false))),
        ("--no-tails", "no_tails", Some(64), |a| {
            Ok(a.with_sm90_tail_tiles(false))
        }),
        ("--dynamic", "dynamic", None, |a| {
            Ok(a.with_sm90_persistent(true)?.with_sm90_dynamic_tiles(true))
        }),
        ("--dynamic-lpt", "dynamic_lpt32", None, |a| {
            Ok(a.with_sm90_persistent(true)?
                .with_sm90_dynamic_tiles(true)
                .with_sm90_lpt(32))
        }),
        ("--rescale-early", "rescale_early", None, |a| {
            Ok(a.with_sm90_rescale_before_pv(true))
        }),
        ("--rescale-early-nopp", "rescale_early_nopp", None, |a| {
            a.with_sm90_rescale_before_pv(true)
                .with_sm90_schedule(true, false)
        }),
        ("--pp-rescale-after", "pp_rescale_after", None, |a| {
            Ok(a.with_sm90_schedule(true, true)?
                .with_sm90_rescale_before_pv(false))
        }),
        ("--per-tile", "per_tile", None, |a| {
            a.with_sm90_persistent(false)
        }),
        ("--prefetch-q", "prefetch_q", None, |a| {
            Ok(a.with_sm90_prefetch_q(true))
        }),
        ("--no-prefetch-q", "no_prefetch_q", None, |a| {
            Ok(a.with_sm90_prefetch_q(false))
        }),
        ("--no-narrow-tail", "no_narrow_tail", None, |a| {
            Ok(a.with_sm90_narrow_tail(false))
        }),
        ("--wg-broadcast", "wg_broadcast", None, |a| {
            Ok(a.with_sm90_warp_group_broadcast(true))
        }),
        ("--wg-plain", "wg_plain", None, |a| {
            Ok(a.with_sm90_warp_group_broadcast(false))
        }),
        ("--persistent-pq", "persistent_pq", None, |a| {
            Ok(a.with_sm90_persistent(true)?.with_sm90_prefetch_q(true))
        }),
        ("--c3-tails", "c3_tails", Some(64), |a| {
            Ok(a.with_sm90_consumers(3)?
                .with_sm90_persistent(true)?
                .with_sm90_lpt(0)
                .with_sm90_tail_tiles(true))
        }),
    ];

    /// The default handle, one per switch given, and one per `--lpt`, `--tiles` and `--sm90-block-n`
    /// value, in that order.
    fn handles(
        args: &[String],
        stream: &std::sync::Arc<cudarc::driver::CudaStream>,
    ) -> Result<Vec<Handle>> {
        let mut out = Vec::new();
        if !args.iter().any(|a| a == "--no-default") {
            out.push(("default".to_string(), None, Attention::new(stream)?));
        }
        for (flag, label, d, build) in SWITCHES {
            if args.iter().any(|a| a == flag) {
                out.push((label.to_string(), d, build(Attention::new(stream)?)?));
            }
        }
        out.extend(valued_handles(args, stream)?);
        Ok(out)
    }

    /// The rows' order in round `round`: the shapes forwards in even rounds and backwards in odd ones,
    /// the handles of each shape rotated by one place per round, so that the first place of a shape (right
    /// after another shape's kernels) goes to each handle in turn (equally often where the rounds are a
    /// multiple of the shape's handles, e.g. 6 rounds of 2 or 3 handles): the first place measured up
    /// to 5 % faster for the same kernel, e.g. after a short causal shape (gpu/logs/attention90/run78),
    /// and up to 7 % slower elsewhere (run26).
    fn round_order(rows: &[(i64, i64, bool, usize)], round: usize) -> Vec<usize> {
        let index: Vec<usize> = (0..rows.len()).collect();
        let mut shapes: Vec<&[usize]> = index
            .chunk_by(|&a, &b| {
                rows[a].0 == rows[b].0 && rows[a].1 == rows[b].1 && rows[a].2 == rows[b].2
            })
            .collect();
        if round % 2 == 1 {
            shapes.reverse();
        }
        shapes
            .into_iter()
            .flat_map(|handles| {
                let mut h = handles.to_vec();
                h.rotate_left(round % handles.len());
                h
            })
            .collect()
    }

    fn bad_value(flag: &str, value: &str, expected: &str) -> cute_gpu::GpuError {
        cute_gpu::GpuError::Config {
            kernel: "bench_attention",
            reason: format!("{flag} {value}: expected {expected}"),
        }
    }

    /// The handles of the flags that take a value: `--lpt MIB`, `--poly N`, `--tiles D:BMxBN[:qsmem]`,
    /// `--sm90-block-n D:BN`.
    fn valued_handles(
        args: &[String],
        stream: &std::sync::Arc<cudarc::driver::CudaStream>,
    ) -> Result<Vec<Handle>> {
        let mut out = Vec::new();
        for w in args.windows(2) {
            let (flag, value) = (w[0].as_str(), w[1].as_str());
            let handle = match flag {
                "--lpt" => {
                    let mib = value
                        .parse::<i64>()
                        .map_err(|_| bad_value(flag, value, "MiB"))?;
                    let a = Attention::new(stream)?.with_sm90_persistent(true)?;
                    (format!("persistent_lpt{mib}"), None, a.with_sm90_lpt(mib))
                }
                "--poly" => {
                    let every = value
                        .parse::<i64>()
                        .map_err(|_| bad_value(flag, value, "every how many score atoms"))?;
                    let a = Attention::new(stream)?.with_sm90_poly_exp2(every)?;
                    (format!("poly{every}"), None, a)
                }
                "--tiles" => {
                    let (d, t) = parse_tiles(value)
                        .ok_or_else(|| bad_value(flag, value, "D:BMxBN[:qsmem]"))?;
                    (
                        value.to_string(),
                        Some(d),
                        Attention::new(stream)?.with_tiles(d, t)?,
                    )
                }
                "--sm90-block-n" => {
                    let parsed = value
                        .split_once(':')
                        .and_then(|(d, n)| Some((d.parse::<i64>().ok()?, n.parse::<i64>().ok()?)));
                    let (d, bn) = parsed.ok_or_else(|| bad_value(flag, value, "D:BN"))?;
                    let a = Attention::new(stream)?.with_sm90_block_n(d, bn)?;
                    (format!("bn{bn}"), Some(d), a)
                }
                _ => continue,
            };
            out.push(handle);
        }
        Ok(out)
    }

    pub fn run() -> Result<()> {
        let args: Vec<String> = std::env::args().collect();
        let quick = args.iter().any(|a| a == "--quick");
        let mut dims = vec![64, 128];
        if args.iter().any(|a| a == "--d256") {
            dims.push(256);
        }
        let only: Vec<i64> = args
            .windows(2)
            .filter(|w| w[0] == "--d")
            .filter_map(|w| w[1].parse().ok())
            .collect();
        if !only.is_empty() {
            dims = only;
        }
        let rounds = match args.windows(2).find(|w| w[0] == "--rounds") {
            Some(w) => w[1]
                .parse::<usize>()
                .ok()
                .filter(|&r| r > 0)
                .ok_or_else(|| bad_value("--rounds", &w[1], "a positive number of rounds"))?,
            None if quick => 1,
            None => 6,
        };
        // each sample: about `--sample-tflop` TFLOP (default 20: tens of ms; 2 with --quick), after an
        // untimed one of the same handle (settled_ms; the attention tables before session 10 timed without)
        let tflop = sample_tflop(if quick { 2.0 } else { 20.0 })?;
        let ctx = CudaContext::new(0).map_err(cute_gpu::error::driver("cuInit"))?;
        let stream = ctx.default_stream();
        let handles = handles(&args, &stream)?;
        let n = (TOKENS * HIDDEN) as usize;
        let mut rng = Rng(2026);
        let mut upload = || -> Result<_> {
            let host: Vec<bf16> = (0..n).map(|_| bf16::from_f32(normal(&mut rng))).collect();
            stream
                .clone_htod(&host)
                .map_err(cute_gpu::error::driver("cuMemcpyHtoD"))
        };
        let (q, k, v) = (upload()?, upload()?, upload()?);
        let mut o = stream
            .alloc_zeros::<bf16>(n)
            .map_err(cute_gpu::error::driver("alloc"))?;
        let mut seqs = vec![1024i64, 4096];
        if args.iter().any(|a| a == "--seq16k") {
            seqs.push(16384);
        }
        let mut rows = Vec::new(); // (seq, d, causal, handle)
        for &d in &dims {
            for &s in &seqs {
                for causal in [false, true] {
                    for (h, (_, only, _)) in handles.iter().enumerate() {
                        if only.is_none_or(|x| x == d) {
                            rows.push((s, d, causal, h));
                        }
                    }
                }
            }
        }
        let mut times = vec![Vec::new(); rows.len()];
        for round in 0..rounds {
            for i in round_order(&rows, round) {
                let (s, d, causal, h) = rows[i];
                let attn = &handles[h].2;
                let l = bshd(TOKENS / s, s, HIDDEN / d, d)?;
                let opts = Options {
                    causal,
                    ..Options::default()
                };
                let mut call = || {
                    attn.run(
                        &Tensor::new(&q, l.clone()),
                        &Tensor::new(&k, l.clone()),
                        &Tensor::new(&v, l.clone()),
                        &mut TensorMut::new(&mut o, l.clone()),
                        None,
                        &opts,
                    )
                };
                let iters = sample_calls(tflop, flops(s, d, causal));
                times[i].push(settled_ms(attn.runtime(), iters, &mut call)?);
                if times[i].len() == 1 {
                    // progress (the first round compiles each kernel)
                    eprintln!(
                        "{} s={s} d={d} causal={causal}: {:.3} ms",
                        handles[h].0, times[i][0]
                    );
                }
            }
        }
        let device = handles[0].2.runtime().device_name()?;
        println!("device: {device}, {rounds} rounds of samples of {tflop} TFLOP, medians");
        println!(
            "{:>6} {:>5} {:>5} {:>5} {:>7} {:>16} {:>10} {:>9}",
            "seq", "batch", "heads", "d", "causal", "tiles", "ms", "TFLOP/s"
        );
        for (&(s, d, causal, h), t) in rows.iter().zip(times) {
            let (b, heads) = (TOKENS / s, HIDDEN / d);
            let ms = median(&t);
            println!(
                "{s:>6} {b:>5} {heads:>5} {d:>5} {causal:>7} {:>16} {ms:>10.3} {:>9.1}",
                handles[h].0,
                flops(s, d, causal) / ms / 1e9
            );
        }
        Ok(())
    }
}
