//! A custom tiled copy kernel from two layouts: `dst(i) = src(i)` for every logical index `i`, with
//! the access width, the tiling over threads and the predication all derived by the layout algebra.
//!
//! ```sh
//! cargo run --features gpu --example tiled_copy_kernel                     # generate (+ NVRTC compile)
//! cargo run --features gpu --example tiled_copy_kernel -- '(64,1000):(_1,64)' '(64,1000):(1000,_1)'
//! cargo run --features cuda --example tiled_copy_kernel                    # + run on a GPU, checked
//! ```
//!
//! Needs no GPU to generate; with libnvrtc loadable (`source .ci/nvrtc.sh` installs it from PyPI)
//! the source is compiled to a CUBIN and ptxas's report printed; with the `cuda` feature and a GPU the
//! kernel runs and is checked against the CPU copy by `cute::tensor::copy`.

use cute::gpu::kernels::copy::{CopySpec, generate_copy};
use cute::{Layout, max_common_vector, size};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    // Default: a 1024x1000 f32 column-major matrix with padded columns (leading dimension 1040, mode 0
    // written as 256 vectors of 4), copied into packed column-major storage.
    let src: Layout = args
        .next()
        .unwrap_or("((_4,_256),1000):((_1,_4),1040)".into())
        .parse()?;
    let dst: Layout = args
        .next()
        .unwrap_or("(_1024,1000):(_1,_1024)".into())
        .parse()?;
    println!("src = {src}\ndst = {dst}");
    println!(
        "size = {}, max_common_vector(src, dst) = {} elements",
        size(&src)?,
        max_common_vector(&src, &dst)?
    );

    let mut spec = CopySpec::new(src.clone(), dst.clone(), 4);
    spec.threads = 128;
    spec.unroll = 4;
    let k = generate_copy(&spec)?;
    println!(
        "kernel `{}`: grid {:?}, block {:?}, buffers {:?}, {} lines of CUDA C",
        k.name,
        k.grid,
        k.block,
        k.buffer_names(),
        k.source.lines().count()
    );
    // The generator states the layout operations next to the code they produce.
    for line in k.source.lines().take_while(|l| !l.starts_with("extern")) {
        if line.starts_with("//") {
            println!("  {line}");
        }
    }

    if cute::gpu::nvrtc::nvrtc_available() {
        let c = cute::gpu::nvrtc::compile(&k.source, &k.name, "sm_90a")?;
        println!(
            "NVRTC sm_90a: {} bytes of CUBIN; ptxas: {} registers, spills {}/{} bytes",
            c.cubin.len(),
            c.report.registers,
            c.report.spill_stores,
            c.report.spill_loads
        );
    } else {
        println!("libnvrtc not found: generated only (source .ci/nvrtc.sh to compile)");
    }

    #[cfg(feature = "cuda")]
    run_on_gpu(&k, &src, &dst)?;
    Ok(())
}

#[cfg(feature = "cuda")]
fn run_on_gpu(
    k: &cute::gpu::Kernel,
    src: &Layout,
    dst: &Layout,
) -> Result<(), Box<dyn std::error::Error>> {
    use cute::gpu::runtime::Runtime;
    use cute::tensor::{copy, make_gmem_ptr, make_tensor};
    let rt = match Runtime::new(0) {
        Ok(rt) => rt,
        Err(e) => {
            println!("no GPU here ({e}): not run");
            return Ok(());
        }
    };
    let n = |l: &Layout| cute::cosize(l).map(|c| c.value as usize);
    let src_data: Vec<u32> = (0..n(src)?).map(|i| i as u32 * 2654435761).collect();
    let init = vec![0xdead_beef_u32; n(dst)?];
    let (sb, db) = (rt.upload(&src_data)?, rt.upload(&init)?);
    rt.launch(k, &[rt.bind(&sb), rt.bind(&db)])?;
    let got = rt.download(&db)?;
    let mut want = init.clone();
    let s = make_tensor(make_gmem_ptr(&src_data[..]), src.clone())?;
    let mut d = make_tensor(make_gmem_ptr(&mut want[..]), dst.clone())?;
    copy(&s, &mut d)?;
    assert_eq!(got, want, "GPU copy differs from the CPU copy");
    println!("ran on {}: matches the CPU copy", rt.device_name()?);
    Ok(())
}
