//! The FP8 GEMM call on a GPU (Hopper) against the exactly decoded f64 reference: per-tensor and block
//! scales, mixed e4m3/e5m2, f32 and bf16 outputs, a fused bias + ReLU; short scale buffers rejected
//! before any launch. Without a Hopper GPU: a loud SKIP (a failure with `CUTE_REQUIRE_GPU=1`).

#[cfg(not(feature = "cuda"))]
#[test]
fn fp8_run_tests_need_the_cuda_feature() {
    eprintln!("\n***** SKIP fp8 run tests: built without --features cuda *****\n");
}

#[cfg(feature = "cuda")]
mod common;

#[cfg(feature = "cuda")]
mod fp8_run {
    use super::common;
    use cudarc::driver::{CudaContext, CudaStream};
    use cute_gpu::fp8::{E4M3, E5M2};
    use cute_gpu::host::{Fp8Reference, Rng};
    use cute_gpu::matmul::{
        Activation, Bias, BiasKind, Epilogue, Fp8Scales, Gemm, Matrix, MatrixMut,
    };
    use cute_gpu::piece::fp8_scaling::Scaling;
    use cute_gpu::{GpuError, Result};
    use half::bf16;
    use std::sync::Arc;

    fn hopper(test: &str) -> Option<Arc<CudaStream>> {
        let ctx = cute_gpu::runtime::driver_available()
            .then(|| CudaContext::new(0).ok())
            .flatten();
        let hopper = ctx.filter(|c| c.compute_capability().is_ok_and(|cc| cc.0 == 9));
        if hopper.is_none() {
            let require = std::env::var("CUTE_REQUIRE_GPU").is_ok_and(|v| v == "1");
            assert!(!require, "CUTE_REQUIRE_GPU=1 but no Hopper GPU for {test}");
            common::loud(&format!("***** SKIP {test}: no Hopper GPU here *****"));
        }
        hopper.map(|c| c.default_stream())
    }

    /// Runs one call with scales in [0.5, 2) and checks D against the reference (errors within 2^-6 of
    /// sum |a||b|, plus the output's rounding).
    fn run_case(
        stream: &Arc<CudaStream>,
        scaling: Scaling,
        bias_relu: bool,
        (m, n, k): (i64, i64, i64),
    ) -> Result<()> {
        let mut rng = Rng(7);
        let a8: Vec<E4M3> = (0..m * k).map(|_| E4M3::from_f32(rng.uniform())).collect();
        let b8: Vec<E5M2> = (0..n * k).map(|_| E5M2::from_f32(rng.uniform())).collect();
        let (la, lb) = scaling.scale_lens(m, n, k)?;
        let mut scales = |n: i64| {
            (0..n)
                .map(|_| 1.25 + 0.75 * rng.uniform())
                .collect::<Vec<f32>>()
        };
        let (sa, sb) = (scales(la), scales(lb));
        let bias: Vec<bf16> = (0..n)
            .map(|j| bf16::from_f32(j as f32 / 16.0 - 4.0))
            .collect();
        let up = |e: cudarc::driver::DriverError| GpuError::Driver {
            call: "htod".into(),
            detail: format!("{e:?}"),
        };
        let (da, db) = (
            stream.clone_htod(&a8).map_err(up)?,
            stream.clone_htod(&b8).map_err(up)?,
        );
        let (dsa, dsb) = (
            stream.clone_htod(&sa).map_err(up)?,
            stream.clone_htod(&sb).map_err(up)?,
        );
        let dbias = stream.clone_htod(&bias).map_err(up)?;
        let mut dd = stream.alloc_zeros::<bf16>((m * n) as usize).map_err(up)?;
        let gemm = Gemm::new(stream)?;
        let scales = match scaling {
            Scaling::PerTensor => Fp8Scales::PerTensor { a: &dsa, b: &dsb },
            Scaling::Block => Fp8Scales::Block { a: &dsa, b: &dsb },
        };
        let epilogue = Epilogue {
            alpha: 1.0,
            beta: 0.0,
            bias: bias_relu.then_some(Bias {
                data: &dbias,
                per: BiasKind::PerColumn,
            }),
            activation: if bias_relu {
                Activation::Relu
            } else {
                Activation::None
            },
        };
        gemm.run_fp8(
            &Matrix::new(&da, format!("({m},{k}):({k},1)").parse()?),
            &Matrix::new(&db, format!("({k},{n}):(1,{k})").parse()?),
            None,
            &mut MatrixMut::new(&mut dd, format!("({m},{n}):({n},1)").parse()?),
            &scales,
            &epilogue,
        )?;
        let got = stream.clone_dtoh(&dd).map_err(up)?;
        let (af, bf): (Vec<f32>, Vec<f32>) = (
            a8.iter().map(|x| x.to_f32()).collect(),
            b8.iter().map(|x| x.to_f32()).collect(),
        );
        let reference = Fp8Reference {
            mnk: (m, n, k),
            a: (&af, k),
            b: (&bf, k),
            scaling,
            scale_a: &sa,
            scale_b: &sb,
        };
        let mut worst = 0.0f64;
        for i in 0..m {
            for j in 0..n {
                let (mut want, mag) = reference.at(i, j);
                if bias_relu {
                    want = (want + bias[j as usize].to_f32() as f64).max(0.0);
                }
                let err = (got[(i * n + j) as usize].to_f32() as f64 - want).abs();
                worst = worst.max(err / (mag + want.abs()).max(1e-6));
            }
        }
        assert!(
            worst <= 2f64.powi(-6),
            "{scaling:?} bias_relu {bias_relu}: worst error {worst:.3e}"
        );
        // a scale buffer shorter than the scaling needs: an error before any launch
        let short = stream.clone_htod(&[1.0f32; 0][..]).map_err(up)?;
        let bad = match scaling {
            Scaling::PerTensor => Fp8Scales::PerTensor { a: &short, b: &dsb },
            Scaling::Block => Fp8Scales::Block { a: &dsa, b: &short },
        };
        let err = gemm
            .run_fp8(
                &Matrix::new(&da, format!("({m},{k}):({k},1)").parse()?),
                &Matrix::new(&db, format!("({k},{n}):(1,{k})").parse()?),
                None,
                &mut MatrixMut::new(&mut dd, format!("({m},{n}):({n},1)").parse()?),
                &bad,
                &epilogue,
            )
            .unwrap_err();
        assert!(matches!(err, GpuError::BufferTooSmall { .. }), "{err}");
        Ok(())
    }

    #[test]
    fn per_tensor_and_block_scaled_fp8_match_the_reference() {
        let Some(stream) = hopper("per_tensor_and_block_scaled_fp8_match_the_reference") else {
            return;
        };
        for scaling in [Scaling::PerTensor, Scaling::Block] {
            for bias_relu in [false, true] {
                run_case(&stream, scaling, bias_relu, (200, 136, 384)).unwrap();
            }
        }
    }

    /// A per-tensor call the plan computes with stream-K (324 tiles of 128x128 leave the last wave on 132
    /// SMs half idle, and 20 k-blocks make that idle time worth the fix-up, `STREAM_K_FIXUP_K_BLOCKS`; K
    /// = 512 no longer did): tiles cut between CTAs, their sums through the workspace.
    #[test]
    fn stream_k_fp8_matches_the_reference() {
        let Some(stream) = hopper("stream_k_fp8_matches_the_reference") else {
            return;
        };
        let dims = (2304, 2304, 2560);
        let [a, b, d] = common::k_major(dims.0, dims.1, dims.2);
        let r = cute_gpu::matmul::fp8::Fp8Request {
            types: (cute_gpu::DType::E4M3, cute_gpu::DType::E5M2),
            ..common::fp8_request(&a, &b, &d, Scaling::PerTensor)
        };
        let k = cute_gpu::matmul::fp8::plan_fp8(&r).unwrap().unwrap();
        assert!(k.name.contains("_sk132"), "{}", k.name);
        for bias_relu in [false, true] {
            run_case(&stream, Scaling::PerTensor, bias_relu, dims).unwrap();
        }
    }
}
