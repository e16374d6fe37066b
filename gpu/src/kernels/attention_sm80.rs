//! Forward attention on tensor cores with `mma.sync.m16n8k16` (FlashAttention-2 style, SM80+):
//! `O = softmax(scale * Q·Kᵀ + mask)·V` and the log-sum-exp of each row.
//!
//! - One CTA per (`block_m` query rows, head, batch); 4 warps along M (the TiledMMA `(_4,_1,_1)` of
//!   m16n8k16 atoms), each owning `block_m / 4` rows; Q loaded once (`cp.async`, zero rows past the
//!   sequence) and kept in registers as A fragments (`ldmatrix`).
//! - K and V tiles of `block_n` keys double-buffered in swizzled shared memory by `cp.async` (rows past
//!   the last key zero-filled, never read), the copy of block `j+1`'s K and block `j`'s V overlapping the
//!   MMAs; `S = Q·Kᵀ` with K as a K-major B operand (`ldmatrix`), the online softmax
//!   ([`crate::piece::online_softmax`]) on the S accumulators, P packed to f16/bf16 straight from the
//!   accumulator registers as the A operand of `P·V` (the register map [`accumulator_as_a`]: two adjacent
//!   n8 C tiles are one k16 A tile), V as an MN-major B operand (`ldmatrix.trans`).
//! - Masks: keys past the sequence and, when causal, keys past the diagonal aligned to the bottom-right
//!   corner as FlashAttention 2 (>= 2.1) does: query `i` sees keys `j <= i + Sk - Sq`. A query row that
//!   sees no key (only when `Sq > Sk`) gets `O = 0` and `LSE = -inf`.
//! - Any sequence lengths; Q/K/V/O rows at any stride (head dim contiguous; strides multiples of 8
//!   elements); heads of K/V shared by `group = Hq / Hkv` query heads (GQA, MQA); packed variable-length
//!   batches through cumulative offsets `cu_q`, `cu_k` (FlashAttention's `varlen`).
//!
//! ```
//! use cute_gpu::{kernels::attention_sm80::{generate_attention, AttentionConfig}, nvrtc::{compile, nvrtc_available}, DType};
//! let k = generate_attention(&AttentionConfig::new(DType::F16, 64, true, false)).unwrap();
//! assert!(k.source.contains("mma.sync.aligned.m16n8k16") && k.source.contains("ldmatrix.sync.aligned.m8n8.x4.trans"));
//! if nvrtc_available() { assert!(!compile(&k.source, &k.name, "sm_80").unwrap().cubin.is_empty()); }
//! ```

use crate::arch::convert::{PACK, pack_fn};
use crate::arch::math::EX2;
use crate::arch::mma_sync::mma_m16n8k16;
use crate::arch::{cp_async::CP_ASYNC, ldmatrix::LDMATRIX, memory::SMEM_ADDR};
use crate::atom::{
    Fragment, accumulator_as_a, as_coordinates, atom_coords, sm80_mma, sm80_tiled_mma,
};
use crate::dtype::{DType, Major};
use crate::error::{GpuError, Result, ceil_div, config, to_i32, to_u32};
use crate::kernel::{Arg, Buffer, Kernel};
use crate::piece::fragment::{AddressPlan, accumulators_as_a};
use crate::piece::online_softmax::{OnlineSoftmax, mma_index};
use crate::piece::row_tile_copy::RowTileCopy;
use crate::piece::score_mask::{ScoreMask, key_limit};
use crate::piece::smem_tile::{OperandTile, TileShape, make_tile};
use cute_layout_core::atom::MmaTraits;

/// Warps of a CTA (along M).
const WARPS: i64 = 4;

/// The compiled variant: types, head dim, mask, varlen, tiles. The problem sizes are arguments.
///
/// ```
/// use cute_gpu::{kernels::attention_sm80::AttentionConfig, DType};
/// let c = AttentionConfig::new(DType::BF16, 64, true, false);
/// assert_eq!((c.block_m, c.block_n, c.q_in_registers), (128, 64, true)); // 32 query rows per warp
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AttentionConfig {
    /// f16 or bf16 (Q, K, V, O).
    pub dtype: DType,
    /// Head dimension (64, 128 or 256).
    pub head_dim: i64,
    /// Causal mask (bottom-right aligned).
    pub causal: bool,
    /// Packed variable-length batches (`cu_q`, `cu_k` parameters).
    pub varlen: bool,
    /// Query rows per CTA (64 or 128: 16 or 32 per warp).
    pub block_m: i64,
    /// Keys per K/V tile.
    pub block_n: i64,
    /// Q's A fragments loaded once into registers (else re-read from shared memory per k16 step, which
    /// d = 256 needs to stay within 255 registers).
    pub q_in_registers: bool,
}

impl AttentionConfig {
    /// The default tiles for `head_dim`: 128x64 (d = 64: 32 rows per warp), 64x64 (d = 128), 64x32
    /// (d = 256: the register budget of O and S; Q read from shared memory per k16 step).
    ///
    /// ```
    /// use cute_gpu::{kernels::attention_sm80::AttentionConfig, DType};
    /// let c = AttentionConfig::new(DType::F16, 256, false, true);
    /// assert_eq!((c.block_m, c.block_n, c.q_in_registers, c.varlen), (64, 32, false, true));
    /// ```
    pub fn new(dtype: DType, head_dim: i64, causal: bool, varlen: bool) -> AttentionConfig {
        let (block_m, block_n) = match head_dim {
            64 => (128, 64),
            128 => (64, 64),
            _ => (64, 32),
        };
        AttentionConfig {
            dtype,
            head_dim,
            causal,
            varlen,
            block_m,
            block_n,
            q_in_registers: head_dim <= 128,
        }
    }

    fn check(&self) -> Result<()> {
        let (d, bm, bn) = (self.head_dim, self.block_m, self.block_n);
        if !self.dtype.is_half() {
            return config(
                "attention_sm80",
                format!("{}: Q, K, V must be f16 or bf16", self.dtype.name()),
            );
        }
        if ![64, 128, 256].contains(&d) {
            return config(
                "attention_sm80",
                format!("head dim {d}: supported are 64, 128, 256"),
            );
        }
        if ![64, 128].contains(&bm) || ![32, 64, 128].contains(&bn) {
            return config(
                "attention_sm80",
                format!("tile {bm}x{bn}: block_m 64|128, block_n 32|64|128"),
            );
        }
        Ok(())
    }
}

/// The per-call values of the kernel's parameters (element strides; `sq`, `sk` are the maxima for varlen).
///
/// ```
/// # use cute_gpu::{attention::{bshd, plan::{plan, Request}}, DType};
/// # let l = bshd(2, 100, 8, 128).unwrap(); // (2,100,8,128):(102400,1024,128,1)
/// # let r = Request { q: &l, k: &l, v: &l, o: &l, dtype: DType::BF16, scale: None, causal: true, varlen: None };
/// # let p = plan(&r).unwrap();
/// assert_eq!((p.args.batch, p.args.sq, p.args.sk, p.args.hq, p.args.hkv), (2, 100, 100, 8, 8));
/// assert_eq!(p.args.strides[0], [102400, 1024, 128]); // Q's (batch, sequence, head) strides
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttentionArgs {
    /// Batches (sequences for varlen).
    pub batch: i64,
    /// Query rows per sequence (the longest for varlen).
    pub sq: i64,
    /// Keys per sequence (the longest for varlen).
    pub sk: i64,
    /// Query heads.
    pub hq: i64,
    /// Key/value heads (divides `hq`).
    pub hkv: i64,
    /// Strides (batch, sequence, head) of Q, K, V, O.
    pub strides: [[i64; 3]; 4],
    /// Strides (batch, head, row) of the log-sum-exp output.
    pub lse: [i64; 3],
    /// The softmax scale (> 0).
    pub scale: f32,
    /// Packed variable-length batches: the rows of Q and of K/V in the layouts' sequence mode (the
    /// totals the tensor maps span); `None` for fixed-length batches.
    pub packed: Option<[i64; 2]>,
}

const STRIDE_NAMES: [[&str; 3]; 5] = [
    ["q_b", "q_s", "q_h"],
    ["k_b", "k_s", "k_h"],
    ["v_b", "v_s", "v_h"],
    ["o_b", "o_s", "o_h"],
    ["lse_b", "lse_h", "lse_s"],
];

impl AttentionArgs {
    /// Sets the values of `k`'s parameters (by name) and its grid for this problem.
    ///
    /// ```
    /// # use cute_gpu::{attention::{bshd, plan::{plan, Request}}, DType};
    /// # let l = bshd(2, 100, 8, 128).unwrap(); // (2,100,8,128):(102400,1024,128,1)
    /// # let r = Request { q: &l, k: &l, v: &l, o: &l, dtype: DType::BF16, scale: None, causal: true, varlen: None };
    /// # let p = plan(&r).unwrap();
    /// use cute_gpu::kernels::attention_sm80::generate_attention;
    /// let mut k = generate_attention(&p.config).unwrap();
    /// p.args.apply(&p.config, &mut k).unwrap();
    /// assert_eq!(k.grid, (2, 8, 2)); // ceil(100 / 64) query blocks, heads, batches
    /// ```
    pub fn apply(&self, cfg: &AttentionConfig, k: &mut Kernel) -> Result<()> {
        self.set_scalars(k)?;
        let blocks = ceil_div("attention query blocks", self.sq, cfg.block_m)?;
        k.grid = (
            to_u32("attention grid.x (query blocks)", blocks.max(1))?,
            to_u32("attention grid.y (heads)", self.hq)?,
            to_u32("attention grid.z (batches)", self.batch)?,
        );
        Ok(())
    }

    /// Sets the values of `k`'s integer, stride and scale parameters (by name; every one `k` declares
    /// must be known).
    ///
    /// ```
    /// # use cute_gpu::{attention::{bshd, plan::{plan, Request}}, DType};
    /// # let l = bshd(2, 100, 8, 128).unwrap(); // (2,100,8,128):(102400,1024,128,1)
    /// # let r = Request { q: &l, k: &l, v: &l, o: &l, dtype: DType::BF16, scale: None, causal: true, varlen: None };
    /// # let p = plan(&r).unwrap();
    /// use cute_gpu::kernels::attention_sm80::generate_attention;
    /// let mut k = generate_attention(&p.config).unwrap();
    /// let gqa = cute_gpu::kernels::attention_sm80::AttentionArgs { hkv: 3, ..p.args };
    /// assert!(gqa.set_scalars(&mut k).unwrap_err().to_string().contains("3 K/V heads do not divide 8 query heads"));
    /// ```
    pub fn set_scalars(&self, k: &mut Kernel) -> Result<()> {
        if self.hkv <= 0 || self.hq % self.hkv != 0 {
            return config(
                "attention_sm80",
                format!(
                    "{} K/V heads do not divide {} query heads",
                    self.hkv, self.hq
                ),
            );
        }
        let ints = [
            ("Sq", self.sq),
            ("Sk", self.sk),
            ("group", self.hq / self.hkv),
            ("heads", self.hq),
            ("batches", self.batch),
        ];
        let strides: Vec<(&str, i64)> = STRIDE_NAMES
            .iter()
            .zip(self.strides.iter().chain([&self.lse]))
            .flat_map(|(n, v)| n.iter().copied().zip(v.iter().copied()))
            .collect();
        let lookup = |table: &[(&str, i64)], name: &str| {
            table
                .iter()
                .find(|(n, _)| *n == name)
                .map(|x| x.1)
                .ok_or_else(|| GpuError::Config {
                    kernel: "attention_sm80",
                    reason: format!("{}: no value for parameter {name}", k.name),
                })
        };
        let mut args = k.args.clone();
        for a in args.iter_mut() {
            match a {
                Arg::I32(n, v) => *v = to_i32(n, lookup(&ints, n)?)?,
                Arg::I64(n, v) => *v = lookup(&strides, n)?,
                Arg::F32(_, v) => *v = self.scale * std::f32::consts::LOG2_E,
                Arg::Ptr(_) | Arg::TensorMap(_) => {}
            }
        }
        k.args = args;
        Ok(())
    }
}

/// The shared tiles: Q (`block_m x d`), K (`block_n x d`, K-major B of Q·Kᵀ), V (`block_n x d`, MN-major B
/// of P·V), each with the swizzle the bank search picks.
struct Tiles {
    q: OperandTile,
    k: OperandTile,
    v: OperandTile,
}

fn tiles(mma: &MmaTraits, cfg: &AttentionConfig) -> Result<Tiles> {
    let threads = 32 * WARPS;
    let shape = |name, major, mn_tile, bk, warps_along| TileShape {
        name,
        major,
        mn_tile,
        bk,
        warps_along,
        threads,
    };
    let named = |mut t: OperandTile, n: &'static str| {
        t.name = n;
        t
    };
    let (d, bm, bn) = (cfg.head_dim, cfg.block_m, cfg.block_n);
    let t = Tiles {
        q: named(make_tile(mma, shape("A", Major::K, bm, d, WARPS))?, "Q"),
        k: named(make_tile(mma, shape("B", Major::K, bn, d, 1))?, "K"),
        v: named(make_tile(mma, shape("B", Major::MN, d, bn, 1))?, "V"),
    };
    for x in [&t.q, &t.k, &t.v] {
        if x.conflicts != 0 {
            return config(
                "attention_sm80",
                format!(
                    "{}: no conflict-free swizzle ({} conflicts with {})",
                    x.name, x.conflicts, x.swizzle
                ),
            );
        }
    }
    Ok(t)
}

fn header(cfg: &AttentionConfig, mma: &MmaTraits, t: &Tiles, smem: i64) -> Result<String> {
    let (d, bm, bn) = (cfg.head_dim, cfg.block_m, cfg.block_n);
    let ty = cfg.dtype.name();
    let mut c = format!(
        "// Generated by gpu::kernels::attention_sm80. O = softmax(scale*Q*K^T + mask)*V, LSE per row; {ty} in/out, f32 accumulation.\n"
    );
    c += &format!(
        "// head dim {d}; CTA: {bm} query rows x (head, batch), K/V tiles of {bn} keys; mask: {}{}\n",
        if cfg.causal {
            "causal (bottom-right: key j <= i + Sk - Sq) + "
        } else {
            ""
        },
        "keys past Sk"
    );
    c += &format!(
        "// TiledMMA (_{WARPS},_1,_1) warps of m16n8k16 atoms; atom thread-value layouts (lane, value) -> coordinates:\n"
    );
    c += &format!("//   A (m,k): {}\n", as_coordinates(&mma.layout_a, 16)?);
    c += &format!("//   B (n,k): {}\n", as_coordinates(&mma.layout_b, 8)?);
    c += &format!("//   C (m,n): {}\n", as_coordinates(&mma.layout_c, 16)?);
    c += &format!(
        "// P as A: A register r <- (n8 tile, C value) pairs {:?}\n",
        accumulator_as_a(mma)?
    );
    for x in [&t.q, &t.k, &t.v] {
        c += &format!(
            "// smem {}: {} o (_{},_{}):(_{},_1); ldmatrix{} lane -> (mn,k): {}\n",
            x.name,
            x.swizzle,
            x.rows,
            x.cols,
            x.cols,
            if x.major == Major::K { "" } else { ".trans" },
            x.lane_layout
        );
    }
    c += &format!("// shared memory: Q + 2 K stages + 2 V stages = {smem} bytes\n");
    Ok(c)
}

/// The parameters both attention kernels take after their inputs: O, the LSE, and with varlen the
/// cumulative sequence offsets of Q and K/V.
pub(crate) fn push_output_params(p: &mut Vec<String>, varlen: bool) {
    p.push("unsigned short* __restrict__ O".into());
    p.push("float* __restrict__ LSE".into());
    if varlen {
        p.push("const int* __restrict__ cu_q".into());
        p.push("const int* __restrict__ cu_k".into());
    }
}

fn signature(cfg: &AttentionConfig) -> String {
    let mut p: Vec<String> = ["Q", "K", "V"]
        .iter()
        .map(|n| format!("const unsigned short* __restrict__ {n}"))
        .collect();
    push_output_params(&mut p, cfg.varlen);
    p.extend(["int Sq", "int Sk", "int group"].map(String::from));
    for n in STRIDE_NAMES.iter().flatten() {
        p.push(format!("long long {n}"));
    }
    p.push("float scale_log2".into());
    p.join(",\n    ")
}

/// Thread coordinates, the CTA's (query block, head, batch), the sequence bounds and the key blocks.
fn prologue(cfg: &AttentionConfig) -> Result<String> {
    let tiled = sm80_tiled_mma(cfg.dtype, WARPS, 1)?;
    let [wm, _] = atom_coords(&tiled, "tid")?;
    let (bm, bn) = (cfg.block_m, cfg.block_n);
    let mut c = "  extern __shared__ __attribute__((aligned(128))) unsigned char smem[];\n  const unsigned int sbase = smem_u32(smem);\n  const int tid = threadIdx.x, lane = tid & 31;\n".to_string();
    c += &format!(
        "  const int wm = {wm};  // the warp's atom row: thr_layout_vmnk {} inverted\n",
        tiled.thr_layout_vmnk
    );
    c += if cfg.causal {
        "  const int m_block = gridDim.x - 1 - blockIdx.x;  // causal: the longest rows first\n"
    } else {
        "  const int m_block = blockIdx.x;\n"
    };
    c += "  const int h = blockIdx.y, b = blockIdx.z, hk = h / group;  // GQA: group query heads share K/V head hk\n";
    c += if cfg.varlen {
        "  const long long q_row0 = cu_q[b], k_row0 = cu_k[b];  // packed sequences\n  const int sq = cu_q[b + 1] - cu_q[b], sk = cu_k[b + 1] - cu_k[b];\n"
    } else {
        "  const long long q_row0 = 0, k_row0 = 0;\n  const int sq = Sq, sk = Sk;\n"
    };
    c += &format!("  const int m0 = m_block * {bm};\n  if (m0 >= sq) return;\n");
    for (g, s, hv) in [("Q", "q", "h"), ("K", "k", "hk"), ("V", "v", "hk")] {
        c += &format!(
            "  const unsigned short* {s}_g = {g} + (long long)b * {s}_b + (long long){hv} * {s}_h + {r0} * {s}_s;\n",
            r0 = if s == "q" { "q_row0" } else { "k_row0" }
        );
    }
    if cfg.causal {
        c += &format!(
            "  // keys this block sees: j <= i + sk - sq for its last row\n  const int n_end = max(0, min(sk, min(m0 + {bm}, sq) + sk - sq));\n"
        );
    } else {
        c += "  const int n_end = sk;\n";
    }
    c += &format!("  const int NB = (n_end + {bn} - 1) / {bn};\n");
    Ok(c)
}

/// The generated kernel's geometry: tiles, shared-memory offsets, atoms per warp.
struct Geometry {
    d: i64,
    bm: i64,
    bn: i64,
    mi_n: i64,
    k_off: i64,
    v_off: i64,
    smem: i64,
}

impl Geometry {
    fn new(cfg: &AttentionConfig, t: &Tiles) -> Geometry {
        let k_off = t.q.bytes();
        let v_off = k_off + 2 * t.k.bytes();
        Geometry {
            d: cfg.head_dim,
            bm: cfg.block_m,
            bn: cfg.block_n,
            mi_n: cfg.block_m / (16 * WARPS),
            k_off,
            v_off,
            smem: v_off + 2 * t.v.bytes(),
        }
    }
}

/// `S = Q·Kᵀ` over the K tile at `ks_`: per k16 step over the head dim and 16-key block, one ldmatrix.x4
/// (two n8 B fragments) and the warp's `mi_n` row atoms.
fn scores(g: &Geometry, k: &AddressPlan, q_smem: Option<&AddressPlan>) -> String {
    let (mi_n, bn) = (g.mi_n, g.bn);
    let mut c = format!(
        "    float s[{mi_n}][{}][4];\n    #pragma unroll\n    for (int mi = 0; mi < {mi_n}; ++mi)\n      #pragma unroll\n      for (int nj = 0; nj < {}; ++nj) s[mi][nj][0] = s[mi][nj][1] = s[mi][nj][2] = s[mi][nj][3] = 0.f;\n",
        bn / 8,
        bn / 8
    );
    for ks in 0..g.d / 16 {
        let qa = match q_smem {
            Some(q) => {
                c += &format!(
                    "    unsigned int qa{ks}[{mi_n}][4];  // Q's A fragments of this k16 step, from shared memory\n"
                );
                for mi in 0..mi_n {
                    c += &format!(
                        "    ldmatrix_x4(qa{ks}[{mi}], sbase + {});\n",
                        q.address(mi, ks)
                    );
                }
                format!("qa{ks}[mi]")
            }
            None => format!("qf[mi][{ks}]"),
        };
        for nb in 0..bn / 16 {
            c += &format!(
                "    {{ unsigned int r[4]; ldmatrix_x4(r, ks_ + {}); const unsigned int b0[2] = {{r[0], r[1]}}, b1[2] = {{r[2], r[3]}};\n      #pragma unroll\n      for (int mi = 0; mi < {mi_n}; ++mi) {{ mma_16816(s[mi][{}], {qa}, b0); mma_16816(s[mi][{}], {qa}, b1); }} }}\n",
                k.address(nb, ks),
                2 * nb,
                2 * nb + 1
            );
        }
    }
    c
}

/// `O += P·V` over the V tile at `vs_`: per k16 step over the keys and 16-wide block of the head dim, one
/// ldmatrix.x4.trans (two n8 B fragments) and the warp's row atoms (P from registers).
fn accumulate(g: &Geometry, v: &AddressPlan) -> String {
    let mut c = String::new();
    for ks in 0..g.bn / 16 {
        for db in 0..g.d / 16 {
            c += &format!(
                "    {{ unsigned int r[4]; ldmatrix_x4_trans(r, vs_ + {}); const unsigned int b0[2] = {{r[0], r[1]}}, b1[2] = {{r[2], r[3]}};\n      #pragma unroll\n      for (int mi = 0; mi < {}; ++mi) {{ mma_16816(o[mi][{}], pf[mi][{ks}], b0); mma_16816(o[mi][{}], pf[mi][{ks}], b1); }} }}\n",
                v.address(db, ks),
                g.mi_n,
                2 * db,
                2 * db + 1
            );
        }
    }
    c
}

/// The key-block loop: V(j) copy issued, K(j) waited, S, K(j+1) copy issued, mask, online softmax, P
/// packed, V(j) waited, O += P·V. Groups: [K j][V j][K j+1] so `wait_group 1` always means "all but the
/// newest copy landed".
fn main_loop(
    cfg: &AttentionConfig,
    g: &Geometry,
    t: &Tiles,
    f: &Fragment,
    mma: &MmaTraits,
) -> Result<String> {
    let (bn, d, mi_n) = (g.bn, g.d, g.mi_n);
    let (kb, vb) = (t.k.bytes(), t.v.bytes());
    let softmax = OnlineSoftmax::new(f, mi_n, mma_index)?;
    let mut c = format!(
        "  float o[{mi_n}][{}][4];\n  #pragma unroll\n  for (int mi = 0; mi < {mi_n}; ++mi)\n    #pragma unroll\n    for (int dj = 0; dj < {}; ++dj) o[mi][dj][0] = o[mi][dj][1] = o[mi][dj][2] = o[mi][dj][3] = 0.f;\n",
        d / 8,
        d / 8
    );
    c += &softmax.declare();
    c += "  for (int j = 0; j < NB; ++j) {\n    const int n0 = j * BN;\n"
        .replace("BN", &bn.to_string())
        .as_str();
    c += &format!(
        "    const unsigned int ks_ = sbase + {} + (j & 1) * {kb}, vs_ = sbase + {} + (j & 1) * {vb};\n",
        g.k_off, g.v_off
    );
    c += "    copy_v(vs_, v_g, v_s, n0, n_end);\n    cp_async_commit();\n    cp_async_wait<1>();\n    __syncthreads();  // K(j) landed; every warp is done with block j-1\n";
    let q = AddressPlan::new(&t.q, mi_n, d / 16)?;
    let q_smem = (!cfg.q_in_registers).then_some(&q);
    c += &scores(g, &AddressPlan::new(&t.k, bn / 16, d / 16)?, q_smem);
    c += &format!(
        "    if (j + 1 < NB) copy_k(sbase + {} + ((j + 1) & 1) * {kb}, k_g, k_s, n0 + {bn}, n_end);\n    cp_async_commit();\n",
        g.k_off
    );
    let needs = if cfg.causal {
        format!("n0 + {bn} > sk || n0 + {} > m0 + sk - sq", bn - 1)
    } else {
        format!("n0 + {bn} > sk")
    };
    let limit = |row: &str| key_limit(cfg.causal, row);
    let mask = ScoreMask {
        fragment: f,
        atoms: (mi_n, bn / 8),
        atom: (16, 8),
        index: mma_index,
    };
    c += &format!(
        "    if ({needs}) {{\n{}    }}\n",
        mask.emit("s", &format!("m0 + wm * {}", g.bm / WARPS), "n0", &limit)?
    );
    c += &softmax.update("s", bn / 8, "o", d / 8, "scale_log2");
    c += &accumulators_as_a(
        &accumulator_as_a(mma)?,
        ("s", "pf"),
        (mi_n, bn / 8),
        pack_fn(cfg.dtype),
    );
    c += "    cp_async_wait<1>();\n    __syncthreads();  // V(j) landed\n";
    c += &accumulate(g, &AddressPlan::new(&t.v, d / 16, bn / 16)?.with_xor()?);
    c += "  }\n  cp_async_wait<0>();\n";
    c += &softmax.finalize("o", d / 8, "scale_log2");
    Ok(c)
}

/// O (value pairs along columns stored as one 32-bit word) and LSE (one lane per row), rows past the
/// sequence not stored.
fn epilogue(cfg: &AttentionConfig, g: &Geometry, f: &Fragment) -> Result<String> {
    let sm = OnlineSoftmax::new(f, g.mi_n, mma_index)?;
    let values = cute_layout_core::size(&f.layout.mode(1)?)?.value;
    let pack = pack_fn(cfg.dtype);
    let row0 = format!("m0 + wm * {} + mi * 16 + {}", g.bm / WARPS, f.row);
    let mut c =
        "  unsigned short* o_g = O + (long long)b * o_b + (long long)h * o_h + q_row0 * o_s;\n"
            .to_string();
    c += &format!(
        "  #pragma unroll\n  for (int mi = 0; mi < {}; ++mi) {{\n",
        g.mi_n
    );
    for v in (0..values).step_by(2) {
        let [dr, dc] = f.value(v)?;
        c += &format!(
            "    {{\n      const int row = {row0} + {dr};\n      if (row < sq) {{\n        #pragma unroll\n        for (int dj = 0; dj < {}; ++dj)\n          *(unsigned int*)(o_g + (long long)row * o_s + dj * 8 + {} + {dc}) = {pack}(o[mi][dj][{v}], o[mi][dj][{}]);\n      }}\n    }}\n",
            g.d / 8,
            f.col,
            v + 1
        );
    }
    c += &format!(
        "    if (LSE != nullptr && {} == 0) {{  // one lane per row\n",
        f.col
    );
    for (r, dr) in sm.row_offsets.iter().enumerate() {
        c += &format!(
            "      {{ const int row = {row0} + {dr}; if (row < sq) LSE[(long long)b * lse_b + (long long)h * lse_h + (q_row0 + row) * lse_s] = sm_lse[mi][{r}]; }}\n"
        );
    }
    c += "    }\n  }\n";
    Ok(c)
}

/// The copies of Q, K, V (per-thread setup and lambdas), the ldmatrix address plans, the first copies
/// (Q, K block 0) and, when Q stays in registers, its A fragments.
fn operands(cfg: &AttentionConfig, g: &Geometry, t: &Tiles) -> Result<String> {
    let threads = 32 * WARPS;
    let mut c = String::new();
    for x in [&t.q, &t.k, &t.v] {
        c += &RowTileCopy { tile: x, threads }.emit()?;
    }
    let qp = AddressPlan::new(&t.q, g.mi_n, g.d / 16)?;
    c += "  // ldmatrix addresses: lane -> (mn,k) by the lane layouts above, + warp offset, swizzled\n";
    c += &qp.setup("wm")?;
    c += &AddressPlan::new(&t.k, g.bn / 16, g.d / 16)?.setup("0")?;
    c += &AddressPlan::new(&t.v, g.d / 16, g.bn / 16)?
        .with_xor()?
        .setup("0")?;
    c += &format!(
        "  copy_q(sbase, q_g, q_s, m0, sq);\n  cp_async_commit();\n  copy_k(sbase + {}, k_g, k_s, 0, n_end);\n  cp_async_commit();\n  cp_async_wait<1>();\n  __syncthreads();  // Q landed\n",
        g.k_off
    );
    if cfg.q_in_registers {
        c += &format!(
            "  unsigned int qf[{}][{}][4];  // Q as A fragments, kept in registers\n",
            g.mi_n,
            g.d / 16
        );
        for mi in 0..g.mi_n {
            for ks in 0..g.d / 16 {
                c += &format!(
                    "  ldmatrix_x4(qf[{mi}][{ks}], sbase + {});\n",
                    qp.address(mi, ks)
                );
            }
        }
    }
    Ok(c)
}

/// The parameter list (values set per call by [`AttentionArgs::apply`]) and the buffers (bytes set by
/// the caller).
fn placeholder_parameters(cfg: &AttentionConfig) -> (Vec<Arg>, Vec<Buffer>) {
    let mut args: Vec<Arg> = Vec::new();
    let mut buffers = Vec::new();
    for n in ["Q", "K", "V", "O", "LSE"].iter().chain(if cfg.varlen {
        ["cu_q", "cu_k"].iter()
    } else {
        [].iter()
    }) {
        args.push(Arg::Ptr(n.to_string()));
        buffers.push(Buffer {
            name: n.to_string(),
            bytes: 0,
        });
    }
    for n in ["Sq", "Sk", "group"] {
        args.push(Arg::I32(n.into(), 0));
    }
    for n in STRIDE_NAMES.iter().flatten() {
        args.push(Arg::I64(n.to_string(), 0));
    }
    args.push(Arg::F32("scale_log2".into(), 0.0));
    (args, buffers)
}

/// The kernel of variant `cfg` (problem values are arguments: set them with [`AttentionArgs::apply`]).
///
/// ```
/// use cute_gpu::{kernels::attention_sm80::{generate_attention, AttentionConfig}, DType};
/// let k = generate_attention(&AttentionConfig::new(DType::BF16, 128, true, false)).unwrap();
/// assert_eq!((k.name.as_str(), k.block), ("cute_attention_bf16_d128_64x64_causal", (128, 1, 1)));
/// ```
pub fn generate_attention(cfg: &AttentionConfig) -> Result<Kernel> {
    cfg.check()?;
    let mma = sm80_mma(cfg.dtype)?;
    let t = tiles(&mma, cfg)?;
    let g = Geometry::new(cfg, &t);
    let f = Fragment::new(&mma.layout_c, mma.extent(0)?, "lane")?;
    f.pairs_along_columns()?;
    let threads = 32 * WARPS;
    let name = format!(
        "cute_attention_{}_d{}_{}x{}{}{}",
        cfg.dtype.name(),
        g.d,
        g.bm,
        g.bn,
        if cfg.causal { "_causal" } else { "" },
        if cfg.varlen { "_varlen" } else { "" }
    ) + if cfg.q_in_registers { "" } else { "_qsmem" };
    let mut c = header(cfg, &mma, &t, g.smem)?;
    for s in [
        SMEM_ADDR,
        CP_ASYNC,
        LDMATRIX,
        &mma_m16n8k16(cfg.dtype),
        PACK,
        EX2,
    ] {
        c += s;
    }
    c += &format!(
        "extern \"C\" __global__ void __launch_bounds__({threads}, 1) {name}(\n    {}) {{\n",
        signature(cfg)
    );
    c += &prologue(cfg)?;
    c += &operands(cfg, &g, &t)?;
    c += &main_loop(cfg, &g, &t, &f, &mma)?;
    c += &epilogue(cfg, &g, &f)?;
    c += "}\n";
    let (args, buffers) = placeholder_parameters(cfg);
    Ok(Kernel {
        name,
        source: c,
        grid: (1, 1, 1),
        persistent: false,
        cluster: 1,
        block: (threads as u32, 1, 1),
        dynamic_smem_bytes: to_u32("shared memory bytes", g.smem)?,
        args,
        buffers,
        pointer_alignment: 16,
        dependent_launch: false,
    })
}
