//! Hopper (sm_90a) GEMM: `wgmma.mma_async` fed by TMA (`cp.async.bulk.tensor`) through a warp-specialized,
//! multistage mbarrier pipeline, generated from layouts.
//!
//! `D (M,N) row-major = A (M,K) row-major * B (K,N) column-major`, both operands K-major (the "TN" GEMM),
//! f16 or bf16 in, f32 accumulation, D in f32, f16 or bf16.
//!
//! What comes from the layout algebra (and is stated in the generated text's comments):
//! - the shared-memory stage layouts: the GMMA atom `GMMA::Layout_K_SW128_Atom` (`smem_atom`:
//!   `Sw<3,3,3> o (8,64):(64,1)` for 16-bit values) tiled to the CTA tile with `tile_to_shape`;
//! - the swizzle mode of the TMA box and of the wgmma descriptor, from the atom's swizzle (`Sw<3,..>`: 128 B);
//! - the descriptor's stride byte offset (between 8-row core-matrix groups), the per-k16 and per-64-row
//!   descriptor advances: offsets of the tiled smem layout at `(8,0)`, `(0,16)`, `(64,0)`;
//! - the TMA box (one atom row of 128 B times the tile's rows) and the TMA coordinates: the tile modes of
//!   `zipped_divide(make_identity_layout((M,K)), (BM,BK))` (coordinates, innermost first for TMA);
//! - the accumulator fragment: `gmma_c_layout` `((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))` gives the row
//!   and column of every accumulator register in the epilogue.
//! - the TMA-store epilogue's staging box: the 128-byte-swizzled K-major atom of the output type tiled to
//!   `(16, 128 B of columns)` (one warp's rows of the accumulator); its row pitch and swizzle give the
//!   `stmatrix` (16-bit) or `st.shared` (f32) addresses, the `CU_TENSOR_MAP_SWIZZLE_128B` mode and the
//!   store box of D.
//!
//! ```
//! use cute_gpu::{DType, kernels::gemm_sm90::{HopperConfig, HopperProblem, generate_hopper_gemm}};
//! let k = generate_hopper_gemm(&HopperProblem::padded(2048, 2048, 2048), DType::BF16, DType::F32,
//!     &HopperConfig::pingpong()).unwrap();
//! assert!(k.persistent && k.source.contains("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16"));
//! ```

use crate::arch::cluster::{CLUSTER, cluster_dims};
use crate::arch::memory::SMEM_ADDR;
use crate::arch::{mbarrier::MBARRIER, tma, tma::TMA_2D, tma::TMA_3D, tma::TMA_MULTICAST, wgmma};
use crate::dtype::{DType, Major};
use crate::emit::{Leaf, Params, offset_at, pattern, tile_origin_expr};
use crate::error::{Result, ceil_div, mul, to_u32};
use crate::kernel::{Buffer, Kernel, TensorMapArg};
use crate::piece::epilogue_op::EpilogueOp;
use crate::piece::epilogue_sm90::{Accumulators, Sm90Epilogue, Staging, store_fns};
use crate::piece::fp8_scaling::{Promotion, SCALE_BLOCK, Scaling};
use crate::piece::gmma_operand::{GmmaOperand, gmma_operand};
use crate::piece::split_sum::{self, SplitSum};
use crate::piece::stream_k;
use crate::piece::tma_mainloop::WarpSpecialized;
use cute_layout_core::atom::gmma::{SmemSwizzle, smem_atom};
use cute_layout_core::{Int, Layout, Tiler, make_identity_layout, zipped_divide};

mod check;
mod config;
mod problem;

use check::*;
pub use config::HopperConfig;
pub use problem::{HopperBatch, HopperProblem};

fn unsupported<T>(reason: String) -> Result<T> {
    crate::error::config("gemm_sm90", reason)
}

/// The operand types and, for FP8, the scaling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Inputs {
    a: DType,
    b: DType,
    scaling: Option<Scaling>,
}

impl Inputs {
    fn bytes(&self) -> i64 {
        self.a.bytes()
    }
    /// `bf16`, or both FP8 types (`e4m3e5m2`) when they differ.
    fn name(&self) -> String {
        if self.a == self.b {
            self.a.name().to_string()
        } else {
            format!("{}{}", self.a.name(), self.b.name())
        }
    }
}

/// What the kernel is generated from: validated problem and configuration, the operand stages and the
/// layouts the comments and index expressions come from.
struct Plan {
    op_a: GmmaOperand,
    op_b: GmmaOperand,
    /// Swizzle span of the TMA boxes and descriptors, and the descriptor layout type.
    swizzle: (u32, u64),
    /// Rows per consumer, 64-row chunks per consumer.
    wg_rows: i64,
    m_chunks: i64,
    /// `zipped_divide(make_identity_layout((M,K)), (BM,BK))`, and for (N,K).
    tiles_a: Layout,
    tiles_b: Layout,
    acc: Accumulators,
    staging: Option<Staging>,
}

fn plan(p: &HopperProblem, inp: &Inputs, output: DType, c: &HopperConfig) -> Result<Plan> {
    let (bm, bn, bk, bits) = (c.bm, c.bn, c.bk, inp.a.bits());
    let atom = smem_atom(p.a_major, SmemSwizzle::Sw128, bits)?;
    let sw = atom.swizzle().ok_or_else(|| crate::GpuError::Config {
        kernel: "gemm_sm90",
        reason: format!("the GMMA atom {atom} has no swizzle"),
    })?;
    if (16i64 << sw.bits) / inp.bytes() != bk {
        return unsupported(format!(
            "swizzle row of {} elements != bk {bk}",
            (16i64 << sw.bits) / inp.bytes()
        ));
    }
    let swizzle_bytes: u32 = if sw.bits == 0 { 0 } else { 16u32 << sw.bits };
    let owners = if c.pingpong { 1 } else { c.consumers as i64 };
    let tiler = |rows: i64| -> Result<Tiler> { Ok(format!("(_{rows},_{bk})").parse()?) };
    let identity = |rows: i64| make_identity_layout(&format!("({rows},{})", p.k).parse()?);
    Ok(Plan {
        op_a: gmma_operand(p.a_major, bm, bk, bits, "A")?,
        op_b: gmma_operand(p.b_major, bn, bk, bits, "B")?.split_boxes(c.cluster as i64)?,
        swizzle: (swizzle_bytes, wgmma::layout_type(sw.bits)),
        wg_rows: bm / owners,
        m_chunks: bm / owners / 64,
        tiles_a: zipped_divide(&identity(p.m)?, &tiler(bm)?)?,
        tiles_b: zipped_divide(&identity(p.n)?, &tiler(bn)?)?,
        acc: Accumulators::new(bn)?,
        staging: if c.tma_store {
            Some(Staging::per_warp(output)?)
        } else {
            None
        },
    })
}

/// The TMA coordinates (innermost first) of a tile's box: from the rest mode of the identity layout's
/// `zipped_divide`, K-major boxes `(k, mn)`, MN-major `(mn, k)`.
fn coords(tiles: &Layout, mn_var: &str, major: Major) -> Result<[String; 2]> {
    let rest = tiles.mode(1)?;
    let vars = [mn_var, "kb"];
    let (mn, k) = (
        tile_origin_expr(&rest, &vars, 0)?,
        tile_origin_expr(&rest, &vars, 1)?,
    );
    Ok(match major {
        Major::K => [k, mn],
        Major::MN => [mn, k],
    })
}

fn kernel_name(p: &HopperProblem, inp: &Inputs, output: DType, c: &HopperConfig) -> String {
    format!(
        "cute_hgemm_{}_{}_{}x{}x{}_c{}{}_s{}_g{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}",
        inp.name(),
        output.name(),
        c.bm,
        c.bn,
        c.bk,
        c.consumers,
        if c.pingpong { "pp" } else { "" },
        c.stages,
        c.group_m,
        if c.raster_n { "n" } else { "" },
        if c.persistent { "_p" } else { "" },
        if c.tma_store { "_ts" } else { "" },
        if c.smem_scales { "_ss" } else { "" },
        if c.overlap_promotion { "_ov" } else { "" },
        if c.promotion_stagger > 0 {
            format!("_st{}", c.promotion_stagger)
        } else {
            String::new()
        },
        if c.cluster > 1 {
            format!("_cl{}", c.cluster)
        } else {
            String::new()
        },
        if c.broadcast_wg { "_wgb" } else { "" },
        if c.chain_k { "_ck" } else { "" },
        if c.probe_ahead { "_pa" } else { "" },
        if c.stream_k > 0 {
            format!("_sk{}", c.stream_k)
        } else {
            String::new()
        },
        if p.majors_tag() == "kk" {
            String::new()
        } else {
            format!("_{}", p.majors_tag())
        },
        inp.scaling.map_or("", Scaling::tag),
        if p.d_column_major { "_dT" } else { "" }
    ) + &batch_tag(p)
}

/// `_batch`, and which operands every batch shares (`_sa`, `_sb`: no batch mode, a 2-D tensor map).
fn batch_tag(p: &HopperProblem) -> String {
    match p.batch {
        None => String::new(),
        Some(b) if b.k_slices => format!("_ks{}", b.count),
        Some(b) => format!(
            "_batch{}{}",
            if b.a == 0 { "_sa" } else { "" },
            if b.b == 0 { "_sb" } else { "" }
        ),
    }
}

fn header(
    name: &str,
    p: &HopperProblem,
    inp: &Inputs,
    output: DType,
    c: &HopperConfig,
    plan: &Plan,
) -> String {
    let (tin, tout, (bm, bn, bk)) = (inp.name(), output.name(), (c.bm, c.bn, c.bk));
    let mk = plan.op_a.mma_k;
    let a_desc = if p.a_major == Major::K {
        "row-major (K-major)"
    } else {
        "column-major (M-major)"
    };
    let b_desc = if p.b_major == Major::K {
        "column-major (K-major)"
    } else {
        "row-major (N-major)"
    };
    let mut h = format!(
        "// {name}: D (M,N) row-major = A (M,K) {a_desc} * B (K,N) {b_desc}, {tin} in, f32 accumulate, {tout} out.\n\
// sm_90a: TMA (cp.async.bulk.tensor) -> {}-stage mbarrier pipeline -> wgmma.mma_async m64n{bn}k{mk}.\n\
// CTA: 1 producer warp group (TMA, setmaxnreg.dec {}) + {} consumer warp group(s) (wgmma, setmaxnreg.inc {}),\n\
// CTA tile {bm}x{bn}x{bk}, each consumer {}x{bn} = {} x m64n{bn}k{mk} per k{mk} step.{}\n//\n\
// 128-byte swizzle of the atoms -> TMA CU_TENSOR_MAP_SWIZZLE_{}B, descriptor layout type {}\n",
        c.stages,
        c.producer_regs,
        c.consumers,
        c.consumer_regs,
        plan.wg_rows,
        plan.m_chunks,
        if c.persistent {
            " Persistent: CTAs loop over tiles (stride gridDim.x)."
        } else {
            ""
        },
        plan.swizzle.0,
        plan.swizzle.1
    );
    h += &format!(
        "{}   ({} B)\n{}   ({} B)\n",
        plan.op_a.doc,
        bm * bk * inp.bytes(),
        plan.op_b.doc,
        bn * bk * inp.bytes()
    );
    h += &format!(
        "// TMA coordinates: the rest mode of zipped_divide(make_identity_layout((M,K)), ({bm},{bk})) = {}\n\
//   and of zipped_divide(make_identity_layout((N,K)), ({bn},{bk})) = {}: tile (t, kb) starts at the basis strides\n",
        pattern(&plan.tiles_a),
        pattern(&plan.tiles_b)
    );
    h += &format!(
        "// accumulator: gmma_c_layout({bn}) as coordinates = {}\n",
        plan.acc.fragment.layout
    );
    if let Some(st) = &plan.staging {
        h += &format!(
            "// epilogue (TMA store): smem box = tile_to_shape(atom<{tout}> {}, ({},{})) = {}; swizzle {} on bytes\n\
//   -> CU_TENSOR_MAP_SWIZZLE_128B; TMA store box D = ({},{}) innermost first; 2 staging boxes per consumer warp\n",
            st.atom, st.rows, st.cols, st.layout, st.byte_swizzle, st.cols, st.rows
        );
    }
    h
}

fn device_fns(inp: &Inputs, output: DType, c: &HopperConfig, plan: &Plan, split: bool) -> String {
    let (op_a, op_b, lt) = (&plan.op_a, &plan.op_b, plan.swizzle.1);
    let mut s = "typedef unsigned int u32;\ntypedef unsigned long long u64;\n".to_string();
    for f in [SMEM_ADDR, MBARRIER, TMA_2D] {
        s += f;
    }
    s += &format!(
        "// descriptors: A LBO {} B, SBO {} B; B LBO {} B, SBO {} B (from the stage layouts above)\n",
        op_a.lbo, op_a.sbo, op_b.lbo, op_b.sbo
    );
    s += &wgmma::descriptor_fn("smem_desc_a", op_a.lbo, op_a.sbo, lt);
    s += &wgmma::descriptor_fn("smem_desc_b", op_b.lbo, op_b.sbo, lt);
    let block = inp.scaling == Some(Scaling::Block);
    let mma = wgmma::Wgmma {
        n: if block { c.bn.min(SCALE_BLOCK) } else { c.bn },
        types: (inp.a, inp.b),
        tnsp: (op_a.tnsp, op_b.tnsp),
        accumulate_arg: block,
    };
    s += &mma.device_fns();
    if block && c.smem_scales {
        s += crate::piece::fp8_scaling::STAGED_SCALE_FNS;
    }
    if c.cluster > 1 {
        s += CLUSTER;
        s += TMA_MULTICAST;
    }
    if c.stream_k > 0 {
        s += stream_k::DEVICE_FNS;
    }
    if split {
        s += split_sum::DEVICE_FNS;
    }
    s += &store_fns(output);
    s
}

fn params(p: &HopperProblem, inp: &Inputs, output: DType, plan: &Plan) -> Result<Params> {
    let mut params = Params::default();
    let map =
        |name: &str, buffer: &str, dtype, extents: [i64; 2], ld: i64, box_dims, swizzle_bytes| {
            TensorMapArg {
                name: name.into(),
                buffer: buffer.into(),
                dtype,
                extents: [extents[0] as u64, extents[1] as u64],
                ld: ld as u64,
                box_dims,
                swizzle_bytes,
                outer: Vec::new(),
            }
        };
    // a batched operand: a third dimension of `count` batches `stride` elements apart
    let batched = |m: TensorMapArg, stride: fn(&HopperBatch) -> i64| match p.batch {
        Some(b) if stride(&b) != 0 => TensorMapArg {
            outer: vec![(b.count as u64, stride(&b) as u64)],
            ..m
        },
        _ => m,
    };
    // (contiguous extent, lines): K-major (K, M or N), MN-major (M or N, K)
    let a_ext = if p.a_major == Major::K {
        [p.k, p.m]
    } else {
        [p.m, p.k]
    };
    let b_ext = if p.b_major == Major::K {
        [p.k, p.n]
    } else {
        [p.n, p.k]
    };
    params.tensor_map(batched(
        map(
            "tmA",
            "A",
            inp.a,
            a_ext,
            p.lda,
            plan.op_a.tma_box,
            plan.swizzle.0,
        ),
        |b| b.a,
    ));
    params.tensor_map(batched(
        map(
            "tmB",
            "B",
            inp.b,
            b_ext,
            p.ldb,
            plan.op_b.tma_box,
            plan.swizzle.0,
        ),
        |b| b.b,
    ));
    if let Some(st) = &plan.staging {
        // D (M,N) row-major: N contiguous; the smem box is 128-byte swizzled like the staging layout
        params.tensor_map(batched(
            map(
                "tmD",
                "D",
                output,
                [p.n, p.m],
                p.ldd,
                [st.cols as u32, st.rows as u32],
                128,
            ),
            |b| b.d,
        ));
    }
    params.ptr("out_t* __restrict__", "D");
    if inp.scaling.is_some() {
        params.ptr("const float* __restrict__", "scale_a");
        params.ptr("const float* __restrict__", "scale_b");
    }
    for (name, v) in [("M", p.m), ("N", p.n), ("K", p.k)] {
        params.extent(&Leaf::new(Int::d(v), name))?;
    }
    params.stride(&Leaf::new(Int::d(p.ldd), "ldd"));
    if p.batch.is_some_and(|b| b.k_slices) {
        params.ptr("float* __restrict__", "W");
        params.ptr("unsigned* __restrict__", "SKF");
    }
    if let Some(b) = p.batch {
        params.extent(&Leaf::new(Int::d(b.count), "L"))?;
        params.stride(&Leaf::new(Int::d(b.d), "batch_d"));
        params.stride(&Leaf::new(Int::d(b.c), "batch_c"));
    }
    Ok(params)
}

fn buffers(p: &HopperProblem, inp: &Inputs, output: DType, op: &EpilogueOp) -> Result<Vec<Buffer>> {
    let span = |ld: i64, lines: i64, inner: i64| (ld * (lines - 1) + inner) as usize;
    let (a_in, a_out) = if p.a_major == Major::K {
        (p.k, p.m)
    } else {
        (p.m, p.k)
    };
    let (b_in, b_out) = if p.b_major == Major::K {
        (p.k, p.n)
    } else {
        (p.n, p.k)
    };
    let osz = output.bytes() as usize;
    let d_span = if p.d_column_major {
        span(p.ldd, p.n, p.m)
    } else {
        span(p.ldd, p.m, p.n)
    };
    let buffer = |name: &str, bytes| Buffer {
        name: name.into(),
        bytes,
    };
    // batch `count - 1` starts `(count - 1) * stride` elements after batch 0
    let last = |stride: fn(&HopperBatch) -> i64| {
        p.batch.map_or(0, |b| ((b.count - 1) * stride(&b)) as usize)
    };
    let mut v = vec![
        buffer(
            "A",
            (span(p.lda, a_out, a_in) + last(|b| b.a)) * inp.bytes() as usize,
        ),
        buffer(
            "B",
            (span(p.ldb, b_out, b_in) + last(|b| b.b)) * inp.bytes() as usize,
        ),
        buffer("D", (d_span + last(|b| b.d)) * osz),
    ];
    if let Some(scaling) = inp.scaling {
        let (sa, sb) = scaling.scale_lens(p.m, p.n, p.k)?;
        v.push(buffer("scale_a", sa as usize * 4));
        v.push(buffer("scale_b", sb as usize * 4));
    }
    if op.scale {
        v.push(buffer("C", (d_span + last(|b| b.c)) * osz));
    }
    v.extend(op.bias_buffer(p.m, p.n, output));
    Ok(v)
}

/// Generates the kernel for `problem` with `config`: the warp-specialized TMA mainloop with the direct or
/// TMA-store epilogue. The extents are parameters: one kernel serves every problem of its alignment class.
///
/// ```
/// use cute_gpu::{DType, kernels::gemm_sm90::{HopperConfig, HopperProblem, generate_hopper_gemm}};
/// let c = HopperConfig::default();
/// let k = generate_hopper_gemm(&HopperProblem::padded(4096, 4096, 4096), DType::F16, DType::F16, &c).unwrap();
/// assert!(k.source.contains("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16"));
/// assert_eq!((k.block, k.dynamic_smem_bytes), ((256, 1, 1), c.smem_bytes()));
/// assert_eq!(k.buffer_names(), ["A", "B", "D"]);
/// ```
pub fn generate_hopper_gemm(
    problem: &HopperProblem,
    input: DType,
    output: DType,
    config: &HopperConfig,
) -> Result<Kernel> {
    generate_hopper_gemm_with(problem, input, output, config, &Fused::default())
}

/// The fused epilogue of an SM90 GEMM: the op and the scalars it reads.
///
/// ```
/// use cute_gpu::{kernels::gemm_sm90::Fused, piece::epilogue_op::EpilogueOp};
/// let f = Fused { op: EpilogueOp { scale: true, ..Default::default() }, alpha: 2.0, beta: 1.0 };
/// assert_eq!(f.op.tag(), "_ab");
/// assert!(Fused::default().op.is_identity());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Fused {
    /// Bias, activation, and whether alpha/beta*C apply.
    pub op: EpilogueOp,
    /// alpha (with `op.scale`).
    pub alpha: f32,
    /// beta (with `op.scale`).
    pub beta: f32,
}

/// [`generate_hopper_gemm`] with a fused epilogue: `D = act(alpha*A·B + beta*C + bias)`, C laid out as D.
///
/// ```
/// use cute_gpu::{DType, kernels::gemm_sm90::*, piece::epilogue_op::{Activation, BiasKind, EpilogueOp}};
/// let op = EpilogueOp { bias: BiasKind::PerColumn, activation: Activation::Gelu, scale: false };
/// let (p, c) = (HopperProblem::padded(4096, 4096, 4096), HopperConfig::large());
/// let k = generate_hopper_gemm_with(&p, DType::BF16, DType::BF16, &c, &Fused { op, ..Default::default() }).unwrap();
/// assert!(k.name.ends_with("_bn_gelu") && k.source.contains("erff("));
/// assert_eq!(k.buffer_names(), ["A", "B", "D", "bias"]);
/// ```
pub fn generate_hopper_gemm_with(
    problem: &HopperProblem,
    input: DType,
    output: DType,
    config: &HopperConfig,
    fused: &Fused,
) -> Result<Kernel> {
    let inputs = Inputs {
        a: input,
        b: input,
        scaling: None,
    };
    generate(problem, &inputs, output, config, fused)
}

/// The FP8 GEMM: A and B of types `types` (e4m3 or e5m2, K-major), `D = act(s·A·B ...)` with the
/// per-tensor or block `scaling` (buffers `scale_a`, `scale_b`; layouts in
/// [`fp8_scaling`](crate::piece::fp8_scaling)), f32 accumulation, D in f32, f16 or bf16. `config.bk` must
/// be 128 ([`HopperConfig::for_bits`]).
///
/// ```
/// use cute_gpu::kernels::gemm_sm90::*;
/// use cute_gpu::piece::fp8_scaling::Scaling;
/// use cute_gpu::DType;
/// let p = HopperProblem::padded(4096, 4096, 4096);
/// let c = HopperConfig::large().for_bits(8);
/// let types = (DType::E4M3, DType::E4M3);
/// let k = generate_hopper_fp8_gemm(&p, types, Scaling::PerTensor, DType::BF16, &c, &Fused::default()).unwrap();
/// assert!(k.source.contains("wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3"));
/// assert_eq!(k.buffer_names(), ["A", "B", "D", "scale_a", "scale_b"]);
/// ```
pub fn generate_hopper_fp8_gemm(
    problem: &HopperProblem,
    types: (DType, DType),
    scaling: Scaling,
    output: DType,
    config: &HopperConfig,
    fused: &Fused,
) -> Result<Kernel> {
    let inputs = Inputs {
        a: types.0,
        b: types.1,
        scaling: Some(scaling),
    };
    generate(problem, &inputs, output, config, fused)
}

/// The summation of K slices before the epilogue ([`SplitSum`]): a consumer owns its rows of the tile
/// (cooperative) or the whole tile (ping-pong).
fn split_sum(c: &HopperConfig, epi: &Sm90Epilogue, splits: i64) -> String {
    let (owner, owners) = match c.pingpong {
        true => ("0", 1),
        false => ("cw", c.consumers as i64),
    };
    SplitSum {
        epi,
        owner: owner.into(),
        owners,
        splits,
    }
    .code()
}

fn cw_row(c: &HopperConfig, plan: &Plan) -> String {
    if c.pingpong {
        String::new()
    } else {
        format!(" + cw * {}", plan.wg_rows)
    }
}

fn mainloop<'a>(
    p: &HopperProblem,
    inp: &Inputs,
    c: &HopperConfig,
    plan: &'a Plan,
) -> Result<WarpSpecialized<'a>> {
    Ok(WarpSpecialized {
        operands: [&plan.op_a, &plan.op_b],
        tile: (c.bm, c.bn, c.bk),
        stages: c.stages,
        consumers: c.consumers,
        pingpong: c.pingpong,
        group_m: c.group_m,
        m_chunks: plan.m_chunks,
        consumer_a_bytes: offset_at(&plan.op_a.stage, plan.wg_rows, 0)? * inp.bytes(),
        epi_bytes: c.epi_bytes(),
        regs: (c.producer_regs, c.consumer_regs),
        coords: [
            coords(&plan.tiles_a, "tm", p.a_major)?,
            coords(&plan.tiles_b, "tn", p.b_major)?,
        ],
        elem_bytes: inp.bytes(),
        batch: p.batch.map(|b| [b.a != 0, b.b != 0]),
        promotion: (inp.scaling == Some(Scaling::Block)).then(|| Promotion {
            acc: &plan.acc,
            m_chunks: plan.m_chunks,
            tile: (c.bm, c.bn),
            row_base: cw_row(c, plan),
            staged: c.smem_scales,
            overlap: c.overlap_promotion,
            stagger: c.promotion_stagger,
        }),
        cluster: c.cluster as i64,
        broadcast_wg: c.broadcast_wg,
        stream_k: c.stream_k as i64,
        raster_n: c.raster_n,
        chain_k: c.chain_k,
        probe_ahead: c.probe_ahead,
    })
}

/// The epilogue (with the per-tensor scaling first) and what runs after the last tile.
fn epilogue(
    p: &HopperProblem,
    inp: &Inputs,
    output: DType,
    c: &HopperConfig,
    plan: &Plan,
    fused: &Fused,
) -> (String, String) {
    let epilogue = Sm90Epilogue {
        acc: &plan.acc,
        tile: (c.bm, c.bn),
        m_chunks: plan.m_chunks,
        cw_row: cw_row(c, plan),
        osz: output.bytes(),
        op: fused.op,
    };
    let mut epi = match inp.scaling {
        Some(Scaling::PerTensor) => Scaling::per_tensor_prologue(plan.m_chunks, c.bn / 2),
        _ => String::new(),
    };
    if let Some(b) = p.batch.filter(|b| b.k_slices) {
        epi += &split_sum(c, &epilogue, b.count);
    }
    match &plan.staging {
        Some(st) => {
            let batched_d = p.batch.filter(|b| b.d != 0).map(|_| "tb");
            epi += &epilogue.tma_store_at(st, batched_d);
            // the staging boxes must stay valid until the stores have read them; their global writes
            // complete with the grid (as CUTLASS's epilogue tail: wait_group.read)
            let drain = format!(
                "\n    if (tid % 32 == 0) {}   // each warp's stores have read shared memory before exit",
                tma::store_wait_read(0)
            );
            (epi, drain)
        }
        None if p.d_column_major => (epi + &epilogue.direct_column_major(), String::new()),
        None => (epi + &epilogue.direct(), String::new()),
    }
}

/// The epilogue lambdas (kernel scope) and the epilogue; with a batch, the tile's D and C (shadows of
/// the kernel parameters at the tile's batch) are declared first and the lambdas after them, in the tile
/// loop, so that they read the tile's C.
fn batch_scope(p: &HopperProblem, output: DType, fused: &Fused, epi: String) -> (String, String) {
    let c_offset = if p.d_column_major {
        "m + (long long)n * ldd"
    } else {
        "(long long)m * ldd + n"
    };
    let lambdas = fused.op.lambdas_at(output, ("M", "N"), c_offset);
    if p.batch.is_none() {
        return (lambdas, epi);
    }
    let (c_all, c_tile) = if fused.op.scale {
        (
            "  const out_t* const C_all = C;\n",
            "      const out_t* const C = C_all + (long long)tb * batch_c;\n",
        )
    } else {
        ("", "")
    };
    (
        format!("  out_t* const D_all = D;\n{c_all}"),
        format!(
            "      out_t* const D = D_all + (long long)tb * batch_d;   // this tile's batch\n{c_tile}{lambdas}{epi}"
        ),
    )
}

/// The kernel's tiles: rows of tiles (whole clusters: a last odd tile row pairs with an empty one),
/// columns, and all of them over the batches (the grid of a non-persistent launch).
struct TileGrid {
    rows: i64,
    cols: i64,
    total: i64,
}

fn tile_grid(p: &HopperProblem, c: &HopperConfig) -> Result<TileGrid> {
    let cl = c.cluster as i64;
    let tile_rows = ceil_div("hopper gemm tiles along M", p.m, c.bm)?;
    let rows = mul(
        "hopper gemm tile rows",
        ceil_div("hopper gemm clusters along M", tile_rows, cl)?,
        cl,
    )?;
    let cols = ceil_div("hopper gemm tiles along N", p.n, c.bn)?;
    let total = mul(
        "hopper gemm tiles",
        mul("hopper gemm tiles", rows, cols)?,
        p.batch.map_or(1, |b| b.count),
    )?;
    Ok(TileGrid { rows, cols, total })
}

/// The workspaces of K slices summed in the GEMM (`W`, the f32 sums; `SKF`, the arrival counters) and of
/// stream-K (`SK`, with its parameter).
fn workspace_buffers(
    p: &HopperProblem,
    c: &HopperConfig,
    tiles: &TileGrid,
    params: &mut Params,
    buffers: &mut Vec<Buffer>,
) -> Result<()> {
    if let Some(b) = p.batch.filter(|b| b.k_slices) {
        let owners = if c.pingpong { 1 } else { c.consumers as i64 };
        let (rows, cols) = (tiles.rows, tiles.cols);
        let sizes = [
            (
                "W",
                split_sum::workspace_elems(b.count, rows, cols, (c.bm, c.bn)) * 4,
            ),
            ("SKF", SplitSum::counter_bytes(rows, cols, owners)),
        ];
        for (name, bytes) in sizes {
            buffers.push(Buffer {
                name: name.into(),
                bytes: bytes as usize,
            });
        }
    }
    if c.stream_k > 0 {
        params.ptr("float* __restrict__", "SK");
        let bytes = stream_k::workspace_bytes(c.stream_k as i64, c.bm, c.bn);
        buffers.push(Buffer {
            name: "SK".into(),
            bytes: bytes as usize,
        });
    }
    Ok(())
}

fn generate(
    p: &HopperProblem,
    inp: &Inputs,
    output: DType,
    c: &HopperConfig,
    fused: &Fused,
) -> Result<Kernel> {
    check(p, inp, output, c)?;
    let plan = plan(p, inp, output, c)?;
    let name = kernel_name(p, inp, output, c) + &fused.op.tag();
    let mut params = params(p, inp, output, &plan)?;
    fused
        .op
        .params(&mut params, output, fused.alpha, fused.beta);
    let mut buffers = buffers(p, inp, output, &fused.op)?;
    let tiles = tile_grid(p, c)?;
    workspace_buffers(p, c, &tiles, &mut params, &mut buffers)?;
    let mainloop = mainloop(p, inp, c, &plan)?;
    let (epi, drain) = epilogue(p, inp, output, c, &plan, fused);
    let (lambdas, epi) = batch_scope(p, output, fused, epi);
    let doc = if c.pingpong {
        "ping-pong: consumer cw takes the CTA's tiles cw, cw+2, ... (all rows)".to_string()
    } else {
        format!(
            "consumer: rows [cw*{0}, (cw+1)*{0}) of every tile",
            plan.wg_rows
        )
    };
    let maps: Vec<&str> = if c.tma_store {
        vec!["tmA", "tmB", "tmD"]
    } else {
        vec!["tmA", "tmB"]
    };
    let mut s = header(&name, p, inp, output, c, &plan);
    s += &device_fns(inp, output, c, &plan, p.batch.is_some_and(|b| b.k_slices));
    if p.batch.is_some() {
        s += TMA_3D;
    }
    if !fused.op.is_identity() {
        s += crate::arch::convert::CONVERT;
    }
    s += &format!(
        "\nextern \"C\" __global__ void {}\n{name}(\n    {}) {{\n",
        format!(
            "__launch_bounds__({}, 1) {}",
            c.threads(),
            cluster_dims(c.cluster)
        )
        .trim_end(),
        params.signature()
    );
    s += &mainloop.setup(&maps);
    s += &lambdas;
    s += &mainloop.producer();
    s += &mainloop.consumer(&doc, &epi, &drain);
    s += &mainloop.teardown();
    s += "}\n";
    Ok(Kernel {
        name,
        source: s,
        grid: (to_u32("hopper gemm tiles", tiles.total)?, 1, 1),
        persistent: c.persistent,
        cluster: c.cluster,
        block: (c.threads(), 1, 1),
        dynamic_smem_bytes: c.smem_bytes(),
        args: params.args,
        buffers,
        pointer_alignment: 16,
        dependent_launch: c.dependent_launch,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Arg;

    fn maps(k: &Kernel) -> Vec<&TensorMapArg> {
        k.args
            .iter()
            .filter_map(|a| match a {
                Arg::TensorMap(m) => Some(m),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn tensor_maps_and_descriptors_come_from_the_stage_layouts() {
        let p = HopperProblem::padded(4095, 4097, 1023);
        let k =
            generate_hopper_gemm(&p, DType::BF16, DType::F32, &HopperConfig::default()).unwrap();
        let m = maps(&k);
        assert_eq!((m[0].box_dims, m[0].swizzle_bytes), ([64, 128], 128));
        assert_eq!((m[0].extents, m[0].ld), ([1023, 4095], 1024));
        assert!(k.source.contains("SBO = s(8,0) = 1024 B"));
        assert!(
            k.source
                .contains("tma_load_2d(sa + 0u, &tmA, full_bar + 8 * s, kb * 64, tm * 128)")
        );
        assert!(
            k.source
                .contains("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16")
        );
        assert_eq!(k.buffer_names(), ["A", "B", "D"]);
    }

    #[test]
    fn a_strided_batch_in_one_launch() {
        let batch = HopperBatch {
            count: 5,
            a: 1024 * 1024,
            b: 0,
            d: 1024 * 1030,
            c: 0,
            k_slices: false,
        };
        let p = HopperProblem {
            batch: Some(batch),
            ..HopperProblem::padded(1000, 1024, 1024)
        };
        let k =
            generate_hopper_gemm(&p, DType::BF16, DType::F32, &HopperConfig::default()).unwrap();
        assert!(k.name.ends_with("_batch_sb"), "{}", k.name);
        // every batch's tiles in one grid; A stepped by a third tensor-map dimension, B shared (2-D)
        assert_eq!(k.grid.0, 8 * 8 * 5);
        let m = maps(&k);
        assert_eq!(
            (m[0].outer.clone(), m[1].outer.len()),
            (vec![(5, 1 << 20)], 0)
        );
        for want in [
            "tma_load_3d(sa + 0u, &tmA, full_bar + 8 * s, kb * 64, tm * 128, tb)",
            "tma_load_2d(sb + 0u, &tmB",
            "const int tb = t / tiles_mn, t_mn = t % tiles_mn;",
            "out_t* const D = D_all + (long long)tb * batch_d;",
        ] {
            assert!(k.source.contains(want), "{want}");
        }
        assert_eq!(k.buffers[0].bytes, (1000 * 1024 + 4 * (1 << 20)) * 2);
        assert_eq!(
            k.buffers[2].bytes,
            (999 * 1024 + 1024 + 4 * 1024 * 1030) * 4
        );
        // the TMA-store epilogue stores at the tile's batch (a 3-D map of D)
        let k = generate_hopper_gemm(&p, DType::BF16, DType::F32, &HopperConfig::large()).unwrap();
        assert!(
            k.source.contains(
                "tma_store_3d(&tmD, buf, col0, tm * 128 + cw * 64 + c * 64 + ew * 16, tb);"
            )
        );
        assert_eq!(maps(&k)[2].outer, vec![(5, 1024 * 1030)]);
        // batch strides a tensor map cannot step (A: 2008 bytes) are refused
        let odd = HopperProblem {
            batch: Some(HopperBatch { a: 1004, ..batch }),
            ..p
        };
        let err = generate_hopper_gemm(&odd, DType::BF16, DType::F32, &HopperConfig::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("a: 1004"), "{err}");
    }

    #[test]
    fn clusters_multicast_b_and_release_stages_to_both_ctas() {
        let c = HopperConfig {
            cluster: 2,
            ..HopperConfig::large()
        };
        let k = generate_hopper_gemm(
            &HopperProblem::padded(4000, 4096, 4096),
            DType::BF16,
            DType::BF16,
            &c,
        )
        .unwrap();
        if std::env::var("CUTE_PRINT").is_ok() {
            println!("{}", k.source);
        }
        assert!(k.name.ends_with("_cl2"), "{}", k.name);
        // 32 tile rows -> 16 cluster rows (the last pairs tile row 31 with an empty 32nd)
        assert_eq!((k.grid.0, k.cluster), (32 * 16, 2));
        assert_eq!(maps(&k)[1].box_dims, [64, 128]); // half of B's 256 rows per CTA
        for want in [
            "__cluster_dims__(2, 1, 1)",
            "const int tm = tcm * 2 + (int)crank;",
            "if (crank == 0u) tma_load_2d_mc(sb + 0u, &tmB, full_bar + 8 * s, kb * 64, tn * 256, 3);",
            "tma_load_2d(sa + 0u, &tmA, full_bar + 8 * s, kb * 64, tm * 128);",
            "mbar_init(empty_bar + 8 * s, 4);", // 2 consumers x 2 CTAs
            "if (tid < 2) mbar_arrive_cluster(empty_bar + 8 * prev, tid);",
            "barrier.cluster.wait.acquire.aligned",
        ] {
            assert!(k.source.contains(want), "{want}");
        }
        // not for block-scaled FP8
        let block = generate_hopper_fp8_gemm(
            &HopperProblem::padded(4096, 4096, 4096),
            (DType::E4M3, DType::E4M3),
            Scaling::Block,
            DType::BF16,
            &HopperConfig {
                cluster: 2,
                bn: 128,
                ..HopperConfig::large().for_bits(8)
            },
            &Fused::default(),
        );
        assert!(block.unwrap_err().to_string().contains("cluster = 2"));
    }

    #[test]
    fn clusters_of_four_multicast_quarters_of_b() {
        let c = HopperConfig {
            cluster: 4,
            ..HopperConfig::large()
        };
        let p = HopperProblem::padded(4000, 4096, 4096);
        let k = generate_hopper_gemm(&p, DType::BF16, DType::BF16, &c).unwrap();
        assert!(k.name.ends_with("_cl4"), "{}", k.name);
        // 32 tile rows -> 8 cluster rows of 4
        assert_eq!((k.grid.0, k.cluster), (32 * 16, 4));
        assert_eq!(maps(&k)[1].box_dims, [64, 64]); // a quarter of B's 256 rows per CTA
        for want in [
            "__cluster_dims__(4, 1, 1)",
            "const int tm = tcm * 4 + (int)crank;",
            "if (crank == 3u) tma_load_2d_mc(sb + 24576u, &tmB, full_bar + 8 * s, kb * 64, tn * 256 + 192, 15);",
            "mbar_init(empty_bar + 8 * s, 8);", // 2 consumers x 4 CTAs
            "if (tid < 4) mbar_arrive_cluster(empty_bar + 8 * prev, tid);",
        ] {
            assert!(k.source.contains(want), "{want}");
        }
        let three = generate_hopper_gemm(
            &p,
            DType::BF16,
            DType::BF16,
            &HopperConfig { cluster: 3, ..c },
        );
        assert!(three.unwrap_err().to_string().contains("cluster = 3"));
    }

    #[test]
    fn mn_major_boxes_and_tma_store() {
        let p = HopperProblem::padded(4096, 4096, 4096).with_majors(Major::MN, Major::MN);
        let k = generate_hopper_gemm(&p, DType::F16, DType::F16, &HopperConfig::large()).unwrap();
        let m = maps(&k);
        assert_eq!(m.len(), 3);
        assert_eq!(
            (m[0].box_dims, m[1].box_dims, m[2].box_dims),
            ([64, 64], [64, 64], [64, 16]) // D: one warp's 16 rows per store
        );
        assert!(
            k.source.contains(
                "tma_load_2d(sb + 24576u, &tmB, full_bar + 8 * s, tn * 256 + 192, kb * 64)"
            )
        );
        assert!(k.source.contains("1, 1, 1, 1, 1;"), "tnspA = tnspB = 1");
        assert!(k.persistent);
    }
}
