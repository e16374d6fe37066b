use cute_gpu::DType;
use cute_gpu::kernels::gemm_sm90::*;
use cute_gpu::matmul::plan::sm90_fp8_config;
use cute_gpu::piece::fp8_scaling::Scaling;
fn main() {
    let p = HopperProblem {
        lda: 8192,
        ldb: 8192,
        ..HopperProblem::padded(8192, 8192, 8192)
    };
    for s in [Scaling::PerTensor, Scaling::Block] {
        let c = sm90_fp8_config(8192, 8192, 16384, 132, s);
        let k = generate_hopper_fp8_gemm(
            &p,
            (DType::E4M3, DType::E4M3),
            s,
            DType::BF16,
            &c,
            &Fused::default(),
        )
        .unwrap();
        let r = cute_gpu::nvrtc::compile(&k.source, &k.name, "sm_90a").unwrap();
        println!("{}\n{}", k.name, r.log);
        std::fs::write(format!("/tmp/{}.cu", k.name), &k.source).unwrap();
    }
}
