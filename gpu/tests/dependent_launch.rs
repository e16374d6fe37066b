//! Every kernel that says it may be launched with programmatic dependent launch
//! (`Kernel::dependent_launch`: the SM90 GEMMs, 16-bit and FP8, and the Hopper attention kernel) waits
//! for the grid before it in the stream (`griddepcontrol.wait`) before its code touches global memory,
//! and lets the next grid launch (`griddepcontrol.launch_dependents`) after that wait. A kernel that read
//! or wrote global memory before the wait could see the previous grid's half-written output (the GPU
//! tests `chained_calls_with_dependent_launch` would catch it only where the timing falls that way);
//! this reads the generated text, so it runs without a GPU.

use cute_gpu::kernels::attention_sm90::{Sm90AttentionConfig, generate_attention_sm90};
use cute_gpu::matmul::fp8::plan_fp8;
use cute_gpu::matmul::plan::plan;
use cute_gpu::piece::fp8_scaling::Scaling;
use cute_gpu::{DType, Kernel};

mod common;
use common::{fp8_request, k_major, l, request};

/// What counts as touching global memory in the kernel's own body (the device functions above it only
/// define these): TMA loads, stores and L2 prefetches, atomics, `cp.async`, explicit global loads and
/// stores, and any use of one of the kernel's buffers by name.
const GLOBAL_ACCESS: [&str; 7] = [
    "tma_load",
    "tma_store",
    "tma_prefetch",
    "atomic",
    "cp_async",
    "ld.global",
    "st.global",
];

/// The identifiers of `code` with its `//` comments removed.
fn words(code: &str) -> Vec<&str> {
    code.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .flat_map(|l| l.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')))
        .filter(|w| !w.is_empty())
        .collect()
}

/// Checks `k`'s body: the wait comes first, the trigger after it.
fn waits_before_global_memory(k: &Kernel) {
    assert!(k.dependent_launch, "{}", k.name);
    let body = &k.source[k.source.find("__global__").expect("an entry point")..];
    let body = &body[body.find(") {").expect("the entry's body")..];
    let wait = body
        .find("griddepcontrol.wait")
        .unwrap_or_else(|| panic!("{}: no griddepcontrol.wait", k.name));
    let before = words(&body[..wait]);
    for w in &before {
        assert!(
            !GLOBAL_ACCESS.iter().any(|g| w.contains(g)),
            "{}: `{w}` before the grid dependency wait",
            k.name
        );
        assert!(
            !k.buffers.iter().any(|b| b.name == *w),
            "{}: buffer `{w}` used before the grid dependency wait",
            k.name
        );
    }
    let trigger = body
        .find("griddepcontrol.launch_dependents")
        .unwrap_or_else(|| panic!("{}: no launch_dependents", k.name));
    assert!(trigger > wait, "{}: trigger before the wait", k.name);
}

/// A strided batch of `b` dense K-major GEMMs (`(M,K,L)`, `(K,N,L)`, `(M,N,L)`).
fn batched(m: i64, n: i64, k: i64, b: i64) -> [cute_layout_core::Layout; 3] {
    [
        l(&format!("({m},{k},{b}):({k},1,{})", m * k)),
        l(&format!("({k},{n},{b}):(1,{k},{})", k * n)),
        l(&format!("({m},{n},{b}):({n},1,{})", m * n)),
    ]
}

/// The SM90 kernels the GEMM heuristic picks for the benchmark's shapes and some odd ones (every tile,
/// clusters, stream-K, split-K slices, the narrow decode tiles, a strided batch), and the FP8 ones.
fn gemm_kernels() -> Vec<Kernel> {
    let shapes = [
        (4096, 4096, 4096),
        (8192, 8192, 8192),
        (8192, 14336, 4096),
        (2048, 2048, 2048),
        (128, 8192, 8192),
        (256, 8192, 8192),
        (16, 8192, 8192),
        (1024, 1024, 65536),
        (256, 2048, 32768),
        (512, 512, 512),
    ];
    let operands = shapes
        .iter()
        .map(|&(m, n, k)| k_major(m, n, k))
        .chain([batched(1024, 1024, 1024, 4)]);
    let mut out = Vec::new();
    for [a, b, d] in operands {
        let r = request(&a, &b, &d, "sm_90a");
        out.push(plan(&r).unwrap().unwrap().kernel);
        for scaling in [Scaling::PerTensor, Scaling::Block] {
            let fp8 = fp8_request(&a, &b, &d, scaling);
            // FP8 takes one batch only
            if let Ok(Some(k)) = plan_fp8(&fp8) {
                out.push(k);
            }
        }
    }
    out
}

#[test]
fn sm90_gemms_wait_for_the_previous_grid_before_global_memory() {
    let kernels: Vec<Kernel> = gemm_kernels()
        .into_iter()
        .filter(|k| k.name.starts_with("cute_hgemm"))
        .collect();
    // 11 16-bit kernels, 20 FP8 ones (the batch is not for FP8)
    assert_eq!(kernels.len(), 31);
    // the 64x128 tile is launched without it (it measured slower), yet waits all the same
    let mut waiting = 0;
    for k in &kernels {
        let launched = Kernel {
            dependent_launch: true,
            ..k.clone()
        };
        waits_before_global_memory(&launched);
        waiting += usize::from(k.dependent_launch);
    }
    assert!(waiting >= 20, "{waiting} of {}", kernels.len());
}

#[test]
fn hopper_attention_waits_for_the_previous_grid_before_global_memory() {
    let base = |d, causal| Sm90AttentionConfig::new(DType::BF16, d, causal);
    let configs = [
        base(128, false).for_keys(4096),               // one CTA per tile
        base(128, false).for_keys(1024),               // persistent, static order
        base(128, true).for_keys(4096),                // dynamic scheduler, LPT
        base(64, false).for_keys(1024).for_rows(1024), // three consumers, tail tiles
        base(256, true).for_keys(1024),
        Sm90AttentionConfig {
            varlen: true,
            ..base(64, true).for_keys(1024)
        },
    ];
    for cfg in configs {
        waits_before_global_memory(&generate_attention_sm90(&cfg).unwrap());
    }
}

/// The check itself: the attention kernel with its wait moved to the end of its body fails it.
#[test]
#[should_panic(expected = "before the grid dependency wait")]
fn a_wait_after_the_loads_is_caught() {
    let cfg = Sm90AttentionConfig::new(DType::BF16, 128, true).for_keys(4096);
    let mut k = generate_attention_sm90(&cfg).unwrap();
    let wait = "asm volatile(\"griddepcontrol.wait;\" ::: \"memory\");";
    assert!(k.source.contains(wait));
    let end = k.source.rfind('}').unwrap();
    k.source = format!("{}{wait}\n}}\n", &k.source[..end].replacen(wait, "", 1));
    waits_before_global_memory(&k);
}
