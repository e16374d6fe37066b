//! Forward attention on cudarc buffers with one call: `O = softmax(Q·Kᵀ/√d, causal)·V` for a small
//! grouped-query problem in torch's `(B,H,S,D)` arrangement, checked against the f64 CPU reference.
//!
//! ```sh
//! cargo run --release --features cuda --example attention      # needs a GPU (Hopper: the wgmma kernel)
//! ```
//!
//! Without a GPU it says so and exits; CI builds it (clippy `--features cuda`).

use cute::cudarc::driver::CudaContext;
use cute::gpu::attention::reference::{RefProblem, reference_attention};
use cute::gpu::attention::{Attention, Options, Tensor, TensorMut, bhsd};
use cute::half::bf16;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    if !cute::gpu::runtime::driver_available() {
        println!("no CUDA driver here: the attention example needs a GPU");
        return Ok(());
    }
    let (b, s, hq, hkv, d) = (2usize, 300usize, 8usize, 2usize, 128usize);
    let stream = CudaContext::new(0)?.default_stream();
    // random normal-ish data (sum of uniforms), rounded to bf16; the reference reads the rounded values
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 40) as f32 / (1u64 << 24) as f32 - 0.5
    };
    let mut fill = |n: usize| {
        (0..n)
            .map(|_| bf16::from_f32(next() + next()))
            .collect::<Vec<_>>()
    };
    let (q, k, v) = (
        fill(b * hq * s * d),
        fill(b * hkv * s * d),
        fill(b * hkv * s * d),
    );
    let (lq, lkv) = (
        bhsd(b as i64, s as i64, hq as i64, d as i64)?,
        bhsd(b as i64, s as i64, hkv as i64, d as i64)?,
    );
    let (dq, dk, dv) = (
        stream.clone_htod(&q)?,
        stream.clone_htod(&k)?,
        stream.clone_htod(&v)?,
    );
    let mut dout = stream.alloc_zeros::<bf16>(q.len())?;
    let attention = Attention::new(&stream)?;
    attention.run(
        &Tensor::new(&dq, lq.clone()),
        &Tensor::new(&dk, lkv.clone()),
        &Tensor::new(&dv, lkv),
        &mut TensorMut::new(&mut dout, lq),
        None,
        &Options {
            causal: true,
            ..Options::default()
        },
    )?;
    let out = stream.clone_dtoh(&dout)?;
    // the reference takes (B,S,H,D) arrays: transpose from (B,H,S,D)
    let bshd = |t: &[bf16], h: usize| {
        let mut r = vec![0f32; t.len()];
        for (i, x) in t.iter().enumerate() {
            let (bb, hh, ss, dd) = (i / (h * s * d), i / (s * d) % h, i / d % s, i % d);
            r[((bb * s + ss) * h + hh) * d + dd] = x.to_f32();
        }
        r
    };
    let p = RefProblem {
        batch: b,
        sq: s,
        sk: s,
        hq,
        hkv,
        d,
        causal: true,
        scale: 1.0 / (d as f64).sqrt(),
    };
    let (o_ref, _lse) = reference_attention(&p, &bshd(&q, hq), &bshd(&k, hkv), &bshd(&v, hkv));
    let got = bshd(&out, hq);
    let err = got
        .iter()
        .zip(&o_ref)
        .map(|(g, r)| (*g as f64 - r).abs())
        .fold(0.0, f64::max);
    println!(
        "attention {b}x{hq}x{s}x{d} (GQA {hq}:{hkv}, causal, bf16) on {}: max |O - O_ref| = {err:.2e}",
        attention.runtime().arch()
    );
    // bound: 2u·max|V| with u = 2^-8 for bf16 (see gpu/tests/attention_run.rs)
    let vmax = v.iter().map(|x| x.to_f32().abs()).fold(0.0, f32::max) as f64;
    assert!(
        err <= 2.0 * 2f64.powi(-8) * vmax + 1e-4,
        "error {err} over the bound"
    );
    Ok(())
}
