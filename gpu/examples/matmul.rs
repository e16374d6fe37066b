//! Multiply two `CudaSlice`s with one call: `D = A·B`, bf16 in, f32 out, layouts in CuTe notation.
//!
//! `cargo run -p cute-gpu --features cuda --example matmul` (needs a CUDA GPU; without the feature it says so).

#[cfg(not(feature = "cuda"))]
fn main() {
    eprintln!("this example needs `--features cuda` and a GPU");
}

#[cfg(feature = "cuda")]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    use cute_gpu::matmul::{Gemm, Matrix, MatrixMut};
    use half::bf16;

    let stream = cudarc::driver::CudaContext::new(0)?.default_stream();
    let (m, n, k) = (512usize, 256usize, 1024usize);
    // A (M,K) row-major holds A(i,j) = (i + j) % 3, B (K,N) column-major holds B(i,j) = (i * j) % 2
    let a: Vec<bf16> = (0..m * k)
        .map(|x| bf16::from_f32(((x / k + x % k) % 3) as f32))
        .collect();
    let b: Vec<bf16> = (0..k * n)
        .map(|x| bf16::from_f32(((x % k) * (x / k) % 2) as f32))
        .collect();
    let (da, db) = (stream.clone_htod(&a)?, stream.clone_htod(&b)?);
    let mut dd = stream.alloc_zeros::<f32>(m * n)?;

    let gemm = Gemm::new(&stream)?;
    gemm.run(
        &Matrix::new(&da, format!("({m},{k}):({k},1)").parse()?),
        &Matrix::new(&db, format!("({k},{n}):(1,{k})").parse()?),
        None,
        &mut MatrixMut::new(&mut dd, format!("({m},{n}):({n},1)").parse()?),
        1.0,
        0.0,
    )?;
    let d = stream.clone_dtoh(&dd)?;
    let want = |i: usize, j: usize| {
        (0..k)
            .map(|x| ((i + x) % 3 * (x * j % 2)) as f32)
            .sum::<f32>()
    };
    let wrong = (0..m * n).filter(|&x| d[x] != want(x / n, x % n)).count();
    println!(
        "D = A·B on {} ({m}x{n}x{k}): {wrong} wrong elements",
        gemm.runtime().arch()
    );
    Ok(())
}
