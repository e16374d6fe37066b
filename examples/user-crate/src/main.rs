//! A user crate: one dependency line on the facade (features = ["cuda"]) for layout!, the algebra and
//! the GEMM call on cudarc buffers (`cute::cudarc`, `cute::half` re-exported, no second line).
use cute::cudarc::driver::CudaContext;
use cute::gpu::matmul::{Gemm, Matrix, MatrixMut};
use cute::half::bf16;
use cute::{Layout, composition, layout};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let l: Layout = layout!((4,(3,6)):(1,(4,12))).into();
    let c = composition(&l, &"(_4,_3):(_3,_1)".parse::<Layout>()?)?;
    println!("{l} o (_4,_3):(_3,_1) = {c}");
    if !cute::gpu::runtime::driver_available() {
        println!("no libcuda: GEMM not run");
        return Ok(());
    }
    let ctx = CudaContext::new(0)?;
    let stream = ctx.default_stream();
    let (m, n, k) = (256usize, 512usize, 128usize);
    let a = stream.clone_htod(&vec![bf16::from_f32(1.0); m * k])?;
    let b = stream.clone_htod(&vec![bf16::from_f32(0.5); k * n])?;
    let mut d = stream.alloc_zeros::<f32>(m * n)?;
    Gemm::new(&stream)?.run(
        &Matrix::new(&a, format!("({m},{k}):({k},1)").parse()?),
        &Matrix::new(&b, format!("({k},{n}):(1,{k})").parse()?),
        None,
        &mut MatrixMut::new(&mut d, format!("({m},{n}):({n},1)").parse()?),
        1.0,
        0.0,
    )?;
    println!("D[0] = {}", stream.clone_dtoh(&d)?[0]);
    Ok(())
}
