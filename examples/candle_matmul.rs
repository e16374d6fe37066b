//! Our GEMM on candle's CUDA tensors (`cute::candle::matmul`) against candle's own `Tensor::matmul`
//! (cuBLAS): correctness (max abs error and normwise relative error against an f32 reference, for
//! both) and speed (ms per product and TFLOP/s), over 2-D, transposed, offset and batched inputs.
//!
//! ```text
//! cargo run --release --features candle --example candle_matmul [-- ITERS [autotune]]
//! ```
//!
//! Needs a CUDA GPU and, at run time, libcuda, libnvrtc, libcublas, libcublasLt, libcurand and libcudart
//! (candle links them). Exits with status 1 when our result's relative error passes 1e-2 (bf16/f16
//! inputs) or a call fails.

use cute::candle::Matmul;
use cute::candle::core::{DType, Device, Result, Tensor};
use std::time::Instant;

/// One comparison: a name, `(L, M, N, K)` (L = 0 for 2-D), the input type, the output type, and
/// whether A and B are stored transposed (the op then reads `x.t()` views).
struct Case {
    name: &'static str,
    lmnk: [usize; 4],
    dtype: DType,
    out: DType,
    trans: [bool; 2],
}

const CASES: &[Case] = &[
    Case {
        name: "bf16 row-major",
        lmnk: [0, 4096, 4096, 4096],
        dtype: DType::BF16,
        out: DType::BF16,
        trans: [false, false],
    },
    Case {
        name: "bf16 x·Wᵀ (Linear)",
        lmnk: [0, 8192, 4096, 4096],
        dtype: DType::BF16,
        out: DType::BF16,
        trans: [false, true],
    },
    Case {
        name: "f16 Aᵀ·B",
        lmnk: [0, 4096, 4096, 4096],
        dtype: DType::F16,
        out: DType::F16,
        trans: [true, false],
    },
    Case {
        name: "bf16 -> f32 out",
        lmnk: [0, 4096, 4096, 4096],
        dtype: DType::BF16,
        out: DType::F32,
        trans: [false, true],
    },
    Case {
        name: "bf16 batched QKᵀ",
        lmnk: [32, 2048, 2048, 128],
        dtype: DType::BF16,
        out: DType::BF16,
        trans: [false, true],
    },
    Case {
        name: "f16 batched",
        lmnk: [16, 1024, 1024, 1024],
        dtype: DType::F16,
        out: DType::F16,
        trans: [false, false],
    },
    Case {
        name: "bf16 odd 1000^3",
        lmnk: [0, 1000, 1000, 1000],
        dtype: DType::BF16,
        out: DType::BF16,
        trans: [false, false],
    },
];

/// A random `(rows, cols)` (or `(L, rows, cols)`) matrix of `dtype`, stored transposed when `trans`
/// (then returned as the transposed view, so its dims are still `(rows, cols)`).
fn operand(
    l: usize,
    rows: usize,
    cols: usize,
    trans: bool,
    dtype: DType,
    dev: &Device,
) -> Result<Tensor> {
    let (r, c) = if trans { (cols, rows) } else { (rows, cols) };
    let t = if l == 0 {
        Tensor::randn(0f32, 1.0, (r, c), dev)?
    } else {
        Tensor::randn(0f32, 1.0, (l, r, c), dev)?
    };
    let t = t.to_dtype(dtype)?;
    if trans { t.t() } else { Ok(t) }
}

/// Mean milliseconds of `f` over `iters` runs after 3 warm-ups, the device synchronized around them.
fn time_ms(dev: &Device, iters: usize, mut f: impl FnMut() -> Result<Tensor>) -> Result<f64> {
    for _ in 0..3 {
        f()?;
    }
    dev.synchronize()?;
    let t0 = Instant::now();
    for _ in 0..iters {
        f()?;
    }
    dev.synchronize()?;
    Ok(t0.elapsed().as_secs_f64() * 1e3 / iters as f64)
}

/// `(max |x - reference|, ‖x - reference‖ / ‖reference‖)` in f32.
fn errors(x: &Tensor, reference: &Tensor) -> Result<(f32, f32)> {
    let d = (x.to_dtype(DType::F32)? - reference)?;
    let max = d.abs()?.max_all()?.to_scalar::<f32>()?;
    let norm = |t: &Tensor| -> Result<f32> { t.sqr()?.sum_all()?.sqrt()?.to_scalar::<f32>() };
    Ok((max, norm(&d)? / norm(reference)?))
}

/// Runs one case; returns whether our result is within tolerance.
fn run_case(c: &Case, dev: &Device, iters: usize, op: Matmul) -> Result<bool> {
    let [l, m, n, k] = c.lmnk;
    let a = operand(l, m, k, c.trans[0], c.dtype, dev)?;
    let b = operand(l, k, n, c.trans[1], c.dtype, dev)?;
    let reference = a.to_dtype(DType::F32)?.matmul(&b.to_dtype(DType::F32)?)?;
    let ours = a.apply_op2_no_bwd(&b, &op)?;
    if ours.dtype() != c.out {
        candle_core_error(format!(
            "{}: output {:?}, expected {:?}",
            c.name,
            ours.dtype(),
            c.out
        ))?;
    }
    let theirs = a.matmul(&b)?;
    let theirs = if c.out == DType::F32 {
        theirs.to_dtype(DType::F32)?
    } else {
        theirs
    };
    let (e_ours, e_theirs) = (errors(&ours, &reference)?, errors(&theirs, &reference)?);
    let ms_ours = time_ms(dev, iters, || a.apply_op2_no_bwd(&b, &op))?;
    let ms_theirs = time_ms(dev, iters, || a.matmul(&b))?;
    let flops = 2.0 * (l.max(1) * m * n * k) as f64;
    let tflops = |ms: f64| flops / (ms * 1e-3) / 1e12;
    let ok = e_ours.1.is_finite() && e_ours.1 < 1e-2;
    println!(
        "{:<20} {:>22} | cute {:>8.3} ms {:>6.1} TF/s err max {:.2e} rel {:.2e} | candle {:>8.3} ms {:>6.1} TF/s err max {:.2e} rel {:.2e} | {:.2}x {}",
        c.name,
        format!("L={l} {m}x{n}x{k}"),
        ms_ours,
        tflops(ms_ours),
        e_ours.0,
        e_ours.1,
        ms_theirs,
        tflops(ms_theirs),
        e_theirs.0,
        e_theirs.1,
        ms_theirs / ms_ours,
        if ok { "ok" } else { "FAIL" }
    );
    Ok(ok)
}

fn candle_core_error(msg: String) -> Result<()> {
    Err(cute::candle::core::Error::msg(msg))
}

/// A view with a start offset (a narrowed row range) and a batch broadcast with stride 0, checked
/// against the reference only.
fn views(dev: &Device, op: Matmul) -> Result<bool> {
    let big = Tensor::randn(0f32, 1.0, (600, 256), dev)?.to_dtype(DType::BF16)?;
    let a = big.narrow(0, 88, 512)?; // start offset 88 * 256 elements
    let w = Tensor::randn(0f32, 1.0, (256, 384), dev)?.to_dtype(DType::BF16)?;
    let reference = a.to_dtype(DType::F32)?.matmul(&w.to_dtype(DType::F32)?)?;
    let (max, rel) = errors(&a.apply_op2_no_bwd(&w, &op)?, &reference)?;
    println!(
        "{:<20} {:>22} | cute err max {max:.2e} rel {rel:.2e}",
        "bf16 narrowed A", "offset 22528"
    );
    let x = Tensor::randn(0f32, 1.0, (4, 128, 256), dev)?.to_dtype(DType::BF16)?;
    let wb = w.broadcast_as((4, 256, 384))?; // batch stride 0
    let reference2 = x
        .to_dtype(DType::F32)?
        .matmul(&wb.to_dtype(DType::F32)?.contiguous()?)?;
    let (max2, rel2) = errors(&x.apply_op2_no_bwd(&wb, &op)?, &reference2)?;
    println!(
        "{:<20} {:>22} | cute err max {max2:.2e} rel {rel2:.2e}",
        "bf16 broadcast B", "batch stride 0"
    );
    Ok(rel < 1e-2 && rel2 < 1e-2)
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let iters = match args.first() {
        Some(s) => s
            .parse()
            .map_err(|_| cute::candle::core::Error::msg(format!("ITERS: {s:?} is not a count")))?,
        None => 20,
    };
    let op = if args.get(1).map(String::as_str) == Some("autotune") {
        Matmul::new().autotune()
    } else {
        Matmul::new()
    };
    let dev = Device::new_cuda(0)?;
    println!("cute::candle::matmul vs candle Tensor::matmul (cuBLAS), {iters} timed runs each");
    let mut ok = true;
    for c in CASES {
        let op = if c.out == c.dtype {
            op
        } else {
            op.out_dtype(c.out)
        };
        ok &= run_case(c, &dev, iters, op)?;
    }
    ok &= views(&dev, op)?;
    if !ok {
        eprintln!("FAIL: an error above 1e-2 (relative)");
        std::process::exit(1);
    }
    Ok(())
}
