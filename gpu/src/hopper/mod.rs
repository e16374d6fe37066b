//! Hopper (sm_90a) GEMM: `wgmma.mma_async` fed by TMA (`cp.async.bulk.tensor`) through a warp-specialized,
//! multistage mbarrier pipeline, generated from layouts.
//!
//! `D (M,N) row-major = A (M,K) row-major * B (K,N) column-major`, both operands K-major (the "TN" GEMM),
//! f16 or bf16 in, f32 accumulation, D in f32, f16 or bf16.
//!
//! What comes from the layout algebra (and is stated in the generated text's comments):
//! - the shared-memory stage layouts: the GMMA atom `GMMA::Layout_K_SW128_Atom` ([`smem_atom`]:
//!   `Sw<3,3,3> o (8,64):(64,1)` for 16-bit values) tiled to the CTA tile with [`tile_to_shape`];
//! - the swizzle mode of the TMA box and of the wgmma descriptor, from the atom's swizzle (`Sw<3,..>`: 128 B);
//! - the descriptor's stride byte offset (between 8-row core-matrix groups), the per-k16 and per-64-row
//!   descriptor advances: offsets of the tiled smem layout at `(8,0)`, `(0,16)`, `(64,0)`;
//! - the TMA box (one atom row of 128 B times the tile's rows) and the TMA coordinates: the tile modes of
//!   `zipped_divide(make_identity_layout((M,K)), (BM,BK))` (coordinates, innermost first for TMA);
//! - the accumulator fragment: [`gmma_c_layout`] `((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))` gives the row
//!   and column of every accumulator register in the epilogue.
//! - the TMA-store epilogue's staging box: the 128-byte-swizzled K-major atom of the output type tiled to
//!   `(64, 128 B of columns)`; its row pitch and swizzle give the `st.shared` addresses, the
//!   `CU_TENSOR_MAP_SWIZZLE_128B` mode and the store box of D.

#[cfg(feature = "cuda")]
pub mod run;

use crate::error::{GpuError, Result};
use crate::gemm::DType;
use crate::kernel::{Arg, Kernel};
pub use layout_core::atom::gmma::Major;
use layout_core::atom::gmma::{SmemSwizzle, gmma_c_layout, smem_atom};
use layout_core::{
    IntTuple, Layout, Tiler, layout_eval, make_identity_layout, tile_to_shape, zipped_divide,
};
use std::fmt::Write;

/// Tile configuration of the Hopper GEMM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HopperConfig {
    /// CTA tile rows (a multiple of `64 * consumers`).
    pub bm: i64,
    /// CTA tile columns = the wgmma N (multiple of 16, at most 256).
    pub bn: i64,
    /// K per stage (64: one 128-byte swizzle row of 16-bit values).
    pub bk: i64,
    /// Consumer warp groups (1 or 2); each owns `bm / consumers` rows of the tile.
    pub consumers: u32,
    /// Pipeline stages (>= 2).
    pub stages: u32,
    /// Persistent CTAs (one per SM, looping over tiles) instead of one CTA per tile.
    pub persistent: bool,
    /// Raster grouping: tiles are visited in groups of `group_m` tile rows.
    pub group_m: i64,
    /// Ping-pong: each consumer warp group owns whole tiles (alternating), so one's epilogue overlaps the
    /// other's MMAs (needs `persistent` and 2 consumers; then `bm` is the rows of one consumer's tile).
    pub pingpong: bool,
    /// Epilogue through shared memory and TMA stores (`cp.async.bulk.tensor` shared -> global): each consumer
    /// writes its accumulators, 64 rows x one 128-byte swizzle row of columns at a time, into one of two
    /// staging buffers and one thread stores the box asynchronously, so the consumers return to the next
    /// tile's wgmma while the stores drain. Needs `ldd * sizeof(out)` a multiple of 16 bytes.
    pub tma_store: bool,
    /// Registers per thread of the producer warp group after `setmaxnreg.dec`.
    pub producer_regs: u32,
    /// Registers per thread of the consumer warp groups after `setmaxnreg.inc`.
    pub consumer_regs: u32,
}

impl Default for HopperConfig {
    /// The simple version: one consumer warp group, 128x128x64, 4 stages, no persistence.
    fn default() -> Self {
        HopperConfig {
            bm: 128,
            bn: 128,
            bk: 64,
            consumers: 1,
            stages: 4,
            persistent: false,
            group_m: 8,
            pingpong: false,
            tma_store: false,
            producer_regs: 40,
            consumer_regs: 232,
        }
    }
}

impl HopperConfig {
    /// 128x256x64, two consumer warp groups (64x256 each), 4 stages, persistent, TMA-store epilogue.
    pub fn large() -> Self {
        HopperConfig {
            bm: 128,
            bn: 256,
            consumers: 2,
            stages: 4,
            persistent: true,
            tma_store: true,
            ..Self::default()
        }
    }
    /// Ping-pong, 128x128x64 tiles per consumer warp group, 6 stages, persistent.
    pub fn pingpong() -> Self {
        HopperConfig {
            bm: 128,
            bn: 128,
            consumers: 2,
            stages: 6,
            persistent: true,
            pingpong: true,
            ..Self::default()
        }
    }
    /// Threads per CTA: one producer warp group plus the consumers.
    pub fn threads(&self) -> u32 {
        128 * (1 + self.consumers)
    }
    /// Bytes of one pipeline stage (A tile + B tile).
    pub fn stage_bytes(&self) -> i64 {
        (self.bm + self.bn) * self.bk * 2
    }
    /// Bytes of the epilogue staging buffers: two 64-row x 128-byte boxes per consumer warp group.
    pub fn epi_bytes(&self) -> i64 {
        if self.tma_store {
            2 * 64 * 128 * self.consumers as i64
        } else {
            0
        }
    }
    /// Dynamic shared memory: the stages, the epilogue staging buffers, 1024 bytes of alignment slack,
    /// the mbarriers.
    pub fn smem_bytes(&self) -> u32 {
        (self.stage_bytes() * self.stages as i64
            + self.epi_bytes()
            + 1024
            + 16 * self.stages as i64) as u32
    }
}

/// The problem: sizes, operand majors and leading dimensions (in elements) of A (M,K), B (K,N) and
/// D (M,N) row-major. A K-major = row-major (`A[m*lda + k]`), A MN-major = column-major (`A[k*lda + m]`);
/// B K-major = column-major (`B[n*ldb + k]`), B MN-major = row-major (`B[k*ldb + n]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HopperProblem {
    /// Rows of A and D.
    pub m: i64,
    /// Columns of B and D.
    pub n: i64,
    /// The reduction extent.
    pub k: i64,
    /// Leading dimension of A (multiple of 8: TMA needs 16-byte global strides).
    pub lda: i64,
    /// Leading dimension of B (multiple of 8).
    pub ldb: i64,
    /// Row stride of D (even).
    pub ldd: i64,
    /// Which mode of A is contiguous in global (and shared) memory: K (row-major) or M (column-major).
    pub a_major: Major,
    /// Which mode of B is contiguous: K (column-major) or N (row-major).
    pub b_major: Major,
}

impl HopperProblem {
    /// Dense problem with leading dimensions rounded up to multiples of 8.
    pub fn padded(m: i64, n: i64, k: i64) -> Self {
        let up = |x: i64| (x + 7) / 8 * 8;
        HopperProblem {
            m,
            n,
            k,
            lda: up(k),
            ldb: up(k),
            ldd: up(n),
            a_major: Major::K,
            b_major: Major::K,
        }
    }
    /// The same sizes with the given operand majors (leading dimensions recomputed, rounded up to 8).
    pub fn with_majors(self, a_major: Major, b_major: Major) -> Self {
        let up = |x: i64| (x + 7) / 8 * 8;
        HopperProblem {
            lda: up(if a_major == Major::K { self.k } else { self.m }),
            ldb: up(if b_major == Major::K { self.k } else { self.n }),
            a_major,
            b_major,
            ..self
        }
    }
    /// Elements of A's and B's buffers.
    pub fn a_len(&self) -> i64 {
        self.lda
            * if self.a_major == Major::K {
                self.m
            } else {
                self.k
            }
    }
    /// Elements of B's buffer.
    pub fn b_len(&self) -> i64 {
        self.ldb
            * if self.b_major == Major::K {
                self.n
            } else {
                self.k
            }
    }
    /// Short name of the operand majors: `kk` (A row-major, B column-major), `mk` (A column-major),
    /// `km` (B row-major), `mm` (both MN-major).
    pub fn majors_tag(&self) -> &'static str {
        match (self.a_major, self.b_major) {
            (Major::K, Major::K) => "kk",
            (Major::MN, Major::K) => "mk",
            (Major::K, Major::MN) => "km",
            (Major::MN, Major::MN) => "mm",
        }
    }
}

/// One operand's shared-memory stage, descriptor and TMA boxes, derived from its GMMA layout atom.
#[derive(Clone, Debug)]
struct Operand {
    stage: Layout,
    /// descriptor leading / stride byte offsets
    lbo: i64,
    sbo: i64,
    /// descriptor advance per k16 step, per 64 rows (M or N)
    k16: i64,
    mn64: i64,
    /// TMA box, innermost first
    tma_box: [u32; 2],
    /// byte offsets of the boxes of one stage and the (MN, K) element offsets of their origins
    boxes: Vec<(i64, i64)>,
    tnsp: u32,
    doc: String,
}

/// `rows` = BM (A) or BN (B); `bk` = 64 (one 128-byte swizzle row of 16-bit values).
fn operand(major: Major, rows: i64, bk: i64, name: &str) -> Result<Operand> {
    let atom = smem_atom(major, SmemSwizzle::Sw128, 16)?;
    let atom_l = atom.domain_layout()?.clone();
    let shape: IntTuple = format!("(_{rows},_{bk})").parse()?;
    Ok(match major {
        Major::K => {
            let stage = tile_to_shape(&atom_l, &shape, None)?;
            let sbo = eval_off(&stage, "(8,0)")? * 2;
            let k16 = eval_off(&stage, "(0,16)")? * 2;
            let mn64 = eval_off(&stage, "(64,0)")? * 2;
            let doc = format!(
                "// {name} K-major: atom smem_atom(Major::K, Sw128, 16) = {atom} (GMMA::Layout_K_SW128_Atom<half>)
//   stage = tile_to_shape(atom, ({rows},{bk})) = {stage}
//   descriptor: LBO = 16 B (unused for swizzled K-major), SBO = s(8,0) = {sbo} B, per k16 + s(0,16) = {k16} B
//   (pre-swizzle address; the hardware applies the swizzle), per 64 rows + s(64,0) = {mn64} B; tnsp = 0
//   TMA box ({bk},{rows}) innermost first: one 128 B swizzle row of K x {rows} rows, coordinate {{kb*{bk}, t*{rows}}}"
            );
            Operand {
                stage,
                lbo: 16,
                sbo,
                k16,
                mn64,
                tma_box: [bk as u32, rows as u32],
                boxes: vec![(0, 0)],
                tnsp: 0,
                doc,
            }
        }
        Major::MN => {
            // K-blocks of the atom first, then the 64-wide MN blocks (CUTLASS's Step<_2,_1> for MN-major):
            // one 64(MN) x 64(K) TMA box per 64 rows, 8 KiB each
            let order: IntTuple = "(_2,_1)".parse()?;
            let stage = tile_to_shape(&atom_l, &shape, Some(&order))?;
            let lbo = eval_off(&stage, "(64,0)")? * 2;
            let sbo = eval_off(&stage, "(0,8)")? * 2;
            let k16 = eval_off(&stage, "(0,16)")? * 2;
            let mn64 = lbo;
            let boxes = (0..rows / 64)
                .map(|j| Ok((eval_off(&stage, &format!("({},0)", 64 * j))? * 2, 64 * j)))
                .collect::<Result<Vec<_>>>()?;
            let doc = format!(
                "// {name} MN-major: atom smem_atom(Major::MN, Sw128, 16) = {atom} (GMMA::Layout_MN_SW128_Atom<half>)
//   stage = tile_to_shape(atom, ({rows},{bk}), Step<_2,_1>) = {stage}
//   descriptor (canonical MN-major SW128: ((8,8,m),(8,k)):((1,8,LBO),(64,SBO)) elements): LBO = s(64,0) = {lbo} B
//   (next 64 MN), SBO = s(0,8) = {sbo} B (next 8 K), per k16 + s(0,16) = {k16} B, per 64 rows + s(64,0) = {mn64} B; tnsp = 1
//   TMA box (64,64) innermost first (128 B of MN x 64 K), {nb} per stage at s(64*j,0) = {offs:?} B, coordinate {{t*{rows} + 64*j, kb*{bk}}}",
                nb = rows / 64,
                offs = boxes.iter().map(|b| b.0).collect::<Vec<_>>()
            );
            Operand {
                stage,
                lbo,
                sbo,
                k16,
                mn64,
                tma_box: [64, 64],
                boxes,
                tnsp: 1,
                doc,
            }
        }
    })
}

/// Everything the host needs to build the tensor maps and launch.
#[derive(Clone, Debug)]
pub struct HopperKernel {
    /// Source, name, grid, block, dynamic smem, scalar args (`D`, `M`, `N`, `K`, `ldd` after the two maps).
    pub kernel: Kernel,
    /// The configuration.
    pub config: HopperConfig,
    /// The problem.
    pub problem: HopperProblem,
    /// Input type.
    pub input: DType,
    /// Output type.
    pub output: DType,
    /// TMA box of A, innermost first: (BK, BM).
    pub box_a: [u32; 2],
    /// TMA box of B, innermost first: (BK, BN).
    pub box_b: [u32; 2],
    /// Swizzle span in bytes of the TMA boxes and the descriptors (0, 32, 64, 128), from the smem atom.
    pub swizzle_bytes: u32,
    /// TMA store box of D, innermost first: (columns of one 128-byte swizzle row, 64), when `tma_store`.
    pub box_d: Option<[u32; 2]>,
}

fn eval_off(l: &Layout, c: &str) -> Result<i64> {
    let coord: IntTuple = c.parse()?;
    let v = layout_eval(l, &coord)?;
    v.to_string()
        .trim_start_matches('_')
        .parse::<i64>()
        .map_err(|_| GpuError::Unsupported(format!("offset of {l} at {c} is {v}")))
}

fn dtype_name(d: DType) -> &'static str {
    match d {
        DType::F16 => "f16",
        DType::BF16 => "bf16",
        DType::F32 => "f32",
    }
}

/// Generates the kernel for `problem` with `config`.
pub fn generate_hopper_gemm(
    problem: &HopperProblem,
    input: DType,
    output: DType,
    config: &HopperConfig,
) -> Result<HopperKernel> {
    let c = config;
    let p = problem;
    let bad = |m: String| Err(GpuError::Unsupported(m));
    if input == DType::F32 {
        return bad("wgmma inputs here are f16 or bf16".into());
    }
    if c.bk != 64 {
        return bad("bk must be 64 (one 128-byte swizzle row of 16-bit values)".into());
    }
    let owners = if c.pingpong { 1 } else { c.consumers as i64 };
    if c.pingpong && (!c.persistent || c.consumers != 2) {
        return bad("ping-pong needs 2 consumers and a persistent grid".into());
    }
    if !(1..=2).contains(&c.consumers) || c.bm % (64 * owners) != 0 {
        return bad(format!(
            "bm = {} must be a multiple of 64 x {} consumers",
            c.bm, c.consumers
        ));
    }
    if c.bn % 16 != 0 || !(16..=256).contains(&c.bn) || c.bm > 256 {
        return bad(format!(
            "bn = {} must be a multiple of 16 in [16,256]",
            c.bn
        ));
    }
    if c.stages < 2 {
        return bad("at least 2 stages".into());
    }
    if c.smem_bytes() > 232448 {
        return bad(format!(
            "{} bytes of shared memory > 227 KiB",
            c.smem_bytes()
        ));
    }
    let a_inner = if p.a_major == Major::K { p.k } else { p.m };
    let b_inner = if p.b_major == Major::K { p.k } else { p.n };
    if p.lda % 8 != 0
        || p.ldb % 8 != 0
        || p.ldd % 2 != 0
        || p.m < 1
        || p.n < 1
        || p.k < 1
        || p.lda < a_inner
        || p.ldb < b_inner
    {
        return bad(format!(
            "lda, ldb must be multiples of 8 (16-byte TMA strides) covering the contiguous mode, ldd even: {p:?}"
        ));
    }
    let osz: i64 = if output == DType::F32 { 4 } else { 2 };
    // epilogue box: 64 rows x one 128-byte swizzle row of output columns
    let ecols = 128 / osz;
    if c.tma_store && (c.pingpong || c.bn % ecols != 0 || (p.ldd * osz) % 16 != 0) {
        return bad(format!(
            "the TMA-store epilogue needs the cooperative schedule, bn a multiple of {ecols} and 16-byte rows of D: {p:?}"
        ));
    }
    let (bm, bn, bk) = (c.bm, c.bn, c.bk);
    let wg_rows = bm / owners;
    let m_chunks = wg_rows / 64;

    // ---- shared-memory layouts from the GMMA atoms (K-major or MN-major per operand)
    let atom = smem_atom(p.a_major, SmemSwizzle::Sw128, 16)?;
    let sw = atom
        .swizzle()
        .ok_or_else(|| GpuError::Unsupported("atom without a swizzle".into()))?;
    let swizzle_bytes: u32 = match sw.bits {
        0 => 0,
        b => 16u32 << b,
    };
    // descriptor layout type (bits 62-63): 1 = 128B, 2 = 64B, 3 = 32B, 0 = interleaved
    let layout_type: u64 = match sw.bits {
        3 => 1,
        2 => 2,
        1 => 3,
        _ => 0,
    };
    let row_width_elems = (16i64 << sw.bits) / 2; // 128 B / 2 B = 64 for Sw<3,..>
    if row_width_elems != bk {
        return bad(format!(
            "swizzle row of {row_width_elems} elements != bk {bk}"
        ));
    }
    let op_a = operand(p.a_major, bm, bk, "A")?;
    let op_b = operand(p.b_major, bn, bk, "B")?;
    let s_a = op_a.stage.clone();
    let k16 = op_a.k16;
    let chunk64 = op_a.mn64;
    // the rows of A owned by consumer cw start at sA(cw*wg_rows, 0)
    let cw_bytes = eval_off(&s_a, &format!("({wg_rows},0)"))? * 2;
    // ---- TMA coordinates from identity layouts
    let id_a = make_identity_layout(&format!("({},{})", p.m, p.k).parse()?)?;
    let id_b = make_identity_layout(&format!("({},{})", p.n, p.k).parse()?)?;
    let tiler_a: Tiler = format!("(_{bm},_{bk})").parse()?;
    let tiler_b: Tiler = format!("(_{bn},_{bk})").parse()?;
    let tiles_a = zipped_divide(&id_a, &tiler_a)?;
    let tiles_b = zipped_divide(&id_b, &tiler_b)?;
    // ---- epilogue staging box (TMA store): the 128-byte-swizzled K-major atom of the output type, tiled
    // to (64, ecols): rows of 128 B, the same Sw<3,4,3> on byte offsets as the operand stages
    let atom_o = smem_atom(Major::K, SmemSwizzle::Sw128, osz * 8)?;
    let s_e = tile_to_shape(
        atom_o.domain_layout()?,
        &format!("(_64,_{ecols})").parse()?,
        None,
    )?;
    let e_row = eval_off(&s_e, "(1,0)")? * osz;
    let e_8 = eval_off(&s_e, "(8,0)")? * osz;
    let e_sw = atom_o
        .swizzle()
        .ok_or_else(|| GpuError::Unsupported("output atom without a swizzle".into()))?;
    if e_row != 128 || e_8 != 1024 || e_sw.bits != 3 {
        return bad(format!("unexpected epilogue staging layout {s_e}"));
    }
    // ---- accumulator fragment
    let c_frag = gmma_c_layout(bn)?;
    let expect = format!(
        "((_4,_8,_4),(_2,_2,_{})):((_128,_1,_16),(_64,_8,_512))",
        bn / 8
    );
    if c_frag.to_string() != expect {
        return bad(format!("unexpected GMMA C layout {c_frag}"));
    }

    let tin = dtype_name(input);
    let tout = dtype_name(output);
    let name = format!(
        "cute_hgemm_{tin}_{tout}_{bm}x{bn}x{bk}_c{}{}_s{}_g{}{}{}{}",
        c.consumers,
        if c.pingpong { "pp" } else { "" },
        c.stages,
        c.group_m,
        if c.persistent { "_p" } else { "" },
        if c.tma_store { "_ts" } else { "" },
        if p.majors_tag() == "kk" {
            String::new()
        } else {
            format!("_{}", p.majors_tag())
        }
    );
    let tiles = ((p.m + bm - 1) / bm) * ((p.n + bn - 1) / bn);
    let grid = if c.persistent {
        // the runner clamps to the SM count at launch; this is the upper bound
        tiles.min(132)
    } else {
        tiles
    } as u32;
    let stage_bytes = c.stage_bytes();
    let a_bytes = bm * bk * 2;
    let nacc = bn / 2;
    let ab_ty = if input == DType::F16 { "f16" } else { "bf16" };

    let mut s = String::new();
    let w = &mut s;
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
    let _ = writeln!(
        w,
        "// {name}: D (M,N) row-major = A (M,K) {a_desc} * B (K,N) {b_desc}, {tin} in, f32 accumulate, {tout} out.\n\
// sm_90a: TMA (cp.async.bulk.tensor) -> {stages}-stage mbarrier pipeline -> wgmma.mma_async m64n{bn}k16.\n\
// CTA: 1 producer warp group (TMA, setmaxnreg.dec {pr}) + {cons} consumer warp group(s) (wgmma, setmaxnreg.inc {cr}),\n\
// CTA tile {bm}x{bn}x{bk}, each consumer {wg_rows}x{bn} = {m_chunks} x m64n{bn}k16 per k16 step.{persist}\n\
//\n\
// swizzle {sw} of the atoms -> TMA CU_TENSOR_MAP_SWIZZLE_{swb}B, descriptor layout type {layout_type}\n\
{doc_a}   ({a_bytes} B)\n\
{doc_b}   ({b_bytes} B)\n\
// TMA coordinates: zipped_divide(make_identity_layout((M,K)), ({bm},{bk})) = {tiles_a}\n\
//   tile (tm,kb) -> (M,K) coordinate (tm*{bm}, kb*{bk}) -> the TMA coordinates above (innermost first);\n\
//   zipped_divide(make_identity_layout((N,K)), ({bn},{bk})) = {tiles_b}\n\
// accumulator: gmma_c_layout({bn}) = {c_frag} ((T,V) -> m + 64*n):\n\
//   thread t = (t%4, t/4%8, t/32), value v = (v%2, v/2%2, v/4) -> row 16*(t/32) + t/4%8 + 8*(v/2%2), col 2*(t%4) + v%2 + 8*(v/4){epi_doc}",
        stages = c.stages,
        pr = c.producer_regs,
        cr = c.consumer_regs,
        cons = c.consumers,
        persist = if c.persistent {
            " Persistent: CTAs loop over tiles (stride gridDim.x)."
        } else {
            ""
        },
        b_bytes = bn * bk * 2,
        doc_a = op_a.doc,
        doc_b = op_b.doc,
        swb = swizzle_bytes,
        epi_doc = if c.tma_store {
            format!(
                "\n// epilogue (TMA store): smem box = tile_to_shape(atom<{tout}> {atom_o}, (64,{ecols})) = {s_e}\n\
//   rows sE(1,0) = {e_row} B apart, swizzle {e_sw} on elements = Sw<3,4,3> on bytes -> CU_TENSOR_MAP_SWIZZLE_128B;\n\
//   TMA store box D = ({ecols},64) innermost first; 2 staging boxes per consumer ({eb} B), {nq} boxes per 64-row chunk",
                eb = 2 * 64 * 128,
                nq = bn / ecols
            )
        } else {
            String::new()
        },
    );
    let _ = writeln!(
        w,
        r#"
typedef unsigned int u32;
typedef unsigned long long u64;
struct __align__(64) TmaDesc {{ u64 opaque[16]; }};

__device__ __forceinline__ u32 smem_addr(const void* p) {{
  u32 r; asm volatile("{{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }}" : "=r"(r) : "l"(p)); return r;
}}
__device__ __forceinline__ void mbar_init(u32 bar, u32 count) {{
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");
}}
__device__ __forceinline__ void mbar_expect_tx(u32 bar, u32 bytes) {{
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}}
__device__ __forceinline__ void mbar_arrive(u32 bar) {{
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}}
__device__ __forceinline__ void mbar_wait(u32 bar, u32 parity) {{
  u32 ok = 0;
  do {{
    asm volatile("{{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }}"
                 : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
  }} while (!ok);
}}
// TMA 2-D tile load into smem, completing (complete_tx) on the mbarrier.
__device__ __forceinline__ void tma_load_2d(u32 dst, const TmaDesc* map, u32 bar, int c0, int c1) {{
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {{%3, %4}}], [%2];"
               :: "r"(dst), "l"((u64)map), "r"(bar), "r"(c0), "r"(c1) : "memory");
}}
// TMA 2-D tile store from smem (bulk async-group of the issuing thread).
__device__ __forceinline__ void tma_store_2d(const TmaDesc* map, u32 src, int c0, int c1) {{
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {{%2, %3}}], [%1];"
               :: "l"((u64)map), "r"(src), "r"(c0), "r"(c1) : "memory");
}}
// sm_90 smem matrix descriptor: start>>4 [0,14), LBO>>4 [16,30), SBO>>4 [32,46), layout type [62,64).
// A: LBO {lbo_a} B, SBO {sbo_a} B; B: LBO {lbo_b} B, SBO {sbo_b} B (from the stage layouts above).
__device__ __forceinline__ u64 smem_desc_a(u32 addr) {{
  return (u64)((addr & 0x3FFFF) >> 4) | ((u64)({lbo_a} >> 4) << 16) | ((u64)({sbo_a} >> 4) << 32) | ((u64){layout_type} << 62);
}}
__device__ __forceinline__ u64 smem_desc_b(u32 addr) {{
  return (u64)((addr & 0x3FFFF) >> 4) | ((u64)({lbo_b} >> 4) << 16) | ((u64)({sbo_b} >> 4) << 32) | ((u64){layout_type} << 62);
}}"#,
        lbo_a = op_a.lbo,
        sbo_a = op_a.sbo,
        lbo_b = op_b.lbo,
        sbo_b = op_b.sbo,
    );
    // the wgmma wrapper
    let _ = write!(
        w,
        "__device__ __forceinline__ void wgmma_m64n{bn}k16(float (&d)[{nacc}], u64 da, u64 db) {{\n  asm volatile(\"{{\\n\"\n    \"wgmma.mma_async.sync.aligned.m64n{bn}k16.f32.{ab_ty}.{ab_ty} {{"
    );
    for i in 0..nacc {
        let _ = write!(w, "{}%{i}", if i == 0 { "" } else { "," });
    }
    let _ = writeln!(
        w,
        "}}, %{}, %{}, 1, 1, 1, {}, {};\\n\"\n    \"}}\\n\"",
        nacc,
        nacc + 1,
        op_a.tnsp,
        op_b.tnsp
    );
    let _ = write!(w, "    :");
    for i in 0..nacc {
        let _ = write!(w, "{}\"+f\"(d[{i}])", if i == 0 { " " } else { ", " });
    }
    let _ = writeln!(w, "\n    : \"l\"(da), \"l\"(db));\n}}");
    let _ = writeln!(
        w,
        "__device__ __forceinline__ void fence_acc(float (&d)[{nacc}]) {{\n#pragma unroll\n  for (int i = 0; i < {nacc}; ++i) asm volatile(\"\" : \"+f\"(d[i]) :: \"memory\");\n}}"
    );
    // stores
    match output {
        DType::F32 => {
            let _ = writeln!(
                w,
                r#"__device__ __forceinline__ void store_pair(float* p, float x, float y, bool both) {{
  if (both) asm volatile("st.global.v2.f32 [%0], {{%1, %2}};" :: "l"(p), "f"(x), "f"(y) : "memory");
  else asm volatile("st.global.f32 [%0], %1;" :: "l"(p), "f"(x) : "memory");
}}
__device__ __forceinline__ void st_shared_pair(u32 a, float x, float y) {{
  asm volatile("st.shared.v2.f32 [%0], {{%1, %2}};" :: "r"(a), "f"(x), "f"(y) : "memory");
}}
typedef float out_t;"#
            );
        }
        _ => {
            let t = if output == DType::F16 { "f16" } else { "bf16" };
            let _ = writeln!(
                w,
                r#"__device__ __forceinline__ void store_pair(unsigned short* p, float x, float y, bool both) {{
  if (both) {{ u32 v; asm("cvt.rn.{t}x2.f32 %0, %2, %1;" : "=r"(v) : "f"(x), "f"(y)); asm volatile("st.global.b32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }}
  else {{ unsigned short h; asm("cvt.rn.{t}.f32 %0, %1;" : "=h"(h) : "f"(x)); asm volatile("st.global.b16 [%0], %1;" :: "l"(p), "h"(h) : "memory"); }}
}}
__device__ __forceinline__ void st_shared_pair(u32 a, float x, float y) {{
  u32 v; asm("cvt.rn.{t}x2.f32 %0, %2, %1;" : "=r"(v) : "f"(x), "f"(y));
  asm volatile("st.shared.b32 [%0], %1;" :: "r"(a), "r"(v) : "memory");
}}
typedef unsigned short out_t;"#
            );
        }
    }
    let cw_row = if c.pingpong {
        String::new()
    } else {
        format!(" + cw * {wg_rows}")
    };
    let nj = bn / 8;
    let reg_epi = format!(
        r#"      // epilogue: gmma_c_layout({bn}) -> (row, col) of each accumulator; predicated at the M/N edges
      const int warp = tid / 32, lane = tid % 32;
#pragma unroll
      for (int c = 0; c < {m_chunks}; ++c) {{
#pragma unroll
        for (int h = 0; h < 2; ++h) {{
          const int row = tm * {bm}{cw_row} + c * 64 + 16 * warp + lane / 4 + 8 * h;
          if (row < M) {{
            out_t* drow = D + (long long)row * ldd;
#pragma unroll
            for (int j = 0; j < {nj}; ++j) {{
              const int col = tn * {bn} + 8 * j + 2 * (lane % 4);
              if (col < N) store_pair(drow + col, acc[c][4 * j + 2 * h], acc[c][4 * j + 2 * h + 1], col + 1 < N);
            }}
          }}
        }}
      }}
"#
    );
    let ejs = ecols / 8;
    // only generated when N is not a multiple of 16 bytes of D (the problem is known here)
    let edge = if p.n % (16 / osz) != 0 {
        format!(
            r#"          if (col0 + {ecols} > N) {{
            // N = {n} is not a multiple of {g16}: a box across the right edge (its end not 16-byte aligned): the TMA store would also write the
            // columns up to the next 16 bytes (measured: into D's padding), so these boxes are stored from
            // the registers, predicated (uniform branch: the whole warp group takes it)
#pragma unroll
            for (int h = 0; h < 2; ++h) {{
              const int row = tm * {bm}{cw_row} + c * 64 + 16 * warp + lane / 4 + 8 * h;
              if (row < M) {{
#pragma unroll
                for (int jj = 0; jj < {ejs}; ++jj) {{
                  const int col = col0 + 8 * jj + 2 * (lane % 4);
                  if (col < N)
                    store_pair(D + (long long)row * ldd + col, acc[c][4 * (q * {ejs} + jj) + 2 * h],
                               acc[c][4 * (q * {ejs} + jj) + 2 * h + 1], col + 1 < N);
                }}
              }}
            }}
            continue;
          }}
"#,
            n = p.n,
            g16 = 16 / osz,
        )
    } else {
        String::new()
    };
    let tma_epi = format!(
        r#"      // epilogue: gmma_c_layout({bn}) -> (row, col) of each accumulator -> the swizzled staging box sE
      // (row r, column col) at byte (r*{ecols} + col)*{osz} ^ ((r%8) << 4); one thread TMA-stores the box
      // (out-of-bounds rows and columns of the box are not written) while the others go on
      const int warp = tid / 32, lane = tid % 32;
#pragma unroll
      for (int c = 0; c < {m_chunks}; ++c) {{
#pragma unroll
        for (int q = 0; q < {nq}; ++q) {{
          const int col0 = tn * {bn} + q * {ecols};
{edge}          const u32 buf = ebase + (u32)(cw * 2 + (eb & 1u)) * 8192u;
          // the store issued two boxes ago from this buffer has finished reading it
          if (tid == 0) asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
          asm volatile("bar.sync %0, 128;" :: "r"(3 + cw) : "memory");
#pragma unroll
          for (int h = 0; h < 2; ++h) {{
            const u32 r = 16 * warp + lane / 4 + 8 * h;
#pragma unroll
            for (int jj = 0; jj < {ejs}; ++jj) {{
              const u32 off = (r * {ecols}u + 8 * jj + 2 * (lane % 4)) * {osz}u;
              st_shared_pair(buf + (off ^ (((off >> 7) & 7u) << 4)), acc[c][4 * (q * {ejs} + jj) + 2 * h],
                             acc[c][4 * (q * {ejs} + jj) + 2 * h + 1]);
            }}
          }}
          asm volatile("fence.proxy.async.shared::cta;" ::: "memory");   // generic-proxy writes -> TMA
          asm volatile("bar.sync %0, 128;" :: "r"(3 + cw) : "memory");
          if (tid == 0) {{
            tma_store_2d(&tmD, buf, col0, tm * {bm}{cw_row} + c * 64);
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
          }}
          ++eb;
        }}
      }}
"#,
        nq = bn / ecols,
    );
    let full_count = 1;
    let empty_count = owners;
    let _ = writeln!(
        w,
        r#"
extern "C" __global__ void __launch_bounds__({threads}, 1)
{name}(const __grid_constant__ TmaDesc tmA, const __grid_constant__ TmaDesc tmB,{tmd_param} out_t* __restrict__ D,
       int M, int N, int K, long long ldd) {{
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  // stages at a 1024-byte boundary (128-byte swizzle atoms repeat every 8 rows x 128 B)
  const u32 sbase = (smem_addr(smem_raw) + 1023u) & ~1023u;
  const u32 ebase = sbase + {stages}u * {stage_bytes}u;      // epilogue staging boxes ({epi_bytes} B)
  const u32 full_bar = ebase + {epi_bytes}u;   // TMA bytes landed (count {full_count} + tx)
  const u32 empty_bar = full_bar + {stages}u * 8u;            // consumers released the stage (count {empty_count})
  const int wg = threadIdx.x / 128, tid = threadIdx.x % 128;
  if (threadIdx.x == 0) {{
    for (int s = 0; s < {stages}; ++s) {{ mbar_init(full_bar + 8 * s, {full_count}); mbar_init(empty_bar + 8 * s, {empty_count}); }}
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("prefetch.tensormap [%0];" :: "l"((u64)&tmA) : "memory");
    asm volatile("prefetch.tensormap [%0];" :: "l"((u64)&tmB) : "memory");
  }}
  __syncthreads();
  const int tiles_m = (M + {bm} - 1) / {bm}, tiles_n = (N + {bn} - 1) / {bn}, ktiles = (K + {bk} - 1) / {bk};
  const int tiles = tiles_m * tiles_n;
  if (wg == 0) {{
    // producer warp group: one thread issues the TMA loads
    asm volatile("setmaxnreg.dec.sync.aligned.u32 {pr};");
    if (tid == 0) {{
      u32 it = 0;
      for (int t = blockIdx.x; t < tiles; t += gridDim.x) {{
        // raster: groups of {gm} tile rows
        const int per_group = {gm} * tiles_n, g = t / per_group, first_m = g * {gm};
        const int gsize = min(tiles_m - first_m, {gm});
        const int tm = first_m + (t % per_group) % gsize, tn = (t % per_group) / gsize;
        for (int kb = 0; kb < ktiles; ++kb, ++it) {{
          const u32 s = it % {stages}u, phase = (it / {stages}u) & 1u;
          mbar_wait(empty_bar + 8 * s, phase ^ 1u);
          mbar_expect_tx(full_bar + 8 * s, {stage_bytes}u);   // whole boxes count, out-of-bounds parts zero-filled
          const u32 sa = sbase + s * {stage_bytes}u, sb = sa + {a_bytes}u;
{loads}        }}
      }}
    }}
  }} else {{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 {cr};");
    const int cw = wg - 1;   // {consumer_doc}
    float acc[{m_chunks}][{nacc}];
    u32 eb = 0;   // epilogue boxes stored by this consumer (staging buffer eb % 2)
    (void)eb;
    for (int t = blockIdx.x{t0}; t < tiles; t += {tstep}gridDim.x) {{
      u32 it = (u32)((t - blockIdx.x) / gridDim.x) * (u32)ktiles;   // k-blocks the producer loaded before this tile
      const int per_group = {gm} * tiles_n, g = t / per_group, first_m = g * {gm};
      const int gsize = min(tiles_m - first_m, {gm});
      const int tm = first_m + (t % per_group) % gsize, tn = (t % per_group) / gsize;
#pragma unroll
      for (int c = 0; c < {m_chunks}; ++c)
#pragma unroll
        for (int i = 0; i < {nacc}; ++i) acc[c][i] = 0.0f;
      u32 prev = 0;{pp_wait}
      for (int kb = 0; kb < ktiles; ++kb, ++it) {{
        const u32 s = it % {stages}u, phase = (it / {stages}u) & 1u;
        mbar_wait(full_bar + 8 * s, phase);
        const u32 sa = sbase + s * {stage_bytes}u{cw_off}, sb = sbase + s * {stage_bytes}u + {a_bytes}u;
#pragma unroll
        for (int c = 0; c < {m_chunks}; ++c) fence_acc(acc[c]);
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
        for (int k = 0; k < {ksteps}; ++k) {{
#pragma unroll
          for (int c = 0; c < {m_chunks}; ++c)
            wgmma_m64n{bn}k16(acc[c], smem_desc_a(sa + c * {chunk64}u + k * {k16}u), smem_desc_b(sb + k * {k16_b}u));
        }}
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
#pragma unroll
        for (int c = 0; c < {m_chunks}; ++c) fence_acc(acc[c]);
        // keep one k-block of wgmma in flight; the previous one has finished reading its stage
        asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
        if (kb > 0 && tid == 0) mbar_arrive(empty_bar + 8 * prev);
        prev = s;
      }}
      asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
#pragma unroll
      for (int c = 0; c < {m_chunks}; ++c) fence_acc(acc[c]);
      if (tid == 0) mbar_arrive(empty_bar + 8 * prev);{pp_arrive}
{epilogue}    }}{epi_drain}
  }}
}}"#,
        threads = c.threads(),
        stages = c.stages,
        pr = c.producer_regs,
        cr = c.consumer_regs,
        gm = c.group_m,
        consumer_doc = if c.pingpong {
            "ping-pong: consumer cw takes the CTA's tiles cw, cw+2, ... (all rows)".to_string()
        } else {
            format!("consumer: rows [cw*{wg_rows}, (cw+1)*{wg_rows}) of every tile")
        },
        pp_wait = if c.pingpong {
            "\n      // ping-pong order: this mainloop starts after the other consumer's mainloop of the previous tile\n      \
             // (named barrier 1: consumer 0 -> 1, 2: consumer 1 -> 0), so the full-barrier phases waited on are the next ones\n      \
             if (cw == 1 || t != (int)blockIdx.x) asm volatile(\"bar.sync %0, 256;\" :: \"r\"(cw == 0 ? 2 : 1) : \"memory\");"
        } else {
            ""
        },
        pp_arrive = if c.pingpong {
            "\n      if (t + (int)gridDim.x < tiles) asm volatile(\"bar.arrive %0, 256;\" :: \"r\"(cw == 0 ? 1 : 2) : \"memory\");"
        } else {
            ""
        },
        t0 = if c.pingpong { " + cw * gridDim.x" } else { "" },
        tstep = if c.pingpong { "2 * " } else { "" },
        cw_off = if c.pingpong {
            String::new()
        } else {
            format!(" + cw * {cw_bytes}u")
        },
        ksteps = bk / 16,
        k16_b = op_b.k16,
        loads = {
            let mut l = String::new();
            for (op, sx, tmx, t, r) in [
                (&op_a, "sa", "tmA", "tm", bm),
                (&op_b, "sb", "tmB", "tn", bn),
            ] {
                for &(off, mn) in &op.boxes {
                    let (c0, c1) = if op.tnsp == 0 {
                        (format!("kb * {bk}"), format!("{t} * {r}"))
                    } else {
                        (format!("{t} * {r} + {mn}"), format!("kb * {bk}"))
                    };
                    let _ = writeln!(
                        l,
                        "          tma_load_2d({sx} + {off}u, &{tmx}, full_bar + 8 * s, {c0}, {c1});   // TMA {{{c0}, {c1}}}"
                    );
                }
            }
            l
        },
        tmd_param = if c.tma_store {
            " const __grid_constant__ TmaDesc tmD,"
        } else {
            ""
        },
        epi_bytes = c.epi_bytes(),
        epilogue = if c.tma_store { tma_epi } else { reg_epi },
        epi_drain = if c.tma_store {
            "\n    if (tid == 0) asm volatile(\"cp.async.bulk.wait_group 0;\" ::: \"memory\");   // stores done before exit"
        } else {
            ""
        },
    );

    let kernel = Kernel {
        name,
        source: s,
        grid: (grid, 1, 1),
        block: (c.threads(), 1, 1),
        dynamic_smem_bytes: c.smem_bytes(),
        args: vec![
            Arg::Ptr("D".into()),
            Arg::I32("M".into(), p.m as i32),
            Arg::I32("N".into(), p.n as i32),
            Arg::I32("K".into(), p.k as i32),
            Arg::I64("ldd".into(), p.ldd),
        ],
        pointer_alignment: 16,
    };
    Ok(HopperKernel {
        kernel,
        config: *c,
        problem: *p,
        input,
        output,
        box_a: op_a.tma_box,
        box_b: op_b.tma_box,
        swizzle_bytes,
        box_d: c.tma_store.then_some([ecols as u32, 64]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn layouts_behind_the_kernel() {
        let k = generate_hopper_gemm(
            &HopperProblem::padded(4095, 4097, 1023),
            DType::BF16,
            DType::F32,
            &HopperConfig::default(),
        )
        .unwrap();
        assert_eq!(k.swizzle_bytes, 128);
        assert_eq!(k.box_a, [64, 128]);
        let src = &k.kernel.source;
        assert!(src.contains("SBO = s(8,0) = 1024 B"), "{src}");
        assert!(src.contains("s(0,16) = 32 B"), "{src}");
        assert!(
            src.contains("= ((_8,_16),(_64,_1)):((_64,_512),(_1,_0))"),
            "{src}"
        );
        assert!(src.contains("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16"));
        assert!(src.contains("cp.async.bulk.tensor.2d"));
    }
    #[test]
    fn mn_major_operands() {
        let p = HopperProblem::padded(4095, 4097, 1023).with_majors(Major::MN, Major::MN);
        assert_eq!((p.lda, p.ldb), (4096, 4104));
        let k = generate_hopper_gemm(&p, DType::F16, DType::F16, &HopperConfig::large()).unwrap();
        let src = &k.kernel.source;
        if std::env::var("PRINT_SRC").is_ok() {
            println!("{src}");
        }
        assert_eq!(k.box_a, [64, 64]);
        assert_eq!(k.box_b, [64, 64]);
        assert!(
            src.contains("smem_atom(Major::MN, Sw128, 16) = Sw<3,3,3> o _0 o (_64,_8):(_1,_64)"),
            "{src}"
        );
        // A 128x64: K-blocks of 8 first (512 elements apart), then the two 64-row blocks (4096 apart)
        assert!(
            src.contains("= ((_64,_2),(_8,_8)):((_1,_4096),(_64,_512))"),
            "{src}"
        );
        assert!(src.contains("LBO = s(64,0) = 8192 B"));
        assert!(src.contains("SBO = s(0,8) = 1024 B"));
        assert!(src.contains("per k16 + s(0,16) = 2048 B"));
        assert!(src.contains(".f32.f16.f16 {"));
        assert!(src.contains("1, 1, 1, 1, 1;"), "tnspA = tnspB = 1");
        // B 256x64: four 64x64 boxes
        assert!(
            src.contains(
                "tma_load_2d(sb + 24576u, &tmB, full_bar + 8 * s, tn * 256 + 192, kb * 64)"
            )
        );
        let p = HopperProblem::padded(77, 300, 40).with_majors(Major::K, Major::MN);
        let k =
            generate_hopper_gemm(&p, DType::BF16, DType::F32, &HopperConfig::default()).unwrap();
        assert_eq!((k.box_a, k.box_b), ([64, 128], [64, 64]));
        assert!(k.kernel.source.contains("1, 1, 1, 0, 1;"));
    }
    #[test]
    fn tma_store_epilogue_layouts() {
        let k = generate_hopper_gemm(
            &HopperProblem::padded(4096, 4096, 4096),
            DType::F16,
            DType::F16,
            &HopperConfig::large(),
        )
        .unwrap();
        assert_eq!(k.box_d, Some([64, 64]));
        let src = &k.kernel.source;
        assert!(
            src.contains("= ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))"),
            "{src}"
        );
        assert!(src.contains("TMA store box D = (64,64)"), "{src}");
        assert!(src.contains("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"));
        assert!(
            !src.contains("is not a multiple of"),
            "no edge path for N = 4096"
        );
        let k = generate_hopper_gemm(
            &HopperProblem::padded(77, 301, 40),
            DType::BF16,
            DType::F32,
            &HopperConfig::large(),
        )
        .unwrap();
        assert_eq!(k.box_d, Some([32, 64]));
        assert!(
            k.kernel
                .source
                .contains("= ((_8,_8),(_32,_1)):((_32,_256),(_1,_0))")
        );
        assert!(k.kernel.source.contains("N = 301 is not a multiple of 4"));
    }
}
