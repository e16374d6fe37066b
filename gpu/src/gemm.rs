//! GEMM `D = alpha*A*B + beta*C` on tensor cores with `mma.sync.m16n8k16`.
//!
//! - A is `(M,K)` row-major `(M,K):(lda,_1)` or column-major `(M,K):(_1,lda)`; B is `(K,N)`
//!   row-major `(K,N):(ldb,_1)` or column-major `(K,N):(_1,ldb)`; C and D are `(M,N):(ld,_1)`.
//! - Inputs f16 or bf16 (raw 16-bit payloads), f32 accumulation, output f32, f16 or bf16.
//! - TiledMMA: `warps_m x warps_n` warps, each owning a `(BM/warps_m, BN/warps_n)` sub-tile made of
//!   m16n8k16 atoms; the atom's thread-value layouts are written next to the code that uses them.
//! - Global -> shared by 16-byte `cp.async` (zero-filling past M, N and K: that is the predication),
//!   `stages`-deep pipeline; shared -> registers by `ldmatrix` (`.trans` for MN-major operands);
//!   shared tiles are `Swizzle<B,3,S> o (rows,cols):(cols,1)`, the swizzle found by the bank search
//!   over the cp.async and ldmatrix accesses.

use crate::error::{Result, unsupported};
use crate::kernel::{Kernel, Leaf, Params, flat_modes, pattern};
use crate::ptx;
use crate::smem::{WarpAccess, choose_swizzle};
use layout_core::{Int, IntTuple, Layout, Swizzle, crd2idx};

/// Element types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    /// IEEE binary16.
    F16,
    /// bfloat16.
    BF16,
    /// IEEE binary32.
    F32,
}

impl DType {
    /// Bytes per element.
    pub fn bytes(self) -> i64 {
        match self {
            DType::F16 | DType::BF16 => 2,
            DType::F32 => 4,
        }
    }
    fn ptx(self) -> &'static str {
        match self {
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::F32 => "f32",
        }
    }
}

/// Which index of an operand is contiguous in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Major {
    /// K is contiguous (A row-major, B column-major).
    K,
    /// M (for A) or N (for B) is contiguous (A column-major, B row-major).
    MN,
}

/// Tile and pipeline parameters.
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

/// One operand's shared-memory tile: `rows x cols` 16-bit elements, cols contiguous.
#[derive(Clone, Debug)]
struct OperandTile {
    name: &'static str,
    major: Major,
    mn_tile: i64,
    rows: i64,
    cols: i64,
    /// lane -> (mn, k) inside one 16x16 ldmatrix.x4 block.
    lane_layout: Layout,
    /// mn extent covered by one ldmatrix.x4 (16 for both operands).
    warp_mn: i64,
    warps_along: i64,
    swizzle: Swizzle,
    conflicts: usize,
    unswizzled_conflicts: usize,
}

impl OperandTile {
    fn elems(&self) -> i64 {
        self.rows * self.cols
    }
    fn rc(&self, mn: i64, k: i64) -> (i64, i64) {
        match self.major {
            Major::K => (mn, k),
            Major::MN => (k, mn),
        }
    }
}

/// The plan a GEMM kernel is generated from (exposed for tests and the README).
#[derive(Clone, Debug)]
pub struct GemmPlan {
    /// Swizzle of A's shared tile and its bank conflicts (swizzled, plain).
    pub a_swizzle: (Swizzle, usize, usize),
    /// Swizzle of B's shared tile and its bank conflicts (swizzled, plain).
    pub b_swizzle: (Swizzle, usize, usize),
    /// Dynamic shared memory in bytes.
    pub smem_bytes: i64,
}

/// `lane_layout(i)`: the (mn, k) coordinate of ldmatrix lane `i`, evaluated by layout-core
/// (`crd2idx` on the basis strides `_d@0`/`_d@1` gives a rank-2 coordinate).
fn lane_coord(l: &Layout, i: i64) -> Result<[i64; 2]> {
    let c = crd2idx(&IntTuple::s(i), l.shape(), l.stride())?;
    match c.leaves().as_slice() {
        [IntTuple::Int(x), IntTuple::Int(y)] => Ok([x.value, y.value]),
        _ => unsupported(format!(
            "lane layout {l}({i}) = {c}: not a rank-2 coordinate"
        )),
    }
}

fn operand_accesses(
    t: &OperandTile,
    threads: i64,
    bk: i64,
    f: &dyn Fn(i64) -> i64,
) -> Result<Vec<WarpAccess>> {
    let mut out = Vec::new();
    let chunks_per_row = t.cols / 8;
    let iters = t.elems() / 8 / threads;
    for warp in 0..threads / 32 {
        for i in 0..iters {
            let addrs = (0..32)
                .map(|l| {
                    let q = warp * 32 + l + i * threads;
                    f((q / chunks_per_row) * t.cols + (q % chunks_per_row) * 8) * 2
                })
                .collect();
            out.push(WarpAccess { addrs, width: 16 });
        }
    }
    // ldmatrix: every warp position along this operand's mn, every 16x16 block.
    let per_warp = t.mn_tile / t.warps_along;
    for w in 0..t.warps_along {
        for blk in 0..per_warp / t.warp_mn {
            for ks in 0..bk / 16 {
                let mut addrs = Vec::with_capacity(32);
                for l in 0..32 {
                    let c = lane_coord(&t.lane_layout, l)?;
                    let (r, col) = t.rc(w * per_warp + blk * t.warp_mn + c[0], ks * 16 + c[1]);
                    addrs.push(f(r * t.cols + col) * 2);
                }
                out.push(WarpAccess { addrs, width: 16 });
            }
        }
    }
    Ok(out)
}

fn make_tile(
    name: &'static str,
    major: Major,
    mn_tile: i64,
    bk: i64,
    warps_along: i64,
    threads: i64,
) -> Result<OperandTile> {
    // ldmatrix.x4 lane -> (mn, k) coordinate layouts; see the module docs of the m16n8k16 atom.
    let lane = match (name, major) {
        ("A", Major::K) => "(_8,_2,_2):(_1@0,_8@0,_8@1)",
        ("A", Major::MN) => "(_8,_2,_2):(_1@1,_8@0,_8@1)",
        (_, Major::K) => "(_8,_2,_2):(_1@0,_8@1,_8@0)",
        (_, Major::MN) => "(_8,_2,_2):(_1@1,_8@1,_8@0)",
    };
    let (rows, cols) = match major {
        Major::K => (mn_tile, bk),
        Major::MN => (bk, mn_tile),
    };
    let mut t = OperandTile {
        name,
        major,
        mn_tile,
        rows,
        cols,
        lane_layout: lane.parse::<Layout>()?,
        warp_mn: 16,
        warps_along,
        swizzle: Swizzle {
            bits: 0,
            base: 3,
            shift: 0,
        },
        conflicts: 0,
        unswizzled_conflicts: 0,
    };
    if (t.elems() / 8) % threads != 0 {
        return unsupported(format!(
            "{name} tile {rows}x{cols} is not a whole number of 16-byte chunks per thread"
        ));
    }
    let tile_log2 = t.elems().trailing_zeros() as i64;
    t.unswizzled_conflicts =
        crate::smem::total_conflicts(&operand_accesses(&t, threads, bk, &|x| x)?);
    let tt = t.clone();
    let (sw, c) = choose_swizzle(3, tile_log2, |f| {
        operand_accesses(&tt, threads, bk, f).unwrap_or_default()
    });
    t.swizzle = sw;
    t.conflicts = c;
    Ok(t)
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
        return unsupported("more than 16 warps".to_string());
    }
    Ok(())
}

/// Splits a rank-2 layout's strides into (major, leading dimension).
fn operand_major(
    l: &Layout,
    what: &str,
    contiguous_k_mode: usize,
) -> Result<(Major, Int, Int, Int)> {
    let m = flat_modes(l)?;
    if m.len() != 2 {
        return unsupported(format!("{what} {l} must be a rank-2 flat layout"));
    }
    let (s0, s1) = (m[0], m[1]);
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
    Ok((major, s0.0, s1.0, ld))
}

/// Plans the GEMM (swizzles and shared memory) without generating text.
pub fn plan_gemm(spec: &GemmSpec) -> Result<GemmPlan> {
    let (a, b, _) = tiles(spec)?;
    let cfg = spec.config;
    Ok(GemmPlan {
        a_swizzle: (a.swizzle, a.conflicts, a.unswizzled_conflicts),
        b_swizzle: (b.swizzle, b.conflicts, b.unswizzled_conflicts),
        smem_bytes: (a.elems() + b.elems()) * 2 * cfg.stages,
    })
}

fn tiles(spec: &GemmSpec) -> Result<(OperandTile, OperandTile, i64)> {
    let cfg = spec.config;
    check_config(&cfg)?;
    let threads = 32 * cfg.warps_m * cfg.warps_n;
    let (amaj, _, _, _) = operand_major(&spec.a, "A", 1)?;
    let (bmaj, _, _, _) = operand_major(&spec.b, "B", 0)?;
    let a = make_tile("A", amaj, cfg.bm, cfg.bk, cfg.warps_m, threads)?;
    let b = make_tile("B", bmaj, cfg.bn, cfg.bk, cfg.warps_n, threads)?;
    Ok((a, b, threads))
}

fn swz_expr(sw: Swizzle, x: &str) -> String {
    if sw.bits == 0 {
        x.to_string()
    } else {
        let mask = ((1i64 << sw.bits) - 1) << (sw.base + sw.shift);
        format!("(({x}) ^ ((({x}) & {mask}) >> {}))", sw.shift)
    }
}

/// C expression for coordinate `mode` of a lane layout with basis strides.
fn lane_coord_expr(l: &Layout, var: &str, mode: usize) -> Result<String> {
    let shapes = l.shape().leaves();
    let strides = l.stride().leaves();
    let mut terms = Vec::new();
    let mut div = 1i64;
    for (s, d) in shapes.iter().zip(&strides) {
        let s = s.expect_int("lane layout")?.value;
        match d {
            layout_core::IntTuple::Basis(bas) if bas.modes == [mode] => {
                let c = if div == 1 {
                    format!("({var} % {s})")
                } else {
                    format!("(({var} / {div}) % {s})")
                };
                terms.push(format!("{c} * {}", bas.scale.value));
            }
            _ => {}
        }
        div *= s;
    }
    Ok(if terms.is_empty() {
        "0".into()
    } else {
        terms.join(" + ")
    })
}

/// Generates the GEMM kernel.
/// Code-generation options that are not part of the tile configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmOptions {
    /// Stage D through shared memory and store it with 16-byte vectors (interior tiles, beta = 0,
    /// when the padded `(BM,BN)` output tile fits in the pipeline's shared memory).
    pub staged_epilogue: bool,
}

impl Default for GemmOptions {
    fn default() -> Self {
        GemmOptions {
            staged_epilogue: true,
        }
    }
}

/// [`generate_gemm_with`] with the default [`GemmOptions`].
pub fn generate_gemm(spec: &GemmSpec) -> Result<Kernel> {
    generate_gemm_with(spec, &GemmOptions::default())
}

/// Generates the GEMM kernel for `spec` with code-generation options `opts`.
pub fn generate_gemm_with(spec: &GemmSpec, opts: &GemmOptions) -> Result<Kernel> {
    let cfg = spec.config;
    if !matches!(spec.input, DType::F16 | DType::BF16) {
        return unsupported("GEMM inputs must be f16 or bf16");
    }
    let (ta, tb, threads) = tiles(spec)?;
    if ta.conflicts != 0 || tb.conflicts != 0 {
        return unsupported(format!(
            "no conflict-free swizzle: A {} ({}), B {} ({})",
            ta.swizzle, ta.conflicts, tb.swizzle, tb.conflicts
        ));
    }
    let (amaj, m_a, k_a, lda) = operand_major(&spec.a, "A", 1)?;
    let (bmaj, k_b, n_b, ldb) = operand_major(&spec.b, "B", 0)?;
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
    let (mm, nn, kk) = (
        Leaf::new(m_a, "M"),
        Leaf::new(n_b, "N"),
        Leaf::new(k_a, "K"),
    );
    let (lda, ldb, ldc) = (
        Leaf::new(lda, "lda"),
        Leaf::new(ldb, "ldb"),
        Leaf::new(ldc, "ldc"),
    );
    let GemmConfig {
        bm,
        bn,
        bk,
        warps_m,
        warps_n,
        stages,
        min_blocks,
        group_m,
    } = cfg;
    let (wtm, wtn) = (bm / warps_m, bn / warps_n);
    let (mi_n, ni_n, ks_n) = (wtm / 16, wtn / 8, bk / 16);
    let ity = spec.input.ptx();
    let oty = spec.output;
    let out_c = match oty {
        DType::F32 => "float",
        _ => "unsigned short",
    };
    let a_bytes = ta.elems() * 2;
    let b_bytes = tb.elems() * 2;
    let stage_bytes = a_bytes + b_bytes;
    let smem = stage_bytes * stages;

    let mut p = Params::default();
    p.ptr("const unsigned short* __restrict__", "A");
    p.ptr("const unsigned short* __restrict__", "B");
    p.ptr(&format!("const {out_c}* __restrict__"), "C");
    p.ptr(&format!("{out_c}* __restrict__"), "D");
    for l in [&mm, &nn, &kk] {
        p.extent(l)?;
    }
    for l in [&lda, &ldb, &ldc] {
        p.stride(l);
    }
    p.f32("alpha", spec.alpha);
    p.f32("beta", spec.beta);
    let (mx, nx, kx) = (mm.expr(), nn.expr(), kk.expr());
    let maj = |m: Major| if m == Major::K { "k" } else { "mn" };
    let name = format!(
        "cute_gemm_{}_{}_a{}_b{}_{bm}x{bn}x{bk}_w{warps_m}x{warps_n}_s{stages}",
        ity,
        oty.ptx(),
        maj(amaj),
        maj(bmaj)
    );

    let mut c = String::new();
    c += &format!(
        "// Generated by gpu::gemm. D = alpha*A*B + beta*C, {ity} inputs, f32 accumulation, {} output.\n",
        oty.ptx()
    );
    c += &format!(
        "// A: {}  B: {}  C, D: {}\n",
        pattern(&spec.a),
        pattern(&spec.b),
        pattern(&spec.c)
    );
    c += &format!(
        "// CTA tile (_{bm},_{bn},_{bk}); TiledMMA: (_{warps_m},_{warps_n}) warps of SM80_16x8x16_F32{}{}F32_TN atoms,\n",
        ity.to_uppercase(),
        ity.to_uppercase()
    );
    c += &format!(
        "//   warp tile (_{wtm},_{wtn}) = ({mi_n},{ni_n}) atoms; warp w -> (wm, wn) = (_{warps_m},_{warps_n}):(_1,_{warps_m})\n"
    );
    c += "// atom thread-value layouts (thread = (t4, g) = lane, value index as listed):\n";
    c += "//   A (m,k): ((_4,_8),(_2,_2,_2)):((_2@1,_1@0),(_1@1,_8@0,_8@1))\n";
    c += "//   B (n,k): ((_4,_8),(_2,_2)):((_2@1,_1@0),(_1@1,_8@1))\n";
    c += "//   C (m,n): ((_4,_8),(_2,_2)):((_2@1,_1@0),(_1@1,_8@0))\n";
    for t in [&ta, &tb] {
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
    c += ptx::SMEM_ADDR;
    c += ptx::CP_ASYNC;
    c += ptx::LDMATRIX;
    c += &ptx::mma_m16n8k16(ity);
    c += ptx::CONVERT;
    c += &format!(
        "extern \"C\" __global__ void __launch_bounds__({threads}, {min_blocks}) {name}(\n    {}) {{\n",
        p.signature()
    );
    c += "  extern __shared__ __attribute__((aligned(128))) unsigned char smem[];\n";
    c += "  const unsigned int sbase = smem_u32(smem);\n";
    c += "  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;\n";
    c += &format!("  const int wm = warp % {warps_m}, wn = warp / {warps_m};\n");
    c += "  // CTA raster: blockIdx.x -> (tile_m, tile_n), groups of GROUP_M tile rows walked column by column\n";
    c += &format!(
        "  const int tiles_m = ({mx} + {}) / {bm}, tiles_n = ({nx} + {}) / {bn};\n",
        bm - 1,
        bn - 1
    );
    c += &format!(
        "  const int width = {group_m} * tiles_n, group = blockIdx.x / width, first_m = group * {group_m};\n"
    );
    c += &format!("  const int gsz = min(tiles_m - first_m, {group_m});\n");
    c += "  const int tile_m = first_m + (blockIdx.x % width) % gsz, tile_n = (blockIdx.x % width) / gsz;\n";
    c += &format!("  const int m0 = tile_m * {bm}, n0 = tile_n * {bn};\n");
    c += &format!("  const int KT = ({kx} + {}) / {bk};\n", bk - 1);

    // global -> shared copy plan for each operand. Thread tid copies chunks q = tid + i*threads;
    // threads is a multiple of the chunks per row, so the column is fixed per thread and the row
    // advances by threads/cpr: one base offset per thread, constant steps per i (checked below).
    for (t, g, ld, mn_ext, mn0) in [(&ta, "A", &lda, &mx, "m0"), (&tb, "B", &ldb, &nx, "n0")] {
        let iters = t.elems() / 8 / threads;
        let cpr = t.cols / 8;
        if threads % cpr != 0 {
            return unsupported(format!(
                "{} threads do not cover whole rows of {g}'s {cpr}-chunk tile rows",
                threads
            ));
        }
        let low = g.to_lowercase();
        c += &format!(
            "  // {g}: cp.async TV layout (_{threads},_{iters}):(_1,_{threads}) over 16-byte chunks, chunk q -> (row,col) = (_{cpr},_{}):(_8@1,_1@0)\n",
            t.rows
        );
        c += &format!("  const int {low}_row = tid / {cpr}, {low}_col = (tid % {cpr}) * 8;\n");
        c += &format!(
            "  const unsigned int {low}_soff = {} * 2;\n",
            swz_expr(t.swizzle, &format!("{low}_row * {} + {low}_col", t.cols))
        );
        match t.major {
            Major::K => {
                c += &format!(
                    "  // K-major: row = mn, col = k; {g}(mn, k) = mn*{} + k\n",
                    ld.expr()
                );
                c += &format!(
                    "  const long long {low}_goff = (long long)({mn0} + {low}_row) * (long long)({}) + {low}_col;\n",
                    ld.expr()
                );
                c += &format!(
                    "  unsigned int {low}_rows_ok = 0;  // bit i: row of chunk i is inside {mn_ext}\n"
                );
                c += &format!(
                    "  #pragma unroll\n  for (int i = 0; i < {iters}; ++i) {low}_rows_ok |= ({mn0} + {low}_row + i * {} < {mn_ext} ? 1u : 0u) << i;\n",
                    threads / cpr
                );
            }
            Major::MN => {
                c += &format!(
                    "  // MN-major: row = k, col = mn; {g}(mn, k) = mn + k*{}\n",
                    ld.expr()
                );
                c += &format!(
                    "  const long long {low}_goff = (long long){low}_row * (long long)({}) + {mn0} + {low}_col;\n",
                    ld.expr()
                );
                c += &format!(
                    "  const int {low}_mn_left = {mn_ext} - ({mn0} + {low}_col);  // elements before the edge\n"
                );
            }
        }
    }
    c += "  auto load_stage = [&](int stage, int kt) {\n";
    c += &format!("    const int k0 = kt * {bk};\n");
    for (t, g, ld, stage_off) in [(&ta, "A", &lda, 0), (&tb, "B", &ldb, a_bytes)] {
        let iters = t.elems() / 8 / threads;
        let low = g.to_lowercase();
        let cpr = t.cols / 8;
        let rstep = threads / cpr;
        // Swizzled offset of chunk i = offset of chunk 0 + a constant, when the row step keeps the
        // swizzle's source bits (checked for every thread); else it is recomputed.
        let mut const_step = true;
        for tid in 0..threads {
            let (r0, c0) = (tid / cpr, (tid % cpr) * 8);
            for i in 0..iters {
                let d = t.swizzle.apply_i64((r0 + i * rstep) * t.cols + c0)
                    - t.swizzle.apply_i64(r0 * t.cols + c0);
                if d != i * rstep * t.cols {
                    const_step = false;
                }
            }
        }
        c += &format!("    #pragma unroll\n    for (int i = 0; i < {iters}; ++i) {{\n");
        let soff = if const_step {
            format!("{low}_soff + i * {}", rstep * t.cols * 2)
        } else {
            format!(
                "{} * 2",
                swz_expr(
                    t.swizzle,
                    &format!("({low}_row + i * {rstep}) * {} + {low}_col", t.cols)
                )
            )
        };
        match t.major {
            Major::K => {
                c += &format!(
                    "      const int left = (({low}_rows_ok >> i) & 1) ? {kx} - k0 - {low}_col : 0;\n"
                );
                c += "      const int bytes = left >= 8 ? 16 : (left > 0 ? left * 2 : 0);\n";
                c += &format!(
                    "      const unsigned short* src = bytes ? {g} + {low}_goff + (long long)(i * {rstep}) * (long long)({}) + k0 : {g};\n",
                    ld.expr()
                );
            }
            Major::MN => {
                c += &format!(
                    "      const int left = k0 + {low}_row + i * {rstep} < {kx} ? {low}_mn_left : 0;\n"
                );
                c += "      const int bytes = left >= 8 ? 16 : (left > 0 ? left * 2 : 0);\n";
                c += &format!(
                    "      const unsigned short* src = bytes ? {g} + {low}_goff + (long long)(k0 + i * {rstep}) * (long long)({}) : {g};\n",
                    ld.expr()
                );
            }
        }
        c += &format!(
            "      const unsigned int dst = sbase + stage * {stage_bytes} + {stage_off} + {soff};\n"
        );
        c += "      if (bytes == 16 || bytes == 0) {\n        cp_async_16(dst, src, bytes);  // whole chunk, or zero-fill past the edge\n";
        c += "      } else {\n        // chunk straddling the edge: only its first bytes/2 elements exist; read them one by one\n";
        c += "        unsigned int w[4];\n        #pragma unroll\n        for (int e = 0; e < 4; ++e) {\n";
        c += "          const unsigned int lo = 4 * e < bytes ? src[2 * e] : 0u, hi = 4 * e + 2 < bytes ? src[2 * e + 1] : 0u;\n";
        c += "          w[e] = lo | (hi << 16);\n        }\n        st_shared_16(dst, w);\n      }\n    }\n";
    }
    c += "  };\n";
    // Interior tiles (the whole CTA tile and k-tile inside M, N, K) take the unpredicated path.
    c += &format!("  const bool interior = m0 + {bm} <= {mx} && n0 + {bn} <= {nx};\n");
    c += "  auto load_stage_full = [&](int stage, int kt) {\n";
    c += &format!("    const int k0 = kt * {bk};\n");
    for (t, g, ld, stage_off) in [(&ta, "A", &lda, 0), (&tb, "B", &ldb, a_bytes)] {
        let iters = t.elems() / 8 / threads;
        let low = g.to_lowercase();
        let cpr = t.cols / 8;
        let rstep = threads / cpr;
        let mut const_step = true;
        for tid in 0..threads {
            let (r0, c0) = (tid / cpr, (tid % cpr) * 8);
            for i in 0..iters {
                let d = t.swizzle.apply_i64((r0 + i * rstep) * t.cols + c0)
                    - t.swizzle.apply_i64(r0 * t.cols + c0);
                if d != i * rstep * t.cols {
                    const_step = false;
                }
            }
        }
        let soff = if const_step {
            format!("{low}_soff + i * {}", rstep * t.cols * 2)
        } else {
            format!(
                "{} * 2",
                swz_expr(
                    t.swizzle,
                    &format!("({low}_row + i * {rstep}) * {} + {low}_col", t.cols)
                )
            )
        };
        let kterm = match t.major {
            Major::K => "k0".to_string(),
            Major::MN => format!("(long long)k0 * (long long)({})", ld.expr()),
        };
        c += &format!("    #pragma unroll\n    for (int i = 0; i < {iters}; ++i)\n");
        c += &format!(
            "      cp_async_16_full(sbase + stage * {stage_bytes} + {stage_off} + {soff}, {g} + {low}_goff + (long long)(i * {rstep}) * (long long)({}) + {kterm});\n",
            ld.expr()
        );
    }
    c += "  };\n";
    c += &format!(
        "  auto load = [&](int stage, int kt) {{\n    if (interior && (kt + 1) * {bk} <= {kx}) load_stage_full(stage, kt);\n    else load_stage(stage, kt);\n  }};\n"
    );

    // ldmatrix address plan
    c += "  // ldmatrix addresses: lane -> (mn,k) by the lane layouts above, + warp offset, swizzled\n";
    let mut ld_plan = Vec::new();
    for (t, wsel, blocks) in [(&ta, "wm", mi_n), (&tb, "wn", ni_n / 2)] {
        let low = t.name.to_lowercase();
        let per_warp = t.mn_tile / t.warps_along;
        c += &format!(
            "  const int {low}_lmn = {wsel} * {per_warp} + {}, {low}_lk = {};\n",
            lane_coord_expr(&t.lane_layout, "lane", 0)?,
            lane_coord_expr(&t.lane_layout, "lane", 1)?
        );
        c += &format!("  unsigned int {low}_ld[{ks_n}];\n");
        for ks in 0..ks_n {
            let (r, col) = match t.major {
                Major::K => (format!("{low}_lmn"), format!("{low}_lk + {}", ks * 16)),
                Major::MN => (format!("{low}_lk + {}", ks * 16), format!("{low}_lmn")),
            };
            c += &format!(
                "  {low}_ld[{ks}] = {} * 2;\n",
                swz_expr(t.swizzle, &format!("({r}) * {} + {col}", t.cols))
            );
        }
        // For each block along mn, check (over every lane and warp) that its swizzled address is the
        // ks base plus a constant; otherwise compute it in full.
        let mut deltas = Vec::new();
        for blk in 0..blocks {
            let mut row = Vec::new();
            for ks in 0..ks_n {
                let mut delta: Option<i64> = None;
                let mut constant = true;
                for w in 0..t.warps_along {
                    for l in 0..32 {
                        let cc = lane_coord(&t.lane_layout, l)?;
                        let mn = w * per_warp + cc[0];
                        let (r0, c0) = t.rc(mn, ks * 16 + cc[1]);
                        let (r1, c1) = t.rc(mn + blk * 16, ks * 16 + cc[1]);
                        let d = t.swizzle.apply_i64(r1 * t.cols + c1)
                            - t.swizzle.apply_i64(r0 * t.cols + c0);
                        match delta {
                            None => delta = Some(d),
                            Some(x) if x != d => constant = false,
                            _ => {}
                        }
                    }
                }
                row.push(if constant {
                    Some(delta.unwrap_or(0) * 2)
                } else {
                    None
                });
            }
            deltas.push(row);
        }
        ld_plan.push(deltas);
    }
    let ld_addr = |op: usize, blk: i64, ks: i64| -> String {
        let t = if op == 0 { &ta } else { &tb };
        let low = t.name.to_lowercase();
        match ld_plan[op][blk as usize][ks as usize] {
            Some(d) => format!("{low}_ld[{ks}] + {d}"),
            None => {
                let (r, col) = match t.major {
                    Major::K => (
                        format!("{low}_lmn + {}", blk * 16),
                        format!("{low}_lk + {}", ks * 16),
                    ),
                    Major::MN => (
                        format!("{low}_lk + {}", ks * 16),
                        format!("{low}_lmn + {}", blk * 16),
                    ),
                };
                format!(
                    "{} * 2",
                    swz_expr(t.swizzle, &format!("({r}) * {} + {col}", t.cols))
                )
            }
        }
    };

    c += &format!("  float acc[{mi_n}][{ni_n}][4];\n");
    c += &format!(
        "  #pragma unroll\n  for (int i = 0; i < {mi_n}; ++i)\n    #pragma unroll\n    for (int j = 0; j < {ni_n}; ++j)\n      #pragma unroll\n      for (int v = 0; v < 4; ++v) acc[i][j][v] = 0.f;\n"
    );
    c += "  // prologue: fill stages 0..STAGES-2, wait for stage 0, load its first fragments\n";
    c += &format!(
        "  #pragma unroll\n  for (int s = 0; s < {}; ++s) {{\n    if (s < KT) load(s, s);\n    cp_async_commit();\n  }}\n",
        stages - 1
    );
    c += &format!("  cp_async_wait<{}>();\n  __syncthreads();\n", stages - 2);
    // Fragments are double-buffered across k16 steps (the next step's ldmatrix overlaps this step's
    // mma) unless the register budget of `min_blocks` CTAs per SM (65536 / (threads * min_blocks))
    // is at most 128: then one buffer, loaded right before its mma, and the second CTA hides latency.
    let single = 65536 / (threads * min_blocks.max(1)) <= 128;
    if single {
        c += &format!(
            "  unsigned int af[1][{mi_n}][4], bf[1][{ni_n}][2];  // fragments, one buffer (register budget of {min_blocks} CTAs/SM)\n"
        );
    } else {
        c += &format!(
            "  unsigned int af[2][{mi_n}][4], bf[2][{ni_n}][2];  // fragments, double-buffered across k16 steps\n"
        );
    }
    // Emits the ldmatrix calls filling fragment buffer `buf` for k16 step `ks` from stage bases `a`, `b`.
    let load_frags = |buf: i64, ks: i64, a: &str, b: &str| -> String {
        let mut t = String::new();
        let opa = if ta.major == Major::K {
            "ldmatrix_x4"
        } else {
            "ldmatrix_x4_trans"
        };
        let opb = if tb.major == Major::K {
            "ldmatrix_x4"
        } else {
            "ldmatrix_x4_trans"
        };
        for mi in 0..mi_n {
            t += &format!(
                "      {opa}(af[{buf}][{mi}], {a} + {});\n",
                ld_addr(0, mi, ks)
            );
        }
        for nj in 0..ni_n / 2 {
            t += &format!(
                "      {{ unsigned int r[4]; {opb}(r, {b} + {}); bf[{buf}][{}][0] = r[0]; bf[{buf}][{}][1] = r[1]; bf[{buf}][{}][0] = r[2]; bf[{buf}][{}][1] = r[3]; }}\n",
                ld_addr(1, nj, ks),
                2 * nj,
                2 * nj,
                2 * nj + 1,
                2 * nj + 1
            );
        }
        t
    };
    // The warp's (mi_n, ni_n) atoms of one k16 step, visited serpentine along n: row i runs j = 0..ni_n
    // forward when i is even and backward when odd, so consecutive mmas share the A fragment within a
    // row and the B fragment at each turn (operand-reuse friendly), and no two consecutive mmas write
    // the same accumulator.
    let mma_block = |buf: i64| -> String {
        format!(
            "      #pragma unroll\n      for (int i = 0; i < {mi_n}; ++i)\n        #pragma unroll\n        for (int j = 0; j < {ni_n}; ++j) {{\n          const int jj = (i & 1) ? {} - j : j;  // serpentine n\n          mma_16816(acc[i][jj], af[{buf}][i], bf[{buf}][jj]);\n        }}\n",
            ni_n - 1
        )
    };
    if single {
        c += "  for (int kt = 0; kt < KT; ++kt) {\n";
        c += &format!(
            "    const unsigned int sa = sbase + (kt % {stages}) * {stage_bytes}, sb = sa + {a_bytes};\n"
        );
        c += &format!(
            "    {{  // refill the stage read in iteration kt-1 with k-tile kt+{}\n      const int nk = kt + {};\n      if (nk < KT) load(nk % {stages}, nk);\n      cp_async_commit();\n    }}\n",
            stages - 1,
            stages - 1
        );
        for ks in 0..ks_n {
            c += &format!("    {{  // k16 step {ks}\n");
            c += &load_frags(0, ks, "sa", "sb");
            c += &mma_block(0);
            c += "    }\n";
        }
        c += &format!(
            "    cp_async_wait<{}>();\n    __syncthreads();  // next stage landed; every warp is done reading stage kt\n",
            stages - 2
        );
        c += "  }\n";
    } else {
        c += &format!("  {{\n    const unsigned int sa = sbase, sb = sa + {a_bytes};\n");
        c += &load_frags(0, 0, "sa", "sb");
        c += "  }\n";
        c += "  for (int kt = 0; kt < KT; ++kt) {\n";
        c += &format!(
            "    const unsigned int sa = sbase + (kt % {stages}) * {stage_bytes}, sb = sa + {a_bytes};\n"
        );
        c += &format!(
            "    const unsigned int na = sbase + ((kt + 1) % {stages}) * {stage_bytes}, nb = na + {a_bytes};\n"
        );
        // The k16 steps are unrolled by the generator so that every ldmatrix gets its planned address.
        // Step ks multiplies fragments[ks%2] while fragments[(ks+1)%2] load for the next step; the last
        // step first waits for the next stage and synchronizes, then loads that stage's first fragments.
        for ks in 0..ks_n {
            c += &format!("    {{  // k16 step {ks}\n");
            if ks == ks_n - 1 {
                c += &format!(
                    "      cp_async_wait<{}>();\n      __syncthreads();  // next stage landed; every warp is done reading stage kt-1\n",
                    stages - 2
                );
            }
            let next = (ks + 1) % ks_n;
            let (a, b) = if ks + 1 < ks_n {
                ("sa", "sb")
            } else {
                ("na", "nb")
            };
            c += &load_frags((ks + 1) % 2, next, a, b);
            if ks == 0 {
                c += &format!(
                    "      {{  // refill the stage read in iteration kt-1 with k-tile kt+{}\n        const int nk = kt + {};\n        if (nk < KT) load(nk % {stages}, nk);\n        cp_async_commit();\n      }}\n",
                    stages - 1,
                    stages - 1
                );
            }
            c += &mma_block(ks % 2);
            c += "    }\n";
        }
        c += "  }\n";
    }
    c += "  cp_async_wait<0>();\n";
    // Staged epilogue: D tile in shared memory as (_{bm},_{bn}):(_{pitch},_1) output elements
    // (pitch = bn + 16 bytes: the 8 rows g of a fragment store land 4 banks apart, conflict-free),
    // then 16-byte chunks, TV layout (_threads,_iters):(_1,_threads), chunk q -> (row, col) =
    // (_cpr,_bm):(_vec@1,_1@0) with vec = 16 / sizeof(out), stored coalesced to D(m0+row, n0+col).
    let osize = if oty == DType::F32 { 4 } else { 2 };
    let vec = 16 / osize;
    let pitch = bn + vec;
    let staged = opts.staged_epilogue
        && bm * pitch * osize <= smem
        && (bn * osize) % 16 == 0
        && (bm * bn / vec) % threads == 0;
    if staged {
        let cpr = bn / vec;
        let iters = bm * bn / vec / threads;
        c += &format!(
            "  if (beta == 0.f && interior && {} % {vec} == 0) {{\n",
            ldc.expr()
        );
        c += "    // staged epilogue: every warp is done with the pipeline's shared memory before D reuses it\n";
        c += "    __syncthreads();\n";
        c += "    const int g = lane >> 2, t4 = lane & 3;\n";
        c += &format!(
            "    // C atom (m, n) = (wm*{wtm} + i*16 + g + 8h, wn*{wtn} + j*8 + 2*t4) -> smem byte (m*{pitch} + n)*{osize}\n"
        );
        c += &format!("    #pragma unroll\n    for (int i = 0; i < {mi_n}; ++i)\n");
        c += &format!("      #pragma unroll\n      for (int j = 0; j < {ni_n}; ++j)\n");
        c += "        #pragma unroll\n        for (int h = 0; h < 2; ++h) {\n";
        c += &format!(
            "          const unsigned int so = sbase + ((wm * {wtm} + i * 16 + g + 8 * h) * {pitch} + wn * {wtn} + j * 8 + 2 * t4) * {osize};\n"
        );
        c += "          const float v0 = alpha * acc[i][j][2 * h], v1 = alpha * acc[i][j][2 * h + 1];\n";
        match oty {
            DType::F32 => {
                c += "          asm volatile(\"st.shared.v2.f32 [%0], {%1,%2};\" :: \"r\"(so), \"f\"(v0), \"f\"(v1) : \"memory\");\n";
            }
            DType::F16 | DType::BF16 => {
                let to = if oty == DType::F16 {
                    "f32_to_f16"
                } else {
                    "f32_to_bf16"
                };
                c += &format!(
                    "          const unsigned int w = (unsigned int){to}(v0) | ((unsigned int){to}(v1) << 16);\n"
                );
                c += "          asm volatile(\"st.shared.b32 [%0], %1;\" :: \"r\"(so), \"r\"(w) : \"memory\");\n";
            }
        }
        c += "        }\n    __syncthreads();\n";
        c += &format!(
            "    // chunk q = tid + i*{threads} -> (row, col) = (q / {cpr}, (q % {cpr}) * {vec})\n"
        );
        c += &format!("    #pragma unroll\n    for (int i = 0; i < {iters}; ++i) {{\n");
        c += &format!(
            "      const int q = tid + i * {threads}, row = q / {cpr}, col = (q % {cpr}) * {vec};\n"
        );
        c += &format!(
            "      unsigned int w[4];\n      asm volatile(\"ld.shared.v4.b32 {{%0,%1,%2,%3}}, [%4];\" : \"=r\"(w[0]), \"=r\"(w[1]), \"=r\"(w[2]), \"=r\"(w[3]) : \"r\"(sbase + (row * {pitch} + col) * {osize}));\n"
        );
        c += &format!(
            "      {out_c}* dst = D + (long long)(m0 + row) * (long long)({}) + n0 + col;\n",
            ldc.expr()
        );
        c += "      asm volatile(\"st.global.v4.b32 [%0], {%1,%2,%3,%4};\" :: \"l\"(dst), \"r\"(w[0]), \"r\"(w[1]), \"r\"(w[2]), \"r\"(w[3]) : \"memory\");\n";
        c += "    }\n    return;\n  }\n";
    }
    // epilogue
    c += "  // epilogue: C atom layout -> (m, n); D = alpha*acc + beta*C, pairs along n, predicated on M and N\n";
    c += "  const int g = lane >> 2, t4 = lane & 3;\n";
    c += &format!("  #pragma unroll\n  for (int i = 0; i < {mi_n}; ++i) {{\n");
    c += &format!("    #pragma unroll\n    for (int j = 0; j < {ni_n}; ++j) {{\n");
    c += &format!("      const int n = n0 + wn * {wtn} + j * 8 + 2 * t4;\n");
    c += "      #pragma unroll\n      for (int h = 0; h < 2; ++h) {\n";
    c += &format!("        const int m = m0 + wm * {wtm} + i * 16 + g + 8 * h;\n");
    c += &format!("        if (m >= {mx} || n >= {nx}) continue;\n");
    c += &format!(
        "        const long long off = (long long)m * (long long)({}) + n;\n",
        ldc.expr()
    );
    c += &format!("        const bool pair = n + 1 < {nx};\n");
    c += "        float v0 = alpha * acc[i][j][2 * h], v1 = alpha * acc[i][j][2 * h + 1];\n";
    let (rd, wr) = match oty {
        DType::F32 => (
            "          v0 += beta * C[off]; if (pair) v1 += beta * C[off + 1];\n".to_string(),
            "        if (pair) { asm volatile(\"st.global.v2.f32 [%0], {%1,%2};\" :: \"l\"(D + off), \"f\"(v0), \"f\"(v1) : \"memory\"); }\n        else D[off] = v0;\n".to_string(),
        ),
        DType::F16 | DType::BF16 => {
            let (to, from) = if oty == DType::F16 { ("f32_to_f16", "f16_to_f32") } else { ("f32_to_bf16", "bf16_to_f32") };
            (
                format!("          v0 += beta * {from}(C[off]); if (pair) v1 += beta * {from}(C[off + 1]);\n"),
                format!(
                    "        if (pair) {{ const unsigned int w = (unsigned int){to}(v0) | ((unsigned int){to}(v1) << 16); asm volatile(\"st.global.b32 [%0], %1;\" :: \"l\"(D + off), \"r\"(w) : \"memory\"); }}\n        else D[off] = {to}(v0);\n"
                ),
            )
        }
    };
    c += "        if (beta != 0.f) {\n";
    c += &rd;
    c += "        }\n";
    c += &wr;
    c += "      }\n    }\n  }\n}\n";

    let tiles_m = (m_a.value + bm - 1) / bm;
    let tiles_n = (n_b.value + bn - 1) / bn;
    let grid = u32::try_from((tiles_m * tiles_n).max(1))
        .map_err(|_| crate::GpuError::Unsupported("grid too large".into()))?;
    Ok(Kernel {
        name,
        source: c,
        grid: (grid, 1, 1),
        block: (threads as u32, 1, 1),
        dynamic_smem_bytes: smem as u32,
        args: p.args,
        pointer_alignment: 16,
    })
}
