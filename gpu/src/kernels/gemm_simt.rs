//! The fallback GEMM: `D = alpha*A*B + beta*C` with one thread per element of D, for operands no
//! tensor-core path can take (leading dimensions that are not multiples of 8, misaligned bases, K = 0).
//! Any strides (every stride a kernel parameter, so one kernel serves every layout of a type pair); slow,
//! never wrong.
//!
//! ```
//! use cute_gpu::kernels::{gemm_simt::generate_gemm_simt, gemm_sm80::GemmSpec};
//! use cute_gpu::DType;
//! let l = |s: &str| s.parse().unwrap();
//! let k = generate_gemm_simt(&GemmSpec {
//!     a: l("(5,3):(3,1)"), b: l("(3,7):(1,3)"), c: l("(5,7):(1,5)"),
//!     input: DType::F16, output: DType::F32, alpha: 1.0, beta: 0.0, config: Default::default(),
//! }, &Default::default()).unwrap();
//! assert!(k.source.contains("acc += f16_to_f32(A[(long long)m * a_s0 + (long long)k * a_s1])"));
//! ```

use crate::arch::convert::CONVERT;
use crate::dtype::DType;
use crate::emit::{Leaf, Params, flat_modes, pattern};
use crate::error::{Result, ceil_div, config, to_u32};
use crate::kernel::{Buffer, Kernel};
use crate::kernels::gemm_sm80::GemmSpec;
use crate::piece::epilogue_op::EpilogueOp;
use cute_layout_core::{Int, Layout};

/// Threads per CTA along n and m.
const TILE: i64 = 16;

fn modes(l: &Layout, what: &str) -> Result<[(Int, Int); 2]> {
    match flat_modes(l)?.as_slice() {
        [x, y] => Ok([*x, *y]),
        _ => config(
            "gemm_simt",
            format!("{what} {l} must be a rank-2 flat layout"),
        ),
    }
}

/// `(long long)i * s0 + (long long)j * s1` for the strides of tensor `t` (parameters `t_s0`, `t_s1`).
fn offset(t: &str, i: &str, j: &str) -> String {
    format!("(long long){i} * {t}_s0 + (long long){j} * {t}_s1")
}

/// M, N, K of `spec`, after the checks: f16/bf16 inputs, no scaling op (the kernel scales itself),
/// shapes that agree.
fn extents(spec: &GemmSpec, op: &EpilogueOp) -> Result<(Int, Int, Int)> {
    if op.scale {
        return config(
            "gemm_simt",
            "the fallback kernel applies alpha and beta itself (scale = false)",
        );
    }
    if !spec.input.is_half() {
        return config(
            "gemm_simt",
            format!("inputs must be f16 or bf16, got {}", spec.input.name()),
        );
    }
    let [(m, _), (k, _)] = modes(&spec.a, "A")?;
    let [(k_b, _), (n, _)] = modes(&spec.b, "B")?;
    let [(m_c, _), (n_c, _)] = modes(&spec.c, "C/D")?;
    if m.value != m_c.value || k.value != k_b.value || n.value != n_c.value {
        return config(
            "gemm_simt",
            format!(
                "shapes do not agree: A {} B {} C {}",
                spec.a, spec.b, spec.c
            ),
        );
    }
    Ok((m, n, k))
}

/// The kernel's parameters: the four pointers, M, N, K, each operand's two strides, alpha, beta and
/// the fused op's.
fn params(spec: &GemmSpec, op: &EpilogueOp, (m, n, k): (i64, i64, i64)) -> Result<Params> {
    let out_c = spec.output.c_type();
    let mut p = Params::default();
    p.ptr("const unsigned short* __restrict__", "A");
    p.ptr("const unsigned short* __restrict__", "B");
    p.ptr(&format!("const {out_c}* __restrict__"), "C");
    p.ptr(&format!("{out_c}* __restrict__"), "D");
    for (name, v) in [("M", m), ("N", n), ("K", k)] {
        p.extent(&Leaf::new(Int::d(v), name))?;
    }
    for (t, l) in [("a", &spec.a), ("b", &spec.b), ("c", &spec.c)] {
        let [(_, s0), (_, s1)] = modes(l, t)?;
        p.stride(&Leaf::new(Int::d(s0.value), format!("{t}_s0")));
        p.stride(&Leaf::new(Int::d(s1.value), format!("{t}_s1")));
    }
    p.f32("alpha", spec.alpha);
    p.f32("beta", spec.beta);
    op.params(&mut p, spec.output, spec.alpha, spec.beta);
    Ok(p)
}

/// Generates the fallback GEMM kernel for the problem of `spec` (its tile configuration is not used; C
/// and D share `spec.c`, any strides).
///
/// ```
/// use cute_gpu::{DType, kernels::{gemm_simt::generate_gemm_simt, gemm_sm80::GemmSpec}};
/// let l = |s: &str| s.parse().unwrap();
/// let spec = GemmSpec { a: l("(100,30):(30,_1)"), b: l("(30,60):(_1,30)"), c: l("(100,60):(60,_1)"),
///     input: DType::BF16, output: DType::BF16, alpha: 1.0, beta: 0.0, config: Default::default() };
/// let k = generate_gemm_simt(&spec, &Default::default()).unwrap();
/// assert_eq!((k.grid, k.block), ((4, 7, 1), (256, 1, 1))); // 16x16 tiles of D, one thread per element
/// ```
pub fn generate_gemm_simt(spec: &GemmSpec, op: &EpilogueOp) -> Result<Kernel> {
    let (m, n, k) = extents(spec, op)?;
    let (ity, oty) = (spec.input.name(), spec.output);
    let p = params(spec, op, (m.value, n.value, k.value))?;
    let (to_f32, from_f32) = match oty {
        DType::F32 => ("", ""),
        DType::F16 => ("f16_to_f32", "f32_to_f16"),
        DType::BF16 => ("bf16_to_f32", "f32_to_bf16"),
        DType::E4M3 | DType::E5M2 => {
            unreachable!("FP8 is an input type only (the generators check outputs)")
        }
    };
    let name = format!("cute_gemm_simt_{ity}_{}", oty.name()) + &op.tag();
    let mut c = format!(
        "// Generated by gpu::gemm_simt. D = alpha*A*B + beta*C, one thread per element of D.\n// A: {}  B: {}  C, D: {}\n",
        pattern(&spec.a),
        pattern(&spec.b),
        pattern(&spec.c)
    );
    c += CONVERT;
    c += &format!(
        "extern \"C\" __global__ void __launch_bounds__({}) {name}(\n    {}) {{\n",
        TILE * TILE,
        p.signature()
    );
    c += &op.lambdas(oty, ("M", "N"));
    c += &format!(
        "  const int n = blockIdx.x * {TILE} + threadIdx.x % {TILE}, m = blockIdx.y * {TILE} + threadIdx.x / {TILE};\n  if (m >= M || n >= N) return;\n  float acc = 0.f;\n"
    );
    c += &format!(
        "  for (int k = 0; k < K; ++k)\n    acc += {ity}_to_f32(A[{}]) * {ity}_to_f32(B[{}]);\n",
        offset("a", "m", "k"),
        offset("b", "k", "n")
    );
    c += "  float v = alpha * acc;\n";
    c += &format!("  const long long o = {};\n", offset("c", "m", "n"));
    c += &format!(
        "  if (beta != 0.f) v += beta * {to_f32}(C[o]);\n  D[o] = {from_f32}({});\n}}\n",
        op.apply("v", "m", "n")
    );
    let grid_x = to_u32("simt grid x", ceil_div("simt grid x", n.value, TILE)?)?;
    let grid_y = to_u32("simt grid y", ceil_div("simt grid y", m.value, TILE)?)?;
    if grid_y > 65535 {
        return config(
            "gemm_simt",
            format!(
                "M = {} needs {grid_y} CTAs along y (at most 65535)",
                m.value
            ),
        );
    }
    Ok(Kernel {
        name,
        source: c,
        grid: (grid_x.max(1), grid_y.max(1), 1),
        persistent: false,
        cluster: 1,
        block: ((TILE * TILE) as u32, 1, 1),
        dynamic_smem_bytes: 0,
        args: p.args,
        buffers: vec![
            Buffer::for_layout("A", &spec.a, 2)?,
            Buffer::for_layout("B", &spec.b, 2)?,
            Buffer::for_layout("C", &spec.c, oty.bytes())?,
            Buffer::for_layout("D", &spec.c, oty.bytes())?,
        ]
        .into_iter()
        .chain(op.bias_buffer(m.value, n.value, oty))
        .collect(),
        pointer_alignment: oty.bytes().min(2) as usize,
        dependent_launch: false,
    })
}
