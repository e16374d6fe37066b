//! GEMM `D = alpha*A*B + beta*C` on tensor cores with `mma.sync.m16n8k16`.
//!
//! - A is `(M,K)` row-major `(M,K):(lda,_1)` or column-major `(M,K):(_1,lda)`; B is `(K,N)`
//!   row-major `(K,N):(ldb,_1)` or column-major `(K,N):(_1,ldb)`; C and D are `(M,N):(ld,_1)`.
//! - Inputs f16 or bf16 (raw 16-bit payloads), f32 accumulation, output f32, f16 or bf16.
//! - TiledMMA: `warps_m x warps_n` warps, each owning a `(BM/warps_m, BN/warps_n)` sub-tile made of
//!   m16n8k16 atoms; the atom's thread-value layouts (from `cute_layout_core::atom`) are printed next to the code that uses them.
//! - Global -> shared by 16-byte `cp.async` (zero-filling past M, N and K: that is the predication),
//!   `stages`-deep pipeline; shared -> registers by `ldmatrix` (`.trans` for MN-major operands);
//!   shared tiles are `Swizzle<B,3,S> o (rows,cols):(cols,1)`, the swizzle found by the bank search
//!   over the cp.async and ldmatrix accesses.
//!
//! ```
//! use cute_gpu::{DType, kernels::gemm_sm80::{GemmSpec, generate_gemm}};
//! let l = |s: &str| s.parse().unwrap();
//! let spec = GemmSpec { a: l("(512,256):(_1,512)"), b: l("(256,512):(512,_1)"), c: l("(512,512):(512,_1)"),
//!     input: DType::BF16, output: DType::BF16, alpha: 1.0, beta: 0.0, config: Default::default() };
//! let k = generate_gemm(&spec).unwrap(); // both operands MN-major: ldmatrix .trans
//! assert!(k.name.starts_with("cute_gemm_bf16_bf16_amn_bmn_") && k.source.contains("ldmatrix_x4_trans("));
//! ```

use crate::arch::mma_sync::mma_m16n8k16;
use crate::arch::{convert::CONVERT, cp_async::CP_ASYNC, ldmatrix::LDMATRIX, memory::SMEM_ADDR};
use crate::atom::{Fragment, as_coordinates, atom_coords, sm80_mma, sm80_tiled_mma};
use crate::dtype::{DType, Major};
use crate::emit::{Leaf, Params, flat_modes, pattern};
use crate::error::{Result, ceil_div, mul, to_u32};
use crate::kernel::{Buffer, Kernel};
use crate::piece::cp_async_mainloop::{CopiedOperand, Pipeline, StageCopy};
use crate::piece::epilogue_op::EpilogueOp;
use crate::piece::epilogue_sm80::Epilogue;
use crate::piece::fragment::WarpMma;
use crate::piece::schedule::{grouped_raster, tile_counts};
use crate::piece::smem_tile::{OperandTile, TileShape, make_tile};
use cute_layout_core::atom::{MmaTraits, TiledMma};
use cute_layout_core::{Int, Layout, Swizzle};

fn unsupported<T>(reason: String) -> Result<T> {
    crate::error::config("gemm_sm80", reason)
}

/// Tile and pipeline parameters.
///
/// ```
/// use cute_gpu::kernels::gemm_sm80::GemmConfig;
/// let c = GemmConfig::default();
/// assert_eq!((c.bm, c.bn, c.bk, c.warps_m, c.warps_n, c.stages), (128, 128, 32, 2, 2, 4));
/// let wide = GemmConfig { bn: 256, warps_n: 4, ..c };
/// assert_eq!(32 * wide.warps_m * wide.warps_n, 256); // threads per CTA
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmConfig {
    /// CTA tile along M.
    pub bm: i64,
    /// CTA tile along N.
    pub bn: i64,
    /// CTA tile along K (multiple of 32: fragments alternate between two buffers per k16 step).
    pub bk: i64,
    /// Warps along M.
    pub warps_m: i64,
    /// Warps along N.
    pub warps_n: i64,
    /// cp.async pipeline depth (>= 3).
    pub stages: i64,
    /// CTAs per SM to ask for in `__launch_bounds__`.
    pub min_blocks: i64,
    /// CTA rasterization: tiles along M per group (L2 reuse).
    pub group_m: i64,
}

impl Default for GemmConfig {
    /// 128x128x32, 2x2 warps (64x64 per warp), 4 stages.
    fn default() -> Self {
        GemmConfig {
            bm: 128,
            bn: 128,
            bk: 32,
            warps_m: 2,
            warps_n: 2,
            stages: 4,
            min_blocks: 2,
            group_m: 8,
        }
    }
}

/// A GEMM problem: layouts of A, B, C, D, types and scalars.
///
/// ```
/// use cute_gpu::{DType, kernels::gemm_sm80::GemmSpec};
/// let l = |s: &str| s.parse().unwrap();
/// let spec = GemmSpec {
///     a: l("(256,64):(64,_1)"), b: l("(64,256):(_1,64)"), c: l("(256,256):(256,_1)"),
///     input: DType::F16, output: DType::F32, alpha: 1.0, beta: 0.0, config: Default::default(),
/// };
/// assert_eq!(spec.a.to_string(), "(256,64):(64,_1)"); // K-major A
/// assert_eq!(spec.config.bm, 128);
/// ```
#[derive(Clone, Debug)]
pub struct GemmSpec {
    /// A, `(M,K)`.
    pub a: Layout,
    /// B, `(K,N)`.
    pub b: Layout,
    /// C and D, `(M,N):(ld,_1)`.
    pub c: Layout,
    /// Input type (F16 or BF16).
    pub input: DType,
    /// Output type of C and D (F32, F16 or BF16).
    pub output: DType,
    /// alpha.
    pub alpha: f32,
    /// beta (C is not read when 0).
    pub beta: f32,
    /// Tiles and pipeline.
    pub config: GemmConfig,
}

/// The plan a GEMM kernel is generated from (exposed for tests and the README).
///
/// ```
/// use cute_gpu::kernels::gemm_sm80::plan_gemm;
/// # use cute_gpu::{DType, kernels::gemm_sm80::GemmSpec};
/// let l = |s: &str| s.parse().unwrap();
/// let spec = GemmSpec {
///     a: l("(256,64):(64,_1)"), b: l("(64,256):(_1,64)"), c: l("(256,256):(256,_1)"),
///     input: DType::F16, output: DType::F32, alpha: 1.0, beta: 0.0, config: Default::default(),
/// };
/// let plan = plan_gemm(&spec).unwrap();
/// assert_eq!(plan.smem_bytes, 4 * (128 * 32 + 128 * 32) * 2); // 4 stages of two 128x32 16-bit tiles
/// assert_eq!((plan.a_swizzle.1, plan.b_swizzle.1), (0, 0)); // conflict-free
/// ```
#[derive(Clone, Debug)]
pub struct GemmPlan {
    /// Swizzle of A's shared tile and its bank conflicts (swizzled, plain).
    pub a_swizzle: (Swizzle, usize, usize),
    /// Swizzle of B's shared tile and its bank conflicts (swizzled, plain).
    pub b_swizzle: (Swizzle, usize, usize),
    /// Dynamic shared memory in bytes.
    pub smem_bytes: i64,
}

/// Code-generation options that are not part of the tile configuration.
///
/// ```
/// use cute_gpu::kernels::gemm_sm80::GemmOptions;
/// let o = GemmOptions::default();
/// assert!(o.staged_epilogue && o.epilogue.is_identity());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmOptions {
    /// Stage D through shared memory and store it with 16-byte vectors (interior tiles, beta = 0,
    /// when the padded `(BM,BN)` output tile fits in the pipeline's shared memory).
    pub staged_epilogue: bool,
    /// The fused bias and activation (`scale` must be false: alpha and beta are the kernel's own).
    pub epilogue: EpilogueOp,
}

impl Default for GemmOptions {
    fn default() -> Self {
        GemmOptions {
            staged_epilogue: true,
            epilogue: EpilogueOp::default(),
        }
    }
}

fn check_config(cfg: &GemmConfig) -> Result<()> {
    let GemmConfig {
        bm,
        bn,
        bk,
        warps_m,
        warps_n,
        stages,
        ..
    } = *cfg;
    let pow2 = |x: i64| x > 0 && x & (x - 1) == 0;
    if !(pow2(bm) && pow2(bn) && pow2(bk) && pow2(warps_m) && pow2(warps_n)) {
        return unsupported(format!(
            "tile {bm}x{bn}x{bk} and warps {warps_m}x{warps_n} must be powers of two"
        ));
    }
    if bk < 32 || bm % (16 * warps_m) != 0 || bn % (16 * warps_n) != 0 {
        return unsupported(format!(
            "warp tile {}x{} must be multiples of 16 and bk >= 32 (an even number of k16 steps)",
            bm / warps_m,
            bn / warps_n
        ));
    }
    if stages < 3 {
        return unsupported(format!("{stages} stages: the pipeline needs at least 3"));
    }
    if warps_m * warps_n > 16 {
        return unsupported(format!("{warps_m}x{warps_n} warps: at most 16"));
    }
    Ok(())
}

/// A rank-2 operand layout: (major, extent of mode 0, extent of mode 1, leading dimension).
fn operand_major(
    l: &Layout,
    what: &str,
    contiguous_k_mode: usize,
) -> Result<(Major, Int, Int, Int)> {
    let m = flat_modes(l)?;
    if m.len() != 2 {
        return unsupported(format!("{what} {l} must be a rank-2 flat layout"));
    }
    let major = if m[contiguous_k_mode].1.is_static_eq(1) {
        Major::K
    } else if m[1 - contiguous_k_mode].1.is_static_eq(1) {
        Major::MN
    } else {
        return unsupported(format!(
            "{what} {l}: one of the strides must be a static _1"
        ));
    };
    let ld = if major == Major::K {
        m[1 - contiguous_k_mode].1
    } else {
        m[contiguous_k_mode].1
    };
    if ld.value % 8 != 0 {
        return unsupported(format!(
            "{what} {l}: leading dimension {} must be a multiple of 8 for 16-byte cp.async",
            ld.value
        ));
    }
    Ok((major, m[0].0, m[1].0, ld))
}

/// Plans the GEMM (swizzles and shared memory) without generating text.
///
/// ```
/// use cute_gpu::kernels::gemm_sm80::plan_gemm;
/// # use cute_gpu::{DType, kernels::gemm_sm80::GemmSpec};
/// let l = |s: &str| s.parse().unwrap();
/// let spec = GemmSpec {
///     a: l("(256,64):(64,_1)"), b: l("(64,256):(_1,64)"), c: l("(256,256):(256,_1)"),
///     input: DType::F16, output: DType::F32, alpha: 1.0, beta: 0.0, config: Default::default(),
/// };
/// let plan = plan_gemm(&spec).unwrap();
/// assert_eq!(plan.smem_bytes, 65536);
/// assert_eq!(plan.a_swizzle.0.to_string(), "Sw<2,3,3>");
/// ```
pub fn plan_gemm(spec: &GemmSpec) -> Result<GemmPlan> {
    let (a, b, _) = tiles(spec, &sm80_mma(spec.input)?)?;
    Ok(GemmPlan {
        a_swizzle: (a.swizzle, a.conflicts, a.unswizzled_conflicts),
        b_swizzle: (b.swizzle, b.conflicts, b.unswizzled_conflicts),
        smem_bytes: (a.bytes() + b.bytes()) * spec.config.stages,
    })
}

fn tiles(spec: &GemmSpec, mma: &MmaTraits) -> Result<(OperandTile, OperandTile, i64)> {
    let cfg = spec.config;
    check_config(&cfg)?;
    let threads = 32 * cfg.warps_m * cfg.warps_n;
    let (major_a, _, _, _) = operand_major(&spec.a, "A", 1)?;
    let (major_b, _, _, _) = operand_major(&spec.b, "B", 0)?;
    let shape = |name, major, mn_tile, warps_along| TileShape {
        name,
        major,
        mn_tile,
        bk: cfg.bk,
        warps_along,
        threads,
    };
    let a = make_tile(mma, shape("A", major_a, cfg.bm, cfg.warps_m))?;
    let b = make_tile(mma, shape("B", major_b, cfg.bn, cfg.warps_n))?;
    Ok((a, b, threads))
}

/// The problem's extents and leading dimensions as leaves (literals when static).
struct Problem {
    m: Leaf,
    n: Leaf,
    k: Leaf,
    lda: Leaf,
    ldb: Leaf,
    ldc: Leaf,
}

fn problem(spec: &GemmSpec) -> Result<Problem> {
    let (_, m_a, k_a, lda) = operand_major(&spec.a, "A", 1)?;
    let (_, k_b, n_b, ldb) = operand_major(&spec.b, "B", 0)?;
    let cm = flat_modes(&spec.c)?;
    if cm.len() != 2 || !cm[1].1.is_static_eq(1) {
        return unsupported(format!("C/D {} must be (M,N):(ld,_1)", spec.c));
    }
    let (m_c, n_c, ldc) = (cm[0].0, cm[1].0, cm[0].1);
    if m_a.value != m_c.value || k_a.value != k_b.value || n_b.value != n_c.value {
        return unsupported(format!(
            "shapes do not agree: A {} B {} C {}",
            spec.a, spec.b, spec.c
        ));
    }
    if ldc.value % 2 != 0 {
        return unsupported(format!(
            "C/D leading dimension {} must be even (pairs are stored together)",
            ldc.value
        ));
    }
    Ok(Problem {
        m: Leaf::new(m_a, "M"),
        n: Leaf::new(n_b, "N"),
        k: Leaf::new(k_a, "K"),
        lda: Leaf::new(lda, "lda"),
        ldb: Leaf::new(ldb, "ldb"),
        ldc: Leaf::new(ldc, "ldc"),
    })
}

fn params(spec: &GemmSpec, p: &Problem) -> Result<Params> {
    let out_c = spec.output.c_type();
    let mut params = Params::default();
    params.ptr("const unsigned short* __restrict__", "A");
    params.ptr("const unsigned short* __restrict__", "B");
    params.ptr(&format!("const {out_c}* __restrict__"), "C");
    params.ptr(&format!("{out_c}* __restrict__"), "D");
    for l in [&p.m, &p.n, &p.k] {
        params.extent(l)?;
    }
    for l in [&p.lda, &p.ldb, &p.ldc] {
        params.stride(l);
    }
    params.f32("alpha", spec.alpha);
    params.f32("beta", spec.beta);
    Ok(params)
}

/// The header comment: layouts of the operands, the TiledMMA and its atom's thread-value layouts (from
/// `cute_layout_core::atom`, as coordinates), the shared tiles and the pipeline.
fn header(spec: &GemmSpec, mma: &MmaTraits, tiles: [&OperandTile; 2], smem: i64) -> Result<String> {
    let c = &spec.config;
    let (bm, bn, bk, stages) = (c.bm, c.bn, c.bk, c.stages);
    let (warps_m, warps_n) = (c.warps_m, c.warps_n);
    let (ity, oty) = (spec.input.name(), spec.output.name());
    let (wtm, wtn) = (bm / warps_m, bn / warps_n);
    let mut c = format!(
        "// Generated by gpu::gemm. D = alpha*A*B + beta*C, {ity} inputs, f32 accumulation, {oty} output.\n"
    );
    c += &format!(
        "// A: {}  B: {}  C, D: {}\n",
        pattern(&spec.a),
        pattern(&spec.b),
        pattern(&spec.c)
    );
    let up = ity.to_uppercase();
    c += &format!(
        "// CTA tile (_{bm},_{bn},_{bk}); TiledMMA: (_{warps_m},_{warps_n}) warps of SM80_16x8x16_F32{up}{up}F32_TN atoms,\n"
    );
    c += &format!(
        "//   warp tile (_{wtm},_{wtn}) = ({},{}) atoms; warp w -> (wm, wn) = (_{warps_m},_{warps_n}):(_1,_{warps_m})\n",
        wtm / 16,
        wtn / 8
    );
    c += "// atom thread-value layouts (thread = (t4, g) = lane, value index as listed):\n";
    c += &format!("//   A (m,k): {}\n", as_coordinates(&mma.layout_a, 16)?);
    c += &format!("//   B (n,k): {}\n", as_coordinates(&mma.layout_b, 8)?);
    c += &format!("//   C (m,n): {}\n", as_coordinates(&mma.layout_c, 16)?);
    for t in tiles {
        c += &format!(
            "// smem {}: {} o (_{},_{}):(_{},_1) per stage ({} major; bank conflicts {} swizzled, {} plain); ldmatrix{} lane -> (mn,k): {}\n",
            t.name,
            t.swizzle,
            t.rows,
            t.cols,
            t.cols,
            if t.major == Major::K { "K" } else { "MN" },
            t.conflicts,
            t.unswizzled_conflicts,
            if t.major == Major::K { "" } else { ".trans" },
            t.lane_layout
        );
    }
    c += &format!(
        "// pipeline: {stages} stages of cp.async (16 B, zero-fill past M/N/K), {smem} bytes of dynamic shared memory\n"
    );
    Ok(c)
}

/// The entry point's opening: thread coordinates, the CTA's tile (grouped raster) and the k-tile count.
fn prologue(cfg: &GemmConfig, p: &Problem, tiled: &TiledMma) -> Result<String> {
    let warp_coords = atom_coords(tiled, "tid")?;
    let (mx, nx, kx) = (p.m.expr(), p.n.expr(), p.k.expr());
    let mut c =
        "  extern __shared__ __attribute__((aligned(128))) unsigned char smem[];\n".to_string();
    c += "  const unsigned int sbase = smem_u32(smem);\n";
    c += "  const int tid = threadIdx.x, lane = tid & 31;\n";
    c += &format!(
        "  const int wm = {}, wn = {};  // the thread's atom (m, n): thr_layout_vmnk {} inverted\n",
        warp_coords[0], warp_coords[1], tiled.thr_layout_vmnk
    );
    c += "  // CTA raster: blockIdx.x -> (tile_m, tile_n), groups of GROUP_M tile rows walked column by column\n";
    c += &tile_counts("  ", &mx, &nx, cfg.bm, cfg.bn);
    c += &grouped_raster("  ", "blockIdx.x", cfg.group_m, ("tile_m", "tile_n"));
    c += &format!(
        "  const int m0 = tile_m * {}, n0 = tile_n * {};\n",
        cfg.bm, cfg.bn
    );
    c += &format!("  const int KT = ({kx} + {}) / {};\n", cfg.bk - 1, cfg.bk);
    Ok(c)
}

/// [`generate_gemm_with`] with the default [`GemmOptions`].
///
/// ```
/// use cute_gpu::kernels::gemm_sm80::generate_gemm;
/// # use cute_gpu::{DType, kernels::gemm_sm80::GemmSpec};
/// let l = |s: &str| s.parse().unwrap();
/// let spec = GemmSpec {
///     a: l("(256,64):(64,_1)"), b: l("(64,256):(_1,64)"), c: l("(256,256):(256,_1)"),
///     input: DType::F16, output: DType::F32, alpha: 1.0, beta: 0.0, config: Default::default(),
/// };
/// let k = generate_gemm(&spec).unwrap();
/// assert_eq!(k.name, "cute_gemm_f16_f32_ak_bk_128x128x32_w2x2_s4");
/// assert_eq!((k.grid, k.block, k.dynamic_smem_bytes), ((4, 1, 1), (128, 1, 1), 65536)); // 2x2 tiles, rasterized
/// ```
pub fn generate_gemm(spec: &GemmSpec) -> Result<Kernel> {
    generate_gemm_with(spec, &GemmOptions::default())
}

/// Generates the GEMM kernel for `spec` with code-generation options `opts`: the composition of the
/// cp.async stage copy, the ldmatrix/mma.sync warp loop, the multistage pipeline and an epilogue.
///
/// ```
/// use cute_gpu::kernels::gemm_sm80::{GemmOptions, generate_gemm_with};
/// use cute_gpu::piece::epilogue_op::{Activation, EpilogueOp};
/// # use cute_gpu::{DType, kernels::gemm_sm80::GemmSpec};
/// let l = |s: &str| s.parse().unwrap();
/// let spec = GemmSpec {
///     a: l("(256,64):(64,_1)"), b: l("(64,256):(_1,64)"), c: l("(256,256):(256,_1)"),
///     input: DType::F16, output: DType::F32, alpha: 1.0, beta: 0.0, config: Default::default(),
/// };
/// let op = EpilogueOp { activation: Activation::Relu, ..Default::default() };
/// let k = generate_gemm_with(&spec, &GemmOptions { staged_epilogue: false, epilogue: op }).unwrap();
/// assert!(k.name.ends_with(&op.tag()) && k.source.contains("__launch_bounds__(128, 2)"));
/// ```
pub fn generate_gemm_with(spec: &GemmSpec, opts: &GemmOptions) -> Result<Kernel> {
    let cfg = spec.config;
    let op = opts.epilogue;
    let tiled = sm80_tiled_mma(spec.input, cfg.warps_m, cfg.warps_n)?;
    let mma = tiled.atom.clone();
    let (ta, tb, threads) = tiles(spec, &mma)?;
    check_supported(spec, &op, &ta, &tb)?;
    let p = problem(spec)?;
    let mut params = params(spec, &p)?;
    op.params(&mut params, spec.output, spec.alpha, spec.beta);
    let (a_bytes, stage_bytes) = (ta.bytes(), ta.bytes() + tb.bytes());
    let smem = stage_bytes * cfg.stages;
    let name = kernel_name(spec, &ta, &tb) + &op.tag();
    let mut c = header(spec, &mma, [&ta, &tb], smem)?;
    for f in [
        SMEM_ADDR,
        CP_ASYNC,
        LDMATRIX,
        &mma_m16n8k16(spec.input),
        CONVERT,
    ] {
        c += f;
    }
    c += &format!(
        "extern \"C\" __global__ void __launch_bounds__({threads}, {}) {name}(\n    {}) {{\n",
        cfg.min_blocks,
        params.signature()
    );
    c += &prologue(&cfg, &p, &tiled)?;
    c += &op.lambdas(spec.output, (&p.m.expr(), &p.n.expr()));
    let copied = |tile, ld, mn_extent, mn0, stage_offset| CopiedOperand {
        tile,
        ld,
        mn_extent,
        mn0,
        stage_offset,
    };
    c += &StageCopy {
        operands: [
            copied(&ta, &p.lda, p.m.expr(), "m0", 0),
            copied(&tb, &p.ldb, p.n.expr(), "n0", a_bytes),
        ],
        threads,
        bk: cfg.bk,
        stage_bytes,
        k_extent: p.k.expr(),
        tile_mn: (cfg.bm, cfg.bn),
    }
    .emit()?;
    let (wtm, wtn) = (cfg.bm / cfg.warps_m, cfg.bn / cfg.warps_n);
    let warp = WarpMma::new(&ta, &tb, (wtm / 16, wtn / 8, cfg.bk / 16))?;
    c += &warp.setup()?;
    c += &Pipeline {
        stages: cfg.stages,
        threads,
        min_blocks: cfg.min_blocks,
        stage_bytes,
        a_bytes,
    }
    .emit(&warp);
    let fragment = Fragment::new(&mma.layout_c, mma.extent(0)?, "lane")?;
    fragment.pairs_along_columns()?;
    let epilogue = Epilogue {
        tile: (cfg.bm, cfg.bn),
        warp_tile: (wtm, wtn),
        atoms: (warp.mi_n, warp.ni_n),
        threads,
        output: spec.output,
        ldc: &p.ldc,
        extents: (p.m.expr(), p.n.expr()),
        fragment: &fragment,
        atom_mn: (mma.extent(0)?, mma.extent(1)?),
        op,
    };
    if opts.staged_epilogue && epilogue.can_stage(smem) {
        c += &epilogue.staged();
    }
    c += &epilogue.direct();
    c += "}\n";
    let tiles = mul(
        "gemm tiles",
        ceil_div("gemm tiles along M", p.m.int.value, cfg.bm)?,
        ceil_div("gemm tiles along N", p.n.int.value, cfg.bn)?,
    )?;
    Ok(Kernel {
        name,
        source: c,
        grid: (to_u32("gemm grid", tiles.max(1))?, 1, 1),
        persistent: false,
        cluster: 1,
        block: (threads as u32, 1, 1),
        dynamic_smem_bytes: to_u32("shared memory bytes", smem)?,
        args: params.args,
        buffers: buffers(spec, &op, &p)?,
        pointer_alignment: 16,
        dependent_launch: false,
    })
}

/// What the SM80 kernel cannot take: inputs other than f16/bf16, operand tiles without a
/// conflict-free swizzle, a fused op that scales by itself.
fn check_supported(
    spec: &GemmSpec,
    op: &EpilogueOp,
    ta: &OperandTile,
    tb: &OperandTile,
) -> Result<()> {
    if !spec.input.is_half() {
        return unsupported(format!(
            "GEMM inputs must be f16 or bf16, got {}",
            spec.input.name()
        ));
    }
    if ta.conflicts != 0 || tb.conflicts != 0 {
        return unsupported(format!(
            "no conflict-free swizzle: A {} ({}), B {} ({})",
            ta.swizzle, ta.conflicts, tb.swizzle, tb.conflicts
        ));
    }
    if op.scale {
        return unsupported(
            "the fused op of the SM80 kernel has no alpha/beta of its own (scale = false)".into(),
        );
    }
    Ok(())
}

/// `cute_gemm_<in>_<out>_a<major>_b<major>_<bm>x<bn>x<bk>_w<wm>x<wn>_s<stages>`.
fn kernel_name(spec: &GemmSpec, ta: &OperandTile, tb: &OperandTile) -> String {
    let c = &spec.config;
    let (input, output) = (spec.input.name(), spec.output.name());
    let maj = |m: Major| if m == Major::K { "k" } else { "mn" };
    let (a, b) = (maj(ta.major), maj(tb.major));
    let tile = format!("{}x{}x{}", c.bm, c.bn, c.bk);
    let (warps, stages) = (format!("{}x{}", c.warps_m, c.warps_n), c.stages);
    format!("cute_gemm_{input}_{output}_a{a}_b{b}_{tile}_w{warps}_s{stages}")
}

/// The buffers the kernel reads and writes, each with the bytes its layout spans.
fn buffers(spec: &GemmSpec, op: &EpilogueOp, p: &Problem) -> Result<Vec<Buffer>> {
    Ok(vec![
        Buffer::for_layout("A", &spec.a, 2)?,
        Buffer::for_layout("B", &spec.b, 2)?,
        Buffer::for_layout("C", &spec.c, spec.output.bytes())?,
        Buffer::for_layout("D", &spec.c, spec.output.bytes())?,
    ]
    .into_iter()
    .chain(op.bias_buffer(p.m.int.value, p.n.int.value, spec.output))
    .collect())
}
