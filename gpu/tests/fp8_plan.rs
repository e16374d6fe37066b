//! The FP8 GEMM request's plan (no GPU): every bad input is an error naming the values, the tile choice
//! per scaling and shape, nothing to do for M or N = 0.

mod common;

use common::{fp8_request, k_major, l};
use cute_gpu::DType;
use cute_gpu::matmul::fp8::{Fp8Request, plan_fp8};
use cute_gpu::piece::fp8_scaling::Scaling;
use cute_layout_core::Layout;

/// A, B, D: the K-major operands FP8 wgmma reads.
type Case = [Layout; 3];

fn case(m: i64, n: i64, k: i64) -> Case {
    k_major(m, n, k)
}

fn request(c: &Case, scaling: Scaling) -> Fp8Request<'_> {
    fp8_request(&c[0], &c[1], &c[2], scaling)
}

fn error(r: &Fp8Request) -> String {
    plan_fp8(r).unwrap_err().to_string()
}

#[test]
fn tiles_by_scaling_and_shape() {
    let big = case(8192, 8192, 8192);
    let name = |r| plan_fp8(&r).unwrap().unwrap().name;
    // 64 k-blocks: the ping-pong 128x192 TMA-store tile
    assert!(
        name(request(&big, Scaling::PerTensor))
            .contains("_128x192x128_c2pp_s4_g8_p_ts_wgb_ck_pa_pt")
    );
    // 112 k-blocks: the cooperative 128x256 tile, in stream-K (1024 tiles leave the last wave idle),
    // in 2-CTA clusters
    let long = case(8192, 4096, 14336);
    let pt = name(request(&long, Scaling::PerTensor));
    assert!(
        pt.contains("_128x256x128_c2_s4_g8_p_ts_cl2_sk132_pt"),
        "{pt}"
    );
    // 16 k-blocks, 1024 columns: ping-pong 128x128 (128x192 would compute 1152 columns)
    let short = case(16384, 1024, 2048);
    let short = name(request(&short, Scaling::PerTensor));
    assert!(
        short.contains("_128x128x128_c2pp_s6_g8_p_ts_wgb_pt"),
        "{short}"
    );
    // 324 tiles of 128x128 (two consumers, the TMA-store epilogue) in 20 k-blocks: stream-K without
    // clusters (`fp8_run`'s stream-K case)
    let cut = case(2304, 2304, 2560);
    let cut = name(request(&cut, Scaling::PerTensor));
    assert!(cut.contains("_128x128x128_c2_s6_g8_p_ts_sk132_pt"), "{cut}");
    // without stream-K, no clusters
    let square = case(4096, 4096, 4096);
    let square = name(request(&square, Scaling::PerTensor));
    assert!(square.contains("_128x256x128_c2_s4_g8_p_ts_pt"), "{square}");
    assert!(name(request(&big, Scaling::Block)).contains("_128x256x128_c2_s4_g8_p_ts_st128_bs"));
    let skinny = case(128, 8192, 8192);
    assert!(name(request(&skinny, Scaling::Block)).contains("_64x128x128_c1_s8_g8_p_ss_ov_bs"));
    let empty = case(0, 64, 64);
    assert!(
        plan_fp8(&request(&empty, Scaling::PerTensor))
            .unwrap()
            .is_none()
    );
}

#[test]
fn bad_input_is_an_error_naming_the_values() {
    let ok = case(256, 256, 256);
    let r = request(&ok, Scaling::PerTensor);
    assert!(
        error(&Fp8Request {
            arch: "sm_80",
            ..r.clone()
        })
        .contains("this device is sm_80")
    );
    let half = Fp8Request {
        types: (DType::BF16, DType::BF16),
        ..r.clone()
    };
    assert!(error(&half).contains("got bf16, bf16 -> bf16"));
    let e4_out = Fp8Request {
        output: DType::E4M3,
        ..r.clone()
    };
    assert!(error(&e4_out).contains("-> e4m3"));
    let col_a = l("(256,256):(1,256)");
    assert!(
        error(&Fp8Request {
            a: &col_a,
            ..r.clone()
        })
        .contains("A must be row-major")
    );
    let row_b = l("(256,256):(256,1)");
    assert!(
        error(&Fp8Request {
            b: &row_b,
            ..r.clone()
        })
        .contains("B column-major")
    );
    let col_d = l("(256,256):(1,256)");
    assert!(
        error(&Fp8Request {
            d: &col_d,
            ..r.clone()
        })
        .contains("D row-major")
    );
    let lda8 = l("(256,200):(200,1)");
    let b200 = l("(200,256):(1,200)");
    assert!(
        error(&Fp8Request {
            a: &lda8,
            b: &b200,
            ..r.clone()
        })
        .contains("lda = 200")
    );
    let short_k = l("(256,128):(128,1)");
    assert!(
        error(&Fp8Request {
            a: &short_k,
            ..r.clone()
        })
        .contains("shapes do not agree")
    );
    let batched = l("(256,256,2):(256,1,65536)");
    assert!(
        error(&Fp8Request {
            a: &batched,
            ..r.clone()
        })
        .contains("rank 2")
    );
    let misaligned = Fp8Request {
        aligned: [true, false, true, true],
        ..r.clone()
    };
    assert!(error(&misaligned).contains("B false"));
    let k0 = case(64, 64, 0);
    assert!(error(&request(&k0, Scaling::Block)).contains("K = 0"));
    let c_other = l("(256,256):(512,1)");
    assert!(
        error(&Fp8Request {
            c: Some(&c_other),
            ..r
        })
        .contains("laid out as D")
    );
}
